/* case_gemm_scaled_ts_e4m3_n128.c: gemm_scaled_ts_e4m3_n128 (C stored by TMA, BN = 128), as
 * case_gemm_scaled_e4m3.c; N must be a multiple of 8 (GEMM_TMA_C). */
#define KNAME gemm_scaled_ts_e4m3_n128
#define GEMM_IN_E4M3
#define GEMM_SCALED
#define GEMM_TMA_C
#include "gemm_scaled_ts_e4m3_n128.h"

#include "case_gemm_bf16.c"
