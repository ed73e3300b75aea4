/* case_gemm_ts192_bf16.c: gemm_ts192_bf16 (bf16 in and out; gemm_ts with 128 x 192 tiles) against
 * the double reference of case_gemm_bf16.c. */
#define KNAME gemm_ts192_bf16
#define GEMM_TMA_C
#include "gemm_ts192_bf16.h"

#include "case_gemm_bf16.c"
