/* test_ssd.c: the state-space scan family on the GPU (kernels_src/ssd, docs/ssd.md,
 * docs/testing.md). Each shape runs with bf16 and with f16 inputs: the instance of
 * kernels_src/ssd/ssd.cake for the element type and d_state N, then the entry point ssd,
 * whose output must be that instance's, bit for bit (the kernel is deterministic); then
 * one shape's entry-point launch captured into a CUDA graph in global capture mode (an
 * allocation or a synchronization in the launcher would break it) and replayed twice,
 * bit for bit the launch's output each time. The instances are built for sm_90a only: on
 * an sm_100 or sm_103 the program prints SKIPPED and a NOTE, and exits 0.
 *
 * The float64 reference is the sequential recurrence, not the chunked algorithm: per
 * (b, h), with g = h / (H / G), for t = 0 .. L - 1,
 *   v = dt[b, t, h] + dt_bias[h] (if given); dt' = log(1 + exp(v)) with softplus (v above
 *   20), else v; S = exp(dt' A[h]) S + dt' x[b, t, h] B[b, t, g]^T (S starts at init[b, h]
 *   or 0); y[b, t, h] = S C[b, t, g] + D[h] x[b, t, h] (if D), times z silu(z) (if z);
 * the final state is S after t = L - 1, chunk state k (with `chunk`) S after t = min(L,
 * (k + 1) chunk) - 1. Inputs are the exact values of the bits passed (bf16 or f16 widened;
 * A, D, dt_bias, init f32).
 *
 * Inputs, never 0: x, B, C U(-1, 1), z U(-3, 3), A -U(1, 16), D U(-1, 1), init U(-1, 1),
 * dt U(0.001, 0.1) (with softplus: U(-6, -1) and dt_bias U(-0.5, 0.5), so dt' is 0.0015 ..
 * 0.5). The optional tensors are absent as empty ones (a batch or length of 0). Outputs are
 * poisoned first (NaN), every tensor is guarded, and the inputs must come back unchanged.
 *
 * Bounds: per slice, y's (b, h) (its L x P values), the final state's and each chunk
 * state's (b, [chunk,] h) (P x N), the normwise relative error ||got - ref|| / ||ref|| at
 * most 1e-2 (the bound for bf16 inputs), and every element within 5e-2 of its
 * slice's largest |ref|. Not per row of y: a row whose state has decayed is far smaller
 * than its neighbours and carries their absolute error (random f16 inputs gave rows at
 * 0.3 % of the median norm with 2e-3 relative error): the kernel rounds P (the
 * decayed C B^T), the state it passes to the output and the scaled x^T to T before their
 * products (2^-9 relative for bf16, random in sign: about 2e-3 of a slice's norm), y to T.
 * What fails: a chunk boundary's state lost or doubled moves a slice by tens of percent, a
 * wrong decay, group or head by orders of magnitude; a single wrong row of 64 values
 * breaks both bounds. */
#include "gputest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssd.h"

/* X(instance, f16 inputs, d_state N): the whole-head instances first (expected_instance
 * takes the first of a case's type and N), then those that split heads in two halves,
 * which the entry point takes where its rule says (kernels_src/ssd/ssd.cake) */
#define SSD_INSTANCES(X) \
	X(ssd_bf16_n128, 0, 128) \
	X(ssd_bf16_n64, 0, 64) \
	X(ssd_f16_n128, 1, 128) \
	X(ssd_f16_n64, 1, 64) \
	X(ssd_bf16_n128_split, 0, 128) \
	X(ssd_bf16_n64_split, 0, 64) \
	X(ssd_f16_n128_split, 1, 128) \
	X(ssd_f16_n64_split, 1, 64)

#define P 64

typedef int (*SsdLaunch)(const ssd_args *a, CUstream s, CakeError *err);

#define SSD_COPY(x, a) \
	do { \
		memset(&(x), 0, sizeof(x)); \
		(x).x = (a)->x; \
		(x).dt = (a)->dt; \
		(x).a = (a)->a; \
		(x).bm = (a)->bm; \
		(x).cm = (a)->cm; \
		(x).d = (a)->d; \
		(x).dt_bias = (a)->dt_bias; \
		(x).z = (a)->z; \
		(x).init = (a)->init; \
		(x).y = (a)->y; \
		(x).final = (a)->final; \
		(x).states = (a)->states; \
		(x).softplus = (a)->softplus; \
		(x).chunk = (a)->chunk; \
		(x).sync = (a)->sync; \
		(x).hand = (a)->hand; \
	} while (0)

#define WRAP(name, F16_, N_) \
	static int \
	launch_##name(const ssd_args *a, CUstream s, CakeError *err) \
	{ \
		name##_args x; \
		double t0; \
		int rc; \
		SSD_COPY(x, a); \
		t0 = gt_now_ms(); \
		rc = name##_launch(&x, s, err); \
		gt_clock_note(&name##_kernel, gt_now_ms() - t0); \
		return rc; \
	}
SSD_INSTANCES(WRAP)

typedef struct SsdInstance {
	const char *name;
	int f16, n;
	SsdLaunch launch;
} SsdInstance;

#define ENTRY(name, F16_, N_) {#name, F16_, N_, launch_##name},
static const SsdInstance instances[] = {SSD_INSTANCES(ENTRY)};
#define NINSTANCES ((int)(sizeof instances / sizeof instances[0]))
#define DESC(name, F16_, N_) &name##_kernel,
static const CakertKernel *const descs[] = {SSD_INSTANCES(DESC)};

static int
launch_entry(const ssd_args *a, CUstream s, CakeError *err)
{
	double t0 = gt_now_ms();
	int rc = ssd_launch(a, s, err);

	gt_clock_note(NULL, gt_now_ms() - t0);
	return rc;
}

/* opt: the optional parts, letters d (D), z, i (init), f (final state), s (softplus),
 * b (dt_bias); chunk: with it, the chunk states every `chunk` steps (0: none) */
typedef struct SsdShape {
	int b, l, h, g, n;
	const char *opt;
	int chunk;
	int small;              /* also under CAKE_GPU_TEST_SMALL (the emulated driver) */
} SsdShape;

/* The small shapes: L shorter than a chunk, L not a multiple of 64, G of 1, 2 and H, each
 * option with and without the others, the three chunk sizes of the chunk states. */
static const SsdShape shapes[] = {
	{1, 100, 2, 1, 64, "", 0, 1},
	{2, 17, 2, 1, 128, "f", 0, 1},
	{1, 200, 4, 2, 128, "dzisbf", 64, 1},
	{2, 64, 2, 2, 64, "i", 0, 1},
	{1, 130, 3, 3, 64, "sbf", 128, 1},
	{1, 300, 2, 1, 128, "dz", 256, 1},
	{1, 257, 2, 1, 128, "zif", 128, 1},
	/* each head in two halves on the emulated driver's 3 SMs (4 heads: 2 waves whole, 3 as
	 * 8 halves), the chunk states' boundary inside the second half */
	{1, 520, 4, 1, 64, "dzisbf", 256, 1},
	/* the GPU's: long sequences (many chunks through both stages), G = 8 */
	{2, 1000, 8, 1, 128, "dzisbf", 256, 0},
	{1, 4096, 4, 2, 128, "dsbf", 0, 0},
	{4, 700, 16, 8, 64, "zf", 128, 0},
	{1, 8192, 2, 1, 128, "dzsbf", 256, 0},
	{3, 333, 16, 8, 128, "dizf", 64, 0},
	{16, 384, 8, 1, 128, "dzsbf", 256, 0},
	/* 160 heads on 132 SMs: in two halves (5 waves of halves, not 2 of 3 whole) */
	{2, 600, 80, 1, 64, "disbf", 128, 0},
};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

#define NORM_THRESHOLD 1e-2
#define ELEM_THRESHOLD 5e-2

static int
has(const SsdShape *sh, char c)
{
	return strchr(sh->opt, c) != NULL;
}

static int
cdiv(int a, int b)
{
	return (a + b - 1) / b;
}

/* One tensor of the case: host bits (16-bit inputs) or f32 values, their exact values,
 * the device buffer, the CakeTensor and its shape. */
typedef struct SsdTensor {
	const char *name;
	int half;               /* 16-bit (the instance's T) or f32 */
	size_t n;
	uint16_t *bits;
	float *f;
	double *val;
	GtBuf dev;
	int64_t shape[5];
} SsdTensor;

enum { TX, TDT, TA, TB, TC, TD, TBIAS, TZ, TINIT, TY, TFINAL, TSTATES, NTENSORS };

typedef struct SsdCase {
	SsdShape sh;
	int f16, nc;                    /* nc: chunk states per (b, h) */
	SsdTensor t[NTENSORS];
	double *ry, *rfinal, *rstates;  /* the reference */
	unsigned char *inst_y, *inst_final, *inst_states;
	/* the workspace that lets a head run in two halves: sync (zero before and after
	 * every call) and hand; the *_none shapes give the same tensors with no elements */
	GtBuf sync, hand;
	int64_t sync_shape[1], hand_shape[4], sync_none[1], hand_none[4];
	ssd_args args;
} SsdCase;

static void
destroy(SsdCase *c)
{
	int i;

	for (i = 0; i < NTENSORS; i++) {
		gt_buf_free(&c->t[i].dev);
		free(c->t[i].bits);
		free(c->t[i].f);
		free(c->t[i].val);
	}
	gt_buf_free(&c->sync);
	gt_buf_free(&c->hand);
	free(c->ry);
	free(c->rfinal);
	free(c->rstates);
	free(c->inst_y);
	free(c->inst_final);
	free(c->inst_states);
}

/* Declares tensor i (rank dims, absent: its first extent 0) and allocates it. */
static int
declare(SsdCase *c, int i, const char *name, int half, int rank, const int64_t *dims, int present)
{
	SsdTensor *t = &c->t[i];
	int k;

	t->name = name;
	t->half = half;
	t->n = 1;
	for (k = 0; k < rank; k++) {
		t->shape[k] = k == 0 && !present ? 0 : dims[k];
		t->n *= (size_t)t->shape[k];
	}
	t->val = calloc(t->n + 1, sizeof *t->val);
	if (half)
		t->bits = calloc(t->n + 1, sizeof *t->bits);
	else
		t->f = calloc(t->n + 1, sizeof *t->f);
	return !t->val || (half ? !t->bits : !t->f) || gt_buf_alloc(&t->dev, t->n * (half ? 2 : 4), name);
}

/* Fills an input with U(lo, hi), rounded to its type (never 0). */
static void
fill(SsdTensor *t, GtRng *r, int f16, double lo, double hi)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		float v = (float)gt_rng_uniform(r, lo, hi);

		if (v == 0.0f)
			v = (float)hi;
		if (!t->half) {
			t->f[i] = v;
			t->val[i] = v;
		} else {
			t->bits[i] = f16 ? gt_f16_from_float(v) : gt_bf16_from_float(v);
			t->val[i] = f16 ? gt_f16_to_double(t->bits[i]) : gt_bf16_to_float(t->bits[i]);
		}
	}
}

/* The recurrence of one (b, h) (see the top of the file); s is scratch for P N values. */
static void
reference(SsdCase *c, int b, int h, double *s)
{
	const SsdShape *sh = &c->sh;
	int n = sh->n, g = h / (sh->h / sh->g), t, p, k, q = 0;
	const double *x = c->t[TX].val, *dt = c->t[TDT].val, *bm = c->t[TB].val, *cm = c->t[TC].val;
	double a = c->t[TA].val[h];
	size_t bh = (size_t)b * sh->h + h;

	for (p = 0; p < P * n; p++)
		s[p] = has(sh, 'i') ? c->t[TINIT].val[bh * P * n + p] : 0.0;
	for (t = 0; t < sh->l; t++) {
		size_t row = ((size_t)b * sh->l + t) * sh->h + h;
		const double *bt = bm + (((size_t)b * sh->l + t) * sh->g + g) * n;
		const double *ct = cm + (((size_t)b * sh->l + t) * sh->g + g) * n;
		double v = dt[row] + (has(sh, 'b') ? c->t[TBIAS].val[h] : 0.0), da;

		if (has(sh, 's') && v <= 20.0)
			v = log1p(exp(v));
		da = exp(v * a);
		for (p = 0; p < P; p++) {
			double xv = x[row * P + p], acc = 0;

			for (k = 0; k < n; k++) {
				s[p * n + k] = da * s[p * n + k] + v * xv * bt[k];
				acc += s[p * n + k] * ct[k];
			}
			if (has(sh, 'd'))
				acc += c->t[TD].val[h] * xv;
			if (has(sh, 'z')) {
				double zv = c->t[TZ].val[row * P + p];

				acc *= zv / (1.0 + exp(-zv));
			}
			c->ry[row * P + p] = acc;
		}
		if (sh->chunk && ((t + 1) % sh->chunk == 0 || t + 1 == sh->l)) {
			memcpy(c->rstates + (((size_t)b * c->nc + q) * sh->h + h) * P * n, s,
			       (size_t)P * n * sizeof *s);
			q++;
		}
	}
	memcpy(c->rfinal + bh * P * n, s, (size_t)P * n * sizeof *s);
}

/* sync: 2 + 128 B H zeros; hand: B x H x P x N, poisoned (every value read is written first) */
static int
workspace(SsdCase *c, const GtDev *g, CUstream st)
{
	const SsdShape *sh = &c->sh;
	size_t nsync = 2 + (size_t)128 * sh->b * sh->h;
	int32_t *zeros = calloc(nsync, sizeof *zeros);
	int bad;

	c->sync_shape[0] = (int64_t)nsync;
	c->hand_shape[0] = sh->b;
	c->hand_shape[1] = sh->h;
	c->hand_shape[2] = P;
	c->hand_shape[3] = sh->n;
	memcpy(c->hand_none, c->hand_shape, sizeof c->hand_none);
	c->hand_none[0] = 0;
	c->sync_none[0] = 0;
	bad = !zeros || gt_buf_alloc(&c->sync, nsync * 4, "ssd sync") ||
	      gt_buf_alloc(&c->hand, (size_t)sh->b * sh->h * P * sh->n * 4, "ssd hand") ||
	      gt_buf_poison(&c->sync, st, "ssd sync") || gt_buf_upload(&c->sync, zeros, st, "ssd sync") ||
	      gt_buf_poison(&c->hand, st, "ssd hand");
	free(zeros);
	if (bad)
		return 1;
	gt_tensor(&c->args.sync, g, &c->sync, CAKE_DTYPE_INT, 32, 1, c->sync_shape);
	gt_tensor(&c->args.hand, g, &c->hand, CAKE_DTYPE_FLOAT, 32, 4, c->hand_shape);
	return 0;
}

static int
create(SsdCase *c, const GtDev *g, const SsdShape *sh, int f16, uint64_t seed, CUstream st)
{
	int code = f16 ? CAKE_DTYPE_FLOAT : CAKE_DTYPE_BFLOAT, i, b, h;
	int64_t xs[4] = {sh->b, sh->l, sh->h, P}, dts[3] = {sh->b, sh->l, sh->h}, hs[1] = {sh->h};
	int64_t bs[4] = {sh->b, sh->l, sh->g, sh->n}, ss[4] = {sh->b, sh->h, P, sh->n};
	int64_t cs[5] = {sh->b, 0, sh->h, P, sh->n};
	double *scratch;
	GtRng r;
	int bad = 0;

	memset(c, 0, sizeof *c);
	c->sh = *sh;
	c->f16 = f16;
	c->nc = sh->chunk ? cdiv(sh->l, sh->chunk) : 0;
	cs[1] = sh->chunk ? c->nc : 1;
	bad |= declare(c, TX, "ssd x", 1, 4, xs, 1);
	bad |= declare(c, TDT, "ssd dt", 1, 3, dts, 1);
	bad |= declare(c, TA, "ssd a", 0, 1, hs, 1);
	bad |= declare(c, TB, "ssd bm", 1, 4, bs, 1);
	bad |= declare(c, TC, "ssd cm", 1, 4, bs, 1);
	bad |= declare(c, TD, "ssd d", 0, 1, hs, has(sh, 'd'));
	bad |= declare(c, TBIAS, "ssd dt_bias", 0, 1, hs, has(sh, 'b'));
	bad |= declare(c, TZ, "ssd z", 1, 4, xs, has(sh, 'z'));
	bad |= declare(c, TINIT, "ssd init", 0, 4, ss, has(sh, 'i'));
	bad |= declare(c, TY, "ssd y", 1, 4, xs, 1);
	bad |= declare(c, TFINAL, "ssd final", 0, 4, ss, has(sh, 'f'));
	bad |= declare(c, TSTATES, "ssd states", 0, 5, cs, sh->chunk != 0);
	c->ry = malloc(c->t[TY].n * sizeof *c->ry);
	c->rfinal = malloc(((size_t)sh->b * sh->h * P * sh->n + 1) * sizeof *c->rfinal);
	c->rstates = malloc((c->t[TSTATES].n + 1) * sizeof *c->rstates);
	c->inst_y = malloc(c->t[TY].n * 2);
	c->inst_final = malloc(c->t[TFINAL].n * 4 + 1);
	c->inst_states = malloc(c->t[TSTATES].n * 4 + 1);
	scratch = malloc((size_t)P * sh->n * sizeof *scratch);
	if (bad || !c->ry || !c->rfinal || !c->rstates || !c->inst_y || !c->inst_final || !c->inst_states ||
	    !scratch) {
		printf("FAIL ssd: allocation failed\n");
		free(scratch);
		return 1;
	}
	gt_rng_seed(&r, seed);
	fill(&c->t[TX], &r, f16, -1, 1);
	if (has(sh, 's'))
		fill(&c->t[TDT], &r, f16, -6, -1);
	else
		fill(&c->t[TDT], &r, f16, 0.001, 0.1);
	fill(&c->t[TA], &r, f16, -16, -1);
	fill(&c->t[TB], &r, f16, -1, 1);
	fill(&c->t[TC], &r, f16, -1, 1);
	fill(&c->t[TD], &r, f16, -1, 1);
	fill(&c->t[TBIAS], &r, f16, -0.5, 0.5);
	fill(&c->t[TZ], &r, f16, -3, 3);
	fill(&c->t[TINIT], &r, f16, -1, 1);
	for (b = 0; b < sh->b; b++)
		for (h = 0; h < sh->h; h++)
			reference(c, b, h, scratch);
	free(scratch);

	for (i = 0; i < NTENSORS; i++) {
		SsdTensor *t = &c->t[i];
		int rank = i == TDT ? 3 : i == TA || i == TD || i == TBIAS ? 1 : i == TSTATES ? 5 : 4;
		CakeTensor *ct = i == TX ? &c->args.x : i == TDT ? &c->args.dt : i == TA ? &c->args.a :
				 i == TB ? &c->args.bm : i == TC ? &c->args.cm : i == TD ? &c->args.d :
				 i == TBIAS ? &c->args.dt_bias : i == TZ ? &c->args.z : i == TINIT ? &c->args.init :
				 i == TY ? &c->args.y : i == TFINAL ? &c->args.final : &c->args.states;

		gt_tensor(ct, g, &t->dev, t->half ? code : CAKE_DTYPE_FLOAT, t->half ? 16 : 32, rank, t->shape);
		if (gt_buf_poison(&t->dev, st, t->name))
			return 1;
		if (i < TY && t->n && gt_buf_upload(&t->dev, t->half ? (const void *)t->bits : (const void *)t->f, st,
						    t->name))
			return 1;
	}
	c->args.softplus = has(sh, 's');
	c->args.chunk = sh->chunk ? sh->chunk : 64;
	return workspace(c, g, st);
}

static void
label_of(const SsdCase *c, char *out, size_t size)
{
	const SsdShape *sh = &c->sh;

	snprintf(out, size, "B=%d L=%d H=%d G=%d P=%d N=%d %s opt '%s' chunk %d", sh->b, sh->l, sh->h,
		 sh->g, P, sh->n, c->f16 ? "f16" : "bf16", sh->opt, sh->chunk);
}

/* The slice of element i of output o: y's (b, h) (its L rows of P values, strided), a
 * state's (b, [chunk,] h) (P x N contiguous values). */
static size_t
slice_of(const SsdCase *c, int o, size_t i)
{
	const SsdShape *sh = &c->sh;

	if (o)
		return i / ((size_t)P * sh->n);
	return i / ((size_t)sh->l * sh->h * P) * sh->h + i / P % (size_t)sh->h;
}

/* The worst slice of output o (n elements, 16-bit of the case's type for y, else f32):
 * returns the largest normwise error; *elem the largest element error over its slice's
 * largest |ref|, *poison the outputs still poisoned, *worst the slice. */
static double
compare(const SsdCase *c, int o, const unsigned char *got, const double *ref, size_t n, double *elem,
	size_t *poison, size_t *worst)
{
	size_t ns = o ? n / ((size_t)P * c->sh.n) : (size_t)c->sh.b * c->sh.h, s, i;
	double *num = calloc(4 * ns, sizeof *num), *den = num + ns, *big = den + ns, *err = big + ns, w = 0;

	*elem = 0;
	*poison = 0;
	*worst = 0;
	if (!num)
		return INFINITY;
	for (i = 0; i < n; i++) {
		double v;

		s = slice_of(c, o, i);
		if (!o) {
			uint16_t hb;

			memcpy(&hb, got + 2 * i, 2);
			*poison += hb == 0xffffu;
			v = c->f16 ? gt_f16_to_double(hb) : gt_bf16_to_float(hb);
		} else {
			uint32_t u;
			float f;

			memcpy(&u, got + 4 * i, 4);
			memcpy(&f, &u, 4);
			*poison += u == 0xffffffffu;
			v = f;
		}
		num[s] += (v - ref[i]) * (v - ref[i]);
		den[s] += ref[i] * ref[i];
		big[s] = fabs(ref[i]) > big[s] ? fabs(ref[i]) : big[s];
		if (!(fabs(v - ref[i]) <= err[s]))
			err[s] = isnan(v) ? INFINITY : fabs(v - ref[i]);
	}
	for (s = 0; s < ns; s++) {
		double e = isfinite(num[s]) ? sqrt(num[s] / (den[s] > 0 ? den[s] : 1)) : INFINITY;

		if (e > w || (s == 0 && e == w)) {
			w = e;
			*worst = s;
		}
		e = big[s] > 0 ? err[s] / big[s] : err[s];
		*elem = e > *elem ? e : *elem;
	}
	free(num);
	return w;
}

/* Poisons the outputs, launches, compares; prints one line. Returns 0 on pass. With
 * keep, the output bytes are kept; with same, they must equal those. */
static int
run(SsdCase *c, CUstream st, const char *kname, SsdLaunch launch, const char *extra, int keep, int same)
{
	const unsigned char *out[3];
	unsigned char *inst[3] = {c->inst_y, c->inst_final, c->inst_states};
	const double *ref[3] = {c->ry, c->rfinal, c->rstates};
	static const char *const what[3] = {"y", "final", "states"};
	size_t poison, worst;
	char label[256], detail[768] = "";
	size_t at = 0;
	int guards = 1, inputs = 1, pass = 1, differ = 0, synced = 1, i, o;
	CakeError err;
	int rc;

	label_of(c, label, sizeof label);
	for (o = 0; o < 3; o++)
		if (gt_buf_poison(&c->t[TY + o].dev, st, c->t[TY + o].name))
			return 1;
	rc = launch(&c->args, st, &err);
	if (rc != CAKE_OK) {
		printf("FAIL %s %s%s: launch: %s: %s\n", kname, label, extra, cakert_status_name(rc), err.msg);
		return 1;
	}
	for (i = 0; i < TY; i++) {
		const SsdTensor *t = &c->t[i];
		const unsigned char *p = gt_fetch(&c->t[i].dev, st, t->name, &guards);

		if (!p)
			return 1;
		inputs &= memcmp(p, t->half ? (const void *)t->bits : (const void *)t->f, t->n * (t->half ? 2 : 4)) == 0;
	}
	for (o = 0; o < 3; o++) {
		size_t bytes = c->t[TY + o].n * (o == 0 ? 2 : 4);

		if (!(out[o] = gt_fetch(&c->t[TY + o].dev, st, c->t[TY + o].name, &guards)))
			return 1;
		if (same)
			differ |= memcmp(out[o], inst[o], bytes) != 0;
		if (keep)
			memcpy(inst[o], out[o], bytes);
	}
	for (o = 0; o < 3; o++) {
		double elem, norm;

		if (!c->t[TY + o].n)
			continue;
		norm = compare(c, o, out[o], ref[o], c->t[TY + o].n, &elem, &poison, &worst);
		pass &= norm <= NORM_THRESHOLD && elem <= ELEM_THRESHOLD && !poison;
		at += (size_t)snprintf(detail + at, sizeof detail - at,
				       "%s %s max_rel_err %.3g %s %.3g (normwise), elem %.3g %s %.3g (of the largest)",
				       o ? ";" : "", what[o], norm, norm <= NORM_THRESHOLD ? "<=" : ">", NORM_THRESHOLD,
				       elem, elem <= ELEM_THRESHOLD ? "<=" : ">", ELEM_THRESHOLD);
		if (norm > NORM_THRESHOLD && at < sizeof detail)
			at += (size_t)snprintf(detail + at, sizeof detail - at, ", worst slice %zu", worst);
		if (poison && at < sizeof detail)
			at += (size_t)snprintf(detail + at, sizeof detail - at, ", %zu still poisoned", poison);
	}
	if (c->args.sync.shape[0]) {
		const unsigned char *p = gt_fetch(&c->sync, st, "ssd sync", &guards);
		size_t k;

		if (!p)
			return 1;
		for (k = 0; k < (size_t)c->sync_shape[0] * 4; k++)
			synced &= p[k] == 0;
	}
	pass &= guards && inputs && !differ && synced;
	printf("%s %s %s%s:%s%s%s%s%s\n", pass ? "PASS" : "FAIL", kname, label, extra, detail,
	       guards ? "" : "; a guard byte changed", inputs ? "" : "; an input changed",
	       differ ? "; differs from the instance's output bit for bit" : "",
	       synced ? "" : "; sync not left at zero");
	return !pass;
}

/* The instance the entry point must choose: the one of the case's element type and N. */
static const SsdInstance *
expected_instance(const SsdCase *c)
{
	int i;

	for (i = 0; i < NINSTANCES; i++)
		if (instances[i].f16 == c->f16 && instances[i].n == c->sh.n)
			return &instances[i];
	return NULL;
}

/* ---- CUDA graph capture (the launcher allocates nothing and never synchronizes) ---- */

static const CakertDriver *graph_cu;
static CUgraphExec graph_exec;

static int
launch_graph(const ssd_args *a, CUstream s, CakeError *err)
{
	CUresult r = graph_cu->graph_launch(graph_exec, s);

	(void)a;
	if (r != CUDA_SUCCESS) {
		err->status = CAKE_ERR_DRIVER;
		cakert_result_string(r, err->msg, sizeof err->msg);
		return CAKE_ERR_DRIVER;
	}
	return CAKE_OK;
}

/* The entry point's launch captured into a graph (global capture mode, where an
 * allocation or a synchronization in the launcher would break the capture), then the
 * graph replayed twice, its outputs poisoned before and checked after each replay.
 * Returns the failures; *ran counts the cases. */
static int
graph_case(const GtDev *g, CUstream st, const SsdShape *sh, int *ran)
{
	CUgraph graph = NULL;
	CakeError err;
	SsdCase c;
	int failed = 0, rep;
	CUresult r;

	(*ran)++;
	if (create(&c, g, sh, 0, gt_seed("ssd graph", 0), st)) {
		destroy(&c);
		return 1;
	}
	failed += run(&c, st, "ssd", launch_entry, " (before the capture)", 1, 0);
	r = g->cu->stream_begin_capture(st, CU_STREAM_CAPTURE_MODE_GLOBAL);
	if (r == CUDA_SUCCESS) {
		int rc = launch_entry(&c.args, st, &err);

		r = g->cu->stream_end_capture(st, &graph);
		if (rc != CAKE_OK) {
			printf("FAIL ssd graph: launch under capture: %s: %s\n", cakert_status_name(rc), err.msg);
			failed++;
		}
	}
	if (r != CUDA_SUCCESS || !graph || gt_cu(g->cu->graph_instantiate(&graph_exec, graph, 0),
						  "cuGraphInstantiateWithFlags", "ssd graph")) {
		if (r != CUDA_SUCCESS)
			gt_cu(r, "cuStreamBeginCapture/EndCapture", "ssd graph");
		failed++;
	} else {
		graph_cu = g->cu;
		for (rep = 0; rep < 2; rep++) {
			char extra[64];

			(*ran)++;
			snprintf(extra, sizeof extra, " (graph replay %d, bit for bit)", rep);
			failed += run(&c, st, "ssd", launch_graph, extra, 0, 1);
		}
		g->cu->graph_exec_destroy(graph_exec);
	}
	if (graph)
		g->cu->graph_destroy(graph);
	destroy(&c);
	return failed;
}

/* --first-call NAME (bench/first_call.py): in this fresh process, the first test shape
 * that instance NAME takes (any for the entry point ssd, with bf16 inputs) run twice, its
 * two launches clocked. */
static int
first_call(const GtDev *g, CUstream st, const char *name)
{
	const SsdInstance *in = NULL;
	SsdLaunch launch = launch_entry;
	char label[96];
	int i, r = 0;

	for (i = 0; i < NINSTANCES; i++)
		if (strcmp(instances[i].name, name) == 0)
			in = &instances[i];
	if (in)
		launch = in->launch;
	for (i = 0; i < NSHAPES; i++) {
		const SsdShape *sh = &shapes[i];
		int f16 = in ? in->f16 : 0;
		SsdCase c;

		if ((gt_small() && !sh->small) || (in && in->n != sh->n))
			continue;
		if (create(&c, g, sh, f16, gt_seed(name, 0), st)) {
			destroy(&c);
			return 1;
		}
		r += run(&c, st, name, launch, "", 1, 0);
		r += run(&c, st, name, launch, " (second call)", 0, 1);
		destroy(&c);
		snprintf(label, sizeof label, "B=%d L=%d H=%d G=%d N=%d", sh->b, sh->l, sh->h, sh->g, sh->n);
		return r + gt_first_call_line(name, label, g->ctx, descs, NINSTANCES);
	}
	printf("FAIL first_call %s: no test shape fits it\n", name);
	return 1;
}

/* Every shape with bf16 and f16 inputs (the instance, then the entry point), then the
 * graph; the failures, *ran the cases. */
static int
run_all(const GtDev *g, CUstream st, int *ran)
{
	int i, f, failed = 0;

	for (i = 0; i < NSHAPES; i++) {
		const SsdShape *sh = &shapes[i];

		if (gt_small() && !sh->small)
			continue;
		for (f = 0; f < 2; f++) {
			const SsdInstance *in;
			char extra[96];
			SsdCase c;

			(*ran)++;
			if (create(&c, g, sh, f, gt_seed("ssd", 2 * i + f), st)) {
				destroy(&c);
				failed++;
				continue;
			}
			in = expected_instance(&c);
			failed += run(&c, st, in->name, in->launch, "", 1, 0);
			/* the entry point: its output, bit for bit the instance's */
			snprintf(extra, sizeof extra, " (as %s, bit for bit)", in->name);
			(*ran)++;
			failed += run(&c, st, "ssd", launch_entry, extra, 0, 1);
			if (sh->l > 448) {
				/* without the workspace every head runs whole: the same bits */
				c.args.sync.shape = c.sync_none;
				c.args.hand.shape = c.hand_none;
				(*ran)++;
				failed += run(&c, st, "ssd", launch_entry, " (no workspace, bit for bit)", 0, 1);
			}
			destroy(&c);
		}
	}
	return failed + graph_case(g, st, &shapes[2], ran);      /* every optional tensor */
}

/* A split instance needs two chunks at least (a second half of none would wait for a state
 * that no first half hands over, and write a final state of its own): its launcher refuses
 * L = 64 with CAKE_ERR_SHAPE naming the requires clause, and takes L = 65 as far as the
 * grid. No driver needed. */
static int
check_split_short(void)
{
	int failed = 0, l;

	for (l = 64; l <= 65; l++) {
		static const int64_t a[1] = {2}, none[1] = {0}, sy[1] = {2 + 128 * 2};
		const int64_t x[4] = {1, l, 2, 64}, dt[3] = {1, l, 2}, bc[4] = {1, l, 1, 128};
		const int64_t z[4] = {0, l, 2, 64}, st0[4] = {0, 2, 64, 128}, sts[5] = {0, 1, 2, 64, 128};
		const int64_t hand[4] = {1, 2, 64, 128};
		ssd_bf16_n128_split_args args;
		int64_t grid[3];
		CakeError err;
		int rc, ok;

		memset(&args, 0, sizeof args);
		gt_stand_in(&args.x, 0x100000, x, 4, CAKE_DTYPE_BFLOAT, 16);
		gt_stand_in(&args.dt, 0x200000, dt, 3, CAKE_DTYPE_BFLOAT, 16);
		gt_stand_in(&args.a, 0x300000, a, 1, CAKE_DTYPE_FLOAT, 32);
		gt_stand_in(&args.bm, 0x400000, bc, 4, CAKE_DTYPE_BFLOAT, 16);
		gt_stand_in(&args.cm, 0x500000, bc, 4, CAKE_DTYPE_BFLOAT, 16);
		gt_stand_in(&args.d, 0, none, 1, CAKE_DTYPE_FLOAT, 32);
		gt_stand_in(&args.dt_bias, 0, none, 1, CAKE_DTYPE_FLOAT, 32);
		gt_stand_in(&args.z, 0, z, 4, CAKE_DTYPE_BFLOAT, 16);
		gt_stand_in(&args.init, 0, st0, 4, CAKE_DTYPE_FLOAT, 32);
		gt_stand_in(&args.y, 0x600000, x, 4, CAKE_DTYPE_BFLOAT, 16);
		gt_stand_in(&args.final, 0, st0, 4, CAKE_DTYPE_FLOAT, 32);
		gt_stand_in(&args.states, 0, sts, 5, CAKE_DTYPE_FLOAT, 32);
		gt_stand_in(&args.sync, 0x700000, sy, 1, CAKE_DTYPE_INT, 32);
		gt_stand_in(&args.hand, 0x800000, hand, 4, CAKE_DTYPE_FLOAT, 32);
		args.chunk = 64;
		rc = ssd_bf16_n128_split_grid(&args, grid, &err);
		/* L = 65 gets as far as the grid, which asks the driver for the SMs (CAKE_ERR_CONTEXT
		 * before a context exists, CAKE_ERR_NO_DRIVER without a driver) */
		ok = l == 64 ? rc == CAKE_ERR_SHAPE && strstr(err.msg, "requires") != NULL
			     : rc == CAKE_OK || rc == CAKE_ERR_CONTEXT || rc == CAKE_ERR_NO_DRIVER;
		printf("%s ssd_bf16_n128_split L=%d: %s%s\n", ok ? "PASS" : "FAIL", l,
		       l == 64 ? "refused: " : "taken: ", l == 64 ? err.msg : cakert_status_name(rc));
		failed += !ok;
	}
	return failed;
}

#define NAME(name, F16_, N_) #name,
static const char *const names[] = {SSD_INSTANCES(NAME)};

int
main(int argc, char **argv)
{
	static const GtFamily family = {"ssd", names, NINSTANCES, 1, run_all, first_call};

	int failed = argc > 1 ? 0 : check_split_short();

	return gt_family_main(&family, argc, argv) + failed;
}
