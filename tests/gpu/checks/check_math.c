/* check_math.c: the math library on the GPU (checks/math.cake, docs/language.md "Math
 * functions") against the C library in double, each function within its documented bound:
 * the accurate functions in ulp, the approximate ones as docs/language.md states them
 * (from the PTX ISA), the rounding functions, copysign and the classification exactly (bit
 * for bit, zeros' signs included), and the vector forms equal to the scalar ones lane by
 * lane (bit for bit, NaNs as NaNs). Inputs: every 1031st f32 bit pattern (all exponents,
 * both signs), dense grids where the algorithms switch branches or reduce their argument,
 * and the special values (signed zeros, infinities, NaN, subnormals, the overflow and
 * underflow edges). One line per function, e.g. `PASS math exp: max_ulp 0.87 <= 1
 * (n=11200000)`; exits 1 if any fails. */
#include "gputest.h"

#include "math_f32.h"
#include "math_f64.h"
#include "math_vec.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS32 19
#define PI 3.14159265358979
/* row_err: no bound documented for this input */
#define SKIP (-INFINITY)
#define ROWS64 7

/* How a row of math_f32 is judged. */
enum { ULP, APPROX_EXP, APPROX_LOG, APPROX_TRIG, APPROX_TANH, EXACT };

typedef struct Row {
	const char *name;
	int kind;
	double bound;    /* ulp, or the absolute or relative error the kind names */
	double range;    /* |x| up to which the bound is documented */
} Row;

static const Row rows32[ROWS32] = {
	{"exp", ULP, 2, INFINITY},
	{"log", ULP, 1, INFINITY},
	{"sin", ULP, 1, INFINITY},
	{"cos", ULP, 1, INFINITY},
	{"tanh", ULP, 2, INFINITY},
	{"erf", ULP, 2, INFINITY},
	{"pow", ULP, 1, INFINITY},
	{"exp_approx", APPROX_EXP, 2, INFINITY},          /* 2 + 1.2 |x| ulp */
	{"log_approx", APPROX_LOG, 0x1p-21, INFINITY},     /* abs on [0.5, 2], else 4 ulp */
	{"sin_approx", APPROX_TRIG, 6.7434957617430e-07, PI},  /* abs, 2^-20.5 */
	{"cos_approx", APPROX_TRIG, 6.7434957617430e-07, PI},
	{"tanh_approx", APPROX_TANH, 5.2332e-04, INFINITY},     /* relative, 2^-10.9 */
	{"floor", EXACT, 0, INFINITY},
	{"ceil", EXACT, 0, INFINITY},
	{"trunc", EXACT, 0, INFINITY},
	{"round", EXACT, 0, INFINITY},
	{"rint", EXACT, 0, INFINITY},
	{"copysign", EXACT, 0, INFINITY},
	{"isnan+2*isinf", EXACT, 0, INFINITY},
};

static const char *const names64[ROWS64] = {"floor", "ceil", "trunc", "round", "rint",
					    "copysign", "isnan+2*isinf"};

/* The rows math_vec writes (the others stay poisoned). */
static const int vec_rows[] = {0, 1, 2, 3, 4, 5, 6, 11, 12, 15, 17};

static double
ref32(int row, float x, float y)
{
	switch (row) {
	case 0: case 7: return exp(x);
	case 1: case 8: return log(x);
	case 2: case 9: return sin(x);
	case 3: case 10: return cos(x);
	case 4: case 11: return tanh(x);
	case 5: return erf(x);
	case 6: return pow(x, y);
	case 12: return floorf(x);
	case 13: return ceilf(x);
	case 14: return truncf(x);
	case 15: return roundf(x);
	case 16: return rintf(x);
	case 17: return copysignf(x, y);
	default: return (isnan(x) ? 1 : 0) + (isinf(x) ? 2 : 0);
	}
}

/* The error of got in ulps of the f32 nearest to the exact ref (subnormal ulps below
 * 2^-126, FLT_MAX's above); NaN, infinities and zeros must match exactly (zeros in sign). */
static double
ulp_err(float got, double ref)
{
	int e;

	if (isnan(ref) || isnan(got))
		return isnan(ref) && isnan(got) ? 0 : INFINITY;
	if (ref == 0)
		return got == 0 && !signbit(got) == !signbit(ref) ? 0 : INFINITY;
	if (isinf(got) || isinf((float)ref))
		return got == (float)ref ? 0 : INFINITY;
	frexp(ref, &e);
	if (e - 1 < -126)
		e = -125;
	if (e - 1 > 127)
		e = 128;
	return fabs((double)got - ref) / ldexp(1.0, e - 1 - 23);
}

/* The error of row's result got for x, y in the unit of its bound (so <= bound passes);
 * SKIP where the row documents no bound for x. */
static double
row_err(int row, float x, float y, float got)
{
	const Row *r = &rows32[row];
	double ref = ref32(row, x, y);

	if (fabsf(x) > r->range && !isinf(x))
		return SKIP;
	switch (r->kind) {
	case ULP:
		return ulp_err(got, ref);
	case APPROX_EXP:
		if (isinf(got) && ref > 0x1p127)
			return SKIP;  /* the last ulps before overflow */
		if (fabs(ref) < FLT_MIN && got == 0)
			return 0;     /* ex2.approx.ftz: a subnormal result is 0 */
		return fmax(0, ulp_err(got, ref) - 1.2 * fabsf(x));
	case APPROX_LOG:
		if (x >= 0.5f && x <= 2.0f)
			return fabs(got - ref);
		return ulp_err(got, ref) / 4 * r->bound;  /* 4 ulp elsewhere */
	case APPROX_TRIG:
		if (isinf(x))
			return isnan(got) ? 0 : INFINITY;
		return isnan(x) ? (isnan(got) ? 0 : INFINITY) : fabs(got - ref);
	case APPROX_TANH:
		if (fabsf(x) < FLT_MIN && x != 0)
			return SKIP;  /* subnormal inputs: not documented */
		if (isnan(x))
			return isnan(got) ? 0 : INFINITY;
		return fabs(got - ref) / fmax(fabs(ref), FLT_MIN);
	default: {
		float want = (float)ref;

		return (isnan(want) && isnan(got)) || memcmp(&want, &got, 4) == 0 ? 0 : INFINITY;
	}
	}
}

static const float specials[] = {
	0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f,
	2.0f, -2.0f, 3.0f, -3.0f, 1e-45f, -1e-45f, 1e-40f, -1e-40f, FLT_MIN, -FLT_MIN, FLT_MAX,
	-FLT_MAX, 1e-7f, 1e-20f, 88.72283f, 88.7229f, -87.33654f, -103.97208f, -104.0f,
	0.54999995f, 0.55f, 0.99999994f, 1.0000001f, 3.9999998f, 4.0f, 9.0f, 44.0f, 1.5707964f,
	3.1415927f, -3.1415927f, 105615.0f, 1e10f, 1e30f, 0.49999997f, 8388607.5f, 8388608.0f,
	16777215.0f, -8388607.5f, 4194304.5f,
};
#define NSPECIALS ((int)(sizeof specials / sizeof specials[0]))

static float
f_of(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* The inputs: x for every function, y for pow and copysign. Returns n (a multiple of 4). */
static size_t
make_inputs(float **px, float **py)
{
	size_t cap = 12u << 20, n = 0, k;  /* 11.2 million used */
	float *x = malloc(cap * 4), *y = malloc(cap * 4);
	uint64_t u;
	GtRng r;
	int i;

	gt_rng_seed(&r, gt_seed("check_math", 0));
	for (i = 0; i < NSPECIALS; i++)
		for (k = 0; k < (size_t)NSPECIALS; k++) {
			x[n] = specials[i];
			y[n++] = specials[k];
		}
	for (u = 0; u < (UINT64_C(1) << 32); u += 1031) {
		x[n] = f_of((uint32_t)u);
		y[n++] = (float)gt_rng_uniform(&r, -4, 4);
	}
	for (k = 0; k < (1u << 20); k++) {
		float t = 0.5f + (float)k * 0x1p-20f;  /* [0.5, 1.5) */
		float z = (float)gt_rng_uniform(&r, -1, 1);

		x[n] = t;                    /* log near 1; pow with large |y| */
		y[n++] = z * 3000.0f;
		x[n] = -t * 3.0f;            /* tanh, erf branches; negative bases, integer y */
		y[n++] = rintf(z * 40.0f);
		x[n] = (float)k * 0.0996f;   /* sin, cos: k pi/2 up to 104000 */
		y[n] = -x[n];
		n++;
		x[n] = 80.0f + t * 16.0f;    /* exp near overflow */
		y[n++] = z;
		x[n] = -90.0f - t * 16.0f;   /* exp near underflow */
		y[n++] = z * 0.5f;
		x[n] = (float)ldexp(1.0 + (double)z, (int)(k % 300) - 150);  /* pow: all scales */
		y[n++] = (float)(k % 7) - 3.0f + ((k & 8) ? 0.5f : 0.0f);
		x[n] = z * 8.0f;             /* exact ops near halves */
		y[n++] = -z;
	}
	while (n % 4) {
		x[n] = 1.0f;
		y[n++] = 1.0f;
	}
	*px = x;
	*py = y;
	return n;
}

static int
report(const Row *r, double max, size_t count, float wx, float wy)
{
	int ok = max <= r->bound;

	printf("%s math %s: ", ok ? "PASS" : "FAIL", r->name);
	if (r->kind == EXACT)
		printf("%s", ok ? "exact" : "not exact");
	else if (r->kind == ULP || r->kind == APPROX_EXP)
		printf("max_ulp %.2f%s <= %g", max, r->kind == APPROX_EXP ? " - 1.2|x|" : "", r->bound);
	else if (r->kind == APPROX_LOG)
		printf("max_abs %.3g <= %.3g on [0.5, 2], 4 ulp elsewhere", max, r->bound);
	else
		printf("max_%s %.3g <= %.3g", r->kind == APPROX_TANH ? "rel" : "abs", max, r->bound);
	if (isfinite(r->range))
		printf(" for |x| <= %g", r->range);
	printf(" (n=%zu)", count);
	if (!ok)
		printf(" worst at x=%a y=%a", wx, wy);
	printf("\n");
	return !ok;
}

int
main(void)
{
	GtDev g;
	CUstream s = NULL;
	CakeError err;
	GtBuf dx, dy, dd, de, o32, o64, ov;
	float *x, *y;
	double *d, *e;
	size_t n, i;
	int64_t shape1[1], shape32[2], shape64[2];
	const unsigned char *p32, *p64, *pv;
	int rc, row, failed = 0, guards = 1;
	math_f32_args a32;
	math_f64_args a64;
	math_vec_args av;

	rc = gt_init(&g, "check_math");
	if (rc > 0)
		return gt_skip_status();
	if (rc < 0)
		return 1;
	n = make_inputs(&x, &y);
	d = malloc(n * 8);
	e = malloc(n * 8);
	for (i = 0; i < n; i++) {
		/* f64 inputs: the f32 ones, and halves and huge values in double's own range */
		d[i] = (i & 1) ? (double)x[i] : (double)x[i] * 0x1p40 + 0.5;
		e[i] = (double)y[i];
	}
	shape1[0] = (int64_t)n;
	shape32[0] = ROWS32;
	shape32[1] = shape64[1] = (int64_t)n;
	shape64[0] = ROWS64;
	if (gt_cu(g.cu->stream_create(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate", "check_math") ||
	    gt_buf_alloc(&dx, n * 4, "x") || gt_buf_alloc(&dy, n * 4, "y") ||
	    gt_buf_alloc(&dd, n * 8, "d") || gt_buf_alloc(&de, n * 8, "e") ||
	    gt_buf_alloc(&o32, n * 4 * ROWS32, "o32") || gt_buf_alloc(&o64, n * 8 * ROWS64, "o64") ||
	    gt_buf_alloc(&ov, n * 4 * ROWS32, "ov") ||
	    gt_buf_poison(&dx, s, "x") || gt_buf_upload(&dx, x, s, "x") ||
	    gt_buf_poison(&dy, s, "y") || gt_buf_upload(&dy, y, s, "y") ||
	    gt_buf_poison(&dd, s, "d") || gt_buf_upload(&dd, d, s, "d") ||
	    gt_buf_poison(&de, s, "e") || gt_buf_upload(&de, e, s, "e") ||
	    gt_buf_poison(&o32, s, "o32") || gt_buf_poison(&o64, s, "o64") || gt_buf_poison(&ov, s, "ov"))
		return 1;
	gt_tensor(&a32.x, &g, &dx, CAKE_DTYPE_FLOAT, 32, 1, shape1);
	gt_tensor(&a32.y, &g, &dy, CAKE_DTYPE_FLOAT, 32, 1, shape1);
	gt_tensor(&a32.o, &g, &o32, CAKE_DTYPE_FLOAT, 32, 2, shape32);
	gt_tensor(&a64.d, &g, &dd, CAKE_DTYPE_FLOAT, 64, 1, shape1);
	gt_tensor(&a64.e, &g, &de, CAKE_DTYPE_FLOAT, 64, 1, shape1);
	gt_tensor(&a64.o, &g, &o64, CAKE_DTYPE_FLOAT, 64, 2, shape64);
	av.x = a32.x;
	av.y = a32.y;
	gt_tensor(&av.o, &g, &ov, CAKE_DTYPE_FLOAT, 32, 2, shape32);
	if (math_f32_launch(&a32, s, &err) != CAKE_OK || math_f64_launch(&a64, s, &err) != CAKE_OK ||
	    math_vec_launch(&av, s, &err) != CAKE_OK) {
		printf("FAIL math: launch: %s: %s\n", cakert_status_name(err.status), err.msg);
		return 1;
	}
	p32 = gt_fetch(&o32, s, "o32", &guards);
	p64 = gt_fetch(&o64, s, "o64", &guards);
	pv = gt_fetch(&ov, s, "ov", &guards);
	if (!p32 || !p64 || !pv)
		return 1;
	for (row = 0; row < ROWS32; row++) {
		const float *got = (const float *)p32 + (size_t)row * n;
		double max = 0, err1;
		size_t count = 0, worst = 0;

		for (i = 0; i < n; i++) {
			err1 = row_err(row, x[i], y[i], got[i]);
			if (err1 == SKIP)
				continue;
			count++;
			if (!(err1 <= max)) {
				max = err1;
				worst = i;
			}
		}
		failed |= report(&rows32[row], max, count, x[worst], y[worst]);
	}
	for (row = 0; row < ROWS64; row++) {
		const double *got = (const double *)p64 + (size_t)row * n;
		size_t bad = 0, worst = 0;

		for (i = 0; i < n; i++) {
			double v = d[i], want;

			switch (row) {
			case 0: want = floor(v); break;
			case 1: want = ceil(v); break;
			case 2: want = trunc(v); break;
			case 3: want = round(v); break;
			case 4: want = rint(v); break;
			case 5: want = copysign(v, e[i]); break;
			default: want = (isnan(v) ? 1 : 0) + (isinf(v) ? 2 : 0); break;
			}
			if (!(isnan(want) && isnan(got[i])) && memcmp(&want, &got[i], 8) != 0 && !bad++)
				worst = i;
		}
		printf("%s math %s f64: %s (n=%zu)", bad ? "FAIL" : "PASS", names64[row],
		       bad ? "not exact" : "exact", n);
		if (bad)
			printf(" %zu wrong, first at x=%a", bad, d[worst]);
		printf("\n");
		failed |= bad != 0;
	}
	for (i = 0; i < sizeof vec_rows / sizeof vec_rows[0]; i++) {
		size_t off = (size_t)vec_rows[i] * n * 4, bad = 0, j;

		for (j = 0; j < n; j++) {
			float a, b;

			memcpy(&a, p32 + off + j * 4, 4);
			memcpy(&b, pv + off + j * 4, 4);
			bad += !(isnan(a) && isnan(b)) && memcmp(&a, &b, 4) != 0;  /* any NaN */
		}
		printf("%s math %s vector: %s (n=%zu)\n", bad ? "FAIL" : "PASS", rows32[vec_rows[i]].name,
		       bad ? "differs from the scalar form" : "equals the scalar form", n);
		failed |= bad != 0;
	}
	if (!guards) {
		printf("FAIL math: a guard byte changed (a write out of bounds)\n");
		failed = 1;
	}
	g.cu->stream_destroy(s);
	gt_fini(&g);
	return failed;
}
