/* Reduction kernels (reduce_tmpl.h) for float32 and float64. */
#include "ops.h"
#include "simd.h"

#include "type_f32.h"
#include "reduce_tmpl.h"
#include "type_undef.h"

#include "type_f64.h"
#include "reduce_tmpl.h"
#include "type_undef.h"
