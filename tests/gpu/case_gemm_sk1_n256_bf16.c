/* case_gemm_sk1_n256_bf16.c: gemm_sk1_n256_bf16 (bf16 in and out; 64 x 256 tiles, one consumer
 * warpgroup, one CTA a tile; a candidate for M = 128 .. 512) against the double reference of
 * case_gemm_bf16.c. */
#define KNAME gemm_sk1_n256_bf16
#define GEMM_RERUN
#include "gemm_sk1_n256_bf16.h"

#include "case_gemm_bf16.c"
