/* test_gemm_sk1_m128_f16.c: gemm_sk1_m128_f16 on the GPU, with test_gemm_sk.c's sizes. */
#define KNAME gemm_sk1_m128_f16

#include "test_gemm_sk.c"
