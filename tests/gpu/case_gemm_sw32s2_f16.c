/* case_gemm_sw32s2_f16.c: gemm_sw32s2_f16 (fp16 in and out; operands swapped, tiles of 64 rows
 * of B x 32 rows of A, split-K over a cluster of 2 CTAs) against the double reference of
 * case_gemm_bf16.c. */
#define KNAME gemm_sw32s2_f16
#define GEMM_RERUN
#define GEMM_IN_F16
#include "gemm_sw32s2_f16.h"

#include "case_gemm_bf16.c"
