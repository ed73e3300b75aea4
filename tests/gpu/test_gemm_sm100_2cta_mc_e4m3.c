/* test_gemm_sm100_2cta_mc_e4m3.c: gemm_sm100_2cta_mc_e4m3 (e4m3 in, bf16 out;
 * kernels_src/gemm/gemm_sm100_2cta.cake) on the GPU, with test_gemm_sm100_e4m3.c's shapes. */
#define KNAME gemm_sm100_2cta_mc_e4m3

#include "test_gemm_sm100_e4m3.c"
