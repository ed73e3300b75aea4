/* case_gemm_bias_f16.c: gemm_bias_f16 (C = A B^T + bias + res, f16 in and out, f32
 * accumulation; kernels_src/gemm/gemm.cake) against case_gemm_bf16.c's double reference
 * with the bias and the residual added (GEMM_EPI). */
#define KNAME gemm_bias_f16
#define GEMM_EPI
#define GEMM_IN_F16
#include "gemm_bias_f16.h"

#include "case_gemm_bf16.c"
