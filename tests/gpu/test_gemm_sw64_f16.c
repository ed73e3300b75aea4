/* test_gemm_sw64_f16.c: gemm_sw64_f16 on the GPU, with test_gemm_sw.c's sizes. */
#define KNAME gemm_sw64_f16

#include "test_gemm_sw.c"
