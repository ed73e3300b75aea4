/* test_gemm_bias_ts_f16.c: gemm_bias_ts_f16 on the GPU, with test_gemm_ts.c's sizes. */
#define KNAME gemm_bias_ts_f16

#include "test_gemm_ts.c"
