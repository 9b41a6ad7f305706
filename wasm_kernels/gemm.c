/* Matrix products for float32 and float64 (see gemm_tmpl.h for the scheme). */
#include "simd.h"

/* Register tile: rows of A x columns of B. With fused multiply-add (relaxed SIMD) a 6x8 tile
 * holds 12 accumulators + 2 B vectors + 1 broadcast A, and V8 keeps them all in registers
 * (45 GFLOP/s measured in Node); a separate multiply and add need a register for the product,
 * and 5x8 is then the fastest (37 GFLOP/s, vs 22 for 6x8 and 34 for 4x8). */
#if defined(__wasm_relaxed_simd__) || defined(TG_WIDE_GEMM)
#define TILE_ROWS 6
#else
#define TILE_ROWS 5
#endif
/* Tile and cache-block sizes, each overridable with -D to retune (e.g. -DF32_MR=4). */
#ifndef F32_MR
#define F32_MR TILE_ROWS
#endif
#ifndef F32_NR
#if defined(TG_WIDE_GEMM)
#define F32_NR 16   /* 6 x 16: 12 accumulators of 8 lanes + 2 B vectors + 1 broadcast */
#else
#define F32_NR 8
#endif
#endif
#ifndef F32_KC
#define F32_KC 256
#endif
#ifndef F32_MC
#define F32_MC (12 * TILE_ROWS)
#endif
#ifndef F32_NC
#define F32_NC 2048
#endif
#ifndef F64_MR
#define F64_MR TILE_ROWS
#endif
#ifndef F64_NR
#if defined(TG_WIDE_GEMM)
#define F64_NR 8
#else
#define F64_NR 4
#endif
#endif
#ifndef F64_KC
#define F64_KC 256
#endif
#ifndef F64_MC
#define F64_MC (12 * TILE_ROWS)
#endif
#ifndef F64_NC
#define F64_NC 1024
#endif

/* float32 */
#define T float
#define SFX f32
#if defined(TG_WIDE_GEMM)
#define V f32x8
#define L 8
#define LD ld_f32x8
#define ST st_f32x8
#define SPLAT splat_f32x8
#define MADD madd_f32x8
#else
#define V f32x4
#define L 4
#define LD ld_f32
#define ST st_f32
#define SPLAT splat_f32
#define MADD madd_f32
#endif
#define MR F32_MR
#define NR F32_NR
#define KC F32_KC
#define MC F32_MC
#define NC F32_NC
#include "gemm_tmpl.h"
#undef T
#undef V
#undef L
#undef SFX
#undef LD
#undef ST
#undef SPLAT
#undef MADD
#undef MR
#undef NR
#undef KC
#undef MC
#undef NC

/* float64: the same register budget with half the lanes per vector. */
#define T double
#define SFX f64
#if defined(TG_WIDE_GEMM)
#define V f64x4
#define L 4
#define LD ld_f64x4
#define ST st_f64x4
#define SPLAT splat_f64x4
#define MADD madd_f64x4
#else
#define V f64x2
#define L 2
#define LD ld_f64
#define ST st_f64
#define SPLAT splat_f64
#define MADD madd_f64
#endif
#define MR F64_MR
#define NR F64_NR
#define KC F64_KC
#define MC F64_MC
#define NC F64_NC
#include "gemm_tmpl.h"

/* Which vector paths this build of the kernels takes, for test logs and benchmarks: the compile
 * target decides (native builds use -march=native; there is no run-time dispatch yet). */
TG_EXPORT const char *tg_simd_path(void) {
#if defined(__wasm_relaxed_simd__)
  return "wasm simd128 + relaxed-simd fused multiply-add";
#elif defined(__wasm__)
  return "wasm simd128";
#elif defined(TG_WIDE_GEMM) && defined(__AVX512F__)
  return "x86-64: matmul 256-bit AVX2+FMA, exp 256-bit AVX2, elementwise 128-bit; compiled for a CPU with AVX-512F";
#elif defined(TG_WIDE_GEMM)
  return "x86-64: matmul 256-bit AVX2+FMA, exp 256-bit AVX2, elementwise 128-bit";
#elif defined(__x86_64__)
  return "x86-64: 128-bit SSE2";
#elif defined(__aarch64__)
  return "aarch64: 128-bit NEON";
#else
  return "128-bit generic vectors";
#endif
}
