/* entry_checks.c: the entry point scale of tests/host/entry.cake, through scale_grid (no
 * driver needed): which instance each pair of element types reaches, and the refusal. */
#include "scale.h"
#include "views.h"

static void
run(const char *label, int xc, int xb, int yc, int yb)
{
	static const int64_t shape[1] = {10000};
	scale_args a;
	CakeError err;
	int64_t grid[3] = {0, 0, 0};

	a.x = view_at(0x10000000u, xc, xb, 1, shape);
	a.y = view_at(0x20000000u, yc, yb, 1, shape);
	a.s = 2.0f;
	report_grid(label, scale_grid(&a, grid, &err), grid, &err);
}

int
main(void)
{
	run("f32 -> f32", CAKE_DTYPE_FLOAT, 32, CAKE_DTYPE_FLOAT, 32);
	run("bf16 -> bf16", CAKE_DTYPE_BFLOAT, 16, CAKE_DTYPE_BFLOAT, 16);
	run("f16 -> bf16", CAKE_DTYPE_FLOAT, 16, CAKE_DTYPE_BFLOAT, 16);
	run("f16 -> f32", CAKE_DTYPE_FLOAT, 16, CAKE_DTYPE_FLOAT, 32);
	run("i32 -> f32", CAKE_DTYPE_INT, 32, CAKE_DTYPE_FLOAT, 32);
	return 0;
}
