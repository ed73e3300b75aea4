/* test_gdp.c: the gated delta product decode family on the GPU (docs/gdp.md,
 * docs/testing.md). Every variant tests/gpu/gdp.cmake builds for the test (the designs
 * base, rows, fused, warp, tma and multi; T tokens, NH Householder steps, K and V of 64 and 128,
 * V slices of 8 to 64 columns, q/k normalised in the kernel or not, bf16 and f16) runs
 * with GQA ratios 1, 2 and 4, with and without intermediate states, against the float64
 * reference; and a kernel with staging elision must give the same bits as its staged twin
 * (--no-staging-elision), which every design that stages its state has. */
#include "case_gdp.h"

#include <stdio.h>
#include <string.h>

#include "gdp_variants.h"

#define WRAP(name, inst, T_, NH_, KD_, VD_, BV_, L2_, F16_, STAGED_, TWIN_) \
	static int \
	launch_##name(const GdpArgs *a, CUstream s, CakeError *err) \
	{ \
		name##_args x; \
		double t0; \
		int rc; \
		memset(&x, 0, sizeof x); \
		x.q = a->q; \
		x.k = a->k; \
		x.v = a->v; \
		x.g = a->g; \
		x.beta = a->beta; \
		x.s = a->s; \
		x.o = a->o; \
		x.inter = a->inter; \
		x.scale = a->scale; \
		t0 = gt_now_ms(); \
		rc = name##_launch(&x, s, err); \
		gt_clock_note(&inst##_kernel, gt_now_ms() - t0); \
		return rc; \
	}
GDP_VARIANTS(WRAP)

#define ENTRY(name, inst, T_, NH_, KD_, VD_, BV_, L2_, F16_, STAGED_, TWIN_) \
	{#name, T_, NH_, KD_, VD_, BV_, L2_, F16_, STAGED_, TWIN_, launch_##name},
static const GdpVariant variants[] = {GDP_VARIANTS(ENTRY)};
#define NVARIANTS ((int)(sizeof variants / sizeof variants[0]))

/* The cases of every variant: one head; GQA 1, 2 and 4 with and without intermediate
 * states (ti < 0: all T tokens); batches that are not powers of two. */
static const GdpSize sizes[] = {
	{1, 1, 1, -1, 0},
	{2, 4, 1, -1, 0},
	{3, 8, 2, 0, 0},
	{5, 8, 4, -1, 0},
	{2, 6, 2, 0, 0},
	{16, 64, 4, 0, 1},      /* 1024 heads: every SM busy */
};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static const GdpVariant *
twin(const GdpVariant *v)
{
	char name[256];
	int i;

	snprintf(name, sizeof name, "%s_staged", v->name);
	for (i = 0; i < NVARIANTS; i++)
		if (strcmp(variants[i].name, name) == 0)
			return &variants[i];
	return NULL;
}

/* --first-call NAME (bench/first_call.py): one case of variant NAME run twice in this
 * fresh process, its two launches clocked; the staged twin is left out (it would load a
 * module of its own). */
static int
first_call(const GtDev *g, CUstream s, const GdpVariant *v)
{
	GdpSize sz = {2, 4, 1, -1, 0};
	char label[64];
	int r;

	sz.ti = v->T;
	snprintf(label, sizeof label, "B=%d HV=%d", sz.B, sz.HV);
	r = gdp_run_case(g, s, v, NULL, &sz, gt_seed(v->name, 0));
	r += gdp_run_case(g, s, v, NULL, &sz, gt_seed(v->name, 1));
	return r + gt_first_call_line(v->name, label, g->ctx, NULL, 0);
}

int
main(int argc, char **argv)
{
	GtDev g;
	CUstream s = NULL;
	const GdpVariant *only = NULL;
	int i, j, rc, failed = 0, ran = 0;

	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (i = 0; i < NVARIANTS; i++)
			if (!variants[i].staged)
				printf("%s\n", variants[i].name);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "--first-call") == 0) {
		for (i = 0; i < NVARIANTS && strcmp(variants[i].name, argv[2]) != 0; i++)
			;
		if (i == NVARIANTS) {
			fprintf(stderr, "test_gdp: no variant '%s' (--list names them)\n", argv[2]);
			return 2;
		}
		only = &variants[i];
	} else if (argc != 1) {
		fprintf(stderr, "usage: test_gdp [--list | --first-call VARIANT]\n");
		return 2;
	}
	rc = gt_init(&g, "test_gdp");
	if (rc > 0)
		return gt_skip_status();
	if (rc < 0)
		return 1;
	if (gt_cu(g.cu->stream_create(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate", "test_gdp")) {
		gt_fini(&g);
		return 1;
	}
	if (only) {
		failed = first_call(&g, s, only);
		g.cu->stream_destroy(s);
		gt_fini(&g);
		return failed ? 1 : 0;
	}
	for (i = 0; i < NVARIANTS; i++) {
		const GdpVariant *v = &variants[i], *off;

		if (v->staged || !gt_selected(v->name))
			continue;
		off = twin(v);
		if (!off && v->twin) {
			printf("FAIL %s: no staged twin %s_staged was built\n", v->name, v->name);
			failed++;
			continue;
		}
		for (j = 0; j < NSIZES; j++) {
			GdpSize sz = sizes[j];

			if (sz.large && gt_small())
				continue;
			if (sz.ti < 0)
				sz.ti = v->T;
			ran++;
			if (gdp_run_case(&g, s, v, off, &sz, gt_seed(v->name, j)))
				failed++;
		}
	}
	g.cu->stream_destroy(s);
	gt_fini(&g);
	printf("test_gdp: %d of %d cases passed\n", ran - failed, ran);
	return failed ? 1 : 0;
}
