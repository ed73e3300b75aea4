/* test_gemm_stk_f16.c: gemm_stk_f16 on the GPU, with test_gemm_stk.c's sizes. */
#define KNAME gemm_stk_f16

#include "test_gemm_stk.c"
