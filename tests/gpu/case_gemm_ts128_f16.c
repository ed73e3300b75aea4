/* case_gemm_ts128_f16.c: gemm_ts128_f16 (fp16 in and out; gemm_ts with 128 x 128 tiles) against
 * the double reference of case_gemm_bf16.c. */
#define KNAME gemm_ts128_f16
#define GEMM_TMA_C
#define GEMM_IN_F16
#include "gemm_ts128_f16.h"

#include "case_gemm_bf16.c"
