/* entry_when_checks.c: the entry point pick of tests/host/entry-when.cake, through
 * pick_grid and pick_choose (no driver needed): which instance each shape and scalar
 * reaches (the grid tells, and pick_choose names it), a condition that divides by zero or
 * overflows, the dtype refusal, and a bad shape reported by the checks a condition runs
 * first. */
#include "pick.h"
#include "views.h"

static void
run(const char *label, int xc, int xb, int64_t n, int64_t yn, int64_t d)
{
	int64_t xshape[1], yshape[1];
	pick_args a;
	CakeError err;
	int64_t grid[3] = {0, 0, 0};
	const CakertKernel *k = NULL;
	int rc;

	xshape[0] = n;
	yshape[0] = yn;
	a.x = view_at(0x10000000u, xc, xb, 1, xshape);
	a.y = view_at(0x20000000u, CAKE_DTYPE_FLOAT, 32, 1, yshape);
	a.d = d;
	a.s = 2.0f;
	report_grid(label, pick_grid(&a, grid, &err), grid, &err);
	rc = pick_choose(&a, &k, &err);
	printf("%s: chose %s (%s)\n", label, k ? k->name : "none", cakert_status_name(rc));
}

int
main(void)
{
	run("f32 N=1024 d=0", CAKE_DTYPE_FLOAT, 32, 1024, 1024, 0);
	run("f32 N=1001 d=0", CAKE_DTYPE_FLOAT, 32, 1001, 1001, 0);
	run("f32 N=4000 d=4", CAKE_DTYPE_FLOAT, 32, 4000, 4000, 4);
	run("f32 N=4000 d=5", CAKE_DTYPE_FLOAT, 32, 4000, 4000, 5);
	run("f32 N=4000 d=-3", CAKE_DTYPE_FLOAT, 32, 4000, 4000, -3);
	run("f32 N=4000 d=100", CAKE_DTYPE_FLOAT, 32, 4000, 4000, 100);
	run("f32 N=4000 d=4294967296", CAKE_DTYPE_FLOAT, 32, 4000, 4000, INT64_C(4294967296));
	run("bf16 N=1024 d=0", CAKE_DTYPE_BFLOAT, 16, 1024, 1024, 0);
	run("i32 N=1024 d=0", CAKE_DTYPE_INT, 32, 1024, 1024, 0);
	run("f32 N=1024 y of 512", CAKE_DTYPE_FLOAT, 32, 1024, 512, 0);
	return 0;
}
