/* exp per lane without libm: x = n ln2 + r with |r| <= ln2/2 (n rounded by the 1.5*2^p trick),
 * exp(r) by its Taylor polynomial (degree 6 for float32, 13 for float64: within 1-2 ulp), and
 * 2^n built in the exponent bits. Overflow gives inf, deep underflow 0, NaN stays NaN.
 *
 * Written once per element type as a macro over the vector type, so that the 128-bit vectors
 * (both targets) and, natively with AVX2, 256-bit ones (exp_f32x8, exp_f64x4: twice the lanes
 * per instruction) run the same operations lane by lane: every lane gets the same bits whatever
 * the width (-ffp-contract=off, no fused multiply-add here). */
#ifndef TG_VEXP_H
#define TG_VEXP_H
#include "simd.h"

/* exp of EXP_WAYS vectors at once, step by step across them: a single exp is one long chain of
 * dependent operations, and interleaving independent chains lets the CPU overlap them (3x faster
 * in V8 than one vector at a time). */
#ifndef EXP_WAYS
#define EXP_WAYS 4
#endif
#define EACH for (int j = 0; j < EXP_WAYS; j++)
#define TG_SELV(VF, VI, m, a, b) ((VF)(((VI)(a) & (m)) | ((VI)(b) & ~(m))))

/* NAME_k (constants), NAME_consts() and NAME(x, k) for float vectors VF with int lanes VI. */
#define TG_DEFINE_EXP_F32(NAME, VF, VI)                                                        \
  typedef struct {                                                                             \
    VF hi, lo, log2e, magic, ln2_hi, ln2_lo, c[7], inf, zero;                                  \
    VI bias;                                                                                   \
  } NAME##_k;                                                                                  \
  TG_INLINE NAME##_k NAME##_consts(void) {                                                     \
    NAME##_k k;                                                                                \
    VF one = (VF){0} + 1.0f;                                                                   \
    k.hi = one * 88.72283935546875f;                                                           \
    k.lo = one * -87.33654022216797f;                                                          \
    k.log2e = one * 1.44269504088896341f;                                                      \
    k.magic = one * 12582912.0f; /* 1.5 * 2^23 */                                              \
    k.ln2_hi = one * 0.693145751953125f; /* ln2 split: n * ln2_hi is exact */                  \
    k.ln2_lo = one * 1.428606765330187e-06f;                                                   \
    static const float c[7] = {1.0f / 720, 1.0f / 120, 1.0f / 24, 1.0f / 6, 0.5f, 1.0f, 1.0f}; \
    for (int i = 0; i < 7; i++) k.c[i] = one * c[i];                                           \
    k.inf = one * __builtin_inff();                                                            \
    k.zero = one * 0.0f;                                                                       \
    k.bias = (VI){0} + 127;                                                                    \
    return k;                                                                                  \
  }                                                                                            \
  TG_INLINE void NAME(VF *x, const NAME##_k *k) {                                              \
    VF xc[EXP_WAYS], t[EXP_WAYS], r[EXP_WAYS], p[EXP_WAYS];                                    \
    EACH xc[j] = TG_SELV(VF, VI, x[j] > k->hi, k->hi,                                          \
                         TG_SELV(VF, VI, x[j] < k->lo, k->lo, x[j]));                          \
    EACH t[j] = xc[j] * k->log2e + k->magic;                                                   \
    EACH r[j] = xc[j] - (t[j] - k->magic) * k->ln2_hi;                                         \
    EACH r[j] = r[j] - (t[j] - k->magic) * k->ln2_lo;                                          \
    EACH p[j] = k->c[0];                                                                       \
    for (int i = 1; i < 7; i++) EACH p[j] = p[j] * r[j] + k->c[i];                             \
    /* 2^n in two halves so that n = 128 (x near the overflow bound) stays representable */   \
    EACH {                                                                                     \
      VI ni = (VI)t[j] - (VI)k->magic, h = ni >> 1;                                            \
      VF s1 = (VF)((h + k->bias) << 23), s2 = (VF)((ni - h + k->bias) << 23);                  \
      VF y = p[j] * s1 * s2;                                                                   \
      y = TG_SELV(VF, VI, x[j] > k->hi, k->inf, y);                                            \
      y = TG_SELV(VF, VI, x[j] < k->lo, k->zero, y);                                           \
      x[j] = TG_SELV(VF, VI, x[j] != x[j], x[j], y);                                           \
    }                                                                                          \
  }

#define TG_DEFINE_EXP_F64(NAME, VF, VI)                                                        \
  typedef struct {                                                                             \
    VF hi, lo, log2e, magic, ln2_hi, ln2_lo, c[14], inf, zero;                                 \
    VI bias;                                                                                   \
  } NAME##_k;                                                                                  \
  TG_INLINE NAME##_k NAME##_consts(void) {                                                     \
    NAME##_k k;                                                                                \
    VF one = (VF){0} + 1.0;                                                                    \
    k.hi = one * 709.782712893384;                                                             \
    k.lo = one * -708.3964185322641;                                                           \
    k.log2e = one * 1.4426950408889634;                                                        \
    k.magic = one * 6755399441055744.0; /* 1.5 * 2^52 */                                       \
    k.ln2_hi = one * 0.6931471803691238; /* ln2 split: high part has zero low bits */          \
    k.ln2_lo = one * 1.9082149292705877e-10;                                                   \
    static const double c[14] = {1.0 / 6227020800, 1.0 / 479001600, 1.0 / 39916800,           \
                                 1.0 / 3628800, 1.0 / 362880, 1.0 / 40320, 1.0 / 5040,         \
                                 1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5, 1.0, 1.0};      \
    for (int i = 0; i < 14; i++) k.c[i] = one * c[i];                                          \
    k.inf = one * __builtin_inf();                                                             \
    k.zero = one * 0.0;                                                                        \
    k.bias = (VI){0} + 1023;                                                                   \
    return k;                                                                                  \
  }                                                                                            \
  TG_INLINE void NAME(VF *x, const NAME##_k *k) {                                              \
    VF xc[EXP_WAYS], t[EXP_WAYS], r[EXP_WAYS], p[EXP_WAYS];                                    \
    EACH xc[j] = TG_SELV(VF, VI, x[j] > k->hi, k->hi,                                          \
                         TG_SELV(VF, VI, x[j] < k->lo, k->lo, x[j]));                          \
    EACH t[j] = xc[j] * k->log2e + k->magic;                                                   \
    EACH r[j] = xc[j] - (t[j] - k->magic) * k->ln2_hi;                                         \
    EACH r[j] = r[j] - (t[j] - k->magic) * k->ln2_lo;                                          \
    EACH p[j] = k->c[0];                                                                       \
    for (int i = 1; i < 14; i++) EACH p[j] = p[j] * r[j] + k->c[i];                            \
    EACH {                                                                                     \
      VI ni = (VI)t[j] - (VI)k->magic, h = ni >> 1;                                            \
      VF s1 = (VF)((h + k->bias) << 52), s2 = (VF)((ni - h + k->bias) << 52);                  \
      VF y = p[j] * s1 * s2;                                                                   \
      y = TG_SELV(VF, VI, x[j] > k->hi, k->inf, y);                                            \
      y = TG_SELV(VF, VI, x[j] < k->lo, k->zero, y);                                           \
      x[j] = TG_SELV(VF, VI, x[j] != x[j], x[j], y);                                           \
    }                                                                                          \
  }

TG_DEFINE_EXP_F32(exp_f32, f32x4, i32x4)
TG_DEFINE_EXP_F64(exp_f64, f64x2, i64x2)
#if defined(TG_WIDE_GEMM)
TG_DEFINE_EXP_F32(exp_f32x8, f32x8, i32x8)
TG_DEFINE_EXP_F64(exp_f64x4, f64x4, i64x4)
#endif
#undef EACH
#endif
