/* test_gdp.c: the gated delta product decode family on the GPU (docs/gdp.md,
 * docs/testing.md). Every variant tests/gpu/gdp.cmake builds for the test (the designs
 * base, rows, fused, warp and tma; T tokens, NH Householder steps, K and V of 64 and 128,
 * V slices of 8 to 64 columns, q/k normalised in the kernel or not, bf16 and f16) runs
 * with GQA ratios 1, 2 and 4, with and without intermediate states, against the float64
 * reference; and a kernel with staging elision must give the same bits as its staged twin
 * (--no-staging-elision), which every design that stages its state has. */
#include "case_gdp.h"

#include <stdio.h>
#include <string.h>

#include "gdp_variants.h"

#define WRAP(name, T_, NH_, KD_, VD_, BV_, L2_, F16_, STAGED_, TWIN_) \
	static int \
	launch_##name(const GdpArgs *a, CUstream s, CakeError *err) \
	{ \
		name##_args x; \
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
		return name##_launch(&x, s, err); \
	}
GDP_VARIANTS(WRAP)

#define ENTRY(name, T_, NH_, KD_, VD_, BV_, L2_, F16_, STAGED_, TWIN_) \
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

int
main(void)
{
	GtDev g;
	CUstream s = NULL;
	int i, j, rc, failed = 0, ran = 0;

	rc = gt_init(&g, "test_gdp");
	if (rc > 0)
		return gt_skip_status();
	if (rc < 0)
		return 1;
	if (gt_cu(g.cu->stream_create(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate", "test_gdp")) {
		gt_fini(&g);
		return 1;
	}
	for (i = 0; i < NVARIANTS; i++) {
		const GdpVariant *v = &variants[i], *off;

		if (v->staged)
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
