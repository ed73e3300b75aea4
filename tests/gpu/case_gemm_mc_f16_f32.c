/* case_gemm_mc_f16_f32.c: gemm_mc_f16_f32 (fp16 in, f32 out; clusters of 2 CTAs sharing B
 * by TMA multicast) against the double reference of case_gemm_bf16.c. */
#define KNAME gemm_mc_f16_f32
#define GEMM_IN_F16
#define GEMM_OUT_F32
#include "gemm_mc_f16_f32.h"

#include "case_gemm_bf16.c"
