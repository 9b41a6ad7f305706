/* Matrix products for float32 and float64 (see gemm_tmpl.h for the scheme). */
#include "simd.h"

/* float32: a 6x8 tile is 12 accumulators + 2 B vectors + 1 broadcast A = 15 of 16 registers. */
#define T float
#define V f32x4
#define L 4
#define SFX f32
#define LD ld_f32
#define ST st_f32
#define SPLAT splat_f32
#define MADD madd_f32
#define MR 6
#define NR 8
#define KC 256
#define MC 72
#define NC 2048
#include "gemm_tmpl.h"
#undef T
#undef V
#undef L
#undef SFX
#undef LD
#undef ST
#undef SPLAT
#undef MADD
#undef MR
#undef NR
#undef KC
#undef MC
#undef NC

/* float64: 6x4 tile, the same register budget with 2 lanes per vector. */
#define T double
#define V f64x2
#define L 2
#define SFX f64
#define LD ld_f64
#define ST st_f64
#define SPLAT splat_f64
#define MADD madd_f64
#define MR 6
#define NR 4
#define KC 256
#define MC 72
#define NC 1024
#include "gemm_tmpl.h"
