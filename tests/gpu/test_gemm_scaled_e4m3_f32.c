/* test_gemm_scaled_e4m3_f32.c: gemm_scaled_e4m3_f32 (f32 out) on test_gemm_scaled_e4m3.c's
 * shapes. */
#define KNAME gemm_scaled_e4m3_f32
#include "test_gemm_scaled_e4m3.c"
