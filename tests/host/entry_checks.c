/* entry_checks.c: the entry point scale of tests/host/entry.cake, through scale_grid and
 * scale_choose (no driver needed): which instance each pair of element types reaches, by
 * its grid and by name, and the refusal. */
#include "scale.h"
#include "views.h"

static void
run(const char *label, int xc, int xb, int yc, int yb)
{
	static const int64_t shape[1] = {10000};
	scale_args a;
	CakeError err;
	int64_t grid[3] = {0, 0, 0};
	const CakertKernel *k = NULL;
	int rc;

	a.x = view_at(0x10000000u, xc, xb, 1, shape);
	a.y = view_at(0x20000000u, yc, yb, 1, shape);
	a.s = 2.0f;
	report_grid(label, scale_grid(&a, grid, &err), grid, &err);
	rc = scale_choose(&a, &k, &err);
	printf("%s: chose %s (%s)\n", label, k ? k->name : "none", cakert_status_name(rc));
}

int
main(void)
{
	run("f32 -> f32", CAKE_DTYPE_FLOAT, 32, CAKE_DTYPE_FLOAT, 32);
	run("bf16 -> bf16", CAKE_DTYPE_BFLOAT, 16, CAKE_DTYPE_BFLOAT, 16);
	run("f16 -> bf16", CAKE_DTYPE_FLOAT, 16, CAKE_DTYPE_BFLOAT, 16);
	run("f16 -> f32", CAKE_DTYPE_FLOAT, 16, CAKE_DTYPE_FLOAT, 32);
	run("i32 -> f32", CAKE_DTYPE_INT, 32, CAKE_DTYPE_FLOAT, 32);
	{
		scale_args a;
		CakeError err;
		int rc = scale_choose(&a, NULL, &err);

		printf("no kernel pointer: %s %s\n", cakert_status_name(rc), err.msg);
	}
	return 0;
}
