/* test_gemm_bf16.c: gemm_bf16 on the GPU (docs/testing.md). test_gemm_f16.c,
 * test_gemm_bf16_f32.c and test_gemm_f16_f32.c include this file with KNAME set: the four
 * kernels of the family share their sizes.
 *
 * The kernels compute 128 x 256 tiles of C in K blocks of 64, one CTA per SM over the
 * tiles (persistent), tiles in groups of 8 tile-rows. Sizes (M, N, K; K a multiple of 8,
 * which TMA needs): one element with one partial K block; shapes below one tile and K
 * below one block; exactly one tile and one block; ragged M, N and K (K % 64 = 8) past
 * one tile; 9 tile-rows (a last group of 1); under CAKE_GPU_TEST_SMALL (compute-sanitizer,
 * the emulated driver) only these. Then several full K blocks; the ragged shape of
 * bench/gemm.py; K past 4096; 13 x 11 = 143 tiles, more than an H100's or H200's 132 SMs
 * (CTAs take a second tile; a last group of 5 tile-rows); and an LLM-like 512 x 2560 x
 * 1024. Before them, with no GPU needed, the launcher must refuse K % 8 != 0. */
#include "gputest.h"

#ifndef KNAME
#define KNAME gemm_bf16
#endif

#define TCAT_(a, b) a##b
#define TCAT(a, b) TCAT_(a, b)

int TCAT(KNAME, _test_main)(const GtSize *sizes, int n);

static const GtSize sizes[] = {
	{{1, 1, 16}, 0}, {{3, 5, 8}, 0}, {{7, 13, 24}, 0}, {{128, 256, 64}, 0},
	{{129, 257, 72}, 0}, {{200, 300, 136}, 0}, {{1100, 40, 16}, 0},
	{{256, 512, 1024}, 1}, {{1000, 999, 136}, 1}, {{200, 1000, 4104}, 1},
	{{1630, 2800, 136}, 1}, {{512, 2560, 1024}, 1},
};

int
main(void)
{
	return TCAT(KNAME, _test_main)(sizes, (int)(sizeof sizes / sizeof sizes[0]));
}
