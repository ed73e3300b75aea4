/* entry_kernels_checks.c: the entry point wide of tests/host/entry-kernels.cake, through
 * wide_grid (no driver needed): which design each dtype and size reaches (the grid
 * tells: rows makes cdiv(N, 1024) blocks, wide cdiv(N, 256)) and the dtype refusal. */
#include "wide.h"

#include <stdint.h>
#include <stdio.h>

static void
run(const char *label, int xc, int xb, int64_t n)
{
	int64_t shape[1];
	wide_args a;
	CakeError err;
	int64_t grid[3] = {0, 0, 0};
	int rc;

	shape[0] = n;
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
	a.y.dtype.code = CAKE_DTYPE_FLOAT;
	a.y.dtype.bits = 32;
	a.s = 2.0f;
	rc = wide_grid(&a, grid, &err);
	if (rc == CAKE_OK)
		printf("%s: CAKE_OK grid %lld\n", label, (long long)grid[0]);
	else
		printf("%s: %s %s\n", label, rc == CAKE_ERR_DTYPE ? "CAKE_ERR_DTYPE" : "other", err.msg);
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
