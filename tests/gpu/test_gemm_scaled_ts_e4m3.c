/* test_gemm_scaled_ts_e4m3.c: gemm_scaled_ts_e4m3 on the GPU, with test_gemm_scaled_ts.c's sizes. */
#define KNAME gemm_scaled_ts_e4m3

#include "test_gemm_scaled_ts.c"
