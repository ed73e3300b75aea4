/* case_gemm_sm100_2cta_mc_f16_f32.c: gemm_sm100_2cta_mc_f16_f32 against the double
 * reference of case_gemm_bf16.c, on sm_100 or sm_103 (GEMM_SM 100). */
#define KNAME gemm_sm100_2cta_mc_f16_f32
#define GEMM_SM 100
#define GEMM_IN_F16
#define GEMM_OUT_F32
#include "gemm_sm100_2cta_mc_f16_f32.h"

#include "case_gemm_bf16.c"
