/* Element-type macros for the *_tmpl.h kernels: float32. */
#define T float
#define V f32x4
#define M i32x4
#define L 4
#define SFX f32
#define LD ld_f32
#define ST st_f32
#define SPLAT splat_f32
#define SEL sel_f32
#define VSQRT sqrt_f32
#define VEXP(xs) exp_f32((xs), &ek_) /* EXP_WAYS vectors in place; needs VEXP_CONSTS */
#define VEXP_CONSTS exp_f32_k ek_ = exp_f32_consts()
#define SSQRT __builtin_sqrtf
#if defined(TG_WIDE_GEMM) /* exp_block's 256-bit vectors (see vexp.h) */
#define WV f32x8
#define WL 8
#define WLD ld_f32x8
#define WST st_f32x8
#define WVEXP(xs) exp_f32x8((xs), &wek_)
#define WVEXP_CONSTS exp_f32x8_k wek_ = exp_f32x8_consts()
#endif
