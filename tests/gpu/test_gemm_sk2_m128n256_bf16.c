/* test_gemm_sk2_m128n256_bf16.c: gemm_sk2_m128n256_bf16 on the GPU, with test_gemm_sk.c's sizes. */
#define KNAME gemm_sk2_m128n256_bf16

#include "test_gemm_sk.c"
