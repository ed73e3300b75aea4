/* index64_checks.c: drives the launchers generated for index64.cake (rowsq64 and rowsq32:
 * x bf16 [R, C] in, out f32 [R] out, grid R, with and without index(i64); flat64: x, y u8
 * [N], grid cdiv(N, 256), index(i64)) through their _grid entry points, which validate the
 * tensors without a driver: the tensors point at made-up device addresses never read.
 * Prints one line per case; any mismatch prints what was expected and exits 1. */
#include "flat64.h"
#include "rowsq32.h"
#include "rowsq64.h"

#include <stdio.h>
#include <string.h>

static int failures;

#define BASE 0x7f0000000000ull

static void
report(const char *name, int rc, const CakeError *err, const int64_t g[3], int want,
       const char *msg)
{
	if (rc != want || (msg && !strstr(err->msg, msg))) {
		printf("FAIL %s: expected %s with \"%s\", found %s with \"%s\"\n", name,
		       cakert_status_name(want), msg ? msg : "", cakert_status_name(rc), err->msg);
		failures++;
	} else if (rc == CAKE_OK) {
		printf("ok %s: grid (%lld, %lld, %lld)\n", name, (long long)g[0], (long long)g[1],
		       (long long)g[2]);
	} else {
		printf("ok %s: %s: %s\n", name, cakert_status_name(rc), err->msg);
	}
}

static CakeTensor
tensor(uint64_t addr, int code, int bits, int ndim, int64_t *shape)
{
	CakeTensor t = {0, {CAKE_DEVICE_CUDA, 0}, 0, {0, 0, 1}, NULL, NULL, 0};

	t.data = (void *)(uintptr_t)addr;
	t.ndim = ndim;
	t.dtype.code = (uint8_t)code;
	t.dtype.bits = (uint8_t)bits;
	t.shape = shape;
	return t;
}

/* rowsq: x [rows, cols] bf16 and out [orows] f32, far apart */
static int
rowsq(int wide, int64_t rows, int64_t cols, int64_t orows, int64_t g[3], CakeError *err)
{
	static int64_t xs[2], os[1];

	xs[0] = rows;
	xs[1] = cols;
	os[0] = orows;
	if (wide) {
		rowsq64_args a;

		memset(&a, 0, sizeof a);
		a.x = tensor(BASE, CAKE_DTYPE_BFLOAT, 16, 2, xs);
		a.out = tensor(BASE + (1ull << 44), CAKE_DTYPE_FLOAT, 32, 1, os);
		return rowsq64_grid(&a, g, err);
	} else {
		rowsq32_args a;

		memset(&a, 0, sizeof a);
		a.x = tensor(BASE, CAKE_DTYPE_BFLOAT, 16, 2, xs);
		a.out = tensor(BASE + (1ull << 44), CAKE_DTYPE_FLOAT, 32, 1, os);
		return rowsq32_grid(&a, g, err);
	}
}

/* flat64: x and y u8 with the shape `shape` of rank ndim (1 here; the checks run on x first) */
static int
flat(int64_t *shape, int ndim, int64_t g[3], CakeError *err)
{
	flat64_args a;

	memset(&a, 0, sizeof a);
	a.x = tensor(BASE, CAKE_DTYPE_UINT, 8, ndim, shape);
	a.y = tensor(BASE + (1ull << 62), CAKE_DTYPE_UINT, 8, ndim, shape);
	return flat64_grid(&a, g, err);
}

int
main(void)
{
	int64_t g[3] = {0, 0, 0}, n[1];
	CakeError err;
	int rc;

	rc = rowsq(1, 32768, 152064, 32768, g, &err);
	report("rowsq64-big", rc, &err, g, CAKE_OK, NULL);
	rc = rowsq(0, 32768, 152064, 32768, g, &err);
	report("rowsq32-big", rc, &err, g, CAKE_ERR_LIMIT,
	       "rowsq32: parameter 'x': 4982833152 elements (shape [32768, 152064]) is not below 2^31, but kernel 'rowsq32' indexes in i32: declare index(i64) on kernel 'rowsq32' (or dispatch to a variant that has it)");
	rc = rowsq(0, 1, (int64_t)1 << 31, 1, g, &err);
	report("rowsq32-dim", rc, &err, g, CAKE_ERR_LIMIT, "shape[1] = 2147483648");
	rc = rowsq(0, 32768, 65535, 32768, g, &err);
	report("rowsq32-small", rc, &err, g, CAKE_OK, NULL);

	n[0] = ((int64_t)1 << 31) + 4099;
	rc = flat(n, 1, g, &err);
	report("flat64-big", rc, &err, g, CAKE_OK, NULL);
	/* past the shape checks, a grid x over 2^31 - 1 is the grid check's to refuse */
	n[0] = (int64_t)1 << 40;
	rc = flat(n, 1, g, &err);
	report("flat64-grid", rc, &err, g, CAKE_ERR_GRID, "grid x = cdiv(N, 256) = 4294967296");
	rc = rowsq(1, (int64_t)1 << 61, 4, (int64_t)1 << 61, g, &err);
	report("rowsq64-numel-overflow", rc, &err, g, CAKE_ERR_LIMIT, "2^63 or more elements");
	rc = rowsq(1, (int64_t)1 << 61, 1, (int64_t)1 << 61, g, &err);
	report("rowsq64-bytes", rc, &err, g, CAKE_ERR_LIMIT, "parameter 'out': shape[0]");
	if (!failures)
		printf("all passed\n");
	return failures != 0;
}
