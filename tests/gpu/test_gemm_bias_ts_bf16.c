/* test_gemm_bias_ts_bf16.c: gemm_bias_ts_bf16 on the GPU, with test_gemm_ts.c's sizes. */
#define KNAME gemm_bias_ts_bf16

#include "test_gemm_ts.c"
