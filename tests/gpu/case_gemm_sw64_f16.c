/* case_gemm_sw64_f16.c: gemm_sw64_f16 (fp16 in and out; operands swapped, tiles of 128 rows of B
 * (two consumer warpgroups) x 64 rows of A, one CTA a tile) against the double reference
 * of case_gemm_bf16.c. */
#define KNAME gemm_sw64_f16
#define GEMM_RERUN
#define GEMM_IN_F16
#include "gemm_sw64_f16.h"

#include "case_gemm_bf16.c"
