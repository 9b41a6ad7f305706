/* exp per lane without libm: x = n ln2 + r with |r| <= ln2/2 (n rounded by the 1.5*2^p trick),
 * exp(r) by its Taylor polynomial (degree 6 for float32, 13 for float64: within 1-2 ulp), and
 * 2^n built in the exponent bits. Overflow gives inf, deep underflow 0, NaN stays NaN. */
#ifndef TG_VEXP_H
#define TG_VEXP_H
#include "simd.h"

TG_INLINE f32x4 exp_f32(f32x4 x) {
  const f32x4 hi = splat_f32(88.72283935546875f), lo = splat_f32(-87.33654022216797f);
  f32x4 xc = sel_f32(x > hi, hi, sel_f32(x < lo, lo, x));
  const f32x4 magic = splat_f32(12582912.0f); /* 1.5 * 2^23 */
  f32x4 t = xc * splat_f32(1.44269504088896341f) + magic;
  f32x4 n = t - magic;
  f32x4 r = xc - n * splat_f32(0.693145751953125f); /* ln2 split: exact high part */
  r = r - n * splat_f32(1.428606765330187e-06f);
  f32x4 p = splat_f32(1.0f / 720);
  p = p * r + splat_f32(1.0f / 120);
  p = p * r + splat_f32(1.0f / 24);
  p = p * r + splat_f32(1.0f / 6);
  p = p * r + splat_f32(0.5f);
  p = p * r + splat_f32(1.0f);
  p = p * r + splat_f32(1.0f);
  /* 2^n in two halves so that n = 128 (x near the overflow bound) stays representable */
  i32x4 ni = (i32x4)t - (i32x4)magic;
  i32x4 h = ni >> 1;
  f32x4 s1 = (f32x4)((h + 127) << 23), s2 = (f32x4)((ni - h + 127) << 23);
  f32x4 y = p * s1 * s2;
  y = sel_f32(x > hi, splat_f32(__builtin_inff()), y);
  y = sel_f32(x < lo, splat_f32(0.0f), y);
  return sel_f32(x != x, x, y);
}

TG_INLINE f64x2 exp_f64(f64x2 x) {
  const f64x2 hi = splat_f64(709.782712893384), lo = splat_f64(-708.3964185322641);
  f64x2 xc = sel_f64(x > hi, hi, sel_f64(x < lo, lo, x));
  const f64x2 magic = splat_f64(6755399441055744.0); /* 1.5 * 2^52 */
  f64x2 t = xc * splat_f64(1.4426950408889634) + magic;
  f64x2 n = t - magic;
  f64x2 r = xc - n * splat_f64(0.6931471803691238); /* ln2 split: high part has zero low bits */
  r = r - n * splat_f64(1.9082149292705877e-10);
  static const double c[] = {1.0 / 6227020800, 1.0 / 479001600, 1.0 / 39916800,
                             1.0 / 3628800, 1.0 / 362880, 1.0 / 40320, 1.0 / 5040, 1.0 / 720,
                             1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5, 1.0, 1.0};
  f64x2 p = splat_f64(c[0]);
  for (int i = 1; i < 14; i++) p = p * r + splat_f64(c[i]);
  i64x2 ni = (i64x2)t - (i64x2)magic;
  i64x2 h = ni >> 1;
  f64x2 s1 = (f64x2)((h + 1023) << 52), s2 = (f64x2)((ni - h + 1023) << 52);
  f64x2 y = p * s1 * s2;
  y = sel_f64(x > hi, splat_f64(__builtin_inf()), y);
  y = sel_f64(x < lo, splat_f64(0.0), y);
  return sel_f64(x != x, x, y);
}
#endif
