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

/* NAME_k (constants), NAME_consts() and NAME(x, k) for vectors VF of scalar S with int lanes VI:
 * K holds hi, lo, log2e, magic (1.5 * 2^mantissa bits), ln2_hi, ln2_lo (ln2 split so that
 * n * ln2_hi is exact); C the NC Taylor coefficients, highest degree first; MANT and BIAS place
 * 2^n in the exponent bits. */
#define TG_DEFINE_EXP(NAME, S, VF, VI, K, C, NC, MANT, BIAS)                                   \
  typedef struct {                                                                             \
    VF hi, lo, log2e, magic, ln2_hi, ln2_lo, c[NC], inf, zero;                                 \
    VI bias;                                                                                   \
  } NAME##_k;                                                                                  \
  TG_INLINE NAME##_k NAME##_consts(void) {                                                     \
    NAME##_k k;                                                                                \
    VF one = (VF){0} + (S)1;                                                                   \
    k.hi = one * K[0];                                                                         \
    k.lo = one * K[1];                                                                         \
    k.log2e = one * K[2];                                                                      \
    k.magic = one * K[3];                                                                      \
    k.ln2_hi = one * K[4];                                                                     \
    k.ln2_lo = one * K[5];                                                                     \
    for (int i = 0; i < NC; i++) k.c[i] = one * C[i];                                          \
    k.inf = one * (S)__builtin_inf();                                                          \
    k.zero = one * (S)0;                                                                       \
    k.bias = (VI){0} + BIAS;                                                                   \
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
    for (int i = 1; i < NC; i++) EACH p[j] = p[j] * r[j] + k->c[i];                            \
    /* 2^n in two halves so that n = max exponent + 1 (x near the overflow bound) still is */ \
    EACH {                                                                                     \
      VI ni = (VI)t[j] - (VI)k->magic, h = ni >> 1;                                            \
      VF s1 = (VF)((h + k->bias) << MANT), s2 = (VF)((ni - h + k->bias) << MANT);              \
      VF y = p[j] * s1 * s2;                                                                   \
      y = TG_SELV(VF, VI, x[j] > k->hi, k->inf, y);                                            \
      y = TG_SELV(VF, VI, x[j] < k->lo, k->zero, y);                                           \
      x[j] = TG_SELV(VF, VI, x[j] != x[j], x[j], y);                                           \
    }                                                                                          \
  }

static const float EXP_F32_K[6] = {88.72283935546875f, -87.33654022216797f, 1.44269504088896341f,
                                   12582912.0f, 0.693145751953125f, 1.428606765330187e-06f};
static const float EXP_F32_C[7] = {1.0f / 720, 1.0f / 120, 1.0f / 24, 1.0f / 6, 0.5f, 1.0f, 1.0f};
static const double EXP_F64_K[6] = {709.782712893384, -708.3964185322641, 1.4426950408889634,
                                    6755399441055744.0, 0.6931471803691238,
                                    1.9082149292705877e-10};
static const double EXP_F64_C[14] = {1.0 / 6227020800, 1.0 / 479001600, 1.0 / 39916800,
                                     1.0 / 3628800, 1.0 / 362880, 1.0 / 40320, 1.0 / 5040,
                                     1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5, 1.0, 1.0};
#define TG_DEFINE_EXP_F32(NAME, VF, VI) \
  TG_DEFINE_EXP(NAME, float, VF, VI, EXP_F32_K, EXP_F32_C, 7, 23, 127)
#define TG_DEFINE_EXP_F64(NAME, VF, VI) \
  TG_DEFINE_EXP(NAME, double, VF, VI, EXP_F64_K, EXP_F64_C, 14, 52, 1023)

TG_DEFINE_EXP_F32(exp_f32, f32x4, i32x4)
TG_DEFINE_EXP_F64(exp_f64, f64x2, i64x2)
#if defined(TG_WIDE_GEMM)
TG_DEFINE_EXP_F32(exp_f32x8, f32x8, i32x8)
TG_DEFINE_EXP_F64(exp_f64x4, f64x4, i64x4)
#endif
#undef EACH
#endif
