/* check_fp8.c: the fp8 and u8/u16 conversions of checks/fp8.cake against a CPU reference,
 * bit for bit. Prints one PASS/FAIL line per conversion.
 *
 * The fp8 reference is deliberately not the compiler's (ir/fp8.c): it lists the values of
 * all 256 bit patterns of a format and, for each input, picks the nearest finite one by
 * search; a tie goes to the pattern with an even mantissa (low bit 0); anything beyond the
 * largest finite value (infinities included) gives that value with the input's sign
 * (satfinite); NaN gives a NaN. For NaN the check accepts any NaN pattern; elsewhere the
 * bits must match exactly (so -0 stays -0).
 *
 * Inputs: f32: every finite value of both formats, its f32 neighbours, the midpoints
 * between consecutive values and their f32 neighbours, values past the largest (448,
 * 57344, ..., FLT_MAX), +-0, +-inf, NaN, f32 subnormals, the midpoint under the smallest
 * subnormal, and every bf16 pattern as an f32; f16 and bf16: all 65536 patterns each.
 * fp8 -> f32/f16/bf16: all 256 patterns of each format. */
#include "gputest.h"

#include "from8.h"
#include "small.h"
#include "to8_f32.h"
#include "to8_half.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the reference ---- */

typedef struct Fmt {
	const char *name;
	int mbits, bias, has_inf;
	double val[256];        /* NaN for NaN and infinity patterns */
} Fmt;

static Fmt e4m3 = {"e4m3", 3, 7, 0, {0}};
static Fmt e5m2 = {"e5m2", 2, 15, 1, {0}};

static double
fmt_value(const Fmt *f, int bits)
{
	int ebits = 7 - f->mbits, e = (bits >> f->mbits) & ((1 << ebits) - 1);
	int m = bits & ((1 << f->mbits) - 1);
	double v;

	if (f->has_inf ? e == (1 << ebits) - 1 : (e == (1 << ebits) - 1 && m == (1 << f->mbits) - 1))
		return NAN;     /* NaN, or e5m2's infinities (never a rounding result) */
	v = e ? ldexp(1.0 + m / (double)(1 << f->mbits), e - f->bias)
	      : ldexp(m / (double)(1 << f->mbits), 1 - f->bias);
	return bits & 0x80 ? -v : v;
}

static void
fmt_init(Fmt *f)
{
	int b;

	for (b = 0; b < 256; b++)
		f->val[b] = fmt_value(f, b);
}

static int
is_nan8(const Fmt *f, int b)
{
	return f->has_inf ? (b & 0x7c) == 0x7c && (b & 3) : (b & 0x7f) == 0x7f;
}

/* x (an exact double) to the format: nearest, ties to even, saturating. -1 for NaN. */
static int
ref_encode(const Fmt *f, double x)
{
	double best = INFINITY, maxv = 0;
	int b, pick = -1, maxb = 0;

	if (isnan(x))
		return -1;
	for (b = 0; b < 128; b++)
		if (!isnan(f->val[b]) && f->val[b] > maxv) {
			maxv = f->val[b];
			maxb = b;
		}
	if (fabs(x) >= maxv)
		return (signbit(x) ? 0x80 : 0) | maxb;
	for (b = 0; b < 256; b++) {
		double d;

		if (isnan(f->val[b]) || (signbit(f->val[b]) != signbit(x)))
			continue;
		d = fabs(f->val[b] - x);
		if (d < best || (d == best && !(b & 1))) {
			best = d;
			pick = b;
		}
	}
	return pick;
}

static double
f16_value(uint16_t h)
{
	int e = (h >> 10) & 31, m = h & 1023;
	double v = e == 31 ? (m ? NAN : INFINITY) : e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);

	return h & 0x8000 ? -v : v;
}

static double
bf16_value(uint16_t w)
{
	uint32_t u = (uint32_t)w << 16;
	float f;

	memcpy(&f, &u, sizeof f);
	return f;
}

/* Whether got (read back from the GPU) is the value want, sign of zero included. */
static int
same(double got, double want)
{
	if (isnan(want))
		return isnan(got);
	return got == want && signbit(got) == signbit(want);
}

/* ---- inputs ---- */

typedef struct Floats {
	float *v;
	size_t n, cap;
} Floats;

static void
add(Floats *s, double x)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4096;
		s->v = realloc(s->v, s->cap * sizeof *s->v);
		if (!s->v)
			abort();
	}
	s->v[s->n++] = (float)x;
}

static void
add_around(Floats *s, float x)
{
	add(s, x);
	add(s, nextafterf(x, INFINITY));
	add(s, nextafterf(x, -INFINITY));
	add(s, -x);
}

static void
sweep_format(Floats *s, const Fmt *f)
{
	int b;

	for (b = 0; b < 127; b++) {
		double v = f->val[b], w = f->val[b + 1];

		if (isnan(v))
			continue;
		add_around(s, (float)v);
		if (!isnan(w))
			add_around(s, (float)((v + w) / 2));    /* exact in f32 */
	}
	/* under the smallest subnormal: half of it (ties to +0) and just above */
	add_around(s, (float)(f->val[1] / 2));
	add_around(s, (float)(f->val[1] / 4));
}

static Floats
f32_inputs(void)
{
	static const double extra[] = {0.0, 448.0, 464.0, 480.0, 500.0, 57344.0, 61440.0, 65504.0,
				       1e5, 1e10, FLT_MAX, FLT_MIN, 1e-40, 1.4e-45, 1.0 / 3, 0.1};
	Floats s = {NULL, 0, 0};
	size_t i;
	uint32_t w;

	sweep_format(&s, &e4m3);
	sweep_format(&s, &e5m2);
	for (i = 0; i < sizeof extra / sizeof extra[0]; i++)
		add_around(&s, (float)extra[i]);
	add(&s, INFINITY);
	add(&s, -INFINITY);
	add(&s, NAN);
	add(&s, -NAN);
	for (w = 0; w < 65536; w++)
		add(&s, bf16_value((uint16_t)w));
	while (s.n % 4)
		add(&s, 0.0);
	return s;
}

/* ---- running ---- */

static int failures;

typedef struct Dev {
	GtDev g;
	CUstream s;
} Dev;

static int
tensor(Dev *d, CakeTensor *t, GtBuf *b, int code, int bits, size_t n, const void *src,
       const char *what)
{
	int64_t shape[1] = {(int64_t)n};

	if (gt_buf_alloc(b, n * (size_t)bits / 8, what) || gt_buf_poison(b, d->s, what))
		return 1;
	if (src && gt_buf_upload(b, src, d->s, what))
		return 1;
	gt_tensor(t, &d->g, b, code, bits, 1, shape);
	return 0;
}

static const unsigned char *
fetch(Dev *d, GtBuf *b, const char *what)
{
	int guards = 1;
	const unsigned char *p = gt_fetch(b, d->s, what, &guards);

	if (p && !guards) {
		printf("FAIL %s: a guard byte changed (write out of bounds)\n", what);
		failures++;
	}
	return p;
}

/* One verdict line: bad mismatches among n, with the first one described in first. */
static void
verdict(const char *what, size_t n, size_t bad, const char *first)
{
	if (bad) {
		printf("FAIL %s: %zu of %zu differ; first: %s\n", what, bad, n, first);
		failures++;
	} else {
		printf("PASS %s: %zu values bit-exact\n", what, n);
	}
}

/* fp8 outputs p[0..n) against ref_encode of the inputs in (as doubles). */
static void
check_to8(const char *what, const Fmt *f, const unsigned char *p, const double *in, size_t n)
{
	size_t i, bad = 0;
	char first[160] = "";

	if (!p) {
		failures++;
		return;
	}
	for (i = 0; i < n; i++) {
		int want = ref_encode(f, in[i]);
		int ok = want < 0 ? is_nan8(f, p[i]) : p[i] == want;

		if (!ok && !bad++)
			snprintf(first, sizeof first, "[%zu] %.9g -> 0x%02x, expected 0x%02x", i, in[i],
				 p[i], want < 0 ? 0x7f : want);
	}
	verdict(what, n, bad, first);
}

static int
run_to8_f32(Dev *d, const Floats *in)
{
	to8_f32_args a;
	GtBuf bx, b[4];
	CakeError err;
	double *ref = malloc(in->n * sizeof *ref);
	size_t i;
	int k;

	memset(&a, 0, sizeof a);
	for (i = 0; i < in->n; i++)
		ref[i] = in->v[i];
	if (tensor(d, &a.x, &bx, CAKE_DTYPE_FLOAT, 32, in->n, in->v, "x") ||
	    tensor(d, &a.a4, &b[0], CAKE_DTYPE_FLOAT8_E4M3FN, 8, in->n, NULL, "a4") ||
	    tensor(d, &a.b4, &b[1], CAKE_DTYPE_FLOAT8_E5M2, 8, in->n, NULL, "b4") ||
	    tensor(d, &a.a1, &b[2], CAKE_DTYPE_FLOAT8_E4M3FN, 8, in->n, NULL, "a1") ||
	    tensor(d, &a.b1, &b[3], CAKE_DTYPE_FLOAT8_E5M2, 8, in->n, NULL, "b1"))
		return 1;
	if (to8_f32_launch(&a, d->s, &err) != CAKE_OK) {
		printf("FAIL to8_f32: %s: %s\n", cakert_status_name(err.status), err.msg);
		return 1;
	}
	check_to8("f32x4 -> e4m3x4", &e4m3, fetch(d, &b[0], "a4"), ref, in->n);
	check_to8("f32x4 -> e5m2x4", &e5m2, fetch(d, &b[1], "b4"), ref, in->n);
	check_to8("f32 -> e4m3", &e4m3, fetch(d, &b[2], "a1"), ref, in->n);
	check_to8("f32 -> e5m2", &e5m2, fetch(d, &b[3], "b1"), ref, in->n);
	gt_buf_free(&bx);
	for (k = 0; k < 4; k++)
		gt_buf_free(&b[k]);
	free(ref);
	return 0;
}

static int
run_to8_half(Dev *d)
{
	enum { N = 65536 };
	static uint16_t bits[N];
	static double hv[N], wv[N];
	to8_half_args a;
	GtBuf bh, bw, b[4];
	CakeError err;
	int i;

	memset(&a, 0, sizeof a);
	for (i = 0; i < N; i++) {
		bits[i] = (uint16_t)i;
		hv[i] = f16_value((uint16_t)i);
		wv[i] = bf16_value((uint16_t)i);
	}
	if (tensor(d, &a.h, &bh, CAKE_DTYPE_FLOAT, 16, N, bits, "h") ||
	    tensor(d, &a.w, &bw, CAKE_DTYPE_BFLOAT, 16, N, bits, "w") ||
	    tensor(d, &a.ha, &b[0], CAKE_DTYPE_FLOAT8_E4M3FN, 8, N, NULL, "ha") ||
	    tensor(d, &a.hb, &b[1], CAKE_DTYPE_FLOAT8_E5M2, 8, N, NULL, "hb") ||
	    tensor(d, &a.wa, &b[2], CAKE_DTYPE_FLOAT8_E4M3FN, 8, N, NULL, "wa") ||
	    tensor(d, &a.wb, &b[3], CAKE_DTYPE_FLOAT8_E5M2, 8, N, NULL, "wb"))
		return 1;
	if (to8_half_launch(&a, d->s, &err) != CAKE_OK) {
		printf("FAIL to8_half: %s: %s\n", cakert_status_name(err.status), err.msg);
		return 1;
	}
	check_to8("f16x2 -> e4m3x2", &e4m3, fetch(d, &b[0], "ha"), hv, N);
	check_to8("f16x2 -> e5m2x2", &e5m2, fetch(d, &b[1], "hb"), hv, N);
	check_to8("bf16x2 -> e4m3x2", &e4m3, fetch(d, &b[2], "wa"), wv, N);
	check_to8("bf16x2 -> e5m2x2", &e5m2, fetch(d, &b[3], "wb"), wv, N);
	gt_buf_free(&bh);
	gt_buf_free(&bw);
	for (i = 0; i < 4; i++)
		gt_buf_free(&b[i]);
	return 0;
}

/* Decoded outputs: kind 0 f32, 1 f16, 2 bf16; every pattern b must give f's value (any
 * NaN for NaN, infinity for e5m2's infinities). */
static void
check_from8(const char *what, const Fmt *f, const unsigned char *p, int kind)
{
	int b, bad = 0;
	char first[160] = "";

	if (!p) {
		failures++;
		return;
	}
	for (b = 0; b < 256; b++) {
		double want = f->val[b], got;
		float g32;
		uint16_t g16;

		if (f->has_inf && (b & 0x7f) == 0x7c)
			want = b & 0x80 ? -INFINITY : INFINITY;
		if (kind == 0) {
			memcpy(&g32, p + 4 * b, 4);
			got = g32;
		} else {
			memcpy(&g16, p + 2 * b, 2);
			got = kind == 1 ? f16_value(g16) : bf16_value(g16);
		}
		if (!same(got, want) && !bad++)
			snprintf(first, sizeof first, "0x%02x -> %.9g, expected %.9g", b, got, want);
	}
	verdict(what, 256, (size_t)bad, first);
}

static int
run_from8(Dev *d)
{
	static unsigned char pat[256];
	from8_args a;
	GtBuf ba, bb, o[6];
	CakeError err;
	int i;

	memset(&a, 0, sizeof a);
	for (i = 0; i < 256; i++)
		pat[i] = (unsigned char)i;
	if (tensor(d, &a.a, &ba, CAKE_DTYPE_FLOAT8_E4M3FN, 8, 256, pat, "a") ||
	    tensor(d, &a.b, &bb, CAKE_DTYPE_FLOAT8_E5M2, 8, 256, pat, "b") ||
	    tensor(d, &a.fa, &o[0], CAKE_DTYPE_FLOAT, 32, 256, NULL, "fa") ||
	    tensor(d, &a.fb, &o[1], CAKE_DTYPE_FLOAT, 32, 256, NULL, "fb") ||
	    tensor(d, &a.ha, &o[2], CAKE_DTYPE_FLOAT, 16, 256, NULL, "ha") ||
	    tensor(d, &a.hb, &o[3], CAKE_DTYPE_FLOAT, 16, 256, NULL, "hb") ||
	    tensor(d, &a.wa, &o[4], CAKE_DTYPE_BFLOAT, 16, 256, NULL, "wa") ||
	    tensor(d, &a.wb, &o[5], CAKE_DTYPE_BFLOAT, 16, 256, NULL, "wb"))
		return 1;
	if (from8_launch(&a, d->s, &err) != CAKE_OK) {
		printf("FAIL from8: %s: %s\n", cakert_status_name(err.status), err.msg);
		return 1;
	}
	check_from8("e4m3x4 -> f32x4", &e4m3, fetch(d, &o[0], "fa"), 0);
	check_from8("e5m2x4 -> f32x4", &e5m2, fetch(d, &o[1], "fb"), 0);
	check_from8("e4m3x2 -> f16x2", &e4m3, fetch(d, &o[2], "ha"), 1);
	check_from8("e5m2x2 -> f16x2", &e5m2, fetch(d, &o[3], "hb"), 1);
	check_from8("e4m3 -> bf16", &e4m3, fetch(d, &o[4], "wa"), 2);
	check_from8("e5m2 -> bf16", &e5m2, fetch(d, &o[5], "wb"), 2);
	gt_buf_free(&ba);
	gt_buf_free(&bb);
	for (i = 0; i < 6; i++)
		gt_buf_free(&o[i]);
	return 0;
}

/* ---- u8 and u16 ---- */

static unsigned
sat_trunc(float x, unsigned max)
{
	double t = trunc(x);

	return isnan(x) || t <= 0 ? 0 : t >= max ? max : (unsigned)t;
}

static void
check_ints(const char *what, const unsigned char *p, int bytes, const unsigned *want, size_t n)
{
	size_t i, bad = 0;
	char first[160] = "";

	if (!p) {
		failures++;
		return;
	}
	for (i = 0; i < n; i++) {
		unsigned got = bytes == 1 ? p[i] : (unsigned)(p[2 * i] | p[2 * i + 1] << 8);

		if (got != want[i] && !bad++)
			snprintf(first, sizeof first, "[%zu] %u, expected %u", i, got, want[i]);
	}
	verdict(what, n, bad, first);
}

static void
check_f32s(const char *what, const unsigned char *p, const unsigned *want, size_t n)
{
	size_t i, bad = 0;
	char first[160] = "";
	float g;

	if (!p) {
		failures++;
		return;
	}
	for (i = 0; i < n; i++) {
		memcpy(&g, p + 4 * i, 4);
		if (g != (float)want[i] && !bad++)
			snprintf(first, sizeof first, "[%zu] %.9g, expected %u", i, g, want[i]);
	}
	verdict(what, n, bad, first);
}

static int
run_small(Dev *d, const Floats *in)
{
	size_t n = in->n, i;
	int32_t *k = malloc(n * sizeof *k);
	unsigned *w[8];
	small_args a;
	GtBuf bx, bk, o[8];
	CakeError err;
	GtRng r;
	int j;
	const unsigned s = 77;

	memset(&a, 0, sizeof a);
	gt_rng_seed(&r, gt_seed("fp8-small", 0));
	for (j = 0; j < 8; j++)
		w[j] = malloc(n * sizeof **w);
	for (i = 0; i < n; i++) {
		unsigned p, q;

		k[i] = i < 70000 ? (int32_t)i - 1000 : (int32_t)(uint32_t)gt_rng_next(&r);
		p = (uint32_t)k[i] & 0xff;
		q = (uint32_t)k[i] & 0xffff;
		w[0][i] = sat_trunc(in->v[i], 255);
		w[1][i] = sat_trunc(in->v[i], 65535);
		w[2][i] = p;
		w[3][i] = q;
		w[4][i] = p;
		w[5][i] = q;
		w[6][i] = (((p + s) & 0xff) / 3 + (p >> 2) + (p > 200 ? (p < s ? p : s) : (p > s ? p : s))) & 0xff;
		w[7][i] = (q / 5 - (q >> 3) + ((p * 300) & 0xffff)) & 0xffff;
	}
	a.s = s;
	if (tensor(d, &a.x, &bx, CAKE_DTYPE_FLOAT, 32, n, in->v, "x") ||
	    tensor(d, &a.k, &bk, CAKE_DTYPE_INT, 32, n, k, "k") ||
	    tensor(d, &a.xu, &o[0], CAKE_DTYPE_UINT, 8, n, NULL, "xu") ||
	    tensor(d, &a.xv, &o[1], CAKE_DTYPE_UINT, 16, n, NULL, "xv") ||
	    tensor(d, &a.ku, &o[2], CAKE_DTYPE_UINT, 8, n, NULL, "ku") ||
	    tensor(d, &a.kv, &o[3], CAKE_DTYPE_UINT, 16, n, NULL, "kv") ||
	    tensor(d, &a.fu, &o[4], CAKE_DTYPE_FLOAT, 32, n, NULL, "fu") ||
	    tensor(d, &a.fv, &o[5], CAKE_DTYPE_FLOAT, 32, n, NULL, "fv") ||
	    tensor(d, &a.ar, &o[6], CAKE_DTYPE_UINT, 8, n, NULL, "ar") ||
	    tensor(d, &a.av, &o[7], CAKE_DTYPE_UINT, 16, n, NULL, "av"))
		return 1;
	if (small_launch(&a, d->s, &err) != CAKE_OK) {
		printf("FAIL small: %s: %s\n", cakert_status_name(err.status), err.msg);
		return 1;
	}
	check_ints("f32 -> u8 (truncate, saturate)", fetch(d, &o[0], "xu"), 1, w[0], n);
	check_ints("f32 -> u16 (truncate, saturate)", fetch(d, &o[1], "xv"), 2, w[1], n);
	check_ints("i32 -> u8 (wrap)", fetch(d, &o[2], "ku"), 1, w[2], n);
	check_ints("i32 -> u16 (wrap)", fetch(d, &o[3], "kv"), 2, w[3], n);
	check_f32s("u8 -> f32", fetch(d, &o[4], "fu"), w[4], n);
	check_f32s("u16 -> f32", fetch(d, &o[5], "fv"), w[5], n);
	check_ints("u8 arithmetic", fetch(d, &o[6], "ar"), 1, w[6], n);
	check_ints("u16 arithmetic", fetch(d, &o[7], "av"), 2, w[7], n);
	gt_buf_free(&bx);
	gt_buf_free(&bk);
	for (j = 0; j < 8; j++) {
		gt_buf_free(&o[j]);
		free(w[j]);
	}
	free(k);
	return 0;
}

int
main(void)
{
	Dev d;
	Floats in;
	int rc;

	fmt_init(&e4m3);
	fmt_init(&e5m2);
	rc = gt_init(&d.g, "check_fp8");
	if (rc > 0)
		return gt_skip_status();
	if (rc < 0)
		return 1;
	if (gt_cu(d.g.cu->stream_create(&d.s, CU_STREAM_NON_BLOCKING), "cuStreamCreate", "check_fp8"))
		return 1;
	in = f32_inputs();
	if (run_to8_f32(&d, &in) || run_to8_half(&d) || run_from8(&d) || run_small(&d, &in))
		failures++;
	free(in.v);
	d.g.cu->stream_destroy(d.s);
	gt_fini(&d.g);
	printf("check_fp8: %d failures\n", failures);
	return failures ? 1 : 0;
}
