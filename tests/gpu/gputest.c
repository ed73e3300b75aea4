/* gputest.c: device set-up, inputs, guarded buffers and comparison for the GPU tests
 * (see gputest.h). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "gputest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double
gt_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static struct {
	int n;
	double ms[2];
	const CakertKernel *desc;
} gt_clock;

void
gt_clock_note(const CakertKernel *desc, double ms)
{
	if (gt_clock.n < 2)
		gt_clock.ms[gt_clock.n++] = ms;
	if (!gt_clock.desc)
		gt_clock.desc = desc;
}

int
gt_first_call_line(const char *name, const char *label, CUcontext ctx,
		   const CakertKernel *const *alt, int nalt)
{
	char image[128];
	int i, found;

	if (gt_clock.n < 2) {
		printf("FAIL first_call %s: %d launch(es) clocked, 2 needed\n", name, gt_clock.n);
		return 1;
	}
	found = gt_clock.desc && cakert_loaded_image(gt_clock.desc, ctx, image, sizeof image);
	for (i = 0; !found && i < nalt; i++)
		found = cakert_loaded_image(alt[i], ctx, image, sizeof image);
	if (!found)
		snprintf(image, sizeof image, "unknown");
	printf("first_call %s: first %.3f ms, second %.3f ms, image %s (%s)\n", name,
	       gt_clock.ms[0], gt_clock.ms[1], image, label);
	return 0;
}

static int
env_flag(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") != 0;
}

int
gt_small(void)
{
	return env_flag("CAKE_GPU_TEST_SMALL");
}

int
gt_selected(const char *name)
{
	const char *list = getenv("CAKE_GPU_TEST_ONLY"), *p;
	size_t n = strlen(name);

	if (!list || !*list)
		return 1;
	for (p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}

int
gt_skip_status(void)
{
	if (env_flag("CAKE_GPU_TEST_REQUIRE")) {
		printf("FAIL: CAKE_GPU_TEST_REQUIRE is set, so a skip is a failure\n");
		return 1;
	}
	return 0;
}

int
gt_cu(CUresult r, const char *call, const char *what)
{
	char why[256];

	if (r == CUDA_SUCCESS)
		return 0;
	cakert_result_string(r, why, sizeof why);
	printf("FAIL %s: %s failed: %s\n", what, call, why);
	return 1;
}

/* The targets cakec builds for: anything else is skipped, not failed. */
static int
supported_arch(int major, int minor)
{
	return (major == 9 && minor == 0) || (major == 10 && (minor == 0 || minor == 3));
}

int
gt_init(GtDev *g, const char *prog)
{
	CakeError err;
	int count = 0;
	CUresult r;

	memset(g, 0, sizeof *g);
	/* Results go to a pipe under ctest and compute-sanitizer: keep lines in order with
	 * the sanitizer's own output. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	g->cu = cakert_driver();
	if (!g->cu) {
		cakert_driver_status(&err);
		/* cuInit says CUDA_ERROR_NO_DEVICE on a machine with a driver but no GPU */
		if (err.status == CAKE_ERR_NO_DRIVER || strstr(err.msg, "CUDA_ERROR_NO_DEVICE")) {
			printf("SKIPPED: %s: %s\n", prog, err.msg);
			return 1;
		}
		printf("FAIL %s: the CUDA driver is unusable: %s: %s\n", prog,
		       cakert_status_name(err.status), err.msg);
		return -1;
	}
	r = g->cu->device_get_count(&count);
	if (r != CUDA_SUCCESS || count == 0) {
		printf("SKIPPED: %s: no CUDA device\n", prog);
		return 1;
	}
	if (!g->cu->memcpy_htod_async || !g->cu->memcpy_dtoh_async || !g->cu->memset_d8_async ||
	    !g->cu->stream_begin_capture || !g->cu->stream_end_capture ||
	    !g->cu->graph_instantiate || !g->cu->graph_launch || !g->cu->graph_exec_destroy ||
	    !g->cu->graph_destroy || !g->cu->event_create) {
		printf("FAIL %s: the CUDA driver (%d) lacks an entry point the tests use\n", prog,
		       g->cu->version);
		return -1;
	}
	if (gt_cu(g->cu->device_get(&g->dev, 0), "cuDeviceGet(0)", prog) ||
	    gt_cu(g->cu->device_get_attribute(&g->major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, g->dev),
		  "cuDeviceGetAttribute", prog) ||
	    gt_cu(g->cu->device_get_attribute(&g->minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, g->dev),
		  "cuDeviceGetAttribute", prog))
		return -1;
	if (!supported_arch(g->major, g->minor)) {
		printf("SKIPPED: %s: device 0 is sm_%d%d; the kernels are built for sm_90a, sm_100a and sm_103a\n",
		       prog, g->major, g->minor);
		return 1;
	}
	if (gt_cu(g->cu->device_primary_ctx_retain(&g->ctx, g->dev), "cuDevicePrimaryCtxRetain", prog))
		return -1;
	if (gt_cu(g->cu->ctx_set_current(g->ctx), "cuCtxSetCurrent", prog)) {
		g->cu->device_primary_ctx_release(g->dev);
		g->ctx = NULL;
		return -1;
	}
	snprintf(g->name, sizeof g->name, "sm_%d%d", g->major, g->minor);
	printf("%s: device 0 (%s), driver %d.%d%s\n", prog, g->name, g->cu->version / 1000,
	       g->cu->version % 1000 / 10, gt_small() ? ", small sizes" : "");
	return 0;
}

void
gt_fini(GtDev *g)
{
	if (g->cu && g->ctx) {
		cakert_forget_context(g->ctx);
		g->cu->device_primary_ctx_release(g->dev);
		g->ctx = NULL;
	}
}

int
gt_make_current(const GtDev *g)
{
	return gt_cu(g->cu->ctx_set_current(g->ctx), "cuCtxSetCurrent", "thread");
}

/* ---- random inputs ---- */

void
gt_rng_seed(GtRng *r, uint64_t seed)
{
	r->s = seed;
}

uint64_t
gt_rng_next(GtRng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double
gt_rng_uniform(GtRng *r, double lo, double hi)
{
	double v;

	do {
		/* 53 random bits: a double in [0, 1) */
		v = lo + (hi - lo) * ((double)(gt_rng_next(r) >> 11) * (1.0 / 9007199254740992.0));
	} while (v == 0.0);
	return v;
}

float
gt_rng_away(GtRng *r, double bound, float min)
{
	float x;

	do
		x = (float)gt_rng_uniform(r, -bound, bound);
	while (fabsf(x) < min);
	return x;
}

uint64_t
gt_seed(const char *name, int index)
{
	uint64_t h = 1469598103934665603ull;   /* FNV-1a of the name, then the index */

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 1099511628211ull;
	return (h ^ (uint64_t)(index + 1)) * 1099511628211ull;
}

/* ---- bf16 ---- */

uint16_t
gt_bf16_from_float(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((u >> 16) | 0x40);    /* a quiet NaN */
	u += 0x7fffu + ((u >> 16) & 1);                 /* round to nearest even */
	return (uint16_t)(u >> 16);
}

float
gt_bf16_to_float(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* ---- f16 ---- */

uint16_t
gt_f16_from_float(float f)
{
	uint32_t u, sign, mant;
	int exp;

	memcpy(&u, &f, 4);
	sign = (u >> 16) & 0x8000u;
	exp = (int)((u >> 23) & 0xff) - 127 + 15;
	mant = u & 0x7fffffu;
	if (((u >> 23) & 0xff) == 0xff)
		return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
	if (exp >= 31)
		return (uint16_t)(sign | 0x7c00u);
	if (exp <= 0) {
		/* subnormal: shift in the implicit bit, round to nearest even */
		uint32_t m = mant | 0x800000u, shift = (uint32_t)(14 - exp), r;

		if (shift > 24)
			return (uint16_t)sign;
		r = m >> shift;
		if ((m & ((1u << shift) - 1)) > (1u << (shift - 1)) ||
		    ((m & ((1u << shift) - 1)) == (1u << (shift - 1)) && (r & 1)))
			r++;
		return (uint16_t)(sign | r);
	}
	{
		uint32_t r = ((uint32_t)exp << 10) | (mant >> 13), rest = mant & 0x1fffu;

		if (rest > 0x1000u || (rest == 0x1000u && (r & 1)))
			r++;        /* may carry into the exponent, up to infinity: correct */
		return (uint16_t)(sign | r);
	}
}

double
gt_f16_to_double(uint16_t h)
{
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	double v;

	if (e == 31)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp((double)m, -24);
	else
		v = ldexp((double)(m | 0x400), e - 25);
	return (h & 0x8000) ? -v : v;
}

/* ---- device tensors with guards ---- */

int
gt_buf_alloc(GtBuf *b, size_t bytes, const char *what)
{
	const CakertDriver *cu = cakert_driver();
	size_t total = bytes + 2 * GT_GUARD;

	memset(b, 0, sizeof *b);
	b->bytes = bytes;
	b->host = malloc(total);
	if (!b->host) {
		printf("FAIL %s: out of host memory (%zu bytes)\n", what, total);
		return 1;
	}
	if (gt_cu(cu->mem_alloc(&b->base, total), "cuMemAlloc", what)) {
		free(b->host);
		b->host = NULL;
		return 1;
	}
	b->ptr = b->base + GT_GUARD;
	/* Not poisoned here: a cuMemsetD8 runs on the legacy stream, which the tests'
	 * non-blocking streams do not wait for; every fill poisons on the test's stream. */
	return 0;
}

void
gt_buf_free(GtBuf *b)
{
	if (b->base)
		cakert_driver()->mem_free(b->base);
	free(b->host);
	memset(b, 0, sizeof *b);
}

int
gt_buf_upload(GtBuf *b, const void *src, CUstream s, const char *what)
{
	return gt_cu(cakert_driver()->memcpy_htod_async(b->ptr, src, b->bytes, s),
		     "cuMemcpyHtoDAsync", what);
}

int
gt_buf_poison(GtBuf *b, CUstream s, const char *what)
{
	return gt_cu(cakert_driver()->memset_d8_async(b->base, GT_POISON, b->bytes + 2 * GT_GUARD, s),
		     "cuMemsetD8Async", what);
}

const unsigned char *
gt_buf_download(GtBuf *b, CUstream s, const char *what)
{
	const CakertDriver *cu = cakert_driver();

	if (gt_cu(cu->memcpy_dtoh_async(b->host, b->base, b->bytes + 2 * GT_GUARD, s),
		  "cuMemcpyDtoHAsync", what) ||
	    gt_cu(cu->stream_synchronize(s), "cuStreamSynchronize", what))
		return NULL;
	return b->host + GT_GUARD;
}

int
gt_buf_guards_ok(const GtBuf *b)
{
	size_t i;

	for (i = 0; i < GT_GUARD; i++)
		if (b->host[i] != GT_POISON || b->host[GT_GUARD + b->bytes + i] != GT_POISON)
			return 0;
	return 1;
}

void
gt_tensor(CakeTensor *t, const GtDev *g, GtBuf *b, int code, int bits, int ndim,
	  const int64_t *shape)
{
	memset(t, 0, sizeof *t);
	t->data = (void *)(uintptr_t)b->ptr;
	t->device.device_type = CAKE_DEVICE_CUDA;
	t->device.device_id = (int32_t)g->dev;
	t->ndim = ndim;
	t->dtype.code = (uint8_t)code;
	t->dtype.bits = (uint8_t)bits;
	t->dtype.lanes = 1;
	t->shape = shape;
	t->strides = NULL;
	t->byte_offset = 0;
}

void
gt_stand_in(CakeTensor *t, uintptr_t addr, const int64_t *shape, int ndim, int code, int bits)
{
	memset(t, 0, sizeof *t);
	t->data = (void *)addr;
	t->device.device_type = CAKE_DEVICE_CUDA;
	t->ndim = ndim;
	t->dtype.code = (uint8_t)code;
	t->dtype.bits = (uint8_t)bits;
	t->dtype.lanes = 1;
	t->shape = shape;
}

/* ---- comparison ---- */

void
gt_cmp_init(GtCmp *c, double floor, double threshold)
{
	memset(c, 0, sizeof *c);
	c->floor = floor;
	c->threshold = threshold;
}

void
gt_cmp_add(GtCmp *c, size_t i, double got, double ref, int poisoned)
{
	double scale = fabs(ref) > c->floor ? fabs(ref) : c->floor;
	double rel = isfinite(got) ? fabs(got - ref) / scale : INFINITY;

	c->n++;
	if (poisoned)
		c->poisoned++;
	/* the first NaN or the largest error is the one worth printing */
	if (rel > c->max_rel || (c->n == 1 && rel == c->max_rel)) {
		c->max_rel = rel;
		c->worst = i;
		c->worst_got = got;
		c->worst_ref = ref;
	}
}

const unsigned char *
gt_fetch(GtBuf *b, CUstream s, const char *what, int *guards_ok)
{
	const unsigned char *p = gt_buf_download(b, s, what);

	if (p && !gt_buf_guards_ok(b))
		*guards_ok = 0;
	return p;
}

void
gt_cmp_f32(GtCmp *c, const unsigned char *data, const double *ref, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t u;
		float v;

		memcpy(&u, data + 4 * i, 4);
		memcpy(&v, &u, 4);
		gt_cmp_add(c, i, v, ref[i], u == 0xffffffffu);
	}
}

void
gt_cmp_bf16(GtCmp *c, const unsigned char *data, const double *ref, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint16_t h;

		memcpy(&h, data + 2 * i, 2);
		gt_cmp_add(c, i, gt_bf16_to_float(h), ref[i], h == 0xffffu);
	}
}

int
gt_same(const char *kernel, const char *what, const unsigned char *p, const void *ref, size_t n, size_t size,
	int guards_ok)
{
	const unsigned char *r = ref;
	size_t i;
	float got = 0.0f, want = 0.0f;

	for (i = 0; i < n && memcmp(p + size * i, r + size * i, size) == 0; i++)
		;
	if (i == n && guards_ok) {
		printf("PASS %s %s: %zu elements identical\n", kernel, what, n);
		return 0;
	}
	if (i == n || size != 4) {
		printf("FAIL %s %s: element %zu differs%s\n", kernel, what, i, guards_ok ? "" : " (a guard changed)");
		return 1;
	}
	memcpy(&got, p + 4 * i, 4);
	memcpy(&want, r + 4 * i, 4);
	printf("FAIL %s %s: element %zu is %.9g, expected %.9g%s\n", kernel, what, i, got, want,
	       guards_ok ? "" : " (a guard changed)");
	return 1;
}

int
gt_report(const char *kernel, const char *label, const GtCmp *c, int guards_ok, int inputs_ok)
{
	int pass = c->max_rel <= c->threshold && c->poisoned == 0 && guards_ok && inputs_ok;

	printf("%s %s %s: max_rel_err %.3g %s %.3g (floor %.3g)", pass ? "PASS" : "FAIL", kernel,
	       label, c->max_rel, c->max_rel <= c->threshold ? "<=" : ">", c->threshold, c->floor);
	if (!pass) {
		printf("; worst at element %zu: got %.9g, ref %.9g; %zu of %zu outputs still poisoned",
		       c->worst, c->worst_got, c->worst_ref, c->poisoned, c->n);
		if (!guards_ok)
			printf("; a guard byte changed (a write out of bounds)");
		if (!inputs_ok)
			printf("; an input tensor changed");
	}
	printf("\n");
	return !pass;
}

void
gt_dims_label(const GtKernel *k, const int64_t *dims, char *out, size_t size)
{
	if (k->ndims == 1)
		snprintf(out, size, "n=%lld", (long long)dims[0]);
	else if (k->ndims == 2)
		snprintf(out, size, "M=%lld N=%lld", (long long)dims[0], (long long)dims[1]);
	else
		snprintf(out, size, "M=%lld N=%lld K=%lld", (long long)dims[0], (long long)dims[1],
			 (long long)dims[2]);
}

int
gt_run_sm90(const char *name, const char *what, int n, int (*run)(const GtDev *g, CUstream s, int i))
{
	GtDev g;
	CUstream s = NULL;
	int rc, i, failed = 0;

	rc = gt_init(&g, name);
	if (rc > 0)
		return gt_skip_status();
	if (rc < 0)
		return 1;
	if (g.major != 9) {
		printf("SKIPPED: %s: device 0 is %s; the kernels are built for sm_90a\n", name, g.name);
		gt_fini(&g);
		return gt_skip_status();
	}
	if (gt_cu(g.cu->stream_create(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate", name)) {
		gt_fini(&g);
		return 1;
	}
	for (i = 0; i < n; i++)
		failed += run(&g, s, i) != 0;
	g.cu->stream_destroy(s);
	gt_fini(&g);
	printf("%s: %d of %d %s passed\n", name, n - failed, n, what);
	return failed ? 1 : 0;
}

int
gt_run_sizes(const GtKernel *k, const GtSize *sizes, int n)
{
	GtDev g;
	CUstream s = NULL;
	CakeError err;
	int i, rc, failed = 0, ran = 0;

	rc = gt_init(&g, k->name);
	if (rc > 0)
		return gt_skip_status();
	if (rc < 0)
		return 1;
	if (gt_cu(g.cu->stream_create(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate", k->name)) {
		gt_fini(&g);
		return 1;
	}
	for (i = 0; i < n; i++) {
		char label[96];
		GtCase *c;

		if (sizes[i].large && gt_small())
			continue;
		ran++;
		gt_dims_label(k, sizes[i].dims, label, sizeof label);
		c = k->create(&g, sizes[i].dims);
		if (!c) {
			failed++;
			continue;
		}
		if (k->fill(c, gt_seed(k->name, i), s) != 0) {
			failed++;
		} else if (k->launch(c, s, &err) != CAKE_OK) {
			printf("FAIL %s %s: launch: %s: %s\n", k->name, label,
			       cakert_status_name(err.status), err.msg);
			failed++;
		} else if (k->check(c, s, "") != 0) {
			failed++;
		}
		k->destroy(c);
	}
	g.cu->stream_destroy(s);
	gt_fini(&g);
	printf("%s: %d of %d cases passed\n", k->name, ran - failed, ran);
	return failed ? 1 : 0;
}

/* ---- a family's test program (gputest.h, gt_family_main) ---- */

static int
family_args(const GtFamily *f, int argc, char **argv, const char **only)
{
	int i;

	*only = NULL;
	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (i = 0; i < f->nkernels; i++)
			printf("%s\n", f->kernels[i]);
		printf("%s\n", f->name);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "--first-call") == 0) {
		for (i = 0; i < f->nkernels && strcmp(f->kernels[i], argv[2]) != 0; i++)
			;
		if (i == f->nkernels && strcmp(argv[2], f->name) != 0) {
			fprintf(stderr, "test_%s: no kernel '%s' (--list names them)\n", f->name, argv[2]);
			return 2;
		}
		*only = argv[2];
		return -1;
	}
	if (argc != 1) {
		fprintf(stderr, "usage: test_%s [--list | --first-call KERNEL]\n", f->name);
		return 2;
	}
	return -1;
}

int
gt_family_main(const GtFamily *f, int argc, char **argv)
{
	char prog[64];
	const char *only;
	CUstream st = NULL;
	GtDev g;
	int rc = family_args(f, argc, argv, &only), failed, ran = 0;

	if (rc >= 0)
		return rc;
	snprintf(prog, sizeof prog, "test_%s", f->name);
	rc = gt_init(&g, prog);
	if (rc > 0)
		return gt_skip_status();
	if (rc < 0)
		return 1;
	if (f->sm90_only && g.major != 9) {
		/* a Blackwell device runs the other tests: not a broken set-up, so not a failure
		 * under CAKE_GPU_TEST_REQUIRE (the NOTE reaches run_gpu.sh's summary) */
		printf("SKIPPED: %s: device 0 is %s; the %s kernels are built for sm_90a only\n", prog, g.name,
		       f->name);
		printf("NOTE %s: not run on %s\n", prog, g.name);
		gt_fini(&g);
		return 0;
	}
	if (gt_cu(g.cu->stream_create(&st, CU_STREAM_NON_BLOCKING), "cuStreamCreate", prog)) {
		gt_fini(&g);
		return 1;
	}
	if (only) {
		failed = f->first_call(&g, st, only);
	} else {
		failed = f->run_all(&g, st, &ran);
		printf("%s: %d of %d cases passed\n", prog, ran - failed, ran);
	}
	g.cu->stream_destroy(st);
	gt_fini(&g);
	return failed ? 1 : 0;
}
