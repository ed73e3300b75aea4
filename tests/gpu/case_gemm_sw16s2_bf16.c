/* case_gemm_sw16s2_bf16.c: gemm_sw16s2_bf16 (bf16 in and out; operands swapped, tiles of 64
 * rows of B x 16 rows of A, split-K over a cluster of 2 CTAs) against the double reference of
 * case_gemm_bf16.c. */
#define KNAME gemm_sw16s2_bf16
#define GEMM_RERUN
#include "gemm_sw16s2_bf16.h"

#include "case_gemm_bf16.c"
