/* case_gemm_sk1_m128_f16.c: gemm_sk1_m128_f16 (fp16 in and out; split-K over a cluster of 1 CTAs, tiles of
 * 128 x 128 on two consumer warpgroups) against the double reference of case_gemm_bf16.c. */
#define KNAME gemm_sk1_m128_f16
#define GEMM_RERUN
#define GEMM_IN_F16
#include "gemm_sk1_m128_f16.h"

#include "case_gemm_bf16.c"
