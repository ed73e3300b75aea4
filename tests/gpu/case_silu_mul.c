/* case_silu_mul.c: silu_mul (out = silu(gate) * up, bf16) against a double reference.
 *
 * Threshold 1e-2 with floor 1e-6 (docs/testing.md): the kernel computes in f32 (errors
 * near 1e-6, from ex2.approx and the division) and rounds once to bf16, whose relative
 * rounding error is at most 2^-8 = 3.9e-3; nothing cancels (silu and the product are
 * multiplicative), so the error is relative everywhere and the floor only guards 0 / 0.
 * The reference uses the bf16 inputs' exact values. */
#include "gputest.h"

#include "silu_mul.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLOOR 1e-6
#define THRESHOLD 1e-2

struct GtCase {
	const GtDev *g;
	int64_t shape[1];
	size_t n;
	uint16_t *gate, *up;
	double *ref;
	GtBuf dgate, dup, dout;
	silu_mul_args args;
};

static void
destroy(GtCase *c)
{
	if (!c)
		return;
	gt_buf_free(&c->dgate);
	gt_buf_free(&c->dup);
	gt_buf_free(&c->dout);
	free(c->gate);
	free(c->up);
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
	c->gate = malloc(c->n * 2);
	c->up = malloc(c->n * 2);
	c->ref = malloc(c->n * sizeof *c->ref);
	if (!c->gate || !c->up || !c->ref || gt_buf_alloc(&c->dgate, c->n * 2, "silu_mul gate") ||
	    gt_buf_alloc(&c->dup, c->n * 2, "silu_mul up") ||
	    gt_buf_alloc(&c->dout, c->n * 2, "silu_mul out")) {
		printf("FAIL silu_mul n=%zu: allocation failed\n", c->n);
		destroy(c);
		return NULL;
	}
	gt_tensor(&c->args.gate, g, &c->dgate, CAKE_DTYPE_BFLOAT, 16, 1, c->shape);
	gt_tensor(&c->args.up, g, &c->dup, CAKE_DTYPE_BFLOAT, 16, 1, c->shape);
	gt_tensor(&c->args.out, g, &c->dout, CAKE_DTYPE_BFLOAT, 16, 1, c->shape);
	return c;
}

static int
fill(GtCase *c, uint64_t seed, CUstream s)
{
	GtRng r;
	size_t i;

	gt_rng_seed(&r, seed);
	for (i = 0; i < c->n; i++) {
		double g, u;

		/* gate over silu's interesting range (negative, around 0, linear part) */
		c->gate[i] = gt_bf16_from_float((float)gt_rng_uniform(&r, -6.0, 6.0));
		c->up[i] = gt_bf16_from_float((float)gt_rng_uniform(&r, -2.0, 2.0));
		g = gt_bf16_to_float(c->gate[i]);
		u = gt_bf16_to_float(c->up[i]);
		c->ref[i] = g / (1.0 + exp(-g)) * u;
	}
	return gt_buf_poison(&c->dgate, s, "silu_mul gate") ||
	       gt_buf_poison(&c->dup, s, "silu_mul up") ||
	       gt_buf_poison(&c->dout, s, "silu_mul out") ||
	       gt_buf_upload(&c->dgate, c->gate, s, "silu_mul gate") ||
	       gt_buf_upload(&c->dup, c->up, s, "silu_mul up");
}

static int
launch(GtCase *c, CUstream s, CakeError *err)
{
	return silu_mul_launch(&c->args, s, err);
}

static int
check(GtCase *c, CUstream s, const char *label)
{
	const unsigned char *p;
	char what[160];
	int guards = 1, inputs = 1;
	GtCmp cmp;

	snprintf(what, sizeof what, "n=%zu%s%s", c->n, *label ? " " : "", label);
	if (!(p = gt_fetch(&c->dgate, s, "silu_mul gate", &guards)))
		return 1;
	inputs &= memcmp(p, c->gate, c->n * 2) == 0;
	if (!(p = gt_fetch(&c->dup, s, "silu_mul up", &guards)))
		return 1;
	inputs &= memcmp(p, c->up, c->n * 2) == 0;
	if (!(p = gt_fetch(&c->dout, s, "silu_mul out", &guards)))
		return 1;
	gt_cmp_init(&cmp, FLOOR, THRESHOLD);
	gt_cmp_bf16(&cmp, p, c->ref, c->n);
	return gt_report("silu_mul", what, &cmp, guards, inputs);
}

const GtKernel gt_silu_mul = {"silu_mul", 1, create, fill, launch, check, destroy};
