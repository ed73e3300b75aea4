/* kitchen_checks.c: drives the launcher generated for kitchen.ir: its grid formulas
 * evaluated through kitchen_grid (every operator, a u64 and an i64 scalar, division by
 * zero, overflow, a negative result) and the range and dtype checks of the parameter kinds
 * launcher_checks.c does not cover. No GPU needed; prints one line per case, and a
 * mismatch prints what was expected and exits 1. */
#include "kitchen.h"

#include <stdio.h>
#include <string.h>

static int failures;

typedef struct Case {
	int64_t xs[2], ys[2], accs[1], masks[1], ws[3];
	kitchen_args a;
} Case;

#define BASE 0x7f0000000000ull

static CakeTensor
view(int code, int bits, int ndim, const int64_t *shape, uint64_t at)
{
	CakeTensor t;

	memset(&t, 0, sizeof t);
	t.data = (void *)(uintptr_t)(BASE + at);
	t.device.device_type = CAKE_DEVICE_CUDA;
	t.ndim = ndim;
	t.dtype.code = (uint8_t)code;
	t.dtype.bits = (uint8_t)bits;
	t.dtype.lanes = 1;
	t.shape = shape;
	return t;
}

/* A valid call: m = 2, n = 256; the grid is (3, 7, 11). */
static void
valid(Case *c)
{
	memset(c, 0, sizeof *c);
	c->xs[0] = c->ys[0] = 2;
	c->xs[1] = c->ys[1] = c->masks[0] = 256;
	c->accs[0] = 8;
	c->ws[0] = 2;
	c->ws[1] = 3;
	c->ws[2] = 4;
	c->a.x = view(CAKE_DTYPE_FLOAT, 32, 2, c->xs, 0);
	c->a.y = view(CAKE_DTYPE_BFLOAT, 16, 2, c->ys, 0x100000);
	c->a.acc = view(CAKE_DTYPE_INT, 64, 1, c->accs, 0x200000);
	c->a.mask = view(CAKE_DTYPE_BOOL, 8, 1, c->masks, 0x300000);
	c->a.w = view(CAKE_DTYPE_UINT, 32, 3, c->ws, 0x400000);
	c->a.default_ = 5;
	c->a.free = 9;
	c->a.big = 4;
	c->a.p = 2;
	c->a.d = 2;
	c->a.u = 4000000000LL;
}

static void
grid_is(const char *name, Case *c, int64_t x, int64_t y, int64_t z)
{
	CakeError err;
	int64_t g[3] = {-9, -9, -9};
	int rc = kitchen_grid(&c->a, g, &err);

	if (rc != CAKE_OK || g[0] != x || g[1] != y || g[2] != z) {
		printf("FAIL %s: expected (%lld, %lld, %lld), found %s (%lld, %lld, %lld) %s\n", name,
		       (long long)x, (long long)y, (long long)z, cakert_status_name(rc),
		       (long long)g[0], (long long)g[1], (long long)g[2], err.msg);
		failures++;
		return;
	}
	printf("ok %s: (%lld, %lld, %lld)\n", name, (long long)x, (long long)y, (long long)z);
}

static void
fails(const char *name, Case *c, int want, const char *msg)
{
	CakeError err;
	int64_t g[3];
	int rc = kitchen_grid(&c->a, g, &err);

	if (rc != want || !strstr(err.msg, msg)) {
		printf("FAIL %s: expected %s with \"%s\", found %s with \"%s\"\n", name,
		       cakert_status_name(want), msg, cakert_status_name(rc), err.msg);
		failures++;
		return;
	}
	printf("ok %s: %s: %s\n", name, cakert_status_name(rc), err.msg);
}

int
main(void)
{
	Case c;

	valid(&c);
	grid_is("grid-basic", &c, 3, 7, 11);

	/* m = 0 clamps through max(1, ...); n = 129 rounds up; p / d truncates toward zero. */
	valid(&c);
	c.xs[0] = c.ys[0] = 0;
	c.xs[1] = c.ys[1] = c.masks[0] = 129;
	c.a.big = 0;
	c.a.p = -2;
	c.a.default_ = 1;
	grid_is("grid-clamped", &c, 2, 1, 1);

	valid(&c);
	c.a.d = 0;
	fails("div-zero", &c, CAKE_ERR_GRID, "kitchen: grid z = 2 * default + p / d + 0 * u: expected an int64 value, found division by zero or overflow");

	valid(&c);
	c.a.big = (uint64_t)1 << 63;
	fails("u64-too-big", &c, CAKE_ERR_GRID, "kitchen: grid x = cdiv(n, 128) + big % 3:");

	valid(&c);
	c.a.p = INT64_MAX;
	fails("i64-overflow", &c, CAKE_ERR_GRID, "kitchen: grid y = max(1, min(m, 4)) * p - -3:");

	valid(&c);
	c.xs[0] = c.ys[0] = 1;
	c.a.p = -4;
	fails("negative-grid", &c, CAKE_ERR_GRID, "kitchen: grid y = max(1, min(m, 4)) * p - -3 = -1: expected 0..65535");

	valid(&c);
	c.a.u = -1;
	fails("range-u32", &c, CAKE_ERR_RANGE, "kitchen: parameter 'u': expected a value in u32 range [0, 4294967295], found -1");

	valid(&c);
	c.a.free = (int64_t)1 << 31;
	fails("range-sym", &c, CAKE_ERR_RANGE, "kitchen: parameter 'free': expected a value in sym range [0, 2147483647], found 2147483648");

	valid(&c);
	c.a.default_ = INT64_MAX;
	fails("range-default", &c, CAKE_ERR_RANGE, "kitchen: parameter 'default': expected a value in i32 range");

	valid(&c);
	c.a.mask.dtype.code = CAKE_DTYPE_UINT;
	fails("bool-dtype", &c, CAKE_ERR_DTYPE, "kitchen: parameter 'mask': expected dtype bool (code 6, bits 8, lanes 1), found u8 (code 1, bits 8, lanes 1)");

	valid(&c);
	c.a.acc.data = (char *)c.a.w.data + 8;
	fails("inout-overlap", &c, CAKE_ERR_OVERLAP, "kitchen: parameter 'acc' (inout, bytes");

	if (failures) {
		printf("%d FAILED\n", failures);
		return 1;
	}
	printf("all passed\n");
	return 0;
}
