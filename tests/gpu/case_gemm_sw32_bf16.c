/* case_gemm_sw32_bf16.c: gemm_sw32_bf16 (bf16 in and out; operands swapped, tiles of 64 rows
 * of B x 32 rows of A, one CTA a tile) against the double reference of case_gemm_bf16.c. */
#define KNAME gemm_sw32_bf16
#define GEMM_RERUN
#include "gemm_sw32_bf16.h"

#include "case_gemm_bf16.c"
