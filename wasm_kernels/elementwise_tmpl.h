/* Elementwise unary and binary ops for one element type (see type_f32.h), with the broadcast
 * patterns a Dense layer produces as fast paths. Results equal NumPy's bit for bit (same IEEE
 * operations; max/min propagate NaN as np.maximum/np.minimum do). Output never aliases inputs. */
#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)

/* Binary ops: vector form VOP(a, b) and scalar form SOP(a, b). */
#define ADD_V(a, b) ((a) + (b))
#define SUB_V(a, b) ((a) - (b))
#define MUL_V(a, b) ((a) * (b))
#define DIV_V(a, b) ((a) / (b))
#define MAX_V(a, b) SEL(((a) > (b)) | ((a) != (a)), (a), (b))
#define MIN_V(a, b) SEL(((a) < (b)) | ((a) != (a)), (a), (b))
#define MAX_S(a, b) (((a) > (b) || (a) != (a)) ? (a) : (b))
#define MIN_S(a, b) (((a) < (b) || (a) != (a)) ? (a) : (b))

/* For one op: out = a op b over n elements with a and/or b a single broadcast value. */
#define BINARY_LOOPS(OP, VOP, SOP)                                                               \
  static void CAT(OP##_vv, SFX)(const T *a, const T *b, T *o, ptrdiff_t n) {                   \
    ptrdiff_t i = 0;                                                                           \
    for (; i + 2 * L <= n; i += 2 * L) {                                                       \
      V x0 = LD(a + i), x1 = LD(a + i + L), y0 = LD(b + i), y1 = LD(b + i + L);                \
      ST(o + i, VOP(x0, y0));                                                                  \
      ST(o + i + L, VOP(x1, y1));                                                              \
    }                                                                                          \
    for (; i < n; i++) o[i] = SOP(a[i], b[i]);                                                 \
  }                                                                                            \
  static void CAT(OP##_vs, SFX)(const T *a, T s, T *o, ptrdiff_t n) {                          \
    V y = SPLAT(s);                                                                            \
    ptrdiff_t i = 0;                                                                           \
    for (; i + L <= n; i += L) { V x = LD(a + i); ST(o + i, VOP(x, y)); }                      \
    for (; i < n; i++) o[i] = SOP(a[i], s);                                                    \
  }                                                                                            \
  static void CAT(OP##_sv, SFX)(T s, const T *b, T *o, ptrdiff_t n) {                          \
    V x = SPLAT(s);                                                                            \
    ptrdiff_t i = 0;                                                                           \
    for (; i + L <= n; i += L) { V y = LD(b + i); ST(o + i, VOP(x, y)); }                      \
    for (; i < n; i++) o[i] = SOP(s, b[i]);                                                    \
  }                                                                                            \
  static void CAT(OP, SFX)(int mode, ptrdiff_t m, ptrdiff_t n, const T *a, const T *b, T *o) { \
    switch (mode) {                                                                            \
    case TG_SAME: CAT(OP##_vv, SFX)(a, b, o, m * n); break;                                    \
    case TG_B_SCALAR: CAT(OP##_vs, SFX)(a, b[0], o, m * n); break;                             \
    case TG_A_SCALAR: CAT(OP##_sv, SFX)(a[0], b, o, m * n); break;                             \
    case TG_B_ROW:                                                                             \
      for (ptrdiff_t r = 0; r < m; r++) CAT(OP##_vv, SFX)(a + r * n, b, o + r * n, n);         \
      break;                                                                                   \
    case TG_A_ROW:                                                                             \
      for (ptrdiff_t r = 0; r < m; r++) CAT(OP##_vv, SFX)(a, b + r * n, o + r * n, n);         \
      break;                                                                                   \
    case TG_B_COL:                                                                             \
      for (ptrdiff_t r = 0; r < m; r++) CAT(OP##_vs, SFX)(a + r * n, b[r], o + r * n, n);      \
      break;                                                                                   \
    case TG_A_COL:                                                                             \
      for (ptrdiff_t r = 0; r < m; r++) CAT(OP##_sv, SFX)(a[r], b + r * n, o + r * n, n);      \
      break;                                                                                   \
    }                                                                                          \
  }

BINARY_LOOPS(add, ADD_V, ADD_V)
BINARY_LOOPS(sub, SUB_V, SUB_V)
BINARY_LOOPS(mul, MUL_V, MUL_V)
BINARY_LOOPS(div, DIV_V, DIV_V)
BINARY_LOOPS(max, MAX_V, MAX_S)
BINARY_LOOPS(min, MIN_V, MIN_S)

/* out = a op b; op: TG_ADD..TG_MIN; mode: how a and b broadcast to the m x n output.
 * Returns 0, or -1 for an unknown op or mode. */
TG_EXPORT int CAT(tg_binary, SFX)(int op, int mode, ptrdiff_t m, ptrdiff_t n, const T *a,
                                  const T *b, T *out) {
  if (mode < TG_SAME || mode > TG_A_COL) return -1;
  switch (op) {
  case TG_ADD: CAT(add, SFX)(mode, m, n, a, b, out); return 0;
  case TG_SUB: CAT(sub, SFX)(mode, m, n, a, b, out); return 0;
  case TG_MUL: CAT(mul, SFX)(mode, m, n, a, b, out); return 0;
  case TG_DIV: CAT(div, SFX)(mode, m, n, a, b, out); return 0;
  case TG_MAX: CAT(max, SFX)(mode, m, n, a, b, out); return 0;
  case TG_MIN: CAT(min, SFX)(mode, m, n, a, b, out); return 0;
  }
  return -1;
}

/* Unary ops; tails go through a zero-padded vector so the lanes use the same code. */
#define NEG_V(x) (-(x))
#define ABS_V(x) ((V)((M)(x) & ~(M)SPLAT(-0.0)))      /* clear the sign bit, as fabs */
#define SQUARE_V(x) ((x) * (x))
#define SQRT_V(x) VSQRT(x)
#define RELU_V(x) SEL(((x) > SPLAT(0)) | ((x) != (x)), (x), SPLAT(0)) /* max(x, 0), NaN stays */

#define UNARY_LOOP(OP, VOP)                                                                    \
  static void CAT(u_##OP, SFX)(const T *a, T *o, ptrdiff_t n) {                                  \
    ptrdiff_t i = 0;                                                                           \
    for (; i + L <= n; i += L) { V x = LD(a + i); ST(o + i, VOP(x)); }                         \
    if (i < n) {                                                                               \
      T buf[L] = {0};                                                                          \
      for (ptrdiff_t j = i; j < n; j++) buf[j - i] = a[j];                                     \
      V x = LD(buf);                                                                           \
      ST(buf, VOP(x));                                                                         \
      for (ptrdiff_t j = i; j < n; j++) o[j] = buf[j - i];                                     \
    }                                                                                          \
  }

UNARY_LOOP(neg, NEG_V)
UNARY_LOOP(abs, ABS_V)
UNARY_LOOP(square, SQUARE_V)
UNARY_LOOP(sqrt, SQRT_V)
UNARY_LOOP(relu, RELU_V)

/* out = op(a) over n elements; op: TG_NEG..TG_RELU. Returns 0, or -1 for an unknown op. */
TG_EXPORT int CAT(tg_unary, SFX)(int op, ptrdiff_t n, const T *a, T *out) {
  switch (op) {
  case TG_NEG: CAT(u_neg, SFX)(a, out, n); return 0;
  case TG_ABS: CAT(u_abs, SFX)(a, out, n); return 0;
  case TG_SQUARE: CAT(u_square, SFX)(a, out, n); return 0;
  case TG_SQRT: CAT(u_sqrt, SFX)(a, out, n); return 0;
  case TG_RELU: CAT(u_relu, SFX)(a, out, n); return 0;
  }
  return -1;
}

#undef CAT
#undef CAT2
