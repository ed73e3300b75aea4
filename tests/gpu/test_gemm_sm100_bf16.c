/* test_gemm_sm100_bf16.c: gemm_sm100_bf16 (Blackwell, kernels_src/gemm/gemm_sm100.cake) on
 * the GPU, with  gemm_bf16's sizes and checks (test_gemm_bf16.c). */
#define KNAME gemm_sm100_bf16

#include "test_gemm_bf16.c"
