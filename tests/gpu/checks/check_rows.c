/* check_rows.c: the rows of a fragment (row_max, row_sum, by_row, mask_cols, mask_above,
 * store_rows; docs/language.md, "Rows of a fragment") on the GPU and, as
 * gpu/emu/check_rows, under the interpreter, through checks/rows.cake's rows_ops. sm_90a
 * only.
 *
 * Three masks (n, d): none (128, 200), ragged (70, 5) with a diagonal, everything
 * (0, -100): no column left, so row_max is -inf and row_sum 0. B = 2 blocks. Inputs are
 * random (never 0); every output is poisoned first. mx, y and hb are exact (a maximum,
 * selections, one f32 product, one rounding to bf16): compared bit for bit against the
 * same operations in C. sm is a sum of up to 128 values in an order the kernel picks:
 * against float64, relative error 1e-5. */
#include "gputest.h"
#include "rows_ops.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NB 2
#define R 64
#define C 128

typedef struct Bufs {
	GtBuf x, mx, sm, y, hb;
} Bufs;

static int
launch(const GtDev *g, Bufs *b, int n, int d, CUstream s, CakeError *err)
{
	static int64_t xs[3] = {NB, R, C}, vs[2] = {NB, R};
	rows_ops_args a;

	memset(&a, 0, sizeof a);
	gt_tensor(&a.x, g, &b->x, CAKE_DTYPE_FLOAT, 32, 3, xs);
	gt_tensor(&a.mx, g, &b->mx, CAKE_DTYPE_FLOAT, 32, 2, vs);
	gt_tensor(&a.sm, g, &b->sm, CAKE_DTYPE_FLOAT, 32, 2, vs);
	gt_tensor(&a.y, g, &b->y, CAKE_DTYPE_FLOAT, 32, 3, xs);
	gt_tensor(&a.hb, g, &b->hb, CAKE_DTYPE_BFLOAT, 16, 2, vs);
	a.n = n;
	a.d = d;
	return rows_ops_launch(&a, s, err);
}

/* The references of rows_ops (see checks/rows.cake). */
static void
reference(const float *x, int n, int d, float *mx, double *sm, float *y, uint16_t *hb)
{
	int row, col;

	for (row = 0; row < NB * R; row++) {
		const float *xr = x + (size_t)row * C;
		float m = -INFINITY, all = -INFINITY, scale;
		double s = 0.0;

		for (col = 0; col < C; col++) {
			all = xr[col] > all ? xr[col] : all;
			if (col < n) {
				m = xr[col] > m ? xr[col] : m;
				s += xr[col];
			}
		}
		mx[row] = m;
		sm[row] = s;
		hb[row] = gt_bf16_from_float(all);
		scale = all > 1.0f ? all : 1.0f;
		for (col = 0; col < C; col++) {
			float z = col < n ? xr[col] : 0.0f;

			y[(size_t)row * C + col] = (col - row % R > d ? -2.0f : z) * scale;
		}
	}
}

static int
run(const GtDev *g, CUstream s, int which)
{
	static const int masks[3][2] = {{128, 200}, {70, 5}, {0, -100}};
	static const char *labels[3] = {"unmasked", "ragged", "all masked"};
	const size_t nx = (size_t)NB * R * C, nv = NB * R;
	float *x = malloc(nx * 4), *y = malloc(nx * 4), mx[NB * R];
	double sm[NB * R];
	uint16_t hb[NB * R];
	Bufs b;
	GtRng r;
	GtCmp cmp;
	CakeError err;
	const unsigned char *out;
	char what[64];
	int failed = 0, guards = 1, inputs = 1, n = masks[which][0], d = masks[which][1];
	size_t i;

	memset(&b, 0, sizeof b);
	if (!x || !y || gt_buf_alloc(&b.x, nx * 4, "x") || gt_buf_alloc(&b.mx, nv * 4, "mx") ||
	    gt_buf_alloc(&b.sm, nv * 4, "sm") || gt_buf_alloc(&b.y, nx * 4, "y") || gt_buf_alloc(&b.hb, nv * 2, "hb")) {
		printf("FAIL rows_ops: set-up failed\n");
		failed = 1;
		goto out;
	}
	gt_rng_seed(&r, gt_seed("rows_ops", which));
	for (i = 0; i < nx; i++)
		x[i] = gt_rng_away(&r, 4.0, 1.0f / 32);
	reference(x, n, d, mx, sm, y, hb);
	if (gt_buf_poison(&b.x, s, "x") || gt_buf_upload(&b.x, x, s, "x") || gt_buf_poison(&b.mx, s, "mx") ||
	    gt_buf_poison(&b.sm, s, "sm") || gt_buf_poison(&b.y, s, "y") || gt_buf_poison(&b.hb, s, "hb")) {
		failed = 1;
		goto out;
	}
	if (launch(g, &b, n, d, s, &err) != CAKE_OK) {
		printf("FAIL rows_ops %s: launch: %s: %s\n", labels[which], cakert_status_name(err.status), err.msg);
		failed = 1;
		goto out;
	}
	snprintf(what, sizeof what, "%s mx (row_max of mask_cols)", labels[which]);
	failed += !(out = gt_fetch(&b.mx, s, "mx", &guards)) ||
		  gt_same("rows_ops", what, out, mx, nv, 4, guards);
	snprintf(what, sizeof what, "%s y (mask_above, by_row)", labels[which]);
	failed += !(out = gt_fetch(&b.y, s, "y", &guards)) ||
		  gt_same("rows_ops", what, out, y, nx, 4, guards);
	snprintf(what, sizeof what, "%s hb (store_rows to bf16)", labels[which]);
	failed += !(out = gt_fetch(&b.hb, s, "hb", &guards)) ||
		  gt_same("rows_ops", what, out, hb, nv, 2, guards);
	if (!(out = gt_fetch(&b.x, s, "x", &guards)))
		failed = 1;
	else
		inputs = memcmp(out, x, nx * 4) == 0;
	if (!(out = gt_fetch(&b.sm, s, "sm", &guards))) {
		failed = 1;
	} else {
		gt_cmp_init(&cmp, 1.0, 1e-5);
		gt_cmp_f32(&cmp, out, sm, nv);
		snprintf(what, sizeof what, "%s sm (row_sum)", labels[which]);
		failed += gt_report("rows_ops", what, &cmp, guards, inputs);
	}
out:
	gt_buf_free(&b.x);
	gt_buf_free(&b.mx);
	gt_buf_free(&b.sm);
	gt_buf_free(&b.y);
	gt_buf_free(&b.hb);
	free(x);
	free(y);
	return failed != 0;
}

int
main(void)
{
	return gt_run_sm90("rows", "cases", 3, run);
}
