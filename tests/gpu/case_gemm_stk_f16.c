/* case_gemm_stk_f16.c: gemm_stk_f16 (fp16 in and out; stream-K over 128 x 256 tiles, the partial
 * sums added in a fixed order through the workspace) against the double reference of
 * case_gemm_bf16.c, each case run twice for the same bits. */
#define KNAME gemm_stk_f16
#define GEMM_STK
#define GEMM_RERUN
#define GEMM_IN_F16
#include "gemm_stk_f16.h"

#include "case_gemm_bf16.c"
