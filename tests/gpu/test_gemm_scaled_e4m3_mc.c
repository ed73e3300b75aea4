/* test_gemm_scaled_e4m3_mc.c: gemm_scaled_e4m3_mc (clusters of two) on
 * test_gemm_scaled_e4m3.c's shapes (odd tile-row counts leave the second CTA of a cluster
 * rows outside C). */
#define KNAME gemm_scaled_e4m3_mc
#include "test_gemm_scaled_e4m3.c"
