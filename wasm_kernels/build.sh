#!/usr/bin/env bash
# Builds the C kernels. One source, two targets:
#   build.sh [--if-stale] native OUT_DIR -> OUT_DIR/libtapegrad_kernels.so (host compiler, -O3)
#   build.sh [--if-stale] wasm OUT_DIR   -> OUT_DIR/tapegrad_kernels_simd.wasm (wasm32 SIMD side module) and,
#                                when the clang knows relaxed SIMD, tapegrad_kernels_relaxed.wasm
# Exits 0 without output files when no suitable compiler is found (the engine then uses NumPy only),
# saying so once on stderr. CC / WASM_CC / WASM_LD override the compilers; NATIVE_FLAGS the target.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if_stale=0
[ "${1:-}" = "--if-stale" ] && { if_stale=1; shift; }
target=${1:?usage: build.sh native|wasm OUT_DIR}
out=${2:?usage: build.sh native|wasm OUT_DIR}
mkdir -p "$out"
SOURCES=(gemm.c elementwise.c reduce.c fused.c windows.c)
# Elementwise results must match NumPy's bit for bit: no contraction of a*b+c into an FMA.
# --if-stale: nothing to do when the outputs are newer than every source, header and this script,
# and were built with the same compiler and flags (recorded in OUT_DIR/.build-<target>.stamp).
up_to_date() {  # stamp text, then every expected output
  local f stamp=$1; shift
  [ "$(cat "$out/.build-$target.stamp" 2>/dev/null)" = "$stamp" ] || return 1
  for f in "$@"; do
    [ -f "$f" ] || return 1
    [ -z "$(find "$here" -newer "$f" -type f \( -name '*.[ch]' -o -name build.sh \))" ] || return 1
  done
}
COMMON=(-O3 -std=c11 -ffp-contract=off -fno-math-errno -Wall -Wextra -Werror)

newest_clang() {  # prints the newest clang-N (or clang) on PATH, if any
  for v in 22 21 20 19 18 17 16 15 14; do
    command -v "clang-$v" >/dev/null && { echo "clang-$v"; return; }
  done
  command -v clang >/dev/null && echo clang
  return 0
}

case "$target" in
native)
  cc=${CC:-$(newest_clang)}
  cc=${cc:-$(command -v cc || true)}
  if [ -z "$cc" ]; then
    echo "kernels: no C compiler found; the engine will use NumPy only" >&2
    exit 0
  fi
  # NATIVE_FLAGS: the default targets the build machine (setup builds where it runs).
  read -r -a flags <<< "${NATIVE_FLAGS:--march=native}"
  stamp="$cc ${COMMON[*]} ${flags[*]}"
  [ $if_stale = 1 ] && up_to_date "$stamp" "$out/libtapegrad_kernels.so" && exit 0
  echo "kernels: building $out/libtapegrad_kernels.so with $cc" >&2
  rm -f "$out/.build-$target.stamp"
  "$cc" "${COMMON[@]}" "${flags[@]}" -fPIC -shared -o "$out/libtapegrad_kernels.so" \
    "${SOURCES[@]/#/$here/}"
  echo "$stamp" > "$out/.build-$target.stamp"
  ;;
wasm)
  cc=${WASM_CC:-$(newest_clang)}
  ld=${WASM_LD:-}
  if [ -n "$cc" ] && [ -z "$ld" ]; then
    v=${cc#clang}
    for cand in "wasm-ld$v" wasm-ld; do command -v "$cand" >/dev/null && { ld=$cand; break; }; done
  fi
  if [ -z "$cc" ] || [ -z "$ld" ]; then
    echo "kernels: clang/wasm-ld not found; the Pyodide build will use NumPy only" \
         "(run bash build/setup_toolchain.sh)" >&2
    exit 0
  fi
  # Relaxed SIMD (FMA): the final opcodes need clang >= 16; older ones emit prototype opcodes.
  major=$("$cc" -dumpversion | cut -d. -f1)
  expected=("$out/tapegrad_kernels_simd.wasm")
  [ "$major" -ge 16 ] && expected+=("$out/tapegrad_kernels_relaxed.wasm")
  stamp="$cc $ld ${COMMON[*]}"
  [ $if_stale = 1 ] && up_to_date "$stamp" "${expected[@]}" && exit 0
  rm -f "$out/.build-$target.stamp"
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  build_side_module() {  # name, extra flags...
    local name=$1; shift
    local objs=()
    for s in "${SOURCES[@]}"; do
      "$cc" --target=wasm32-unknown-emscripten -ffreestanding -nostdlib -fPIC -fvisibility=hidden \
        -msimd128 "$@" "${COMMON[@]}" -c "$here/$s" -o "$tmp/${s%.c}.$name.o"
      objs+=("$tmp/${s%.c}.$name.o")
    done
    "$ld" --experimental-pic -shared --export-dynamic -o "$out/tapegrad_kernels_$name.wasm" "${objs[@]}"
  }
  echo "kernels: building WebAssembly side modules in $out with $cc" >&2
  build_side_module simd
  if [ "$major" -ge 16 ]; then
    build_side_module relaxed -mrelaxed-simd
  else
    echo "kernels: $cc is older than clang 16: no relaxed-SIMD module (plain SIMD only)" >&2
  fi
  echo "$stamp" > "$out/.build-$target.stamp"
  ;;
*) echo "usage: build.sh native|wasm OUT_DIR" >&2; exit 2 ;;
esac
