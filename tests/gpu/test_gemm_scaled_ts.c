/* test_gemm_scaled_ts.c: gemm_scaled_ts (kernels_src/gemm/gemm_scaled.cake: e4m3 in, bf16
 * out, per-tensor scales, C stored by TMA) on the GPU, with the checks of
 * test_gemm_scaled_e4m3.c. test_gemm_scaled_ts_e4m3*.c include this file with KNAME set.
 *
 * Sizes (M, N, K): test_gemm_scaled_e4m3.c's with N a multiple of 8 (TMA's 16-byte rows of
 * C) and K of 16: one row and one box column, ragged M, N and K inside one tile, a whole
 * tile and one past it in every dimension (the stores clip at C's edges), nine tile-rows
 * of one partial column, then larger and ragged shapes. */
#include "gputest.h"

#define TCAT_(a, b) a##b
#define TCAT(a, b) TCAT_(a, b)

int TCAT(KNAME, _test_main)(const GtSize *sizes, int n);

static const GtSize sizes[] = {
	{{1, 8, 16}, 0}, {{3, 16, 16}, 0}, {{7, 24, 32}, 0}, {{128, 256, 128}, 0},
	{{129, 264, 144}, 0}, {{200, 296, 272}, 0}, {{1100, 40, 16}, 0},
	{{256, 512, 1024}, 1}, {{1000, 1000, 144}, 1}, {{200, 1000, 4112}, 1},
	{{1630, 2800, 144}, 1}, {{512, 2560, 1024}, 1},
};

int
main(void)
{
	return TCAT(KNAME, _test_main)(sizes, (int)(sizeof sizes / sizeof sizes[0]));
}
