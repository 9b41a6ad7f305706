/* Op and broadcast-mode codes shared with engine/tapegrad/kernels/library.py (keep in step). */
#ifndef TG_OPS_H
#define TG_OPS_H
enum { TG_ADD = 0, TG_SUB, TG_MUL, TG_DIV, TG_MAX, TG_MIN };
enum { TG_NEG = 0, TG_ABS, TG_SQUARE, TG_SQRT, TG_RELU };
/* How the operands of a binary op broadcast to the m x n output (C order). */
enum {
  TG_SAME = 0, /* a and b: m x n */
  TG_B_SCALAR, /* b: one value */
  TG_A_SCALAR, /* a: one value */
  TG_B_ROW,    /* b: n values, repeated for every row */
  TG_A_ROW,
  TG_B_COL,    /* b: m values, one per row */
  TG_A_COL,
};
/* Reductions of an m x n array (C order). */
enum { TG_SUM = 0, TG_MAX_R, TG_MEAN };
enum { TG_ROWS = 0, /* over the last axis: m results (m = 1: over all elements) */
       TG_COLS };   /* over the first axis: n results */
#endif
