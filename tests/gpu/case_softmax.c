/* case_softmax.c: softmax over the rows of an f32 matrix against a double reference.
 * case_softmax_rows.c includes this file with KNAME and ROWS_BOUND set to test
 * softmax_rows, the warp-per-row online variant, the same way.
 *
 * Threshold 2e-5 with floor 1e-15 (docs/testing.md). Inputs in U(-8, 8), so exponents
 * t = (x - max) log2 e lie in [-23.1, 0]. Per element: t is rounded once (<= 2^-20
 * absolute, 6.6e-7 relative after exp2), LOG2E's f32 rounding moves t by up to 1.4e-6
 * (1e-6 relative), ex2.approx is within 2 ulp; the f32 row sum adds at most about
 * (N / 256 + 16) * 2^-24 (4.8e-6 at N = 16385, the scalar path); the reciprocal and the
 * product a few ulp. About 7e-6 in the worst case, so 2e-5 keeps a margin of 3 while a
 * wrong or missing term is off by far more. Every output is at least e^-16 / N > 1e-12,
 * so the floor only guards 0 / 0 and the error is relative everywhere. */
#include "gputest.h"

#ifndef KNAME
#define KNAME softmax
#include "softmax.h"
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(a) #a
#define STR(a) STR_(a)
#define NAME STR(KNAME)

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLOOR 1e-15
#define THRESHOLD 2e-5

/* The threshold for rows of n elements: THRESHOLD, or for the online variant the
 * first-order bound of its per-lane sums where that is larger (see case_softmax_rows.c). */
static double
threshold(size_t n)
{
#ifdef ROWS_BOUND
	double bound = ROWS_BOUND(n);

	return bound > THRESHOLD ? bound : THRESHOLD;
#else
	(void)n;
	return THRESHOLD;
#endif
}

struct GtCase {
	const GtDev *g;
	int64_t shape[2];
	size_t m, n;
	float *x;
	double *ref;
	GtBuf dx, dy;
	CAT(KNAME, _args) args;
};

static void
destroy(GtCase *c)
{
	if (!c)
		return;
	gt_buf_free(&c->dx);
	gt_buf_free(&c->dy);
	free(c->x);
	free(c->ref);
	free(c);
}

static GtCase *
create(const GtDev *g, const int64_t *dims)
{
	GtCase *c = calloc(1, sizeof *c);

	if (!c)
		return NULL;
	c->g = g;
	c->shape[0] = dims[0];
	c->shape[1] = dims[1];
	c->m = (size_t)dims[0];
	c->n = (size_t)dims[1];
	c->x = malloc(c->m * c->n * 4);
	c->ref = malloc(c->m * c->n * sizeof *c->ref);
	if (!c->x || !c->ref || gt_buf_alloc(&c->dx, c->m * c->n * 4, NAME " x") ||
	    gt_buf_alloc(&c->dy, c->m * c->n * 4, NAME " y")) {
		printf("FAIL %s M=%zu N=%zu: allocation failed\n", NAME, c->m, c->n);
		destroy(c);
		return NULL;
	}
	gt_tensor(&c->args.x, g, &c->dx, CAKE_DTYPE_FLOAT, 32, 2, c->shape);
	gt_tensor(&c->args.y, g, &c->dy, CAKE_DTYPE_FLOAT, 32, 2, c->shape);
	return c;
}

static int
fill(GtCase *c, uint64_t seed, CUstream s)
{
	GtRng r;
	size_t i, j;

	gt_rng_seed(&r, seed);
	for (i = 0; i < c->m; i++) {
		const float *x = c->x + i * c->n;
		double *ref = c->ref + i * c->n;
		/* a per-row shift, so that rows differ in their maxima */
		double shift = gt_rng_uniform(&r, -4.0, 4.0), mx = -HUGE_VAL, sum = 0.0;

		for (j = 0; j < c->n; j++) {
			c->x[i * c->n + j] = (float)(shift + gt_rng_uniform(&r, -8.0, 8.0));
			if (x[j] > mx)
				mx = x[j];
		}
		for (j = 0; j < c->n; j++) {
			ref[j] = exp((double)x[j] - mx);
			sum += ref[j];
		}
		for (j = 0; j < c->n; j++)
			ref[j] /= sum;
	}
	return gt_buf_poison(&c->dx, s, NAME " x") || gt_buf_poison(&c->dy, s, NAME " y") ||
	       gt_buf_upload(&c->dx, c->x, s, NAME " x");
}

static int
launch(GtCase *c, CUstream s, CakeError *err)
{
	return CAT(KNAME, _launch)(&c->args, s, err);
}

static int
check(GtCase *c, CUstream s, const char *label)
{
	const unsigned char *p;
	char what[160];
	int guards = 1, inputs = 1;
	GtCmp cmp;

	snprintf(what, sizeof what, "M=%zu N=%zu%s%s", c->m, c->n, *label ? " " : "", label);
	if (!(p = gt_fetch(&c->dx, s, NAME " x", &guards)))
		return 1;
	inputs &= memcmp(p, c->x, c->m * c->n * 4) == 0;
	if (!(p = gt_fetch(&c->dy, s, NAME " y", &guards)))
		return 1;
	gt_cmp_init(&cmp, FLOOR, threshold(c->n));
	gt_cmp_f32(&cmp, p, c->ref, c->m * c->n);
	return gt_report(NAME, what, &cmp, guards, inputs);
}

const GtKernel CAT(gt_, KNAME) = {NAME, 2, create, fill, launch, check, destroy};
