/* entry_targets_checks.c: the entry point scale of tests/host/entry-targets.cake against
 * the fake driver: which instance each device reaches (scale_grid's grid tells), the
 * refusal on a device no instance is built for, and the choice without a context. */
#include "scale.h"
#include "views.h"

static void
run(const char *label, int code, int bits, int64_t n)
{
	int64_t shape[1];
	scale_args a;
	CakeError err;
	int64_t grid[3] = {0, 0, 0};

	shape[0] = n;
	a.x = view_at(0x10000000u, code, bits, 1, shape);
	a.y = view_at(0x20000000u, CAKE_DTYPE_FLOAT, 32, 1, shape);
	report_grid(label, scale_grid(&a, grid, &err), grid, &err);
}

static void
use_device(const CakertDriver *drv, int dev)
{
	CUcontext ctx = NULL;

	drv->device_primary_ctx_retain(&ctx, dev);
	drv->ctx_set_current(ctx);
}

int
main(void)
{
	const CakertDriver *drv = cakert_driver();

	if (!drv) {
		printf("FAIL: the fake driver did not load\n");
		return 1;
	}
	run("no context", CAKE_DTYPE_FLOAT, 32, 4096);
	use_device(drv, 0);
	run("sm_90 N=4096", CAKE_DTYPE_FLOAT, 32, 4096);
	use_device(drv, 1);
	run("sm_103 N=4096", CAKE_DTYPE_FLOAT, 32, 4096);
	run("sm_103 N=512", CAKE_DTYPE_FLOAT, 32, 512);
	use_device(drv, 2);
	run("sm_100 N=4096", CAKE_DTYPE_FLOAT, 32, 4096);
	use_device(drv, 3);
	run("sm_89 N=4096", CAKE_DTYPE_FLOAT, 32, 4096);
	run("sm_89 bf16", CAKE_DTYPE_BFLOAT, 16, 4096);
	return 0;
}
