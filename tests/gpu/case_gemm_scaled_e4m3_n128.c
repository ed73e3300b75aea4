/* case_gemm_scaled_e4m3_n128.c: gemm_scaled_e4m3_n128 (BN = 128), as case_gemm_scaled_e4m3.c. */
#define KNAME gemm_scaled_e4m3_n128
#define GEMM_IN_E4M3
#define GEMM_SCALED
#include "gemm_scaled_e4m3_n128.h"

#include "case_gemm_bf16.c"
