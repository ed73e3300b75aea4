/* test_vsa.c: the block-sparse attention forward family on the GPU (kernels_src/vsa,
 * docs/testing.md). Each shape runs with bf16 and with f16 inputs: the instance of
 * kernels_src/vsa/vsa.cake for the shape's element type, head dimension D and block size
 * BLK, then the entry point vsa, whose choice is checked (vsa_choose's answer and the
 * entry's grid): it must be the first instance,
 * in declaration order, with the element type and D whose block count cdiv(S, BLK) is
 * kv_num's NQ (the grids must agree, and where the case ran that instance, the entry
 * point's o and lse must equal its bytes: the kernels are deterministic). The instances
 * are built for sm_90a only: on an sm_100 or sm_103 the program prints SKIPPED and a NOTE,
 * and exits 0.
 *
 * The float64 reference, per (b, h) and query block qb (rows qb BLK .. min(S, (qb + 1) BLK)
 * - 1): the attended keys are the positions of the key blocks kv_idx[b, h, qb, i] for
 * i < kv_num[b, h, qb] (block j covers keys j BLK .. min(S, (j + 1) BLK) - 1); the slots
 * past kv_num are padding the kernel must not read. With causal, a key after the query
 * row is masked. s = scale q.k over the input values (exact bf16 / f16 values widened),
 * o = softmax(s) v, lse = log(sum exp(s)) (natural log), all in double; a row with no
 * attended key has o = 0 and lse = -inf.
 *
 * The lists of a case, one per (b, h, qb) in turn: a random subset (each block with the
 * shape's density, at least one) in random order, every key block (in random or sorted
 * order), a random subset sorted, and an empty list (with causal, every other time a
 * list of future blocks only: all its rows masked). With causal the random and full lists
 * hold the diagonal block. No list holds a block twice. Lists never exceed NK, kv_idx's
 * last dimension (NK < NKB, the number of key blocks, gives top-k lists; NK > NKB pads
 * even full lists; a list that fills its row of kv_idx gives, every other time, a count
 * kv_num of NK + 5, which the kernel takes as NK). The padding of the lists shorter than
 * NK takes in turn the list's last
 * block repeated (FlexAttention's padding: read, it would count twice), 0x7fffffff and -1
 * (read, they name no block of the tensor: zero-filled loads or a fault).
 *
 * Inputs: q, k, v U(-1, 1) rounded to the element type (never 0), scale = 1 / sqrt(D)
 * rounded to f32 (the reference uses that value). Outputs are poisoned first (NaN), every
 * tensor is guarded, and the inputs must come back unchanged.
 *
 * Bounds. o: the row-normwise error ||o_got - o_ref|| / ||o_ref|| over the D values of a
 * row, at most 1e-2 on every row. The kernel's error is dominated by the rounding of the
 * softmax weights to T before the P V product (2^-8 relative for bf16, 2^-11 for f16,
 * random in sign: about 1.6e-3 of the row's norm for bf16) and of o to T (at most 2^-8 per
 * element): on the worst of 10^4 rows 3.5e-3 for bf16 and 4.3e-4 for f16 in a host model
 * of that arithmetic on these shapes, a factor of about 3 to spare. An element-wise error
 * is not used: on 10^6 elements its maximum reaches 5 standard deviations of the same
 * noise, near 1e-2. What it catches: one key of n dropped or doubled moves a row by
 * about 0.95 / sqrt(n) of its norm (above 1e-2 up to n = 9000 keys), a block of 64 keys
 * far more; a wrong row, column or key block fails by orders of magnitude. lse: the
 * absolute error |got - ref| at most 1e-3 (f32 sums and a log: about 1e-6). Rows without
 * an attended key must hold exactly o = 0 (either sign) and lse = -inf. */
#include "gputest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vsa.h"

/* X(instance, f16 inputs, head dimension D, block size BLK), in the
 * declaration order of kernels_src/vsa/vsa.cake (the entry point's order of trial) */
#define VSA_INSTANCES(X) \
	X(vsa_bf16_d128_b64_short, 0, 128, 64) \
	X(vsa_bf16_d128_b128, 0, 128, 128) \
	X(vsa_bf16_d64_b64, 0, 64, 64) \
	X(vsa_bf16_d64_b128, 0, 64, 128) \
	X(vsa_f16_d128_b64_short, 1, 128, 64) \
	X(vsa_f16_d128_b128, 1, 128, 128) \
	X(vsa_f16_d64_b64, 1, 64, 64) \
	X(vsa_f16_d64_b128, 1, 64, 128)

typedef int (*VsaLaunch)(const vsa_args *a, CUstream s, CakeError *err);
typedef int (*VsaGrid)(const vsa_args *a, int64_t grid[3], CakeError *err);

#define VSA_COPY(x, a) \
	do { \
		memset(&(x), 0, sizeof(x)); \
		(x).q = (a)->q; \
		(x).k = (a)->k; \
		(x).v = (a)->v; \
		(x).kv_num = (a)->kv_num; \
		(x).kv_idx = (a)->kv_idx; \
		(x).o = (a)->o; \
		(x).lse = (a)->lse; \
		(x).work = (a)->work; \
		(x).scale = (a)->scale; \
		(x).causal = (a)->causal; \
	} while (0)

#define WRAP(name, F16_, D_, BLK_) \
	static int \
	launch_##name(const vsa_args *a, CUstream s, CakeError *err) \
	{ \
		name##_args x; \
		double t0; \
		int rc; \
		VSA_COPY(x, a); \
		t0 = gt_now_ms(); \
		rc = name##_launch(&x, s, err); \
		gt_clock_note(&name##_kernel, gt_now_ms() - t0); \
		return rc; \
	} \
	static int \
	grid_##name(const vsa_args *a, int64_t grid[3], CakeError *err) \
	{ \
		name##_args x; \
		VSA_COPY(x, a); \
		return name##_grid(&x, grid, err); \
	}
VSA_INSTANCES(WRAP)

typedef struct VsaInstance {
	const char *name;
	int f16, d, blk;
	VsaLaunch launch;
	VsaGrid grid;
} VsaInstance;

#define ENTRY(name, F16_, D_, BLK_) {#name, F16_, D_, BLK_, launch_##name, grid_##name},
static const VsaInstance instances[] = {VSA_INSTANCES(ENTRY)};
#define NINSTANCES ((int)(sizeof instances / sizeof instances[0]))
#define DESC(name, F16_, D_, BLK_) &name##_kernel,
static const CakertKernel *const descs[] = {VSA_INSTANCES(DESC)};

/* the entry point, clocked like the instances (the instance it chose loads the module) */
static int
launch_entry(const vsa_args *a, CUstream s, CakeError *err)
{
	double t0 = gt_now_ms();
	int rc = vsa_launch(a, s, err);

	gt_clock_note(NULL, gt_now_ms() - t0);
	return rc;
}

typedef struct VsaShape {
	int b, h, s, d, blk;
	int nk;                 /* kv_idx's last dimension; 0: NKB, one slot per key block */
	double density;         /* the chance that a random list holds a block */
	int causal;
	int small;              /* also under CAKE_GPU_TEST_SMALL (the emulated driver) */
} VsaShape;

/* The small shapes keep the emulated run to a few seconds per instance (H <= 2, S <= 256):
 * every (D, BLK), ragged S, S shorter than a block, causal, B and H > 1, NK > NKB and
 * NK < NKB. */
static const VsaShape shapes[] = {
	{1, 2, 200, 64, 64, 0, 0.5, 0, 1},
	{2, 1, 130, 64, 64, 0, 0.6, 1, 1},
	{1, 2, 40, 64, 64, 0, 1.0, 1, 1},
	{1, 2, 200, 64, 128, 0, 0.5, 0, 1},
	{1, 2, 100, 64, 128, 0, 1.0, 1, 1},
	{1, 2, 136, 128, 64, 0, 0.5, 1, 1},
	{2, 1, 200, 128, 64, 6, 0.5, 0, 1},
	{1, 2, 200, 128, 128, 0, 0.5, 0, 1},
	{1, 2, 256, 128, 128, 0, 0.7, 1, 1},
	{1, 1, 60, 128, 128, 0, 1.0, 0, 1},
	{2, 2, 256, 64, 64, 2, 0.5, 1, 1},
	{1, 2, 256, 128, 64, 1, 0.5, 1, 1},      /* NK = NQ / 4 */
	/* the GPU's: many blocks, long lists, ragged and top-k lists (NK < NKB) */
	{2, 4, 1000, 128, 128, 0, 0.5, 0, 0},
	{2, 4, 1000, 64, 64, 0, 0.5, 1, 0},
	{2, 4, 1000, 128, 64, 0, 0.4, 0, 0},
	{2, 4, 1000, 64, 128, 0, 0.6, 1, 0},
	{1, 3, 4096, 128, 128, 0, 0.3, 1, 0},
	{1, 3, 4096, 64, 64, 0, 0.3, 0, 0},
	{1, 3, 4096, 128, 64, 0, 0.3, 1, 0},
	{1, 3, 4096, 64, 128, 0, 0.3, 0, 0},
	{3, 5, 333, 128, 64, 2, 0.5, 1, 0},
	{4, 2, 2048, 128, 128, 4, 0.5, 0, 0},
	{2, 2, 1024, 64, 64, 19, 1.0, 0, 0},
	{1, 2, 8192, 128, 128, 0, 0.1, 1, 0},
	{2, 3, 4000, 128, 64, 9, 0.1, 0, 0},    /* top-k lists of 9 of 63 blocks */
};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

#define O_THRESHOLD 1e-2
#define LSE_THRESHOLD 1e-3

/* work: the kernel's tile counter and count of CTAs done, 0 before the first call, and
 * 0 again after every call (the last CTA resets them): each run checks that */
static const int32_t zero_work[2] = {0, 0};

static int
cdiv(int a, int b)
{
	return (a + b - 1) / b;
}

static int
takes(const VsaInstance *in, const VsaShape *sh, int f16)
{
	return in->f16 == f16 && in->d == sh->d && in->blk == sh->blk;
}

typedef struct VsaCase {
	VsaShape sh;
	int f16;
	int nq, nk;                     /* query (= key) blocks, kv_idx's last dimension */
	size_t nx, nrow, nlist;         /* elements of q (k, v, o), rows (lse), lists */
	uint16_t *q, *k, *v;            /* the inputs' bits */
	double *qd, *kd, *vd;           /* their values */
	int32_t *num, *idx;
	double *ro, *rlse;
	int empty_rows;                 /* rows without an attended key */
	int pads[3];                    /* padded lists by padding: last block, 0x7fffffff, -1 */
	unsigned char *inst_o, *inst_lse;       /* the expected instance's output bytes */
	int64_t xshape[4], nshape[3], ishape[4], lshape[3], wshape[1];
	GtBuf dq, dk, dv, dn, di, dout, dlse, dwork;
	vsa_args args;
} VsaCase;

static void
destroy(VsaCase *c)
{
	gt_buf_free(&c->dq);
	gt_buf_free(&c->dk);
	gt_buf_free(&c->dv);
	gt_buf_free(&c->dn);
	gt_buf_free(&c->di);
	gt_buf_free(&c->dout);
	gt_buf_free(&c->dlse);
	gt_buf_free(&c->dwork);
	free(c->q);
	free(c->k);
	free(c->v);
	free(c->qd);
	free(c->kd);
	free(c->vd);
	free(c->num);
	free(c->idx);
	free(c->ro);
	free(c->rlse);
	free(c->inst_o);
	free(c->inst_lse);
}

static void
shuffle(GtRng *r, int32_t *a, int n)
{
	int i;

	for (i = n - 1; i > 0; i--) {
		int j = (int)(gt_rng_next(r) % (uint64_t)(i + 1));
		int32_t t = a[i];

		a[i] = a[j];
		a[j] = t;
	}
}

static int
cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* The lists of every (b, h, qb) (see the top of the file) and their padding. */
static void
make_lists(VsaCase *c, GtRng *r, int32_t *perm)
{
	const VsaShape *sh = &c->sh;
	int npad = 0, i;
	size_t t;

	for (t = 0; t < c->nlist; t++) {
		int32_t *list = c->idx + t * (size_t)c->nk;
		int qb = (int)(t % (size_t)c->nq), pattern = (int)(t % 4), round = (int)(t / 4 % 2);
		int n = 0;

		for (i = 0; i < c->nq; i++)
			perm[i] = i;
		shuffle(r, perm, c->nq);
		if (pattern == 3) {
			/* empty, or with causal every other time future blocks only */
			if (sh->causal && round == 0 && qb + 1 < c->nq)
				for (i = 0; i < c->nq && n < c->nk; i++)
					if (perm[i] > qb && (n == 0 || gt_rng_uniform(r, 0, 1) < sh->density))
						list[n++] = perm[i];
		} else {
			double p = pattern == 1 ? 2.0 : sh->density;

			if (sh->causal)
				list[n++] = qb;
			for (i = 0; i < c->nq && n < c->nk; i++)
				if ((!sh->causal || perm[i] != qb) && gt_rng_uniform(r, 0, 1) < p)
					list[n++] = perm[i];
			if (n == 0)
				list[n++] = perm[0];
			if (pattern == 2 || (pattern == 1 && round == 1))
				qsort(list, (size_t)n, sizeof *list, cmp_i32);
			else
				shuffle(r, list, n);
		}
		/* a count past a full row of kv_idx (every other full list): the kernel takes NK */
		c->num[t] = n == c->nk && pattern == 1 && round == 0 ? n + 5 : n;
		if (n < c->nk) {
			int kind = npad++ % 3;

			c->pads[kind]++;
			for (i = n; i < c->nk; i++)
				list[i] = kind == 0 ? (n ? list[n - 1] : 0) : kind == 1 ? 0x7fffffff : -1;
		}
	}
}

/* The reference of one (b, h), in double; keys and w are scratch for NK BLK keys. */
static void
reference(VsaCase *c, int b, int h, int *keys, double *w)
{
	const VsaShape *sh = &c->sh;
	size_t bh = (size_t)b * sh->h + h, d = (size_t)sh->d;
	const double *q = c->qd + bh * sh->s * d, *k = c->kd + bh * sh->s * d;
	const double *v = c->vd + bh * sh->s * d;
	double *o = c->ro + bh * sh->s * d, *lse = c->rlse + bh * sh->s;
	double scale = (double)c->args.scale;
	int qb, i, j, n, row, t;
	size_t x;

	for (qb = 0; qb < c->nq; qb++) {
		size_t l = bh * c->nq + qb;
		const int32_t *list = c->idx + l * c->nk;

		/* the attended key positions, block by block */
		for (n = i = 0; i < c->num[l] && i < c->nk; i++)
			for (j = list[i] * sh->blk; j < (list[i] + 1) * sh->blk && j < sh->s; j++)
				keys[n++] = j;
		for (row = qb * sh->blk; row < (qb + 1) * sh->blk && row < sh->s; row++) {
			double m = -INFINITY, sum = 0;
			double *orow = o + row * d;

			for (t = 0; t < n; t++) {
				double dot = 0;

				w[t] = -INFINITY;
				if (sh->causal && keys[t] > row)
					continue;
				for (x = 0; x < d; x++)
					dot += q[row * d + x] * k[keys[t] * d + x];
				w[t] = scale * dot;
				if (w[t] > m)
					m = w[t];
			}
			memset(orow, 0, d * sizeof *orow);
			if (m == -INFINITY) {
				lse[row] = -INFINITY;
				c->empty_rows++;
				continue;
			}
			for (t = 0; t < n; t++) {
				double e;

				if (w[t] == -INFINITY)
					continue;
				e = exp(w[t] - m);
				sum += e;
				for (x = 0; x < d; x++)
					orow[x] += e * v[keys[t] * d + x];
			}
			for (x = 0; x < d; x++)
				orow[x] /= sum;
			lse[row] = m + log(sum);
		}
	}
}

static void
fill_input(GtRng *r, int f16, uint16_t *bits, double *val, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		float x = (float)gt_rng_uniform(r, -1.0, 1.0);

		bits[i] = f16 ? gt_f16_from_float(x) : gt_bf16_from_float(x);
		val[i] = f16 ? gt_f16_to_double(bits[i]) : gt_bf16_to_float(bits[i]);
	}
}

static int
create(VsaCase *c, const GtDev *g, const VsaShape *sh, int f16, uint64_t seed, CUstream st)
{
	int code = f16 ? CAKE_DTYPE_FLOAT : CAKE_DTYPE_BFLOAT;
	int32_t *perm;
	int *keys;
	double *w;
	GtRng r;
	int b, h;

	memset(c, 0, sizeof *c);
	c->sh = *sh;
	c->f16 = f16;
	c->nq = cdiv(sh->s, sh->blk);
	c->nk = sh->nk ? sh->nk : c->nq;
	c->nx = (size_t)sh->b * sh->h * sh->s * sh->d;
	c->nrow = (size_t)sh->b * sh->h * sh->s;
	c->nlist = (size_t)sh->b * sh->h * c->nq;
	c->q = malloc(c->nx * sizeof *c->q);
	c->k = malloc(c->nx * sizeof *c->k);
	c->v = malloc(c->nx * sizeof *c->v);
	c->qd = malloc(c->nx * sizeof *c->qd);
	c->kd = malloc(c->nx * sizeof *c->kd);
	c->vd = malloc(c->nx * sizeof *c->vd);
	c->num = malloc(c->nlist * sizeof *c->num);
	c->idx = malloc(c->nlist * c->nk * sizeof *c->idx);
	c->ro = malloc(c->nx * sizeof *c->ro);
	c->rlse = malloc(c->nrow * sizeof *c->rlse);
	c->inst_o = malloc(c->nx * 2);
	c->inst_lse = malloc(c->nrow * 4);
	perm = malloc((size_t)c->nq * sizeof *perm);
	keys = malloc((size_t)c->nk * sh->blk * sizeof *keys);
	w = malloc((size_t)c->nk * sh->blk * sizeof *w);
	if (!c->q || !c->k || !c->v || !c->qd || !c->kd || !c->vd || !c->num || !c->idx ||
	    !c->ro || !c->rlse || !c->inst_o || !c->inst_lse || !perm || !keys || !w ||
	    gt_buf_alloc(&c->dq, c->nx * 2, "vsa q") || gt_buf_alloc(&c->dk, c->nx * 2, "vsa k") ||
	    gt_buf_alloc(&c->dv, c->nx * 2, "vsa v") ||
	    gt_buf_alloc(&c->dn, c->nlist * 4, "vsa kv_num") ||
	    gt_buf_alloc(&c->di, c->nlist * c->nk * 4, "vsa kv_idx") ||
	    gt_buf_alloc(&c->dout, c->nx * 2, "vsa o") ||
	    gt_buf_alloc(&c->dlse, c->nrow * 4, "vsa lse") ||
	    gt_buf_alloc(&c->dwork, sizeof zero_work, "vsa work")) {
		printf("FAIL vsa: allocation failed\n");
		free(perm);
		free(keys);
		free(w);
		return 1;
	}
	gt_rng_seed(&r, seed);
	fill_input(&r, f16, c->q, c->qd, c->nx);
	fill_input(&r, f16, c->k, c->kd, c->nx);
	fill_input(&r, f16, c->v, c->vd, c->nx);
	make_lists(c, &r, perm);
	c->args.scale = (float)(1.0 / sqrt((double)sh->d));
	c->args.causal = sh->causal;
	for (b = 0; b < sh->b; b++)
		for (h = 0; h < sh->h; h++)
			reference(c, b, h, keys, w);
	free(perm);
	free(keys);
	free(w);

	c->xshape[0] = c->nshape[0] = c->ishape[0] = c->lshape[0] = sh->b;
	c->xshape[1] = c->nshape[1] = c->ishape[1] = c->lshape[1] = sh->h;
	c->xshape[2] = c->lshape[2] = sh->s;
	c->xshape[3] = sh->d;
	c->nshape[2] = c->ishape[2] = c->nq;
	c->ishape[3] = c->nk;
	gt_tensor(&c->args.q, g, &c->dq, code, 16, 4, c->xshape);
	gt_tensor(&c->args.k, g, &c->dk, code, 16, 4, c->xshape);
	gt_tensor(&c->args.v, g, &c->dv, code, 16, 4, c->xshape);
	gt_tensor(&c->args.kv_num, g, &c->dn, CAKE_DTYPE_INT, 32, 3, c->nshape);
	gt_tensor(&c->args.kv_idx, g, &c->di, CAKE_DTYPE_INT, 32, 4, c->ishape);
	gt_tensor(&c->args.o, g, &c->dout, code, 16, 4, c->xshape);
	gt_tensor(&c->args.lse, g, &c->dlse, CAKE_DTYPE_FLOAT, 32, 3, c->lshape);
	c->wshape[0] = 2;
	gt_tensor(&c->args.work, g, &c->dwork, CAKE_DTYPE_INT, 32, 1, c->wshape);
	return gt_buf_poison(&c->dq, st, "vsa q") || gt_buf_poison(&c->dk, st, "vsa k") ||
	       gt_buf_poison(&c->dv, st, "vsa v") || gt_buf_poison(&c->dn, st, "vsa kv_num") ||
	       gt_buf_poison(&c->di, st, "vsa kv_idx") || gt_buf_poison(&c->dwork, st, "vsa work") ||
	       gt_buf_upload(&c->dq, c->q, st, "vsa q") || gt_buf_upload(&c->dk, c->k, st, "vsa k") ||
	       gt_buf_upload(&c->dv, c->v, st, "vsa v") ||
	       gt_buf_upload(&c->dn, c->num, st, "vsa kv_num") ||
	       gt_buf_upload(&c->di, c->idx, st, "vsa kv_idx") ||
	       gt_buf_upload(&c->dwork, zero_work, st, "vsa work");
}

static void
label_of(const VsaCase *c, char *out, size_t size)
{
	const VsaShape *sh = &c->sh;

	snprintf(out, size, "B=%d H=%d S=%d D=%d BLK=%d NK=%d %s density %.2g%s", sh->b, sh->h,
		 sh->s, sh->d, sh->blk, c->nk, c->f16 ? "f16" : "bf16", sh->density,
		 sh->causal ? " causal" : "");
}

/* Where row i of the flat [B, H, S] order is, for the FAIL lines. */
static void
row_where(const VsaCase *c, size_t i, char *out, size_t size)
{
	const VsaShape *sh = &c->sh;

	snprintf(out, size, "(b, h, s) = (%d, %d, %d)", (int)(i / ((size_t)sh->h * sh->s)),
		 (int)(i / (size_t)sh->s % (size_t)sh->h), (int)(i % (size_t)sh->s));
}

/* Poisons o and lse, launches, compares; prints one line. Returns 0 on pass. With keep,
 * the output bytes are kept in inst_o and inst_lse; with same, they must equal those. */
static int
run(VsaCase *c, CUstream st, const char *kname, VsaLaunch launch, const char *extra,
    int keep, int same)
{
	const VsaShape *sh = &c->sh;
	const unsigned char *p, *po;
	char label[256], where[96];
	int guards = 1, inputs = 1, pass, differ = 0, work_kept;
	size_t i, x, d = (size_t)sh->d;
	size_t o_poison = 0, lse_poison = 0, not_zero = 0, o_worst = 0, lse_worst = 0;
	double o_err = 0, lse_err = 0, o_worst_got = 0, o_worst_ref = 0;
	float lse_worst_got = 0;
	CakeError err;
	int rc;

	label_of(c, label, sizeof label);
	if (gt_buf_poison(&c->dout, st, "vsa o") || gt_buf_poison(&c->dlse, st, "vsa lse"))
		return 1;
	rc = launch(&c->args, st, &err);
	if (rc != CAKE_OK) {
		printf("FAIL %s %s%s: launch: %s: %s\n", kname, label, extra, cakert_status_name(rc),
		       err.msg);
		return 1;
	}
	if (!(p = gt_fetch(&c->dq, st, "vsa q", &guards)))
		return 1;
	inputs &= memcmp(p, c->q, c->nx * 2) == 0;
	if (!(p = gt_fetch(&c->dk, st, "vsa k", &guards)))
		return 1;
	inputs &= memcmp(p, c->k, c->nx * 2) == 0;
	if (!(p = gt_fetch(&c->dv, st, "vsa v", &guards)))
		return 1;
	inputs &= memcmp(p, c->v, c->nx * 2) == 0;
	if (!(p = gt_fetch(&c->dn, st, "vsa kv_num", &guards)))
		return 1;
	inputs &= memcmp(p, c->num, c->nlist * 4) == 0;
	if (!(p = gt_fetch(&c->di, st, "vsa kv_idx", &guards)))
		return 1;
	inputs &= memcmp(p, c->idx, c->nlist * c->nk * 4) == 0;
	if (!(p = gt_fetch(&c->dwork, st, "vsa work", &guards)))
		return 1;
	work_kept = memcmp(p, zero_work, sizeof zero_work) == 0;
	if (!(po = gt_fetch(&c->dout, st, "vsa o", &guards)) ||
	    !(p = gt_fetch(&c->dlse, st, "vsa lse", &guards)))
		return 1;
	if (same)
		differ = memcmp(po, c->inst_o, c->nx * 2) != 0 || memcmp(p, c->inst_lse, c->nrow * 4) != 0;
	if (keep) {
		memcpy(c->inst_o, po, c->nx * 2);
		memcpy(c->inst_lse, p, c->nrow * 4);
	}

	for (i = 0; i < c->nrow; i++) {
		const double *ref = c->ro + i * d;
		double num = 0, den = 0, e, rl = c->rlse[i];
		uint32_t lbits;
		float lse;

		for (x = 0; x < d; x++) {
			uint16_t hb;
			double got;

			memcpy(&hb, po + 2 * (i * d + x), 2);
			got = c->f16 ? gt_f16_to_double(hb) : gt_bf16_to_float(hb);
			o_poison += hb == 0xffffu;
			if (rl == -INFINITY)
				not_zero += got != 0.0;
			num += (got - ref[x]) * (got - ref[x]);
			den += ref[x] * ref[x];
		}
		/* NaN counts as infinite; an empty row's zeros are checked above */
		e = rl == -INFINITY ? 0 : isfinite(num) ? sqrt(num / den) : INFINITY;
		if (e > o_err || (i == 0 && e == o_err)) {
			o_err = e;
			o_worst = i;
			o_worst_got = sqrt(num);
			o_worst_ref = sqrt(den);
		}
		memcpy(&lbits, p + 4 * i, 4);
		memcpy(&lse, &lbits, 4);
		lse_poison += lbits == 0xffffffffu;
		if (rl == -INFINITY)
			e = lse == -INFINITY ? 0 : INFINITY;
		else
			e = isfinite(lse) ? fabs(lse - rl) : INFINITY;
		if (e > lse_err || (i == 0 && e == lse_err)) {
			lse_err = e;
			lse_worst = i;
			lse_worst_got = lse;
		}
	}
	pass = o_err <= O_THRESHOLD && lse_err <= LSE_THRESHOLD && !o_poison && !lse_poison &&
	       !not_zero && guards && inputs && !differ && work_kept;
	printf("%s %s %s%s: o max_rel_err %.3g %s %.3g (row-normwise), lse max_abs_err %.3g %s %.3g; "
	       "%d rows without keys, pads %d/%d/%d", pass ? "PASS" : "FAIL", kname, label, extra,
	       o_err, o_err <= O_THRESHOLD ? "<=" : ">", O_THRESHOLD, lse_err,
	       lse_err <= LSE_THRESHOLD ? "<=" : ">", LSE_THRESHOLD, c->empty_rows, c->pads[0],
	       c->pads[1], c->pads[2]);
	if (!pass) {
		row_where(c, o_worst, where, sizeof where);
		printf("; worst o row %s: |got - ref| %.6g, |ref| %.6g", where, o_worst_got, o_worst_ref);
		row_where(c, lse_worst, where, sizeof where);
		printf("; worst lse row %s: got %.9g, ref %.9g", where, (double)lse_worst_got,
		       c->rlse[lse_worst]);
		printf("; %zu of %zu o and %zu of %zu lse outputs still poisoned", o_poison, c->nx,
		       lse_poison, c->nrow);
		if (not_zero)
			printf("; %zu elements of rows without keys are not 0", not_zero);
		if (differ)
			printf("; o or lse differs from the instance's, run alone, bit for bit");
		if (!guards)
			printf("; a guard byte changed (a write out of bounds)");
		if (!inputs)
			printf("; an input tensor changed");
		if (!work_kept)
			printf("; work is not back at 0 (the tile counter of the next call)");
	}
	printf("\n");
	return !pass;
}

/* The instance the entry point must choose: the first of its instances, in declaration
 * order, with the case's element type and D whose block count cdiv(S, BLK) is NQ. */
static const VsaInstance *
expected_instance(const VsaCase *c)
{
	int i;

	for (i = 0; i < NINSTANCES; i++)
		if (instances[i].f16 == c->f16 && instances[i].d == c->sh.d &&
		    cdiv(c->sh.s, instances[i].blk) == c->nq)
			return &instances[i];
	return NULL;
}

/* The entry point's choice: vsa_choose must name the expected instance, and the entry's
 * grid must be that instance's. */
static int
check_choice(VsaCase *c, const char *label)
{
	const VsaInstance *in = expected_instance(c);
	const CakertKernel *chosen = NULL;
	int64_t grid[3] = {0, 0, 0}, want[3] = {0, 0, 0};
	CakeError err, err2;
	int rc = vsa_grid(&c->args, grid, &err), rc2;

	if (!in) {
		printf("FAIL vsa %s: no instance takes the case (a bug of the test)\n", label);
		return 1;
	}
	rc2 = vsa_choose(&c->args, &chosen, &err2);
	if (rc2 != CAKE_OK || !chosen || strcmp(chosen->name, in->name) != 0) {
		printf("FAIL vsa %s: vsa_choose names %s (%s%s%s), the expected instance is %s\n", label,
		       chosen ? chosen->name : "none", cakert_status_name(rc2), rc2 ? ": " : "",
		       rc2 ? err2.msg : "", in->name);
		return 1;
	}
	rc2 = in->grid(&c->args, want, &err2);
	if (rc != CAKE_OK || rc2 != CAKE_OK || memcmp(grid, want, sizeof grid) != 0) {
		printf("FAIL vsa %s: the entry point's grid is (%lld, %lld, %lld) (%s%s%s), %s's is "
		       "(%lld, %lld, %lld) (%s)\n", label, (long long)grid[0], (long long)grid[1],
		       (long long)grid[2], cakert_status_name(rc), rc ? ": " : "", rc ? err.msg : "",
		       in->name, (long long)want[0], (long long)want[1], (long long)want[2],
		       cakert_status_name(rc2));
		return 1;
	}
	return 0;
}

/* --first-call NAME (bench/first_call.py): in this fresh process, the first test shape
 * that instance NAME takes (any for the entry point vsa, with bf16 inputs) run twice,
 * its two launches clocked. */
static int
first_call(const GtDev *g, CUstream st, const char *name)
{
	const VsaInstance *in = NULL;
	VsaLaunch launch = launch_entry;
	char label[96];
	int i, r = 0;

	for (i = 0; i < NINSTANCES; i++)
		if (strcmp(instances[i].name, name) == 0)
			in = &instances[i];
	if (in)
		launch = in->launch;
	for (i = 0; i < NSHAPES; i++) {
		const VsaShape *sh = &shapes[i];
		int f16 = in ? in->f16 : 0;
		VsaCase c;

		if ((gt_small() && !sh->small) || (in && !takes(in, sh, f16)))
			continue;
		if (create(&c, g, sh, f16, gt_seed(name, 0), st)) {
			destroy(&c);
			return 1;
		}
		r += run(&c, st, name, launch, "", 1, 0);
		r += run(&c, st, name, launch, " (second call)", 0, 1);
		destroy(&c);
		snprintf(label, sizeof label, "B=%d H=%d S=%d D=%d BLK=%d", sh->b, sh->h, sh->s, sh->d,
			 sh->blk);
		return r + gt_first_call_line(name, label, g->ctx, descs, NINSTANCES);
	}
	printf("FAIL first_call %s: no test shape fits it\n", name);
	return 1;
}

/* Every shape with bf16 and f16 inputs: each instance that takes it, then the entry point
 * (its choice, then its result); the failures, *ran the cases. */
static int
run_all(const GtDev *g, CUstream st, int *ran)
{
	int i, j, f, kept, failed = 0;

	for (i = 0; i < NSHAPES; i++) {
		const VsaShape *sh = &shapes[i];

		if (gt_small() && !sh->small)
			continue;
		for (f = 0; f < 2; f++) {
			char label[256], extra[96];
			const VsaInstance *in;
			VsaCase c;

			if (create(&c, g, sh, f, gt_seed("vsa", 2 * i + f), st)) {
				destroy(&c);
				failed++;
				(*ran)++;
				continue;
			}
			in = expected_instance(&c);
			kept = 0;
			for (j = 0; j < NINSTANCES; j++) {
				if (!takes(&instances[j], sh, f))
					continue;
				(*ran)++;
				failed += run(&c, st, instances[j].name, instances[j].launch, "",
					      &instances[j] == in, 0);
				kept |= &instances[j] == in;
			}
			/* the entry point: its choice (its grid; and its output, bit for bit that of
			 * the instance it must choose where that ran on the case), then its result */
			label_of(&c, label, sizeof label);
			(*ran)++;
			failed += check_choice(&c, label);
			snprintf(extra, sizeof extra, " (as %s%s)", in ? in->name : "none",
				 kept ? ", bit for bit" : "");
			(*ran)++;
			failed += run(&c, st, "vsa", launch_entry, extra, 0, kept);
			destroy(&c);
		}
	}
	return failed;
}

#define NAME(name, F16_, D_, BLK_) #name,
static const char *const names[] = {VSA_INSTANCES(NAME)};

int
main(int argc, char **argv)
{
	static const GtFamily family = {"vsa", names, NINSTANCES, 1, run_all, first_call};

	return gt_family_main(&family, argc, argv);
}
