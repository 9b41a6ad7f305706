#!/usr/bin/env bash
# Installs the C toolchain for the kernels (wasm_kernels/), when missing: Debian's clang and lld
# (apt, as root); clang-19 where the release packages it (relaxed-SIMD needs clang >= 16), else
# the default clang. Without apt or root nothing is installed: the engine then runs on NumPy only
# and wasm_kernels/build.sh says so.
set -euo pipefail
have() { command -v "$1" >/dev/null; }
for v in 22 21 20 19 18 17 16; do
  if have "clang-$v" && { have "wasm-ld-$v" || have wasm-ld; }; then exit 0; fi
done
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
if ! have apt-get || { [ -n "$SUDO" ] && ! have sudo; }; then
  have clang || echo "setup: no clang and no apt-get here; the engine will use NumPy only" >&2
  exit 0
fi
$SUDO apt-get update -qq >&2 || true
pkgs="clang lld"
if apt-cache show clang-19 lld-19 >/dev/null 2>&1; then pkgs="clang-19 lld-19"; fi
echo "setup: installing Debian $pkgs (C kernels)" >&2
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $pkgs >&2 ||
  echo "setup: installing $pkgs failed; the engine will use NumPy only" >&2
