/* test_sgemm_tiled.c: sgemm_tiled on the GPU (docs/testing.md). 64 x 64 tiles of C, K in
 * steps of 16, 16-byte stores when N % 4 == 0: 1 x 1 x 1, shapes below, at and past one
 * tile in every dimension, K not a multiple of 16, N not a multiple of 4 (scalar stores),
 * K = 1, and a large square product. */
#include "gputest.h"

static const GtSize sizes[] = {
	{{1, 1, 1}, 0}, {{1, 1, 17}, 0}, {{3, 5, 7}, 0}, {{64, 64, 16}, 0},
	{{64, 64, 64}, 0}, {{65, 67, 33}, 0}, {{63, 130, 100}, 0}, {{128, 128, 1}, 0},
	{{200, 260, 300}, 0}, {{257, 253, 129}, 0}, {{1, 1000, 3}, 0}, {{1000, 1, 5}, 0},
	{{1024, 1024, 1024}, 1}, {{777, 1030, 2001}, 1},
};

int
main(void)
{
	return gt_run_sizes(&gt_sgemm_tiled, sizes, (int)(sizeof sizes / sizeof sizes[0]));
}
