/* test_gemm_scaled_e4m3.c: gemm_scaled_e4m3 (e4m3 in, bf16 out, per-tensor scales;
 * kernels_src/gemm/gemm_scaled.cake) on the GPU: test_gemm_sm100_e4m3.c's shapes (K a
 * multiple of 16, K blocks of 128; ragged M, N and K included).
 * test_gemm_scaled_e4m3_f32.c includes this file with KNAME set. */
#include "gputest.h"

#ifndef KNAME
#define KNAME gemm_scaled_e4m3
#endif

#define TCAT_(a, b) a##b
#define TCAT(a, b) TCAT_(a, b)

int TCAT(KNAME, _test_main)(const GtSize *sizes, int n);

static const GtSize sizes[] = {
	{{1, 1, 16}, 0}, {{3, 5, 16}, 0}, {{7, 13, 32}, 0}, {{128, 256, 128}, 0},
	{{129, 257, 144}, 0}, {{200, 300, 272}, 0}, {{1100, 40, 16}, 0},
	{{256, 512, 1024}, 1}, {{1000, 999, 144}, 1}, {{200, 1000, 4112}, 1},
	{{1630, 2800, 144}, 1}, {{512, 2560, 1024}, 1},
};

int
main(void)
{
	return TCAT(KNAME, _test_main)(sizes, (int)(sizeof sizes / sizeof sizes[0]));
}
