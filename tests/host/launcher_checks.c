/* launcher_checks.c: drives the launcher generated for launcher-checks.ir (kernel vscale:
 * x, y: f32 [m, n], x read with f32x4 loads, y out; b: f16 [n, 4]; k: i32; alpha: f32;
 * grid cdiv(n, 128) x m x 1) through one case per validation the launcher makes, checking
 * the status code and a piece of the message of each. Validation happens before the driver
 * is touched, so the tensors point at made-up device addresses that are never read.
 * Prints one line per case; any mismatch prints what was expected and exits 1. */
#include "vscale.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

/* Our own copy of DLPack's DLTensor (dlpack.h v0.8+), to check the layout claim. */
typedef struct {
	int32_t device_type, device_id;
} DLDeviceCopy;
typedef struct {
	uint8_t code, bits;
	uint16_t lanes;
} DLDataTypeCopy;
typedef struct {
	void *data;
	DLDeviceCopy device;
	int32_t ndim;
	DLDataTypeCopy dtype;
	int64_t *shape;
	int64_t *strides;
	uint64_t byte_offset;
} DLTensorCopy;

static void
expect(const char *name, int rc, const CakeError *err, int want, const char *msg)
{
	if (rc != want || err->status != want || (msg && !strstr(err->msg, msg))) {
		printf("FAIL %s: expected %s with \"%s\", found %s with \"%s\"\n", name,
		       cakert_status_name(want), msg ? msg : "", cakert_status_name(rc), err->msg);
		failures++;
		return;
	}
	printf("ok %s: %s%s%s\n", name, cakert_status_name(rc), rc ? ": " : "", err->msg);
}

/* Shapes live with the test case; each case starts from a valid set of arguments. */
typedef struct Case {
	int64_t xs[2], ys[2], bs[2];
	vscale_args a;
} Case;

#define BASE 0x7f0000000000ull

static void
valid(Case *c)
{
	CakeTensor f32 = {0, {CAKE_DEVICE_CUDA, 0}, 2, {CAKE_DTYPE_FLOAT, 32, 1}, NULL, NULL, 0};
	CakeTensor f16 = {0, {CAKE_DEVICE_CUDA, 0}, 2, {CAKE_DTYPE_FLOAT, 16, 1}, NULL, NULL, 0};

	memset(c, 0, sizeof *c);
	c->xs[0] = c->ys[0] = 3;
	c->xs[1] = c->ys[1] = c->bs[0] = 256;
	c->bs[1] = 4;
	c->a.x = f32;
	c->a.y = f32;
	c->a.b = f16;
	c->a.x.data = (void *)(uintptr_t)BASE;
	c->a.y.data = (void *)(uintptr_t)(BASE + 0x100000);
	c->a.b.data = (void *)(uintptr_t)(BASE + 0x200000);
	c->a.x.shape = c->xs;
	c->a.y.shape = c->ys;
	c->a.b.shape = c->bs;
	c->a.k = 7;
	c->a.alpha = 0.5f;
}

static void
check_grid(const char *name, Case *c, int64_t x, int64_t y, int64_t z)
{
	CakeError err;
	int64_t g[3] = {-9, -9, -9};
	int rc = vscale_grid(&c->a, g, &err);

	if (rc != CAKE_OK || g[0] != x || g[1] != y || g[2] != z) {
		printf("FAIL %s: expected grid (%lld, %lld, %lld), found %s (%lld, %lld, %lld) %s\n",
		       name, (long long)x, (long long)y, (long long)z, cakert_status_name(rc),
		       (long long)g[0], (long long)g[1], (long long)g[2], err.msg);
		failures++;
		return;
	}
	printf("ok %s: grid (%lld, %lld, %lld)\n", name, (long long)x, (long long)y, (long long)z);
}

int
main(void)
{
	static const int64_t contiguous[2] = {256, 1}, column_major[2] = {1, 3};
	static const int64_t one_row[2] = {1, 1}, odd_unit[2] = {12345, 1};
	const CakertDriver *drv;
	CakeError err, derr;
	Case c;
	int rc;

	if (sizeof(CakeTensor) != sizeof(DLTensorCopy) ||
	    offsetof(CakeTensor, ndim) != offsetof(DLTensorCopy, ndim) ||
	    offsetof(CakeTensor, dtype) != offsetof(DLTensorCopy, dtype) ||
	    offsetof(CakeTensor, shape) != offsetof(DLTensorCopy, shape) ||
	    offsetof(CakeTensor, strides) != offsetof(DLTensorCopy, strides) ||
	    offsetof(CakeTensor, byte_offset) != offsetof(DLTensorCopy, byte_offset)) {
		printf("FAIL layout: CakeTensor differs from DLTensor\n");
		failures++;
	} else {
		printf("ok layout: CakeTensor is DLTensor's layout\n");
	}

	valid(&c);
	check_grid("grid", &c, 2, 3, 1);
	c.xs[1] = c.ys[1] = c.bs[0] = 257;
	check_grid("grid-round-up", &c, 3, 3, 1);

	rc = vscale_launch(NULL, NULL, &err);
	expect("null-args", rc, &err, CAKE_ERR_NULL, "vscale: args is NULL");

	valid(&c);
	c.a.y.data = NULL;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("null-data", rc, &err, CAKE_ERR_NULL, "vscale: parameter 'y': data is NULL");

	valid(&c);
	c.a.x.shape = NULL;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("null-shape", rc, &err, CAKE_ERR_NULL, "parameter 'x': shape is NULL");

	valid(&c);
	c.a.x.dtype.bits = 16;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("dtype-bits", rc, &err, CAKE_ERR_DTYPE,
	       "parameter 'x': expected dtype f32 (code 2, bits 32, lanes 1), found f16 (code 2, bits 16, lanes 1)");

	valid(&c);
	c.a.b.dtype.code = CAKE_DTYPE_BFLOAT;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("dtype-code", rc, &err, CAKE_ERR_DTYPE, "parameter 'b': expected dtype f16 (code 2, bits 16, lanes 1), found bf16");

	valid(&c);
	c.a.x.dtype.lanes = 4;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("dtype-lanes", rc, &err, CAKE_ERR_DTYPE, "lanes 1), found f32 (code 2, bits 32, lanes 4)");

	valid(&c);
	c.a.x.ndim = 1;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("ndim", rc, &err, CAKE_ERR_NDIM, "vscale: parameter 'x': expected ndim 2, found 1");

	valid(&c);
	c.bs[1] = 5;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("shape-constant", rc, &err, CAKE_ERR_SHAPE,
	       "vscale: parameter 'b': expected shape[1] = 4, found 5");

	valid(&c);
	c.ys[1] = 255;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("shape-symbol", rc, &err, CAKE_ERR_SHAPE,
	       "vscale: parameter 'y': expected shape[1] = n = 256 (bound by 'x' shape[1]), found 255");

	valid(&c);
	c.bs[0] = 128;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("shape-symbol-other-dim", rc, &err, CAKE_ERR_SHAPE,
	       "parameter 'b': expected shape[0] = n = 256 (bound by 'x' shape[1]), found 128");

	valid(&c);
	c.xs[0] = c.ys[0] = -1;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("shape-negative", rc, &err, CAKE_ERR_SHAPE, "parameter 'x': shape[0] is negative (-1)");

	valid(&c);
	c.a.x.strides = column_major;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("strides", rc, &err, CAKE_ERR_STRIDE,
	       "vscale: parameter 'x': expected row-major contiguous strides [256, 1] (elements), found [1, 3]");

	valid(&c);
	c.a.x.strides = contiguous;
	c.a.y.strides = contiguous;
	rc = vscale_grid(&c.a, (int64_t[3]){0, 0, 0}, &err);
	expect("strides-contiguous", rc, &err, CAKE_OK, "");

	valid(&c);
	c.xs[0] = c.ys[0] = 1;
	c.a.x.strides = odd_unit;
	c.a.y.strides = one_row;
	rc = vscale_grid(&c.a, (int64_t[3]){0, 0, 0}, &err);
	expect("strides-unit-dim", rc, &err, CAKE_OK, "");

	valid(&c);
	c.a.x.data = (char *)c.a.x.data + 4;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("align-vector", rc, &err, CAKE_ERR_ALIGN,
	       "vscale: parameter 'x': expected data + byte_offset aligned to 16 bytes (the kernel uses vector loads/stores on it), found address 0x7f0000000004");

	valid(&c);
	c.a.x.byte_offset = 8;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("align-byte-offset", rc, &err, CAKE_ERR_ALIGN, "found address 0x7f0000000008");

	valid(&c);
	c.a.x.data = (char *)c.a.x.data - 16;
	c.a.x.byte_offset = 16;
	rc = vscale_grid(&c.a, (int64_t[3]){0, 0, 0}, &err);
	expect("align-byte-offset-ok", rc, &err, CAKE_OK, "");

	valid(&c);
	c.a.y.data = (char *)c.a.y.data + 2;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("align-element", rc, &err, CAKE_ERR_ALIGN,
	       "parameter 'y': expected data + byte_offset aligned to 4 bytes (the element size)");

	valid(&c);
	c.a.y.data = (char *)c.a.y.data + 4;
	rc = vscale_grid(&c.a, (int64_t[3]){0, 0, 0}, &err);
	expect("align-element-ok", rc, &err, CAKE_OK, "");

	valid(&c);
	c.xs[1] = c.ys[1] = c.bs[0] = (int64_t)1 << 31;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("limit-dim", rc, &err, CAKE_ERR_LIMIT,
	       "vscale: parameter 'x': shape[1] = 2147483648 (shape [3, 2147483648], 6442450944 elements) is not below 2^31, but kernel 'vscale' indexes in i32: declare index(i64) on kernel 'vscale' (or dispatch to a variant that has it)");

	valid(&c);
	c.xs[0] = c.ys[0] = 65536;
	c.xs[1] = c.ys[1] = c.bs[0] = 32768;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("limit-numel", rc, &err, CAKE_ERR_LIMIT,
	       "vscale: parameter 'x': 2147483648 elements (shape [65536, 32768]) is not below 2^31, but kernel 'vscale' indexes in i32: declare index(i64) on kernel 'vscale'");

	valid(&c);
	c.a.k = (int64_t)1 << 31;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("range-i32-high", rc, &err, CAKE_ERR_RANGE,
	       "vscale: parameter 'k': expected a value in i32 range [-2147483648, 2147483647], found 2147483648");

	valid(&c);
	c.a.k = -((int64_t)1 << 31) - 1;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("range-i32-low", rc, &err, CAKE_ERR_RANGE, "found -2147483649");

	valid(&c);
	c.a.b.device.device_type = CAKE_DEVICE_CPU;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("device-type", rc, &err, CAKE_ERR_DEVICE,
	       "vscale: parameter 'b': expected a CUDA tensor (device type 2), found device type 1");

	valid(&c);
	c.a.y.data = (char *)c.a.x.data + 16;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("overlap-out", rc, &err, CAKE_ERR_OVERLAP,
	       "vscale: parameter 'y' (out, bytes 0x7f0000000010..0x7f0000000c10) overlaps parameter 'x' (in, bytes 0x7f0000000000..0x7f0000000c00)");

	valid(&c);
	c.a.y.data = c.a.b.data;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("overlap-alias", rc, &err, CAKE_ERR_OVERLAP, "parameter 'y' (out");

	valid(&c);
	c.a.y.data = (char *)c.a.x.data + 3 * 256 * 4;
	rc = vscale_grid(&c.a, (int64_t[3]){0, 0, 0}, &err);
	expect("overlap-adjacent-ok", rc, &err, CAKE_OK, "");

	valid(&c);
	c.xs[0] = c.ys[0] = 70000;
	c.xs[1] = c.ys[1] = c.bs[0] = 1;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("grid-range", rc, &err, CAKE_ERR_GRID, "vscale: grid y = m = 70000: expected 0..65535");

	/* An empty grid launches nothing, so it succeeds even without a driver; empty tensors
	 * may have NULL data and any strides. */
	valid(&c);
	c.xs[0] = c.ys[0] = 0;
	c.a.x.data = c.a.y.data = NULL;
	c.a.x.strides = column_major;
	rc = vscale_launch(&c.a, NULL, &err);
	expect("empty-grid", rc, &err, CAKE_OK, "");

	valid(&c);
	rc = vscale_launch(NULL, NULL, NULL);
	if (rc != CAKE_ERR_NULL) {
		printf("FAIL null-err: expected CAKE_ERR_NULL, found %s\n", cakert_status_name(rc));
		failures++;
	} else {
		printf("ok null-err: a NULL CakeError is allowed\n");
	}

	/* Valid arguments reach the driver. Without one (this CI machine) the launch reports
	 * it; with one, the answer must agree with cakert_driver() and not be a validation
	 * error (no context is current here, so it cannot launch). */
	valid(&c);
	drv = cakert_driver();
	rc = vscale_launch(&c.a, NULL, &err);
	if (!drv) {
		int want = cakert_driver_status(&derr);

		if (want == CAKE_ERR_NO_DRIVER)
			expect("driver", rc, &err, CAKE_ERR_NO_DRIVER,
			       "vscale: no CUDA driver (libcuda.so.1 not found)");
		else
			expect("driver", rc, &err, want, derr.msg);
	} else if (rc != CAKE_ERR_CONTEXT && rc != CAKE_OK && rc != CAKE_ERR_ARCH &&
		   rc != CAKE_ERR_DRIVER && rc != CAKE_ERR_DEVICE) {
		printf("FAIL driver: a present driver gave %s: %s\n", cakert_status_name(rc), err.msg);
		failures++;
	} else {
		printf("ok driver: present (version %d): %s %s\n", drv->version,
		       cakert_status_name(rc), err.msg);
	}
	printf("ok driver-answer-consistent\n");

	if (failures) {
		printf("%d FAILED\n", failures);
		return 1;
	}
	printf("all passed\n");
	return 0;
}
