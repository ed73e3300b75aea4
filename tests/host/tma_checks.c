/* tma_checks.c: the launcher generated for tma.ir (kernel tgemm: a, b: bf16 [m, k] and
 * [n, k], c: f32 [m, n]; tensor maps ta (box 128x64, 128B swizzle), tb (256x64, 128B
 * swizzle, NaN fill) and tc (64x32, no swizzle); grid min(num_sms, tiles); cluster 2x1x1)
 * driven against fake_libcuda.c. Prints what cuTensorMapEncodeTiled was given for each map
 * (tma.ir pins the numbers), the TMA validation failures, num_sms in the grid, and the
 * cluster attribute and divisibility error.
 *
 * Usage: tma_checks MODE, where MODE is fake (the fake driver with its four devices) or
 * noinit (a driver whose cuInit fails). A mismatch prints what was expected and exits 1. */
#include "tgemm.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static int failures;
static long (*fake_get)(const char *);
static void (*fake_set)(const char *, long);
static long (*fake_enc)(int, const char *);
static void (*fake_on_launch)(void (*)(void **));

/* What the kernel received, copied while the launch runs. */
static CUdeviceptr seen_ptr[3];
static int32_t seen_sym[3];
static cuuint64_t seen_map[3][16];

#define BASE 0x7f0000000000ull

typedef struct Case {
	int64_t as[2], bs[2], cs[2];
	tgemm_args a;
} Case;

static void
status_is(const char *name, int rc, const CakeError *err, int want, const char *msg)
{
	if (rc != want || err->status != want || (msg && !strstr(err->msg, msg))) {
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

	if (v != want) {
		printf("FAIL %s: expected %s = %ld, found %ld\n", name, counter, want, v);
		failures++;
	} else {
		printf("ok %s: %s = %ld\n", name, counter, v);
	}
}

static CakeTensor
view(int code, int bits, const int64_t *shape, uint64_t at)
{
	CakeTensor t;

	memset(&t, 0, sizeof t);
	t.data = (void *)(uintptr_t)(BASE + at);
	t.device.device_type = CAKE_DEVICE_CUDA;
	t.ndim = 2;
	t.dtype.code = (uint8_t)code;
	t.dtype.bits = (uint8_t)bits;
	t.dtype.lanes = 1;
	t.shape = shape;
	return t;
}

/* m x k, n x k, m x n; each tensor 256 MiB apart so none overlaps. */
static void
shapes(Case *c, int64_t m, int64_t n, int64_t k)
{
	memset(c, 0, sizeof *c);
	c->as[0] = c->cs[0] = m;
	c->bs[0] = c->cs[1] = n;
	c->as[1] = c->bs[1] = k;
	c->a.a = view(CAKE_DTYPE_BFLOAT, 16, c->as, 0);
	c->a.b = view(CAKE_DTYPE_BFLOAT, 16, c->bs, 0x10000000);
	c->a.c = view(CAKE_DTYPE_FLOAT, 32, c->cs, 0x20000000);
}

static void
grid_is(const char *name, Case *c, int64_t x)
{
	CakeError err;
	int64_t g[3] = {-9, -9, -9};
	int rc = tgemm_grid(&c->a, g, &err);

	if (rc != CAKE_OK || g[0] != x || g[1] != 1 || g[2] != 1) {
		printf("FAIL %s: expected grid (%lld, 1, 1), found %s (%lld, %lld, %lld) %s\n", name,
		       (long long)x, cakert_status_name(rc), (long long)g[0], (long long)g[1],
		       (long long)g[2], err.msg);
		failures++;
		return;
	}
	printf("ok %s: grid (%lld, 1, 1)\n", name, (long long)x);
}

/* One line per cuTensorMapEncodeTiled call: what the map was built from. Addresses are
 * printed relative to BASE. */
static void
print_encode(const char *name, int i)
{
	int d, rank = (int)fake_enc(i, "rank");
	char f[32];

	printf("encode %s: dtype %ld rank %d addr +0x%lx dims [", name, fake_enc(i, "dtype"), rank,
	       (unsigned long)(fake_enc(i, "addr") - (long)BASE));
	for (d = 0; d < rank; d++) {
		snprintf(f, sizeof f, "dim%d", d);
		printf("%s%ld", d ? ", " : "", fake_enc(i, f));
	}
	printf("] strides [");
	for (d = 0; d + 1 < rank; d++) {
		snprintf(f, sizeof f, "stride%d", d);
		printf("%s%ld", d ? ", " : "", fake_enc(i, f));
	}
	printf("] box [");
	for (d = 0; d < rank; d++) {
		snprintf(f, sizeof f, "box%d", d);
		printf("%s%ld", d ? ", " : "", fake_enc(i, f));
	}
	printf("] estr [");
	for (d = 0; d < rank; d++) {
		snprintf(f, sizeof f, "estr%d", d);
		printf("%s%ld", d ? ", " : "", fake_enc(i, f));
	}
	printf("] interleave %ld swizzle %ld l2 %ld oob %ld map%%64 %ld\n",
	       fake_enc(i, "interleave"), fake_enc(i, "swizzle"), fake_enc(i, "l2"),
	       fake_enc(i, "oob"), fake_enc(i, "map_mod64"));
}

static void
record_params(void **params)
{
	int i;

	for (i = 0; i < 3; i++) {
		memcpy(&seen_ptr[i], params[i], sizeof seen_ptr[i]);
		memcpy(seen_map[i], params[3 + i], sizeof seen_map[i]);
		memcpy(&seen_sym[i], params[6 + i], sizeof seen_sym[i]);
	}
}

/* The map the kernel got for parameter 3 + i: the fake's encoding of the tensor at
 * offset `at` with innermost extent dim0 and box box0, or all zeros when zero is set. */
static void
map_is(const char *name, int i, uint64_t at, uint64_t dim0, uint64_t box0, int zero)
{
	static const cuuint64_t zeros[16];

	if (zero ? memcmp(seen_map[i], zeros, sizeof zeros) != 0
		 : (seen_map[i][0] != 0x7e45a0a5u || seen_map[i][1] != BASE + at ||
		    seen_map[i][2] != dim0 || seen_map[i][3] != box0)) {
		printf("FAIL %s: the kernel's map differs: %llx %llx %llu %llu\n", name,
		       (unsigned long long)seen_map[i][0], (unsigned long long)seen_map[i][1],
		       (unsigned long long)seen_map[i][2], (unsigned long long)seen_map[i][3]);
		failures++;
		return;
	}
	if (zero)
		printf("ok %s: the kernel gets an all-zero map\n", name);
	else
		printf("ok %s: the kernel gets the encoded map (128 bytes by value)\n", name);
}

static void
use_device(const CakertDriver *drv, int dev)
{
	CUcontext ctx = NULL;

	drv->device_primary_ctx_retain(&ctx, dev);
	drv->ctx_set_current(ctx);
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
	const char *mode = argc > 1 ? argv[1] : "fake";
	const CakertDriver *drv;
	CUstream stream = (CUstream)(void *)0x5000;
	CakeError err;
	int64_t g[3];
	void *lib;
	Case c;
	int rc;

	/* Validation comes first and needs no driver: these fail the same everywhere. */
	shapes(&c, 4096, 4096, 8192);
	c.a.a.data = (char *)c.a.a.data + 8;
	rc = tgemm_grid(&c.a, g, &err);
	status_is("misaligned-base", rc, &err, CAKE_ERR_ALIGN,
		  "tgemm: parameter 'a': expected data + byte_offset aligned to 16 bytes (TMA: tensor map 'ta' covers it), found address 0x7f0000000008");

	shapes(&c, 4096, 4096, 4100);
	rc = tgemm_grid(&c.a, g, &err);
	status_is("bad-row-stride", rc, &err, CAKE_ERR_STRIDE,
		  "tgemm: parameter 'a': row stride of a is 8200 bytes; TMA needs a multiple of 16: k must be a multiple of 8 for bf16 (tensor map 'ta')");

	shapes(&c, 4096, 4097, 8192);
	rc = tgemm_grid(&c.a, g, &err);
	status_is("bad-row-stride-f32", rc, &err, CAKE_ERR_STRIDE,
		  "tgemm: parameter 'c': row stride of c is 16388 bytes; TMA needs a multiple of 16: n must be a multiple of 4 for f32 (tensor map 'tc')");

	if (strcmp(mode, "noinit") == 0) {
		shapes(&c, 4096, 4096, 8192);
		rc = tgemm_grid(&c.a, g, &err);
		status_is("grid-no-driver", rc, &err, CAKE_ERR_DRIVER,
			  "tgemm: the grid uses num_sms: cuInit failed: CUDA_ERROR_NO_DEVICE");
		return finish();
	}

	drv = cakert_driver();
	lib = dlopen("libcuda.so.1", RTLD_NOW);
	fake_get = (long (*)(const char *))dlsym(lib, "fake_get");
	fake_set = (void (*)(const char *, long))dlsym(lib, "fake_set");
	fake_enc = (long (*)(int, const char *))dlsym(lib, "fake_enc");
	fake_on_launch = (void (*)(void (*)(void **)))dlsym(lib, "fake_on_launch");
	if (!drv || !fake_get || !fake_set || !fake_enc || !fake_on_launch) {
		printf("FAIL load: libcuda.so.1 is not the fake\n");
		return 1;
	}

	/* num_sms needs the current context's device. */
	shapes(&c, 4096, 4096, 8192);
	rc = tgemm_grid(&c.a, g, &err);
	status_is("grid-no-context", rc, &err, CAKE_ERR_CONTEXT,
		  "tgemm: the grid uses num_sms: expected a current CUDA context, found none");
	counter_is("grid-no-context-no-query", "sms_queries", 0);

	use_device(drv, 0);
	shapes(&c, 1024, 4096, 8192);
	grid_is("grid-tiles", &c, 128);         /* 8 * 16 tiles, under 132 SMs */
	shapes(&c, 4096, 4096, 8192);
	grid_is("grid-num-sms", &c, 132);       /* 32 * 16 tiles, capped by 132 SMs */
	grid_is("grid-num-sms-again", &c, 132);
	counter_is("num-sms-cached", "sms_queries", 1);
	use_device(drv, 1);
	grid_is("grid-num-sms-device-1", &c, 148);
	counter_is("num-sms-per-context", "sms_queries", 2);
	use_device(drv, 0);
	grid_is("grid-num-sms-device-0", &c, 132);
	counter_is("num-sms-still-cached", "sms_queries", 2);

	/* A launch encodes each map, passes it by value, and launches a 2x1x1 cluster. */
	fake_on_launch(record_params);
	rc = tgemm_launch(&c.a, stream, &err);
	status_is("launch", rc, &err, CAKE_OK, NULL);
	counter_is("launch-encodes", "encode", 3);
	print_encode("ta", 0);
	print_encode("tb", 1);
	print_encode("tc", 2);
	counter_is("launch-grid", "grid_x", 132);
	counter_is("launch-block", "block_x", 384);
	counter_is("launch-smem", "smem", 66560);
	counter_is("launch-optin", "last_setattr", 66560);
	counter_is("launch-cluster-attr", "nattrs", 1);
	counter_is("launch-cluster-x", "cluster_x", 2);
	counter_is("launch-cluster-y", "cluster_y", 1);
	counter_is("launch-cluster-z", "cluster_z", 1);
	map_is("param-ta", 0, 0, 8192, 64, 0);
	map_is("param-tb", 1, 0x10000000, 8192, 64, 0);
	map_is("param-tc", 2, 0x20000000, 4096, 32, 0);
	if (seen_ptr[0] != BASE || seen_ptr[1] != BASE + 0x10000000 || seen_ptr[2] != BASE + 0x20000000 ||
	    seen_sym[0] != 4096 || seen_sym[1] != 4096 || seen_sym[2] != 8192) {
		printf("FAIL param-others: pointers or syms differ\n");
		failures++;
	} else {
		printf("ok param-others: pointers and syms around the maps in parameter order\n");
	}

	/* A byte offset moves the map's base. */
	fake_set("encode", 0);
	c.a.b.data = (char *)c.a.b.data - 0x100;
	c.a.b.byte_offset = 0x110;
	rc = tgemm_launch(&c.a, stream, &err);
	status_is("byte-offset", rc, &err, CAKE_OK, NULL);
	if (fake_enc(1, "addr") != (long)(BASE + 0x10000010))
		printf("FAIL byte-offset-base: found +0x%lx\n", (unsigned long)(fake_enc(1, "addr") - (long)BASE)), failures++;
	else
		printf("ok byte-offset-base: tb maps data + byte_offset\n");

	/* Validation failures stop before the driver: nothing is encoded or launched. */
	fake_set("encode", 0);
	fake_set("launch", 0);
	shapes(&c, 4096, 4096, 8192);
	c.a.b.byte_offset = 4;
	rc = tgemm_launch(&c.a, stream, &err);
	status_is("launch-misaligned", rc, &err, CAKE_ERR_ALIGN,
		  "tgemm: parameter 'b': expected data + byte_offset aligned to 16 bytes (TMA: tensor map 'tb' covers it), found address 0x7f0010000004");
	shapes(&c, 4096, 4096, 1001);
	rc = tgemm_launch(&c.a, stream, &err);
	status_is("launch-bad-row-stride", rc, &err, CAKE_ERR_STRIDE,
		  "tgemm: parameter 'a': row stride of a is 2002 bytes; TMA needs a multiple of 16: k must be a multiple of 8 for bf16 (tensor map 'ta')");
	counter_is("validation-no-encode", "encode", 0);
	counter_is("validation-no-launch", "launch", 0);

	/* The grid must be a multiple of the cluster: 1 * 3 tiles is not. */
	shapes(&c, 128, 768, 64);
	rc = tgemm_launch(&c.a, stream, &err);
	status_is("cluster-divides", rc, &err, CAKE_ERR_GRID,
		  "tgemm: grid x = min(num_sms, cdiv(m, 128) * cdiv(n, 256)) = 3: expected a multiple of the cluster's x = 2 (cluster 2x1x1)");
	shapes(&c, 128, 512, 64);
	rc = tgemm_launch(&c.a, stream, &err);
	status_is("cluster-divides-ok", rc, &err, CAKE_OK, NULL);
	counter_is("cluster-divides-ok-grid", "grid_x", 2);

	/* A failing encode names the map, the tensor and the driver's error. */
	fake_set("encode_error", CUDA_ERROR_INVALID_VALUE);
	fake_set("launch", 0);
	shapes(&c, 1024, 4096, 8192);
	rc = tgemm_launch(&c.a, stream, &err);
	status_is("encode-error", rc, &err, CAKE_ERR_DRIVER,
		  "tgemm: cuTensorMapEncodeTiled for tensor map 'ta' of parameter 'a' (bf16 [1024, 8192], box [128, 64], swizzle 128B, oob zero) failed: CUDA_ERROR_INVALID_VALUE: invalid argument");
	counter_is("encode-error-no-launch", "launch", 0);
	fake_set("encode_error", 0);

	/* K = 0: a and b have no elements, so their maps are zeros (TMA refuses zero
	 * extents); c's map is encoded. */
	fake_set("encode", 0);
	shapes(&c, 1024, 4096, 0);
	c.a.a.data = c.a.b.data = NULL;
	rc = tgemm_launch(&c.a, stream, &err);
	status_is("empty-k", rc, &err, CAKE_OK, NULL);
	counter_is("empty-k-encodes", "encode", 1);
	map_is("empty-k-ta", 0, 0, 0, 0, 1);
	map_is("empty-k-tb", 1, 0, 0, 0, 1);
	map_is("empty-k-tc", 2, 0x20000000, 4096, 32, 0);

	fake_on_launch(NULL);
	return finish();
}
