/* Fused backward rules and optimizer updates (fused_tmpl.h) for float32 and float64. */
#include "simd.h"
#include "vexp.h"

#include "type_f32.h"
#include "fused_tmpl.h"
#include "type_undef.h"

#include "type_f64.h"
#include "fused_tmpl.h"
#include "type_undef.h"
