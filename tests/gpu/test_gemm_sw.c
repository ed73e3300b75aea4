/* test_gemm_sw.c: the swapped-operand GEMMs gemm_sw* (kernels_src/gemm/gemm.cake: each
 * consumer warpgroup multiplies 64 rows of B by the tile's 16, 32 or 64 rows of A, a
 * cluster of S CTAs splits the K blocks, the partial sums of C^T are written transposed
 * and added in rank order) on the GPU, with the checks of test_gemm_bf16.c.
 * test_gemm_sw*_<types>.c include this file with KNAME set.
 *
 * Sizes (M, N, K): one element; K of fewer blocks than the cluster has CTAs (ranks with
 * no run add zeros); one whole tile of A's rows; M = 37 over three or five tile-rows with
 * ragged N and 17 K blocks (runs of unequal length); N of one and a half 128-row tiles.
 * Then the decode shapes the entry point gives these kernels (M = 1 .. 60, N up to 11008,
 * K up to 8192) and a ragged one. */
#include "gputest.h"

#define TCAT_(a, b) a##b
#define TCAT(a, b) TCAT_(a, b)

int TCAT(KNAME, _test_main)(const GtSize *sizes, int n);

static const GtSize sizes[] = {
	{{1, 1, 16}, 0}, {{3, 5, 72}, 0}, {{16, 128, 64}, 0}, {{37, 300, 1032}, 0},
	{{9, 192, 520}, 0},
	{{1, 4096, 4096}, 1}, {{16, 2560, 8192}, 1}, {{8, 8192, 8192}, 1},
	{{16, 11008, 4096}, 1}, {{7, 4097, 4104}, 1}, {{60, 11008, 4096}, 1},
};

int
main(void)
{
	return TCAT(KNAME, _test_main)(sizes, (int)(sizeof sizes / sizeof sizes[0]));
}
