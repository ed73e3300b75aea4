/* case_rmsnorm_rows.c: rmsnorm_rows (one warp per row, 8 rows per block) against the same
 * double reference as rmsnorm, with the same threshold (1e-2, floor 1e-6; docs/testing.md):
 * the bf16 rounding of the output (3.9e-3) dominates; the per-lane f32 sum of squares
 * (N / 128 four-term steps, then 5 shuffle levels) adds less than the block kernel's
 * analysis allows for. */
#define KNAME rmsnorm_rows
#include "rmsnorm_rows.h"

#include "case_rmsnorm.c"
