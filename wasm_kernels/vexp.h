/* exp per lane without libm: x = n ln2 + r with |r| <= ln2/2 (n rounded by the 1.5*2^p trick),
 * exp(r) by its Taylor polynomial (degree 6 for float32, 13 for float64: within 1-2 ulp), and
 * 2^n built in the exponent bits. Overflow gives inf, deep underflow 0, NaN stays NaN. */
#ifndef TG_VEXP_H
#define TG_VEXP_H
#include "simd.h"

typedef struct {
  f32x4 hi, lo, log2e, magic, ln2_hi, ln2_lo, c[7], inf, zero;
  i32x4 bias;
} exp_f32_k;

TG_INLINE exp_f32_k exp_f32_consts(void) {
  exp_f32_k k;
  k.hi = splat_f32(88.72283935546875f);
  k.lo = splat_f32(-87.33654022216797f);
  k.log2e = splat_f32(1.44269504088896341f);
  k.magic = splat_f32(12582912.0f); /* 1.5 * 2^23 */
  k.ln2_hi = splat_f32(0.693145751953125f); /* ln2 split: n * ln2_hi is exact */
  k.ln2_lo = splat_f32(1.428606765330187e-06f);
  static const float c[7] = {1.0f / 720, 1.0f / 120, 1.0f / 24, 1.0f / 6, 0.5f, 1.0f, 1.0f};
  for (int i = 0; i < 7; i++) k.c[i] = splat_f32(c[i]);
  k.inf = splat_f32(__builtin_inff());
  k.zero = splat_f32(0.0f);
  k.bias = (i32x4){127, 127, 127, 127};
  return k;
}

/* exp of EXP_WAYS vectors at once, step by step across them: a single exp is one long chain of
 * dependent operations, and interleaving independent chains lets the CPU overlap them (3x faster
 * in V8 than one vector at a time). */
#ifndef EXP_WAYS
#define EXP_WAYS 4
#endif
#define EACH for (int j = 0; j < EXP_WAYS; j++)
TG_INLINE void exp_f32(f32x4 *x, const exp_f32_k *k) {
  f32x4 xc[EXP_WAYS], t[EXP_WAYS], r[EXP_WAYS], p[EXP_WAYS];
  EACH xc[j] = sel_f32(x[j] > k->hi, k->hi, sel_f32(x[j] < k->lo, k->lo, x[j]));
  EACH t[j] = xc[j] * k->log2e + k->magic;
  EACH r[j] = xc[j] - (t[j] - k->magic) * k->ln2_hi;
  EACH r[j] = r[j] - (t[j] - k->magic) * k->ln2_lo;
  EACH p[j] = k->c[0];
  for (int i = 1; i < 7; i++) EACH p[j] = p[j] * r[j] + k->c[i];
  /* 2^n in two halves so that n = 128 (x near the overflow bound) stays representable */
  EACH {
    i32x4 ni = (i32x4)t[j] - (i32x4)k->magic, h = ni >> 1;
    f32x4 s1 = (f32x4)((h + k->bias) << 23), s2 = (f32x4)((ni - h + k->bias) << 23);
    f32x4 y = p[j] * s1 * s2;
    y = sel_f32(x[j] > k->hi, k->inf, y);
    y = sel_f32(x[j] < k->lo, k->zero, y);
    x[j] = sel_f32(x[j] != x[j], x[j], y);
  }
}

typedef struct {
  f64x2 hi, lo, log2e, magic, ln2_hi, ln2_lo, c[14], inf, zero;
  i64x2 bias;
} exp_f64_k;

TG_INLINE exp_f64_k exp_f64_consts(void) {
  exp_f64_k k;
  k.hi = splat_f64(709.782712893384);
  k.lo = splat_f64(-708.3964185322641);
  k.log2e = splat_f64(1.4426950408889634);
  k.magic = splat_f64(6755399441055744.0); /* 1.5 * 2^52 */
  k.ln2_hi = splat_f64(0.6931471803691238); /* ln2 split: high part has zero low bits */
  k.ln2_lo = splat_f64(1.9082149292705877e-10);
  static const double c[14] = {1.0 / 6227020800, 1.0 / 479001600, 1.0 / 39916800,
                               1.0 / 3628800, 1.0 / 362880, 1.0 / 40320, 1.0 / 5040, 1.0 / 720,
                               1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5, 1.0, 1.0};
  for (int i = 0; i < 14; i++) k.c[i] = splat_f64(c[i]);
  k.inf = splat_f64(__builtin_inf());
  k.zero = splat_f64(0.0);
  k.bias = (i64x2){1023, 1023};
  return k;
}

TG_INLINE void exp_f64(f64x2 *x, const exp_f64_k *k) {
  f64x2 xc[EXP_WAYS], t[EXP_WAYS], r[EXP_WAYS], p[EXP_WAYS];
  EACH xc[j] = sel_f64(x[j] > k->hi, k->hi, sel_f64(x[j] < k->lo, k->lo, x[j]));
  EACH t[j] = xc[j] * k->log2e + k->magic;
  EACH r[j] = xc[j] - (t[j] - k->magic) * k->ln2_hi;
  EACH r[j] = r[j] - (t[j] - k->magic) * k->ln2_lo;
  EACH p[j] = k->c[0];
  for (int i = 1; i < 14; i++) EACH p[j] = p[j] * r[j] + k->c[i];
  EACH {
    i64x2 ni = (i64x2)t[j] - (i64x2)k->magic, h = ni >> 1;
    f64x2 s1 = (f64x2)((h + k->bias) << 52), s2 = (f64x2)((ni - h + k->bias) << 52);
    f64x2 y = p[j] * s1 * s2;
    y = sel_f64(x[j] > k->hi, k->inf, y);
    y = sel_f64(x[j] < k->lo, k->zero, y);
    x[j] = sel_f64(x[j] != x[j], x[j], y);
  }
}
#undef EACH
#endif
