/* test_gemm_scaled_e4m3.c: gemm_scaled_e4m3 (e4m3 in, bf16 out, per-tensor scales;
 * kernels_src/gemm/gemm_scaled.cake) on the GPU, with test_gemm_sm100_e4m3.c's shapes (K a
 * multiple of 16, ragged M, N and K to 4112). The other test_gemm_scaled_e4m3_*.c include
 * this file with KNAME set. */
#ifndef KNAME
#define KNAME gemm_scaled_e4m3
#endif

#include "test_gemm_sm100_e4m3.c"
