/* test_rmsnorm_rows.c: rmsnorm_rows on the GPU (docs/testing.md). One warp per row, 8 rows
 * per block, bf16x4 accesses when N % 4 == 0 and scalar ones otherwise: M not a multiple
 * of 8 (a block with idle warps), rows shorter than a warp, N not a multiple of 4 or of
 * 128 (a warp's vector step), one element, the row lengths it is meant for, and a large
 * matrix. */
#include "gputest.h"

static const GtSize sizes[] = {
	{{1, 1}, 0}, {{1, 3}, 0}, {{9, 4}, 0}, {{7, 31}, 0}, {{8, 32}, 0}, {{17, 129}, 0},
	{{33, 256}, 0}, {{5, 1000}, 0}, {{63, 1027}, 0}, {{64, 2048}, 0}, {{13, 4096}, 0},
	{{3, 8191}, 0}, {{16385, 1024}, 1}, {{4096, 4100}, 1},
};

int
main(void)
{
	return gt_run_sizes(&gt_rmsnorm_rows, sizes, (int)(sizeof sizes / sizeof sizes[0]));
}
