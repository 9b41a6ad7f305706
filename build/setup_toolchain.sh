#!/usr/bin/env bash
# Installs the C toolchain for the kernels (wasm_kernels/), when missing: Debian's clang and lld
# (apt, as root). Without root or apt, nothing is installed: the build then ships NumPy-only code
# and wasm_kernels/build.sh says so once.
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v clang >/dev/null && command -v wasm-ld >/dev/null; then
  exit 0
fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
if ! command -v apt-get >/dev/null || { [ -n "$SUDO" ] && ! command -v sudo >/dev/null; }; then
  echo "setup: clang/lld missing and apt-get not usable here; kernels will not be built" >&2
  exit 0
fi
echo "setup: installing Debian clang and lld (C kernels)" >&2
if ! { $SUDO apt-get update -qq >&2 &&
       DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends clang lld >&2; }; then
  echo "setup: installing clang/lld failed; kernels will not be built" >&2
fi
exit 0
