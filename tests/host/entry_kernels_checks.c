/* entry_kernels_checks.c: the entry point wide of tests/host/entry-kernels.cake, through
 * wide_grid (no driver needed): which design each dtype and size reaches (the grid
 * tells: rows makes cdiv(N, 1024) blocks, wide cdiv(N, 256)) and the dtype refusal. */
#include "wide.h"
#include "views.h"

static void
run(const char *label, int xc, int xb, int64_t n)
{
	int64_t shape[1];
	wide_args a;
	CakeError err;
	int64_t grid[3] = {0, 0, 0};

	shape[0] = n;
	a.x = view_at(0x10000000u, xc, xb, 1, shape);
	a.y = view_at(0x20000000u, CAKE_DTYPE_FLOAT, 32, 1, shape);
	a.s = 2.0f;
	report_grid(label, wide_grid(&a, grid, &err), grid, &err);
}

int
main(void)
{
	run("f32 N=1024", CAKE_DTYPE_FLOAT, 32, 1024);
	run("f32 N=4096", CAKE_DTYPE_FLOAT, 32, 4096);
	run("f32 N=8192", CAKE_DTYPE_FLOAT, 32, 8192);
	run("bf16 N=1024", CAKE_DTYPE_BFLOAT, 16, 1024);
	run("i32 N=1024", CAKE_DTYPE_INT, 32, 1024);
	return 0;
}
