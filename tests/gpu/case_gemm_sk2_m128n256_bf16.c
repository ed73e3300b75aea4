/* case_gemm_sk2_m128n256_bf16.c: gemm_sk2_m128n256_bf16 (bf16 in and out; 128 x 256 tiles,
 * split-K over a cluster of 2 CTAs, two stages; a candidate for M = 128 .. 512) against the
 * double reference of case_gemm_bf16.c. */
#define KNAME gemm_sk2_m128n256_bf16
#define GEMM_RERUN
#include "gemm_sk2_m128n256_bf16.h"

#include "case_gemm_bf16.c"
