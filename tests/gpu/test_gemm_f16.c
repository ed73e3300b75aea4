/* test_gemm_f16.c: gemm_f16 on the GPU (docs/testing.md), with gemm_bf16's sizes and checks. */
#define KNAME gemm_f16

#include "test_gemm_bf16.c"
