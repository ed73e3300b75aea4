/* case_rmsnorm.c: rmsnorm (y = x w / sqrt(mean(x^2) + eps) per row, bf16 in and out)
 * against a double reference. case_rmsnorm_rows.c includes this file with KNAME set to
 * test rmsnorm_rows, the warp-per-row variant, the same way.
 *
 * Threshold 1e-2 with floor 1e-6 (docs/testing.md): the output is rounded once to bf16
 * (relative error <= 2^-8 = 3.9e-3); the f32 sum of squares of a row of N terms adds at
 * most about (N / 1024 + 13) * 2^-24 relative (each thread's sequential share, then the
 * shuffle and warp trees), halved by the square root, and rsqrt.approx ~2^-22: together
 * below 1e-5 for the sizes tested. The products are multiplicative, so the error is
 * relative everywhere; the floor only guards 0 / 0. */
#include "gputest.h"

#ifndef KNAME
#define KNAME rmsnorm
#include "rmsnorm.h"
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

#define FLOOR 1e-6
#define THRESHOLD 1e-2
#define EPS 1e-5f

struct GtCase {
	const GtDev *g;
	int64_t shape[2], wshape[1];
	size_t m, n;
	uint16_t *x, *w;
	double *ref;
	GtBuf dx, dw, dy;
	CAT(KNAME, _args) args;
};

static void
destroy(GtCase *c)
{
	if (!c)
		return;
	gt_buf_free(&c->dx);
	gt_buf_free(&c->dw);
	gt_buf_free(&c->dy);
	free(c->x);
	free(c->w);
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
	c->wshape[0] = dims[1];
	c->m = (size_t)dims[0];
	c->n = (size_t)dims[1];
	c->x = malloc(c->m * c->n * 2);
	c->w = malloc(c->n * 2);
	c->ref = malloc(c->m * c->n * sizeof *c->ref);
	if (!c->x || !c->w || !c->ref || gt_buf_alloc(&c->dx, c->m * c->n * 2, NAME " x") ||
	    gt_buf_alloc(&c->dw, c->n * 2, NAME " w") ||
	    gt_buf_alloc(&c->dy, c->m * c->n * 2, NAME " y")) {
		printf("FAIL %s M=%zu N=%zu: allocation failed\n", NAME, c->m, c->n);
		destroy(c);
		return NULL;
	}
	gt_tensor(&c->args.x, g, &c->dx, CAKE_DTYPE_BFLOAT, 16, 2, c->shape);
	gt_tensor(&c->args.w, g, &c->dw, CAKE_DTYPE_BFLOAT, 16, 1, c->wshape);
	gt_tensor(&c->args.y, g, &c->dy, CAKE_DTYPE_BFLOAT, 16, 2, c->shape);
	c->args.eps = EPS;
	return c;
}

static int
fill(GtCase *c, uint64_t seed, CUstream s)
{
	GtRng r;
	size_t i, j;

	gt_rng_seed(&r, seed);
	for (j = 0; j < c->n; j++)
		c->w[j] = gt_bf16_from_float((float)gt_rng_uniform(&r, 0.25, 2.0));
	for (i = 0; i < c->m; i++) {
		/* rows of different scales, so that a row mixed up with another shows */
		double scale = gt_rng_uniform(&r, 0.1, 4.0), ss = 0.0, inv;
		const uint16_t *x = c->x + i * c->n;

		for (j = 0; j < c->n; j++) {
			double v;

			c->x[i * c->n + j] = gt_bf16_from_float((float)gt_rng_uniform(&r, -scale, scale));
			v = gt_bf16_to_float(x[j]);
			ss += v * v;
		}
		inv = 1.0 / sqrt(ss / (double)c->n + (double)EPS);
		for (j = 0; j < c->n; j++)
			c->ref[i * c->n + j] = (double)gt_bf16_to_float(x[j]) * inv *
					       (double)gt_bf16_to_float(c->w[j]);
	}
	return gt_buf_poison(&c->dx, s, NAME " x") || gt_buf_poison(&c->dw, s, NAME " w") ||
	       gt_buf_poison(&c->dy, s, NAME " y") ||
	       gt_buf_upload(&c->dx, c->x, s, NAME " x") ||
	       gt_buf_upload(&c->dw, c->w, s, NAME " w");
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
	inputs &= memcmp(p, c->x, c->m * c->n * 2) == 0;
	if (!(p = gt_fetch(&c->dw, s, NAME " w", &guards)))
		return 1;
	inputs &= memcmp(p, c->w, c->n * 2) == 0;
	if (!(p = gt_fetch(&c->dy, s, NAME " y", &guards)))
		return 1;
	gt_cmp_init(&cmp, FLOOR, THRESHOLD);
	gt_cmp_bf16(&cmp, p, c->ref, c->m * c->n);
	return gt_report(NAME, what, &cmp, guards, inputs);
}

const GtKernel CAT(gt_, KNAME) = {NAME, 2, create, fill, launch, check, destroy};
