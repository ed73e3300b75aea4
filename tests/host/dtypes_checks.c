/* dtypes_checks.c: drives the launcher generated for dtypes.ir: the dtype checks of u8,
 * u16, e4m3 and e5m2 tensors and the range checks of u8 and u16 scalars, through
 * dtypes_grid (which validates every parameter; no GPU needed). One line per case; a
 * mismatch prints what was expected and exits 1. */
#include "dtypes.h"

#include <stdio.h>
#include <string.h>

static int failures;

typedef struct Case {
	int64_t n[1];
	dtypes_args a;
} Case;

static CakeTensor
view(const Case *c, int code, int bits, uint64_t at)
{
	CakeTensor t;

	memset(&t, 0, sizeof t);
	t.data = (void *)(uintptr_t)(0x7f0000000000ull + at);
	t.device.device_type = CAKE_DEVICE_CUDA;
	t.ndim = 1;
	t.dtype.code = (uint8_t)code;
	t.dtype.bits = (uint8_t)bits;
	t.dtype.lanes = 1;
	t.shape = c->n;
	return t;
}

static void
valid(Case *c)
{
	memset(c, 0, sizeof *c);
	c->n[0] = 100;
	c->a.a = view(c, CAKE_DTYPE_FLOAT8_E4M3FN, 8, 0);
	c->a.b = view(c, CAKE_DTYPE_FLOAT8_E5M2, 8, 0x1000);
	c->a.u = view(c, CAKE_DTYPE_UINT, 8, 0x2000);
	c->a.v = view(c, CAKE_DTYPE_UINT, 16, 0x3000);
	c->a.s = 255;
	c->a.t = 65535;
}

static void
expect(const char *name, Case *c, int want, const char *msg)
{
	CakeError err;
	int64_t g[3];
	int rc;

	memset(&err, 0, sizeof err);
	rc = dtypes_grid(&c->a, g, &err);
	if (rc != want || !strstr(err.msg, msg)) {
		printf("FAIL %s: expected %s with \"%s\", found %s with \"%s\"\n", name,
		       cakert_status_name(want), msg, cakert_status_name(rc), err.msg);
		failures++;
		return;
	}
	printf("ok %s: %s%s%s\n", name, cakert_status_name(rc), rc ? ": " : "", err.msg);
}

int
main(void)
{
	Case c;

	valid(&c);
	expect("valid", &c, CAKE_OK, "");
	valid(&c);
	c.a.a.dtype.code = CAKE_DTYPE_UINT;
	expect("e4m3-as-u8", &c, CAKE_ERR_DTYPE, "parameter 'a': expected dtype e4m3");
	valid(&c);
	c.a.b.dtype.code = CAKE_DTYPE_FLOAT8_E4M3FN;
	expect("e5m2-as-e4m3", &c, CAKE_ERR_DTYPE, "parameter 'b': expected dtype e5m2");
	valid(&c);
	c.a.u.dtype.code = CAKE_DTYPE_INT;
	expect("u8-as-i8", &c, CAKE_ERR_DTYPE, "parameter 'u': expected dtype u8");
	valid(&c);
	c.a.v.dtype.code = CAKE_DTYPE_FLOAT;
	expect("u16-as-f16", &c, CAKE_ERR_DTYPE, "parameter 'v': expected dtype u16");
	valid(&c);
	c.a.s = 256;
	expect("range-u8", &c, CAKE_ERR_RANGE, "parameter 's': expected a value in u8 range");
	valid(&c);
	c.a.t = -1;
	expect("range-u16", &c, CAKE_ERR_RANGE, "parameter 't': expected a value in u16 range");
	if (failures) {
		printf("%d FAILED\n", failures);
		return 1;
	}
	printf("all passed\n");
	return 0;
}
