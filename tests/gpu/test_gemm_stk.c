/* test_gemm_stk.c: the stream-K GEMM gemm_stk_* (kernels_src/gemm/gemm.cake: the K blocks of
 * all 128 x 256 tiles shared evenly by the persistent CTAs, a tile that several CTAs share
 * finished by the last of them, which adds the others' partial sums from the workspace in
 * a fixed order) on the GPU, with the checks of test_gemm_bf16.c, each case twice for the
 * same bits and sync left zero. test_gemm_stk_<types>.c include this file with KNAME set.
 *
 * Sizes (M, N, K): one element (one unit, one CTA); fewer units than CTAs (every CTA one
 * K block, chains of up to 17 CTAs on a tile); ragged M, N and K over several tiles; more
 * units than CTAs; twelve tiles, of which a grid of 5 CTAs runs 5 whole and shares the
 * rest's K blocks; then the few-tile shapes the entry point would give it (M = 128 .. 512
 * with N of 2560 .. 11008), 272 tiles (132 whole on an H100's grid, the rest shared) and
 * ragged ones. The case file runs the small sizes again on a grid of 5 CTAs. */
#include "gputest.h"

#define TCAT_(a, b) a##b
#define TCAT(a, b) TCAT_(a, b)

int TCAT(KNAME, _test_main)(const GtSize *sizes, int n);

static const GtSize sizes[] = {
	{{1, 1, 16}, 0}, {{3, 5, 72}, 0}, {{129, 264, 1032}, 0}, {{200, 300, 520}, 0},
	{{300, 600, 136}, 0}, {{500, 600, 136}, 0},
	{{256, 2560, 8192}, 1}, {{2176, 4096, 136}, 1}, {{512, 11008, 4096}, 1}, {{384, 4096, 4096}, 1},
	{{255, 2055, 1032}, 1}, {{1000, 1000, 4104}, 1},
};

int
main(void)
{
	return TCAT(KNAME, _test_main)(sizes, (int)(sizeof sizes / sizeof sizes[0]));
}
