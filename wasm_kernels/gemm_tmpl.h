/* GEMM for one element type, included by gemm.c once per type with these macros defined:
 *   T (element), V (vector), L (lanes), SFX (name suffix), LD/ST/SPLAT/MADD (vector helpers),
 *   MR x NR (register tile, NR a multiple of L), KC/MC/NC (cache blocks).
 *
 * C[m,n] = A[m,k] @ B[k,n] for `batch` matrices. A and B are read through element strides
 * (row stride, column stride), so transposed or strided operands cost nothing extra: they are
 * packed anyway. C is row-major with row stride ldc. Goto/BLIS scheme: B blocks of KC x NC and
 * A blocks of MC x KC are packed into contiguous panels (NR columns, MR rows, zero padded at the
 * edges) so that the micro-kernel streams both from cache with unit stride. */
#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)
#define NV (NR / L)

/* MR x NR tile of packed A (kc x MR, k-major) times packed B (kc x NR): written or added to C.
 * Not inlined: V8 runs a wasm function in its baseline tier until a later call of it, so the hot
 * loop must be a function called often (it is then optimized within the first product). */
__attribute__((noinline)) static void CAT(micro, SFX)(ptrdiff_t kc, const T *restrict ap, const T *restrict bp,
                            T *restrict c, ptrdiff_t ldc, int accumulate, ptrdiff_t mr,
                            ptrdiff_t nr) {
  V acc[MR][NV];
  for (int i = 0; i < MR; i++)
    for (int j = 0; j < NV; j++) acc[i][j] = SPLAT(0);
  for (ptrdiff_t p = 0; p < kc; p++) {
    V b[NV];
    for (int j = 0; j < NV; j++) b[j] = LD(bp + j * L);
    for (int i = 0; i < MR; i++) {
      V a = SPLAT(ap[i]);
      for (int j = 0; j < NV; j++) acc[i][j] = MADD(a, b[j], acc[i][j]);
    }
    ap += MR;
    bp += NR;
  }
  if (mr == MR && nr == NR) {
    for (int i = 0; i < MR; i++)
      for (int j = 0; j < NV; j++) {
        T *q = c + i * ldc + j * L;
        ST(q, accumulate ? LD(q) + acc[i][j] : acc[i][j]);
      }
    return;
  }
  T tile[MR * NR];
  for (int i = 0; i < MR; i++)
    for (int j = 0; j < NV; j++) ST(tile + i * NR + j * L, acc[i][j]);
  for (ptrdiff_t i = 0; i < mr; i++)
    for (ptrdiff_t j = 0; j < nr; j++)
      c[i * ldc + j] = accumulate ? c[i * ldc + j] + tile[i * NR + j] : tile[i * NR + j];
}

/* A[i0:i0+mc, p0:p0+kc] into MR-row panels: panel r holds, for each p, MR consecutive values. */
static void CAT(pack_a, SFX)(ptrdiff_t mc, ptrdiff_t kc, const T *a, ptrdiff_t rs,
                             ptrdiff_t cs, T *restrict out) {
  for (ptrdiff_t i0 = 0; i0 < mc; i0 += MR) {
    ptrdiff_t rows = mc - i0 < MR ? mc - i0 : MR;
    const T *src = a + i0 * rs;
    if (rows == MR && cs == 1) {
      for (ptrdiff_t p = 0; p < kc; p++)
        for (int i = 0; i < MR; i++) out[p * MR + i] = src[i * rs + p];
    } else {
      for (ptrdiff_t p = 0; p < kc; p++)
        for (int i = 0; i < MR; i++) out[p * MR + i] = i < rows ? src[i * rs + p * cs] : (T)0;
    }
    out += kc * MR;
  }
}

/* B[p0:p0+kc, j0:j0+nc] into NR-column panels: panel s holds, for each p, NR consecutive values. */
static void CAT(pack_b, SFX)(ptrdiff_t kc, ptrdiff_t nc, const T *b, ptrdiff_t rs,
                             ptrdiff_t cs, T *restrict out) {
  for (ptrdiff_t j0 = 0; j0 < nc; j0 += NR) {
    ptrdiff_t cols = nc - j0 < NR ? nc - j0 : NR;
    const T *src = b + j0 * cs;
    if (cols == NR && cs == 1) {
      for (ptrdiff_t p = 0; p < kc; p++)
        for (int j = 0; j < NV; j++) ST(out + p * NR + j * L, LD(src + p * rs + j * L));
    } else {
      for (ptrdiff_t p = 0; p < kc; p++)
        for (int j = 0; j < NR; j++) out[p * NR + j] = j < cols ? src[p * rs + j * cs] : (T)0;
    }
    out += kc * NR;
  }
}

static ptrdiff_t CAT(round_up, SFX)(ptrdiff_t x, ptrdiff_t r) { return (x + r - 1) / r * r; }

/* Elements of scratch memory tg_gemm_* needs for these sizes (packed A block + packed B block). */
TG_EXPORT ptrdiff_t CAT(tg_gemm_work, SFX)(ptrdiff_t m, ptrdiff_t n, ptrdiff_t k) {
  ptrdiff_t kc = k < KC ? k : KC;
  ptrdiff_t mc = CAT(round_up, SFX)(m < MC ? m : MC, MR);
  ptrdiff_t nc = CAT(round_up, SFX)(n < NC ? n : NC, NR);
  return kc * (mc + nc);
}

TG_EXPORT void CAT(tg_gemm, SFX)(ptrdiff_t m, ptrdiff_t n, ptrdiff_t k,
                                 const T *a, ptrdiff_t rsa, ptrdiff_t csa,
                                 const T *b, ptrdiff_t rsb, ptrdiff_t csb,
                                 T *c, ptrdiff_t ldc,
                                 ptrdiff_t batch, ptrdiff_t bsa, ptrdiff_t bsb, ptrdiff_t bsc,
                                 T *work) {
  if (m <= 0 || n <= 0) return;
  for (ptrdiff_t t = 0; t < batch; t++, a += bsa, b += bsb, c += bsc) {
    if (k <= 0) {
      for (ptrdiff_t i = 0; i < m; i++)
        for (ptrdiff_t j = 0; j < n; j++) c[i * ldc + j] = 0;
      continue;
    }
    ptrdiff_t kc_max = k < KC ? k : KC;
    T *pa = work;
    T *pb = work + kc_max * CAT(round_up, SFX)(m < MC ? m : MC, MR);
    for (ptrdiff_t jc = 0; jc < n; jc += NC) {
      ptrdiff_t nc = n - jc < NC ? n - jc : NC;
      for (ptrdiff_t pc = 0; pc < k; pc += KC) {
        ptrdiff_t kc = k - pc < KC ? k - pc : KC;
        CAT(pack_b, SFX)(kc, nc, b + pc * rsb + jc * csb, rsb, csb, pb);
        for (ptrdiff_t ic = 0; ic < m; ic += MC) {
          ptrdiff_t mc = m - ic < MC ? m - ic : MC;
          CAT(pack_a, SFX)(mc, kc, a + ic * rsa + pc * csa, rsa, csa, pa);
          for (ptrdiff_t jr = 0; jr < nc; jr += NR) {
            ptrdiff_t nr = nc - jr < NR ? nc - jr : NR;
            for (ptrdiff_t ir = 0; ir < mc; ir += MR) {
              ptrdiff_t mr = mc - ir < MR ? mc - ir : MR;
              CAT(micro, SFX)(kc, pa + ir * kc, pb + jr * kc, c + (ic + ir) * ldc + jc + jr, ldc,
                              pc > 0, mr, nr);
            }
          }
        }
      }
    }
  }
}

#undef NV
#undef CAT
#undef CAT2
