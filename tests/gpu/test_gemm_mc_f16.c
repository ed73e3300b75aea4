/* test_gemm_mc_f16.c: gemm_mc_f16 (clusters of 2 CTAs sharing B by TMA multicast) on the
 * GPU, with gemm_bf16's sizes and checks (test_gemm_bf16.c). */
#define KNAME gemm_mc_f16

#include "test_gemm_bf16.c"
