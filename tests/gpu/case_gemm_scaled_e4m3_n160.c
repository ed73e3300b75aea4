/* case_gemm_scaled_e4m3_n160.c: gemm_scaled_e4m3_n160 (BN = 160), as case_gemm_scaled_e4m3.c. */
#define KNAME gemm_scaled_e4m3_n160
#define GEMM_IN_E4M3
#define GEMM_SCALED
#include "gemm_scaled_e4m3_n160.h"

#include "case_gemm_bf16.c"
