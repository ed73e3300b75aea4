/* test_gemm_bf16_f32.c: gemm_bf16_f32 on the GPU (docs/testing.md), with gemm_bf16's sizes and checks. */
#define KNAME gemm_bf16_f32

#include "test_gemm_bf16.c"
