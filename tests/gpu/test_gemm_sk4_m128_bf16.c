/* test_gemm_sk4_m128_bf16.c: gemm_sk4_m128_bf16 on the GPU, with test_gemm_sk.c's sizes. */
#define KNAME gemm_sk4_m128_bf16

#include "test_gemm_sk.c"
