/* Element-type macros for the *_tmpl.h kernels: float64. */
#define T double
#define V f64x2
#define M i64x2
#define L 2
#define SFX f64
#define LD ld_f64
#define ST st_f64
#define SPLAT splat_f64
#define SEL sel_f64
#define VSQRT sqrt_f64
#define VEXP(xs) exp_f64((xs), &ek_) /* EXP_WAYS vectors in place; needs VEXP_CONSTS */
#define VEXP_CONSTS exp_f64_k ek_ = exp_f64_consts()
#define SSQRT __builtin_sqrt
#if defined(TG_WIDE_GEMM) /* exp_block's 256-bit vectors (see vexp.h) */
#define WV f64x4
#define WL 4
#define WLD ld_f64x4
#define WST st_f64x4
#define WVEXP(xs) exp_f64x4((xs), &wek_)
#define WVEXP_CONSTS exp_f64x4_k wek_ = exp_f64x4_consts()
#endif
