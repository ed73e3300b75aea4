/* check_tile.c: tiles of larger tensors (t[i, ...]), transposed tiles (t.T) for
 * fragment and store, a.cols(start, k) of a register A fragment, buf.rows(start, N) as
 * operand B and f32acc(a) (docs/language.md, "wgmma and accumulator fragments"), on the
 * GPU and, as gpu/emu/check_tile, under the interpreter, through checks/tile.cake's
 * tile_ops. sm_90a only.
 *
 * Two placements of the transposed tile (inside x[b]^T; running past both of its edges),
 * B = 2 blocks, each on its own matrix of x. Inputs are random (never 0); o, q and e are
 * poisoned, p starts as random background that must survive outside the tile. o, p and e
 * are exact (copies and an exact subtraction): compared bit for bit. q is a sum of 128
 * products of bf16 values, exact in f32 each, against float64: relative error 1e-5.
 * Paired rows (`paired: true`, f32 and bf16): o2, o3 (a paired read stored plain) and p2,
 * p3 (a plain fragment stored paired) hold the tile's rows permuted, bit for bit; a third
 * placement at an odd row misaligns the pairs (the backend's element-by-element path; the
 * first two take the pairs path, the second only where a thread's rows are inside). o4, o5:
 * those paired fragments through transposed shared tiles (an f32 array, swizzled bf16
 * panels), stored and read with paired rows: o2 and o3 again, bit for bit. o6, o7: the plain
 * fragments of x and xh through untransposed shared tiles at constant corners (an f32
 * array at an odd row; the second panel of a swizzled bf16 tile): o and xh's tile, bit for
 * bit; o8 as o7 at a first row known only at run time (a multiple of 8). */
#include "gputest.h"
#include "tile_ops.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NB 2    /* x is NB x XR x XC */
#define XR 72
#define XC 136

typedef struct Bufs {
	GtBuf x, w, o, p, q, e, o2, p2, xh, o3, p3, o4, o5, o6, o7, o8;
} Bufs;

/* The tile row that fragment row R holds when paired (ir_frag_row): thread t's rows
 * 16 (t / 32) + (t % 32) / 4 + 8 i hold 16 (t / 32) + 2 ((t % 32) / 4) + i. */
static int
paired(int R)
{
	return 16 * (R / 16) + 2 * (R % 8) + R % 16 / 8;
}

static int
launch(const GtDev *g, Bufs *b, int r0, int c0, CUstream s, CakeError *err)
{
	static int64_t xs[3] = {NB, XR, XC}, ws[2] = {128, 64}, os[3] = {NB, 64, 64}, es[3] = {NB, 64, 128};
	tile_ops_args a;

	memset(&a, 0, sizeof a);
	gt_tensor(&a.x, g, &b->x, CAKE_DTYPE_FLOAT, 32, 3, xs);
	gt_tensor(&a.w, g, &b->w, CAKE_DTYPE_BFLOAT, 16, 2, ws);
	gt_tensor(&a.o, g, &b->o, CAKE_DTYPE_FLOAT, 32, 3, os);
	gt_tensor(&a.p, g, &b->p, CAKE_DTYPE_FLOAT, 32, 3, xs);
	gt_tensor(&a.q, g, &b->q, CAKE_DTYPE_FLOAT, 32, 3, os);
	gt_tensor(&a.e, g, &b->e, CAKE_DTYPE_FLOAT, 32, 3, es);
	gt_tensor(&a.o2, g, &b->o2, CAKE_DTYPE_FLOAT, 32, 3, os);
	gt_tensor(&a.p2, g, &b->p2, CAKE_DTYPE_FLOAT, 32, 3, xs);
	gt_tensor(&a.xh, g, &b->xh, CAKE_DTYPE_BFLOAT, 16, 3, xs);
	gt_tensor(&a.o3, g, &b->o3, CAKE_DTYPE_FLOAT, 32, 3, os);
	gt_tensor(&a.p3, g, &b->p3, CAKE_DTYPE_BFLOAT, 16, 3, xs);
	gt_tensor(&a.o4, g, &b->o4, CAKE_DTYPE_FLOAT, 32, 3, os);
	gt_tensor(&a.o5, g, &b->o5, CAKE_DTYPE_FLOAT, 32, 3, os);
	gt_tensor(&a.o6, g, &b->o6, CAKE_DTYPE_FLOAT, 32, 3, os);
	gt_tensor(&a.o7, g, &b->o7, CAKE_DTYPE_FLOAT, 32, 3, os);
	gt_tensor(&a.o8, g, &b->o8, CAKE_DTYPE_FLOAT, 32, 3, os);
	a.r0 = r0;
	a.c0 = c0;
	return tile_ops_launch(&a, s, err);
}

/* The paired references of one block's matrix xb (f32) at (r0, c0): o2 (a paired read,
 * stored plain) and p2 (from its background: a plain read stored paired). */
static void
reference_paired(const float *xb, int r0, int c0, float *o2, float *p2)
{
	int R, j;

	for (R = 0; R < 64; R++)
		for (j = 0; j < 64; j++) {
			int P = paired(R), pin = r0 + P < XC && c0 + j < XR, rin = r0 + R < XC && c0 + j < XR;

			o2[R * 64 + j] = pin ? xb[(size_t)(c0 + j) * XC + (size_t)(r0 + P)] : 0.0f;
			if (pin)
				p2[(size_t)(c0 + j) * XC + (size_t)(r0 + P)] =
					rin ? xb[(size_t)(c0 + j) * XC + (size_t)(r0 + R)] : 0.0f;
		}
}

/* The 64 x 64 tile at (r0, c0) of each block's x[b]^T, 0 outside (o's reference). */
static void
plain_tiles(const float *x, int r0, int c0, float *o)
{
	int b, i, j;

	for (b = 0; b < NB; b++)
		for (i = 0; i < 64; i++)
			for (j = 0; j < 64; j++) {
				int inside = r0 + i < XC && c0 + j < XR;

				o[((size_t)b * 64 + i) * 64 + j] =
					inside ? x[(size_t)b * XR * XC + (size_t)(c0 + j) * XC + (size_t)(r0 + i)] : 0.0f;
			}
}

/* The references: o, p (from background bg), q (float64), e. */
static void
reference(const float *x, const float *wv, const float *bg, int r0, int c0, float *o, float *p, double *q, float *e)
{
	int b, i, j, k;

	memcpy(p, bg, sizeof *p * NB * XR * XC);
	for (b = 0; b < NB; b++) {
		const float *xb = x + (size_t)b * XR * XC;

		for (i = 0; i < 64; i++)
			for (j = 0; j < 64; j++) {     /* tile (i, j) of x[b]^T is x[b][c0 + j][r0 + i] */
				int inside = r0 + i < XC && c0 + j < XR;
				size_t at = (size_t)(c0 + j) * XC + (size_t)(r0 + i);

				o[((size_t)b * 64 + i) * 64 + j] = inside ? xb[at] : 0.0f;
				if (inside)
					p[(size_t)b * XR * XC + at] = xb[at];
			}
		for (i = 0; i < 64; i++) {
			for (j = 0; j < 64; j++) {
				double s = 0.0;

				for (k = 0; k < 128; k++)
					s += (double)gt_bf16_to_float(gt_bf16_from_float(xb[i * XC + k])) *
					     wv[(64 * (k / 64) + j) * 64 + k % 64];
				q[((size_t)b * 64 + i) * 64 + j] = s;
			}
			for (k = 0; k < 128; k++)
				e[((size_t)b * 64 + i) * 128 + k] =
					xb[i * XC + k] - gt_bf16_to_float(gt_bf16_from_float(xb[i * XC + k]));
		}
	}
}

/* The paired outputs' references (o2, p2 from bg2; o3, p3 from bg3 of the bf16 xh, whose
 * values xhv are exact in f32) and their bf16 forms (p3b). */
static void
references_paired(const float *x, const float *xhv, const float *bg2, const uint16_t *bg3, int r0, int c0, float *o2,
		  float *p2, float *o3, uint16_t *p3b)
{
	const size_t nx = (size_t)NB * XR * XC;
	float *p3 = malloc(nx * 4);
	size_t i;
	int b;

	memcpy(p2, bg2, nx * 4);
	for (i = 0; p3 && i < nx; i++)
		p3[i] = gt_bf16_to_float(bg3[i]);
	for (b = 0; p3 && b < NB; b++) {
		size_t at = (size_t)b * XR * XC;

		reference_paired(x + at, r0, c0, o2 + (size_t)b * 64 * 64, p2 + at);
		reference_paired(xhv + at, r0, c0, o3 + (size_t)b * 64 * 64, p3 + at);
	}
	for (i = 0; p3 && i < nx; i++)
		p3b[i] = gt_bf16_from_float(p3[i]);
	free(p3);
}

/* Fetches out and compares it bit for bit with ref (n elements of size bytes). */
static int
same(GtBuf *buf, CUstream s, const char *name, const char *label, const char *form, const void *ref, size_t n,
     int size)
{
	const unsigned char *out;
	char what[80];
	int guards = 1;

	snprintf(what, sizeof what, "%s %s (%s)", label, name, form);
	return !(out = gt_fetch(buf, s, name, &guards)) || gt_same("tile_ops", what, out, ref, n, size, guards);
}

static int
run(const GtDev *g, CUstream s, int place)
{
	static const int places[3][2] = {{8, 4}, {100, 30}, {9, 5}};
	static const char *labels[3] = {"inside", "ragged", "odd"};
	const size_t nx = (size_t)NB * XR * XC, no = NB * 64 * 64, ne = NB * 64 * 128;
	float *x = malloc(nx * 4), *bg = malloc(nx * 4), *p = malloc(nx * 4), *o = malloc(no * 4);
	float *e = malloc(ne * 4), wv[128 * 64];
	float *xhv = malloc(nx * 4), *bg2 = malloc(nx * 4), *p2 = malloc(nx * 4), *o2 = malloc(no * 4), *o3 = malloc(no * 4);
	float *o7 = malloc(no * 4);
	uint16_t *xh = malloc(nx * 2), *bg3 = malloc(nx * 2), *p3 = malloc(nx * 2);
	double *q = malloc(no * sizeof *q);
	uint16_t wb[128 * 64];
	Bufs b;
	GtRng r;
	GtCmp cmp;
	CakeError err;
	const unsigned char *out;
	char what[64];
	int failed = 0, guards = 1, inputs = 1;
	size_t i;

	memset(&b, 0, sizeof b);
	if (!x || !bg || !p || !o || !e || !q || !xhv || !bg2 || !p2 || !o2 || !o3 || !o7 || !xh || !bg3 || !p3 ||
	    gt_buf_alloc(&b.x, nx * 4, "x") || gt_buf_alloc(&b.w, sizeof wb, "w") ||
	    gt_buf_alloc(&b.o, no * 4, "o") || gt_buf_alloc(&b.p, nx * 4, "p") || gt_buf_alloc(&b.q, no * 4, "q") ||
	    gt_buf_alloc(&b.e, ne * 4, "e") || gt_buf_alloc(&b.o2, no * 4, "o2") || gt_buf_alloc(&b.p2, nx * 4, "p2") ||
	    gt_buf_alloc(&b.xh, nx * 2, "xh") || gt_buf_alloc(&b.o3, no * 4, "o3") || gt_buf_alloc(&b.p3, nx * 2, "p3") ||
	    gt_buf_alloc(&b.o4, no * 4, "o4") || gt_buf_alloc(&b.o5, no * 4, "o5") ||
	    gt_buf_alloc(&b.o6, no * 4, "o6") || gt_buf_alloc(&b.o7, no * 4, "o7") ||
	    gt_buf_alloc(&b.o8, no * 4, "o8")) {
		printf("FAIL tile_ops: set-up failed\n");
		failed = 1;
		goto out;
	}
	gt_rng_seed(&r, gt_seed("tile_ops", place));
	for (i = 0; i < nx; i++) {
		x[i] = gt_rng_away(&r, 1.0, 1.0f / 32);
		bg[i] = gt_rng_away(&r, 1.0, 1.0f / 32);
		bg2[i] = gt_rng_away(&r, 1.0, 1.0f / 32);
		xh[i] = gt_bf16_from_float(gt_rng_away(&r, 1.0, 1.0f / 32));
		xhv[i] = gt_bf16_to_float(xh[i]);
		bg3[i] = gt_bf16_from_float(gt_rng_away(&r, 1.0, 1.0f / 32));
	}
	for (i = 0; i < 128 * 64; i++) {
		wb[i] = gt_bf16_from_float(gt_rng_away(&r, 1.0, 1.0f / 32));
		wv[i] = gt_bf16_to_float(wb[i]);
	}
	reference(x, wv, bg, places[place][0], places[place][1], o, p, q, e);
	references_paired(x, xhv, bg2, bg3, places[place][0], places[place][1], o2, p2, o3, p3);
	plain_tiles(xhv, places[place][0], places[place][1], o7);
	if (gt_buf_poison(&b.x, s, "x") || gt_buf_upload(&b.x, x, s, "x") || gt_buf_poison(&b.w, s, "w") ||
	    gt_buf_upload(&b.w, wb, s, "w") || gt_buf_poison(&b.p, s, "p") || gt_buf_upload(&b.p, bg, s, "p") ||
	    gt_buf_poison(&b.o, s, "o") || gt_buf_poison(&b.q, s, "q") || gt_buf_poison(&b.e, s, "e") ||
	    gt_buf_poison(&b.p2, s, "p2") || gt_buf_upload(&b.p2, bg2, s, "p2") || gt_buf_poison(&b.xh, s, "xh") ||
	    gt_buf_upload(&b.xh, xh, s, "xh") || gt_buf_poison(&b.p3, s, "p3") || gt_buf_upload(&b.p3, bg3, s, "p3") ||
	    gt_buf_poison(&b.o2, s, "o2") || gt_buf_poison(&b.o3, s, "o3") || gt_buf_poison(&b.o4, s, "o4") ||
	    gt_buf_poison(&b.o5, s, "o5") || gt_buf_poison(&b.o6, s, "o6") || gt_buf_poison(&b.o7, s, "o7") ||
	    gt_buf_poison(&b.o8, s, "o8")) {
		failed = 1;
		goto out;
	}
	if (launch(g, &b, places[place][0], places[place][1], s, &err) != CAKE_OK) {
		printf("FAIL tile_ops %s: launch: %s: %s\n", labels[place], cakert_status_name(err.status), err.msg);
		failed = 1;
		goto out;
	}
	failed += same(&b.o, s, "o", labels[place], "x[b].T tile", o, no, 4);
	failed += same(&b.p, s, "p", labels[place], "store to p[b].T", p, nx, 4);
	failed += same(&b.e, s, "e", labels[place], "x - f32acc(bf16a(x))", e, ne, 4);
	failed += same(&b.o2, s, "o2", labels[place], "x[b].T read paired", o2, no, 4);
	failed += same(&b.p2, s, "p2", labels[place], "stored to p2[b].T paired", p2, nx, 4);
	failed += same(&b.o3, s, "o3", labels[place], "bf16 xh[b].T read paired", o3, no, 4);
	failed += same(&b.p3, s, "p3", labels[place], "bf16, stored to p3[b].T paired", p3, nx, 2);
	failed += same(&b.o4, s, "o4", labels[place], "o2 through shared sf.T, paired", o2, no, 4);
	failed += same(&b.o5, s, "o5", labels[place], "o3 through swizzled sz.T, paired", o3, no, 4);
	failed += same(&b.o6, s, "o6", labels[place], "o through shared sg at [3, 6]", o, no, 4);
	failed += same(&b.o7, s, "o7", labels[place], "xh's tile through swizzled sw at [8, 64]", o7, no, 4);
	failed += same(&b.o8, s, "o8", labels[place], "xh's tile through swizzled sv at a run-time row", o7, no, 4);
	if (!(out = gt_fetch(&b.x, s, "x", &guards)))
		failed = 1;
	else
		inputs = memcmp(out, x, nx * 4) == 0;
	if (!(out = gt_fetch(&b.q, s, "q", &guards))) {
		failed = 1;
	} else {
		gt_cmp_init(&cmp, 0.5, 1e-5);
		gt_cmp_f32(&cmp, out, q, no);
		snprintf(what, sizeof what, "%s q (a.cols x sb.rows)", labels[place]);
		failed += gt_report("tile_ops", what, &cmp, guards, inputs);
	}
out:
	gt_buf_free(&b.x);
	gt_buf_free(&b.w);
	gt_buf_free(&b.o);
	gt_buf_free(&b.p);
	gt_buf_free(&b.q);
	gt_buf_free(&b.e);
	gt_buf_free(&b.o2);
	gt_buf_free(&b.p2);
	gt_buf_free(&b.xh);
	gt_buf_free(&b.o3);
	gt_buf_free(&b.p3);
	gt_buf_free(&b.o4);
	gt_buf_free(&b.o5);
	gt_buf_free(&b.o6);
	gt_buf_free(&b.o7);
	gt_buf_free(&b.o8);
	free(xhv);
	free(bg2);
	free(p2);
	free(o2);
	free(o3);
	free(o7);
	free(xh);
	free(bg3);
	free(p3);
	free(x);
	free(bg);
	free(p);
	free(o);
	free(e);
	free(q);
	return failed != 0;
}

int
main(void)
{
	return gt_run_sm90("tile", "cases", 3, run);
}
