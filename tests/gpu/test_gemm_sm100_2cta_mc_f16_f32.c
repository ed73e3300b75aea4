/* test_gemm_sm100_2cta_mc_f16_f32.c: gemm_sm100_2cta_mc_f16_f32 (Blackwell CTA pairs, two
 * per cluster sharing B by multicast, kernels_src/gemm/gemm_sm100_2cta.cake) on the GPU,
 * with gemm_bf16's sizes and checks (test_gemm_bf16.c). */
#define KNAME gemm_sm100_2cta_mc_f16_f32

#include "test_gemm_bf16.c"
