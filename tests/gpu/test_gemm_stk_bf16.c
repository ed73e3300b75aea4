/* test_gemm_stk_bf16.c: gemm_stk_bf16 on the GPU, with test_gemm_stk.c's sizes. */
#define KNAME gemm_stk_bf16

#include "test_gemm_stk.c"
