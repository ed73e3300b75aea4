/* test_gemm_ts.c: gemm_ts (kernels_src/gemm/gemm.cake: gemm with the epilogue through
 * shared memory and TMA stores, the stores of one tile overlapping the next tile's K loop)
 * on the GPU, with the checks of test_gemm_bf16.c. test_gemm_ts_<types>.c include this file
 * with KNAME set.
 *
 * Sizes (M, N, K): test_gemm_bf16.c's, with N a multiple of 8 (TMA's 16-byte rows of C):
 * one row and one box column; ragged M, N and K inside one tile; one whole tile; one past
 * it in every dimension (the TMA store clips the boxes at C's edges); tiles that the
 * persistent CTAs walk several at a time (1100 x 40: nine tile-rows of one partial column);
 * then larger and ragged shapes. test_gemm_bias_ts*.c run the same sizes; the addends
 * each passes (case_gemm_bf16.c's epi_mode, by (M + N) % 4): the bias alone at 1 x 8 and
 * 129 x 264, neither at 3 x 16 and 7 x 24, the residual alone at 1630 x 2800, both at the
 * rest. */
#include "gputest.h"

#define TCAT_(a, b) a##b
#define TCAT(a, b) TCAT_(a, b)

int TCAT(KNAME, _test_main)(const GtSize *sizes, int n);

static const GtSize sizes[] = {
	{{1, 8, 16}, 0}, {{3, 16, 8}, 0}, {{7, 24, 24}, 0}, {{128, 256, 64}, 0},
	{{129, 264, 72}, 0}, {{200, 296, 136}, 0}, {{1100, 40, 16}, 0},
	{{256, 512, 1024}, 1}, {{1000, 1000, 136}, 1}, {{200, 1000, 4104}, 1},
	{{1630, 2800, 136}, 1}, {{512, 2560, 1024}, 1},
};

int
main(void)
{
	return TCAT(KNAME, _test_main)(sizes, (int)(sizeof sizes / sizeof sizes[0]));
}
