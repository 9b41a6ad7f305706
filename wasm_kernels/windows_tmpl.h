/* Window kernels for one element type (see windows.c and type_f32.h). Each result equals the
 * engine's NumPy code (engine/tapegrad/ops/conv_ops.py) bit for bit: gathers copy, sums add in
 * the NumPy loop's order, and max pooling picks the same entry. */
#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)
#define POOL_CHUNK 64 /* channels handled at once by max pooling (its running state) */

/* dst[0:c] = src[0:c] (whole vectors first). */
TG_INLINE void CAT(copy_c, SFX)(T *dst, const T *src, ptrdiff_t c) {
  ptrdiff_t k = 0;
  for (; k + L <= c; k += L) ST(dst + k, LD(src + k));
  for (; k < c; k++) dst[k] = src[k];
}

/* cols (n, oh, ow, kh, kw, c) = every window of x (n, h, w, c); entries outside x are `fill`
 * (a double for both types: one ctypes signature). */
TG_EXPORT void CAT(tg_im2col, SFX)(const int64_t *geo, const T *x, T *cols, double fill_value) {
  tg_geometry g = tg_geometry_of(geo);
  T fill = (T)fill_value;
  ptrdiff_t c = g.c, kwc = g.kw * c, win = g.kh * kwc, span = (g.kw - 1) * g.dw;
  /* the windows whose row lies inside x from left to right: ox in [lo, hi) */
  ptrdiff_t lo = g.pl > 0 ? (g.pl + g.sw - 1) / g.sw : 0, hi = 0;
  while (hi < g.ow && hi * g.sw - g.pl + span < g.w) hi++;
  if (lo > hi) lo = hi;
  for (ptrdiff_t b = 0; b < g.n; b++)
    for (ptrdiff_t oy = 0; oy < g.oh; oy++)
      for (ptrdiff_t i = 0; i < g.kh; i++) {
        ptrdiff_t y = oy * g.sh - g.pt + i * g.dh;
        T *o = cols + (b * g.oh + oy) * g.ow * win + i * kwc; /* (b, oy, 0, i, 0, 0) */
        const T *row = x + (b * g.h + y) * g.w * c;
        int inside = y >= 0 && y < g.h;
        ptrdiff_t a = inside ? lo : g.ow, z = inside ? hi : g.ow;
        if (g.dw == 1) /* a window's row is kw * c consecutive entries of x */
          for (ptrdiff_t ox = a; ox < z; ox++)
            CAT(copy_c, SFX)(o + ox * win, row + (ox * g.sw - g.pl) * c, kwc);
        else if (c == 1)
          for (ptrdiff_t ox = a; ox < z; ox++) {
            const T *src = row + ox * g.sw - g.pl;
            for (ptrdiff_t j = 0; j < g.kw; j++) o[ox * win + j] = src[j * g.dw];
          }
        else
          for (ptrdiff_t ox = a; ox < z; ox++)
            for (ptrdiff_t j = 0; j < g.kw; j++)
              CAT(copy_c, SFX)(o + ox * win + j * c, row + (ox * g.sw - g.pl + j * g.dw) * c, c);
        for (ptrdiff_t ox = 0; ox < g.ow; ox++) { /* the rest: windows over an edge */
          if (ox == a) ox = z;
          if (ox >= g.ow) break;
          for (ptrdiff_t j = 0; j < g.kw; j++) {
            ptrdiff_t xx = ox * g.sw - g.pl + j * g.dw;
            if (!inside || xx < 0 || xx >= g.w)
              for (ptrdiff_t k = 0; k < c; k++) o[ox * win + j * c + k] = fill;
            else
              CAT(copy_c, SFX)(o + ox * win + j * c, row + xx * c, c);
          }
        }
      }
}

/* img (n, h, w, c) = the sum of the windows cols (n, oh, ow, kh, kw, c) put back where Im2Col
 * took them. Each pixel starts at 0 and adds its entries in window-entry order (i, then j; at
 * most one window per entry), the order of NumPy's loop of one strided += per window entry;
 * padding is dropped. The sums run per pixel, COL2IM_CHUNK channels at a time. */
#define COL2IM_CHUNK 16
TG_EXPORT void CAT(tg_col2im, SFX)(const int64_t *geo, const T *cols, T *img) {
  tg_geometry g = tg_geometry_of(geo);
  ptrdiff_t c = g.c, kwc = g.kw * c, win = g.kh * kwc;
  T *o = img;
  for (ptrdiff_t b = 0; b < g.n; b++)
    for (ptrdiff_t y = 0; y < g.h; y++)
      for (ptrdiff_t x = 0; x < g.w; x++, o += c)
        for (ptrdiff_t c0 = 0; c0 < c; c0 += COL2IM_CHUNK) {
          ptrdiff_t cn = c - c0 < COL2IM_CHUNK ? c - c0 : COL2IM_CHUNK;
          T acc[COL2IM_CHUNK];
          for (ptrdiff_t k = 0; k < COL2IM_CHUNK; k++) acc[k] = (T)0;
          for (ptrdiff_t i = 0; i < g.kh; i++) {
            ptrdiff_t ty = y + g.pt - i * g.dh;
            if (ty < 0) break; /* (and for every later i) */
            if (g.sh != 1 && ty % g.sh) continue;
            ptrdiff_t oy = g.sh == 1 ? ty : ty / g.sh;
            if (oy >= g.oh) continue;
            const T *src = cols + (b * g.oh + oy) * g.ow * win + i * kwc + c0;
            for (ptrdiff_t j = 0; j < g.kw; j++) {
              ptrdiff_t tx = x + g.pl - j * g.dw;
              if (tx < 0) break;
              if (g.sw != 1 && tx % g.sw) continue;
              ptrdiff_t ox = g.sw == 1 ? tx : tx / g.sw;
              if (ox >= g.ow) continue;
              const T *e = src + ox * win + j * c;
              if (cn == COL2IM_CHUNK)
                for (ptrdiff_t k = 0; k < COL2IM_CHUNK; k++) acc[k] = acc[k] + e[k];
              else
                for (ptrdiff_t k = 0; k < cn; k++) acc[k] = acc[k] + e[k];
            }
          }
          for (ptrdiff_t k = 0; k < cn; k++) o[c0 + k] = acc[k];
        }
}
#undef COL2IM_CHUNK

/* Max pooling: out (n, oh, ow, c) the maximum of each window and idx the flat index into x of
 * the entry it came from (NumPy's intp: 64 bits natively, 32 in wasm32). The window's entries are visited in row-major order and a later one
 * takes over only when strictly greater, or when it is NaN and the maximum so far is not: the
 * first maximum, NaN counting as the largest, as NumPy's argmax has it. Entries outside x count
 * as -inf. Returns how many windows' maxima lie outside x (the first entry of a window that
 * starts in the padding, when nothing real is greater): 0, or the caller uses NumPy for the
 * whole call (whose index then points outside the window). */
TG_EXPORT ptrdiff_t CAT(tg_max_pool, SFX)(const int64_t *geo, const T *x, T *out,
                                          ptrdiff_t *idx) {
  tg_geometry g = tg_geometry_of(geo);
  ptrdiff_t outside = 0;
  T best[POOL_CHUNK];
  int32_t at[POOL_CHUNK]; /* the maximum's offset in x from the window's first entry */
  for (ptrdiff_t b = 0; b < g.n; b++)
    for (ptrdiff_t oy = 0; oy < g.oh; oy++)
      for (ptrdiff_t ox = 0; ox < g.ow; ox++) {
        ptrdiff_t y0 = oy * g.sh - g.pt, x0 = ox * g.sw - g.pl;
        ptrdiff_t p = ((b * g.oh + oy) * g.ow + ox) * g.c;
        for (ptrdiff_t c0 = 0; c0 < g.c; c0 += POOL_CHUNK) {
          ptrdiff_t cn = g.c - c0 < POOL_CHUNK ? g.c - c0 : POOL_CHUNK;
          int first_inside = y0 >= 0 && y0 < g.h && x0 >= 0 && x0 < g.w;
          const T *s0 = x + ((b * g.h + y0) * g.w + x0) * g.c + c0;
          for (ptrdiff_t k = 0; k < cn; k++) {
            best[k] = first_inside ? s0[k] : (T)-__builtin_inf();
            at[k] = 0;
          }
          for (ptrdiff_t i = 0; i < g.kh; i++)
            for (ptrdiff_t j = i ? 0 : 1; j < g.kw; j++) {
              ptrdiff_t y = y0 + i * g.dh, xx = x0 + j * g.dw;
              if (y < 0 || y >= g.h || xx < 0 || xx >= g.w) continue; /* -inf never takes over */
              int32_t off = (int32_t)((i * g.dh * g.w + j * g.dw) * g.c);
              const T *s = s0 + off;
              for (ptrdiff_t k = 0; k < cn; k++) {
                T v = s[k], m = best[k];
                int take = (v > m) | ((v != v) & (m == m));
                best[k] = take ? v : m;
                at[k] = take ? off : at[k];
              }
            }
          ptrdiff_t base = ((b * g.h + y0) * g.w + x0) * g.c + c0;
          for (ptrdiff_t k = 0; k < cn; k++) {
            outside += !first_inside && at[k] == 0; /* (every later entry's offset is > 0) */
            out[p + c0 + k] = best[k];
            idx[p + c0 + k] = base + at[k] + k;
          }
        }
      }
  return outside;
}

/* The gradient of max pooling: dx (size entries) gets g[o] at idx[o]. With `acc` NULL (windows
 * that do not overlap: each entry wins at most once) it is a store of g + 0 (so -0.0 gives 0.0,
 * as a sum from zero does); otherwise the values are summed in double in `acc` (size entries) in
 * the order of o, then rounded to T: NumPy's bincount with weights, then astype. Returns 0, or 1
 * when an index is outside [0, size) (the caller then uses NumPy, for its result or error). */
TG_EXPORT int CAT(tg_max_pool_grad, SFX)(ptrdiff_t n, const ptrdiff_t *idx, const T *g,
                                         ptrdiff_t size, T *dx, double *acc) {
  for (ptrdiff_t o = 0; o < n; o++)
    if (idx[o] < 0 || idx[o] >= size) return 1;
  if (acc == NULL) {
    for (ptrdiff_t i = 0; i < size; i++) dx[i] = (T)0;
    for (ptrdiff_t o = 0; o < n; o++) dx[idx[o]] = g[o] + (T)0;
    return 0;
  }
  for (ptrdiff_t i = 0; i < size; i++) acc[i] = 0.0;
  for (ptrdiff_t o = 0; o < n; o++) acc[idx[o]] = acc[idx[o]] + (double)g[o];
  for (ptrdiff_t i = 0; i < size; i++) dx[i] = (T)acc[i];
  return 0;
}

#undef POOL_CHUNK
#undef CAT
#undef CAT2
