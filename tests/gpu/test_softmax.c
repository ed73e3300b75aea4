/* test_softmax.c: softmax on the GPU (docs/testing.md). One 256-thread block per row,
 * f32x4 accesses when N % 4 == 0 and scalar ones otherwise: single-element rows, rows
 * shorter than a warp or a block, N not a multiple of 4 or of 1024, long rows on both
 * paths, and a large matrix. */
#include "gputest.h"

static const GtSize sizes[] = {
	{{1, 1}, 0}, {{3, 1}, 0}, {{1, 2}, 0}, {{3, 5}, 0}, {{2, 31}, 0}, {{4, 255}, 0},
	{{5, 256}, 0}, {{7, 1000}, 0}, {{6, 1025}, 0}, {{16, 4097}, 0}, {{8, 16384}, 0},
	{{4, 16385}, 0}, {{4096, 4096}, 1},
};

int
main(void)
{
	return gt_run_sizes(&gt_softmax, sizes, (int)(sizeof sizes / sizeof sizes[0]));
}
