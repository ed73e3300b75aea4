/* check_wgmma_rs.c: the RS form of wgmma (A from registers, made by bf16a(acc) / f16a(acc))
 * and the small-N forms (m64n8, m64n16) on the GPU, through checks/wgmma_rs.cake's kernels,
 * against a float64 reference. sm_90a only: another device is skipped.
 *
 * Cases (each a PASS/FAIL line per output):
 * - "fa bf16": FlashAttention's P.V pattern. P = A1 B1^T by the SS form (output p), then
 *   O = bf16(P) B2^T by the RS form at N = 64 (o), 16 (o16) and 8 (o8), and A1 B8^T by the
 *   SS form at N = 8 (s8). Inputs U(-1, 1) rounded to bf16, never 0.
 * - "direct bf16": B1 the identity, so P = A1 exactly and bf16(P) = A1: the RS products are
 *   plain products of the inputs, with no rounding of P to allow for.
 * - "fa f16": the same P and O in f16 (wgmma_rs_f16).
 *
 * The reference of an RS output models the rounding of P: the GPU rounds its f32 P to
 * bf16/f16 (cvt.rn), so the reference rounds the float64 P to f32, then to bf16/f16. The
 * error of an element is |got - ref| / max(|ref|, s) with s the outputs' standard
 * deviation (sqrt(K) / 3 for P; sqrt(K) * s_P / sqrt(3) for O, K = 64). Thresholds: the f32
 * accumulation of K exact products, K 2^-20 (as for the GEMM tests), for p, s8 and every
 * output of the direct case. For the fa outputs the GPU's f32 P and the float64 P may round
 * to neighbouring bf16 values where P lies within an f32 rounding of a bf16 tie (about
 * 2^-14 of the elements, so a fraction of one element of P per run); one such element moves
 * an O element by at most ulp_bf16(|P|) |b| <= 2^-7 |P|, under 2^-7 s_O for |P| < 4.6 s_P:
 * the threshold is 2^-7 for bf16 and 2^-10 for f16. A wrong layout (an A register holding
 * another element of P) moves elements by about s_O, far above either threshold. */
#include "gputest.h"
#include "wgmma_rs.h"
#include "wgmma_rs_f16.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KD 64   /* K of both products (P's columns are O's K) */

/* ---- fp16 (IEEE binary16), for the values of this check (|x| < 2^15) ---- */

static double
f16_value(uint16_t h)
{
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	double v = e ? ldexp((double)(m | 0x400), e - 25) : ldexp((double)m, -24);

	if (e == 31)
		v = m ? NAN : INFINITY;
	return (h & 0x8000) ? -v : v;
}

/* Round to nearest even. */
static uint16_t
f16_bits(double x)
{
	uint16_t sign = x < 0 ? 0x8000 : 0;
	double a = fabs(x), q;
	int e;

	if (a < 0x1p-14)
		return (uint16_t)(sign | (uint16_t)nearbyint(a * 0x1p24));
	frexp(a, &e);                   /* a = f 2^e, f in [0.5, 1) */
	q = nearbyint(ldexp(a, 11 - e));
	if (q >= 2048.0) {
		q /= 2.0;
		e++;
	}
	return (uint16_t)(sign | (uint16_t)((e + 14) << 10) | ((uint16_t)q & 0x3ff));
}

/* x rounded as the GPU rounds its f32 P for the A fragment: to f32, then to bf16 or f16. */
static double
round_p(double x, int f16)
{
	float f = (float)x;

	return f16 ? f16_value(f16_bits((double)f)) : (double)gt_bf16_to_float(gt_bf16_from_float(f));
}

/* ---- matrices ---- */

/* A rows x KD input, its bits and values, and its device copy. */
typedef struct In {
	const char *name;
	int64_t shape[2];
	uint16_t *bits;
	double *val;
	GtBuf dev;
} In;

/* A rows x cols f32 output and its reference. */
typedef struct Out {
	const char *name;
	int64_t shape[2];
	double *ref, floor, thr;
	GtBuf dev;
} Out;

static int
in_alloc(In *m, const char *name, int rows)
{
	m->name = name;
	m->shape[0] = rows;
	m->shape[1] = KD;
	m->bits = calloc((size_t)rows * KD, sizeof *m->bits);
	m->val = calloc((size_t)rows * KD, sizeof *m->val);
	return !m->bits || !m->val || gt_buf_alloc(&m->dev, (size_t)rows * KD * 2, name);
}

static int
out_alloc(Out *m, const char *name, int rows, int cols)
{
	m->name = name;
	m->shape[0] = rows;
	m->shape[1] = cols;
	m->ref = calloc((size_t)rows * (size_t)cols, sizeof *m->ref);
	return !m->ref || gt_buf_alloc(&m->dev, (size_t)rows * (size_t)cols * 4, name);
}

/* Random U(-1, 1) values rounded to bf16 or f16, never 0; identity when ident. */
static void
in_fill(In *m, GtRng *r, int f16, int ident)
{
	size_t i, n = (size_t)m->shape[0] * KD;

	for (i = 0; i < n; i++) {
		double v = ident ? (double)(i / KD == i % KD) : 0.0;

		if (!ident)
			do {
				double u = gt_rng_uniform(r, -1.0, 1.0);

				m->bits[i] = f16 ? f16_bits(u) : gt_bf16_from_float((float)u);
				v = f16 ? f16_value(m->bits[i]) : gt_bf16_to_float(m->bits[i]);
			} while (v == 0.0);
		else
			m->bits[i] = f16 ? f16_bits(v) : gt_bf16_from_float((float)v);
		m->val[i] = v;
	}
}

/* ref = a b^T: a is rows x KD, b is cols x KD (both K-major). */
static void
product(Out *o, const double *a, const In *b)
{
	int64_t i, j, k;

	for (i = 0; i < o->shape[0]; i++)
		for (j = 0; j < o->shape[1]; j++) {
			double s = 0.0;

			for (k = 0; k < KD; k++)
				s += a[i * KD + k] * b->val[j * KD + k];
			o->ref[i * o->shape[1] + j] = s;
		}
}

/* Compares o against its reference; prints the line; 0 on pass. */
static int
out_check(Out *o, CUstream s, const char *kernel, const char *label)
{
	const unsigned char *p;
	char what[128];
	int guards = 1;
	GtCmp c;

	if (!(p = gt_fetch(&o->dev, s, o->name, &guards)))
		return 1;
	gt_cmp_init(&c, o->floor, o->thr);
	gt_cmp_f32(&c, p, o->ref, (size_t)(o->shape[0] * o->shape[1]));
	snprintf(what, sizeof what, "%s %s (64 x %lld)", label, o->name, (long long)o->shape[1]);
	return gt_report(kernel, what, &c, guards, 1);
}

static int
in_intact(In *m, CUstream s)
{
	const unsigned char *p;
	int guards = 1;

	if (!(p = gt_fetch(&m->dev, s, m->name, &guards)))
		return 0;
	return guards && memcmp(p, m->bits, (size_t)m->shape[0] * KD * 2) == 0;
}

enum { A1, B1, B2, B16, B8, NIN };
enum { P, O, O16, O8, S8, NOUT };

typedef struct Case {
	In in[NIN];
	Out out[NOUT];
	double *pr;     /* P as rounded for the A fragment */
} Case;

/* Fills the inputs (B1 the identity when direct), uploads them, poisons the outputs and
 * computes the references and thresholds. */
static int
setup(Case *c, const GtDev *g, CUstream s, uint64_t seed, int f16, int direct)
{
	double sp = sqrt((double)KD) / 3.0, so, acc = ldexp((double)KD, -20);
	double loose = direct ? acc : f16 ? 0x1p-10 : 0x1p-7;
	GtRng r;
	int i;

	(void)g;
	gt_rng_seed(&r, seed);
	for (i = 0; i < NIN; i++)
		in_fill(&c->in[i], &r, f16, direct && i == B1);
	product(&c->out[P], c->in[A1].val, &c->in[B1]);
	for (i = 0; i < 64 * 64; i++)
		c->pr[i] = round_p(c->out[P].ref[i], f16);
	product(&c->out[O], c->pr, &c->in[B2]);
	product(&c->out[O16], c->pr, &c->in[B16]);
	product(&c->out[O8], c->pr, &c->in[B8]);
	product(&c->out[S8], c->in[A1].val, &c->in[B8]);
	/* P = A1 exactly in the direct case: standard deviation 1/sqrt(3) */
	if (direct)
		sp = 1.0 / sqrt(3.0);
	so = sqrt((double)KD) * sp / sqrt(3.0);
	for (i = 0; i < NOUT; i++) {
		c->out[i].floor = i == P ? sp : i == S8 ? sqrt((double)KD) / 3.0 : so;
		c->out[i].thr = i == P || i == S8 ? acc : loose;
	}
	for (i = 0; i < NIN; i++)
		if (gt_buf_poison(&c->in[i].dev, s, c->in[i].name) ||
		    gt_buf_upload(&c->in[i].dev, c->in[i].bits, s, c->in[i].name))
			return 1;
	for (i = 0; i < NOUT; i++)
		if (gt_buf_poison(&c->out[i].dev, s, c->out[i].name))
			return 1;
	return 0;
}

static int
run_bf16(Case *c, const GtDev *g, CUstream s, const char *label, int index, int direct)
{
	wgmma_rs_args a;
	CakeError err;
	int i, failed = 0;

	if (setup(c, g, s, gt_seed("wgmma_rs", index), 0, direct))
		return 1;
	memset(&a, 0, sizeof a);
	gt_tensor(&a.a1, g, &c->in[A1].dev, CAKE_DTYPE_BFLOAT, 16, 2, c->in[A1].shape);
	gt_tensor(&a.b1, g, &c->in[B1].dev, CAKE_DTYPE_BFLOAT, 16, 2, c->in[B1].shape);
	gt_tensor(&a.b2, g, &c->in[B2].dev, CAKE_DTYPE_BFLOAT, 16, 2, c->in[B2].shape);
	gt_tensor(&a.b16, g, &c->in[B16].dev, CAKE_DTYPE_BFLOAT, 16, 2, c->in[B16].shape);
	gt_tensor(&a.b8, g, &c->in[B8].dev, CAKE_DTYPE_BFLOAT, 16, 2, c->in[B8].shape);
	gt_tensor(&a.p, g, &c->out[P].dev, CAKE_DTYPE_FLOAT, 32, 2, c->out[P].shape);
	gt_tensor(&a.o, g, &c->out[O].dev, CAKE_DTYPE_FLOAT, 32, 2, c->out[O].shape);
	gt_tensor(&a.o16, g, &c->out[O16].dev, CAKE_DTYPE_FLOAT, 32, 2, c->out[O16].shape);
	gt_tensor(&a.o8, g, &c->out[O8].dev, CAKE_DTYPE_FLOAT, 32, 2, c->out[O8].shape);
	gt_tensor(&a.s8, g, &c->out[S8].dev, CAKE_DTYPE_FLOAT, 32, 2, c->out[S8].shape);
	if (wgmma_rs_launch(&a, s, &err) != CAKE_OK) {
		printf("FAIL wgmma_rs %s: launch: %s: %s\n", label, cakert_status_name(err.status), err.msg);
		return 1;
	}
	for (i = 0; i < NOUT; i++)
		failed += out_check(&c->out[i], s, "wgmma_rs", label);
	for (i = 0; i < NIN; i++)
		if (!in_intact(&c->in[i], s)) {
			printf("FAIL wgmma_rs %s: input %s changed (or its guards)\n", label, c->in[i].name);
			failed++;
		}
	return failed;
}

static int
run_f16(Case *c, const GtDev *g, CUstream s, const char *label, int index)
{
	wgmma_rs_f16_args a;
	CakeError err;
	int failed = 0;

	if (setup(c, g, s, gt_seed("wgmma_rs_f16", index), 1, 0))
		return 1;
	memset(&a, 0, sizeof a);
	gt_tensor(&a.a1, g, &c->in[A1].dev, CAKE_DTYPE_FLOAT, 16, 2, c->in[A1].shape);
	gt_tensor(&a.b1, g, &c->in[B1].dev, CAKE_DTYPE_FLOAT, 16, 2, c->in[B1].shape);
	gt_tensor(&a.b2, g, &c->in[B2].dev, CAKE_DTYPE_FLOAT, 16, 2, c->in[B2].shape);
	gt_tensor(&a.p, g, &c->out[P].dev, CAKE_DTYPE_FLOAT, 32, 2, c->out[P].shape);
	gt_tensor(&a.o, g, &c->out[O].dev, CAKE_DTYPE_FLOAT, 32, 2, c->out[O].shape);
	if (wgmma_rs_f16_launch(&a, s, &err) != CAKE_OK) {
		printf("FAIL wgmma_rs_f16 %s: launch: %s: %s\n", label, cakert_status_name(err.status), err.msg);
		return 1;
	}
	failed += out_check(&c->out[P], s, "wgmma_rs_f16", label);
	failed += out_check(&c->out[O], s, "wgmma_rs_f16", label);
	if (!in_intact(&c->in[A1], s) || !in_intact(&c->in[B1], s) || !in_intact(&c->in[B2], s)) {
		printf("FAIL wgmma_rs_f16 %s: an input changed (or its guards)\n", label);
		failed++;
	}
	return failed;
}

static void
case_free(Case *c)
{
	int i;

	for (i = 0; i < NIN; i++) {
		gt_buf_free(&c->in[i].dev);
		free(c->in[i].bits);
		free(c->in[i].val);
	}
	for (i = 0; i < NOUT; i++) {
		gt_buf_free(&c->out[i].dev);
		free(c->out[i].ref);
	}
	free(c->pr);
}

int
main(void)
{
	static const char *in_names[NIN] = {"a1", "b1", "b2", "b16", "b8"};
	static const int in_rows[NIN] = {64, 64, 64, 16, 8};
	static const char *out_names[NOUT] = {"p", "o", "o16", "o8", "s8"};
	static const int out_cols[NOUT] = {64, 64, 16, 8, 8};
	GtDev g;
	CUstream s = NULL;
	Case c;
	int rc, i, failed = 0, bad = 0;

	rc = gt_init(&g, "wgmma_rs");
	if (rc > 0)
		return gt_skip_status();
	if (rc < 0)
		return 1;
	if (g.major != 9) {
		printf("SKIPPED: wgmma_rs: device 0 is %s; the kernels are built for sm_90a\n", g.name);
		gt_fini(&g);
		return gt_skip_status();
	}
	memset(&c, 0, sizeof c);
	for (i = 0; i < NIN; i++)
		bad |= in_alloc(&c.in[i], in_names[i], in_rows[i]);
	for (i = 0; i < NOUT; i++)
		bad |= out_alloc(&c.out[i], out_names[i], 64, out_cols[i]);
	c.pr = calloc(64 * 64, sizeof *c.pr);
	if (bad || !c.pr || gt_cu(g.cu->stream_create(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate", "wgmma_rs")) {
		printf("FAIL wgmma_rs: set-up failed\n");
		case_free(&c);
		gt_fini(&g);
		return 1;
	}
	failed += run_bf16(&c, &g, s, "fa bf16", 0, 0) != 0;
	failed += run_bf16(&c, &g, s, "direct bf16", 1, 1) != 0;
	failed += run_f16(&c, &g, s, "fa f16", 2) != 0;
	g.cu->stream_destroy(s);
	case_free(&c);
	gt_fini(&g);
	printf("wgmma_rs: %d of 3 cases passed\n", 3 - failed);
	return failed ? 1 : 0;
}
