/* case_gemm_mc_f16.c: gemm_mc_f16 (fp16 in and out; clusters of 2 CTAs sharing B by TMA multicast,
 * kernels_src/gemm/gemm.cake) against the double reference of case_gemm_bf16.c. */
#define KNAME gemm_mc_f16
#define GEMM_IN_F16
#include "gemm_mc_f16.h"

#include "case_gemm_bf16.c"
