/* entry_when_checks.c: the entry point pick of tests/host/entry-when.cake, through
 * pick_grid (no driver needed): which instance each shape and scalar reaches (the grid
 * tells), a condition that divides by zero or overflows, the dtype refusal, and a bad
 * shape reported by the checks a condition runs first. */
#include "pick.h"

#include <stdint.h>
#include <stdio.h>

static const char *
status(int rc)
{
	return rc == CAKE_OK ? "CAKE_OK" : rc == CAKE_ERR_DTYPE ? "CAKE_ERR_DTYPE" :
	       rc == CAKE_ERR_GRID ? "CAKE_ERR_GRID" : rc == CAKE_ERR_SHAPE ? "CAKE_ERR_SHAPE" : "other";
}

static void
run(const char *label, int xc, int xb, int64_t n, int64_t yn, int64_t d)
{
	int64_t xshape[1], yshape[1];
	pick_args a;
	CakeError err;
	int64_t grid[3] = {0, 0, 0};
	int rc;

	xshape[0] = n;
	yshape[0] = yn;
	/* never dereferenced: the grid path only checks the views */
	a.x.data = (void *)(uintptr_t)0x10000000u;
	a.x.device.device_type = CAKE_DEVICE_CUDA;
	a.x.device.device_id = 0;
	a.x.ndim = 1;
	a.x.dtype.code = (uint8_t)xc;
	a.x.dtype.bits = (uint8_t)xb;
	a.x.dtype.lanes = 1;
	a.x.shape = xshape;
	a.x.strides = NULL;
	a.x.byte_offset = 0;
	a.y = a.x;
	a.y.data = (void *)(uintptr_t)0x20000000u;
	a.y.dtype.code = CAKE_DTYPE_FLOAT;
	a.y.dtype.bits = 32;
	a.y.shape = yshape;
	a.d = d;
	a.s = 2.0f;
	rc = pick_grid(&a, grid, &err);
	if (rc == CAKE_OK)
		printf("%s: %s grid %lld\n", label, status(rc), (long long)grid[0]);
	else
		printf("%s: %s %s\n", label, status(rc), err.msg);
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
