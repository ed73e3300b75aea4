/* test_all_gather_matmul.c: the all-gather GEMM on one GPU with W simulated ranks
 * (kernels_src/all_gather_matmul, docs/all_gather_matmul.md, docs/testing.md). Every rank's
 * buffers (its A rows, its pad of W flags, its epoch and status words, its C) are
 * allocations of this one device, and each rank's launch gets all ranks' A and pads as its
 * per_rank tables: what symmetric memory gives a rank on a real machine.
 *
 * Each shape runs three calls in a row (epochs 1, 2, 3: no reset between them; on a GPU
 * also one shape 1000 times, checked after the last), and each call one of two ways:
 * - concurrent (a GPU): one stream per rank, each launch capped at num_sms / W CTAs so
 *   that all ranks are resident together; every flag comes from the kernels;
 * - in turn (CAKE_GPU_TEST_SEQUENTIAL=1: the emulated driver runs launches one at a time):
 *   rank r runs after ranks 0 .. r - 1, whose kernels published their flags into its pad;
 *   the test sets the flags of the ranks that have not run yet (as those would, later).
 * After each call every rank's C is checked against a float64 reference of all_gather(A)
 * B^T (bf16 inputs taken exactly; relative error against max(|ref|, sqrt(K) / 4), at most
 * 1e-2: one bf16 rounding of the output), with C poisoned before and guarded; its status
 * must be 0, its epoch words {call, 0}, and every flag of its pad the call's epoch.
 * Then missing peers: rank 0 of W = 2 and of W = 8 alone, the others' flags never set, a
 * 20 ms limit: the launch must end (no hang) with status 1, rank 0's own rows of C right,
 * and rank 0's flag published into every peer's pad; where ranks run at once (a GPU),
 * within one limit plus 15 ms (the launch and the call's own tiles), not one a peer.
 *
 * Inputs, never 0: A and B U(-1, 1) as bf16. */
#include "gputest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all_gather_matmul_w2.h"
#include "all_gather_matmul_w4.h"
#include "all_gather_matmul_w8.h"

#define MAXW 8
#define CALLS 3
#define TIMEOUT_NS 2000000000LL         /* a peer that is merely slow: 2 s */
#define MISSING_NS 20000000LL           /* the missing peers' case: 20 ms */
#define MISSING_SLACK_MS 15.0           /* its launch and its own tiles, on top of the limit */

typedef struct Shape {
	int w;
	int64_t m, n, k;
	int small;              /* also on the emulated driver */
} Shape;

static const Shape shapes[] = {
	{2, 80, 200, 128, 1},
	{4, 64, 256, 64, 1},
	{8, 24, 64, 64, 1},
	{2, 512, 2560, 1024, 0},
	{4, 300, 1000, 520, 0},
	{8, 128, 512, 256, 0},
};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

static const char *const names[] = {"all_gather_matmul_w2", "all_gather_matmul_w4", "all_gather_matmul_w8"};

/* One rank's buffers; shapes the launchers read through the tensors. */
typedef struct Rank {
	GtBuf a, flags, epoch, status, c;
} Rank;

typedef struct Case {
	const Shape *sh;
	Rank rk[MAXW];
	GtBuf b;
	uint16_t *ha[MAXW], *hb;
	double *ref;            /* [W M, N] */
	int64_t ashape[2], bshape[2], cshape[3], fshape[1], eshape[1], sshape[1];
} Case;

static int
sequential(void)
{
	const char *v = getenv("CAKE_GPU_TEST_SEQUENTIAL");

	return v && *v && strcmp(v, "0") != 0;
}

#define FILL(x, W, c, g, r, timeout, ctas) \
	do { \
		int q_; \
		memset(&(x), 0, sizeof(x)); \
		for (q_ = 0; q_ < (W); q_++) { \
			gt_tensor(&(x).a[q_], (g), &(c)->rk[q_].a, CAKE_DTYPE_BFLOAT, 16, 2, (c)->ashape); \
			gt_tensor(&(x).flags[q_], (g), &(c)->rk[q_].flags, CAKE_DTYPE_UINT, 32, 1, (c)->fshape); \
		} \
		gt_tensor(&(x).b, (g), &(c)->b, CAKE_DTYPE_BFLOAT, 16, 2, (c)->bshape); \
		gt_tensor(&(x).c, (g), &(c)->rk[r].c, CAKE_DTYPE_BFLOAT, 16, 3, (c)->cshape); \
		gt_tensor(&(x).epoch, (g), &(c)->rk[r].epoch, CAKE_DTYPE_UINT, 32, 1, (c)->eshape); \
		gt_tensor(&(x).status, (g), &(c)->rk[r].status, CAKE_DTYPE_INT, 32, 1, (c)->sshape); \
		(x).rank = (r); \
		(x).timeout_ns = (timeout); \
		(x).max_ctas = (ctas); \
	} while (0)

/* Rank r's call of instance all_gather_matmul_wW, clocked for first_call. */
#define LAUNCH_W(W) \
	case W: { \
		all_gather_matmul_w##W##_args x; \
		FILL(x, W, c, g, r, timeout, ctas); \
		rc = all_gather_matmul_w##W##_launch(&x, s, err); \
		gt_clock_note(&all_gather_matmul_w##W##_kernel, gt_now_ms() - t0); \
		return rc; \
	}

/* Launches rank r's call of c's instance on stream s. */
static int
launch(Case *c, const GtDev *g, int r, int64_t timeout, int ctas, CUstream s, CakeError *err)
{
	double t0 = gt_now_ms();
	int rc;

	switch (c->sh->w) {
	LAUNCH_W(2)
	LAUNCH_W(4)
	LAUNCH_W(8)
	default:
		return CAKE_ERR_SHAPE;
	}
}

static void
destroy(Case *c)
{
	int q;

	for (q = 0; q < MAXW; q++) {
		gt_buf_free(&c->rk[q].a);
		gt_buf_free(&c->rk[q].flags);
		gt_buf_free(&c->rk[q].epoch);
		gt_buf_free(&c->rk[q].status);
		gt_buf_free(&c->rk[q].c);
		free(c->ha[q]);
	}
	gt_buf_free(&c->b);
	free(c->hb);
	free(c->ref);
}

/* Random A and B, the reference, the buffers (flags, epochs and status zero). */
static int
create(Case *c, const Shape *sh, uint64_t seed, CUstream s)
{
	const int64_t w = sh->w, m = sh->m, n = sh->n, k = sh->k;
	uint32_t zero[MAXW] = {0};
	GtRng rng;
	int64_t q, i, j, t;
	int bad = 0;

	memset(c, 0, sizeof *c);
	c->sh = sh;
	gt_rng_seed(&rng, seed);
	c->ashape[0] = m, c->ashape[1] = k;
	c->bshape[0] = n, c->bshape[1] = k;
	c->cshape[0] = w, c->cshape[1] = m, c->cshape[2] = n;
	c->fshape[0] = w, c->eshape[0] = 2, c->sshape[0] = 1;
	c->hb = malloc((size_t)(n * k) * 2);
	c->ref = malloc((size_t)(w * m * n) * sizeof *c->ref);
	for (i = 0; i < n * k; i++)
		c->hb[i] = gt_bf16_from_float((float)gt_rng_uniform(&rng, -1, 1));
	for (q = 0; q < w; q++) {
		c->ha[q] = malloc((size_t)(m * k) * 2);
		for (i = 0; i < m * k; i++)
			c->ha[q][i] = gt_bf16_from_float((float)gt_rng_uniform(&rng, -1, 1));
		for (i = 0; i < m; i++)
			for (j = 0; j < n; j++) {
				double acc = 0;

				for (t = 0; t < k; t++)
					acc += (double)gt_bf16_to_float(c->ha[q][i * k + t]) *
					       gt_bf16_to_float(c->hb[j * k + t]);
				c->ref[(q * m + i) * n + j] = acc;
			}
		bad |= gt_buf_alloc(&c->rk[q].a, (size_t)(m * k) * 2, "a") ||
		       gt_buf_alloc(&c->rk[q].flags, (size_t)w * 4, "flags") ||
		       gt_buf_alloc(&c->rk[q].epoch, 8, "epoch") ||
		       gt_buf_alloc(&c->rk[q].status, 4, "status") ||
		       gt_buf_alloc(&c->rk[q].c, (size_t)(w * m * n) * 2, "c");
		if (bad)
			return 1;
		bad |= gt_buf_poison(&c->rk[q].a, s, "a") || gt_buf_upload(&c->rk[q].a, c->ha[q], s, "a") ||
		       gt_buf_poison(&c->rk[q].flags, s, "flags") || gt_buf_upload(&c->rk[q].flags, zero, s, "flags") ||
		       gt_buf_poison(&c->rk[q].epoch, s, "epoch") || gt_buf_upload(&c->rk[q].epoch, zero, s, "epoch") ||
		       gt_buf_poison(&c->rk[q].status, s, "status") ||
		       gt_buf_upload(&c->rk[q].status, zero, s, "status");
	}
	bad |= gt_buf_alloc(&c->b, (size_t)(n * k) * 2, "b") || gt_buf_poison(&c->b, s, "b") ||
	       gt_buf_upload(&c->b, c->hb, s, "b");
	return bad;
}

/* Rank r's results after call `call`: C (rows of ranks q with want_rows & (1 << q)), its
 * status, epoch words and the flags of its pad (each checked only where want_flags has
 * its bit). 0 when they pass. */
static int
check_rank(Case *c, int r, uint32_t call, unsigned want_rows, int32_t want_status, unsigned want_flags,
	   const char *kernel, const char *when, CUstream s)
{
	const Shape *sh = c->sh;
	const int64_t per = sh->m * sh->n;
	const unsigned char *p;
	char label[160];
	GtCmp cmp;
	int guards = 1, fail = 0, q;
	double floor = sqrt((double)sh->k) / 4;
	int32_t st;
	uint32_t ep[2], fl[MAXW];

	gt_cmp_init(&cmp, floor, 1e-2);
	if (!(p = gt_fetch(&c->rk[r].c, s, "c", &guards)))
		return 1;
	for (q = 0; q < sh->w; q++)
		if (want_rows & (1u << q))
			gt_cmp_bf16(&cmp, p + q * per * 2, c->ref + q * per, (size_t)per);
	snprintf(label, sizeof label, "W %d M %lld N %lld K %lld rank %d %s", sh->w, (long long)sh->m,
		 (long long)sh->n, (long long)sh->k, r, when);
	fail |= gt_report(kernel, label, &cmp, guards, 1);
	if (!(p = gt_fetch(&c->rk[r].status, s, "status", &guards)))
		return 1;
	memcpy(&st, p, 4);
	if (!(p = gt_fetch(&c->rk[r].epoch, s, "epoch", &guards)))
		return 1;
	memcpy(ep, p, 8);
	if (!(p = gt_fetch(&c->rk[r].flags, s, "flags", &guards)))
		return 1;
	memcpy(fl, p, (size_t)sh->w * 4);
	if (st != want_status || ep[0] != call || ep[1] != 0 || !guards) {
		printf("FAIL %s %s: status %d (expected %d), epoch {%u, %u} (expected {%u, 0})%s\n", kernel,
		       label, st, want_status, ep[0], ep[1], call, guards ? "" : ", a guard changed");
		fail = 1;
	}
	for (q = 0; q < sh->w; q++)
		if ((want_flags & (1u << q)) && fl[q] != call) {
			printf("FAIL %s %s: flag of rank %d in this rank's pad is %u, expected %u\n", kernel, label, q,
			       fl[q], call);
			fail = 1;
		}
	return fail;
}

/* Sets flag q of rank r's pad to v (a rank that has not run yet this call, as it will). */
static int
set_flag(Case *c, int r, int q, uint32_t v, CUstream s)
{
	return gt_cu(cakert_driver()->memcpy_htod_async(c->rk[r].flags.ptr + (CUdeviceptr)q * 4, &v, 4, s),
		     "cuMemcpyHtoDAsync", "flags");
}

/* One call on every rank, concurrent (one stream each) or in turn on s. */
static int
call_all(Case *c, const GtDev *g, uint32_t call, CUstream s, CUstream *rs, const char *kernel)
{
	const int w = c->sh->w;
	CakeError err;
	int r, q, sms = 0;

	for (r = 0; r < w; r++)
		if (gt_buf_poison(&c->rk[r].c, s, "c"))
			return 1;
	if (sequential()) {
		for (r = 0; r < w; r++) {
			for (q = r + 1; q < w; q++)
				if (set_flag(c, r, q, call, s))
					return 1;
			if (launch(c, g, r, TIMEOUT_NS, 1 << 20, s, &err) != CAKE_OK) {
				printf("FAIL %s: rank %d: %s\n", kernel, r, err.msg);
				return 1;
			}
		}
		return 0;
	}
	if (gt_cu(cakert_driver()->stream_synchronize(s), "cuStreamSynchronize", "poison") ||
	    gt_cu(cakert_driver()->device_get_attribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, g->dev),
		  "cuDeviceGetAttribute", "SMs"))
		return 1;
	for (r = 0; r < w; r++)
		if (launch(c, g, r, TIMEOUT_NS, sms / w > 0 ? sms / w : 1, rs[r], &err) != CAKE_OK) {
			printf("FAIL %s: rank %d: %s\n", kernel, r, err.msg);
			return 1;
		}
	for (r = 0; r < w; r++)
		if (gt_cu(cakert_driver()->stream_synchronize(rs[r]), "cuStreamSynchronize", "ranks"))
			return 1;
	return 0;
}

/* ncalls calls in a row on every rank; the results checked after the first CALLS and the
 * last. */
static int
run_shape(const GtDev *g, CUstream s, const Shape *sh, uint32_t ncalls, int *ran)
{
	const char *kernel = names[sh->w == 2 ? 0 : sh->w == 4 ? 1 : 2];
	CUstream rs[MAXW] = {0};
	Case c;
	uint32_t call;
	int r, fail = 0;
	char when[32];

	if (create(&c, sh, gt_seed(kernel, (int)sh->m), s)) {
		destroy(&c);
		(*ran)++;
		return 1;
	}
	for (r = 0; r < sh->w && !sequential(); r++)
		if (gt_cu(cakert_driver()->stream_create(&rs[r], CU_STREAM_NON_BLOCKING), "cuStreamCreate", "ranks"))
			fail = 1;
	for (call = 1; call <= ncalls && !fail; call++) {
		if (call_all(&c, g, call, s, rs, kernel)) {
			fail = 1;
			break;
		}
		if (call > CALLS && call < ncalls)
			continue;
		snprintf(when, sizeof when, "call %u of %u", call, ncalls);
		for (r = 0; r < sh->w; r++) {
			(*ran)++;
			fail |= check_rank(&c, r, call, (1u << sh->w) - 1, 0, (1u << sh->w) - 1, kernel, when, s);
		}
	}
	for (r = 0; r < sh->w; r++)
		if (rs[r])
			cakert_driver()->stream_destroy(rs[r]);
	destroy(&c);
	return fail;
}

/* Rank 0 of W = 2 alone, rank 1 never publishing: the wait gives up after MISSING_NS. */
static int
run_missing(const GtDev *g, CUstream s, const Shape *shp, int *ran)
{
	const Shape sh = *shp;
	const char *kernel = names[sh.w == 2 ? 0 : sh.w == 4 ? 1 : 2];
	CakeError err;
	Case c;
	int fail;
	double t0, ms;

	(*ran)++;
	if (create(&c, &sh, gt_seed("missing peer", 0), s) || gt_buf_poison(&c.rk[0].c, s, "c")) {
		destroy(&c);
		return 1;
	}
	if (gt_cu(cakert_driver()->stream_synchronize(s), "cuStreamSynchronize", "inputs")) {
		destroy(&c);
		return 1;
	}
	t0 = gt_now_ms();
	if (launch(&c, g, 0, MISSING_NS, 1 << 20, s, &err) != CAKE_OK) {
		printf("FAIL %s missing peer: %s\n", kernel, err.msg);
		destroy(&c);
		return 1;
	}
	if (gt_cu(cakert_driver()->stream_synchronize(s), "cuStreamSynchronize", "missing peer")) {
		destroy(&c);
		return 1;
	}
	ms = gt_now_ms() - t0;
	fail = check_rank(&c, 0, 1, 1, 1, 1, kernel, "missing peers", s);
	if (!fail) {
		int guards = 1;
		uint32_t published = 1;
		int q;

		for (q = 1; q < sh.w && !fail; q++) {
			const unsigned char *p = gt_fetch(&c.rk[q].flags, s, "flags", &guards);

			fail = !p || !guards;
			if (p)
				memcpy(&published, p, 4);
			fail |= published != 1;
		}
		/* after the first wait that fails no CTA waits again: the call ends within one
		 * limit plus its own work, however many peers are missing (on a GPU; the emulated
		 * driver's clock and speed are its own) */
		fail |= !sequential() && ms > MISSING_NS / 1e6 + MISSING_SLACK_MS;
		printf("%s %s missing peers: %d of %d absent, status 1 after %.1f ms (limit %.1f ms%s); rank 0's "
		       "flag in their pads %u\n", fail ? "FAIL" : "PASS", kernel, sh.w - 1, sh.w, ms,
		       MISSING_NS / 1e6, sequential() ? ", not timed in turn" : "", published);
	}
	destroy(&c);
	return fail;
}

static int
run_all(const GtDev *g, CUstream s, int *ran)
{
	int i, failed = 0;

	for (i = 0; i < NSHAPES; i++)
		if (shapes[i].small || !gt_small())
			failed += run_shape(g, s, &shapes[i], CALLS, ran);
	/* a thousand calls back to back, no reset: the epochs keep counting */
	if (!gt_small())
		failed += run_shape(g, s, &shapes[0], 1000, ran);
	failed += run_missing(g, s, &shapes[0], ran);
	failed += run_missing(g, s, &shapes[2], ran);   /* W = 8: seven peers absent */
	return failed;
}

static int
first_call(const GtDev *g, CUstream s, const char *name)
{
	const Shape *sh = &shapes[0];
	int i, r = 0;
	Case c;

	for (i = 0; i < NSHAPES; i++)
		if (strcmp(names[shapes[i].w == 2 ? 0 : shapes[i].w == 4 ? 1 : 2], name) == 0) {
			sh = &shapes[i];
			break;
		}
	if (create(&c, sh, gt_seed(name, 0), s)) {
		destroy(&c);
		return 1;
	}
	for (i = 0; i < 2; i++) {
		CakeError err;
		int q;

		for (q = 1; q < sh->w; q++)
			r |= set_flag(&c, 0, q, (uint32_t)i + 1, s);
		r |= launch(&c, g, 0, TIMEOUT_NS, 1 << 20, s, &err) != CAKE_OK;
		r |= gt_cu(cakert_driver()->stream_synchronize(s), "cuStreamSynchronize", name);
	}
	destroy(&c);
	return r + gt_first_call_line(name, "rank 0", g->ctx, NULL, 0);
}

int
main(int argc, char **argv)
{
	static const GtFamily family = {"all_gather_matmul", names, 3, 1, run_all, first_call};

	return gt_family_main(&family, argc, argv);
}
