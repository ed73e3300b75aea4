/* case_gemm_ts_f16.c: gemm_ts_f16 (fp16 in and out; the epilogue through shared memory and TMA
 * stores) against the double reference of case_gemm_bf16.c. */
#define KNAME gemm_ts_f16
#define GEMM_TMA_C
#define GEMM_IN_F16
#include "gemm_ts_f16.h"

#include "case_gemm_bf16.c"
