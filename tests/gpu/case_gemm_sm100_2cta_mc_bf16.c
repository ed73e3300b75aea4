/* case_gemm_sm100_2cta_mc_bf16.c: gemm_sm100_2cta_mc_bf16 against the double reference of
 * case_gemm_bf16.c, on sm_100 or sm_103 (GEMM_SM 100). */
#define KNAME gemm_sm100_2cta_mc_bf16
#define GEMM_SM 100
#include "gemm_sm100_2cta_mc_bf16.h"

#include "case_gemm_bf16.c"
