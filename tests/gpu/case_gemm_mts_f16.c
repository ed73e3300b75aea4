/* case_gemm_mts_f16.c: gemm_mts_f16 (fp16 in and out; gemm_mc's clusters of two with gemm_ts's
 * TMA-store epilogue) against the double reference of case_gemm_bf16.c. */
#define KNAME gemm_mts_f16
#define GEMM_TMA_C
#define GEMM_IN_F16
#include "gemm_mts_f16.h"

#include "case_gemm_bf16.c"
