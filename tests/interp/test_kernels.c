/* test_kernels.c: the kernels of kernels_src (elementwise, reduction, matmul, the gdp
 * decode family with its staged twin and its TMA design, and the Hopper GEMMs) run in-process through the interpreter's
 * C API (interp/interp.h) on small shapes (ragged ones included), with random inputs,
 * against double-precision references, with the thresholds and floors of the GPU tests
 * (tests/gpu/case_<kernel>.c, where each is derived): the metric is
 * |got - ref| / max(|ref|, floor). Prints one PASS/FAIL line per case and exits 1 on any
 * failure. `seeds N` runs every case under N seeds of the scheduler (each a different
 * block and warp order; none may report a finding); `sgemm M N K` times one sgemm_tiled
 * run instead, `gemm M N K` one gemm_bf16 run; `sweep N` runs every shipped kernel on one
 * small shape under N seeds.
 *
 * `bwgemm M N K SMS` one gemm_sm100_bf16 run with num_sms = SMS, `bw2gemm M N K SMS` one
 * gemm_sm100_2cta_bf16 run.
 * Usage: test_kernels SRCROOT [sgemm M N K | gemm M N K | bwgemm | bw2gemm M N K SMS | seeds N | sweep N] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../frontend/frontend.h"
#include "../../interp/interp.h"
#include "../../passes/passes.h"

static const char *srcroot;
static int failures;

/* splitmix64, uniform doubles in [lo, hi) */
static uint64_t rng_state;

static double
uniform(double lo, double hi)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return lo + (hi - lo) * (double)(z >> 11) * 0x1p-53;
}

static uint16_t
bf16_from(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	if ((u & 0x7fffffff) > 0x7f800000)
		return (uint16_t)(u >> 16 | 0x40);
	return (uint16_t)((u + 0x7fff + (u >> 16 & 1)) >> 16);
}

static double
bf16_to(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* The compiled kernels, kept until the end (free_kernels). */
#define MAX_CACHE 64
static struct {
	const char *file, *name;
	const FeDefine *defs;
	int staged;
	IrKernel *k;
	IrModule *m;
	char *text;
} cache[MAX_CACHE];
static int ncache;

static void
free_kernels(void)
{
	int i;

	for (i = 0; i < ncache; i++) {
		ir_module_free(cache[i].m);
		free(cache[i].text);
	}
}

/* The kernel `name` of kernels_src/<file> with the -D defines and, when staged, without
 * staging elision, after the -O2 pipeline; compiled once per combination. */
static IrKernel *
kernel_with(const char *file, const char *name, const FeDefine *defs, int ndefs, int staged)
{
	char path[1024];
	size_t len;
	char *text;
	IrModule *m;
	IrKernel *k = NULL;
	PassOptions po;
	int i;

	FeOptions fo;

	for (i = 0; i < ncache; i++)
		if (strcmp(cache[i].file, file) == 0 && strcmp(cache[i].name, name) == 0 &&
		    cache[i].defs == defs && cache[i].staged == staged)
			return cache[i].k;
	memset(&fo, 0, sizeof fo);
	fo.defines = defs;
	fo.ndefines = ndefs;
	snprintf(path, sizeof path, "%s/kernels_src/%s", srcroot, file);
	if (!(text = read_file(path, &len)) || !(m = fe_compile(path, text, len, &fo))) {
		fprintf(stderr, "cannot compile %s\n", path);
		exit(1);
	}
	for (i = 0; i < m->nkernels; i++)
		if (strcmp(m->kernels[i]->name, name) == 0)
			k = m->kernels[i];
	memset(&po, 0, sizeof po);
	po.opt_level = 2;
	po.need_layout = 1;
	po.no_staging_elision = staged;
	if (!k || pass_pipeline(k, &po) != 0) {
		fprintf(stderr, "no kernel %s in %s\n", name, path);
		exit(1);
	}
	if (ncache == MAX_CACHE) {
		fprintf(stderr, "too many kernels\n");
		exit(1);
	}
	cache[ncache].file = file;
	cache[ncache].name = name;
	cache[ncache].defs = defs;
	cache[ncache].staged = staged;
	cache[ncache].m = m;
	cache[ncache].text = text;
	cache[ncache++].k = k;
	return k;
}

static IrKernel *
kernel(const char *file, const char *name)
{
	return kernel_with(file, name, NULL, 0, 0);
}

/* The argument of k's parameter `name` in args (one per parameter). */
static InterpArg *
arg(const IrKernel *k, InterpArg *args, const char *name)
{
	int i;

	for (i = 0; i < k->nparams; i++)
		if (strcmp(k->params[i].name, name) == 0)
			return &args[i];
	fprintf(stderr, "kernel %s has no parameter %s\n", k->name, name);
	exit(1);
}

static void
tensor(InterpArg *a, void *data, int rank, int64_t d0, int64_t d1)
{
	a->data = data;
	a->rank = rank;
	a->shape[0] = d0;
	a->shape[1] = d1;
}

/* what num_sms is in grid formulas (0: the interpreter's default, 132); the persistent
 * GEMMs set it low to run more tiles than CTAs */
static int64_t num_sms;

static int
run(const IrKernel *k, InterpArg *args, uint64_t seed)
{
	InterpOptions o;

	interp_options_default(&o);
	o.seed = seed;
	o.num_sms = num_sms;
	/* to measure what the global race check costs */
	if (getenv("INTERP_NO_GLOBAL_RACES"))
		o.check_global_races = 0;
	return interp_run(k, args, &o);
}

/* got[i] (as doubles) against ref[i]; prints the case line. */
static void
compare(const char *what, const double *got, const double *ref, size_t n, double floor, double threshold)
{
	double worst = 0;
	size_t i, at = 0;

	for (i = 0; i < n; i++) {
		double d = fabs(got[i] - ref[i]) / fmax(fabs(ref[i]), floor);

		if (!(d <= worst)) {
			worst = isnan(d) ? INFINITY : d;
			at = i;
		}
	}
	if (worst <= threshold) {
		printf("PASS %s: max_rel_err %.3g <= %g\n", what, worst, threshold);
	} else {
		printf("FAIL %s: max_rel_err %.3g > %g at element %zu: got %.9g, ref %.9g\n", what, worst,
		       threshold, at, got[at], ref[at]);
		failures++;
	}
}

static void
fail_run(const char *what)
{
	printf("FAIL %s: the interpreter reported a finding\n", what);
	failures++;
}

/* axpby: threshold 1e-6, floor 1 (case_axpby.c) */
static void
test_axpby(int64_t n, uint64_t seed)
{
	IrKernel *k = kernel("elementwise/axpby.cake", "axpby");
	float *x = malloc((size_t)n * 4 + 4), *y = malloc((size_t)n * 4 + 4);
	double *ref = malloc((size_t)n * 8 + 8), *got = malloc((size_t)n * 8 + 8);
	InterpArg args[64];
	char what[64];
	float a = (float)uniform(-1.5, 1.5), b = (float)uniform(-1.5, 1.5);
	int64_t i;

	memset(args, 0, sizeof args);
	for (i = 0; i < n; i++) {
		x[i] = (float)uniform(-1, 1);
		y[i] = (float)uniform(-1, 1);
		ref[i] = (double)a * x[i] + (double)b * y[i];
	}
	tensor(arg(k, args, "x"), x, 1, n, 0);
	tensor(arg(k, args, "y"), y, 1, n, 0);
	arg(k, args, "a")->f = a;
	arg(k, args, "b")->f = b;
	snprintf(what, sizeof what, "axpby n=%lld seed=%llu", (long long)n, (unsigned long long)seed);
	if (run(k, args, seed) != 0) {
		fail_run(what);
	} else {
		for (i = 0; i < n; i++)
			got[i] = y[i];
		compare(what, got, ref, (size_t)n, 1.0, 1e-6);
	}
	free(x);
	free(y);
	free(ref);
	free(got);
}

/* silu_mul: threshold 1e-2, floor 1e-6 (case_silu_mul.c) */
static void
test_silu_mul(int64_t n, uint64_t seed)
{
	IrKernel *k = kernel("elementwise/silu_mul.cake", "silu_mul");
	uint16_t *g = malloc((size_t)n * 2 + 2), *u = malloc((size_t)n * 2 + 2), *o = malloc((size_t)n * 2 + 2);
	double *ref = malloc((size_t)n * 8 + 8), *got = malloc((size_t)n * 8 + 8);
	InterpArg args[64];
	char what[64];
	int64_t i;

	memset(args, 0, sizeof args);
	for (i = 0; i < n; i++) {
		double gv, uv;

		g[i] = bf16_from((float)uniform(-6, 6));
		u[i] = bf16_from((float)uniform(-2, 2));
		gv = bf16_to(g[i]);
		uv = bf16_to(u[i]);
		ref[i] = gv / (1.0 + exp(-gv)) * uv;
	}
	tensor(arg(k, args, "gate"), g, 1, n, 0);
	tensor(arg(k, args, "up"), u, 1, n, 0);
	tensor(arg(k, args, "out"), o, 1, n, 0);
	snprintf(what, sizeof what, "silu_mul n=%lld seed=%llu", (long long)n, (unsigned long long)seed);
	if (run(k, args, seed) != 0) {
		fail_run(what);
	} else {
		for (i = 0; i < n; i++)
			got[i] = bf16_to(o[i]);
		compare(what, got, ref, (size_t)n, 1e-6, 1e-2);
	}
	free(g);
	free(u);
	free(o);
	free(ref);
	free(got);
}

/* rmsnorm, rmsnorm_rows: threshold 1e-2, floor 1e-6, eps 1e-5 (case_rmsnorm.c) */
static void
test_rmsnorm(const char *file, const char *name, int64_t m, int64_t n, uint64_t seed)
{
	IrKernel *k = kernel(file, name);
	size_t mn = (size_t)(m * n);
	uint16_t *x = malloc(mn * 2 + 2), *w = malloc((size_t)n * 2 + 2), *y = malloc(mn * 2 + 2);
	double *ref = malloc(mn * 8 + 8), *got = malloc(mn * 8 + 8);
	InterpArg args[64];
	char what[96];
	int64_t i, j;

	memset(args, 0, sizeof args);
	for (j = 0; j < n; j++)
		w[j] = bf16_from((float)uniform(0.25, 2.0));
	for (i = 0; i < m; i++) {
		double scale = uniform(0.1, 4.0), ss = 0, inv;

		for (j = 0; j < n; j++) {
			x[i * n + j] = bf16_from((float)uniform(-scale, scale));
			ss += bf16_to(x[i * n + j]) * bf16_to(x[i * n + j]);
		}
		inv = 1.0 / sqrt(ss / (double)n + (double)1e-5f);
		for (j = 0; j < n; j++)
			ref[i * n + j] = bf16_to(x[i * n + j]) * inv * bf16_to(w[j]);
	}
	tensor(arg(k, args, "x"), x, 2, m, n);
	tensor(arg(k, args, "w"), w, 1, n, 0);
	tensor(arg(k, args, "y"), y, 2, m, n);
	arg(k, args, "eps")->f = 1e-5f;
	snprintf(what, sizeof what, "%s M=%lld N=%lld seed=%llu", name, (long long)m, (long long)n,
		 (unsigned long long)seed);
	if (run(k, args, seed) != 0) {
		fail_run(what);
	} else {
		for (i = 0; i < (int64_t)mn; i++)
			got[i] = bf16_to(y[i]);
		compare(what, got, ref, mn, 1e-6, 1e-2);
	}
	free(x);
	free(w);
	free(y);
	free(ref);
	free(got);
}

/* softmax: threshold 2e-5, floor 1e-15; softmax_rows: also the bound of its online sums,
 * 4 (N / 32 + 5) 2^-24, where that is larger (case_softmax.c, case_softmax_rows.c) */
static void
test_softmax(const char *file, const char *name, int64_t m, int64_t n, uint64_t seed)
{
	IrKernel *k = kernel(file, name);
	size_t mn = (size_t)(m * n);
	float *x = malloc(mn * 4 + 4), *y = malloc(mn * 4 + 4);
	double *ref = malloc(mn * 8 + 8), *got = malloc(mn * 8 + 8);
	double threshold = 2e-5, bound = 4.0 * ((double)n / 32.0 + 5.0) * 0x1p-24;
	InterpArg args[64];
	char what[96];
	int64_t i, j;

	memset(args, 0, sizeof args);
	for (i = 0; i < m; i++) {
		double shift = uniform(-4, 4), mx = -HUGE_VAL, sum = 0;

		for (j = 0; j < n; j++) {
			x[i * n + j] = (float)(shift + uniform(-8, 8));
			mx = fmax(mx, x[i * n + j]);
		}
		for (j = 0; j < n; j++)
			sum += ref[i * n + j] = exp((double)x[i * n + j] - mx);
		for (j = 0; j < n; j++)
			ref[i * n + j] /= sum;
	}
	if (strcmp(name, "softmax_rows") == 0 && bound > threshold)
		threshold = bound;
	tensor(arg(k, args, "x"), x, 2, m, n);
	tensor(arg(k, args, "y"), y, 2, m, n);
	snprintf(what, sizeof what, "%s M=%lld N=%lld seed=%llu", name, (long long)m, (long long)n,
		 (unsigned long long)seed);
	if (run(k, args, seed) != 0) {
		fail_run(what);
	} else {
		for (i = 0; i < (int64_t)mn; i++)
			got[i] = y[i];
		compare(what, got, ref, mn, 1e-15, threshold);
	}
	free(x);
	free(y);
	free(ref);
	free(got);
}

/* sgemm_tiled: threshold 1e-6 sqrt(K), floor sqrt(K) (case_sgemm_tiled.c); returns the
 * interpreter's time in seconds */
static double
test_sgemm(int64_t m, int64_t n, int64_t kk, uint64_t seed)
{
	IrKernel *k = kernel("matmul/sgemm_tiled.cake", "sgemm_tiled");
	float *a = malloc((size_t)(m * kk) * 4 + 4), *b = malloc((size_t)(kk * n) * 4 + 4);
	float *c = malloc((size_t)(m * n) * 4 + 4);
	double *ref = calloc((size_t)(m * n) + 1, 8), *got = malloc((size_t)(m * n) * 8 + 8);
	double sk = sqrt((double)kk), secs;
	InterpArg args[64];
	char what[96];
	int64_t i, j, p;
	double t0;

	memset(args, 0, sizeof args);
	for (i = 0; i < m * kk; i++)
		a[i] = (float)uniform(-1, 1);
	for (i = 0; i < kk * n; i++)
		b[i] = (float)uniform(-1, 1);
	for (i = 0; i < m; i++)
		for (p = 0; p < kk; p++)
			for (j = 0; j < n; j++)
				ref[i * n + j] += (double)a[i * kk + p] * b[p * n + j];
	tensor(arg(k, args, "A"), a, 2, m, kk);
	tensor(arg(k, args, "B"), b, 2, kk, n);
	tensor(arg(k, args, "C"), c, 2, m, n);
	snprintf(what, sizeof what, "sgemm_tiled M=%lld N=%lld K=%lld seed=%llu", (long long)m, (long long)n,
		 (long long)kk, (unsigned long long)seed);
	t0 = clock_ms();
	if (run(k, args, seed) != 0) {
		fail_run(what);
	} else {
		for (i = 0; i < m * n; i++)
			got[i] = c[i];
		compare(what, got, ref, (size_t)(m * n), sk, 1e-6 * sk);
	}
	secs = (clock_ms() - t0) / 1000.0;
	free(a);
	free(b);
	free(c);
	free(ref);
	free(got);
	return secs;
}

/* ---- the Hopper GEMMs (kernels_src/gemm): TMA, mbarrier pipeline, wgmma ---- */

/* x = k / 256 (|k| < 256): exact in bf16 and in f16 (normal) */
static uint16_t
f16_exact(double x)
{
	int e;
	double m = frexp(fabs(x), &e);   /* x = m 2^e, m in [0.5, 1) */

	if (x == 0)
		return 0;
	return (uint16_t)((x < 0 ? 0x8000 : 0) | (e - 1 + 15) << 10 | (int)((m * 2 - 1) * 1024));
}

static double
f16_value(uint16_t h)
{
	int e = h >> 10 & 31, m = h & 1023;
	double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);

	if (e == 31)
		v = m ? NAN : INFINITY;
	return h & 0x8000 ? -v : v;
}

/* gemm_bf16 and its f16/f32 siblings (in_f16: 0 bf16, 1 f16, 2 e4m3 inputs; an e4m3 GEMM
 * writes bf16): C = A B^T against a double reference, with
 * case_gemm_bf16.c's metric: floor sqrt(K) / 3, threshold u_out + K 2^-20. Returns the
 * interpreter's time in seconds. */
static double
test_gemm(const char *file, const char *name, int in_f16, int out_f32, int64_t m, int64_t n, int64_t kk, uint64_t seed)
{
	IrKernel *k = kernel(file, name);
	uint16_t *a = malloc((size_t)(m * kk) * 2 + 2), *b = malloc((size_t)(n * kk) * 2 + 2);
	void *c = malloc((size_t)(m * n) * 4 + 4);
	double *av = malloc((size_t)(m * kk) * 8 + 8), *bv = malloc((size_t)(n * kk) * 8 + 8);
	double *ref = calloc((size_t)(m * n) + 1, 8), *got = malloc((size_t)(m * n) * 8 + 8);
	double floor = sqrt((double)kk) / 3.0, secs, t0;
	InterpArg args[64];
	char what[128];
	int64_t i, j, p;

	memset(args, 0, sizeof args);
	for (i = 0; i < m * kk + n * kk; i++) {
		int q, r = in_f16 == 2 ? 16 : 256;   /* q / 16, |q| < 16: exact in e4m3 */

		while ((q = (int)uniform(-r, r)) == 0)
			;
		if (i < m * kk)
			av[i] = q / (double)r;
		else
			bv[i - m * kk] = q / (double)r;
	}
	for (i = 0; i < m * kk; i++)
		a[i] = in_f16 == 2 ? 0 : in_f16 ? f16_exact(av[i]) : bf16_from((float)av[i]);
	for (i = 0; i < n * kk; i++)
		b[i] = in_f16 == 2 ? 0 : in_f16 ? f16_exact(bv[i]) : bf16_from((float)bv[i]);
	for (i = 0; in_f16 == 2 && i < m * kk; i++)
		((uint8_t *)a)[i] = ir_fp8_encode(IR_E4M3, av[i]);
	for (i = 0; in_f16 == 2 && i < n * kk; i++)
		((uint8_t *)b)[i] = ir_fp8_encode(IR_E4M3, bv[i]);
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++)
			for (p = 0; p < kk; p++)
				ref[i * n + j] += av[i * kk + p] * bv[j * kk + p];
	tensor(arg(k, args, "a"), a, 2, m, kk);
	tensor(arg(k, args, "b"), b, 2, n, kk);
	tensor(arg(k, args, "c"), c, 2, m, n);
	snprintf(what, sizeof what, "%s M=%lld N=%lld K=%lld seed=%llu", name, (long long)m, (long long)n,
		 (long long)kk, (unsigned long long)seed);
	t0 = clock_ms();
	if (run(k, args, seed) != 0) {
		fail_run(what);
	} else {
		for (i = 0; i < m * n; i++)
			got[i] = out_f32 ? (double)((float *)c)[i]
				 : in_f16 == 1 ? f16_value(((uint16_t *)c)[i]) : bf16_to(((uint16_t *)c)[i]);
		compare(what, got, ref, (size_t)(m * n), floor,
			(out_f32 ? 0 : in_f16 == 1 ? ldexp(1, -11) : ldexp(1, -8)) + ldexp((double)kk, -20));
	}
	secs = (clock_ms() - t0) / 1000.0;
	free(a);
	free(b);
	free(c);
	free(av);
	free(bv);
	free(ref);
	free(got);
	return secs;
}

/* test_gemm with num_sms = sms: with fewer CTAs (clusters) than tiles each runs several
 * tiles, through every pipeline and accumulator stage. */
static void
test_gemm_sms(const char *file, const char *name, int in_f16, int out_f32, int64_t m, int64_t n, int64_t kk,
	      int64_t sms, uint64_t seed)
{
	num_sms = sms;
	test_gemm(file, name, in_f16, out_f32, m, n, kk, seed);
	num_sms = 0;
}

/* The Blackwell GEMMs (gemm_sm100.cake: TMA, tcgen05.mma into tensor memory, the epilogue
 * reading it). */
static void
test_bwgemm(const char *name, int in_f16, int out_f32, int64_t m, int64_t n, int64_t kk, int64_t sms, uint64_t seed)
{
	test_gemm_sms("gemm/gemm_sm100.cake", name, in_f16, out_f32, m, n, kk, sms, seed);
}

/* The same on CTA pairs (gemm_sm100_2cta.cake: cluster(2), cta_group::2 MMAs of 256 x 256
 * tiles, sms / 2 pairs; gemm_sm100_2cta_mc: two pairs per cluster). */
static void
test_bw2gemm(const char *name, int in_f16, int out_f32, int64_t m, int64_t n, int64_t kk, int64_t sms, uint64_t seed)
{
	test_gemm_sms("gemm/gemm_sm100_2cta.cake", name, in_f16, out_f32, m, n, kk, sms, seed);
}

/* x[i] = q / 256 with q a random nonzero integer in (-256, 256): exact in bf16 and f16 */
static void
exact_values(double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int q;

		while ((q = (int)uniform(-256, 256)) == 0)
			;
		x[i] = q / 256.0;
	}
}

/* rows x cols of a b^T, a rows x 64 and b cols x 64 */
static void
ref_abt(double *out, const double *a, const double *b, int rows, int cols)
{
	int i, j, p;

	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++) {
			double s = 0;

			for (p = 0; p < 64; p++)
				s += a[i * 64 + p] * b[j * 64 + p];
			out[i * cols + j] = s;
		}
}

/* tests/gpu/checks/wgmma_rs.cake: the RS form (A from registers, bf16a(acc)) and N = 64,
 * 16, 8 from shared arrays the kernel swizzles itself with the hardware's 128-byte pattern
 * (which its GPU check pins): P = A1 B1^T exactly, then bf16(P) B2^T, bf16(P) B16^T,
 * bf16(P) B8^T and A1 B8^T, within 1e-5 (floor 1) of double references that round P to
 * bf16 as the kernel does. */
static void
test_wgmma_rs(uint64_t seed)
{
	static const char *in[] = {"a1", "b1", "b2", "b16", "b8"}, *out[] = {"p", "o", "o16", "o8", "s8"};
	static const int in_rows[] = {64, 64, 64, 16, 8}, out_cols[] = {64, 64, 16, 8, 8};
	IrKernel *k = kernel("../tests/gpu/checks/wgmma_rs.cake", "wgmma_rs");
	double *x[5], *ref[5], pr[64 * 64], got[64 * 64];
	uint16_t *xb[5];
	float *o[5];
	InterpArg args[64];
	char what[96];
	int i, j;

	memset(args, 0, sizeof args);
	for (i = 0; i < 5; i++) {
		x[i] = malloc(sizeof **x * (size_t)in_rows[i] * 64);
		xb[i] = malloc(2 * (size_t)in_rows[i] * 64);
		exact_values(x[i], (size_t)in_rows[i] * 64);
		for (j = 0; j < in_rows[i] * 64; j++)
			xb[i][j] = bf16_from((float)x[i][j]);
		tensor(arg(k, args, in[i]), xb[i], 2, in_rows[i], 64);
		ref[i] = malloc(sizeof **ref * 64 * (size_t)out_cols[i]);
		o[i] = malloc(4 * 64 * (size_t)out_cols[i]);
		tensor(arg(k, args, out[i]), o[i], 2, 64, out_cols[i]);
	}
	ref_abt(ref[0], x[0], x[1], 64, 64);
	for (j = 0; j < 64 * 64; j++)
		pr[j] = bf16_to(bf16_from((float)ref[0][j]));
	ref_abt(ref[1], pr, x[2], 64, 64);
	ref_abt(ref[2], pr, x[3], 64, 16);
	ref_abt(ref[3], pr, x[4], 64, 8);
	ref_abt(ref[4], x[0], x[4], 64, 8);
	if (run(k, args, seed) != 0) {
		fail_run("wgmma_rs");
	} else {
		for (i = 0; i < 5; i++) {
			for (j = 0; j < 64 * out_cols[i]; j++)
				got[j] = o[i][j];
			snprintf(what, sizeof what, "wgmma_rs %s seed=%llu", out[i], (unsigned long long)seed);
			compare(what, got, ref[i], (size_t)(64 * out_cols[i]), 1.0, 1e-5);
		}
	}
	for (i = 0; i < 5; i++) {
		free(x[i]);
		free(xb[i]);
		free(ref[i]);
		free(o[i]);
	}
}

/* ---- gdp decode (docs/gdp.md): the state and intermediate states within 1e-4 relative
 * (floor 0.1), the outputs within 1e-2 (floor 1e-2), as case_gdp.c; bf16, no L2 norm ---- */

typedef struct Gdp {
	int B, T, NH, HV, HQK, K, V, TI;
	uint16_t *q, *k, *v, *beta;
	float *g, *s, *inter;
	uint16_t *o;
	double *ref_s, *ref_o, *ref_inter;
} Gdp;

/* n values at a random scale (unit length when unit) */
static void
gdp_vector(uint16_t *out, int n, int unit)
{
	double x[256], norm = 0, scale = unit ? 1.0 : uniform(0.25, 3.0);
	int i;

	for (i = 0; i < n; i++) {
		x[i] = uniform(-1, 1);
		norm += x[i] * x[i];
	}
	for (i = 0; i < n; i++)
		out[i] = bf16_from((float)(unit ? x[i] / sqrt(norm) : x[i] * scale));
}

/* S <- exp(g) S; per step j: u = (v - S^T k) beta, S += k u^T; o = S^T q scale */
static void
gdp_reference(Gdp *h, double scale)
{
	int K = h->K, V = h->V, b, hv, t, j, i, c;
	double *S = malloc(sizeof *S * (size_t)(K * V)), *u = malloc(sizeof *u * (size_t)V);

	for (b = 0; b < h->B; b++)
		for (hv = 0; hv < h->HV; hv++) {
			int hq = hv / (h->HV / h->HQK);
			size_t sb = ((size_t)b * (size_t)h->HV + (size_t)hv) * (size_t)(K * V);

			for (i = 0; i < K * V; i++)
				S[i] = h->s[sb + (size_t)i];
			for (t = 0; t < h->T; t++) {
				size_t bt = (size_t)b * (size_t)h->T + (size_t)t;
				double a = exp((double)h->g[bt * (size_t)h->HV + (size_t)hv]);

				for (i = 0; i < K * V; i++)
					S[i] *= a;
				for (j = 0; j < h->NH; j++) {
					const uint16_t *kk = h->k + ((bt * (size_t)h->NH + (size_t)j) * (size_t)h->HQK + (size_t)hq) * (size_t)K;
					const uint16_t *vv = h->v + ((bt * (size_t)h->NH + (size_t)j) * (size_t)h->HV + (size_t)hv) * (size_t)V;
					double be = bf16_to(h->beta[(bt * (size_t)h->NH + (size_t)j) * (size_t)h->HV + (size_t)hv]);

					for (c = 0; c < V; c++) {
						double acc = 0;

						for (i = 0; i < K; i++)
							acc += S[i * V + c] * bf16_to(kk[i]);
						u[c] = (bf16_to(vv[c]) - acc) * be;
					}
					for (i = 0; i < K; i++)
						for (c = 0; c < V; c++)
							S[i * V + c] += bf16_to(kk[i]) * u[c];
				}
				for (c = 0; c < V; c++) {
					const uint16_t *qq = h->q + (bt * (size_t)h->HQK + (size_t)hq) * (size_t)K;
					double acc = 0;

					for (i = 0; i < K; i++)
						acc += S[i * V + c] * bf16_to(qq[i]);
					h->ref_o[(bt * (size_t)h->HV + (size_t)hv) * (size_t)V + (size_t)c] = acc * scale;
				}
				if (t < h->TI)
					memcpy(h->ref_inter + (((size_t)b * (size_t)h->TI + (size_t)t) * (size_t)h->HV + (size_t)hv) * (size_t)(K * V),
					       S, sizeof *S * (size_t)(K * V));
			}
			memcpy(h->ref_s + sb, S, sizeof *S * (size_t)(K * V));
		}
	free(S);
	free(u);
}

static void
test_gdp(const char *file, const char *name, int T, int NH, int staged, int B, int HV, int gqa, int ti,
	 uint64_t seed)
{
	static const char *tv[] = {"1", "2", "3", "4"};
	Gdp h;
	IrKernel *k;
	InterpArg args[64];
	char what[160];
	size_t nq, nk, nv, ng, ns, no, ni, i;
	double *got, scale;
	/* tma and fused are generic over T and NH (the name gives the instance), the others
	 * take -D */
	int d = strstr(name, "_tma_") || strstr(name, "_fused_") || (T == 1 && NH == 1) ? 0 : 1;

	/* one defines array per (T, NH) in use, so the kernel cache can tell them apart */
	static FeDefine keep[4][2];
	int slot = (T - 1) * 2 + (NH - 1);

	keep[slot][0].name = "T";
	keep[slot][0].value = tv[T - 1];
	keep[slot][1].name = "NH";
	keep[slot][1].value = tv[NH - 1];
	k = kernel_with(file, name, d ? keep[slot] : NULL, d ? 2 : 0, staged);
	memset(&h, 0, sizeof h);
	memset(args, 0, sizeof args);
	h.B = B;
	h.T = T;
	h.NH = NH;
	h.HV = HV;
	h.HQK = HV / gqa;
	h.K = h.V = 128;
	h.TI = ti;
	scale = (float)(1.0 / sqrt(128.0));
	nq = (size_t)(B * T * h.HQK * h.K);
	nk = nq * (size_t)NH;
	nv = (size_t)(B * T * NH * HV * h.V);
	ng = (size_t)(B * T * HV);
	ns = (size_t)(B * HV) * (size_t)(h.K * h.V);
	no = (size_t)(B * T * HV * h.V);
	ni = (size_t)(B * ti * HV) * (size_t)(h.K * h.V);
	h.q = malloc(2 * nq);
	h.k = malloc(2 * nk);
	h.v = malloc(2 * nv);
	h.beta = malloc(2 * ng * (size_t)NH);
	h.g = malloc(4 * ng);
	h.s = malloc(4 * ns);
	h.o = malloc(2 * no);
	h.inter = malloc(4 * ni + 4);
	h.ref_s = malloc(8 * ns);
	h.ref_o = malloc(8 * no);
	h.ref_inter = malloc(8 * ni + 8);
	got = malloc(8 * (ns > ni ? ns : ni) + 8 * no);
	for (i = 0; i < nq; i += (size_t)h.K)
		gdp_vector(h.q + i, h.K, 1);
	for (i = 0; i < nk; i += (size_t)h.K)
		gdp_vector(h.k + i, h.K, 1);
	for (i = 0; i < nv; i++)
		h.v[i] = bf16_from((float)uniform(-1, 1));
	for (i = 0; i < ng * (size_t)NH; i++)
		h.beta[i] = bf16_from((float)uniform(0.05, 1.0));
	for (i = 0; i < ng; i++)
		h.g[i] = (float)uniform(-0.7, -0.01);
	for (i = 0; i < ns; i++)
		h.s[i] = (float)uniform(-1, 1);
	gdp_reference(&h, scale);
	tensor(arg(k, args, "q"), h.q, 4, B, T);
	arg(k, args, "q")->shape[2] = h.HQK;
	arg(k, args, "q")->shape[3] = h.K;
	tensor(arg(k, args, "k"), h.k, 5, B, T);
	memcpy(&arg(k, args, "k")->shape[2], (int64_t[]){NH, h.HQK, h.K}, 3 * sizeof(int64_t));
	tensor(arg(k, args, "v"), h.v, 5, B, T);
	memcpy(&arg(k, args, "v")->shape[2], (int64_t[]){NH, HV, h.V}, 3 * sizeof(int64_t));
	tensor(arg(k, args, "g"), h.g, 3, B, T);
	arg(k, args, "g")->shape[2] = HV;
	tensor(arg(k, args, "beta"), h.beta, 4, B, T);
	memcpy(&arg(k, args, "beta")->shape[2], (int64_t[]){NH, HV}, 2 * sizeof(int64_t));
	tensor(arg(k, args, "s"), h.s, 4, B, HV);
	memcpy(&arg(k, args, "s")->shape[2], (int64_t[]){h.K, h.V}, 2 * sizeof(int64_t));
	tensor(arg(k, args, "o"), h.o, 4, B, T);
	memcpy(&arg(k, args, "o")->shape[2], (int64_t[]){HV, h.V}, 2 * sizeof(int64_t));
	tensor(arg(k, args, "inter"), h.inter, 5, B, ti);
	memcpy(&arg(k, args, "inter")->shape[2], (int64_t[]){HV, h.K, h.V}, 3 * sizeof(int64_t));
	arg(k, args, "scale")->f = scale;
	snprintf(what, sizeof what, "%s%s T=%d NH=%d B=%d HV=%d gqa=%d ti=%d seed=%llu", name,
		 staged ? " (staged)" : "", T, NH, B, HV, gqa, ti, (unsigned long long)seed);
	if (run(k, args, seed) != 0) {
		fail_run(what);
	} else {
		char w2[200];

		for (i = 0; i < ns; i++)
			got[i] = h.s[i];
		snprintf(w2, sizeof w2, "%s state", what);
		compare(w2, got, h.ref_s, ns, 0.1, 1e-4);
		for (i = 0; i < no; i++)
			got[i] = bf16_to(h.o[i]);
		snprintf(w2, sizeof w2, "%s output", what);
		compare(w2, got, h.ref_o, no, 1e-2, 1e-2);
		if (ni) {
			for (i = 0; i < ni; i++)
				got[i] = h.inter[i];
			snprintf(w2, sizeof w2, "%s inter", what);
			compare(w2, got, h.ref_inter, ni, 0.1, 1e-4);
		}
	}
	free(h.q);
	free(h.k);
	free(h.v);
	free(h.beta);
	free(h.g);
	free(h.s);
	free(h.o);
	free(h.inter);
	free(h.ref_s);
	free(h.ref_o);
	free(h.ref_inter);
	free(got);
}

/* Every shipped kernel of kernels_src (each instance of gemm, gdp_decode staged too) on
 * one small shape (ragged where the kernel has a tail) under n seeds, each another block
 * and warp order and other inputs: no finding, every result within its threshold. */
static void
sweep(uint64_t n)
{
	uint64_t s;

	for (s = 0; s < n; s++) {
		uint64_t seed = 100 + s * 7919;

		test_axpby(1027, seed);
		test_silu_mul(1026, seed);
		test_rmsnorm("reduction/rmsnorm.cake", "rmsnorm", 3, 300, seed);
		test_rmsnorm("reduction/rmsnorm_rows.cake", "rmsnorm_rows", 17, 129, seed);
		test_softmax("reduction/softmax.cake", "softmax", 3, 300, seed);
		test_softmax("reduction/softmax_rows.cake", "softmax_rows", 5, 200, seed);
		test_sgemm(65, 67, 33, seed);
		test_gdp("gdp/gdp_decode.cake", "gdp_decode", 1, 1, 0, 1, 2, 1, 1, seed);
		test_gdp("gdp/gdp_decode.cake", "gdp_decode", 1, 1, 1, 1, 2, 1, 1, seed);
		test_gdp("gdp/gdp_decode_rows.cake", "gdp_decode_rows", 1, 1, 0, 1, 2, 1, 1, seed);
		test_gdp("gdp/gdp_decode_warp.cake", "gdp_decode_warp", 1, 1, 0, 1, 2, 1, 1, seed);
		test_gdp("gdp/gdp_decode_fused.cake", "gdp_decode_fused_1_1", 1, 1, 0, 1, 2, 1, 1, seed);
		test_gdp("gdp/gdp_decode_tma.cake", "gdp_decode_tma_1_1", 1, 1, 0, 1, 2, 1, 1, seed);
		test_gemm("gemm/gemm.cake", "gemm_bf16", 0, 0, 136, 264, 72, seed);
		test_gemm("gemm/gemm.cake", "gemm_f16", 1, 0, 128, 256, 64, seed);
		test_gemm("gemm/gemm.cake", "gemm_bf16_f32", 0, 1, 128, 256, 64, seed);
		test_gemm("gemm/gemm.cake", "gemm_f16_f32", 1, 1, 128, 256, 64, seed);
		test_bwgemm("gemm_sm100_bf16", 0, 0, 136, 264, 72, 2, seed);
		test_bwgemm("gemm_sm100_f16_f32", 1, 1, 128, 256, 64, 132, seed);
		test_bwgemm("gemm_sm100_e4m3", 2, 0, 136, 264, 144, 2, seed);
		test_bw2gemm("gemm_sm100_2cta_bf16", 0, 0, 136, 264, 72, 2, seed);
		test_bw2gemm("gemm_sm100_2cta_mc_bf16", 0, 0, 520, 264, 72, 4, seed);
		test_gemm_sms("gemm/gemm.cake", "gemm_mc_bf16", 0, 0, 520, 264, 72, 2, seed);
	}
}

int
main(int argc, char **argv)
{
	uint64_t s, nseeds = 1;

	if (argc < 2) {
		fprintf(stderr, "usage: test_kernels SRCROOT [sgemm M N K | gemm M N K | seeds N]\n");
		return 2;
	}
	srcroot = argv[1];
	rng_state = 42;
	if (argc == 6 && strcmp(argv[2], "sgemm") == 0) {
		double secs = test_sgemm(atoll(argv[3]), atoll(argv[4]), atoll(argv[5]), 1);

		printf("sgemm_tiled %s x %s x %s: %.2f s in the interpreter\n", argv[3], argv[4], argv[5], secs);
		free_kernels();
		return failures != 0;
	}
	if (argc == 6 && strcmp(argv[2], "gemm") == 0) {
		double secs = test_gemm("gemm/gemm.cake", "gemm_bf16", 0, 0, atoll(argv[3]), atoll(argv[4]),
					atoll(argv[5]), 1);

		printf("gemm_bf16 %s x %s x %s: %.2f s in the interpreter\n", argv[3], argv[4], argv[5], secs);
		free_kernels();
		return failures != 0;
	}
	if (argc == 7 && (strcmp(argv[2], "bwgemm") == 0 || strcmp(argv[2], "bw2gemm") == 0)) {
		int pair = argv[2][2] == '2';
		double secs;

		num_sms = atoll(argv[6]);
		secs = test_gemm(pair ? "gemm/gemm_sm100_2cta.cake" : "gemm/gemm_sm100.cake",
				 pair ? "gemm_sm100_2cta_bf16" : "gemm_sm100_bf16", 0, 0, atoll(argv[3]), atoll(argv[4]),
				 atoll(argv[5]), 1);
		printf("%s %s x %s x %s on %s SMs: %.2f s in the interpreter\n", pair ? "gemm_sm100_2cta_bf16" : "gemm_sm100_bf16",
		       argv[3], argv[4], argv[5], argv[6], secs);
		free_kernels();
		return failures != 0;
	}
	if (argc == 4 && strcmp(argv[2], "sweep") == 0) {
		sweep((uint64_t)atoll(argv[3]));
		free_kernels();
		printf("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
		return failures != 0;
	}
	if (argc == 4 && strcmp(argv[2], "seeds") == 0)
		nseeds = (uint64_t)atoll(argv[3]);
	for (s = 0; s < nseeds; s++) {
		test_axpby(1, 1 + s * 1000);
		test_axpby(1027, 2 + s * 1000);
		test_axpby(4096, 3 + s * 1000);
		test_silu_mul(3, 1 + s * 1000);
		test_silu_mul(1026, 2 + s * 1000);
		test_rmsnorm("reduction/rmsnorm.cake", "rmsnorm", 1, 1, 1 + s * 1000);
		test_rmsnorm("reduction/rmsnorm.cake", "rmsnorm", 5, 1000, 2 + s * 1000);
		test_rmsnorm("reduction/rmsnorm.cake", "rmsnorm", 3, 1024, 3 + s * 1000);
		test_rmsnorm("reduction/rmsnorm_rows.cake", "rmsnorm_rows", 9, 4, 1 + s * 1000);
		test_rmsnorm("reduction/rmsnorm_rows.cake", "rmsnorm_rows", 17, 129, 2 + s * 1000);
		test_rmsnorm("reduction/rmsnorm_rows.cake", "rmsnorm_rows", 8, 256, 3 + s * 1000);
		test_softmax("reduction/softmax.cake", "softmax", 3, 5, 1 + s * 1000);
		test_softmax("reduction/softmax.cake", "softmax", 6, 1025, 2 + s * 1000);
		test_softmax("reduction/softmax.cake", "softmax", 2, 256, 3 + s * 1000);
		test_softmax("reduction/softmax_rows.cake", "softmax_rows", 3, 5, 1 + s * 1000);
		test_softmax("reduction/softmax_rows.cake", "softmax_rows", 7, 1000, 2 + s * 1000);
		test_softmax("reduction/softmax_rows.cake", "softmax_rows", 8, 128, 3 + s * 1000);
		test_sgemm(3, 5, 7, 1 + s * 1000);
		test_sgemm(65, 67, 33, 2 + s * 1000);
		test_sgemm(64, 64, 64, 3 + s * 1000);
		test_gdp("gdp/gdp_decode.cake", "gdp_decode", 1, 1, 0, 1, 2, 1, 1, 1 + s * 1000);
		test_gdp("gdp/gdp_decode.cake", "gdp_decode", 1, 1, 1, 1, 2, 1, 1, 1 + s * 1000);
		test_gdp("gdp/gdp_decode.cake", "gdp_decode", 2, 2, 0, 2, 4, 2, 2, 2 + s * 1000);
		test_gdp("gdp/gdp_decode.cake", "gdp_decode", 2, 2, 1, 2, 4, 2, 0, 2 + s * 1000);
		test_gdp("gdp/gdp_decode_rows.cake", "gdp_decode_rows", 1, 1, 0, 1, 2, 1, 1, 3 + s * 1000);
		test_gdp("gdp/gdp_decode_rows.cake", "gdp_decode_rows", 2, 2, 0, 2, 4, 2, 2, 4 + s * 1000);
		test_gdp("gdp/gdp_decode_warp.cake", "gdp_decode_warp", 1, 1, 0, 1, 2, 1, 1, 5 + s * 1000);
		test_gdp("gdp/gdp_decode_warp.cake", "gdp_decode_warp", 2, 2, 0, 2, 4, 2, 0, 6 + s * 1000);
		test_gdp("gdp/gdp_decode_fused.cake", "gdp_decode_fused_1_1", 1, 1, 0, 1, 2, 1, 1, 7 + s * 1000);
		test_gdp("../tests/interp/Inputs/gdp_generic.cake", "gdp_decode_fused_2_2", 2, 2, 0, 2, 4, 2, 2, 8 + s * 1000);
		test_gemm("gemm/gemm.cake", "gemm_bf16", 0, 0, 128, 256, 128, 1 + s * 1000);
		test_gemm("gemm/gemm.cake", "gemm_bf16", 0, 0, 200, 256, 192, 2 + s * 1000);
		test_gemm("gemm/gemm.cake", "gemm_bf16", 0, 0, 256, 512, 64, 3 + s * 1000);
		test_gemm("gemm/gemm.cake", "gemm_bf16_f32", 0, 1, 256, 256, 256, 4 + s * 1000);
		test_gemm("gemm/gemm.cake", "gemm_f16_f32", 1, 1, 128, 256, 192, 5 + s * 1000);
		test_gemm("gemm/gemm.cake", "gemm_f16_f32", 1, 1, 136, 264, 136, 6 + s * 1000);
		test_gemm("gemm/gemm.cake", "gemm_f16", 1, 0, 192, 256, 128, 7 + s * 1000);
		test_wgmma_rs(12 + s * 1000);
		/* clusters of 2 sharing B by multicast (a cluster release): a CTA wholly past
		 * M, more tiles than clusters */
		test_gemm_sms("gemm/gemm.cake", "gemm_mc_bf16", 0, 0, 1, 1, 8, 132, 36 + s * 1000);
		test_gemm_sms("gemm/gemm.cake", "gemm_mc_bf16", 0, 0, 136, 264, 72, 132, 37 + s * 1000);
		test_gemm_sms("gemm/gemm.cake", "gemm_mc_bf16", 0, 0, 600, 520, 136, 2, 38 + s * 1000);
		test_gemm_sms("gemm/gemm.cake", "gemm_mc_f16_f32", 1, 1, 129, 257, 200, 4, 39 + s * 1000);
		/* Blackwell: 1 x 1 x 16, ragged M/N/K, more tiles than CTAs (both accumulator
		 * stages in turn), every instance */
		test_bwgemm("gemm_sm100_bf16", 0, 0, 1, 1, 16, 132, 13 + s * 1000);
		test_bwgemm("gemm_sm100_bf16", 0, 0, 200, 264, 72, 132, 14 + s * 1000);
		test_bwgemm("gemm_sm100_bf16", 0, 0, 256, 512, 136, 2, 15 + s * 1000);
		test_bwgemm("gemm_sm100_bf16_f32", 0, 1, 384, 256, 64, 1, 16 + s * 1000);
		test_bwgemm("gemm_sm100_f16", 1, 0, 136, 520, 24, 2, 17 + s * 1000);
		test_bwgemm("gemm_sm100_f16_f32", 1, 1, 129, 257, 200, 3, 18 + s * 1000);
		test_bwgemm("gemm_sm100_e4m3", 2, 0, 1, 1, 16, 132, 19 + s * 1000);
		test_bwgemm("gemm_sm100_e4m3", 2, 0, 200, 264, 272, 2, 20 + s * 1000);
		/* Blackwell CTA pairs: the same kinds of shapes, pairs with a CTA wholly past M,
		 * more tiles than pairs */
		test_bw2gemm("gemm_sm100_2cta_bf16", 0, 0, 1, 1, 16, 132, 21 + s * 1000);
		test_bw2gemm("gemm_sm100_2cta_bf16", 0, 0, 200, 264, 72, 132, 22 + s * 1000);
		test_bw2gemm("gemm_sm100_2cta_bf16", 0, 0, 600, 520, 136, 2, 23 + s * 1000);
		test_bw2gemm("gemm_sm100_2cta_bf16_f32", 0, 1, 384, 256, 64, 4, 24 + s * 1000);
		test_bw2gemm("gemm_sm100_2cta_f16", 1, 0, 136, 520, 24, 3, 25 + s * 1000);
		test_bw2gemm("gemm_sm100_2cta_f16_f32", 1, 1, 129, 257, 200, 2, 26 + s * 1000);
		test_bw2gemm("gemm_sm100_2cta_e4m3", 2, 0, 1, 1, 16, 132, 27 + s * 1000);
		test_bw2gemm("gemm_sm100_2cta_e4m3", 2, 0, 200, 264, 272, 2, 28 + s * 1000);
		/* clusters of two pairs sharing B by multicast: a pair wholly past M, more
		 * tiles than clusters, every instance */
		test_bw2gemm("gemm_sm100_2cta_mc_bf16", 0, 0, 1, 1, 16, 132, 29 + s * 1000);
		test_bw2gemm("gemm_sm100_2cta_mc_bf16", 0, 0, 200, 264, 72, 132, 30 + s * 1000);
		test_bw2gemm("gemm_sm100_2cta_mc_bf16", 0, 0, 600, 520, 136, 4, 31 + s * 1000);
		test_bw2gemm("gemm_sm100_2cta_mc_bf16", 0, 0, 1100, 264, 72, 8, 32 + s * 1000);
		test_bw2gemm("gemm_sm100_2cta_mc_f16_f32", 1, 1, 129, 257, 200, 4, 33 + s * 1000);
		test_bw2gemm("gemm_sm100_2cta_mc_e4m3", 2, 0, 1, 1, 16, 132, 34 + s * 1000);
		test_bw2gemm("gemm_sm100_2cta_mc_e4m3", 2, 0, 300, 264, 272, 4, 35 + s * 1000);
		test_gdp("gdp/gdp_decode_tma.cake", "gdp_decode_tma_1_1", 1, 1, 0, 1, 2, 1, 1, 9 + s * 1000);
		test_gdp("gdp/gdp_decode_tma.cake", "gdp_decode_tma_1_1", 1, 1, 0, 3, 4, 2, 0, 10 + s * 1000);
		test_gdp("../tests/interp/Inputs/gdp_generic.cake", "gdp_decode_tma_2_2", 2, 2, 0, 2, 4, 2, 2, 11 + s * 1000);
	}
	free_kernels();
	printf("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
	return failures != 0;
}
