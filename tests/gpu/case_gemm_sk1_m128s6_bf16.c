/* case_gemm_sk1_m128s6_bf16.c: gemm_sk1_m128s6_bf16 (bf16 in and out; 128 x 128 tiles, one CTA
 * a tile, six stages; a candidate for M = 128 .. 512) against the double reference of
 * case_gemm_bf16.c. */
#define KNAME gemm_sk1_m128s6_bf16
#define GEMM_RERUN
#include "gemm_sk1_m128s6_bf16.h"

#include "case_gemm_bf16.c"
