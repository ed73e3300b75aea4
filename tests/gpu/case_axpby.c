/* case_axpby.c: axpby (y = a x + b y, f32) against a double reference.
 *
 * Threshold 1e-6 with floor 1 (docs/testing.md): x, y in U(-1, 1) and |a|, |b| <= 1.5,
 * so with or without contraction into an FMA the result carries at most two f32
 * roundings of terms no larger than 1.5 each: |error| <= 2 * 2^-24 * 3 = 3.6e-7. The
 * floor of 1 (the inputs' scale) keeps cancellation in a x + b y, where the reference
 * itself is tiny, from counting as error. */
#include "gputest.h"

#include "axpby.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLOOR 1.0
#define THRESHOLD 1e-6

struct GtCase {
	const GtDev *g;
	int64_t shape[1];
	size_t n;
	float *x, *y;           /* inputs (y before the kernel) */
	double *ref;
	GtBuf dx, dy;
	axpby_args args;
	int filled;
};

static void
destroy(GtCase *c)
{
	if (!c)
		return;
	gt_buf_free(&c->dx);
	gt_buf_free(&c->dy);
	free(c->x);
	free(c->y);
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
	c->n = (size_t)dims[0];
	c->x = malloc(c->n * sizeof *c->x);
	c->y = malloc(c->n * sizeof *c->y);
	c->ref = malloc(c->n * sizeof *c->ref);
	if (!c->x || !c->y || !c->ref || gt_buf_alloc(&c->dx, c->n * 4, "axpby x") ||
	    gt_buf_alloc(&c->dy, c->n * 4, "axpby y")) {
		printf("FAIL axpby n=%zu: allocation failed\n", c->n);
		destroy(c);
		return NULL;
	}
	gt_tensor(&c->args.x, g, &c->dx, CAKE_DTYPE_FLOAT, 32, 1, c->shape);
	gt_tensor(&c->args.y, g, &c->dy, CAKE_DTYPE_FLOAT, 32, 1, c->shape);
	return c;
}

static int
fill(GtCase *c, uint64_t seed, CUstream s)
{
	GtRng r;
	size_t i;

	gt_rng_seed(&r, seed);
	/* The scalars are drawn at the first fill only: a captured graph holds the launch's
	 * arguments by value, so later fills may change tensor contents, nothing else. */
	if (!c->filled) {
		c->args.a = (float)gt_rng_uniform(&r, -1.5, 1.5);
		c->args.b = (float)gt_rng_uniform(&r, -1.5, 1.5);
		c->filled = 1;
	}
	for (i = 0; i < c->n; i++) {
		c->x[i] = (float)gt_rng_uniform(&r, -1.0, 1.0);
		c->y[i] = (float)gt_rng_uniform(&r, -1.0, 1.0);
		c->ref[i] = (double)c->args.a * c->x[i] + (double)c->args.b * c->y[i];
	}
	/* y is inout: it cannot be poisoned, but its guards are */
	return gt_buf_poison(&c->dx, s, "axpby x") || gt_buf_poison(&c->dy, s, "axpby y") ||
	       gt_buf_upload(&c->dx, c->x, s, "axpby x") || gt_buf_upload(&c->dy, c->y, s, "axpby y");
}

static int
launch(GtCase *c, CUstream s, CakeError *err)
{
	return axpby_launch(&c->args, s, err);
}

static int
check(GtCase *c, CUstream s, const char *label)
{
	const unsigned char *px, *py;
	char what[160];
	int guards = 1, inputs = 1;
	GtCmp cmp;

	snprintf(what, sizeof what, "n=%zu a=%.9g b=%.9g%s%s", c->n, c->args.a, c->args.b,
		 *label ? " " : "", label);
	if (!(px = gt_fetch(&c->dx, s, "axpby x", &guards)))
		return 1;
	inputs = memcmp(px, c->x, c->n * 4) == 0;
	if (!(py = gt_fetch(&c->dy, s, "axpby y", &guards)))
		return 1;
	gt_cmp_init(&cmp, FLOOR, THRESHOLD);
	gt_cmp_f32(&cmp, py, c->ref, c->n);
	return gt_report("axpby", what, &cmp, guards, inputs);
}

const GtKernel gt_axpby = {"axpby", 1, create, fill, launch, check, destroy};
