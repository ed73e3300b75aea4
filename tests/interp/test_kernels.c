/* test_kernels.c: the SIMT kernels of kernels_src run in-process through the interpreter's
 * C API (interp/interp.h) on small shapes (ragged ones included), with random inputs,
 * against double-precision references, with the thresholds and floors of the GPU tests
 * (tests/gpu/case_<kernel>.c, where each is derived): the metric is
 * |got - ref| / max(|ref|, floor). Prints one PASS/FAIL line per case and exits 1 on any
 * failure. `seeds N` runs every case under N seeds of the scheduler (each a different
 * block and warp order; none may report a finding); `sgemm M N K` times one sgemm_tiled
 * run instead.
 *
 * Usage: test_kernels SRCROOT [sgemm M N K | seeds N] */
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

/* The kernel `name` of kernels_src/<file>, after the -O2 pipeline. Each file is compiled
 * once; the modules live until exit. */
static IrKernel *
kernel(const char *file, const char *name)
{
	char path[1024];
	size_t len;
	char *text;
	IrModule *m;
	IrKernel *k = NULL;
	PassOptions po;
	int i;

	static struct {
		const char *file, *name;
		IrKernel *k;
	} cache[16];
	static int ncache;

	for (i = 0; i < ncache; i++)
		if (strcmp(cache[i].file, file) == 0 && strcmp(cache[i].name, name) == 0)
			return cache[i].k;
	snprintf(path, sizeof path, "%s/kernels_src/%s", srcroot, file);
	if (!(text = read_file(path, &len)) || !(m = fe_compile(path, text, len, NULL))) {
		fprintf(stderr, "cannot compile %s\n", path);
		exit(1);
	}
	for (i = 0; i < m->nkernels; i++)
		if (strcmp(m->kernels[i]->name, name) == 0)
			k = m->kernels[i];
	memset(&po, 0, sizeof po);
	po.opt_level = 2;
	po.need_layout = 1;
	if (!k || pass_pipeline(k, &po) != 0) {
		fprintf(stderr, "no kernel %s in %s\n", name, path);
		exit(1);
	}
	if (ncache < 16) {
		cache[ncache].file = file;
		cache[ncache].name = name;
		cache[ncache++].k = k;
	}
	return k;
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

static int
run(const IrKernel *k, InterpArg *args, uint64_t seed)
{
	InterpOptions o;

	interp_options_default(&o);
	o.seed = seed;
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
	InterpArg args[16];
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
	InterpArg args[16];
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
	InterpArg args[16];
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
	InterpArg args[16];
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
	InterpArg args[16];
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

int
main(int argc, char **argv)
{
	uint64_t s, nseeds = 1;

	if (argc < 2) {
		fprintf(stderr, "usage: test_kernels SRCROOT [sgemm M N K | seeds N]\n");
		return 2;
	}
	srcroot = argv[1];
	rng_state = 42;
	if (argc == 6 && strcmp(argv[2], "sgemm") == 0) {
		double s = test_sgemm(atoll(argv[3]), atoll(argv[4]), atoll(argv[5]), 1);

		printf("sgemm_tiled %s x %s x %s: %.2f s in the interpreter\n", argv[3], argv[4], argv[5], s);
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
	}
	printf("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
	return failures != 0;
}
