/* case_gemm_sk2_m128_bf16.c: gemm_sk2_m128_bf16 (bf16 in and out; split-K over a cluster of 2 CTAs, tiles of
 * 128 x 128 on two consumer warpgroups) against the double reference of case_gemm_bf16.c. */
#define KNAME gemm_sk2_m128_bf16
#define GEMM_RERUN
#include "gemm_sk2_m128_bf16.h"

#include "case_gemm_bf16.c"
