/* case_gemm_sk3_bf16.c: gemm_sk3_bf16 (bf16 in and out; split-K over a cluster of 3 CTAs, tiles of
 * 64 x 128) against the double reference of case_gemm_bf16.c. */
#define KNAME gemm_sk3_bf16
#define GEMM_RERUN
#include "gemm_sk3_bf16.h"

#include "case_gemm_bf16.c"
