/* test_cp_fixup.c: the context-parallel state fix-up family on the GPU (docs/cp_fixup.md,
 * docs/testing.md). Each shape runs with f32 and with bf16 transfers: every instance of
 * kernels_src/cp_fixup/cp_fixup.cake that takes the shape (K <= its threads, V a multiple
 * of its column slice), then the entry point cp_fixup, whose choice is printed as its
 * grid; the large shapes run through the entry point only.
 *
 * The float64 reference is the sequential recurrence of the issue, per (b, h):
 *   S_0 = init[b, h] (or L_0 without one), S_c = L_c + M_c S_{c-1} for c < n_b, S_c = 0
 * for c >= n_b, with n_b = nvalid[b] clamped to 0 .. C. Inputs: L and init U(-1, 1), M
 * U(-1, 1) * 1.5 / sqrt(K) (spectral radius about 0.87, so that the states stay of order 1
 * over many chunks), rounded to bf16 for the bf16 instances (the reference uses the
 * rounded values); no input is 0. The output is poisoned first (NaN), every tensor is
 * guarded, and the inputs must come back unchanged. Error: |got - ref| / max(|ref|, 0.5)
 * <= 1e-4 for both M types (bf16 products of exact bf16 values are exact in f32: only the
 * f32 accumulation differs, as with f32 transfers); the zeroed slots must be exactly 0.
 * Ragged cases give the batches' valid-chunk counts C, a count in 1 .. C - 1, 0 and
 * C + 5 (clamped to C), in turn; the initial state is present (BI = B) or absent (BI = 0,
 * no elements, NULL data). */
#include "gputest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp_fixup.h"

/* X(instance, bf16 transfers, threads (largest K), column slice, cluster); the MMA design's
 * instances (cp_fixup_mma_*) take exactly K = their K and V = their column slice; the
 * cluster instances (cp_fixup_mc: M by TMA, shared by the cluster) a K that is a multiple
 * of 8 and a number of column slices that is a multiple of the cluster */
#define CPF_INSTANCES(X) \
	X(cp_fixup_mma_f32_k128_v128, 0, 128, 128, 0) \
	X(cp_fixup_mma_f32_k128_v64, 0, 128, 64, 0) \
	X(cp_fixup_mma_f32_k64_v128, 0, 64, 128, 0) \
	X(cp_fixup_mma_f32_k64_v64, 0, 64, 64, 0) \
	X(cp_fixup_mma_bf16_k128_v128, 1, 128, 128, 0) \
	X(cp_fixup_mma_bf16_k128_v64, 1, 128, 64, 0) \
	X(cp_fixup_mma_bf16_k64_v128, 1, 64, 128, 0) \
	X(cp_fixup_mma_bf16_k64_v64, 1, 64, 64, 0) \
	X(cp_fixup_f32_k64_bv32, 0, 64, 32, 0) \
	X(cp_fixup_f32_k64_bv8, 0, 64, 8, 0) \
	X(cp_fixup_f32_k64_bv4, 0, 64, 4, 0) \
	X(cp_fixup_f32_k128_bv32, 0, 128, 32, 0) \
	X(cp_fixup_f32_k128_bv8, 0, 128, 8, 0) \
	X(cp_fixup_f32_k128_bv4, 0, 128, 4, 0) \
	X(cp_fixup_f32_k128_bv4s2, 0, 128, 4, 0) \
	X(cp_fixup_f32_k128_bv4c4, 0, 128, 4, 4) \
	X(cp_fixup_f32_k128_bv4c2, 0, 128, 4, 2) \
	X(cp_fixup_bf16_k64_bv32, 1, 64, 32, 0) \
	X(cp_fixup_bf16_k64_bv8, 1, 64, 8, 0) \
	X(cp_fixup_bf16_k64_bv4, 1, 64, 4, 0) \
	X(cp_fixup_bf16_k128_bv32, 1, 128, 32, 0) \
	X(cp_fixup_bf16_k128_bv8, 1, 128, 8, 0) \
	X(cp_fixup_bf16_k128_bv4, 1, 128, 4, 0) \
	X(cp_fixup_bf16_k128_bv4s2, 1, 128, 4, 0) \
	X(cp_fixup_bf16_k128_bv4c4, 1, 128, 4, 4) \
	X(cp_fixup_bf16_k128_bv4c2, 1, 128, 4, 2)

typedef int (*CpfLaunch)(const cp_fixup_args *a, CUstream s, CakeError *err);

#define WRAP(name, BF16_, KT_, BV_, CL_) \
	static int \
	launch_##name(const cp_fixup_args *a, CUstream s, CakeError *err) \
	{ \
		name##_args x; \
		double t0; \
		int rc; \
		memset(&x, 0, sizeof x); \
		x.l = a->l; \
		x.m = a->m; \
		x.init = a->init; \
		x.nvalid = a->nvalid; \
		x.s = a->s; \
		t0 = gt_now_ms(); \
		rc = name##_launch(&x, s, err); \
		gt_clock_note(&name##_kernel, gt_now_ms() - t0); \
		return rc; \
	}
CPF_INSTANCES(WRAP)

typedef struct CpfInstance {
	const char *name;
	int bf16, kt, bv, cl;
	CpfLaunch launch;
} CpfInstance;


#define ENTRY(name, BF16_, KT_, BV_, CL_) {#name, BF16_, KT_, BV_, CL_, launch_##name},
static const CpfInstance instances[] = {CPF_INSTANCES(ENTRY)};
#define NINSTANCES ((int)(sizeof instances / sizeof instances[0]))
#define DESC(name, BF16_, KT_, BV_, CL_) &name##_kernel,
static const CakertKernel *const descs[] = {CPF_INSTANCES(DESC)};

/* the entry point, clocked like the instances (the instance it chose loads the module) */
static int
launch_entry(const cp_fixup_args *a, CUstream s, CakeError *err)
{
	double t0 = gt_now_ms();
	int rc = cp_fixup_launch(a, s, err);

	gt_clock_note(NULL, gt_now_ms() - t0);
	return rc;
}

typedef struct CpfShape {
	int b, h, c, k, v;
	int init, ragged;
	int small;      /* also under CAKE_GPU_TEST_SMALL (the emulated driver) */
	int large;      /* the entry point only */
} CpfShape;

static const CpfShape shapes[] = {
	{1, 1, 2, 64, 64, 0, 0, 1, 0},
	{2, 1, 3, 64, 64, 1, 1, 1, 0},
	{1, 1, 3, 128, 128, 0, 0, 1, 0},
	{4, 1, 3, 64, 128, 1, 1, 1, 0},
	{1, 1, 2, 128, 64, 1, 0, 1, 0},
	/* K not a multiple of 8: the sums' last step of 8 rows reads 4 zero rows */
	{1, 2, 3, 60, 64, 1, 1, 1, 0},
	{2, 1, 3, 100, 32, 0, 0, 1, 0},
	/* on 16 emulated SMs: 32-column slices (16 heads, K = 96: no MMA instance) and two
	 * threads per row (one head, 8 slices of 4 columns) */
	{8, 2, 2, 96, 64, 0, 1, 1, 0},
	{1, 1, 2, 100, 32, 1, 0, 1, 0},
	/* on 16 emulated SMs, clusters sharing M: 8 slices (4 a cluster), 12 (2 a cluster) */
	{1, 1, 2, 128, 32, 1, 0, 1, 0},
	{1, 1, 3, 64, 48, 0, 1, 1, 0},
	{1, 2, 16, 128, 128, 0, 0, 0, 0},
	{1, 4, 64, 128, 128, 1, 1, 0, 0},
	{4, 8, 16, 64, 64, 1, 1, 0, 0},
	{3, 5, 9, 128, 64, 0, 1, 0, 0},
	{8, 32, 16, 128, 128, 0, 0, 0, 1},
	{8, 32, 16, 128, 128, 1, 1, 0, 1},
	{8, 32, 64, 64, 64, 1, 1, 0, 1},
};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

/* Whether instance in takes shape sh: K up to its threads and V a multiple of its slice
 * (SIMT), or exactly its K and V (MMA: constant dimensions). */
static int
takes(const CpfInstance *in, const CpfShape *sh)
{
	if (strncmp(in->name, "cp_fixup_mma_", 13) == 0)
		return sh->k == in->kt && sh->v == in->bv;
	if (in->cl)
		return sh->k <= in->kt && sh->k % 8 == 0 && sh->v % (in->bv * in->cl) == 0;
	return sh->k <= in->kt && sh->v % in->bv == 0;
}

#define FLOOR 0.5
#define THRESHOLD 1e-4

typedef struct CpfCase {
	CpfShape sh;
	int bf16;
	size_t nl, nm, ni;              /* elements of L (and S), M, init */
	float *l, *init;
	float *mf;                      /* M, f32 bits (f32 transfers) */
	uint16_t *mb;                   /* M, bf16 bits */
	int32_t *nvalid;
	double *ref;
	int64_t lshape[5], mshape[5], ishape[4], nshape[1];
	GtBuf dl, dm, di, dn, ds;
	cp_fixup_args args;
} CpfCase;

static void
destroy(CpfCase *c)
{
	gt_buf_free(&c->dl);
	gt_buf_free(&c->dm);
	gt_buf_free(&c->di);
	gt_buf_free(&c->dn);
	gt_buf_free(&c->ds);
	free(c->l);
	free(c->init);
	free(c->mf);
	free(c->mb);
	free(c->nvalid);
	free(c->ref);
}

/* The reference of one (b, h): the chunks' states in double. */
static void
reference(CpfCase *c, const double *md, int b, int h)
{
	const CpfShape *s = &c->sh;
	size_t kv = (size_t)s->k * s->v, kk = (size_t)s->k * s->k;
	size_t bh = (size_t)b * s->h + h;
	const float *l = c->l + bh * s->c * kv;
	const double *m = md + bh * s->c * kk;
	double *out = c->ref + bh * s->c * kv;
	int n = c->nvalid[b] < 0 ? 0 : c->nvalid[b] > s->c ? s->c : c->nvalid[b];
	int ci, i, j, v;

	for (ci = 0; ci < s->c; ci++) {
		double *sc = out + ci * kv;

		if (ci >= n) {
			memset(sc, 0, kv * sizeof *sc);
			continue;
		}
		for (i = 0; i < s->k * s->v; i++)
			sc[i] = ci == 0 && s->init ? c->init[bh * kv + i] : l[ci * kv + i];
		if (ci == 0)
			continue;
		for (i = 0; i < s->k; i++)
			for (j = 0; j < s->k; j++) {
				double mij = m[ci * kk + (size_t)i * s->k + j];
				const double *prev = out + (ci - 1) * kv + (size_t)j * s->v;

				for (v = 0; v < s->v; v++)
					sc[i * s->v + v] += mij * prev[v];
			}
	}
}

static int
create(CpfCase *c, const GtDev *g, const CpfShape *sh, int bf16, uint64_t seed, CUstream st)
{
	GtRng r;
	double *md, scale = 1.5 / sqrt((double)sh->k);
	size_t i;
	int b, h;

	memset(c, 0, sizeof *c);
	c->sh = *sh;
	c->bf16 = bf16;
	c->nl = (size_t)sh->b * sh->h * sh->c * sh->k * sh->v;
	c->nm = (size_t)sh->b * sh->h * sh->c * sh->k * sh->k;
	c->ni = sh->init ? (size_t)sh->b * sh->h * sh->k * sh->v : 0;
	c->l = malloc(c->nl * sizeof *c->l);
	c->init = malloc((c->ni + 1) * sizeof *c->init);
	c->mf = malloc(c->nm * sizeof *c->mf);
	c->mb = malloc(c->nm * sizeof *c->mb);
	c->nvalid = malloc((size_t)sh->b * sizeof *c->nvalid);
	c->ref = malloc(c->nl * sizeof *c->ref);
	md = malloc(c->nm * sizeof *md);
	if (!c->l || !c->init || !c->mf || !c->mb || !c->nvalid || !c->ref || !md ||
	    gt_buf_alloc(&c->dl, c->nl * 4, "cp_fixup L") ||
	    gt_buf_alloc(&c->dm, c->nm * (bf16 ? 2 : 4), "cp_fixup M") ||
	    gt_buf_alloc(&c->di, c->ni * 4, "cp_fixup init") ||
	    gt_buf_alloc(&c->dn, (size_t)sh->b * 4, "cp_fixup nvalid") ||
	    gt_buf_alloc(&c->ds, c->nl * 4, "cp_fixup S")) {
		printf("FAIL cp_fixup: allocation failed\n");
		free(md);
		return 1;
	}
	gt_rng_seed(&r, seed);
	for (i = 0; i < c->nl; i++)
		c->l[i] = (float)gt_rng_uniform(&r, -1.0, 1.0);
	for (i = 0; i < c->ni; i++)
		c->init[i] = (float)gt_rng_uniform(&r, -1.0, 1.0);
	for (i = 0; i < c->nm; i++) {
		float x = (float)(gt_rng_uniform(&r, -1.0, 1.0) * scale);

		c->mf[i] = x;
		c->mb[i] = gt_bf16_from_float(x);
		md[i] = bf16 ? gt_bf16_to_float(c->mb[i]) : x;
	}
	for (b = 0; b < sh->b; b++) {
		int cnt = sh->c;

		if (sh->ragged)
			switch (b % 4) {
			case 1: cnt = 1 + (int)(gt_rng_next(&r) % (uint64_t)(sh->c - 1)); break;
			case 2: cnt = 0; break;
			case 3: cnt = sh->c + 5; break;
			default: break;
			}
		c->nvalid[b] = cnt;
	}
	for (b = 0; b < sh->b; b++)
		for (h = 0; h < sh->h; h++)
			reference(c, md, b, h);
	free(md);

	c->lshape[0] = c->mshape[0] = c->nshape[0] = sh->b;
	c->lshape[1] = c->mshape[1] = c->ishape[1] = sh->h;
	c->lshape[2] = c->mshape[2] = sh->c;
	c->lshape[3] = c->mshape[3] = c->ishape[2] = sh->k;
	c->lshape[4] = c->ishape[3] = sh->v;
	c->mshape[4] = sh->k;
	c->ishape[0] = sh->init ? sh->b : 0;
	gt_tensor(&c->args.l, g, &c->dl, CAKE_DTYPE_FLOAT, 32, 5, c->lshape);
	gt_tensor(&c->args.m, g, &c->dm, bf16 ? CAKE_DTYPE_BFLOAT : CAKE_DTYPE_FLOAT,
		  bf16 ? 16 : 32, 5, c->mshape);
	gt_tensor(&c->args.init, g, &c->di, CAKE_DTYPE_FLOAT, 32, 4, c->ishape);
	if (!sh->init)
		c->args.init.data = NULL;       /* no elements: NULL data is allowed */
	gt_tensor(&c->args.nvalid, g, &c->dn, CAKE_DTYPE_INT, 32, 1, c->nshape);
	gt_tensor(&c->args.s, g, &c->ds, CAKE_DTYPE_FLOAT, 32, 5, c->lshape);
	return gt_buf_poison(&c->dl, st, "cp_fixup L") || gt_buf_poison(&c->dm, st, "cp_fixup M") ||
	       gt_buf_poison(&c->di, st, "cp_fixup init") ||
	       gt_buf_poison(&c->dn, st, "cp_fixup nvalid") ||
	       gt_buf_upload(&c->dl, c->l, st, "cp_fixup L") ||
	       gt_buf_upload(&c->dm, bf16 ? (const void *)c->mb : (const void *)c->mf, st, "cp_fixup M") ||
	       (c->ni && gt_buf_upload(&c->di, c->init, st, "cp_fixup init")) ||
	       gt_buf_upload(&c->dn, c->nvalid, st, "cp_fixup nvalid");
}

/* Poisons S, launches, compares; prints one line. Returns 0 on pass. */
static int
run(CpfCase *c, CUstream st, const char *kname, CpfLaunch launch, const char *extra)
{
	const CpfShape *sh = &c->sh;
	const unsigned char *p;
	char label[256];
	int guards = 1, inputs = 1;
	size_t i, nonzero = 0;
	CakeError err;
	GtCmp cmp;
	int rc;

	snprintf(label, sizeof label, "B=%d H=%d C=%d K=%d V=%d %s%s%s%s", sh->b, sh->h, sh->c,
		 sh->k, sh->v, c->bf16 ? "bf16" : "f32", sh->init ? " init" : "",
		 sh->ragged ? " ragged" : "", extra);
	if (gt_buf_poison(&c->ds, st, "cp_fixup S"))
		return 1;
	rc = launch(&c->args, st, &err);
	if (rc != CAKE_OK) {
		printf("FAIL %s %s: launch: %s: %s\n", kname, label, cakert_status_name(rc), err.msg);
		return 1;
	}
	if (!(p = gt_fetch(&c->dl, st, "cp_fixup L", &guards)))
		return 1;
	inputs &= memcmp(p, c->l, c->nl * 4) == 0;
	if (!(p = gt_fetch(&c->dm, st, "cp_fixup M", &guards)))
		return 1;
	inputs &= memcmp(p, c->bf16 ? (const void *)c->mb : (const void *)c->mf,
			 c->nm * (c->bf16 ? 2 : 4)) == 0;
	if (c->ni) {
		if (!(p = gt_fetch(&c->di, st, "cp_fixup init", &guards)))
			return 1;
		inputs &= memcmp(p, c->init, c->ni * 4) == 0;
	}
	if (!(p = gt_fetch(&c->dn, st, "cp_fixup nvalid", &guards)))
		return 1;
	inputs &= memcmp(p, c->nvalid, (size_t)sh->b * 4) == 0;
	if (!(p = gt_fetch(&c->ds, st, "cp_fixup S", &guards)))
		return 1;
	gt_cmp_init(&cmp, FLOOR, THRESHOLD);
	gt_cmp_f32(&cmp, p, c->ref, c->nl);
	/* the reference's zeros are the slots past the valid chunks: exactly 0 */
	for (i = 0; i < c->nl; i++) {
		float f;

		memcpy(&f, p + 4 * i, 4);
		if (c->ref[i] == 0.0 && f != 0.0f)
			nonzero++;
	}
	if (nonzero) {
		printf("FAIL %s %s: %zu elements past the valid chunks are not 0\n", kname, label,
		       nonzero);
		return 1;
	}
	return gt_report(kname, label, &cmp, guards, inputs);
}

/* The entry point's rule for the column slice (kernels_src/cp_fixup/cp_fixup.cake's
 * `when` conditions), the same for both transfer types: the MMA design (a block per head:
 * the slice is V) for K and V 64 or 128, at K = 64 once 8-column slices would need more
 * than a wave, at K = 128 once there are more heads than an eighth of the SMs; else, the
 * same for K <= 64 and K <= 128, 32-column slices when they give every SM a block; for K <= 64
 * 8-column ones when they fill half of the SMs; clusters sharing M with 4-column slices
 * (K a multiple of 8) up to four waves; 8-column slices when they fill half of the SMs;
 * else 4 (one or two threads per row: the same grid). */
static int
expected_bv(const CpfShape *sh, int sms)
{
	long long heads = (long long)sh->b * sh->h;
	int mma = sh->k == 128 ? 8 * heads > sms : heads * (sh->v / 8) > sms;

	if (mma && (sh->k == 64 || sh->k == 128) && (sh->v == 64 || sh->v == 128))
		return sh->v;
	if (heads * (sh->v / 32) >= sms && sh->v % 32 == 0)
		return 32;
	if (sh->k <= 64 && 2 * heads * (sh->v / 8) > sms && sh->v % 8 == 0)
		return 8;
	if (heads * (sh->v / 4) <= 4 * sms && sh->k % 8 == 0 && sh->v % 8 == 0)
		return 4;       /* clusters sharing M */
	if (2 * heads * (sh->v / 8) > sms && sh->v % 8 == 0)
		return 8;
	return 4;
}

/* --first-call NAME (bench/first_call.py): in this fresh process, the first test shape
 * that instance NAME takes (any for the entry point cp_fixup, with f32 transfers) run
 * twice, its two launches clocked. */
static int
first_call(const GtDev *g, CUstream st, const char *name)
{
	const CpfInstance *in = NULL;
	CpfLaunch launch = launch_entry;
	char label[96];
	int i, r = 0;

	for (i = 0; i < NINSTANCES; i++)
		if (strcmp(instances[i].name, name) == 0)
			in = &instances[i];
	if (in)
		launch = in->launch;
	for (i = 0; i < NSHAPES; i++) {
		const CpfShape *sh = &shapes[i];
		CpfCase c;

		if ((gt_small() && !sh->small) || sh->large ||
		    (in && !takes(in, sh)))
			continue;
		if (create(&c, g, sh, in ? in->bf16 : 0, gt_seed(name, 0), st)) {
			destroy(&c);
			return 1;
		}
		r += run(&c, st, name, launch, "");
		r += run(&c, st, name, launch, " (second call)");
		destroy(&c);
		snprintf(label, sizeof label, "B=%d H=%d C=%d K=%d V=%d", sh->b, sh->h, sh->c, sh->k, sh->v);
		return r + gt_first_call_line(name, label, g->ctx, descs, NINSTANCES);
	}
	printf("FAIL first_call %s: no test shape fits it\n", name);
	return 1;
}

/* Every shape with f32 and bf16 transfers: each instance that takes it, then the entry
 * point (its choice, the rule's on this device's SMs, then its result); the failures,
 * *ran the cases. */
static int
run_all(const GtDev *g, CUstream st, int *ran)
{
	int i, j, d, rc, failed = 0, sms = 0;

	if (gt_cu(g->cu->device_get_attribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, g->dev),
		  "cuDeviceGetAttribute", "test_cp_fixup"))
		return 1;
	for (i = 0; i < NSHAPES; i++) {
		const CpfShape *sh = &shapes[i];

		if (gt_small() && !sh->small)
			continue;
		for (d = 0; d < 2; d++) {
			CpfCase c;
			int64_t grid[3] = {0, 0, 0};
			char extra[64];
			CakeError err;

			if (create(&c, g, sh, d, gt_seed("cp_fixup", 2 * i + d), st)) {
				destroy(&c);
				failed++;
				(*ran)++;
				continue;
			}
			for (j = 0; j < NINSTANCES && !sh->large; j++) {
				const CpfInstance *in = &instances[j];

				if (in->bf16 != d || !takes(in, sh))
					continue;
				(*ran)++;
				failed += run(&c, st, in->name, in->launch, "");
			}
			/* the entry point: its choice (the grid is B * H * V / BV) must be the
			 * rule's, then its result */
			rc = cp_fixup_grid(&c.args, grid, &err);
			(*ran)++;
			if (rc != CAKE_OK || grid[0] != (int64_t)sh->b * sh->h * sh->v / expected_bv(sh, sms)) {
				printf("FAIL cp_fixup B=%d H=%d C=%d K=%d V=%d: the entry point's grid is %lld "
				       "(%s), the rule's BV %d on %d SMs gives %lld\n", sh->b, sh->h, sh->c,
				       sh->k, sh->v, (long long)grid[0], cakert_status_name(rc),
				       expected_bv(sh, sms), sms,
				       (long long)sh->b * sh->h * sh->v / expected_bv(sh, sms));
				failed++;
			}
			snprintf(extra, sizeof extra, " (BV %d on %d SMs)", expected_bv(sh, sms), sms);
			(*ran)++;
			failed += run(&c, st, "cp_fixup", launch_entry, extra);
			destroy(&c);
		}
	}
	return failed;
}

#define NAME(name, BF16_, KT_, BV_, CL_) #name,
static const char *const names[] = {CPF_INSTANCES(NAME)};

int
main(int argc, char **argv)
{
	static const GtFamily family = {"cp_fixup", names, NINSTANCES, 0, run_all, first_call};

	return gt_family_main(&family, argc, argv);
}
