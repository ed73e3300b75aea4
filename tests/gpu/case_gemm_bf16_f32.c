/* case_gemm_bf16_f32.c: gemm_bf16_f32 (bf16 in, f32 out, f32 accumulation) against the
 * same double reference as gemm_bf16: case_gemm_bf16.c with f32 outputs. Threshold
 * K 2^-20 with floor sqrt(K) / 3 (docs/testing.md): the f32 accumulation only. */
#define KNAME gemm_bf16_f32
#define GEMM_OUT_F32
#include "gemm_bf16_f32.h"

#include "case_gemm_bf16.c"
