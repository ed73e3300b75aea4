/* check_wgmma_kinds.c: wgmma with e4m3, e5m2 (k32) and tf32 (f32 operands, k8) operands,
 * through checks/wgmma_kinds.cake, on the GPU and (as gpu/emu/check_wgmma_kinds) under the
 * interpreter, against a float64 reference. sm_90a only: another device is skipped.
 *
 * Each kind runs c = A B^T (64 x 64) and c8 = 2 A B8^T (64 x 8, two wgmma groups into one
 * accumulator) on inputs U(-1, 1) rounded to the kind (fp8: the nearest of its 256 values;
 * never 0). The error of an element is |got - ref| / max(|ref|, s), s = sqrt(K) / 3 the
 * outputs' standard deviation (2 s for c8). Thresholds:
 * - tf32: the reference reads each f32 with its low 13 mantissa bits cleared, the
 *   interpreter's model of how the tensor cores read tf32 (docs/interpreter.md); the
 *   products are then exact in f32 and the threshold is the f32 accumulation's, K 2^-20.
 *   A GPU that rounded instead would differ by about 2^-12 s and fail; the error against
 *   a rounding reference is printed beside, for the record.
 * - fp8: products are exact, but Hopper's fp8 wgmma adds them with fewer bits than f32
 *   (the interpreter sums exactly): on the H200 one group of four k32 instructions was
 *   off by up to 5.8e-4 s (e4m3; 2.5e-4 e5m2), not from flushed subnormals (the error
 *   against a reference that flushes them is printed beside). The threshold is 2^-9 s,
 *   still 30 times below what one dropped or doubled product moves an element by
 *   (|a b| ~ 1/4 of s ~ 3.8).
 * A wrong layout or K step moves elements by about s. */
#include "gputest.h"
#include "wgmma_e4m3.h"
#include "wgmma_e5m2.h"
#include "wgmma_tf32.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { E4M3, E5M2, TF32, NKINDS };

static const struct Kind {
	const char *name;
	int kd, bytes, code;
} kinds[NKINDS] = {
	{"wgmma_e4m3", 128, 1, CAKE_DTYPE_FLOAT8_E4M3FN},
	{"wgmma_e5m2", 128, 1, CAKE_DTYPE_FLOAT8_E5M2},
	{"wgmma_tf32", 32, 4, CAKE_DTYPE_FLOAT},
};

/* The value of an fp8 byte (OCP: e4m3 bias 7, 3 mantissa bits, 0x7f/0xff NaN; e5m2 bias
 * 15, 2 mantissa bits, exponent 31 infinities and NaN). */
static double
fp8_value(int kind, unsigned b)
{
	int mb = kind == E4M3 ? 3 : 2, bias = kind == E4M3 ? 7 : 15;
	int e = (int)(b & 0x7f) >> mb, m = (int)b & ((1 << mb) - 1);
	double v;

	if ((kind == E4M3 && (b & 0x7f) == 0x7f) || (kind == E5M2 && e == 31))
		return NAN;
	v = e ? ldexp((double)((1 << mb) | m), e - bias - mb) : ldexp((double)m, 1 - bias - mb);
	return (b & 0x80) ? -v : v;
}

/* An element of the kind: its bits (1 or 4 bytes at out) and value. */
static double
draw(int kind, GtRng *r, unsigned char *out)
{
	double u, best = 0.0, v;
	unsigned b, pick = 0;
	float f;

	do
		u = gt_rng_uniform(r, -1.0, 1.0);
	while (fabs(u) < 0x1p-6);
	if (kind == TF32) {
		f = (float)u;
		memcpy(out, &f, 4);
		return f;
	}
	for (b = 0; b < 256; b++) {
		v = fp8_value(kind, b);
		if (v == v && fabs(v - u) < fabs(best - u)) {
			best = v;
			pick = b;
		}
	}
	*out = (unsigned char)pick;
	return best;
}

/* f with its low 13 mantissa bits cleared (trunc) or rounded to 10 bits (nearest even). */
static double
tf32(double x, int trunc)
{
	float f = (float)x;
	uint32_t u;

	memcpy(&u, &f, 4);
	if (!trunc)
		u += 0xfffu + ((u >> 13) & 1);
	u &= ~0x1fffu;
	memcpy(&f, &u, 4);
	return f;
}

/* x, or 0 for an fp8 subnormal (the alternative model of fp8: subnormals flushed). */
static double
flush(int kind, double x)
{
	return fabs(x) < (kind == E4M3 ? 0x1p-6 : 0x1p-14) ? 0.0 : x;
}

typedef struct Mat {
	const char *name;
	int64_t shape[2];
	unsigned char *bits;
	double *val, *ref, *alt;        /* inputs: val; outputs: ref and the tf32 rounding one */
	GtBuf dev;
} Mat;

enum { A, B, B8, C, C8, NMAT };

static int
mat_alloc(Mat *m, const char *name, int64_t rows, int64_t cols, int bytes)
{
	size_t n = (size_t)(rows * cols);

	m->name = name;
	m->shape[0] = rows;
	m->shape[1] = cols;
	m->bits = calloc(n, (size_t)bytes);
	m->val = calloc(n, sizeof *m->val);
	m->ref = calloc(n, sizeof *m->ref);
	m->alt = calloc(n, sizeof *m->alt);
	return !m->bits || !m->val || !m->ref || !m->alt || gt_buf_alloc(&m->dev, n * (size_t)bytes, name);
}

static void
mat_free(Mat *m)
{
	gt_buf_free(&m->dev);
	free(m->bits);
	free(m->val);
	free(m->ref);
	free(m->alt);
	memset(m, 0, sizeof *m);
}

/* o = times * a b^T with the inputs as the tensor cores read them (tf32: trunc). */
static void
product(int kind, Mat *o, const Mat *a, const Mat *b, double times)
{
	int64_t i, j, k, kd = a->shape[1];

	for (i = 0; i < o->shape[0]; i++)
		for (j = 0; j < o->shape[1]; j++) {
			double s = 0.0, t = 0.0;

			for (k = 0; k < kd; k++) {
				double x = a->val[i * kd + k], y = b->val[j * kd + k];

				s += kind == TF32 ? tf32(x, 1) * tf32(y, 1) : x * y;
				t += kind == TF32 ? tf32(x, 0) * tf32(y, 0) : flush(kind, x) * flush(kind, y);
			}
			o->ref[i * o->shape[1] + j] = times * s;
			o->alt[i * o->shape[1] + j] = times * t;
		}
}

/* The largest |got - alt| / max(|alt|, floor): the error against the rounding model. */
static double
alt_err(const Mat *o, const unsigned char *p, double floor)
{
	double worst = 0.0;
	size_t i, n = (size_t)(o->shape[0] * o->shape[1]);

	for (i = 0; i < n; i++) {
		float f;
		double e;

		memcpy(&f, p + 4 * i, 4);
		e = fabs(f - o->alt[i]) / fmax(fabs(o->alt[i]), floor);
		worst = e > worst ? e : worst;
	}
	return worst;
}

static int
out_check(int kind, Mat *o, CUstream s, double floor)
{
	const unsigned char *p;
	char what[160];
	int guards = 1;
	double thr = kind == TF32 ? ldexp((double)kinds[kind].kd, -20) : 0x1p-9;
	GtCmp c;

	if (!(p = gt_fetch(&o->dev, s, o->name, &guards)))
		return 1;
	gt_cmp_init(&c, floor, thr);
	gt_cmp_f32(&c, p, o->ref, (size_t)(o->shape[0] * o->shape[1]));
	snprintf(what, sizeof what, "%s (64 x %lld; against %s instead: %.2e)", o->name, (long long)o->shape[1],
		 kind == TF32 ? "inputs rounded to tf32" : "subnormals flushed", alt_err(o, p, floor));
	return gt_report(kinds[kind].name, what, &c, guards, 1);
}

/* The launch of each kind: the instances' argument structs have the same members. */
#define LAUNCH(K)                                                                          \
	static int launch_##K(const GtDev *g, Mat *m, int code, int bits, CUstream s,      \
			      CakeError *err)                                              \
	{                                                                                  \
		K##_args a;                                                                \
		memset(&a, 0, sizeof a);                                                   \
		gt_tensor(&a.a, g, &m[A].dev, code, bits, 2, m[A].shape);                  \
		gt_tensor(&a.b, g, &m[B].dev, code, bits, 2, m[B].shape);                  \
		gt_tensor(&a.b8, g, &m[B8].dev, code, bits, 2, m[B8].shape);               \
		gt_tensor(&a.c, g, &m[C].dev, CAKE_DTYPE_FLOAT, 32, 2, m[C].shape);        \
		gt_tensor(&a.c8, g, &m[C8].dev, CAKE_DTYPE_FLOAT, 32, 2, m[C8].shape);     \
		return K##_launch(&a, s, err);                                             \
	}
LAUNCH(wgmma_e4m3)
LAUNCH(wgmma_e5m2)
LAUNCH(wgmma_tf32)

static int (*const launches[NKINDS])(const GtDev *, Mat *, int, int, CUstream, CakeError *) = {
	launch_wgmma_e4m3, launch_wgmma_e5m2, launch_wgmma_tf32,
};

static int
run_kind(const GtDev *g, CUstream s, int kind)
{
	const struct Kind *kd = &kinds[kind];
	static const char *names[NMAT] = {"a", "b", "b8", "c", "c8"};
	static const int rows[NMAT] = {64, 64, 8, 64, 64};
	Mat m[NMAT];
	double floor = sqrt((double)kd->kd) / 3.0;
	CakeError err;
	GtRng r;
	int i, failed = 0;
	size_t j;

	memset(m, 0, sizeof m);
	for (i = 0; i < NMAT; i++)
		if (mat_alloc(&m[i], names[i], rows[i], i < C ? kd->kd : i == C ? 64 : 8, i < C ? kd->bytes : 4)) {
			printf("FAIL %s: set-up failed\n", kd->name);
			failed = 1;
			goto out;
		}
	gt_rng_seed(&r, gt_seed(kd->name, 0));
	for (i = A; i < C; i++)
		for (j = 0; j < (size_t)(m[i].shape[0] * m[i].shape[1]); j++)
			m[i].val[j] = draw(kind, &r, m[i].bits + j * (size_t)kd->bytes);
	product(kind, &m[C], &m[A], &m[B], 1.0);
	product(kind, &m[C8], &m[A], &m[B8], 2.0);
	for (i = 0; i < NMAT; i++)
		if (gt_buf_poison(&m[i].dev, s, m[i].name) ||
		    (i < C && gt_buf_upload(&m[i].dev, m[i].bits, s, m[i].name))) {
			failed = 1;
			goto out;
		}
	if (launches[kind](g, m, kd->code, kd->bytes * 8, s, &err) != CAKE_OK) {
		printf("FAIL %s: launch: %s: %s\n", kd->name, cakert_status_name(err.status), err.msg);
		failed = 1;
		goto out;
	}
	failed += out_check(kind, &m[C], s, floor);
	failed += out_check(kind, &m[C8], s, 2.0 * floor);
out:
	for (i = 0; i < NMAT; i++)
		mat_free(&m[i]);
	return failed != 0;
}

int
main(void)
{
	return gt_run_sm90("wgmma_kinds", "kinds", NKINDS, run_kind);
}
