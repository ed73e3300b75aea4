/* entry_targets_checks.c: the entry point scale of tests/host/entry-targets.cake against
 * the fake driver: which instance each device reaches (scale_grid's grid tells), the
 * refusal on a device no instance is built for, and the choice without a context. */
#include "scale.h"

#include <stdint.h>
#include <stdio.h>

static const char *
code_name(int rc)
{
	switch (rc) {
	case CAKE_OK: return "CAKE_OK";
	case CAKE_ERR_ARCH: return "CAKE_ERR_ARCH";
	case CAKE_ERR_CONTEXT: return "CAKE_ERR_CONTEXT";
	case CAKE_ERR_DTYPE: return "CAKE_ERR_DTYPE";
	default: return "other";
	}
}

static void
run(const char *label, int code, int bits, int64_t n)
{
	int64_t shape[1];
	scale_args a;
	CakeError err;
	int64_t grid[3] = {0, 0, 0};
	int rc;

	shape[0] = n;
	/* never dereferenced: the grid path only checks the views */
	a.x.data = (void *)(uintptr_t)0x10000000u;
	a.x.device.device_type = CAKE_DEVICE_CUDA;
	a.x.device.device_id = 0;
	a.x.ndim = 1;
	a.x.dtype.code = (uint8_t)code;
	a.x.dtype.bits = (uint8_t)bits;
	a.x.dtype.lanes = 1;
	a.x.shape = shape;
	a.x.strides = NULL;
	a.x.byte_offset = 0;
	a.y = a.x;
	a.y.data = (void *)(uintptr_t)0x20000000u;
	a.y.dtype.code = CAKE_DTYPE_FLOAT;
	a.y.dtype.bits = 32;
	rc = scale_grid(&a, grid, &err);
	if (rc == CAKE_OK)
		printf("%s: CAKE_OK grid %lld\n", label, (long long)grid[0]);
	else
		printf("%s: %s %s\n", label, code_name(rc), err.msg);
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
