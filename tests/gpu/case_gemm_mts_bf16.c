/* case_gemm_mts_bf16.c: gemm_mts_bf16 (bf16 in and out; gemm_mc's clusters of two with gemm_ts's
 * TMA-store epilogue) against the double reference of case_gemm_bf16.c. */
#define KNAME gemm_mts_bf16
#define GEMM_TMA_C
#include "gemm_mts_bf16.h"

#include "case_gemm_bf16.c"
