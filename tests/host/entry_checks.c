/* entry_checks.c: the entry point scale of tests/host/entry.cake, through scale_grid (no
 * driver needed): which instance each pair of element types reaches, and the refusal. */
#include "scale.h"

#include <stdint.h>
#include <stdio.h>

static const char *
status(int rc)
{
	return rc == CAKE_OK ? "CAKE_OK" : rc == CAKE_ERR_DTYPE ? "CAKE_ERR_DTYPE" : "other";
}

static void
run(const char *label, int xc, int xb, int yc, int yb)
{
	static const int64_t shape[1] = {10000};
	scale_args a;
	CakeError err;
	int64_t grid[3] = {0, 0, 0};
	int rc;

	/* never dereferenced: the grid path only checks the views */
	a.x.data = (void *)(uintptr_t)0x10000000u;
	a.x.device.device_type = CAKE_DEVICE_CUDA;
	a.x.device.device_id = 0;
	a.x.ndim = 1;
	a.x.dtype.code = (uint8_t)xc;
	a.x.dtype.bits = (uint8_t)xb;
	a.x.dtype.lanes = 1;
	a.x.shape = shape;
	a.x.strides = NULL;
	a.x.byte_offset = 0;
	a.y = a.x;
	a.y.data = (void *)(uintptr_t)0x20000000u;
	a.y.dtype.code = (uint8_t)yc;
	a.y.dtype.bits = (uint8_t)yb;
	a.s = 2.0f;
	rc = scale_grid(&a, grid, &err);
	if (rc == CAKE_OK)
		printf("%s: %s grid %lld\n", label, status(rc), (long long)grid[0]);
	else
		printf("%s: %s %s\n", label, status(rc), err.msg);
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
