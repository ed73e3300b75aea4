/* test_gemm_sk.c: the split-K GEMMs gemm_sk<S>_* and gemm_sk<S>_m128_* (kernels_src/gemm/
 * gemm.cake: a cluster of S CTAs shares one 64 x 128 or 128 x 128 tile of C, each CTA a
 * run of its K blocks, the partial sums added in rank order through distributed shared
 * memory) on the GPU, with the checks of test_gemm_bf16.c. test_gemm_sk*_<types>.c
 * include this file with KNAME set.
 *
 * Sizes (M, N, K): one element; K of fewer blocks than the cluster has CTAs (ranks with
 * no run add zeros); one whole 64-row tile; two or three tile-rows with ragged N and 17 K
 * blocks (runs of unequal length); M = 37 over three tile-columns. Then the decode and
 * few-tile shapes the entry point gives these kernels (M = 1 .. 200, N up to 11008, K up
 * to 8192) and a ragged one. */
#include "gputest.h"

#define TCAT_(a, b) a##b
#define TCAT(a, b) TCAT_(a, b)

int TCAT(KNAME, _test_main)(const GtSize *sizes, int n);

static const GtSize sizes[] = {
	{{1, 1, 16}, 0}, {{3, 5, 72}, 0}, {{64, 128, 64}, 0}, {{65, 129, 1032}, 0},
	{{37, 300, 520}, 0},
	{{1, 4096, 4096}, 1}, {{16, 2560, 8192}, 1}, {{64, 1024, 8192}, 1},
	{{8, 11008, 4096}, 1}, {{7, 4097, 4104}, 1}, {{200, 1000, 4104}, 1},
};

int
main(void)
{
	return TCAT(KNAME, _test_main)(sizes, (int)(sizeof sizes / sizeof sizes[0]));
}
