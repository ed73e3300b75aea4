/* driver_checks.c: the driver side of cakert (loading, entry points, contexts, the module
 * cache, image choice, the shared-memory opt-in, cuLaunchKernelEx and its arguments)
 * checked against fake_libcuda.c, a stand-in libcuda.so.1 found through LD_LIBRARY_PATH.
 * Uses the launcher generated for kitchen.ir (targets sm_90a and sm_103a, 65600 bytes of
 * dynamic shared memory, grid (3, 7, 11) for the arguments below).
 *
 * Usage: driver_checks MODE, where MODE is ptx or cubin (the image the sm_90a device must
 * get), getproc-missing (entry points through dlsym), old (a 11.8 driver) or noinit
 * (cuInit fails). Prints one line per case; a mismatch prints what was expected and
 * exits 1. */
#include "kitchen.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static int failures;
static long (*fake_get)(const char *);
static void (*fake_set)(const char *, long);
static void (*fake_on_launch)(void (*)(void **));
static CUdeviceptr seen_x, seen_w;
static int32_t seen_m, seen_default, seen_free, seen_n;
static float seen_alpha;
static uint16_t seen_h;
static uint64_t seen_big;
static int64_t seen_p;
static uint32_t seen_u;
static double seen_f;
static const char *(*fake_str)(const char *);

typedef struct Case {
	int64_t xs[2], ys[2], accs[1], masks[1], ws[3];
	kitchen_args a;
} Case;

#define BASE 0x7f0000000000ull

static void
fail(const char *name, const char *fmt, long want, long found, const char *msg)
{
	printf("FAIL %s: ", name);
	printf(fmt, want, found);
	printf(" (%s)\n", msg ? msg : "");
	failures++;
}

static void
status_is(const char *name, int rc, const CakeError *err, int want, const char *msg)
{
	if (rc != want || (msg && !strstr(err->msg, msg))) {
		printf("FAIL %s: expected %s with \"%s\", found %s with \"%s\"\n", name,
		       cakert_status_name(want), msg ? msg : "", cakert_status_name(rc), err->msg);
		failures++;
		return;
	}
	printf("ok %s: %s%s%s\n", name, cakert_status_name(rc), rc ? ": " : "", err->msg);
}

static void
counter_is(const char *name, const char *counter, long want)
{
	long v = fake_get(counter);

	if (v != want)
		fail(name, "expected %ld, found %ld", want, v, counter);
	else
		printf("ok %s: %s = %ld\n", name, counter, v);
}

/* cakert_loaded_image of kitchen in ctx. */
static void
image_is(const char *name, CUcontext ctx, const char *want)
{
	char got[128];

	if (!cakert_loaded_image(&kitchen_kernel, ctx, got, sizeof got) || strcmp(got, want) != 0) {
		printf("FAIL %s: expected the image \"%s\", found \"%s\"\n", name, want, got);
		failures++;
	} else
		printf("ok %s: %s\n", name, got);
}

static CakeTensor
view(int code, int bits, int ndim, const int64_t *shape, uint64_t at, int device)
{
	CakeTensor t;

	memset(&t, 0, sizeof t);
	t.data = (void *)(uintptr_t)(BASE + at);
	t.device.device_type = CAKE_DEVICE_CUDA;
	t.device.device_id = device;
	t.ndim = ndim;
	t.dtype.code = (uint8_t)code;
	t.dtype.bits = (uint8_t)bits;
	t.dtype.lanes = 1;
	t.shape = shape;
	return t;
}

/* Copies the kernel arguments out of the launcher's frame while the launch runs. */
static void
record_params(void **params)
{
	memcpy(&seen_x, params[0], sizeof seen_x);
	memcpy(&seen_w, params[4], sizeof seen_w);
	memcpy(&seen_m, params[5], sizeof seen_m);
	memcpy(&seen_default, params[6], sizeof seen_default);
	memcpy(&seen_free, params[7], sizeof seen_free);
	memcpy(&seen_alpha, params[8], sizeof seen_alpha);
	memcpy(&seen_h, params[9], sizeof seen_h);
	memcpy(&seen_big, params[10], sizeof seen_big);
	memcpy(&seen_p, params[11], sizeof seen_p);
	memcpy(&seen_u, params[13], sizeof seen_u);
	memcpy(&seen_n, params[14], sizeof seen_n);
	memcpy(&seen_f, params[15], sizeof seen_f);
}

static void
valid(Case *c, int device)
{
	memset(c, 0, sizeof *c);
	c->xs[0] = c->ys[0] = 2;
	c->xs[1] = c->ys[1] = c->masks[0] = 256;
	c->accs[0] = 8;
	c->ws[0] = 2;
	c->ws[1] = 3;
	c->ws[2] = 4;
	c->a.x = view(CAKE_DTYPE_FLOAT, 32, 2, c->xs, 0, device);
	c->a.y = view(CAKE_DTYPE_BFLOAT, 16, 2, c->ys, 0x100000, device);
	c->a.acc = view(CAKE_DTYPE_INT, 64, 1, c->accs, 0x200000, device);
	c->a.mask = view(CAKE_DTYPE_BOOL, 8, 1, c->masks, 0x300000, device);
	c->a.w = view(CAKE_DTYPE_UINT, 32, 3, c->ws, 0x400000, device);
	c->a.default_ = 5;
	c->a.free = 9;
	c->a.alpha = 1.5f;
	c->a.h = 0x3c00;
	c->a.big = 4;
	c->a.p = 2;
	c->a.d = 2;
	c->a.u = 4000000000LL;
	c->a.f = -0.25;
}

static CUcontext
use_device(const CakertDriver *drv, int dev)
{
	CUcontext ctx = NULL;

	drv->device_primary_ctx_retain(&ctx, dev);
	drv->ctx_set_current(ctx);
	return ctx;
}

/* Threads launching at once in a fresh context: the module still loads once. */
static void *
launch_many(void *arg)
{
	const CakertDriver *drv = cakert_driver();
	CakeError err;
	Case c;
	int i;

	(void)arg;
	use_device(drv, 0);
	valid(&c, 0);
	for (i = 0; i < 50; i++)
		if (kitchen_launch(&c.a, NULL, &err) != CAKE_OK) {
			printf("threaded launch: %s\n", err.msg);
			return (void *)"a threaded launch failed";
		}
	return NULL;
}

static int
finish(void)
{
	if (failures) {
		printf("%d FAILED\n", failures);
		return 1;
	}
	printf("all passed\n");
	return 0;
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "ptx";
	const CakertDriver *drv;
	CakeError err;
	CUcontext ctx0;
	CUstream stream = (CUstream)(void *)0x5000;
	pthread_t th[8];
	void *lib, *res;
	Case c;
	int rc, i;

	drv = cakert_driver();
	if (strcmp(mode, "old") == 0 || strcmp(mode, "noinit") == 0) {
		valid(&c, 0);
		rc = kitchen_launch(&c.a, NULL, &err);
		if (drv)
			fail("unusable-driver", "expected no table, found one%.0ld%.0ld", 0, 0, NULL);
		if (strcmp(mode, "old") == 0)
			status_is("old-driver", rc, &err, CAKE_ERR_DRIVER,
				  "kitchen: the CUDA driver is version 11.8; cakert needs 12.0 or newer");
		else
			status_is("cuinit-fails", rc, &err, CAKE_ERR_DRIVER,
				  "kitchen: cuInit failed: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected");
		rc = cakert_driver_status(&err);
		status_is("driver-status", rc, &err, CAKE_ERR_DRIVER, "CUDA");
		return finish();
	}
	if (!drv) {
		cakert_driver_status(&err);
		printf("FAIL load: the fake driver did not load: %s\n", err.msg);
		return 1;
	}
	lib = dlopen("libcuda.so.1", RTLD_NOW);
	fake_get = (long (*)(const char *))dlsym(lib, "fake_get");
	fake_set = (void (*)(const char *, long))dlsym(lib, "fake_set");
	fake_on_launch = (void (*)(void (*)(void **)))dlsym(lib, "fake_on_launch");
	fake_str = (const char *(*)(const char *))dlsym(lib, "fake_str");
	if (!fake_get || !fake_set || !fake_on_launch || !fake_str) {
		printf("FAIL load: libcuda.so.1 is not the fake\n");
		return 1;
	}
	printf("ok load: driver version %d, tensor_map_encode_tiled %s\n", drv->version,
	       drv->tensor_map_encode_tiled ? "present" : "absent (optional)");
	counter_is("resolve", "getproc", strcmp(mode, "getproc-missing") == 0 ? 0 : 28);

	valid(&c, 0);
	rc = kitchen_launch(&c.a, stream, &err);
	status_is("no-context", rc, &err, CAKE_ERR_CONTEXT, "kitchen: expected a current CUDA context, found none");

	ctx0 = use_device(drv, 0);
	fake_on_launch(record_params);
	rc = kitchen_launch(&c.a, stream, &err);
	status_is("launch", rc, &err, CAKE_OK, NULL);
	counter_is("launch-loads", "load", 1);
	counter_is("launch-image", "last_cubin", strcmp(mode, "cubin") == 0);
	image_is("launch-loaded", ctx0, strcmp(mode, "cubin") == 0 ? "cubin sm_90a" : "PTX sm_90a");
	if (strcmp(mode, "cubin") != 0 && strcmp(fake_str("target"), "sm_90a") != 0)
		fail("launch-target", "expected sm_90a%.0ld%.0ld", 0, 0, fake_str("target"));
	if (strcmp(fake_str("symbol"), kitchen_kernel.symbol) != 0)
		fail("launch-symbol", "expected the kernel's symbol%.0ld%.0ld", 0, 0, fake_str("symbol"));
	else
		printf("ok launch-symbol: %s\n", fake_str("symbol"));
	counter_is("launch-optin", "setattr", 1);
	counter_is("launch-optin-bytes", "last_setattr", 65600);
	counter_is("launch-grid-x", "grid_x", 3);
	counter_is("launch-grid-y", "grid_y", 7);
	counter_is("launch-grid-z", "grid_z", 11);
	counter_is("launch-block", "block_x", 96);
	counter_is("launch-smem", "smem", 65600);
	counter_is("launch-stream", "stream", 0x5000);
	counter_is("launch-no-cluster-attr", "nattrs", 0);
	if (seen_x != BASE || seen_w != BASE + 0x400000 || seen_m != 2 || seen_default != 5 ||
	    seen_free != 9 || seen_alpha != 1.5f || seen_h != 0x3c00 || seen_big != 4 ||
	    seen_p != 2 || seen_u != 4000000000u || seen_n != 256 || seen_f != -0.25)
		fail("launch-params", "kernel arguments differ%.0ld%.0ld", 0, 0, NULL);
	else
		printf("ok launch-params: pointers, syms and scalars in parameter order\n");

	valid(&c, 0);
	c.a.x.byte_offset = 32;
	rc = kitchen_launch(&c.a, stream, &err);
	status_is("relaunch", rc, &err, CAKE_OK, NULL);
	counter_is("relaunch-cached", "load", 1);
	counter_is("relaunch-optin-once", "setattr", 1);
	if (seen_x != BASE + 32)
		fail("relaunch-byte-offset", "expected data + 32%.0ld%.0ld", 0, 0, NULL);
	else
		printf("ok relaunch-byte-offset: the kernel gets data + byte_offset\n");

	valid(&c, 0);
	c.xs[0] = c.ys[0] = 0;
	c.a.p = -3;
	rc = kitchen_launch(&c.a, stream, &err);
	status_is("empty-grid", rc, &err, CAKE_OK, NULL);
	counter_is("empty-grid-no-launch", "launch", 2);

	valid(&c, 1);
	rc = kitchen_launch(&c.a, stream, &err);
	status_is("wrong-device", rc, &err, CAKE_ERR_DEVICE,
		  "kitchen: parameter 'x': expected a tensor on CUDA device 0 (the current context's), found device 1");

	use_device(drv, 1);
	rc = kitchen_launch(&c.a, stream, &err);
	status_is("device-1", rc, &err, CAKE_OK, NULL);
	counter_is("device-1-loads", "load", 2);
	if (strcmp(mode, "cubin") != 0 && strcmp(fake_str("target"), "sm_103a") != 0)
		fail("device-1-target", "expected sm_103a%.0ld%.0ld", 0, 0, fake_str("target"));

	use_device(drv, 2);
	valid(&c, 2);
	rc = kitchen_launch(&c.a, stream, &err);
	status_is("arch-sm100", rc, &err, CAKE_ERR_ARCH,
		  "kitchen: device 2 is sm_100 (compute capability 10.0); expected one of the targets built: sm_90a, sm_103a");

	use_device(drv, 3);
	valid(&c, 3);
	rc = kitchen_launch(&c.a, stream, &err);
	status_is("arch-sm89", rc, &err, CAKE_ERR_ARCH, "device 3 is sm_89 (compute capability 8.9)");

	/* Forgetting a context unloads its modules; the next launch loads again and meets a
	 * device whose opt-in ceiling is too low. */
	drv->ctx_set_current(ctx0);
	cakert_forget_context(ctx0);
	counter_is("forget-unloads", "unload", 1);
	fake_set("optin0", 60000);
	valid(&c, 0);
	rc = kitchen_launch(&c.a, stream, &err);
	status_is("smem-too-big", rc, &err, CAKE_ERR_SMEM,
		  "kitchen: needs 65600 bytes of dynamic shared memory (plus 0 static) per block; device 0 allows at most 60000 (its driver reports no oversized shared-memory mode)");
	counter_is("smem-too-big-unloads", "unload", 2);
	/* A driver with CUDA 13.4's oversized mode: too small a ceiling is still CAKE_ERR_SMEM,
	 * naming both limits; a ceiling that fits sets the mode on the function and launches. */
	fake_set("oversized0", 65000);
	rc = kitchen_launch(&c.a, stream, &err);
	status_is("smem-oversized-short", rc, &err, CAKE_ERR_SMEM,
		  "device 0 allows at most 60000, 65000 in its oversized shared-memory mode");
	counter_is("smem-oversized-short-mode", "smem_mode", 0);
	fake_set("oversized0", 70000);
	rc = kitchen_launch(&c.a, stream, &err);
	status_is("smem-oversized", rc, &err, CAKE_OK, NULL);
	counter_is("smem-oversized-mode", "smem_mode", 3);
	counter_is("smem-oversized-launch-smem", "smem", 65600);
	cakert_forget_context(ctx0);
	fake_set("oversized0", 0);
	fake_set("smem_mode", 0);
	fake_set("optin0", 232448);
	fake_set("static_smem", 200000);
	rc = kitchen_launch(&c.a, stream, &err);
	status_is("smem-static", rc, &err, CAKE_ERR_SMEM, "(plus 200000 static)");
	fake_set("static_smem", 0);

	fake_set("load_error", CUDA_ERROR_INVALID_PTX);
	rc = kitchen_launch(&c.a, stream, &err);
	status_is("load-error", rc, &err, CAKE_ERR_DRIVER,
		  "kitchen: cuModuleLoadDataEx (PTX for sm_90a) failed: CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed: ptxas fatal: fake failure");
	if (strcmp(mode, "cubin") == 0)
		status_is("load-error-after-cubin", rc, &err, CAKE_ERR_DRIVER,
			  "fake failure (after the cubin failed: CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed)");
	fake_set("load_error", 0);

	/* a cubin the driver refuses (from a newer ptxas, say): the PTX stands in */
	cakert_forget_context(ctx0);
	fake_set("cubin_load_error", CUDA_ERROR_NO_BINARY_FOR_GPU);
	rc = kitchen_launch(&c.a, stream, &err);
	status_is("cubin-refused", rc, &err, CAKE_OK, NULL);
	counter_is("cubin-refused-image", "last_cubin", 0);
	image_is("cubin-refused-loaded", ctx0, strcmp(mode, "cubin") == 0 ?
		 "PTX sm_90a (cubin refused: CUDA_ERROR_NO_BINARY_FOR_GPU)" : "PTX sm_90a");
	fake_set("cubin_load_error", 0);
	cakert_forget_context(ctx0);

	rc = kitchen_launch(&c.a, stream, &err);
	status_is("recovered", rc, &err, CAKE_OK, NULL);
	fake_set("launch_error", CUDA_ERROR_INVALID_VALUE);
	rc = kitchen_launch(&c.a, stream, &err);
	status_is("launch-error", rc, &err, CAKE_ERR_DRIVER,
		  "kitchen: cuLaunchKernelEx failed: CUDA_ERROR_INVALID_VALUE: invalid argument");
	fake_set("launch_error", 0);

	fake_on_launch(NULL);
	cakert_forget_context(ctx0);
	fake_set("load", 0);
	fake_set("launch", 0);
	for (i = 0; i < 8; i++)
		pthread_create(&th[i], NULL, launch_many, NULL);
	for (i = 0; i < 8; i++) {
		pthread_join(th[i], &res);
		if (res)
			fail("threads", "a launch failed%.0ld%.0ld", 0, 0, (const char *)res);
	}
	counter_is("threads-load-once", "load", 1);
	counter_is("threads-launches", "launch", 400);

	/* The cluster seam: a descriptor with a cluster shape launches with the attribute, and
	 * grids must be multiples of it. */
	{
		CakertKernel k2 = kitchen_kernel;
		const CakeTensor *t[5];
		int64_t sym[3] = {-1, -1, -1}, grid[3] = {4, 7, 11};
		void *params[16];
		CUdeviceptr ptrs[5];
		int64_t scratch[16];

		k2.cluster[0] = 2;
		valid(&c, 0);
		t[0] = &c.a.x;
		t[1] = &c.a.y;
		t[2] = &c.a.acc;
		t[3] = &c.a.mask;
		t[4] = &c.a.w;
		rc = cakert_check_tensors(&k2, t, sym, &err);
		if (rc == CAKE_OK)
			rc = cakert_check_grid(&k2, grid, &err);
		status_is("cluster-grid", rc, &err, CAKE_OK, NULL);
		for (i = 0; i < 5; i++) {
			ptrs[i] = cakert_tensor_ptr(t[i]);
			params[i] = &ptrs[i];
		}
		memset(scratch, 0, sizeof scratch);
		for (i = 5; i < 16; i++)
			params[i] = &scratch[i];
		rc = cakert_launch(&k2, t, grid, stream, params, &err);
		status_is("cluster-launch", rc, &err, CAKE_OK, NULL);
		counter_is("cluster-attr", "nattrs", 1);
		counter_is("cluster-x", "cluster_x", 2);
		counter_is("cluster-not-dependent", "dependent", 0);
		/* launch(dependent): the programmatic serialization attribute, after the cluster */
		k2.dependent = 1;
		rc = cakert_launch(&k2, t, grid, stream, params, &err);
		status_is("dependent-launch", rc, &err, CAKE_OK, NULL);
		counter_is("dependent-attrs", "nattrs", 2);
		counter_is("dependent-cluster-x", "cluster_x", 2);
		counter_is("dependent-attr", "dependent", 1);
		k2.dependent = 0;
		grid[0] = 3;
		rc = cakert_check_grid(&k2, grid, &err);
		status_is("cluster-divides", rc, &err, CAKE_ERR_GRID,
			  "kitchen: grid x = cdiv(n, 128) + big % 3 = 3: expected a multiple of the cluster's x = 2 (cluster 2x1x1)");
	}

	/* The driver table works for test programs too. */
	{
		CUdeviceptr p;
		int v = 0x12345678, back = 0;

		drv->mem_alloc(&p, sizeof v);
		drv->memcpy_htod(p, &v, sizeof v);
		drv->memcpy_dtoh(&back, p, sizeof back);
		drv->mem_free(p);
		if (back != v)
			fail("driver-table", "expected %lx, found %lx", v, back, NULL);
		else
			printf("ok driver-table: alloc, copy, free\n");
	}
	return finish();
}
