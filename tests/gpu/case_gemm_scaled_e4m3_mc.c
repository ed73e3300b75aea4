/* case_gemm_scaled_e4m3_mc.c: gemm_scaled_e4m3_mc (BN = 256 in clusters of two CTAs that
 * share B by TMA multicast), as case_gemm_scaled_e4m3.c. */
#define KNAME gemm_scaled_e4m3_mc
#define GEMM_IN_E4M3
#define GEMM_SCALED
#include "gemm_scaled_e4m3_mc.h"

#include "case_gemm_bf16.c"
