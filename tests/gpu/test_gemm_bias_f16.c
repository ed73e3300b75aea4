/* test_gemm_bias_f16.c: gemm_bias_f16 on test_gemm_bias_bf16.c's shapes. */
#define KNAME gemm_bias_f16
#include "test_gemm_bias_bf16.c"
