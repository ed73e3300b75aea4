/* test_graph.c: the launchers under CUDA graph capture (docs/testing.md).
 *
 * Warm: every kernel is launched and checked once (its module loads), then launches of
 * all five kernels are captured on a stream in global capture mode, the graph is
 * instantiated and replayed REPLAYS times; before each replay new inputs are copied into
 * the same tensors (and the outputs poisoned), and after it every result is checked.
 *
 * Cold: the context's modules are dropped (cakert_forget_context), so that the first
 * launch happens under capture and loads the module there; once in global and once in
 * relaxed capture mode. A driver may refuse a module load during capture: that is
 * reported as a NOTE, not a failure (launch once before capturing, as the warm part
 * does); a graph that does get built must replay correctly. */
#include "gputest.h"

#include <stdio.h>

#define NKERNELS 5
#define REPLAYS 4

static const GtKernel *const kernels[NKERNELS] = {
	&gt_axpby, &gt_silu_mul, &gt_rmsnorm, &gt_softmax, &gt_sgemm_tiled,
};

static const int64_t dims[NKERNELS][3] = {
	{100003, 0, 0}, {77777, 0, 0}, {37, 1001, 0}, {29, 2053, 0}, {131, 70, 97},
};

static int failed, checked;

static void
check_all(GtCase **cases, CUstream s, const char *label)
{
	int i;

	for (i = 0; i < NKERNELS; i++) {
		failed += kernels[i]->check(cases[i], s, label);
		checked++;
	}
}

static int
fill_all(GtCase **cases, CUstream s, int round)
{
	int i;

	for (i = 0; i < NKERNELS; i++)
		if (kernels[i]->fill(cases[i], gt_seed(kernels[i]->name, 2000 + round), s))
			return 1;
	return 0;
}

/* Captures one launch of each kernel on s. Returns the graph, or NULL with *note set
 * when the capture failed (the stream is out of capture mode again either way). */
static CUgraph
capture(const GtDev *g, GtCase **cases, CUstream s, CUstreamCaptureMode mode, char *note,
	size_t size)
{
	CakeError err;
	CUgraph graph = NULL;
	CUresult r;
	int i, bad = 0;

	note[0] = 0;
	r = g->cu->stream_begin_capture(s, mode);
	if (r != CUDA_SUCCESS) {
		char why[256];

		cakert_result_string(r, why, sizeof why);
		snprintf(note, size, "cuStreamBeginCapture failed: %s", why);
		return NULL;
	}
	for (i = 0; i < NKERNELS && !bad; i++)
		if (kernels[i]->launch(cases[i], s, &err) != CAKE_OK) {
			snprintf(note, size, "launch under capture: %s: %s",
				 cakert_status_name(err.status), err.msg);
			bad = 1;
		}
	r = g->cu->stream_end_capture(s, &graph);
	if (r != CUDA_SUCCESS && !bad) {
		char why[256];

		cakert_result_string(r, why, sizeof why);
		snprintf(note, size, "cuStreamEndCapture failed: %s", why);
		bad = 1;
	}
	if (bad && graph) {
		g->cu->graph_destroy(graph);
		graph = NULL;
	}
	return bad ? NULL : graph;
}

/* Instantiates graph, then REPLAYS times: new inputs, replay, check. */
static void
replay(const GtDev *g, GtCase **cases, CUstream s, CUgraph graph, const char *phase, int base)
{
	CUgraphExec exec = NULL;
	int rep;

	if (gt_cu(g->cu->graph_instantiate(&exec, graph, 0), "cuGraphInstantiateWithFlags", phase)) {
		failed++;
		return;
	}
	for (rep = 0; rep < REPLAYS; rep++) {
		char label[64];

		if (fill_all(cases, s, base + rep) ||
		    gt_cu(g->cu->graph_launch(exec, s), "cuGraphLaunch", phase)) {
			failed++;
			break;
		}
		snprintf(label, sizeof label, "%s replay %d", phase, rep);
		check_all(cases, s, label);
	}
	g->cu->graph_exec_destroy(exec);
}

int
main(void)
{
	static const struct {
		CUstreamCaptureMode mode;
		const char *name;
	} cold[2] = {
		{CU_STREAM_CAPTURE_MODE_GLOBAL, "cold-global"},
		{CU_STREAM_CAPTURE_MODE_RELAXED, "cold-relaxed"},
	};
	GtCase *cases[NKERNELS] = {NULL};
	CUstream s = NULL;
	CakeError err;
	CUgraph graph;
	char note[CAKE_ERROR_MSG_SIZE + 64];
	GtDev g;
	int i, rc, notes = 0;

	rc = gt_init(&g, "graph");
	if (rc > 0)
		return gt_skip_status();
	if (rc < 0)
		return 1;
	if (gt_cu(g.cu->stream_create(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate", "graph"))
		return 1;
	for (i = 0; i < NKERNELS; i++) {
		cases[i] = kernels[i]->create(&g, dims[i]);
		if (!cases[i])
			return 1;
	}

	/* warm: one checked launch of each kernel outside any capture */
	if (fill_all(cases, s, 0))
		return 1;
	for (i = 0; i < NKERNELS; i++)
		if (kernels[i]->launch(cases[i], s, &err) != CAKE_OK) {
			printf("FAIL graph warm-up %s: %s: %s\n", kernels[i]->name,
			       cakert_status_name(err.status), err.msg);
			failed++;
		}
	check_all(cases, s, "warm-up");

	graph = capture(&g, cases, s, CU_STREAM_CAPTURE_MODE_GLOBAL, note, sizeof note);
	if (!graph) {
		printf("FAIL graph warm capture: %s\n", note);
		failed++;
	} else {
		replay(&g, cases, s, graph, "warm", 10);
		g.cu->graph_destroy(graph);
	}

	for (i = 0; i < 2; i++) {
		/* no graph holds the functions now: drop the modules so the next launch loads */
		cakert_forget_context(g.ctx);
		graph = capture(&g, cases, s, cold[i].mode, note, sizeof note);
		if (!graph) {
			printf("NOTE graph %s: the first launch under capture failed: %s\n",
			       cold[i].name, note);
			notes++;
			continue;
		}
		replay(&g, cases, s, graph, cold[i].name, 20 + 10 * i);
		g.cu->graph_destroy(graph);
	}

	for (i = 0; i < NKERNELS; i++)
		kernels[i]->destroy(cases[i]);
	g.cu->stream_destroy(s);
	gt_fini(&g);
	printf("graph: %d checks, %d failures, %d notes\n", checked, failed, notes);
	return failed ? 1 : 0;
}
