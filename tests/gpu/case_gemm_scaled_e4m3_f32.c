/* case_gemm_scaled_e4m3_f32.c: gemm_scaled_e4m3_f32 (e4m3 in, f32 out), as
 * case_gemm_scaled_e4m3.c. */
#define KNAME gemm_scaled_e4m3_f32
#define GEMM_IN_E4M3
#define GEMM_SCALED
#define GEMM_OUT_F32
#include "gemm_scaled_e4m3_f32.h"

#include "case_gemm_bf16.c"
