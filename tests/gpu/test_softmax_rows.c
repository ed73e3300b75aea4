/* test_softmax_rows.c: softmax_rows on the GPU (docs/testing.md). One warp per row, 8 rows
 * per block, f32x4 accesses when N % 4 == 0 and scalar ones otherwise, an online maximum
 * and sum per lane: M not a multiple of 8, single-element rows, rows shorter than a warp
 * (idle lanes merge an empty (max, sum)), N not a multiple of 4 or of 128, the row lengths
 * it is meant for, long rows on both paths, and a large matrix. */
#include "gputest.h"

static const GtSize sizes[] = {
	{{1, 1}, 0}, {{9, 1}, 0}, {{3, 2}, 0}, {{7, 5}, 0}, {{8, 31}, 0}, {{17, 33}, 0},
	{{33, 128}, 0}, {{5, 255}, 0}, {{63, 1000}, 0}, {{64, 2048}, 0}, {{9, 4097}, 0},
	{{8, 16384}, 0}, {{4, 16385}, 0}, {{16385, 1024}, 1}, {{4096, 4100}, 1},
};

int
main(void)
{
	return gt_run_sizes(&gt_softmax_rows, sizes, (int)(sizeof sizes / sizeof sizes[0]));
}
