/* test_gemm_bias_bf16.c: gemm_bias_bf16 (C = A B^T + bias + res; kernels_src/gemm/
 * gemm.cake) on the GPU: ragged M, N and K, one tile, several waves of 128 x 128 tiles.
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
	{{1000, 999, 136}, 1}, {{2048, 2560, 4096}, 1}, {{1630, 2800, 520}, 1},
};

int
main(void)
{
	return TCAT(KNAME, _test_main)(sizes, (int)(sizeof sizes / sizeof sizes[0]));
}
