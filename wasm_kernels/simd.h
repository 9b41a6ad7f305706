/* Portable 128-bit vectors: GCC/Clang vector extensions, the same source for wasm32 SIMD and
 * native (SSE2/NEON). Only the multiply-add differs: relaxed-SIMD FMA when the wasm build enables
 * it (-mrelaxed-simd), otherwise a separate multiply and add (never fused: build.sh passes
 * -ffp-contract=off to both targets). */
#ifndef TG_SIMD_H
#define TG_SIMD_H

#include <stddef.h>
#include <stdint.h>

#if defined(__wasm__)
#include <wasm_simd128.h>
#endif

#define TG_EXPORT __attribute__((visibility("default")))
#define TG_INLINE static inline __attribute__((always_inline))

typedef float f32x4 __attribute__((vector_size(16)));
typedef double f64x2 __attribute__((vector_size(16)));
typedef int32_t i32x4 __attribute__((vector_size(16)));
typedef int64_t i64x2 __attribute__((vector_size(16)));
/* Unaligned views for loads and stores anywhere in a NumPy buffer. */
typedef float f32x4u __attribute__((vector_size(16), aligned(4)));
typedef double f64x2u __attribute__((vector_size(16), aligned(8)));

TG_INLINE f32x4 ld_f32(const float *p) { return *(const f32x4u *)p; }
TG_INLINE void st_f32(float *p, f32x4 v) { *(f32x4u *)p = v; }
TG_INLINE f64x2 ld_f64(const double *p) { return *(const f64x2u *)p; }
TG_INLINE void st_f64(double *p, f64x2 v) { *(f64x2u *)p = v; }
TG_INLINE f32x4 splat_f32(float s) { return (f32x4){s, s, s, s}; }
TG_INLINE f64x2 splat_f64(double s) { return (f64x2){s, s}; }

/* acc + a * b */
TG_INLINE f32x4 madd_f32(f32x4 a, f32x4 b, f32x4 acc) {
#if defined(__wasm_relaxed_simd__)
  return (f32x4)wasm_f32x4_relaxed_madd((v128_t)a, (v128_t)b, (v128_t)acc);
#else
  return acc + a * b;
#endif
}
TG_INLINE f64x2 madd_f64(f64x2 a, f64x2 b, f64x2 acc) {
#if defined(__wasm_relaxed_simd__)
  return (f64x2)wasm_f64x2_relaxed_madd((v128_t)a, (v128_t)b, (v128_t)acc);
#else
  return acc + a * b;
#endif
}

/* Native builds on x86-64 with AVX2 and FMA (the default -march=native where the CPU has them):
 * 256-bit vectors and fused multiply-add for the matrix product (gemm.c), which then does
 * twice the work per instruction; 256-bit vectors, unfused, for exp (vexp.h: the same bits in
 * every lane as the 128-bit code). Products are not elementwise results, so the fused rounding
 * changes nothing that must match NumPy bit for bit (wasm's relaxed-SIMD build fuses too). */
#if !defined(__wasm__) && defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define TG_WIDE_GEMM 1
typedef float f32x8 __attribute__((vector_size(32)));
typedef double f64x4 __attribute__((vector_size(32)));
typedef int32_t i32x8 __attribute__((vector_size(32)));
typedef int64_t i64x4 __attribute__((vector_size(32)));
typedef float f32x8u __attribute__((vector_size(32), aligned(4)));
typedef double f64x4u __attribute__((vector_size(32), aligned(8)));
TG_INLINE f32x8 ld_f32x8(const float *p) { return *(const f32x8u *)p; }
TG_INLINE void st_f32x8(float *p, f32x8 v) { *(f32x8u *)p = v; }
TG_INLINE f64x4 ld_f64x4(const double *p) { return *(const f64x4u *)p; }
TG_INLINE void st_f64x4(double *p, f64x4 v) { *(f64x4u *)p = v; }
TG_INLINE f32x8 splat_f32x8(float s) { return (f32x8){s, s, s, s, s, s, s, s}; }
TG_INLINE f64x4 splat_f64x4(double s) { return (f64x4){s, s, s, s}; }
TG_INLINE f32x8 madd_f32x8(f32x8 a, f32x8 b, f32x8 acc) {
  return (f32x8)_mm256_fmadd_ps((__m256)a, (__m256)b, (__m256)acc);
}
TG_INLINE f64x4 madd_f64x4(f64x4 a, f64x4 b, f64x4 acc) {
  return (f64x4)_mm256_fmadd_pd((__m256d)a, (__m256d)b, (__m256d)acc);
}
#endif

/* Lane-wise select: mask lanes are all ones (take a) or all zeros (take b). */
TG_INLINE f32x4 sel_f32(i32x4 m, f32x4 a, f32x4 b) {
  return (f32x4)(((i32x4)a & m) | ((i32x4)b & ~m));
}
TG_INLINE f64x2 sel_f64(i64x2 m, f64x2 a, f64x2 b) {
  return (f64x2)(((i64x2)a & m) | ((i64x2)b & ~m));
}

/* Square root per lane (IEEE, exact like NumPy's). */
TG_INLINE f32x4 sqrt_f32(f32x4 v) {
#if defined(__wasm__)
  return (f32x4)wasm_f32x4_sqrt((v128_t)v);
#else
  for (int i = 0; i < 4; i++) v[i] = __builtin_sqrtf(v[i]);
  return v;
#endif
}
TG_INLINE f64x2 sqrt_f64(f64x2 v) {
#if defined(__wasm__)
  return (f64x2)wasm_f64x2_sqrt((v128_t)v);
#else
  for (int i = 0; i < 2; i++) v[i] = __builtin_sqrt(v[i]);
  return v;
#endif
}

#endif
