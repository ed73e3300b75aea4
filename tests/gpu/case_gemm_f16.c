/* case_gemm_f16.c: gemm_f16 (fp16 in and out, f32 accumulation) against the same double
 * reference as gemm_bf16: case_gemm_bf16.c with fp16 inputs and outputs. Threshold
 * 2^-11 + K 2^-20 with floor sqrt(K) / 3 (docs/testing.md): the output's fp16 rounding
 * plus the f32 accumulation. */
#define KNAME gemm_f16
#define GEMM_IN_F16
#include "gemm_f16.h"

#include "case_gemm_bf16.c"
