/* case_gemm_sk3_m128_bf16.c: gemm_sk3_m128_bf16 (bf16 in and out; 128 x 128 tiles, K split over a
 * cluster of 3) against the double reference of case_gemm_bf16.c. */
#define KNAME gemm_sk3_m128_bf16
#define GEMM_RERUN
#include "gemm_sk3_m128_bf16.h"

#include "case_gemm_bf16.c"
