/* Fused rules for one element type: the backward of activations in one pass (where NumPy makes
 * two or three temporaries), the softmax cross-entropy gradient, and optimizer updates that
 * update their slots in place. The activation and optimizer formulas follow the engine's rules
 * operation by operation (no FMA), so they equal the NumPy chain bit for bit; those with exp
 * (softplus, softmax) are within a few ulp. */
#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)

/* Runs BODY for every vector of n elements; x_i (i < NIN) loaded from in[i], the result stored
 * to out. The tail goes through zero-padded buffers so that it uses the same vector code. */
#define FOR_VECTORS(NIN, n, in, out, BODY)                                                     \
  do {                                                                                         \
    ptrdiff_t i_ = 0;                                                                          \
    V x_[NIN];                                                                                 \
    for (; i_ + L <= (n); i_ += L) {                                                           \
      for (int k_ = 0; k_ < NIN; k_++) x_[k_] = LD((in)[k_] + i_);                             \
      ST((out) + i_, BODY);                                                                    \
    }                                                                                          \
    if (i_ < (n)) {                                                                            \
      T buf_[L];                                                                               \
      for (int k_ = 0; k_ < NIN; k_++) {                                                       \
        for (int j_ = 0; j_ < L; j_++) buf_[j_] = i_ + j_ < (n) ? (in)[k_][i_ + j_] : (T)0;    \
        x_[k_] = LD(buf_);                                                                     \
      }                                                                                        \
      ST(buf_, BODY);                                                                          \
      for (int j_ = 0; i_ + j_ < (n); j_++) (out)[i_ + j_] = buf_[j_];                         \
    }                                                                                          \
  } while (0)

/* d sigmoid: g * (y * (1 - y)) with y = sigmoid(x) */
TG_EXPORT void CAT(tg_sigmoid_grad, SFX)(ptrdiff_t n, const T *g, const T *y, T *out) {
  const T *in[2] = {g, y};
  FOR_VECTORS(2, n, in, out, x_[0] * (x_[1] * (SPLAT(1) - x_[1])));
}

/* d tanh: g * (1 - y * y) with y = tanh(x) */
TG_EXPORT void CAT(tg_tanh_grad, SFX)(ptrdiff_t n, const T *g, const T *y, T *out) {
  const T *in[2] = {g, y};
  FOR_VECTORS(2, n, in, out, x_[0] * (SPLAT(1) - x_[1] * x_[1]));
}

/* d relu: g where x > 0, else 0 */
TG_EXPORT void CAT(tg_relu_grad, SFX)(ptrdiff_t n, const T *g, const T *x, T *out) {
  const T *in[2] = {g, x};
  FOR_VECTORS(2, n, in, out, SEL(x_[1] > SPLAT(0), x_[0], SPLAT(0)));
}

/* e[i] = exp(x[i] * scale - shift) for cnt elements, EXP_WAYS vectors at a time (see vexp.h);
 * natively with AVX2 first in 256-bit vectors (WV), the same bits lane by lane. */
static void CAT(exp_block, SFX)(const T *x, T *e, ptrdiff_t cnt, T scale, T shift) {
  VEXP_CONSTS;
  V vs = SPLAT(scale), vh = SPLAT(shift), v[EXP_WAYS];
  ptrdiff_t i = 0;
#if defined(WV)
  WVEXP_CONSTS;
  WV ws = (WV){0} + scale, wh = (WV){0} + shift, w[EXP_WAYS];
  for (; i + EXP_WAYS * WL <= cnt; i += EXP_WAYS * WL) {
    for (int j = 0; j < EXP_WAYS; j++) w[j] = WLD(x + i + j * WL) * ws - wh;
    WVEXP(w);
    for (int j = 0; j < EXP_WAYS; j++) WST(e + i + j * WL, w[j]);
  }
#endif
  for (; i + EXP_WAYS * L <= cnt; i += EXP_WAYS * L) {
    for (int j = 0; j < EXP_WAYS; j++) v[j] = LD(x + i + j * L) * vs - vh;
    VEXP(v);
    for (int j = 0; j < EXP_WAYS; j++) ST(e + i + j * L, v[j]);
  }
  if (i < cnt) {  /* the tail through a zero-padded buffer */
    T buf[EXP_WAYS * L] = {0};
    for (ptrdiff_t j = i; j < cnt; j++) buf[j - i] = x[j];
    for (int j = 0; j < EXP_WAYS; j++) v[j] = LD(buf + j * L) * vs - vh;
    VEXP(v);
    for (int j = 0; j < EXP_WAYS; j++) ST(buf + j * L, v[j]);
    for (ptrdiff_t j = i; j < cnt; j++) e[j] = buf[j - i];
  }
}

/* d softplus: g * sigmoid(x) = g * (1 / (1 + exp(-x))), in chunks that stay in L1 */
TG_EXPORT void CAT(tg_softplus_grad, SFX)(ptrdiff_t n, const T *g, const T *x, T *out) {
  V one = SPLAT(1);
  for (ptrdiff_t c0 = 0; c0 < n; c0 += 512) {
    ptrdiff_t cnt = n - c0 < 512 ? n - c0 : 512;
    CAT(exp_block, SFX)(x + c0, out + c0, cnt, (T)-1, (T)0);
    const T *in[2] = {g + c0, out + c0};
    FOR_VECTORS(2, cnt, in, out + c0, x_[0] * (one / (one + x_[1])));
  }
}

/* Sum and max (NaN if any) of n >= 1 elements, in vector lanes. */
static T CAT(vsum, SFX)(const T *x, ptrdiff_t n) {
  V s0 = SPLAT(0), s1 = SPLAT(0);
  ptrdiff_t i = 0;
  for (; i + 2 * L <= n; i += 2 * L) {
    s0 += LD(x + i);
    s1 += LD(x + i + L);
  }
  s0 += s1;
  T total = 0;
  for (int j = 0; j < L; j++) total += s0[j];
  for (; i < n; i++) total += x[i];
  return total;
}

static T CAT(vmax, SFX)(const T *x, ptrdiff_t n) {
  T best = x[0];
  ptrdiff_t i = 0;
  if (n >= L) {
    V m = LD(x);
    M nan = m != m;
    for (i = L; i + L <= n; i += L) {
      V a = LD(x + i);
      nan |= a != a;
      m = SEL(a > m, a, m);
    }
    for (int j = 0; j < L; j++) {
      if (nan[j]) return (T)__builtin_nan("");
      best = m[j] > best ? m[j] : best;
    }
  }
  for (; i < n; i++) {
    if (x[i] != x[i]) return x[i];
    best = x[i] > best ? x[i] : best;
  }
  return best;
}

/* TensorFlow's gradient of loss_r = -sum_j z[r,j] * log_softmax(x[r])_j with respect to the
 * logits x, scaled by the incoming gradient g[r]: g[r] * (softmax(x[r]) - z[r]). m rows of n.
 * (The exact derivative has softmax * sum_j z[r,j]; TensorFlow's rule, and so this one, assumes
 * each row of labels sums to 1.)
 * `out` doubles as the buffer of exponentials. A row holding NaN or inf gives NaN, as NumPy. */
TG_EXPORT void CAT(tg_softmax_xent_grad, SFX)(ptrdiff_t m, ptrdiff_t n, const T *x, const T *z,
                                              const T *g, T *out) {
  /* out = x - rowmax, then exp over the whole block at once (short rows would otherwise spend
   * their time in exp's padded tail), then each row scaled. */
  if (n < 4 * L) {
    /* Few classes: per-row vector loops would spend their time in tails (1024 rows of 10 took
     * 60 us in Pyodide), so the row passes are scalar; exp stays one vector pass. */
    for (ptrdiff_t r = 0; r < m; r++) {
      const T *xr = x + r * n;
      T *o = out + r * n;
      T mx = CAT(vmax, SFX)(xr, n);
      for (ptrdiff_t j = 0; j < n; j++) o[j] = xr[j] - mx;
    }
    CAT(exp_block, SFX)(out, out, m * n, (T)1, (T)0);
    for (ptrdiff_t r = 0; r < m; r++, z += n, out += n) {
      T sum = 0;
      for (ptrdiff_t j = 0; j < n; j++) sum += out[j];
      T scale = (T)1 / sum, gr = g[r];
      for (ptrdiff_t j = 0; j < n; j++) out[j] = gr * (out[j] * scale - z[j]);
    }
    return;
  }
  for (ptrdiff_t r = 0; r < m; r++) {
    V vmx = SPLAT(CAT(vmax, SFX)(x + r * n, n));
    const T *in[1] = {x + r * n};
    FOR_VECTORS(1, n, in, out + r * n, x_[0] - vmx);
  }
  CAT(exp_block, SFX)(out, out, m * n, (T)1, (T)0);
  for (ptrdiff_t r = 0; r < m; r++, z += n, out += n) {
    T scale = (T)1 / CAT(vsum, SFX)(out, n);
    V vs = SPLAT(scale), vg = SPLAT(g[r]);
    const T *in2[2] = {out, z};
    FOR_VECTORS(2, n, in2, out, vg * (x_[0] * vs - x_[1]));
  }
}

/* The sparse form (integer labels, one per row). The forward pass keeps, per row, the sum of
 * exp(x - rowmax) and the label's shifted logit x[label] - rowmax; the caller finishes the loss
 * as log(sum) - picked (m logarithms, in NumPy: the kernels have no libm). The exponentials go to
 * `scratch`: row r at scratch + r * stride (stride 0: one row's buffer reused; stride n: all of
 * them kept, for tg_sparse_xent_grad_exp). Short rows (n < 4 * L) take exp over the whole block
 * at once, as above, so then scratch always holds m * n. Labels are int64, checked to lie in
 * [0, n). */
TG_EXPORT void CAT(tg_sparse_xent_fwd, SFX)(ptrdiff_t m, ptrdiff_t n, const T *x,
                                            const long long *labels, T *scratch, ptrdiff_t stride,
                                            T *sums, T *picked) {
  if (n < 4 * L) {
    for (ptrdiff_t r = 0; r < m; r++) {
      const T *xr = x + r * n;
      T *o = scratch + r * n;
      T mx = CAT(vmax, SFX)(xr, n);
      for (ptrdiff_t j = 0; j < n; j++) o[j] = xr[j] - mx;
      picked[r] = o[labels[r]];
    }
    CAT(exp_block, SFX)(scratch, scratch, m * n, (T)1, (T)0);
    for (ptrdiff_t r = 0; r < m; r++) {
      const T *o = scratch + r * n;
      T sum = 0;
      for (ptrdiff_t j = 0; j < n; j++) sum += o[j];
      sums[r] = sum;
    }
    return;
  }
  for (ptrdiff_t r = 0; r < m; r++) {
    const T *xr = x + r * n;
    T *o = scratch + r * stride;
    V vmx = SPLAT(CAT(vmax, SFX)(xr, n));
    const T *in[1] = {xr};
    FOR_VECTORS(1, n, in, o, x_[0] - vmx);
    picked[r] = o[labels[r]];
    CAT(exp_block, SFX)(o, o, n, (T)1, (T)0);
    sums[r] = CAT(vsum, SFX)(o, n);
  }
}

/* The logits' gradient from the exponentials and sums the forward pass kept:
 * out = g[r] * (e / sum - onehot(label)). `e` may be `out` (then it is overwritten). */
TG_EXPORT void CAT(tg_sparse_xent_grad_exp, SFX)(ptrdiff_t m, ptrdiff_t n, const T *e,
                                                 const T *sums, const long long *labels,
                                                 const T *g, T *out) {
  for (ptrdiff_t r = 0; r < m; r++, e += n, out += n) {
    T scale = (T)1 / sums[r], gr = g[r];
    T at_label = e[labels[r]];
    if (n < 4 * L) {
      for (ptrdiff_t j = 0; j < n; j++) out[j] = gr * (e[j] * scale);
    } else {
      V vs = SPLAT(scale), vg = SPLAT(gr);
      const T *in[1] = {e};
      FOR_VECTORS(1, n, in, out, vg * (x_[0] * vs));
    }
    out[labels[r]] = gr * (at_label * scale - (T)1);
  }
}

/* The same gradient from the logits alone (nothing kept): the exponentials as
 * tg_sparse_xent_fwd computes them, into `out`, then tg_sparse_xent_grad_exp in place. */
TG_EXPORT void CAT(tg_sparse_xent_grad, SFX)(ptrdiff_t m, ptrdiff_t n, const T *x,
                                             const long long *labels, const T *g, T *out) {
  T sums_small[64];
  for (ptrdiff_t r0 = 0; r0 < m; r0 += 64) {   /* 64 rows at a time: sums on the stack */
    ptrdiff_t rows = m - r0 < 64 ? m - r0 : 64;
    T picked[64];
    CAT(tg_sparse_xent_fwd, SFX)(rows, n, x + r0 * n, labels + r0, out + r0 * n, n, sums_small,
                                 picked);
    CAT(tg_sparse_xent_grad_exp, SFX)(rows, n, out + r0 * n, sums_small, labels + r0, g + r0,
                                      out + r0 * n);
  }
}

/* SGD with momentum, m updated in place: m = m * momentum - lr * g;
 * out = w + m, or with Nesterov out = w + momentum * m - lr * g. */
TG_EXPORT void CAT(tg_sgd_momentum, SFX)(ptrdiff_t n, const T *w, const T *g, T *m, T *out,
                                         double lr, double momentum, int nesterov) {
  V vlr = SPLAT((T)lr), vmo = SPLAT((T)momentum);
  const T *in[1] = {m};
  FOR_VECTORS(1, n, in, m, x_[0] * vmo);
  const T *in2[2] = {m, g};
  FOR_VECTORS(2, n, in2, m, x_[0] - vlr * x_[1]);
  const T *in3[3] = {w, m, g};
  if (nesterov) FOR_VECTORS(3, n, in3, out, x_[0] + vmo * x_[1] - vlr * x_[2]);
  else FOR_VECTORS(3, n, in3, out, x_[0] + x_[1]);
}

/* Adam, m and v updated in place: m += (g - m) * b1c; v += (g * g - v) * b2c;
 * out = w - alpha * m / (sqrt(v) + eps)  (b1c = 1 - beta_1, b2c = 1 - beta_2). */
TG_EXPORT void CAT(tg_adam, SFX)(ptrdiff_t n, const T *w, const T *g, T *m, T *v, T *out,
                                 double b1c, double b2c, double alpha, double eps) {
  V vb1 = SPLAT((T)b1c), vb2 = SPLAT((T)b2c), va = SPLAT((T)alpha), ve = SPLAT((T)eps);
  const T *in[2] = {m, g};
  FOR_VECTORS(2, n, in, m, x_[0] + (x_[1] - x_[0]) * vb1);
  const T *in2[2] = {v, g};
  FOR_VECTORS(2, n, in2, v, x_[0] + (x_[1] * x_[1] - x_[0]) * vb2);
  const T *in3[3] = {w, m, v};
  FOR_VECTORS(3, n, in3, out, x_[0] - va * x_[1] / (VSQRT(x_[2]) + ve));
}

#undef FOR_VECTORS
#undef CAT
#undef CAT2
