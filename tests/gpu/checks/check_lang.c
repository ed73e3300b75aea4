/* check_lang.c: functions and early exits (checks/lang.cake) against a CPU reference.
 * x[R, C] in U(-0.1, 1): lang_exits finds each row's first negative element (C if none:
 * many rows have none at small C) and sums the elements before it that are at most 0.5;
 * lang_rowsum sums each row through a warp reduction in a function. The index is exact;
 * the sums carry f32 rounding of at most C terms below 1 (threshold 1e-5 relative, floor 1). */
#include "gputest.h"

#include "lang_exits.h"
#include "lang_rowsum.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct GtCase {
	int64_t shape[2];
	size_t r, c;
	float *x;
	double *first, *sum, *rowsum;
	GtBuf dx, dfirst, dsum, drow;
	lang_exits_args ea;
	lang_rowsum_args ra;
};

static void
destroy(GtCase *c)
{
	if (!c)
		return;
	gt_buf_free(&c->dx);
	gt_buf_free(&c->dfirst);
	gt_buf_free(&c->dsum);
	gt_buf_free(&c->drow);
	free(c->x);
	free(c->first);
	free(c->sum);
	free(c->rowsum);
	free(c);
}

static GtCase *
create(const GtDev *g, const int64_t *dims)
{
	GtCase *c = calloc(1, sizeof *c);

	if (!c)
		return NULL;
	c->shape[0] = dims[0];
	c->shape[1] = dims[1];
	c->r = (size_t)dims[0];
	c->c = (size_t)dims[1];
	c->x = malloc(c->r * c->c * sizeof *c->x);
	c->first = malloc(c->r * sizeof *c->first);
	c->sum = malloc(c->r * sizeof *c->sum);
	c->rowsum = malloc(c->r * sizeof *c->rowsum);
	if (!c->x || !c->first || !c->sum || !c->rowsum ||
	    gt_buf_alloc(&c->dx, c->r * c->c * 4, "lang x") || gt_buf_alloc(&c->dfirst, c->r * 4, "lang first") ||
	    gt_buf_alloc(&c->dsum, c->r * 4, "lang sums") || gt_buf_alloc(&c->drow, c->r * 4, "lang rowsum")) {
		printf("FAIL lang R=%zu C=%zu: allocation failed\n", c->r, c->c);
		destroy(c);
		return NULL;
	}
	gt_tensor(&c->ea.x, g, &c->dx, CAKE_DTYPE_FLOAT, 32, 2, c->shape);
	gt_tensor(&c->ea.first, g, &c->dfirst, CAKE_DTYPE_INT, 32, 1, c->shape);
	gt_tensor(&c->ea.sums, g, &c->dsum, CAKE_DTYPE_FLOAT, 32, 1, c->shape);
	gt_tensor(&c->ra.x, g, &c->dx, CAKE_DTYPE_FLOAT, 32, 2, c->shape);
	gt_tensor(&c->ra.sums, g, &c->drow, CAKE_DTYPE_FLOAT, 32, 1, c->shape);
	return c;
}

static int
fill(GtCase *c, uint64_t seed, CUstream s)
{
	GtRng rng;
	size_t i, j;

	gt_rng_seed(&rng, seed);
	for (i = 0; i < c->r * c->c; i++)
		c->x[i] = (float)gt_rng_uniform(&rng, -0.1, 1.0);
	for (i = 0; i < c->r; i++) {
		const float *row = c->x + i * c->c;
		size_t f = c->c;
		double s = 0, t = 0;

		for (j = 0; j < c->c; j++)
			t += row[j];
		for (j = 0; j < c->c && f == c->c; j++)
			if (row[j] < 0.0f)
				f = j;
		for (j = 0; j < f; j++)
			if (row[j] <= 0.5f)
				s += row[j];
		c->first[i] = (double)f;
		c->sum[i] = s;
		c->rowsum[i] = t;
	}
	return gt_buf_poison(&c->dx, s, "lang x") || gt_buf_poison(&c->dfirst, s, "lang first") ||
	       gt_buf_poison(&c->dsum, s, "lang sums") || gt_buf_poison(&c->drow, s, "lang rowsum") ||
	       gt_buf_upload(&c->dx, c->x, s, "lang x");
}

static int
launch(GtCase *c, CUstream s, CakeError *err)
{
	int r = lang_exits_launch(&c->ea, s, err);

	return r ? r : lang_rowsum_launch(&c->ra, s, err);
}

static int
check(GtCase *c, CUstream s, const char *label)
{
	const unsigned char *px, *pf, *ps, *pr;
	char what[96];
	int guards = 1, inputs, fail = 0;
	GtCmp cmp;
	size_t i;

	snprintf(what, sizeof what, "R=%zu C=%zu%s%s", c->r, c->c, *label ? " " : "", label);
	if (!(px = gt_fetch(&c->dx, s, "lang x", &guards)) || !(pf = gt_fetch(&c->dfirst, s, "lang first", &guards)) ||
	    !(ps = gt_fetch(&c->dsum, s, "lang sums", &guards)) || !(pr = gt_fetch(&c->drow, s, "lang rowsum", &guards)))
		return 1;
	inputs = memcmp(px, c->x, c->r * c->c * 4) == 0;
	gt_cmp_init(&cmp, 1.0, 0.0);
	for (i = 0; i < c->r; i++) {
		int32_t v;

		memcpy(&v, pf + i * 4, 4);
		gt_cmp_add(&cmp, i, (double)v, c->first[i], v == -1);
	}
	fail |= gt_report("lang_exits first", what, &cmp, guards, inputs);
	gt_cmp_init(&cmp, 1.0, 1e-5);
	gt_cmp_f32(&cmp, ps, c->sum, c->r);
	fail |= gt_report("lang_exits sums", what, &cmp, guards, inputs);
	gt_cmp_init(&cmp, 1.0, 1e-5);
	gt_cmp_f32(&cmp, pr, c->rowsum, c->r);
	fail |= gt_report("lang_rowsum", what, &cmp, guards, inputs);
	return fail;
}

static const GtKernel lang = {"lang", 2, create, fill, launch, check, destroy};

static const GtSize sizes[] = {
	{{1, 1}, 0}, {{5, 3}, 0}, {{127, 40}, 0}, {{129, 33}, 0}, {{1000, 100}, 0}, {{4099, 517}, 0},
	{{65536, 257}, 1},
};

int
main(void)
{
	return gt_run_sizes(&lang, sizes, (int)(sizeof sizes / sizeof sizes[0]));
}
