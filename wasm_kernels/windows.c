/* Window kernels of 2-D convolution and pooling on NHWC images (windows_tmpl.h) for float32 and
 * float64: the window gather (Im2Col) and its transpose (Col2Im), max pooling's maxima with their
 * positions, and the scatter of its gradient to them. */
#include "simd.h"

/* The geometry every window kernel takes, as one array of 14 integers (one argument to pass
 * instead of fourteen: a call's arguments are what costs in Pyodide). */
enum { G_N = 0, G_H, G_W, G_C, G_KH, G_KW, G_SH, G_SW, G_DH, G_DW, G_PT, G_PL, G_OH, G_OW };

typedef struct {
  ptrdiff_t n, h, w, c, kh, kw, sh, sw, dh, dw, pt, pl, oh, ow;
} tg_geometry;

static tg_geometry tg_geometry_of(const int64_t *g) {
  tg_geometry r = {(ptrdiff_t)g[G_N],  (ptrdiff_t)g[G_H],  (ptrdiff_t)g[G_W],  (ptrdiff_t)g[G_C],
                   (ptrdiff_t)g[G_KH], (ptrdiff_t)g[G_KW], (ptrdiff_t)g[G_SH], (ptrdiff_t)g[G_SW],
                   (ptrdiff_t)g[G_DH], (ptrdiff_t)g[G_DW], (ptrdiff_t)g[G_PT], (ptrdiff_t)g[G_PL],
                   (ptrdiff_t)g[G_OH], (ptrdiff_t)g[G_OW]};
  return r;
}

#include "type_f32.h"
#include "windows_tmpl.h"
#include "type_undef.h"

#include "type_f64.h"
#include "windows_tmpl.h"
#include "type_undef.h"
