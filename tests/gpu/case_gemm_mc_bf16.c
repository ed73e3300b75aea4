/* case_gemm_mc_bf16.c: gemm_mc_bf16 (clusters of 2 CTAs sharing B by TMA multicast,
 * kernels_src/gemm/gemm.cake) against the double reference of case_gemm_bf16.c. */
#define KNAME gemm_mc_bf16
#include "gemm_mc_bf16.h"

#include "case_gemm_bf16.c"
