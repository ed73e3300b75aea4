/* check_rowstore.c: store(tensor, r, [row, col]) of register arrays (checks/rowstore.cake)
 * against a CPU reference. x[R, C] in U(-1, 1); every kernel writes y = 2 x + 1 in chunks
 * of its array's length (4 f32, 8 bf16, 3 f16; 32 bf16 values widened to f32), each row by
 * one thread, with one block of rows past R. Sizes mix C that are multiples of the chunk
 * (aligned 16-byte stores) with odd C (misaligned rows, clipped last chunks); the buffers'
 * guards catch a store outside the tensor. Thresholds (floor 1; values below 3): f32 1e-6
 * relative, bf16 2^-7 (its rounding reaches 2^-8), f16 2^-10, rs_wide 2^-7 (its values are
 * rounded to bf16 first); a value in the wrong column is off by about 1. It also runs
 * against the emulated driver (gpu/emu/check_rowstore), which checks the IR's meaning. */
#include "gputest.h"

#include "rs_bf16x8.h"
#include "rs_f16x3.h"
#include "rs_f32x4.h"
#include "rs_wide.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOUT 4

struct GtCase {
	int64_t shape[2];
	size_t r, c;
	float *x;
	double *ref;
	GtBuf dx, dy[NOUT];
	rs_f32x4_args a0;
	rs_bf16x8_args a1;
	rs_f16x3_args a2;
	rs_wide_args a3;
};

static const char *const names[NOUT] = {"rs_f32x4", "rs_bf16x8", "rs_f16x3", "rs_wide"};
static const int bytes[NOUT] = {4, 2, 2, 4};

static void
destroy(GtCase *c)
{
	int k;

	if (!c)
		return;
	gt_buf_free(&c->dx);
	for (k = 0; k < NOUT; k++)
		gt_buf_free(&c->dy[k]);
	free(c->x);
	free(c->ref);
	free(c);
}

static GtCase *
create(const GtDev *g, const int64_t *dims)
{
	GtCase *c = calloc(1, sizeof *c);
	int k, bad = 0;

	if (!c)
		return NULL;
	c->shape[0] = dims[0];
	c->shape[1] = dims[1];
	c->r = (size_t)dims[0];
	c->c = (size_t)dims[1];
	c->x = malloc(c->r * c->c * sizeof *c->x);
	c->ref = malloc(c->r * c->c * sizeof *c->ref);
	bad = !c->x || !c->ref || gt_buf_alloc(&c->dx, c->r * c->c * 4, "rowstore x");
	for (k = 0; k < NOUT && !bad; k++)
		bad = gt_buf_alloc(&c->dy[k], c->r * c->c * (size_t)bytes[k], names[k]);
	if (bad) {
		printf("FAIL rowstore R=%zu C=%zu: allocation failed\n", c->r, c->c);
		destroy(c);
		return NULL;
	}
	gt_tensor(&c->a0.x, g, &c->dx, CAKE_DTYPE_FLOAT, 32, 2, c->shape);
	gt_tensor(&c->a0.y, g, &c->dy[0], CAKE_DTYPE_FLOAT, 32, 2, c->shape);
	gt_tensor(&c->a1.x, g, &c->dx, CAKE_DTYPE_FLOAT, 32, 2, c->shape);
	gt_tensor(&c->a1.y, g, &c->dy[1], CAKE_DTYPE_BFLOAT, 16, 2, c->shape);
	gt_tensor(&c->a2.x, g, &c->dx, CAKE_DTYPE_FLOAT, 32, 2, c->shape);
	gt_tensor(&c->a2.y, g, &c->dy[2], CAKE_DTYPE_FLOAT, 16, 2, c->shape);
	gt_tensor(&c->a3.x, g, &c->dx, CAKE_DTYPE_FLOAT, 32, 2, c->shape);
	gt_tensor(&c->a3.y, g, &c->dy[3], CAKE_DTYPE_FLOAT, 32, 2, c->shape);
	return c;
}

static int
fill(GtCase *c, uint64_t seed, CUstream s)
{
	GtRng rng;
	size_t i;
	int k;

	gt_rng_seed(&rng, seed);
	for (i = 0; i < c->r * c->c; i++) {
		c->x[i] = (float)gt_rng_uniform(&rng, -1.0, 1.0);
		c->ref[i] = 2.0 * c->x[i] + 1.0;
	}
	for (k = 0; k < NOUT; k++)
		if (gt_buf_poison(&c->dy[k], s, names[k]))
			return 1;
	return gt_buf_poison(&c->dx, s, "rowstore x") || gt_buf_upload(&c->dx, c->x, s, "rowstore x");
}

static int
launch(GtCase *c, CUstream s, CakeError *err)
{
	int r = rs_f32x4_launch(&c->a0, s, err);

	r = r ? r : rs_bf16x8_launch(&c->a1, s, err);
	r = r ? r : rs_f16x3_launch(&c->a2, s, err);
	return r ? r : rs_wide_launch(&c->a3, s, err);
}

/* IEEE half to float (normal, subnormal, zero, inf, NaN). */
static double
half_to_double(uint16_t h)
{
	int e = (h >> 10) & 31, m = h & 1023;
	double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);

	return h & 0x8000 ? -v : v;
}

static int
check(GtCase *c, CUstream s, const char *label)
{
	static const double thresholds[NOUT] = {1e-6, 1.0 / 128, 1.0 / 1024, 1.0 / 128};
	const unsigned char *px, *py;
	char what[96];
	int guards = 1, inputs, fail = 0, k;
	size_t n = c->r * c->c, i;
	GtCmp cmp;

	snprintf(what, sizeof what, "R=%zu C=%zu%s%s", c->r, c->c, *label ? " " : "", label);
	if (!(px = gt_fetch(&c->dx, s, "rowstore x", &guards)))
		return 1;
	inputs = memcmp(px, c->x, n * 4) == 0;
	for (k = 0; k < NOUT; k++) {
		guards = 1;
		if (!(py = gt_fetch(&c->dy[k], s, names[k], &guards)))
			return 1;
		gt_cmp_init(&cmp, 1.0, thresholds[k]);
		if (bytes[k] == 4)
			gt_cmp_f32(&cmp, py, c->ref, n);
		else if (k == 1)
			gt_cmp_bf16(&cmp, py, c->ref, n);
		else
			for (i = 0; i < n; i++) {
				uint16_t h;

				memcpy(&h, py + 2 * i, 2);
				gt_cmp_add(&cmp, i, half_to_double(h), c->ref[i], h == 0xffff);
			}
		fail |= gt_report(names[k], what, &cmp, guards, inputs);
	}
	return fail;
}

static const GtKernel rowstore = {"rowstore", 2, create, fill, launch, check, destroy};

static const GtSize sizes[] = {
	{{1, 1}, 0}, {{5, 3}, 0}, {{130, 37}, 0}, {{257, 64}, 0}, {{1000, 129}, 0}, {{300, 1000}, 0},
	{{4099, 517}, 1},
};

int
main(void)
{
	return gt_run_sizes(&rowstore, sizes, (int)(sizeof sizes / sizeof sizes[0]));
}
