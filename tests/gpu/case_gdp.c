/* case_gdp.c: one case of the gdp decode family against a float64 reference, and the
 * bitwise comparison of a kernel with its staged twin (docs/gdp.md, docs/testing.md).
 *
 * Inputs: v in [-1, 1]; g (log decay) in [-0.7, -0.01], but one in eight in [-60, -30] (a
 * token that all but clears the state: gdp_decode_multi multiplies its decay product out
 * when it drops below 2^-64); beta in [0.05, 1]; the state in [-1, 1]. Without in-kernel normalisation q and k are unit vectors (rounded to the
 * input type), as a model hands them over, which keeps every Householder step a
 * contraction; with it they are drawn at random scales and the kernel normalises them.
 * The reference takes the inputs as rounded and works in double.
 *
 * Thresholds: the state (and each intermediate state) 1e-4 relative, floor 0.1: its
 * elements are O(1) and each update adds f32 rounding of dot products over K (about
 * sqrt(K) * 2^-24 of the terms' size, 1e-6 here) and the approximate exp2 and rsqrt
 * (2^-22 relative); near-zero elements are held to 1e-5 absolute. The output: 1e-2,
 * floor 1e-2: one rounding to bf16 (2^-8) or f16 (2^-11) dominates. */
#include "case_gdp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STATE_THRESHOLD 1e-4
#define STATE_FLOOR 0.1
#define OUT_THRESHOLD 1e-2
#define OUT_FLOOR 1e-2
#define NORM_EPS 1e-6

/* ---- host data ---- */

typedef struct Host {
	int B, T, NH, HQK, HV, K, V, TI, l2, f16;
	size_t nq, nk, nv, ng, nbeta, ns, no, ninter;
	uint16_t *q, *k, *v, *beta;     /* bits of the input type */
	float *g, *s0;
	double *ref_s, *ref_o, *ref_inter;
	float scale;
} Host;

static double
half_value(const Host *h, uint16_t x)
{
	return h->f16 ? (float)gt_f16_to_double(x) : gt_bf16_to_float(x);
}

static uint16_t
half_bits(const Host *h, double x)
{
	return h->f16 ? gt_f16_from_float((float)x) : gt_bf16_from_float((float)x);
}

static void
host_free(Host *h)
{
	free(h->q);
	free(h->k);
	free(h->v);
	free(h->beta);
	free(h->g);
	free(h->s0);
	free(h->ref_s);
	free(h->ref_o);
	free(h->ref_inter);
}

/* n values of a vector: unit length when `unit` (as rounded), else at a random scale. */
static void
fill_vector(const Host *h, GtRng *r, uint16_t *out, int n, int unit)
{
	double x[256], norm = 0.0, scale = unit ? 1.0 : gt_rng_uniform(r, 0.25, 3.0);
	int i;

	for (i = 0; i < n; i++) {
		x[i] = gt_rng_uniform(r, -1.0, 1.0);
		norm += x[i] * x[i];
	}
	norm = sqrt(norm);
	for (i = 0; i < n; i++)
		out[i] = half_bits(h, unit ? x[i] / norm : x[i] * scale);
}

/* The vector as the kernel sees it: normalised in the kernel when l2. */
static void
load_vector(const Host *h, const uint16_t *in, double *out, int n)
{
	double ss = 0.0;
	int i;

	for (i = 0; i < n; i++) {
		out[i] = half_value(h, in[i]);
		ss += out[i] * out[i];
	}
	if (h->l2)
		for (i = 0; i < n; i++)
			out[i] /= sqrt(ss + NORM_EPS);
}

static void
reference(Host *h)
{
	int K = h->K, V = h->V, b, hv, t, j, i, c;
	double *S = malloc(sizeof *S * (size_t)K * (size_t)V), kk[256], qq[256], *u = malloc(sizeof *u * (size_t)V);

	for (b = 0; b < h->B; b++)
		for (hv = 0; hv < h->HV; hv++) {
			int hq = hv / (h->HV / h->HQK);
			size_t sbase = ((size_t)b * (size_t)h->HV + (size_t)hv) * (size_t)K * (size_t)V;

			for (i = 0; i < K * V; i++)
				S[i] = h->s0[sbase + (size_t)i];
			for (t = 0; t < h->T; t++) {
				double a = exp((double)h->g[((size_t)b * (size_t)h->T + (size_t)t) * (size_t)h->HV + (size_t)hv]);

				for (i = 0; i < K * V; i++)
					S[i] *= a;
				for (j = 0; j < h->NH; j++) {
					size_t kb = ((((size_t)b * (size_t)h->T + (size_t)t) * (size_t)h->NH + (size_t)j) * (size_t)h->HQK + (size_t)hq) * (size_t)K;
					size_t vb = ((((size_t)b * (size_t)h->T + (size_t)t) * (size_t)h->NH + (size_t)j) * (size_t)h->HV + (size_t)hv) * (size_t)V;
					double be = half_value(h, h->beta[(((size_t)b * (size_t)h->T + (size_t)t) * (size_t)h->NH + (size_t)j) * (size_t)h->HV + (size_t)hv]);

					load_vector(h, h->k + kb, kk, K);
					for (c = 0; c < V; c++) {
						double acc = 0.0;

						for (i = 0; i < K; i++)
							acc += S[i * V + c] * kk[i];
						u[c] = (half_value(h, h->v[vb + (size_t)c]) - acc) * be;
					}
					for (i = 0; i < K; i++)
						for (c = 0; c < V; c++)
							S[i * V + c] += kk[i] * u[c];
				}
				load_vector(h, h->q + (((size_t)b * (size_t)h->T + (size_t)t) * (size_t)h->HQK + (size_t)hq) * (size_t)K, qq, K);
				for (c = 0; c < V; c++) {
					double acc = 0.0;

					for (i = 0; i < K; i++)
						acc += S[i * V + c] * qq[i];
					h->ref_o[(((size_t)b * (size_t)h->T + (size_t)t) * (size_t)h->HV + (size_t)hv) * (size_t)V + (size_t)c] =
						acc * (double)h->scale;
				}
				if (t < h->TI)
					memcpy(h->ref_inter + ((((size_t)b * (size_t)h->TI + (size_t)t) * (size_t)h->HV + (size_t)hv) * (size_t)K * (size_t)V),
					       S, sizeof *S * (size_t)K * (size_t)V);
			}
			memcpy(h->ref_s + sbase, S, sizeof *S * (size_t)K * (size_t)V);
		}
	free(S);
	free(u);
}

static int
host_make(Host *h, const GdpVariant *var, const GdpSize *sz, uint64_t seed)
{
	GtRng r;
	size_t i, n;

	memset(h, 0, sizeof *h);
	h->B = sz->B;
	h->T = var->T;
	h->NH = var->NH;
	h->HV = sz->HV;
	h->HQK = sz->HV / sz->gqa;
	h->K = var->KD;
	h->V = var->VD;
	h->TI = sz->ti;
	h->l2 = var->l2norm;
	h->f16 = var->f16;
	h->scale = (float)(1.0 / sqrt((double)h->K));
	h->nq = (size_t)h->B * (size_t)h->T * (size_t)h->HQK * (size_t)h->K;
	h->nk = h->nq * (size_t)h->NH;
	h->nv = (size_t)h->B * (size_t)h->T * (size_t)h->NH * (size_t)h->HV * (size_t)h->V;
	h->ng = (size_t)h->B * (size_t)h->T * (size_t)h->HV;
	h->nbeta = h->ng * (size_t)h->NH;
	h->ns = (size_t)h->B * (size_t)h->HV * (size_t)h->K * (size_t)h->V;
	h->no = (size_t)h->B * (size_t)h->T * (size_t)h->HV * (size_t)h->V;
	h->ninter = (size_t)h->B * (size_t)h->TI * (size_t)h->HV * (size_t)h->K * (size_t)h->V;
	h->q = malloc(2 * h->nq + 2);
	h->k = malloc(2 * h->nk + 2);
	h->v = malloc(2 * h->nv + 2);
	h->beta = malloc(2 * h->nbeta + 2);
	h->g = malloc(4 * h->ng + 4);
	h->s0 = malloc(4 * h->ns + 4);
	h->ref_s = malloc(8 * h->ns + 8);
	h->ref_o = malloc(8 * h->no + 8);
	h->ref_inter = malloc(8 * h->ninter + 8);
	if (!h->q || !h->k || !h->v || !h->beta || !h->g || !h->s0 || !h->ref_s || !h->ref_o || !h->ref_inter)
		return 1;
	gt_rng_seed(&r, seed);
	for (n = 0; n < h->nq; n += (size_t)h->K)
		fill_vector(h, &r, h->q + n, h->K, !h->l2);
	for (n = 0; n < h->nk; n += (size_t)h->K)
		fill_vector(h, &r, h->k + n, h->K, !h->l2);
	for (i = 0; i < h->nv; i++)
		h->v[i] = half_bits(h, gt_rng_uniform(&r, -1.0, 1.0));
	for (i = 0; i < h->nbeta; i++)
		h->beta[i] = half_bits(h, gt_rng_uniform(&r, 0.05, 1.0));
	for (i = 0; i < h->ng; i++)	/* one in eight a head that forgets (below) */
		h->g[i] = (float)(gt_rng_uniform(&r, 0.0, 1.0) < 0.125 ? gt_rng_uniform(&r, -60.0, -30.0)
								       : gt_rng_uniform(&r, -0.7, -0.01));
	for (i = 0; i < h->ns; i++)
		h->s0[i] = (float)gt_rng_uniform(&r, -1.0, 1.0);
	reference(h);
	return 0;
}

/* ---- device side ---- */

typedef struct Dev {
	GtBuf q, k, v, g, beta, s, o, inter;
	int64_t sq[4], sk[5], sv[5], sg[3], sbeta[4], ss[4], so[4], sinter[5];
	GdpArgs args;
} Dev;

static void
dev_free(Dev *d)
{
	gt_buf_free(&d->q);
	gt_buf_free(&d->k);
	gt_buf_free(&d->v);
	gt_buf_free(&d->g);
	gt_buf_free(&d->beta);
	gt_buf_free(&d->s);
	gt_buf_free(&d->o);
	gt_buf_free(&d->inter);
}

static int
dev_make(Dev *d, const GtDev *g, const Host *h, const char *what)
{
	int code = h->f16 ? CAKE_DTYPE_FLOAT : CAKE_DTYPE_BFLOAT;
	int64_t sq[4] = {h->B, h->T, h->HQK, h->K};
	int64_t sk[5] = {h->B, h->T, h->NH, h->HQK, h->K};
	int64_t sv[5] = {h->B, h->T, h->NH, h->HV, h->V};
	int64_t sg[3] = {h->B, h->T, h->HV};
	int64_t sbeta[4] = {h->B, h->T, h->NH, h->HV};
	int64_t ss[4] = {h->B, h->HV, h->K, h->V};
	int64_t so[4] = {h->B, h->T, h->HV, h->V};
	int64_t sinter[5] = {h->B, h->TI, h->HV, h->K, h->V};

	memset(d, 0, sizeof *d);
	memcpy(d->sq, sq, sizeof sq);
	memcpy(d->sk, sk, sizeof sk);
	memcpy(d->sv, sv, sizeof sv);
	memcpy(d->sg, sg, sizeof sg);
	memcpy(d->sbeta, sbeta, sizeof sbeta);
	memcpy(d->ss, ss, sizeof ss);
	memcpy(d->so, so, sizeof so);
	memcpy(d->sinter, sinter, sizeof sinter);
	if (gt_buf_alloc(&d->q, 2 * h->nq, what) || gt_buf_alloc(&d->k, 2 * h->nk, what) ||
	    gt_buf_alloc(&d->v, 2 * h->nv, what) || gt_buf_alloc(&d->g, 4 * h->ng, what) ||
	    gt_buf_alloc(&d->beta, 2 * h->nbeta, what) || gt_buf_alloc(&d->s, 4 * h->ns, what) ||
	    gt_buf_alloc(&d->o, 2 * h->no, what) || gt_buf_alloc(&d->inter, 4 * h->ninter, what))
		return 1;
	gt_tensor(&d->args.q, g, &d->q, code, 16, 4, d->sq);
	gt_tensor(&d->args.k, g, &d->k, code, 16, 5, d->sk);
	gt_tensor(&d->args.v, g, &d->v, code, 16, 5, d->sv);
	gt_tensor(&d->args.g, g, &d->g, CAKE_DTYPE_FLOAT, 32, 3, d->sg);
	gt_tensor(&d->args.beta, g, &d->beta, code, 16, 4, d->sbeta);
	gt_tensor(&d->args.s, g, &d->s, CAKE_DTYPE_FLOAT, 32, 4, d->ss);
	gt_tensor(&d->args.o, g, &d->o, code, 16, 4, d->so);
	gt_tensor(&d->args.inter, g, &d->inter, CAKE_DTYPE_FLOAT, 32, 5, d->sinter);
	d->args.scale = h->scale;
	return 0;
}

/* Poisons every buffer, then uploads the inputs and the initial state. */
static int
dev_fill(Dev *d, const Host *h, CUstream st, const char *what)
{
	return gt_buf_poison(&d->q, st, what) || gt_buf_poison(&d->k, st, what) ||
	       gt_buf_poison(&d->v, st, what) || gt_buf_poison(&d->g, st, what) ||
	       gt_buf_poison(&d->beta, st, what) || gt_buf_poison(&d->s, st, what) ||
	       gt_buf_poison(&d->o, st, what) || gt_buf_poison(&d->inter, st, what) ||
	       gt_buf_upload(&d->q, h->q, st, what) || gt_buf_upload(&d->k, h->k, st, what) ||
	       gt_buf_upload(&d->v, h->v, st, what) || gt_buf_upload(&d->g, h->g, st, what) ||
	       gt_buf_upload(&d->beta, h->beta, st, what) || gt_buf_upload(&d->s, h->s0, st, what);
}

/* What one kernel left: copies of the state, outputs and intermediate states. */
typedef struct Result {
	unsigned char *s, *o, *inter;
} Result;

static void
result_free(Result *r)
{
	free(r->s);
	free(r->o);
	free(r->inter);
}

static unsigned char *
dup(const unsigned char *p, size_t n)
{
	unsigned char *c = malloc(n + 1);

	if (c && n)
		memcpy(c, p, n);
	return c;
}

static void
cmp_half(const Host *h, GtCmp *c, const unsigned char *data, const double *ref, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint16_t x;

		memcpy(&x, data + 2 * i, 2);
		gt_cmp_add(c, i, half_value(h, x), ref[i], x == 0xffffu);
	}
}

/* Launches one kernel on the case and checks it; keeps what it wrote in res. */
static int
run_one(const GdpVariant *var, Dev *d, const Host *h, CUstream st, const char *label, Result *res)
{
	CakeError err;
	const unsigned char *p;
	int guards = 1, inputs = 1, failed = 0;
	GtCmp cmp;
	char what[256];

	memset(res, 0, sizeof *res);
	if (dev_fill(d, h, st, var->name))
		return 1;
	if (var->launch(&d->args, st, &err) != CAKE_OK) {
		printf("FAIL %s %s: launch: %s: %s\n", var->name, label, cakert_status_name(err.status), err.msg);
		return 1;
	}
	/* the inputs must come back unchanged */
	if (!(p = gt_fetch(&d->q, st, var->name, &guards)))
		return 1;
	inputs &= memcmp(p, h->q, 2 * h->nq) == 0;
	if (!(p = gt_fetch(&d->k, st, var->name, &guards)))
		return 1;
	inputs &= memcmp(p, h->k, 2 * h->nk) == 0;
	if (!(p = gt_fetch(&d->v, st, var->name, &guards)))
		return 1;
	inputs &= memcmp(p, h->v, 2 * h->nv) == 0;
	if (!(p = gt_fetch(&d->g, st, var->name, &guards)))
		return 1;
	inputs &= memcmp(p, h->g, 4 * h->ng) == 0;
	if (!(p = gt_fetch(&d->beta, st, var->name, &guards)))
		return 1;
	inputs &= memcmp(p, h->beta, 2 * h->nbeta) == 0;

	if (!(p = gt_fetch(&d->s, st, var->name, &guards)))
		return 1;
	res->s = dup(p, 4 * h->ns);
	gt_cmp_init(&cmp, STATE_FLOOR, STATE_THRESHOLD);
	gt_cmp_f32(&cmp, p, h->ref_s, h->ns);
	snprintf(what, sizeof what, "%s state", label);
	failed += gt_report(var->name, what, &cmp, guards, inputs);

	guards = 1;
	if (!(p = gt_fetch(&d->o, st, var->name, &guards)))
		return failed + 1;
	res->o = dup(p, 2 * h->no);
	gt_cmp_init(&cmp, OUT_FLOOR, OUT_THRESHOLD);
	cmp_half(h, &cmp, p, h->ref_o, h->no);
	snprintf(what, sizeof what, "%s output", label);
	failed += gt_report(var->name, what, &cmp, guards, inputs);

	guards = 1;
	if (!(p = gt_fetch(&d->inter, st, var->name, &guards)))
		return failed + 1;
	res->inter = dup(p, 4 * h->ninter);
	gt_cmp_init(&cmp, STATE_FLOOR, STATE_THRESHOLD);
	gt_cmp_f32(&cmp, p, h->ref_inter, h->ninter);
	snprintf(what, sizeof what, "%s intermediate states (%d tokens)", label, h->TI);
	failed += gt_report(var->name, what, &cmp, guards, inputs);
	return failed;
}

int
gdp_run_case(const GtDev *g, CUstream st, const GdpVariant *on, const GdpVariant *off,
	     const GdpSize *sz, uint64_t seed)
{
	Host h;
	Dev d;
	Result ron, roff;
	char label[160];
	int failed = 0, same;

	snprintf(label, sizeof label, "B=%d HV=%d HQK=%d TI=%d seed=%016llx", sz->B, sz->HV,
		 sz->HV / sz->gqa, sz->ti, (unsigned long long)seed);
	if (host_make(&h, on, sz, seed)) {
		printf("FAIL %s %s: out of host memory\n", on->name, label);
		host_free(&h);
		return 1;
	}
	if (dev_make(&d, g, &h, on->name)) {
		printf("FAIL %s %s: device allocation failed\n", on->name, label);
		dev_free(&d);
		host_free(&h);
		return 1;
	}
	memset(&roff, 0, sizeof roff);
	failed += run_one(on, &d, &h, st, label, &ron);
	if (off)
		failed += run_one(off, &d, &h, st, label, &roff);
	if (off && ron.s && roff.s && ron.o && roff.o && ron.inter && roff.inter) {
		same = memcmp(ron.s, roff.s, 4 * h.ns) == 0 && memcmp(ron.o, roff.o, 2 * h.no) == 0 &&
		       memcmp(ron.inter, roff.inter, 4 * h.ninter) == 0;
		printf("%s %s %s: state, outputs and intermediate states bitwise %s %s\n",
		       same ? "PASS" : "FAIL", on->name, label, same ? "equal to" : "DIFFERENT from",
		       off->name);
		failed += !same;
	}
	result_free(&ron);
	result_free(&roff);
	dev_free(&d);
	host_free(&h);
	return failed;
}
