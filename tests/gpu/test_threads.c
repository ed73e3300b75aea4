/* test_threads.c: the launchers under concurrent use (docs/testing.md).
 *
 * THREADS host threads share the device's primary context; each has its own non-blocking
 * stream and its own tensors for all five kernels (sizes differ per thread). Iteration 0's
 * inputs are uploaded first, then every thread waits at a barrier and launches all five
 * kernels at once: those are the process's first launches, so the lazy module loads race
 * and must each happen once and correctly. Then ITERS further rounds of new inputs,
 * launches and checks, with the threads interleaving freely. Every result is verified. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "gputest.h"

#include <pthread.h>
#include <stdio.h>

#define THREADS 8
#define ITERS 3
#define NKERNELS 5

static const GtKernel *const kernels[NKERNELS] = {
	&gt_axpby, &gt_silu_mul, &gt_rmsnorm, &gt_softmax, &gt_sgemm_tiled,
};

typedef struct Worker {
	const GtDev *g;
	int id;
	pthread_t thread;
	int failed;             /* failed checks or launches */
	int checked;
} Worker;

static pthread_barrier_t start;

/* Ragged sizes, different for every thread. */
static void
sizes_for(int kernel, int id, int64_t dims[3])
{
	int small = gt_small();

	switch (kernel) {
	case 0:
	case 1:
		dims[0] = (small ? 3001 : 300001) + 37 * id;
		break;
	case 2:
	case 3:
		dims[0] = 5 + id;
		dims[1] = (small ? 257 : 4093) + 4 * id;       /* ragged, and both paths */
		break;
	default:
		dims[0] = 70 + 9 * id;
		dims[1] = 66 + 8 * id;
		dims[2] = 40 + 3 * id;
		break;
	}
}

static int
launch_one(Worker *w, const GtKernel *k, GtCase *c, CUstream s, int iter)
{
	CakeError err;

	if (k->launch(c, s, &err) != CAKE_OK) {
		printf("FAIL %s thread %d iter %d: launch: %s: %s\n", k->name, w->id, iter,
		       cakert_status_name(err.status), err.msg);
		return 1;
	}
	return 0;
}

static void *
work(void *arg)
{
	Worker *w = arg;
	GtCase *cases[NKERNELS] = {NULL};
	CUstream s = NULL;
	int i, iter, ok = 1;

	if (gt_make_current(w->g) ||
	    gt_cu(w->g->cu->stream_create(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate", "thread"))
		ok = 0;
	for (i = 0; ok && i < NKERNELS; i++) {
		int64_t dims[3];

		sizes_for(i, w->id, dims);
		cases[i] = kernels[i]->create(w->g, dims);
		if (!cases[i] || kernels[i]->fill(cases[i], gt_seed(kernels[i]->name, 1000 + w->id), s))
			ok = 0;
	}
	if (ok && gt_cu(w->g->cu->stream_synchronize(s), "cuStreamSynchronize", "thread"))
		ok = 0;
	/* every thread waits here, failed or not, or the others would wait forever */
	pthread_barrier_wait(&start);
	if (!ok) {
		w->failed++;
		goto out;
	}
	for (iter = 0; iter <= ITERS; iter++) {
		char label[64];

		if (iter > 0)
			for (i = 0; i < NKERNELS; i++)
				if (kernels[i]->fill(cases[i], gt_seed(kernels[i]->name, 1000 + 100 * iter + w->id), s))
					w->failed++;
		for (i = 0; i < NKERNELS; i++)
			w->failed += launch_one(w, kernels[i], cases[i], s, iter);
		snprintf(label, sizeof label, "thread %d iter %d", w->id, iter);
		for (i = 0; i < NKERNELS; i++) {
			w->failed += kernels[i]->check(cases[i], s, label);
			w->checked++;
		}
	}
out:
	for (i = 0; i < NKERNELS; i++)
		if (cases[i])
			kernels[i]->destroy(cases[i]);
	if (s)
		w->g->cu->stream_destroy(s);
	return NULL;
}

int
main(void)
{
	Worker w[THREADS];
	GtDev g;
	int i, rc, failed = 0, checked = 0, started = 0;

	rc = gt_init(&g, "threads");
	if (rc > 0)
		return gt_skip_status();
	if (rc < 0)
		return 1;
	pthread_barrier_init(&start, NULL, THREADS);
	for (i = 0; i < THREADS; i++) {
		w[i].g = &g;
		w[i].id = i;
		w[i].failed = w[i].checked = 0;
		if (pthread_create(&w[i].thread, NULL, work, &w[i]) != 0) {
			/* the barrier counts THREADS arrivals: without all threads, stop here */
			printf("FAIL threads: pthread_create failed\n");
			return 1;
		}
		started++;
	}
	for (i = 0; i < started; i++) {
		pthread_join(w[i].thread, NULL);
		failed += w[i].failed;
		checked += w[i].checked;
	}
	pthread_barrier_destroy(&start);
	gt_fini(&g);
	printf("threads: %d threads x %d rounds x %d kernels: %d checks, %d failures\n", THREADS,
	       ITERS + 1, NKERNELS, checked, failed);
	return failed || checked != THREADS * (ITERS + 1) * NKERNELS ? 1 : 0;
}
