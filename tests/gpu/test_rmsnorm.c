/* test_rmsnorm.c: rmsnorm on the GPU (docs/testing.md). One 256-thread block per row,
 * bf16x4 accesses when N % 4 == 0 and scalar ones otherwise: rows shorter than a block,
 * N not a multiple of 4, of the block, or of 1024, one element, and a large matrix. */
#include "gputest.h"

static const GtSize sizes[] = {
	{{1, 1}, 0}, {{1, 3}, 0}, {{3, 4}, 0}, {{2, 255}, 0}, {{5, 256}, 0}, {{4, 1000}, 0},
	{{7, 1027}, 0}, {{3, 1028}, 0}, {{64, 4096}, 0}, {{17, 8191}, 0},
	{{4096, 8192}, 1},
};

int
main(void)
{
	return gt_run_sizes(&gt_rmsnorm, sizes, (int)(sizeof sizes / sizeof sizes[0]));
}
