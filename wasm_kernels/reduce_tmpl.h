/* Sum, max and mean over the last axis (or all elements) and over the first axis, for one element
 * type. Sums over a row add blocks of 256 elements in vector lanes and the block sums in double,
 * which is at least as accurate as NumPy's pairwise sum; sums over the first axis add the rows in
 * order, as NumPy does (so they match it exactly). Max propagates NaN as np.max. */
#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)
#define BLOCK 256

static double CAT(row_sum, SFX)(const T *x, ptrdiff_t n) {
  double total = 0;
  for (ptrdiff_t b0 = 0; b0 < n; b0 += BLOCK) {
    ptrdiff_t end = n - b0 < BLOCK ? n : b0 + BLOCK, i = b0;
    V s0 = SPLAT(0), s1 = SPLAT(0), s2 = SPLAT(0), s3 = SPLAT(0);
    for (; i + 4 * L <= end; i += 4 * L) {
      s0 += LD(x + i);
      s1 += LD(x + i + L);
      s2 += LD(x + i + 2 * L);
      s3 += LD(x + i + 3 * L);
    }
    for (; i + L <= end; i += L) s0 += LD(x + i);
    V s = (s0 + s1) + (s2 + s3);
    T part = 0;
    for (int j = 0; j < L; j++) part += s[j];
    for (; i < end; i++) part += x[i];
    total += (double)part;
  }
  return total;
}

static T CAT(row_max, SFX)(const T *x, ptrdiff_t n) {
  ptrdiff_t i = 0;
  T best = x[0];
  if (n >= 2 * L) {
    V m0 = LD(x), m1 = LD(x + L);
    M nan = (m0 != m0) | (m1 != m1);
    for (i = 2 * L; i + 2 * L <= n; i += 2 * L) {
      V a = LD(x + i), b = LD(x + i + L);
      nan |= (a != a) | (b != b);
      m0 = SEL(a > m0, a, m0);
      m1 = SEL(b > m1, b, m1);
    }
    m0 = SEL(m1 > m0, m1, m0);
    for (int j = 0; j < L; j++) {
      if (nan[j]) return (T)__builtin_nan("");
      best = m0[j] > best ? m0[j] : best;
    }
  }
  for (; i < n; i++) {
    if (x[i] != x[i]) return x[i];
    if (x[i] > best) best = x[i];
  }
  return best;
}

/* out = op over the last axis (kind TG_ROWS: m results) or the first axis (TG_COLS: n results)
 * of the C-ordered m x n array x. n >= 1 for max and mean over rows, m >= 1 over columns.
 * Returns 0, or -1 for an unknown op or kind. */
TG_EXPORT int CAT(tg_reduce, SFX)(int op, int kind, ptrdiff_t m, ptrdiff_t n, const T *x, T *out) {
  if (kind == TG_ROWS) {
    for (ptrdiff_t r = 0; r < m; r++, x += n) {
      if (op == TG_SUM) out[r] = (T)CAT(row_sum, SFX)(x, n);
      else if (op == TG_MEAN) out[r] = (T)(CAT(row_sum, SFX)(x, n) / (double)n);
      else if (op == TG_MAX_R) out[r] = CAT(row_max, SFX)(x, n);
      else return -1;
    }
    return 0;
  }
  if (kind != TG_COLS || (op != TG_SUM && op != TG_MEAN && op != TG_MAX_R)) return -1;
  for (ptrdiff_t j = 0; j < n; j++) out[j] = x[j];
  for (ptrdiff_t r = 1; r < m; r++) {
    const T *row = x + r * n;
    ptrdiff_t j = 0;
    if (op == TG_MAX_R) {
      for (; j + L <= n; j += L) {
        V a = LD(row + j), b = LD(out + j);
        ST(out + j, SEL((a > b) | (a != a), a, b));
      }
      for (; j < n; j++) out[j] = (row[j] > out[j] || row[j] != row[j]) ? row[j] : out[j];
    } else {
      for (; j + L <= n; j += L) ST(out + j, LD(out + j) + LD(row + j));
      for (; j < n; j++) out[j] += row[j];
    }
  }
  if (op == TG_MEAN) {
    T count = (T)m;
    for (ptrdiff_t j = 0; j < n; j++) out[j] = out[j] / count;
  }
  return 0;
}

#undef BLOCK
#undef CAT
#undef CAT2
