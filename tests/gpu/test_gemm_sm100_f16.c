/* test_gemm_sm100_f16.c: gemm_sm100_f16 (Blackwell, kernels_src/gemm/gemm_sm100.cake) on
 * the GPU, with  gemm_bf16's sizes and checks (test_gemm_bf16.c). */
#define KNAME gemm_sm100_f16

#include "test_gemm_bf16.c"
