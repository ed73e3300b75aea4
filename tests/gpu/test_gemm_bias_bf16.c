/* test_gemm_bias_bf16.c: gemm_bias_bf16 (C = A B^T + bias + res; kernels_src/gemm/
 * gemm.cake) on the GPU: ragged M, N and K, one tile, several waves of 128 x 128 tiles.
 * The addends each size passes (case_gemm_bf16.c's epi_mode, by (M + N) % 4): the bias
 * alone at 5 x 8 and 1001 x 1000, neither at 1000 x 999, the residual alone at 1 x 1,
 * 129 x 257 and 1630 x 2800, both at the rest.
 * test_gemm_bias_f16.c includes this file with KNAME set. */
#include "gputest.h"

#ifndef KNAME
#define KNAME gemm_bias_bf16
#endif

#define TCAT_(a, b) a##b
#define TCAT(a, b) TCAT_(a, b)

int TCAT(KNAME, _test_main)(const GtSize *sizes, int n);

static const GtSize sizes[] = {
	{{1, 1, 8}, 0}, {{3, 5, 24}, 0}, {{7, 13, 72}, 0}, {{128, 128, 64}, 0},
	{{129, 257, 136}, 0}, {{200, 300, 1032}, 0},
	{{5, 8, 40}, 0}, {{1000, 999, 136}, 1}, {{2048, 2560, 4096}, 1}, {{1630, 2800, 520}, 1},
	{{1001, 1000, 264}, 1},
};

int
main(void)
{
	return TCAT(KNAME, _test_main)(sizes, (int)(sizeof sizes / sizeof sizes[0]));
}
