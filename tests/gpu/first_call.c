/* first_call.c: the cost of a kernel's first call through its launcher (bench/first_call.py).
 *
 * Usage: first_call KERNEL...   (no KERNEL: every kernel below; --list: their names)
 * For each kernel: allocate and fill one case's tensors, synchronize, then time the host
 * side of the first <kernel>_launch (the module load for this context: the cubin, or the
 * driver's JIT compile of the PTX; then the launch), synchronize, fill the same inputs
 * again, time the second call, and check its result. Prints one line per kernel:
 *   first_call axpby: first 0.412 ms, second 0.006 ms, image cubin sm_90a
 * (image: what cakert_loaded_image says the context loaded), or a FAIL line. The cold
 * start is a per-process cost, so bench/first_call.py runs one kernel per process; here
 * the kernels share the process's context, which is already made when the timing starts.
 * Exit status: 0, 1 when a launch or a check failed (a kernel not built for the device
 * prints a NOTE and is left out). Under CAKE_GPU_TEST_SMALL, small sizes (the emulated
 * driver's run in ctest). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "gputest.h"

#include "axpby.h"
#include "gemm_bf16.h"
#include "gemm_bf16_f32.h"
#include "gemm_f16.h"
#include "gemm_f16_f32.h"
#include "rmsnorm.h"
#include "rmsnorm_rows.h"
#include "sgemm_tiled.h"
#include "silu_mul.h"
#include "softmax.h"
#include "softmax_rows.h"

#include <stdio.h>
#include <string.h>

extern const GtKernel gt_gemm_bf16, gt_gemm_f16, gt_gemm_bf16_f32, gt_gemm_f16_f32;

/* The kernels of kernels_src with a GtKernel (tests/gpu/case_<k>.c), one case's sizes
 * each: the size a model would call it at, and a small one for the emulated driver. */
static const struct {
	const GtKernel *gt;
	const CakertKernel *desc;
	int64_t dims[3], small[3];
} kernels[] = {
	{&gt_axpby, &axpby_kernel, {1 << 24}, {1000}},
	{&gt_silu_mul, &silu_mul_kernel, {1 << 24}, {1000}},
	{&gt_rmsnorm, &rmsnorm_kernel, {64, 4096}, {3, 300}},
	{&gt_rmsnorm_rows, &rmsnorm_rows_kernel, {4096, 128}, {5, 40}},
	{&gt_softmax, &softmax_kernel, {64, 4096}, {3, 300}},
	{&gt_softmax_rows, &softmax_rows_kernel, {4096, 128}, {5, 40}},
	{&gt_sgemm_tiled, &sgemm_tiled_kernel, {1024, 1024, 1024}, {70, 66, 40}},
	{&gt_gemm_bf16, &gemm_bf16_kernel, {512, 2560, 1024}, {129, 257, 72}},
	{&gt_gemm_f16, &gemm_f16_kernel, {512, 2560, 1024}, {129, 257, 72}},
	{&gt_gemm_bf16_f32, &gemm_bf16_f32_kernel, {512, 2560, 1024}, {129, 257, 72}},
	{&gt_gemm_f16_f32, &gemm_f16_f32_kernel, {512, 2560, 1024}, {129, 257, 72}},
};
#define NKERNELS ((int)(sizeof kernels / sizeof kernels[0]))

/* Times kernel i's first and second calls; returns the number of failures. */
static int
run_one(const GtDev *g, CUstream s, int i)
{
	const GtKernel *k = kernels[i].gt;
	const int64_t *dims = gt_small() ? kernels[i].small : kernels[i].dims;
	char label[96], image[128];
	CakeError err;
	double t0, first, second = -1;
	GtCase *c;
	int rc, failed = 0;

	gt_dims_label(k, dims, label, sizeof label);
	c = k->create(g, dims);
	if (!c)
		return 1;
	if (k->fill(c, gt_seed(k->name, 0), s) != 0 ||
	    gt_cu(g->cu->stream_synchronize(s), "cuStreamSynchronize", k->name)) {
		k->destroy(c);
		return 1;
	}
	t0 = gt_now_ms();
	rc = k->launch(c, s, &err);
	first = gt_now_ms() - t0;
	if (rc == CAKE_ERR_ARCH) {
		printf("NOTE first_call %s: not built for this device: %s\n", k->name, err.msg);
		k->destroy(c);
		return 0;
	}
	if (rc == CAKE_OK) {
		/* the same inputs again (axpby's y is inout), so that the check holds */
		if (gt_cu(g->cu->stream_synchronize(s), "cuStreamSynchronize", k->name) ||
		    k->fill(c, gt_seed(k->name, 0), s) != 0 ||
		    gt_cu(g->cu->stream_synchronize(s), "cuStreamSynchronize", k->name)) {
			k->destroy(c);
			return 1;
		}
		t0 = gt_now_ms();
		rc = k->launch(c, s, &err);
		second = gt_now_ms() - t0;
	}
	if (rc != CAKE_OK) {
		printf("FAIL first_call %s %s: launch: %s: %s\n", k->name, label,
		       cakert_status_name(err.status), err.msg);
		k->destroy(c);
		return 1;
	}
	/* both calls computed the same result from the same inputs */
	failed = k->check(c, s, "(second call)") != 0;
	if (!cakert_loaded_image(kernels[i].desc, g->ctx, image, sizeof image))
		snprintf(image, sizeof image, "unknown");
	printf("first_call %s: first %.3f ms, second %.3f ms, image %s (%s)\n", k->name, first,
	       second, image, label);
	k->destroy(c);
	return failed;
}

int
main(int argc, char **argv)
{
	GtDev g;
	CUstream s = NULL;
	int i, j, rc, failed = 0;

	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (i = 0; i < NKERNELS; i++)
			printf("%s\n", kernels[i].gt->name);
		return 0;
	}
	for (j = 1; j < argc; j++) {
		for (i = 0; i < NKERNELS && strcmp(kernels[i].gt->name, argv[j]) != 0; i++)
			;
		if (i == NKERNELS) {
			fprintf(stderr, "first_call: no kernel '%s' (--list names them)\n", argv[j]);
			return 2;
		}
	}
	rc = gt_init(&g, "first_call");
	if (rc > 0)
		return gt_skip_status();
	if (rc < 0)
		return 1;
	if (gt_cu(g.cu->stream_create(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate", "first_call")) {
		gt_fini(&g);
		return 1;
	}
	for (i = 0; i < NKERNELS; i++) {
		int want = argc == 1;

		for (j = 1; j < argc; j++)
			want |= strcmp(kernels[i].gt->name, argv[j]) == 0;
		if (want)
			failed += run_one(&g, s, i);
	}
	g.cu->stream_destroy(s);
	gt_fini(&g);
	return failed ? 1 : 0;
}
