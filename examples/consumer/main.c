/* main.c: an outside program that launches a cakec kernel (scale.cake) through its
 * generated launcher and checks the result. It uses the driver through the runtime's
 * table (cakert_driver), so it links no CUDA library. Exit status 0 when y == a * x. */
#include "scale.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 100003

static int
fail(const char *what, CUresult r)
{
	char msg[256];

	cakert_result_string(r, msg, sizeof msg);
	fprintf(stderr, "consumer: %s: %s\n", what, msg);
	return 1;
}

int
main(void)
{
	const CakertDriver *d = cakert_driver();
	static float x[N], y[N];
	int64_t shape[1] = {N};
	CUdeviceptr dx, dy;
	CUcontext ctx;
	CUdevice dev;
	CakeError err;
	scale_args a;
	double worst = 0;
	int i, rc;

	if (!d) {
		cakert_driver_status(&err);
		fprintf(stderr, "consumer: %s\n", err.msg);
		return 1;
	}
	if (d->device_get(&dev, 0) || d->device_primary_ctx_retain(&ctx, dev) || d->ctx_set_current(ctx))
		return fail("no device", CUDA_ERROR_NO_DEVICE);
	srand(7);
	for (i = 0; i < N; i++)
		x[i] = (float)rand() / RAND_MAX - 0.5f;
	if (d->mem_alloc(&dx, sizeof x) || d->mem_alloc(&dy, sizeof y))
		return fail("cuMemAlloc", CUDA_ERROR_OUT_OF_MEMORY);
	d->memcpy_htod(dx, x, sizeof x);
	d->memset_d8(dy, 0xff, sizeof y);           /* poison: NaNs */
	a.x = (CakeTensor){(void *)dx, {CAKE_DEVICE_CUDA, 0}, 1, {CAKE_DTYPE_FLOAT, 32, 1}, shape, NULL, 0};
	a.y = a.x;
	a.y.data = (void *)dy;
	a.a = 1.5f;
	if ((rc = scale_launch(&a, NULL, &err)) != CAKE_OK) {
		fprintf(stderr, "consumer: scale_launch: %s\n", err.msg);
		return 1;
	}
	if (d->ctx_synchronize() || d->memcpy_dtoh(y, dy, sizeof y))
		return fail("after the launch", CUDA_ERROR_LAUNCH_FAILED);
	for (i = 0; i < N; i++) {
		double e = fabs((double)y[i] - 1.5 * (double)x[i]);

		if (!(e <= worst))
			worst = e;          /* NaN (unwritten) sticks */
	}
	printf("consumer: scale of %d elements, max abs error %g\n", N, worst);
	d->mem_free(dx);
	d->mem_free(dy);
	return worst <= 1e-6 ? 0 : 1;
}
