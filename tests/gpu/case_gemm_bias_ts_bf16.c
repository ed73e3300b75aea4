/* case_gemm_bias_ts_bf16.c: gemm_bias_ts_bf16 (C = A B^T + bias + res, bf16 in and out;
 * gemm_ts's TMA-stored epilogue, 256-wide tiles in two 128-column accumulators) against
 * case_gemm_bf16.c's double reference with the addends each case passes (GEMM_EPI). */
#define KNAME gemm_bias_ts_bf16
#define GEMM_EPI
#define GEMM_TMA_C
#include "gemm_bias_ts_bf16.h"

#include "case_gemm_bf16.c"
