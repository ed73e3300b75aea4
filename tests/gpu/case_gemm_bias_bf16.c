/* case_gemm_bias_bf16.c: gemm_bias_bf16 (C = A B^T + bias + res, bf16 in and out, f32
 * accumulation; kernels_src/gemm/gemm.cake) against case_gemm_bf16.c's double reference
 * with the bias and the residual added (GEMM_EPI). */
#define KNAME gemm_bias_bf16
#define GEMM_EPI

#include "gemm_bias_bf16.h"

#include "case_gemm_bf16.c"
