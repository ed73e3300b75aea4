/* test_gemm_scaled_e4m3_n128.c: gemm_scaled_e4m3_n128 (BN = 128) on test_gemm_scaled_e4m3.c's
 * shapes. */
#define KNAME gemm_scaled_e4m3_n128
#include "test_gemm_scaled_e4m3.c"
