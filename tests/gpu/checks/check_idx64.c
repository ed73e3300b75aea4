/* check_idx64.c: 64-bit indexing (checks/idx64.cake) on tensors past 2^31 elements.
 * (a) flat_rev, index(i64), over u8[2^31 + 4099]: y[i] = x[N - 1 - i] + u8(i), every
 *     element compared (exact: threshold 0), and the tail past 2^31 reported on its own.
 * (b) rowsq64, index(i64), the sum of squares of each row of x: bf16[32768, 152064] (about
 *     10 GB, 5e9 elements) in U(-1, 1), against a float64 reference on a sample of rows (the
 *     first and last 64 and every 257th); f32 accumulation of 4752 terms a lane then a warp
 *     sum (threshold 1e-4 relative, floor 1).
 * (c) rowsq32, the same computation without index(i64), launched on the same tensors: the
 *     launcher must refuse with CAKE_ERR_LIMIT naming the fix, and launch nothing. */
#include "gputest.h"

#include "flat_rev.h"
#include "rowsq32.h"
#include "rowsq64.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLAT_N (((int64_t)1 << 31) + 4099)
#define ROWS 32768
#define COLS 152064

/* (a): returns 0 on pass */
static int
check_flat(const GtDev *g, CUstream s)
{
	int64_t shape[1] = {FLAT_N};
	size_t n = (size_t)FLAT_N, i;
	unsigned char *x = malloc(n);
	const unsigned char *py = NULL, *px = NULL;
	GtBuf dx = {0}, dy = {0};
	GtCmp all, tail;
	flat_rev_args a;
	CakeError err;
	GtRng rng;
	int fail = 1, guards = 1, inputs = 0;

	if (!x || gt_buf_alloc(&dx, n, "flat x") || gt_buf_alloc(&dy, n, "flat y")) {
		printf("FAIL idx64 flat_rev: allocation failed\n");
		goto out;
	}
	gt_rng_seed(&rng, gt_seed("idx64_flat", 0));
	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t r = gt_rng_next(&rng);

		memcpy(x + i, &r, 8);
	}
	for (; i < n; i++)
		x[i] = (unsigned char)gt_rng_next(&rng);
	memset(&a, 0, sizeof a);
	gt_tensor(&a.x, g, &dx, CAKE_DTYPE_UINT, 8, 1, shape);
	gt_tensor(&a.y, g, &dy, CAKE_DTYPE_UINT, 8, 1, shape);
	if (gt_buf_poison(&dx, s, "flat x") || gt_buf_poison(&dy, s, "flat y") ||
	    gt_buf_upload(&dx, x, s, "flat x"))
		goto out;
	if (flat_rev_launch(&a, s, &err) != CAKE_OK) {
		printf("FAIL idx64 flat_rev: launch: %s: %s\n", cakert_status_name(err.status), err.msg);
		goto out;
	}
	if (!(py = gt_fetch(&dy, s, "flat y", &guards)) || !(px = gt_fetch(&dx, s, "flat x", &guards)))
		goto out;
	inputs = memcmp(px, x, n) == 0;
	gt_cmp_init(&all, 1.0, 0.0);
	gt_cmp_init(&tail, 1.0, 0.0);
	for (i = 0; i < n; i++) {
		unsigned char ref = (unsigned char)(x[n - 1 - i] + (unsigned char)i);

		gt_cmp_add(i < ((size_t)1 << 31) ? &all : &tail, i, (double)py[i], (double)ref, 0);
	}
	fail = gt_report("idx64 flat_rev", "N=2147487747 i < 2^31", &all, guards, inputs);
	fail |= gt_report("idx64 flat_rev", "N=2147487747 tail i >= 2^31", &tail, guards, inputs);
out:
	gt_buf_free(&dx);
	gt_buf_free(&dy);
	free(x);
	return fail;
}

static int
sampled(size_t r)
{
	return r < 64 || r >= ROWS - 64 || r % 257 == 0;
}

/* (b) and (c): returns 0 on pass */
static int
check_rows(const GtDev *g, CUstream s)
{
	int64_t shape[2] = {ROWS, COLS};
	size_t n = (size_t)ROWS * COLS, i, r;
	uint16_t *x = malloc(n * sizeof *x);
	const unsigned char *ps;
	GtBuf dx = {0}, dsum = {0};
	rowsq64_args a;
	rowsq32_args b;
	CakeError err;
	GtCmp cmp;
	GtRng rng;
	int fail = 1, guards = 1, untouched = 1, rc;

	if (!x || gt_buf_alloc(&dx, n * 2, "rows x") || gt_buf_alloc(&dsum, ROWS * 4, "rows sums")) {
		printf("FAIL idx64 rowsq64: allocation failed\n");
		goto out;
	}
	gt_rng_seed(&rng, gt_seed("idx64_rows", 0));
	for (i = 0; i + 4 <= n; i += 4) {
		uint64_t v = gt_rng_next(&rng);
		int k;

		for (k = 0; k < 4; k++, v >>= 16)
			x[i + (size_t)k] = gt_bf16_from_float((float)(v & 0xFFFF) / 32768.0f - 1.0f);
	}
	for (; i < n; i++)
		x[i] = gt_bf16_from_float((float)gt_rng_uniform(&rng, -1.0, 1.0));
	memset(&a, 0, sizeof a);
	gt_tensor(&a.x, g, &dx, CAKE_DTYPE_BFLOAT, 16, 2, shape);
	gt_tensor(&a.sums, g, &dsum, CAKE_DTYPE_FLOAT, 32, 1, shape);
	if (gt_buf_poison(&dx, s, "rows x") || gt_buf_poison(&dsum, s, "rows sums") ||
	    gt_buf_upload(&dx, x, s, "rows x"))
		goto out;
	if (rowsq64_launch(&a, s, &err) != CAKE_OK) {
		printf("FAIL idx64 rowsq64: launch: %s: %s\n", cakert_status_name(err.status), err.msg);
		goto out;
	}
	if (!(ps = gt_fetch(&dsum, s, "rows sums", &guards)))
		goto out;
	gt_cmp_init(&cmp, 1.0, 1e-4);
	for (r = 0; r < ROWS; r++) {
		const uint16_t *row = x + r * COLS;
		uint32_t bits;
		float got;
		double ref = 0;

		if (!sampled(r))
			continue;
		for (i = 0; i < COLS; i++) {
			double v = gt_bf16_to_float(row[i]);

			ref += v * v;
		}
		memcpy(&bits, ps + r * 4, 4);
		memcpy(&got, &bits, 4);
		gt_cmp_add(&cmp, r, (double)got, ref, bits == 0xFFFFFFFFu);
	}
	/* the input is 10 GB: its integrity is not read back */
	fail = gt_report("idx64 rowsq64", "R=32768 C=152064 (sampled rows)", &cmp, guards, 1);

	/* (c): the same computation without index(i64) must be refused, launching nothing */
	if (gt_buf_poison(&dsum, s, "rows sums")) {
		fail = 1;
		goto out;
	}
	memset(&b, 0, sizeof b);
	b.x = a.x;
	b.sums = a.sums;
	rc = rowsq32_launch(&b, s, &err);
	if ((ps = gt_fetch(&dsum, s, "rows sums", &guards)))
		for (r = 0; r < ROWS * 4; r++)
			untouched &= ps[r] == GT_POISON;
	if (rc == CAKE_ERR_LIMIT && err.status == CAKE_ERR_LIMIT && ps && untouched &&
	    strstr(err.msg, "4982833152 elements") &&
	    strstr(err.msg, "declare index(i64) on kernel 'rowsq32' (or dispatch to a variant that has it)")) {
		printf("PASS idx64 rowsq32 refused: %s: %s\n", cakert_status_name(rc), err.msg);
	} else {
		printf("FAIL idx64 rowsq32 refusal: expected CAKE_ERR_LIMIT naming index(i64) and nothing launched, found %s: %s%s\n",
		       cakert_status_name(rc), err.msg, untouched ? "" : " (the output changed)");
		fail = 1;
	}
out:
	gt_buf_free(&dx);
	gt_buf_free(&dsum);
	free(x);
	return fail;
}

int
main(void)
{
	GtDev g;
	CUstream s = NULL;
	int rc = gt_init(&g, "check_idx64"), failed;

	if (rc > 0)
		return gt_skip_status();
	if (rc < 0)
		return 1;
	if (gt_cu(g.cu->stream_create(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate", "idx64")) {
		gt_fini(&g);
		return 1;
	}
	failed = check_flat(&g, s);
	failed |= check_rows(&g, s);
	g.cu->stream_destroy(s);
	gt_fini(&g);
	printf("idx64: %s\n", failed ? "FAILED" : "all passed");
	return failed ? 1 : 0;
}
