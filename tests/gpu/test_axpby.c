/* test_axpby.c: axpby on the GPU at ragged, tiny and large sizes (docs/testing.md).
 * The kernel moves 4 elements per thread and 1024 per block: sizes around those, the
 * 1..3-element tails, one element, and 2^26 + 5 (256 MiB per tensor, past any cache). */
#include "gputest.h"

static const GtSize sizes[] = {
	{{1}, 0}, {{3}, 0}, {{4}, 0}, {{5}, 0}, {{255}, 0}, {{1023}, 0}, {{1024}, 0},
	{{1025}, 0}, {{4099}, 0}, {{1000003}, 0}, {{(1 << 26) + 5}, 1},
};

int
main(void)
{
	return gt_run_sizes(&gt_axpby, sizes, (int)(sizeof sizes / sizeof sizes[0]));
}
