/* case_gemm_ts_bf16.c: gemm_ts_bf16 (bf16 in and out; the epilogue through shared memory and TMA
 * stores) against the double reference of case_gemm_bf16.c. */
#define KNAME gemm_ts_bf16
#define GEMM_TMA_C
#include "gemm_ts_bf16.h"

#include "case_gemm_bf16.c"
