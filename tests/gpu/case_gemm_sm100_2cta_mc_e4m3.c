/* case_gemm_sm100_2cta_mc_e4m3.c: gemm_sm100_2cta_mc_e4m3 (e4m3 in, bf16 out, f32
 * accumulation) against the double reference of case_gemm_bf16.c with e4m3 inputs
 * (GEMM_IN_E4M3), on sm_100 or sm_103 (GEMM_SM 100). */
#define KNAME gemm_sm100_2cta_mc_e4m3
#define GEMM_SM 100
#define GEMM_IN_E4M3
#include "gemm_sm100_2cta_mc_e4m3.h"

#include "case_gemm_bf16.c"
