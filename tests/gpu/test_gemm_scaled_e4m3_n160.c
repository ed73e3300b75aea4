/* test_gemm_scaled_e4m3_n160.c: gemm_scaled_e4m3_n160 (BN = 160) on test_gemm_scaled_e4m3.c's
 * shapes. */
#define KNAME gemm_scaled_e4m3_n160
#include "test_gemm_scaled_e4m3.c"
