/* case_sgemm_tiled.c: sgemm_tiled (C = A B, f32, row-major) against a double reference.
 *
 * Threshold 1e-6 * sqrt(K) with floor sqrt(K) (docs/testing.md). A and B are U(-1, 1), so
 * C's entries have a standard deviation of sqrt(K) / 3 and the floor is their scale: the
 * metric is the absolute error over sqrt(K) for all but the largest entries. The kernel
 * accumulates K products with f32 FMAs; the partial sums grow like sqrt(k) / 3, and the
 * rounding errors add up like a random walk to a standard deviation of about
 * 2^-24 K / 7, i.e. a metric of 2^-24 sqrt(K) / 7 per element, about 2^-24 sqrt(K) at
 * five standard deviations (the largest of a million entries). 1e-6 sqrt(K) is 17 times
 * that, while one dropped or doubled product (|a b| ~ 0.25) moves the metric by
 * 0.25 / sqrt(K), above the threshold for every K below 250000. */
#include "gputest.h"

#include "sgemm_tiled.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct GtCase {
	const GtDev *g;
	int64_t ashape[2], bshape[2], cshape[2];
	size_t m, n, k;
	float *a, *b;
	double *ref;
	GtBuf da, db, dc;
	sgemm_tiled_args args;
};

static void
destroy(GtCase *c)
{
	if (!c)
		return;
	gt_buf_free(&c->da);
	gt_buf_free(&c->db);
	gt_buf_free(&c->dc);
	free(c->a);
	free(c->b);
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
	c->m = (size_t)dims[0];
	c->n = (size_t)dims[1];
	c->k = (size_t)dims[2];
	c->ashape[0] = dims[0];
	c->ashape[1] = dims[2];
	c->bshape[0] = dims[2];
	c->bshape[1] = dims[1];
	c->cshape[0] = dims[0];
	c->cshape[1] = dims[1];
	c->a = malloc(c->m * c->k * 4);
	c->b = malloc(c->k * c->n * 4);
	c->ref = malloc(c->m * c->n * sizeof *c->ref);
	if (!c->a || !c->b || !c->ref || gt_buf_alloc(&c->da, c->m * c->k * 4, "sgemm_tiled A") ||
	    gt_buf_alloc(&c->db, c->k * c->n * 4, "sgemm_tiled B") ||
	    gt_buf_alloc(&c->dc, c->m * c->n * 4, "sgemm_tiled C")) {
		printf("FAIL sgemm_tiled M=%zu N=%zu K=%zu: allocation failed\n", c->m, c->n, c->k);
		destroy(c);
		return NULL;
	}
	gt_tensor(&c->args.A, g, &c->da, CAKE_DTYPE_FLOAT, 32, 2, c->ashape);
	gt_tensor(&c->args.B, g, &c->db, CAKE_DTYPE_FLOAT, 32, 2, c->bshape);
	gt_tensor(&c->args.C, g, &c->dc, CAKE_DTYPE_FLOAT, 32, 2, c->cshape);
	return c;
}

static int
fill(GtCase *c, uint64_t seed, CUstream s)
{
	GtRng r;
	size_t i, j, p;

	gt_rng_seed(&r, seed);
	for (i = 0; i < c->m * c->k; i++)
		c->a[i] = (float)gt_rng_uniform(&r, -1.0, 1.0);
	for (i = 0; i < c->k * c->n; i++)
		c->b[i] = (float)gt_rng_uniform(&r, -1.0, 1.0);
	/* i-p-j order: the inner loop walks rows of B and C contiguously */
	for (i = 0; i < c->m; i++) {
		double *row = c->ref + i * c->n;

		for (j = 0; j < c->n; j++)
			row[j] = 0.0;
		for (p = 0; p < c->k; p++) {
			double av = c->a[i * c->k + p];
			const float *brow = c->b + p * c->n;

			for (j = 0; j < c->n; j++)
				row[j] += av * (double)brow[j];
		}
	}
	return gt_buf_poison(&c->da, s, "sgemm_tiled A") ||
	       gt_buf_poison(&c->db, s, "sgemm_tiled B") ||
	       gt_buf_poison(&c->dc, s, "sgemm_tiled C") ||
	       gt_buf_upload(&c->da, c->a, s, "sgemm_tiled A") ||
	       gt_buf_upload(&c->db, c->b, s, "sgemm_tiled B");
}

static int
launch(GtCase *c, CUstream s, CakeError *err)
{
	return sgemm_tiled_launch(&c->args, s, err);
}

static int
check(GtCase *c, CUstream s, const char *label)
{
	const unsigned char *p;
	char what[160];
	int guards = 1, inputs = 1;
	double sk = sqrt((double)c->k);
	GtCmp cmp;

	snprintf(what, sizeof what, "M=%zu N=%zu K=%zu%s%s", c->m, c->n, c->k, *label ? " " : "",
		 label);
	if (!(p = gt_fetch(&c->da, s, "sgemm_tiled A", &guards)))
		return 1;
	inputs &= memcmp(p, c->a, c->m * c->k * 4) == 0;
	if (!(p = gt_fetch(&c->db, s, "sgemm_tiled B", &guards)))
		return 1;
	inputs &= memcmp(p, c->b, c->k * c->n * 4) == 0;
	if (!(p = gt_fetch(&c->dc, s, "sgemm_tiled C", &guards)))
		return 1;
	gt_cmp_init(&cmp, sk, 1e-6 * sk);
	gt_cmp_f32(&cmp, p, c->ref, c->m * c->n);
	return gt_report("sgemm_tiled", what, &cmp, guards, inputs);
}

const GtKernel gt_sgemm_tiled = {"sgemm_tiled", 3, create, fill, launch, check, destroy};
