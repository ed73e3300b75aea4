/* entry_import_checks.c: the entry point scale of tests/frontend/import-kernel.cake, whose
 * first instance is a design imported from another file, through scale_grid (no driver
 * needed): which design each dtype and size reaches. */
#include "scale.h"
#include "views.h"

static void
run(const char *label, int xc, int xb, int64_t n)
{
	int64_t shape[1];
	scale_args a;
	CakeError err;
	int64_t grid[3] = {0, 0, 0};

	shape[0] = n;
	a.x = view_at(0x10000000u, xc, xb, 1, shape);
	a.n = (int32_t)n;
	report_grid(label, scale_grid(&a, grid, &err), grid, &err);
}

int
main(void)
{
	run("f32 N=1000", CAKE_DTYPE_FLOAT, 32, 1000);
	run("f32 N=1024", CAKE_DTYPE_FLOAT, 32, 1024);
	run("f32 N=1025", CAKE_DTYPE_FLOAT, 32, 1025);
	run("f16 N=1000", CAKE_DTYPE_FLOAT, 16, 1000);
	return 0;
}
