/* case_softmax_rows.c: softmax_rows (one warp per row, an online softmax) against the same
 * double reference as softmax (docs/testing.md). Threshold: 2e-5 as for softmax, or for
 * long rows the first-order bound of the online sum where that is larger: each lane
 * folds N / 32 elements (scalar path) one after another, and each step rescales the running
 * sum (exp2 within 2 ulp, a product) and adds a new term, about 4 roundings of the sum:
 * 4 (N / 32 + 5) u, with u = 2^-24 and 5 more steps for the shuffle merges. That is
 * 1.2e-4 at N = 16385 and below 2e-5 up to N of about 2600. */
#define KNAME softmax_rows
#include "softmax_rows.h"

#define ROWS_BOUND(n) (4.0 * ((double)(n) / 32.0 + 5.0) * 5.9604644775390625e-8)

#include "case_softmax.c"
