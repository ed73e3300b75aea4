/* test_silu_mul.c: silu_mul on the GPU at ragged, tiny and large sizes (docs/testing.md).
 * 4 bf16 elements per thread, 1024 per block: sizes around those, the tails, one
 * element, and 2^27 + 3 (256 MiB per tensor). */
#include "gputest.h"

static const GtSize sizes[] = {
	{{1}, 0}, {{2}, 0}, {{4}, 0}, {{7}, 0}, {{256}, 0}, {{1023}, 0}, {{1024}, 0},
	{{1026}, 0}, {{65537}, 0}, {{1000001}, 0}, {{(1 << 27) + 3}, 1},
};

int
main(void)
{
	return gt_run_sizes(&gt_silu_mul, sizes, (int)(sizeof sizes / sizeof sizes[0]));
}
