/* case_gemm_bf16.c: gemm_bf16 (C[M, N] = A[M, K] . B[N, K]^T, bf16 in and out, f32
 * accumulation; kernels_src/gemm) against a double reference. case_gemm_f16.c,
 * case_gemm_bf16_f32.c and case_gemm_f16_f32.c include this file with KNAME, GEMM_IN_F16
 * and GEMM_OUT_F32 set to test the other three kernels of the family the same way.
 *
 * A and B are U(-1, 1) rounded to the input type (never 0), so C's entries have a
 * standard deviation of s = sqrt(K) / 3. The error of an element is
 * |got - ref| / max(|ref|, s) (floor s, as for sgemm_tiled; docs/testing.md says why not
 * the normwise max |c - ref| / max |ref| of bench/gemm.py, which is printed beside it).
 * Threshold u_out + K 2^-20: u_out is the output's rounding (2^-8 bf16, 2^-11 fp16, 0 f32),
 * relative to |ref| where |ref| >= s and below u_out s where it is smaller; K 2^-20 bounds
 * the f32 accumulation of K exact products (bf16 and fp16 products are exact in f32),
 * even for an accumulator that truncates rather than rounds: under 1 ulp (2^-23 relative)
 * of a partial sum of at most about 3 s per step, K steps, i.e. 6 K 2^-24 of s, with a
 * margin. One dropped or doubled product (|a b| ~ 1/4) moves an element by 0.75 / sqrt(K)
 * of s, above the threshold for every K tested (at K = 4104 by 1.5 times with bf16
 * output, 3 times with f32).
 *
 * The gemm kernels are built for sm_90a only: another device is skipped. Their launchers
 * need K to be a multiple of 8 (TMA: rows of a multiple of 16 bytes); KNAME_main checks
 * that they say so, with no GPU needed.
 *
 * The Blackwell GEMMs (kernels_src/gemm/gemm_sm100.cake) are tested by the same code:
 * case_gemm_sm100_*.c set GEMM_SM to 100 (they run on sm_100 and sm_103, and against the
 * emulated driver with EMU_CC=100), and GEMM_IN_E4M3 makes the inputs e4m3 (one byte, K a
 * multiple of 16; values of U(-1, 1) rounded to e4m3, whose products are exact in f32 as
 * bf16's are, so the threshold is the same).
 *
 * The scaled fp8 GEMMs of Hopper (kernels_src/gemm/gemm_scaled.cake) set GEMM_SCALED too:
 * the launch takes scale_a and scale_b, one-element f32 tensors drawn from U(0.25, 2), and
 * the reference and the floor s are scaled by their product. Hopper's fp8 wgmma adds with
 * fewer bits than f32 (checks/check_wgmma_kinds.c), so the accumulation term of the
 * threshold is ACC_THR(K) = sqrt(K) 2^-12 there instead of K 2^-20 (gemm_scaled.cake
 * states it as the kernel's bound): the H200 measured up to 1.45e-4 sqrt(K) (f32 output,
 * K = 144 to 4112). That is below what one dropped product moves an element by (0.75 / sqrt(K)) up to
 * K = 3072, and far below a lost K block (128 products, 8.5 / sqrt(K)) at every K.
 *
 * GEMM_EPI (gemm_bias_*: C = A B^T + bias + res) adds a bias row and a residual, both
 * drawn as A and B are, to the reference; the kernel adds them in f32 before C's rounding,
 * so the threshold is unchanged (two more f32 roundings, 2^-23 of |ref| each). Both are
 * optional (a tensor with no elements and NULL data: docs/gemm.md); which ones a case
 * passes follows from its M + N (epi_mode below), so that a test's sizes cover all four.
 *
 * GEMM_RERUN (the split-K kernels gemm_sk*) launches each case a second time into the
 * re-poisoned C and requires the same bytes: the partial sums are added in a fixed order,
 * so the results must be identical run to run.
 *
 * GEMM_STK (gemm_stk_*: stream-K) passes the workspace, ws f32[STK_P, 128, 256] (poisoned:
 * every slot a finisher reads must have been written first) and sync i32[2 + 256 STK_P], zeroed
 * once when the case is made; after every launch sync must be zero again. The sizes run
 * with STK_P = 160 slots, more than any GPU's SMs, so that the grid is the SMs (long chains
 * of CTAs on one tile at the small sizes), and the small ones again with 5, a grid of 5
 * CTAs that each hold the ends of two tiles and whole tiles between. */
#include "gputest.h"

#ifdef GEMM_STK
static int stk_p = 160;         /* the workspace's slots (P), the grid's bound */
#endif

#ifndef KNAME
#define KNAME gemm_bf16
#include "gemm_bf16.h"
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(a) #a
#define STR(a) STR_(a)
#define NAME STR(KNAME)

#ifndef GEMM_SM
#define GEMM_SM 90
#endif

#if defined(GEMM_IN_E4M3)
#define IN_CODE CAKE_DTYPE_FLOAT8_E4M3FN
#define IN_NAME "e4m3"
#define IN_BYTES 1
#define K_MULTIPLE 16
typedef uint8_t in_bits;
#elif defined(GEMM_IN_F16)
#define IN_CODE CAKE_DTYPE_FLOAT
#define IN_NAME "f16"
#else
#define IN_CODE CAKE_DTYPE_BFLOAT
#define IN_NAME "bf16"
#endif
#ifdef GEMM_SCALED
#define ACC_THR(k) (sqrt((double)(k)) * 0x1p-12)
#else
#define ACC_THR(k) ldexp((double)(k), -20)
#endif
#ifndef IN_BYTES
#define IN_BYTES 2
#define K_MULTIPLE 8
typedef uint16_t in_bits;
#endif
#if defined(GEMM_OUT_F32)
#define OUT_CODE CAKE_DTYPE_FLOAT
#define OUT_BYTES 4
#define OUT_ROUND 0.0
#elif defined(GEMM_IN_F16)
#define OUT_CODE CAKE_DTYPE_FLOAT
#define OUT_BYTES 2
#define OUT_ROUND 0x1p-11
#else
#define OUT_CODE CAKE_DTYPE_BFLOAT
#define OUT_BYTES 2
#define OUT_ROUND 0x1p-8
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- fp16 (IEEE binary16) ---- */

#ifdef GEMM_IN_F16
/* Round to nearest even; for the inputs' range (|x| < 1) only: no overflow. */
static uint16_t
f16_from_double(double x)
{
	uint16_t sign = x < 0 ? 0x8000 : 0;
	double a = fabs(x), q;
	int e;

	if (a < 0x1p-14) {
		q = nearbyint(a * 0x1p24);              /* subnormal: units of 2^-24 */
		return (uint16_t)(sign | (uint16_t)q);
	}
	frexp(a, &e);                                   /* a = f 2^e, f in [0.5, 1) */
	q = nearbyint(ldexp(a, 11 - e));                /* 11 significant bits */
	if (q >= 2048.0) {
		q /= 2.0;
		e++;
	}
	return (uint16_t)(sign | (uint16_t)((e + 14) << 10) | ((uint16_t)q & 0x3ff));
}
#endif

#ifdef GEMM_IN_E4M3
/* e4m3 (OCP, bias 7): the value of a byte, and x rounded to nearest even; for the inputs'
 * range (|x| < 1) only: no overflow, subnormals below 2^-6 in steps of 2^-9. */
static double
e4m3_to_double(uint8_t b)
{
	int e = (b >> 3) & 0xf, m = b & 7;
	double v = e ? ldexp((double)(8 | m), e - 10) : ldexp((double)m, -9);

	return (b & 0x80) ? -v : v;
}

static uint8_t
e4m3_from_double(double x)
{
	double a = fabs(x), q;
	int e;

	frexp(a, &e);           /* a = f 2^e, f in [0.5, 1) */
	e = e - 1 < -6 ? -6 : e - 1;
	q = nearbyint(ldexp(a, 3 - e));   /* 3 mantissa bits at exponent e */
	a = ldexp(q, e - 3);
	frexp(a, &e);
	e -= 1;
	return (uint8_t)((x < 0 ? 0x80 : 0) |
			 (a < 0x1p-6 ? (int)ldexp(a, 9) : (e + 7) << 3 | ((int)ldexp(a, 3 - e) & 7)));
}
#endif

/* An input element: a draw from U(-1, 1) rounded to the input type, never 0. */
static in_bits
draw_in(GtRng *r, double *value)
{
	in_bits h;

	do {
#if defined(GEMM_IN_E4M3)
		h = e4m3_from_double(gt_rng_uniform(r, -1.0, 1.0));
		*value = e4m3_to_double(h);
#elif defined(GEMM_IN_F16)
		h = f16_from_double(gt_rng_uniform(r, -1.0, 1.0));
		*value = gt_f16_to_double(h);
#else
		h = gt_bf16_from_float((float)gt_rng_uniform(r, -1.0, 1.0));
		*value = gt_bf16_to_float(h);
#endif
	} while (*value == 0.0);
	return h;
}

#if defined(GEMM_IN_F16) && OUT_BYTES == 2
/* Adds n fp16 outputs (poison: all bits set, a NaN). */
static void
cmp_f16(GtCmp *c, const unsigned char *data, const double *ref, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint16_t h;

		memcpy(&h, data + 2 * i, 2);
		gt_cmp_add(c, i, gt_f16_to_double(h), ref[i], h == 0xffffu);
	}
}
#endif

static double
out_value(const unsigned char *data, size_t i)
{
#if OUT_BYTES == 4
	float f;

	memcpy(&f, data + 4 * i, 4);
	return f;
#else
	uint16_t h;

	memcpy(&h, data + 2 * i, 2);
#ifdef GEMM_IN_F16
	return gt_f16_to_double(h);
#else
	return gt_bf16_to_float(h);
#endif
#endif
}

struct GtCase {
	const GtDev *g;
	int64_t ashape[2], bshape[2], cshape[2];
	size_t m, n, k;
	in_bits *a, *b;         /* the inputs' bits */
	double *ad, *bd;        /* and their values */
	double *ref;
	GtBuf da, db, dc;
#ifdef GEMM_SCALED
	GtBuf dsa, dsb;
	int64_t sshape[1];
	float sa, sb;
#endif
	double scale;           /* sa sb (1 unscaled) */
#ifdef GEMM_EPI
	GtBuf dbias, dres;
	int64_t bshape1[1], rshape[2];
	in_bits *bias, *res;
	int has_bias, has_res;
#endif
#ifdef GEMM_STK
	GtBuf dws, dsync;
	int64_t wshape[3], sshape1[1];
#endif
	CAT(KNAME, _args) args;
};

static void
destroy(GtCase *c)
{
	if (!c)
		return;
	gt_buf_free(&c->da);
	gt_buf_free(&c->db);
	gt_buf_free(&c->dc);
#ifdef GEMM_STK
	gt_buf_free(&c->dws);
	gt_buf_free(&c->dsync);
#endif
#ifdef GEMM_SCALED
	gt_buf_free(&c->dsa);
	gt_buf_free(&c->dsb);
#endif
#ifdef GEMM_EPI
	gt_buf_free(&c->dbias);
	gt_buf_free(&c->dres);
	free(c->bias);
	free(c->res);
#endif
	free(c->a);
	free(c->b);
	free(c->ad);
	free(c->bd);
	free(c->ref);
	free(c);
}

#ifdef GEMM_EPI
/* The addends a case passes, from (M + N) % 4: 0 bias and residual, 1 the bias alone, 2 the
 * residual alone, 3 neither (printed with the case's result). */
static void
epi_mode(GtCase *c)
{
	int mode = (int)((c->m + c->n) % 4);

	c->has_bias = mode == 0 || mode == 1;
	c->has_res = mode == 0 || mode == 2;
	printf("%s M=%zu N=%zu K=%zu: %s\n", NAME, c->m, c->n, c->k,
	       c->has_bias ? (c->has_res ? "bias and residual" : "bias alone")
			   : (c->has_res ? "residual alone" : "neither bias nor residual"));
}
#endif

static GtCase *
create(const GtDev *g, const int64_t *dims)
{
	GtCase *c = calloc(1, sizeof *c);
	int bad;

	if (!c)
		return NULL;
	c->g = g;
	c->m = (size_t)dims[0];
	c->n = (size_t)dims[1];
	c->k = (size_t)dims[2];
	c->ashape[0] = dims[0];
	c->ashape[1] = dims[2];
	c->bshape[0] = dims[1];
	c->bshape[1] = dims[2];
	c->cshape[0] = dims[0];
	c->cshape[1] = dims[1];
	c->a = malloc(c->m * c->k * IN_BYTES);
	c->b = malloc(c->n * c->k * IN_BYTES);
	c->ad = malloc(c->m * c->k * sizeof *c->ad);
	c->bd = malloc(c->n * c->k * sizeof *c->bd);
	c->ref = malloc(c->m * c->n * sizeof *c->ref);
	bad = !c->a || !c->b || !c->ad || !c->bd || !c->ref ||
	      gt_buf_alloc(&c->da, c->m * c->k * IN_BYTES, NAME " A") ||
	      gt_buf_alloc(&c->db, c->n * c->k * IN_BYTES, NAME " B") ||
	      gt_buf_alloc(&c->dc, c->m * c->n * OUT_BYTES, NAME " C");
#ifdef GEMM_STK
	bad = bad || gt_buf_alloc(&c->dws, (size_t)stk_p * 128 * 256 * 4, NAME " ws") ||
	      gt_buf_alloc(&c->dsync, (2 + (size_t)stk_p * 256) * 4, NAME " sync");
#endif
#ifdef GEMM_SCALED
	bad = bad || gt_buf_alloc(&c->dsa, 4, NAME " scale_a") || gt_buf_alloc(&c->dsb, 4, NAME " scale_b");
#endif
#ifdef GEMM_EPI
	c->bias = malloc(c->n * IN_BYTES);
	c->res = malloc(c->m * c->n * IN_BYTES);
	bad = bad || !c->bias || !c->res || gt_buf_alloc(&c->dbias, c->n * IN_BYTES, NAME " bias") ||
	      gt_buf_alloc(&c->dres, c->m * c->n * IN_BYTES, NAME " res");
#endif
	if (bad) {
		printf("FAIL %s M=%zu N=%zu K=%zu: allocation failed\n", NAME, c->m, c->n, c->k);
		destroy(c);
		return NULL;
	}
	gt_tensor(&c->args.a, g, &c->da, IN_CODE, IN_BYTES * 8, 2, c->ashape);
	gt_tensor(&c->args.b, g, &c->db, IN_CODE, IN_BYTES * 8, 2, c->bshape);
	gt_tensor(&c->args.c, g, &c->dc, OUT_CODE, OUT_BYTES * 8, 2, c->cshape);
	c->scale = 1.0;
#ifdef GEMM_STK
	c->wshape[0] = stk_p;
	c->wshape[1] = 128;
	c->wshape[2] = 256;
	c->sshape1[0] = 2 + (int64_t)stk_p * 256;
	gt_tensor(&c->args.ws, g, &c->dws, CAKE_DTYPE_FLOAT, 32, 3, c->wshape);
	gt_tensor(&c->args.sync, g, &c->dsync, CAKE_DTYPE_INT, 32, 1, c->sshape1);
#endif
#ifdef GEMM_SCALED
	c->sshape[0] = 1;
	gt_tensor(&c->args.scale_a, g, &c->dsa, CAKE_DTYPE_FLOAT, 32, 1, c->sshape);
	gt_tensor(&c->args.scale_b, g, &c->dsb, CAKE_DTYPE_FLOAT, 32, 1, c->sshape);
#endif
#ifdef GEMM_EPI
	epi_mode(c);
	c->bshape1[0] = c->has_bias ? dims[1] : 0;
	c->rshape[0] = c->has_res ? dims[0] : 0;
	c->rshape[1] = c->has_res ? dims[1] : 0;
	gt_tensor(&c->args.bias, g, &c->dbias, IN_CODE, IN_BYTES * 8, 1, c->bshape1);
	gt_tensor(&c->args.res, g, &c->dres, IN_CODE, IN_BYTES * 8, 2, c->rshape);
	if (!c->has_bias)
		c->args.bias.data = NULL;       /* no elements: NULL data is allowed */
	if (!c->has_res)
		c->args.res.data = NULL;
#endif
	return c;
}

/* sum_p a[p] b[p] in double, four partial sums (exact enough: 2^-53 per step). */
static double
dot(const double *a, const double *b, size_t k)
{
	double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
	size_t p = 0;

	for (; p + 4 <= k; p += 4) {
		s0 += a[p] * b[p];
		s1 += a[p + 1] * b[p + 1];
		s2 += a[p + 2] * b[p + 2];
		s3 += a[p + 3] * b[p + 3];
	}
	for (; p < k; p++)
		s0 += a[p] * b[p];
	return (s0 + s1) + (s2 + s3);
}

static int
fill(GtCase *c, uint64_t seed, CUstream s)
{
	GtRng r;
	size_t i, j;

	gt_rng_seed(&r, seed);
	for (i = 0; i < c->m * c->k; i++)
		c->a[i] = draw_in(&r, &c->ad[i]);
	for (i = 0; i < c->n * c->k; i++)
		c->b[i] = draw_in(&r, &c->bd[i]);
#ifdef GEMM_SCALED
	c->sa = (float)gt_rng_uniform(&r, 0.25, 2.0);
	c->sb = (float)gt_rng_uniform(&r, 0.25, 2.0);
	c->scale = (double)c->sa * c->sb;
	if (gt_buf_upload(&c->dsa, &c->sa, s, NAME " scale_a") || gt_buf_upload(&c->dsb, &c->sb, s, NAME " scale_b"))
		return 1;
#endif
	/* both operands are K-major: each element is a dot product of two contiguous rows */
	for (i = 0; i < c->m; i++)
		for (j = 0; j < c->n; j++)
			c->ref[i * c->n + j] = c->scale * dot(c->ad + i * c->k, c->bd + j * c->k, c->k);
#ifdef GEMM_EPI
	{
		double v, *bv = malloc(c->n * sizeof *bv);

		if (!bv)
			return 1;
		for (j = 0; j < c->n; j++) {
			c->bias[j] = draw_in(&r, &v);
			bv[j] = c->has_bias ? v : 0.0;
		}
		for (i = 0; i < c->m; i++)
			for (j = 0; j < c->n; j++) {
				c->res[i * c->n + j] = draw_in(&r, &v);
				c->ref[i * c->n + j] += bv[j] + (c->has_res ? v : 0.0);
			}
		free(bv);
		if (gt_buf_poison(&c->dbias, s, NAME " bias") || gt_buf_upload(&c->dbias, c->bias, s, NAME " bias") ||
		    gt_buf_poison(&c->dres, s, NAME " res") || gt_buf_upload(&c->dres, c->res, s, NAME " res"))
			return 1;
	}
#endif
#ifdef GEMM_STK
	{
		int *zero = calloc(2 + (size_t)stk_p * 256, sizeof *zero);
		int bad = !zero || gt_buf_poison(&c->dws, s, NAME " ws") || gt_buf_poison(&c->dsync, s, NAME " sync") ||
			  gt_buf_upload(&c->dsync, zero, s, NAME " sync");

		free(zero);
		if (bad)
			return 1;
	}
#endif
	return gt_buf_poison(&c->da, s, NAME " A") || gt_buf_poison(&c->db, s, NAME " B") ||
	       gt_buf_poison(&c->dc, s, NAME " C") || gt_buf_upload(&c->da, c->a, s, NAME " A") ||
	       gt_buf_upload(&c->db, c->b, s, NAME " B");
}

static int
launch(GtCase *c, CUstream s, CakeError *err)
{
	return CAT(KNAME, _launch)(&c->args, s, err);
}

#ifdef GEMM_STK
/* Stream-K's finishers clear the flags they waited for: sync must be zero after a call
 * (the next call relies on it). Prints a FAIL line and gives 1 otherwise. */
static int
sync_left_zero(GtCase *c, CUstream s)
{
	const unsigned char *z;
	size_t i, bytes = (2 + (size_t)stk_p * 256) * 4, set = 0;
	int guards = 1;

	if (!(z = gt_fetch(&c->dsync, s, NAME " sync", &guards)))
		return 1;
	for (i = 0; i < bytes; i++)
		set += z[i] != 0;
	if (set || !guards)
		printf("FAIL %s M=%zu N=%zu K=%zu: %s after the call\n", NAME, c->m, c->n, c->k,
		       guards ? "sync is not zero" : "a guard of sync changed");
	return set || !guards;
}
#endif

#ifdef GEMM_RERUN
/* Split-K must give the same bits on every run (issue 13): launches again into the
 * re-poisoned C and compares the bytes with the first run's (first: the bytes fetched).
 * Prints a PASS/FAIL line; 0 when identical. */
static int
rerun_identical(GtCase *c, CUstream s, const unsigned char *first, const char *what)
{
	size_t bytes = c->m * c->n * OUT_BYTES, i;
	unsigned char *keep = malloc(bytes);
	const unsigned char *p;
	CakeError err;
	int guards = 1;

	if (!keep) {
		printf("FAIL %s %s rerun: out of host memory\n", NAME, what);
		return 1;
	}
	memcpy(keep, first, bytes);
	if (gt_buf_poison(&c->dc, s, NAME " C") || launch(c, s, &err) != CAKE_OK ||
	    !(p = gt_fetch(&c->dc, s, NAME " C", &guards))) {
		printf("FAIL %s %s rerun: the second launch failed\n", NAME, what);
		free(keep);
		return 1;
	}
	for (i = 0; i < bytes && p[i] == keep[i]; i++)
		;
	if (i < bytes || !guards)
		printf("FAIL %s %s rerun: %s (first differing byte %zu of %zu)\n", NAME, what,
		       guards ? "the second run's bits differ from the first's" : "a guard changed", i, bytes);
	else
		printf("PASS %s %s rerun: bitwise identical (%zu bytes)\n", NAME, what, bytes);
	free(keep);
	return i < bytes || !guards;
}
#endif

static int
check(GtCase *c, CUstream s, const char *label)
{
	const unsigned char *p;
	char what[200];
	int guards = 1, inputs = 1, stk = 0;
	double floor = c->scale * sqrt((double)c->k) / 3.0, dmax = 0.0, rmax = 0.0;
	size_t i;
	GtCmp cmp;

	if (!(p = gt_fetch(&c->da, s, NAME " A", &guards)))
		return 1;
	inputs &= memcmp(p, c->a, c->m * c->k * IN_BYTES) == 0;
	if (!(p = gt_fetch(&c->db, s, NAME " B", &guards)))
		return 1;
	inputs &= memcmp(p, c->b, c->n * c->k * IN_BYTES) == 0;
	if (!(p = gt_fetch(&c->dc, s, NAME " C", &guards)))
		return 1;
	gt_cmp_init(&cmp, floor, OUT_ROUND + ACC_THR(c->k));
#if OUT_BYTES == 4
	gt_cmp_f32(&cmp, p, c->ref, c->m * c->n);
#elif defined(GEMM_IN_F16)
	cmp_f16(&cmp, p, c->ref, c->m * c->n);
#else
	gt_cmp_bf16(&cmp, p, c->ref, c->m * c->n);
#endif
#ifdef GEMM_STK
	stk = sync_left_zero(c, s);
#endif
	/* bench/gemm.py's normwise error, for comparison with its runs */
	for (i = 0; i < c->m * c->n; i++) {
		double v = out_value(p, i), d = isfinite(v) ? fabs(v - c->ref[i]) : INFINITY;

		dmax = d > dmax ? d : dmax;
		rmax = fabs(c->ref[i]) > rmax ? fabs(c->ref[i]) : rmax;
	}
	snprintf(what, sizeof what, "M=%zu N=%zu K=%zu%s%s (normwise %.2e)", c->m, c->n, c->k,
		 *label ? " " : "", label, rmax > 0.0 ? dmax / rmax : dmax);
#ifdef GEMM_RERUN
	{
		int failed = gt_report(NAME, what, &cmp, guards, inputs);

		snprintf(what, sizeof what, "M=%zu N=%zu K=%zu%s%s", c->m, c->n, c->k, *label ? " " : "", label);
		return rerun_identical(c, s, p, what) | failed | stk;
	}
#else
	return gt_report(NAME, what, &cmp, guards, inputs) | stk;
#endif
}

const GtKernel CAT(gt_, KNAME) = {NAME, 3, create, fill, launch, check, destroy};

/* Arguments for a launcher's argument checks: A (ash), B (bsh) and C (csh) at 16-byte
 * aligned stand-in addresses that nothing reads, with the kernel's dtypes. */
static void
stand_in_args(CAT(KNAME, _args) *args, int64_t *ash, int64_t *bsh, int64_t *csh)
{
	memset(args, 0, sizeof *args);
	gt_stand_in(&args->a, 0x100000, ash, 2, IN_CODE, IN_BYTES * 8);
	gt_stand_in(&args->b, 0x200000, bsh, 2, IN_CODE, IN_BYTES * 8);
	gt_stand_in(&args->c, 0x300000, csh, 2, OUT_CODE, OUT_BYTES * 8);
#ifdef GEMM_EPI
	gt_stand_in(&args->bias, 0x400000, bsh, 1, IN_CODE, IN_BYTES * 8);
	gt_stand_in(&args->res, 0x500000, csh, 2, IN_CODE, IN_BYTES * 8);
#endif
#ifdef GEMM_SCALED
	{
		static int64_t one[1] = {1};

		gt_stand_in(&args->scale_a, 0x400000, one, 1, CAKE_DTYPE_FLOAT, 32);
		gt_stand_in(&args->scale_b, 0x500000, one, 1, CAKE_DTYPE_FLOAT, 32);
	}
#endif
#ifdef GEMM_STK
	{
		static int64_t wsh[3] = {160, 128, 256}, ssh[1] = {2 + 160 * 256};

		gt_stand_in(&args->ws, 0x10000000, wsh, 3, CAKE_DTYPE_FLOAT, 32);
		gt_stand_in(&args->sync, 0x20000000, ssh, 1, CAKE_DTYPE_INT, 32);
	}
#endif
}

#ifdef GEMM_EPI
/* The addends are the whole bias row and residual or none: a bias of N - 1 elements, a
 * residual of M x (N - 1) and one of 0 x N are refused with CAKE_ERR_SHAPE naming the
 * kernel's requires(...) (no driver needed: the launcher checks it before it asks the
 * device for its SM count), or, where the residual has a tensor map, its odd rows with
 * CAKE_ERR_STRIDE; the four legal combinations are not refused. */
static int
check_epi_rejected(void)
{
	int64_t ash[2] = {3, 64}, bsh[2] = {8, 64}, csh[2] = {3, 8}, grid[3];
	int64_t bias7[1] = {7}, bias0[1] = {0}, res37[2] = {3, 7}, res08[2] = {0, 8}, res00[2] = {0, 0};
	struct { const char *what; int64_t *bias, *res; int bad; } cs[] = {
		{"bias of 7 for N = 8", bias7, csh, 1},
		{"residual 3 x 7 for 3 x 8", bsh, res37, 1},
		{"residual 0 x 8", bsh, res08, 1},
		{"bias and residual", bsh, csh, 0},
		{"no bias", bias0, csh, 0},
		{"no residual", bsh, res00, 0},
		{"neither", bias0, res00, 0},
	};
	int i, failed = 0;

	for (i = 0; i < (int)(sizeof cs / sizeof cs[0]); i++) {
		CAT(KNAME, _args) args;
		CakeError err;
		int rc, ok;

		stand_in_args(&args, ash, bsh, csh);
		args.bias.shape = cs[i].bias;
		args.res.shape = cs[i].res;
		rc = CAT(KNAME, _grid)(&args, grid, &err);
		/* the legal ones get as far as the grid (CAKE_ERR_CONTEXT before a context exists) */
		ok = cs[i].bad ? (rc == CAKE_ERR_SHAPE && strstr(err.msg, "requires") != NULL) ||
				 (rc == CAKE_ERR_STRIDE && strstr(err.msg, "parameter 'res'") != NULL)
			       : rc == CAKE_OK || rc == CAKE_ERR_CONTEXT;
		printf("%s %s %s: %s%s\n", ok ? "PASS" : "FAIL", NAME, cs[i].what,
		       cs[i].bad ? "" : "not refused: ", cs[i].bad ? err.msg : cakert_status_name(rc));
		failed += !ok;
	}
	return failed;
}
#endif

/* The launcher refuses K that is not a multiple of 8 (A's and B's rows would not be a
 * multiple of 16 bytes, which TMA needs) with CAKE_ERR_STRIDE and a message that says so;
 * K = 104 passes that check. Argument checks need no driver: the tensors' addresses are
 * 16-byte aligned stand-ins that nothing reads. N is 5, or 8 for the kernels that store C
 * by TMA (GEMM_TMA_C), which need it a multiple of 8 too: for them one more case, N = 5
 * and K = 112 (a multiple of 16, as e4m3 rows need), must be refused for C's rows. */
#ifdef GEMM_TMA_C
#define CHECK_N 8
#else
#define CHECK_N 5
#endif
static int
check_k_rejected(void)
{
	static const int64_t ks[] = {100, 4, 1, 104};
	int i, failed = 0;

	for (i = 0; i < (int)(sizeof ks / sizeof ks[0]); i++) {
		int64_t ash[2] = {3, ks[i]}, bsh[2] = {CHECK_N, ks[i]}, csh[2] = {3, CHECK_N}, grid[3];
		int bad_k = ks[i] % K_MULTIPLE != 0, rc, ok;
		CAT(KNAME, _args) args;
		CakeError err;

		stand_in_args(&args, ash, bsh, csh);
		rc = CAT(KNAME, _grid)(&args, grid, &err);
		if (bad_k) {
			ok = rc == CAKE_ERR_STRIDE &&
			     strstr(err.msg, "K must be a multiple of " STR(K_MULTIPLE) " for " IN_NAME) != NULL;
			printf("%s %s K=%lld: %s: %s: %s\n", ok ? "PASS" : "FAIL", NAME, (long long)ks[i],
			       ok ? "rejected" : "expected CAKE_ERR_STRIDE saying K must be a multiple of 8, got",
			       cakert_status_name(rc), err.msg);
		} else {
			ok = rc != CAKE_ERR_STRIDE;
			printf("%s %s K=%lld: not rejected for its stride (%s)\n", ok ? "PASS" : "FAIL",
			       NAME, (long long)ks[i], cakert_status_name(rc));
		}
		failed += !ok;
	}
#ifdef GEMM_TMA_C
	{
		int64_t ash[2] = {3, 112}, bsh[2] = {5, 112}, csh[2] = {3, 5}, grid[3];
		CAT(KNAME, _args) args;
		CakeError err;
		int rc, ok;

		stand_in_args(&args, ash, bsh, csh);
		rc = CAT(KNAME, _grid)(&args, grid, &err);
		ok = rc == CAKE_ERR_STRIDE && strstr(err.msg, "parameter 'c'") != NULL &&
		     strstr(err.msg, "N must be a multiple of 8") != NULL;
		printf("%s %s N=5: %s: %s: %s\n", ok ? "PASS" : "FAIL", NAME,
		       ok ? "rejected" : "expected CAKE_ERR_STRIDE for c saying N must be a multiple of 8, got",
		       cakert_status_name(rc), err.msg);
		failed += !ok;
	}
#endif
#ifdef GEMM_EPI
	failed += check_epi_rejected();
#endif
	return failed;
}

/* The test program: the K check, then sizes[0..n) on device 0 when it is one the kernel is
 * built for: an sm_90 (GEMM_SM 90), or an sm_100 or sm_103 (GEMM_SM 100). */
int
CAT(KNAME, _test_main)(const GtSize *sizes, int n)
{
	const CakertDriver *cu;
	int failed = check_k_rejected(), count = 0, major = 0, minor = 0, rc;
	CUdevice dev;

	cu = cakert_driver();
	if (cu && cu->device_get_count(&count) == CUDA_SUCCESS && count > 0 &&
	    cu->device_get(&dev, 0) == CUDA_SUCCESS &&
	    cu->device_get_attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev) == CUDA_SUCCESS &&
	    cu->device_get_attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev) == CUDA_SUCCESS &&
	    (GEMM_SM == 90 ? major != 9 || minor != 0 : major != 10)) {
		printf("SKIPPED: %s: device 0 is sm_%d%d; the kernel is built for %s only\n",
		       NAME, major, minor, GEMM_SM == 90 ? "sm_90a" : "sm_100a and sm_103a");
		if (failed)
			return 1;
		/* a device of the other generation runs the other tests: not a broken set-up, so
		 * not a failure under CAKE_GPU_TEST_REQUIRE (the NOTE reaches run_gpu.sh's summary) */
		if (major == 10 || major == 9) {
			printf("NOTE %s: not run on sm_%d%d\n", NAME, major, minor);
			return 0;
		}
		return gt_skip_status();
	}
	rc = gt_run_sizes(&CAT(gt_, KNAME), sizes, n);
#ifdef GEMM_STK
	/* the small sizes again (the large ones would take seconds on 5 SMs) */
	stk_p = 5;
	for (count = 0; count < n && !sizes[count].large; count++)
		;
	printf("%s: the small sizes again with a workspace of 5 slots (a grid of 5 CTAs)\n", NAME);
	rc |= gt_run_sizes(&CAT(gt_, KNAME), sizes, count);
#endif
	return failed ? 1 : rc;
}
