/* per_rank_checks.c: drives the launcher generated for per-rank.cake (gather4: a per_rank
 * table a of 4 bf16 [M, 64] tensors, c bf16 [R, 64], R == 4 M) through its _grid entry
 * point, which validates the tensors without a driver: they point at made-up device
 * addresses never read. Prints one line per case; a mismatch exits 1. */
#include "gather4.h"

#include <stdio.h>
#include <string.h>

static int failures;

#define BASE 0x7f0000000000ull

static void
report(const char *name, int rc, const CakeError *err, const int64_t g[3], int want, const char *msg)
{
	if (rc != want || (msg && !strstr(err->msg, msg))) {
		printf("FAIL %s: expected %s with \"%s\", found %s with \"%s\"\n", name, cakert_status_name(want),
		       msg ? msg : "", cakert_status_name(rc), err->msg);
		failures++;
	} else if (rc == CAKE_OK) {
		printf("ok %s: grid (%lld, %lld, %lld)\n", name, (long long)g[0], (long long)g[1], (long long)g[2]);
	} else {
		printf("ok %s: %s: %s\n", name, cakert_status_name(rc), err->msg);
	}
}

static CakeTensor
tensor(uint64_t addr, int64_t *shape)
{
	CakeTensor t = {0, {CAKE_DEVICE_CUDA, 0}, 2, {CAKE_DTYPE_BFLOAT, 16, 1}, NULL, NULL, 0};

	t.data = (void *)(uintptr_t)addr;
	t.shape = shape;
	return t;
}

int
main(void)
{
	static int64_t as[2] = {256, 64}, other[2] = {128, 64}, cs[2] = {1024, 64};
	gather4_args a;
	CakeError err;
	int64_t g[3];
	int r, rc;

	memset(&a, 0, sizeof a);
	for (r = 0; r < 4; r++)
		a.a[r] = tensor(BASE + ((uint64_t)r << 36), as);
	a.c = tensor(BASE + (5ull << 36), cs);
	a.rank = 1;
	rc = gather4_grid(&a, g, &err);
	report("same shapes", rc, &err, g, CAKE_OK, NULL);
	a.a[2].shape = other;
	rc = gather4_grid(&a, g, &err);
	report("other shape", rc, &err, g, CAKE_ERR_SHAPE, "parameter 'a[2]'");
	a.a[2].shape = as;
	a.a[3].data = NULL;
	rc = gather4_grid(&a, g, &err);
	report("null table entry", rc, &err, g, CAKE_ERR_NULL, "parameter 'a[3]'");
	return failures != 0;
}
