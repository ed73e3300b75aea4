/* entry_dims_checks.c: the entry points sum and fixed of tests/host/entry-dims.cake,
 * through their _grid functions (no driver needed): which instance each shape reaches
 * (the grid tells) and the refusals. */
#include "fixed.h"
#include "sum.h"
#include "views.h"

static void
run_sum(const char *label, int code, int bits, int ndim, int64_t b, int64_t t)
{
	int64_t xs[2], ys[1];
	sum_args a;
	CakeError err;
	int64_t grid[3] = {0, 0, 0};

	xs[0] = b;
	xs[1] = t;
	ys[0] = b;
	a.x = view_at(0x10000000u, code, bits, ndim, xs);
	a.y = view_at(0x20000000u, CAKE_DTYPE_FLOAT, 32, 1, ys);
	report_grid(label, sum_grid(&a, grid, &err), grid, &err);
}

static void
run_fixed(const char *label, int code, int bits, int64_t t, int64_t tz)
{
	int64_t xs[2], zs[2];
	fixed_args a;
	CakeError err;
	int64_t grid[3] = {0, 0, 0};

	xs[0] = t;
	xs[1] = 100;
	zs[0] = 100;
	zs[1] = tz;
	a.x = view_at(0x10000000u, code, bits, 2, xs);
	a.z = view_at(0x20000000u, CAKE_DTYPE_FLOAT, 32, 2, zs);
	report_grid(label, fixed_grid(&a, grid, &err), grid, &err);
}

int
main(void)
{
	run_sum("sum T=1 B=1024", CAKE_DTYPE_FLOAT, 32, 2, 1024, 1);
	run_sum("sum T=2 B=1024", CAKE_DTYPE_FLOAT, 32, 2, 1024, 2);
	run_sum("sum T=2 B=128", CAKE_DTYPE_FLOAT, 32, 2, 128, 2);
	run_sum("sum T=4 B=1024", CAKE_DTYPE_FLOAT, 32, 2, 1024, 4);
	run_sum("sum T=3 B=1024", CAKE_DTYPE_FLOAT, 32, 2, 1024, 3);
	run_sum("sum rank 1", CAKE_DTYPE_FLOAT, 32, 1, 1024, 1);
	run_sum("sum bf16", CAKE_DTYPE_BFLOAT, 16, 2, 1024, 1);
	run_fixed("fixed T=2", CAKE_DTYPE_FLOAT, 32, 2, 2);
	run_fixed("fixed T=3", CAKE_DTYPE_FLOAT, 32, 3, 3);
	run_fixed("fixed z T=3", CAKE_DTYPE_FLOAT, 32, 2, 3);
	run_fixed("fixed bf16", CAKE_DTYPE_BFLOAT, 16, 1, 1);
	return 0;
}
