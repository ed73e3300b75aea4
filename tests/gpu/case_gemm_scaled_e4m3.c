/* case_gemm_scaled_e4m3.c: gemm_scaled_e4m3 (e4m3 in, bf16 out, f32 accumulation, scaled by
 * scale_a scale_b; kernels_src/gemm/gemm_scaled.cake) against the double reference of
 * case_gemm_bf16.c with e4m3 inputs and scales (GEMM_IN_E4M3, GEMM_SCALED), on sm_90. */
#define KNAME gemm_scaled_e4m3
#define GEMM_IN_E4M3
#define GEMM_SCALED
#include "gemm_scaled_e4m3.h"

#include "case_gemm_bf16.c"
