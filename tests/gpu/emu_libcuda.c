/* emu_libcuda.c: a stand-in libcuda.so.1 that runs the GPU tests without a GPU.
 *
 * It lets CI exercise the whole GPU test harness (tests/gpu: set-up, poison, guards,
 * comparisons, the thread and graph tests) and the real kernels behind it, and prove that
 * the tests can fail: device memory is host memory, streams queue their work until
 * something waits, stream capture records kernel launches into a graph that cuGraphLaunch
 * replays, and a launch runs the kernel's optimized IR through cakec's interpreter
 * (interp/, docs/interpreter.md) over the emulated device memory.
 *
 * The IR: the build emits each kernel's optimized IR beside its launcher (cakec
 * --emit=ir: <kernel>.ir, the text whose hash is the device symbol's suffix).
 * cuModuleGetFunction(name = <kernel>_<12 hex digits>) finds <kernel>.ir in the folders of
 * EMU_IR_PATH (and their subfolders) whose hash is the symbol's, so the IR that runs is
 * the one the launcher's PTX was compiled from; none is CUDA_ERROR_NOT_FOUND, with the
 * reason on stderr. cuLaunchKernelEx copies the parameters by value (the layout the
 * kernel's parameters give: pointers, syms, scalars, 128-byte tensor maps); the launch
 * decodes them into the interpreter's arguments, checks the operands lie in live
 * allocations and that the grid, block, cluster and shared memory are what the kernel's
 * formulas give (num_sms is EMU_SMS), hands over the tensor maps the launcher encoded
 * (cuTensorMapEncodeTiled writes its arguments into the map's bytes; interp_bind holds
 * them against the maps the kernel declares) and runs interp_run. A finding of the
 * interpreter (out of bounds, race, deadlock, ...) is printed at the kernel's source line
 * and fails the launch: at once on the legacy stream, else at the next synchronization
 * (CUDA_ERROR_LAUNCH_FAILED). The diagnostics go through cakec's diag, which stops the
 * process after 20 errors.
 *
 * Environment:
 *   EMU_IR_PATH=DIR[:DIR...]       where the kernels' IR is (required to launch anything)
 *   EMU_IR_REPLACE=DIR[:DIR...]    <kernel>.ir files here run instead of the launchers'
 *       kernels of that name, whatever their hash (same parameters required): planted
 *       kernel bugs (tests/gpu/emu-planted.test)
 *   EMU_BUG=tail|oob|value|input   break every kernel (or EMU_BUG_KERNEL's) on purpose
 *       around the interpreter's run: restore the last element of the output (the first
 *       out tensor, else the first inout one) to what it held before, write one element
 *       past its end, scale its element 0 by 1.05, or (before the run) change element 0 of
 *       the first in tensor
 *   EMU_BUG=map                     cuTensorMapEncodeTiled records the box's outermost
 *       dimension above 1 halved (a launcher that encodes a wrong map)
 *   EMU_CC=100                      the device's compute capability (default 90)
 *   EMU_SMS=8                       the device's multiprocessor count (default 132, an H100
 *       or H200 SXM)
 *   EMU_NO_DEVICE=1                 cuInit fails with CUDA_ERROR_NO_DEVICE
 *   EMU_CAPTURE_LOAD_FAILS=1        module loads fail while a stream captures (global)
 *   EMU_EAGER=1                     run stream work at once instead of at the next wait
 *   EMU_LOADS=1                     print each module load: the image's kind (cubin or
 *       PTX) and architecture (a cubin's ELF flags, a PTX's .target)
 *   EMU_FAIL_CUBIN=1                cubin loads fail (CUDA_ERROR_NO_BINARY_FOR_GPU), as a
 *       cubin from a newer ptxas than the driver does; PTX still loads
 *
 * Like a driver, cuModuleLoadDataEx refuses an image for another architecture than the
 * device's (EMU_CC): a cubin whose ELF flags name another SM, a PTX whose .target does.
 *
 * The interpreter and the IR code are linked in (unsanitized, position independent,
 * hidden); they are not thread-safe, so launches run one at a time. */
#define _POSIX_C_SOURCE 200809L

#include <cuda.h>

#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../../interp/interp.h"

/* cuda.h maps this name to the _v2 entry (CUDA 12.8+); cakert resolves the original. */
#undef cuEventElapsedTime
CUresult CUDAAPI cuEventElapsedTime(float *ms, CUevent start, CUevent end);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char primary_ctx;
static int primary_refs;
static _Thread_local CUcontext current;
static int global_captures;

static void
emu_log(const char *what)
{
	fprintf(stderr, "emu_libcuda: %s\n", what);
}

/* ---- memory: host allocations, with their ranges kept for checking ---- */

typedef struct Alloc {
	uintptr_t lo, hi;
} Alloc;

static Alloc *allocs;
static size_t nallocs, capallocs;

/* 1 when [p, p + n) lies inside one live allocation. */
static int
in_alloc(uintptr_t p, size_t n)
{
	size_t i;
	int ok = 0;

	pthread_mutex_lock(&lock);
	for (i = 0; i < nallocs && !ok; i++)
		ok = p >= allocs[i].lo && p + n <= allocs[i].hi && p + n >= p;
	pthread_mutex_unlock(&lock);
	return ok;
}

CUresult CUDAAPI
cuMemAlloc(CUdeviceptr *dptr, size_t bytes)
{
	void *p;

	if (!current)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (bytes == 0)
		return CUDA_ERROR_INVALID_VALUE;
	if (global_captures)
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	/* 256-byte aligned, as cuMemAlloc's results are */
	p = aligned_alloc(256, (bytes + 255) / 256 * 256);
	if (!p)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&lock);
	if (nallocs == capallocs) {
		size_t cap = capallocs ? capallocs * 2 : 64;
		Alloc *a = realloc(allocs, cap * sizeof *a);

		if (!a) {
			pthread_mutex_unlock(&lock);
			free(p);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		allocs = a;
		capallocs = cap;
	}
	allocs[nallocs].lo = (uintptr_t)p;
	allocs[nallocs].hi = (uintptr_t)p + bytes;
	nallocs++;
	pthread_mutex_unlock(&lock);
	*dptr = (CUdeviceptr)(uintptr_t)p;
	return CUDA_SUCCESS;
}

static void run_all_queues(void);

/* As the driver's, it waits for the work in flight first (a test that frees the operands
 * of a failed case frees them under its queued copies). */
CUresult CUDAAPI
cuMemFree(CUdeviceptr dptr)
{
	size_t i;

	run_all_queues();
	pthread_mutex_lock(&lock);
	for (i = 0; i < nallocs; i++)
		if (allocs[i].lo == (uintptr_t)dptr) {
			allocs[i] = allocs[--nallocs];
			pthread_mutex_unlock(&lock);
			free((void *)(uintptr_t)dptr);
			return CUDA_SUCCESS;
		}
	pthread_mutex_unlock(&lock);
	return CUDA_ERROR_INVALID_VALUE;
}

/* ---- streams, events and graphs ---- */

/* A launch as the driver takes it: the kernel, its shape and its parameters by value. */
#define EMU_PARAM_BYTES 4096

typedef struct EmuFn EmuFn;

typedef struct Launch {
	const EmuFn *fn;
	unsigned int grid[3], block[3], cluster[3], smem;
	unsigned char params[EMU_PARAM_BYTES];  /* parameter i at fn->off[i] */
} Launch;

typedef struct Graph {
	Launch *l;
	int n, cap;
} Graph;

/* Work on a created stream is queued and runs when something waits for it (a stream,
 * context or event synchronization, or destroying the stream), as a GPU runs it later:
 * a test that reads results without synchronizing reads stale memory here too.
 * EMU_EAGER=1 runs everything at once instead. The legacy stream (NULL) runs its work at
 * once, after the queues of the streams created without CU_STREAM_NON_BLOCKING. */
enum { OP_COPY, OP_SET, OP_LAUNCH };

typedef struct Op {
	int kind;
	uintptr_t dst, src;
	size_t n;
	unsigned char v;
	unsigned char *staged;  /* a host source, copied at submission as the driver does */
	Launch l;
} Op;

typedef struct Stream {
	pthread_mutex_t mu;
	unsigned int flags;
	Graph *capture;         /* non-NULL while capturing */
	int mode;
	int invalid;            /* the capture was invalidated */
	Op *q;
	size_t nq, capq;
	int failed;             /* a queued launch failed: reported by the next wait */
	struct Stream *next;
} Stream;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;   /* before Stream.mu, interp_lock, lock */
static Stream *streams;

static int run_launch(const Launch *l);

static int
exec_op(Op *op)
{
	int bad = 0;

	switch (op->kind) {
	case OP_COPY:
		memmove((void *)op->dst, op->staged ? (const void *)op->staged : (const void *)op->src, op->n);
		break;
	case OP_SET:
		memset((void *)op->dst, op->v, op->n);
		break;
	default:
		bad = run_launch(&op->l);
		break;
	}
	free(op->staged);
	op->staged = NULL;
	return bad;
}

/* Runs st's queue; a failure is kept for the next wait to report (report: this one, which
 * returns it and clears it). */
static CUresult
run_queue(Stream *st, int report)
{
	CUresult r;
	size_t i;

	pthread_mutex_lock(&st->mu);
	for (i = 0; i < st->nq; i++)
		if (exec_op(&st->q[i]))
			st->failed = 1;
	st->nq = 0;
	r = st->failed ? CUDA_ERROR_LAUNCH_FAILED : CUDA_SUCCESS;
	if (report)
		st->failed = 0;
	pthread_mutex_unlock(&st->mu);
	return r;
}

static CUresult
flush(Stream *st)
{
	return run_queue(st, 1);
}

/* Runs the queues of every stream (blocking_only: of those the legacy stream waits for). */
static CUresult
flush_all(int blocking_only)
{
	CUresult r = CUDA_SUCCESS;
	Stream *st;

	pthread_mutex_lock(&reg_lock);
	for (st = streams; st; st = st->next)
		if ((!blocking_only || !(st->flags & CU_STREAM_NON_BLOCKING)) && flush(st) != CUDA_SUCCESS)
			r = CUDA_ERROR_LAUNCH_FAILED;
	pthread_mutex_unlock(&reg_lock);
	return r;
}

/* Runs every stream's queue, keeping failures for the next wait. */
static void
run_all_queues(void)
{
	Stream *st;

	pthread_mutex_lock(&reg_lock);
	for (st = streams; st; st = st->next)
		run_queue(st, 0);
	pthread_mutex_unlock(&reg_lock);
}

/* Queues op on s, or runs it at once on the legacy stream. Stream work other than
 * launches cannot be captured here. */
static CUresult
submit(CUstream s, Op *op)
{
	Stream *st = (Stream *)s;

	if (st && st->capture) {
		st->invalid = 1;
		free(op->staged);
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	}
	if (!st) {
		if (global_captures) {
			free(op->staged);
			return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
		}
		flush_all(1);
		return exec_op(op) ? CUDA_ERROR_LAUNCH_FAILED : CUDA_SUCCESS;
	}
	pthread_mutex_lock(&st->mu);
	if (st->nq == st->capq) {
		size_t cap = st->capq ? st->capq * 2 : 16;
		Op *q = realloc(st->q, cap * sizeof *q);

		if (!q) {
			pthread_mutex_unlock(&st->mu);
			free(op->staged);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		st->q = q;
		st->capq = cap;
	}
	st->q[st->nq++] = *op;
	pthread_mutex_unlock(&st->mu);
	return getenv("EMU_EAGER") ? flush(st) : CUDA_SUCCESS;
}

static CUresult
copy(uintptr_t dst, int dst_dev, uintptr_t src, int src_dev, size_t n, CUstream s)
{
	Op op;

	if ((dst_dev && !in_alloc(dst, n)) || (src_dev && !in_alloc(src, n))) {
		emu_log("a copy outside any allocation");
		return CUDA_ERROR_INVALID_VALUE;
	}
	memset(&op, 0, sizeof op);
	op.kind = OP_COPY;
	op.dst = dst;
	op.src = src;
	op.n = n;
	if (!src_dev && s) {
		op.staged = malloc(n ? n : 1);
		if (!op.staged)
			return CUDA_ERROR_OUT_OF_MEMORY;
		memcpy(op.staged, (const void *)src, n);
	}
	return submit(s, &op);
}

CUresult CUDAAPI
cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n)
{
	return copy((uintptr_t)dst, 1, (uintptr_t)src, 0, n, NULL);
}

CUresult CUDAAPI
cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n)
{
	return copy((uintptr_t)dst, 0, (uintptr_t)src, 1, n, NULL);
}

CUresult CUDAAPI
cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	return copy((uintptr_t)dst, 1, (uintptr_t)src, 1, n, NULL);
}

CUresult CUDAAPI
cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{
	return copy((uintptr_t)dst, 1, (uintptr_t)src, 0, n, s);
}

CUresult CUDAAPI
cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t n, CUstream s)
{
	return copy((uintptr_t)dst, 0, (uintptr_t)src, 1, n, s);
}

CUresult CUDAAPI
cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
	return copy((uintptr_t)dst, 1, (uintptr_t)src, 1, n, s);
}

static CUresult
set(CUdeviceptr dst, unsigned char v, size_t n, CUstream s)
{
	Op op;

	if (!in_alloc((uintptr_t)dst, n)) {
		emu_log("a memset outside any allocation");
		return CUDA_ERROR_INVALID_VALUE;
	}
	memset(&op, 0, sizeof op);
	op.kind = OP_SET;
	op.dst = (uintptr_t)dst;
	op.n = n;
	op.v = v;
	return submit(s, &op);
}

CUresult CUDAAPI
cuMemsetD8(CUdeviceptr dst, unsigned char v, size_t n)
{
	return set(dst, v, n, NULL);
}

CUresult CUDAAPI
cuMemsetD8Async(CUdeviceptr dst, unsigned char v, size_t n, CUstream s)
{
	return set(dst, v, n, s);
}

CUresult CUDAAPI
cuStreamCreate(CUstream *s, unsigned int flags)
{
	Stream *st;

	if (!current)
		return CUDA_ERROR_INVALID_CONTEXT;
	st = calloc(1, sizeof *st);
	if (!st)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_init(&st->mu, NULL);
	st->flags = flags;
	pthread_mutex_lock(&reg_lock);
	st->next = streams;
	streams = st;
	pthread_mutex_unlock(&reg_lock);
	*s = (CUstream)st;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuStreamDestroy(CUstream s)
{
	Stream *st = (Stream *)s, **p;

	if (!st)
		return CUDA_ERROR_INVALID_HANDLE;
	if (st->capture)
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	flush(st);
	pthread_mutex_lock(&reg_lock);
	for (p = &streams; *p; p = &(*p)->next)
		if (*p == st) {
			*p = st->next;
			break;
		}
	pthread_mutex_unlock(&reg_lock);
	pthread_mutex_destroy(&st->mu);
	free(st->q);
	free(st);
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuStreamSynchronize(CUstream s)
{
	Stream *st = (Stream *)s;

	if (st && st->capture) {
		st->invalid = 1;
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	}
	if (!st)
		return global_captures ? CUDA_ERROR_STREAM_CAPTURE_IMPLICIT : flush_all(1);
	return flush(st);
}

CUresult CUDAAPI
cuCtxSynchronize(void)
{
	return global_captures ? CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED : flush_all(0);
}

CUresult CUDAAPI
cuStreamBeginCapture(CUstream s, CUstreamCaptureMode mode)
{
	Stream *st = (Stream *)s;

	if (!st || st->capture)
		return CUDA_ERROR_ILLEGAL_STATE;
	st->capture = calloc(1, sizeof(Graph));
	if (!st->capture)
		return CUDA_ERROR_OUT_OF_MEMORY;
	st->mode = (int)mode;
	st->invalid = 0;
	if (mode == CU_STREAM_CAPTURE_MODE_GLOBAL) {
		pthread_mutex_lock(&lock);
		global_captures++;
		pthread_mutex_unlock(&lock);
	}
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuStreamEndCapture(CUstream s, CUgraph *graph)
{
	Stream *st = (Stream *)s;
	Graph *g;

	if (!st || !st->capture)
		return CUDA_ERROR_ILLEGAL_STATE;
	g = st->capture;
	st->capture = NULL;
	if (st->mode == CU_STREAM_CAPTURE_MODE_GLOBAL) {
		pthread_mutex_lock(&lock);
		global_captures--;
		pthread_mutex_unlock(&lock);
	}
	if (st->invalid) {
		free(g->l);
		free(g);
		*graph = NULL;
		return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	}
	*graph = (CUgraph)g;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuGraphInstantiateWithFlags(CUgraphExec *exec, CUgraph graph, unsigned long long flags)
{
	Graph *g = (Graph *)graph, *e;

	(void)flags;
	e = calloc(1, sizeof *e);
	if (!e)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (g->n) {
		e->l = malloc((size_t)g->n * sizeof *e->l);
		if (!e->l) {
			free(e);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		memcpy(e->l, g->l, (size_t)g->n * sizeof *e->l);
	}
	e->n = e->cap = g->n;
	*exec = (CUgraphExec)e;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuGraphLaunch(CUgraphExec exec, CUstream s)
{
	Graph *e = (Graph *)exec;
	CUresult r = CUDA_SUCCESS;
	int i;

	for (i = 0; i < e->n && r == CUDA_SUCCESS; i++) {
		Op op;

		memset(&op, 0, sizeof op);
		op.kind = OP_LAUNCH;
		op.l = e->l[i];
		r = submit(s, &op);
	}
	return r;
}

static void
graph_free(Graph *g)
{
	if (g) {
		free(g->l);
		free(g);
	}
}

CUresult CUDAAPI
cuGraphExecDestroy(CUgraphExec exec)
{
	graph_free((Graph *)exec);
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuGraphDestroy(CUgraph graph)
{
	graph_free((Graph *)graph);
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuEventCreate(CUevent *ev, unsigned int flags)
{
	(void)flags;
	*ev = calloc(1, sizeof(double));
	return *ev ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult CUDAAPI
cuEventDestroy(CUevent ev)
{
	free(ev);
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuEventRecord(CUevent ev, CUstream s)
{
	struct timespec ts;

	if (s)
		flush((Stream *)s);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	*(double *)ev = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuEventSynchronize(CUevent ev)
{
	(void)ev;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuEventElapsedTime(float *ms, CUevent start, CUevent end)
{
	*ms = (float)(*(double *)end - *(double *)start);
	return CUDA_SUCCESS;
}

/* ---- driver, device, context ---- */

CUresult CUDAAPI
cuInit(unsigned int flags)
{
	(void)flags;
	return getenv("EMU_NO_DEVICE") ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
}

CUresult CUDAAPI
cuDriverGetVersion(int *v)
{
	*v = 12080;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuGetErrorName(CUresult r, const char **s)
{
	switch (r) {
	case CUDA_SUCCESS: *s = "CUDA_SUCCESS"; break;
	case CUDA_ERROR_INVALID_VALUE: *s = "CUDA_ERROR_INVALID_VALUE"; break;
	case CUDA_ERROR_OUT_OF_MEMORY: *s = "CUDA_ERROR_OUT_OF_MEMORY"; break;
	case CUDA_ERROR_NO_DEVICE: *s = "CUDA_ERROR_NO_DEVICE"; break;
	case CUDA_ERROR_INVALID_CONTEXT: *s = "CUDA_ERROR_INVALID_CONTEXT"; break;
	case CUDA_ERROR_NOT_FOUND: *s = "CUDA_ERROR_NOT_FOUND"; break;
	case CUDA_ERROR_LAUNCH_FAILED: *s = "CUDA_ERROR_LAUNCH_FAILED"; break;
	case CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED: *s = "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"; break;
	case CUDA_ERROR_STREAM_CAPTURE_INVALIDATED: *s = "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"; break;
	case CUDA_ERROR_STREAM_CAPTURE_IMPLICIT: *s = "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT"; break;
	case CUDA_ERROR_ILLEGAL_STATE: *s = "CUDA_ERROR_ILLEGAL_STATE"; break;
	case CUDA_ERROR_INVALID_HANDLE: *s = "CUDA_ERROR_INVALID_HANDLE"; break;
	default: *s = NULL; return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuGetErrorString(CUresult r, const char **s)
{
	const char *name;

	if (cuGetErrorName(r, &name) != CUDA_SUCCESS) {
		*s = NULL;
		return CUDA_ERROR_INVALID_VALUE;
	}
	*s = r == CUDA_ERROR_NO_DEVICE ? "no CUDA-capable device is detected"
				       : "emulated error (emu_libcuda)";
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuDeviceGetCount(int *n)
{
	*n = 1;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuDeviceGet(CUdevice *d, int ordinal)
{
	if (ordinal != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	*d = 0;
	return CUDA_SUCCESS;
}

/* The multiprocessor count: EMU_SMS, default 132 (H100 and H200 SXM). */
static int
emu_sms(void)
{
	const char *s = getenv("EMU_SMS");
	int n = s ? atoi(s) : 132;

	return n > 0 ? n : 132;
}

CUresult CUDAAPI
cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
	const char *cc = getenv("EMU_CC");
	int c = cc ? atoi(cc) : 90;

	if (d != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	switch (a) {
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = c / 10; break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = c % 10; break;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *v = 232448; break;
	case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = emu_sms(); break;
	default: return CUDA_ERROR_INVALID_VALUE;  /* as a driver does for one it does not have */
	}
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice d)
{
	if (d != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&lock);
	primary_refs++;
	pthread_mutex_unlock(&lock);
	*ctx = (CUcontext)(void *)&primary_ctx;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuDevicePrimaryCtxRelease(CUdevice d)
{
	(void)d;
	pthread_mutex_lock(&lock);
	primary_refs--;
	pthread_mutex_unlock(&lock);
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuCtxGetCurrent(CUcontext *ctx)
{
	*ctx = current;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuCtxSetCurrent(CUcontext ctx)
{
	if (ctx && ctx != (CUcontext)(void *)&primary_ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	current = ctx;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuCtxGetDevice(CUdevice *d)
{
	if (!current)
		return CUDA_ERROR_INVALID_CONTEXT;
	*d = 0;
	return CUDA_SUCCESS;
}

/* ---- modules and kernels: each kernel's IR, found by its device symbol ---- */

/* The interpreter and cakec's IR code are not thread-safe (diag, the scheduler): every
 * parse and every run holds this lock. Before `lock`, after the stream locks. */
static pthread_mutex_t interp_lock = PTHREAD_MUTEX_INITIALIZER;

/* A function handle: the kernel that runs for a device symbol, and where each of its
 * parameters sits in Launch.params. Never freed (module unloads keep them). */
struct EmuFn {
	char *symbol;
	const IrKernel *k;
	int *off, *size;        /* per parameter: offset and bytes in Launch.params */
	EmuFn *next;
};
static EmuFn *fns;

/* The bytes parameter p takes in kernelParams, as the launcher declares it (host/emit.c:
 * CUdeviceptr, int32_t or int64_t syms, the scalar's C type, CUtensorMap). */
static int
param_bytes(const IrKernel *k, const IrParam *p)
{
	switch (p->kind) {
	case PARAM_TENSOR: return 8;
	case PARAM_SYM: return k->index64 ? 8 : 4;
	case PARAM_TMAP: return (int)sizeof(CUtensorMap);
	default: return ir_type_bytes(ir_scalar((IrBase)p->type.base));
	}
}

/* Calls fn(path, arg) for each file named `file` in dir and its subfolders (to a depth of
 * 4; hidden folders skipped) until fn returns nonzero, which it returns. */
static int
walk_dir(const char *dir, const char *file, int depth, int (*fn)(const char *, void *), void *arg)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		size_t n = strlen(dir) + strlen(e->d_name) + 2;
		char *path;
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		path = xmalloc(n);
		snprintf(path, n, "%s/%s", dir, e->d_name);
		if (stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode) && depth < 4)
				found = walk_dir(path, file, depth + 1, fn, arg);
			else if (S_ISREG(st.st_mode) && strcmp(e->d_name, file) == 0)
				found = fn(path, arg);
		}
		free(path);
	}
	closedir(d);
	return found;
}

/* Calls walk_dir over each folder of the colon-separated list. */
static int
walk_path(const char *list, const char *file, int (*fn)(const char *, void *), void *arg)
{
	char *copy = xstrdup(list), *dir, *save = NULL;
	int found = 0;

	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save))
		found = walk_dir(dir, file, 0, fn, arg);
	free(copy);
	return found;
}

/* The IR file a lookup found: its text, and (a hash lookup) how many had the name. */
typedef struct IrFind {
	uint64_t hash;          /* the symbol's 48-bit suffix; any: a replacement */
	int any;
	int candidates;
	char *path, *text;
	size_t len;
} IrFind;

static int
take_ir(const char *path, void *arg)
{
	IrFind *f = arg;
	size_t len;
	char *text = read_file(path, &len);

	if (!text)
		return 0;
	f->candidates++;
	/* the device symbol's suffix is the low 48 bits of the IR's symbol hash */
	if (!f->any && (ir_symbol_hash(text, len) & 0xffffffffffffull) != f->hash) {
		free(text);
		return 0;
	}
	f->path = xstrdup(path);
	f->text = text;
	f->len = len;
	return 1;
}

/* The IR files parsed, kept for the process's life (kernels point into their modules,
 * diagnostics into their text), reachable for leak checkers. */
typedef struct EmuIr {
	char *path, *text;
	IrModule *mod;
	struct EmuIr *next;
} EmuIr;
static EmuIr *irs;

/* Parses f's text and returns its kernel `name` that the interpreter can run, or NULL
 * after saying why. */
static const IrKernel *
parse_kernel(const IrFind *f, const char *name)
{
	IrModule *m = ir_parse(f->path, f->text, f->len);
	EmuIr *ir = xcalloc(1, sizeof *ir);
	int i;

	ir->path = f->path;
	ir->text = f->text;
	ir->mod = m;
	ir->next = irs;
	irs = ir;
	if (!m) {
		fprintf(stderr, "emu_libcuda: %s: the IR does not parse (errors above)\n", f->path);
		return NULL;
	}
	for (i = 0; i < m->nkernels; i++)
		if (strcmp(m->kernels[i]->name, name) == 0)
			return interp_check(m->kernels[i]) == 0 ? m->kernels[i] : NULL;
	fprintf(stderr, "emu_libcuda: %s has no kernel '%s'\n", f->path, name);
	return NULL;
}

/* Whether kernel r may run in place of k: parameters of the same kinds, types, shapes and
 * maps, so that the launcher's kernelParams mean the same to it. */
static int
same_params(const IrKernel *k, const IrKernel *r)
{
	int i, d;

	if (k->nparams != r->nparams || k->index64 != r->index64)
		return 0;
	for (i = 0; i < k->nparams; i++) {
		const IrParam *a = &k->params[i], *b = &r->params[i];

		if (a->kind != b->kind || !ir_type_eq(a->type, b->type) || a->access != b->access ||
		    a->rank != b->rank || a->tmap_tensor != b->tmap_tensor || a->swizzle != b->swizzle ||
		    a->oob_nan != b->oob_nan)
			return 0;
		for (d = 0; d < a->rank; d++)
			if (a->dims[d].sym != b->dims[d].sym || a->dims[d].size != b->dims[d].size)
				return 0;
	}
	return 1;
}

/* EMU_IR_REPLACE: the kernel to run instead of k, or k; NULL after an error. */
static const IrKernel *
replacement(const IrKernel *k)
{
	const char *list = getenv("EMU_IR_REPLACE");
	char file[300];
	IrFind f;
	const IrKernel *r;

	memset(&f, 0, sizeof f);
	f.any = 1;
	snprintf(file, sizeof file, "%s.ir", k->name);
	if (!list || !*list || !walk_path(list, file, take_ir, &f))
		return k;
	if (!(r = parse_kernel(&f, k->name)))
		return NULL;
	if (!same_params(k, r)) {
		fprintf(stderr, "emu_libcuda: EMU_IR_REPLACE: %s: kernel '%s' does not take the parameters the launcher's does\n",
			f.path, k->name);
		return NULL;
	}
	fprintf(stderr, "emu_libcuda: note: kernel '%s' runs %s (EMU_IR_REPLACE)\n", k->name, f.path);
	return r;
}

/* The kernel of device symbol `symbol` (<kernel>_<12 hex digits>): its IR found in
 * EMU_IR_PATH by name and hash, parsed, and replaced where EMU_IR_REPLACE says. NULL after
 * saying why on stderr. Called under interp_lock. */
static const IrKernel *
find_kernel(const char *symbol)
{
	const char *list = getenv("EMU_IR_PATH");
	size_t len = strlen(symbol);
	char name[256], file[300];
	const IrKernel *k;
	IrFind f;

	memset(&f, 0, sizeof f);
	if (len < 14 || len - 13 >= sizeof name || symbol[len - 13] != '_' ||
	    strspn(symbol + len - 12, "0123456789abcdef") != 12) {
		fprintf(stderr, "emu_libcuda: cuModuleGetFunction: '%s' is not a cakec device symbol (<kernel>_<12 hex digits>)\n",
			symbol);
		return NULL;
	}
	memcpy(name, symbol, len - 13);
	name[len - 13] = '\0';
	f.hash = strtoull(symbol + len - 12, NULL, 16);
	snprintf(file, sizeof file, "%s.ir", name);
	if (!list || !*list) {
		fprintf(stderr, "emu_libcuda: cuModuleGetFunction(%s): EMU_IR_PATH is not set (the folders of the kernels' IR, cakec --emit=ir)\n",
			symbol);
		return NULL;
	}
	if (!walk_path(list, file, take_ir, &f)) {
		if (f.candidates)
			fprintf(stderr, "emu_libcuda: cuModuleGetFunction(%s): %d file(s) %s in EMU_IR_PATH=%s, none the IR of this build of the kernel (its hash is not %s): rebuild\n",
				symbol, f.candidates, file, list, symbol + len - 12);
		else
			fprintf(stderr, "emu_libcuda: cuModuleGetFunction(%s): no %s in EMU_IR_PATH=%s (cakec --emit=ir writes it)\n",
				symbol, file, list);
		return NULL;
	}
	if (!(k = parse_kernel(&f, name)))
		return NULL;
	return replacement(k);
}

static int modules_live;

/* The SM number an image is for (90, 100, 103; 0 when it does not say), and whether it
 * is a cubin (an ELF file) rather than PTX text. */
static int
image_sm(const void *image, int *cubin)
{
	const unsigned char *b = image;
	const char *t;
	uint32_t flags;

	*cubin = memcmp(b, "\177ELF", 4) == 0;
	if (*cubin) {
		/* e_flags of an ELF64 header; ELF ABI version 8 (CUDA 13) moved the SM from
		 * the low byte to the next one */
		memcpy(&flags, b + 48, sizeof flags);
		return b[8] >= 8 ? (int)((flags >> 8) & 0xff) : (int)(flags & 0xff);
	}
	t = strstr((const char *)image, "\n.target sm_");
	return t ? atoi(t + strlen("\n.target sm_")) : 0;
}

/* Writes msg into the caller's CU_JIT_ERROR_LOG_BUFFER, when it gave one. */
static void
jit_log(unsigned int n, const CUjit_option *o, void **v, const char *msg)
{
	char *buf = NULL;
	size_t size = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (o[i] == CU_JIT_ERROR_LOG_BUFFER)
			buf = v[i];
		if (o[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
			size = (size_t)(uintptr_t)v[i];
	}
	if (buf && size)
		snprintf(buf, size, "%s", msg);
}

CUresult CUDAAPI
cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned int n, CUjit_option *o, void **v)
{
	const char *cc = getenv("EMU_CC");
	int dev_sm = cc ? atoi(cc) : 90, cubin, sm;

	if (!current)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (global_captures && getenv("EMU_CAPTURE_LOAD_FAILS"))
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	sm = image_sm(image, &cubin);
	if (getenv("EMU_LOADS"))
		fprintf(stderr, "emu_libcuda: cuModuleLoadDataEx: %s for sm_%d on an sm_%d device%s\n",
			cubin ? "cubin" : "PTX", sm, dev_sm,
			cubin && getenv("EMU_FAIL_CUBIN") ? ": refused (EMU_FAIL_CUBIN)" : "");
	if (cubin && getenv("EMU_FAIL_CUBIN")) {
		jit_log(n, o, v, "emulated: cubins are refused (EMU_FAIL_CUBIN)");
		return CUDA_ERROR_NO_BINARY_FOR_GPU;
	}
	if (sm && sm != dev_sm) {
		jit_log(n, o, v, "emulated: the image is for another architecture than the device's");
		return cubin ? CUDA_ERROR_NO_BINARY_FOR_GPU : CUDA_ERROR_INVALID_PTX;
	}
	pthread_mutex_lock(&lock);
	modules_live++;
	pthread_mutex_unlock(&lock);
	*m = (CUmodule)malloc(1);
	return *m ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult CUDAAPI
cuModuleUnload(CUmodule m)
{
	pthread_mutex_lock(&lock);
	modules_live--;
	pthread_mutex_unlock(&lock);
	free(m);
	return CUDA_SUCCESS;
}

/* A new handle for kernel k under symbol, with its parameter layout; NULL when the
 * parameters do not fit a Launch. */
static EmuFn *
fn_new(const char *symbol, const IrKernel *k)
{
	EmuFn *f = xcalloc(1, sizeof *f);
	int i, at = 0;

	f->symbol = xstrdup(symbol);
	f->k = k;
	f->off = xcalloc((size_t)k->nparams + 1, sizeof *f->off);
	f->size = xcalloc((size_t)k->nparams + 1, sizeof *f->size);
	for (i = 0; i < k->nparams; i++) {
		int n = param_bytes(k, &k->params[i]), align = n < 8 ? n : 8;

		at = (at + align - 1) / align * align;
		f->off[i] = at;
		f->size[i] = n;
		at += n;
	}
	if (at > EMU_PARAM_BYTES) {
		fprintf(stderr, "emu_libcuda: kernel '%s': its parameters take %d bytes, more than the emulator's %d\n",
			k->name, at, EMU_PARAM_BYTES);
		free(f->symbol);
		free(f->off);
		free(f->size);
		free(f);
		return NULL;
	}
	return f;
}

/* A function handle is an EmuFn, one per device symbol. */
CUresult CUDAAPI
cuModuleGetFunction(CUfunction *fn, CUmodule m, const char *name)
{
	const IrKernel *k;
	EmuFn *f;

	(void)m;
	pthread_mutex_lock(&interp_lock);
	for (f = fns; f && strcmp(f->symbol, name) != 0; f = f->next)
		;
	if (!f && (k = find_kernel(name)) && (f = fn_new(name, k))) {
		f->next = fns;
		fns = f;
	}
	pthread_mutex_unlock(&interp_lock);
	if (!f)
		return CUDA_ERROR_NOT_FOUND;
	*fn = (CUfunction)(void *)f;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuFuncGetAttribute(int *v, CUfunction_attribute a, CUfunction fn)
{
	(void)a;
	(void)fn;
	*v = 0;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuFuncSetAttribute(CUfunction fn, CUfunction_attribute a, int v)
{
	(void)fn;
	(void)a;
	(void)v;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI
cuLaunchKernelEx(const CUlaunchConfig *cfg, CUfunction fn, void **params, void **extra)
{
	Stream *st = (Stream *)cfg->hStream;
	const EmuFn *f = (const EmuFn *)(void *)fn;
	Launch *l;
	CUresult r;
	unsigned int i;
	int p;

	(void)extra;
	if (!current)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	l = calloc(1, sizeof *l);
	if (!l)
		return CUDA_ERROR_OUT_OF_MEMORY;
	l->fn = f;
	l->grid[0] = cfg->gridDimX;
	l->grid[1] = cfg->gridDimY;
	l->grid[2] = cfg->gridDimZ;
	l->block[0] = cfg->blockDimX;
	l->block[1] = cfg->blockDimY;
	l->block[2] = cfg->blockDimZ;
	l->smem = cfg->sharedMemBytes;
	l->cluster[0] = l->cluster[1] = l->cluster[2] = 1;
	for (i = 0; i < cfg->numAttrs; i++)
		if (cfg->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
			l->cluster[0] = cfg->attrs[i].value.clusterDim.x;
			l->cluster[1] = cfg->attrs[i].value.clusterDim.y;
			l->cluster[2] = cfg->attrs[i].value.clusterDim.z;
		}
	/* the parameters by value, as the driver copies them at launch */
	for (p = 0; p < f->k->nparams; p++)
		memcpy(l->params + f->off[p], params[p], (size_t)f->size[p]);
	if (st && st->capture) {
		Graph *g = st->capture;

		r = CUDA_SUCCESS;
		if (g->n == g->cap) {
			int cap = g->cap ? g->cap * 2 : 8;
			Launch *q = realloc(g->l, (size_t)cap * sizeof *q);

			if (!q)
				r = CUDA_ERROR_OUT_OF_MEMORY;
			else {
				g->l = q;
				g->cap = cap;
			}
		}
		if (r == CUDA_SUCCESS)
			g->l[g->n++] = *l;
	} else {
		Op op;

		memset(&op, 0, sizeof op);
		op.kind = OP_LAUNCH;
		op.l = *l;
		r = submit(cfg->hStream, &op);
	}
	free(l);
	return r;
}

/* ---- TMA tensor maps ---- */

/* cuTensorMapEncodeTiled writes its arguments into the map's 128 bytes (the real map is
 * opaque): word 0 a magic number, 1 the address, 2 the small fields, 3..7 the dims,
 * 8..11 the strides, 12..14 the box, 15 the element strides. A launch hands the decoded
 * map to the interpreter, which checks it against the kernel's declaration, so a launcher
 * that encodes the wrong tensor, extent, stride, box, swizzle or fill fails here too. */
#define TMAP_MAGIC 0x656d752d746d6170ull        /* "emu-tmap" */

static int
tmap_elem_bytes(int dtype)
{
	switch (dtype) {
	case CU_TENSOR_MAP_DATA_TYPE_UINT8: return 1;
	case CU_TENSOR_MAP_DATA_TYPE_UINT16:
	case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
	case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16: return 2;
	case CU_TENSOR_MAP_DATA_TYPE_INT64:
	case CU_TENSOR_MAP_DATA_TYPE_UINT64:
	case CU_TENSOR_MAP_DATA_TYPE_FLOAT64: return 8;
	default: return 4;
	}
}

/* The driver's documented rules for tiled maps (without interleave, which cakec never
 * asks for): a 64-byte aligned map, rank 1..5, a 16-byte aligned address, extents in
 * [1, 2^32], strides multiples of 16 below 2^40, box dims in [1, 256], element strides in
 * [1, 8], a box row of whole 16-byte units that fits the swizzle span. */
CUresult CUDAAPI
cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType dtype, cuuint32_t rank, void *addr,
		       const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
		       const cuuint32_t *estr, CUtensorMapInterleave il, CUtensorMapSwizzle swz,
		       CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob)
{
	static const uint32_t span[] = {0, 32, 64, 128};
	const char *bug = getenv("EMU_BUG");
	uint32_t row;
	cuuint32_t i, halve = rank;

	if (!map || (uintptr_t)map % 64 || rank < 1 || rank > 5 || (uintptr_t)addr % 16 ||
	    il != CU_TENSOR_MAP_INTERLEAVE_NONE || swz > CU_TENSOR_MAP_SWIZZLE_128B ||
	    dtype > CU_TENSOR_MAP_DATA_TYPE_BFLOAT16)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < rank; i++) {
		if (dims[i] == 0 || dims[i] > ((cuuint64_t)1 << 32) || box[i] == 0 || box[i] > 256 ||
		    estr[i] == 0 || estr[i] > 8)
			return CUDA_ERROR_INVALID_VALUE;
		if (i + 1 < rank && (strides[i] % 16 || strides[i] >= ((cuuint64_t)1 << 40)))
			return CUDA_ERROR_INVALID_VALUE;
	}
	row = box[0] * (uint32_t)tmap_elem_bytes(dtype);
	if (row % 16 || (swz && row > span[swz]))
		return CUDA_ERROR_INVALID_VALUE;
	if (oob == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA && dtype < CU_TENSOR_MAP_DATA_TYPE_FLOAT16)
		return CUDA_ERROR_INVALID_VALUE;
	/* EMU_BUG=map: the outermost box dimension above 1 halved */
	for (i = rank; bug && strcmp(bug, "map") == 0 && i-- > 0 && halve == rank;)
		if (box[i] > 1)
			halve = i;
	memset(map, 0, sizeof *map);
	map->opaque[0] = TMAP_MAGIC;
	map->opaque[1] = (cuuint64_t)(uintptr_t)addr;
	map->opaque[2] = (cuuint64_t)dtype | (cuuint64_t)rank << 8 | (cuuint64_t)il << 16 |
			 (cuuint64_t)swz << 24 | (cuuint64_t)l2 << 32 | (cuuint64_t)oob << 40;
	for (i = 0; i < rank; i++) {
		cuuint64_t b = box[i];

		if (i == halve)
			b /= 2;
		map->opaque[3 + i] = dims[i];
		if (i + 1 < rank)
			map->opaque[8 + i] = strides[i];
		map->opaque[12 + i / 2] |= b << (32 * (i % 2));
		map->opaque[15] |= (cuuint64_t)estr[i] << (8 * i);
	}
	return CUDA_SUCCESS;
}

/* Reads a map as cuTensorMapEncodeTiled wrote it into the interpreter's form; 0 when the
 * bytes are not such a map (an all-zero map, which launchers pass for an empty tensor,
 * reads as rank 0). */
static int
tmap_decode(const unsigned char *bytes, InterpTmap *t)
{
	static const int swizzle_bytes[] = {0, 32, 64, 128};
	uint64_t w[16];
	int i;

	memcpy(w, bytes, sizeof w);
	memset(t, 0, sizeof *t);
	if (w[0] != TMAP_MAGIC) {
		for (i = 0; i < 16 && !w[i]; i++)
			;
		return i == 16;
	}
	t->global = (const void *)(uintptr_t)w[1];
	t->elem_bytes = tmap_elem_bytes((int)(w[2] & 0xff));
	t->rank = (int)(w[2] >> 8 & 0xff);
	t->interleave = (int)(w[2] >> 16 & 0xff);
	t->swizzle = swizzle_bytes[w[2] >> 24 & 3];
	t->oob_nan = (w[2] >> 40 & 0xff) == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
	for (i = 0; i < t->rank && i < 5; i++) {
		t->dims[i] = w[3 + i];
		if (i < 4)
			t->strides[i] = w[8 + i];
		t->box[i] = (uint32_t)(w[12 + i / 2] >> (32 * (i % 2)));
		t->elem_strides[i] = (uint32_t)(w[15] >> (8 * i) & 0xff);
	}
	return 1;
}

/* ---- a launch: the kernel's IR through the interpreter ---- */

static float
f16_to_f(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ffu, u;
	float f;

	if (e == 0) {
		f = ldexpf((float)m, -24);
		return sign ? -f : f;
	}
	u = sign | (e == 31 ? 0x7f800000u | (m << 13) : ((e - 15 + 127) << 23) | (m << 13));
	memcpy(&f, &u, 4);
	return f;
}

static float
bf16_to_f(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* Scalar parameter p's value from its bytes: floats (f16 and bf16 from their bit patterns)
 * in f, integers and fp8 bit patterns in i. */
static void
decode_scalar(const IrParam *p, const unsigned char *b, InterpArg *a)
{
	union { int8_t i8; uint8_t u8; int16_t i16; uint16_t u16; int32_t i32; uint32_t u32;
		int64_t i64; float f32; double f64; } v;

	memcpy(&v, b, (size_t)ir_type_bytes(ir_scalar((IrBase)p->type.base)));
	switch ((IrBase)p->type.base) {
	case IR_I8: a->i = v.i8; break;
	case IR_I16: a->i = v.i16; break;
	case IR_I32: a->i = v.i32; break;
	case IR_I64: case IR_U64: a->i = v.i64; break;
	case IR_U16: a->i = v.u16; break;
	case IR_U32: a->i = v.u32; break;
	case IR_F16: a->f = f16_to_f(v.u16); break;
	case IR_BF16: a->f = bf16_to_f(v.u16); break;
	case IR_F32: a->f = v.f32; break;
	case IR_F64: a->f = v.f64; break;
	default: a->i = v.u8; break;        /* i1, u8, e4m3, e5m2 */
	}
}

/* One element of storage for tensors with no elements, which launchers may pass as NULL. */
static unsigned char empty_tensor[16];

/* The interpreter's arguments from l's parameter bytes; -1 after saying what is wrong. */
static int
decode_args(const Launch *l, InterpArg *args, InterpTmap *maps)
{
	const IrKernel *k = l->fn->k;
	int i, d;

	for (i = 0; i < k->nparams; i++) {
		const IrParam *p = &k->params[i];
		const unsigned char *b = l->params + l->fn->off[i];

		if (p->kind == PARAM_SYM) {
			int32_t v32;

			if (k->index64)
				memcpy(&args[i].i, b, 8);
			else {
				memcpy(&v32, b, 4);
				args[i].i = v32;
			}
			args[i].set = 1;
		} else if (p->kind == PARAM_SCALAR) {
			decode_scalar(p, b, &args[i]);
		}
	}
	for (i = 0; i < k->nparams; i++) {
		const IrParam *p = &k->params[i];
		const unsigned char *b = l->params + l->fn->off[i];
		CUdeviceptr ptr;

		if (p->kind == PARAM_TENSOR) {
			memcpy(&ptr, b, 8);
			args[i].data = (void *)(uintptr_t)ptr;
			args[i].rank = p->rank;
			for (d = 0; d < p->rank; d++)
				args[i].shape[d] = p->dims[d].sym >= 0 ? args[p->dims[d].sym].i : p->dims[d].size;
		} else if (p->kind == PARAM_TMAP) {
			if (!tmap_decode(b, &maps[i])) {
				fprintf(stderr, "emu_libcuda: %s: parameter '%s': the bytes are not a tensor map cuTensorMapEncodeTiled made\n",
					k->name, p->name);
				return -1;
			}
			args[i].tmap = &maps[i];
		}
	}
	for (i = 0; i < k->nparams; i++)
		if (k->params[i].kind == PARAM_TENSOR && !args[i].data && interp_tensor_elems(k, i, args) == 0)
			args[i].data = empty_tensor;
	return 0;
}

/* The bytes of tensor parameter p (after decode_args). */
static size_t
tensor_bytes(const IrKernel *k, int p, const InterpArg *args)
{
	int64_t n = interp_tensor_elems(k, p, args);

	return n < 0 ? 0 : (size_t)n * (size_t)ir_type_bytes(ir_scalar((IrBase)k->params[p].type.elem));
}

/* Every tensor lies inside one live allocation; -1 after saying which does not. */
static int
check_operands(const Launch *l, const InterpArg *args)
{
	const IrKernel *k = l->fn->k;
	int i;

	for (i = 0; i < k->nparams; i++) {
		size_t n;

		if (k->params[i].kind != PARAM_TENSOR || !(n = tensor_bytes(k, i, args)))
			continue;
		if (!in_alloc((uintptr_t)args[i].data, n)) {
			fprintf(stderr, "emu_libcuda: %s: tensor '%s': %zu bytes at %p are outside any allocation\n",
				k->name, k->params[i].name, n, args[i].data);
			return -1;
		}
	}
	return 0;
}

/* The launch's shape is the kernel's: the grid its formulas give (interp_bind, with
 * EMU_SMS), its threads, cluster and shared memory; -1 after saying what differs. */
static int
check_shape(const Launch *l, InterpArg *args, const InterpOptions *o)
{
	const IrKernel *k = l->fn->k;
	int64_t grid[3];
	Buf err = {0};
	int i, ok = 1;

	if (interp_bind(k, args, o, grid, &err) != 0) {
		fprintf(stderr, "emu_libcuda: %s: %s\n", k->name, err.s);
		buf_free(&err);
		return -1;
	}
	for (i = 0; i < 3; i++)
		ok &= l->grid[i] == (unsigned int)grid[i] && l->block[i] == (unsigned int)k->threads[i] &&
		      l->cluster[i] == (unsigned int)k->cluster[i];
	if (!ok) {
		fprintf(stderr, "emu_libcuda: %s: launch: grid (%u, %u, %u) block (%u, %u, %u) cluster (%u, %u, %u); expected grid (%lld, %lld, %lld) block (%d, %d, %d) cluster (%d, %d, %d)\n",
			k->name, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2],
			l->cluster[0], l->cluster[1], l->cluster[2], (long long)grid[0], (long long)grid[1],
			(long long)grid[2], k->threads[0], k->threads[1], k->threads[2], k->cluster[0],
			k->cluster[1], k->cluster[2]);
		return -1;
	}
	if ((int64_t)l->smem < k->smem_bytes) {
		fprintf(stderr, "emu_libcuda: %s: launch: %u bytes of dynamic shared memory; the kernel needs %lld\n",
			k->name, l->smem, (long long)k->smem_bytes);
		return -1;
	}
	return 0;
}

/* ---- EMU_BUG: a broken kernel, around the interpreter's run ---- */

/* The bug to plant in kernel k's launch ("" for none). */
static const char *
bug_for(const IrKernel *k)
{
	const char *bug = getenv("EMU_BUG"), *only = getenv("EMU_BUG_KERNEL");

	if (!bug || !*bug || strcmp(bug, "map") == 0)
		return "";
	if (only && *only && strcmp(k->name, only) != 0)
		return "";
	return bug;
}

/* The first tensor parameter with access acc (and at least one element), or -1. */
static int
first_tensor(const IrKernel *k, const InterpArg *args, int acc)
{
	int i;

	for (i = 0; i < k->nparams; i++)
		if (k->params[i].kind == PARAM_TENSOR && k->params[i].access == acc && tensor_bytes(k, i, args))
			return i;
	return -1;
}

/* The tensor the output bugs break: the first out tensor, else the first inout one. */
static int
output_tensor(const IrKernel *k, const InterpArg *args)
{
	int t = first_tensor(k, args, ACC_OUT);

	return t >= 0 ? t : first_tensor(k, args, ACC_INOUT);
}

static uint16_t
f_to_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((u >> 16) | 0x40);
	u += 0x7fffu + ((u >> 16) & 1);
	return (uint16_t)(u >> 16);
}

/* Round to nearest even; values past the largest finite become infinities, those below
 * the normal range zero (the outputs the bug scales are normal numbers). */
static uint16_t
f_to_f16(float f)
{
	uint32_t u, sign, mant, r, rest;
	int e;

	memcpy(&u, &f, 4);
	sign = (u >> 16) & 0x8000u;
	e = (int)((u >> 23) & 0xff) - 127 + 15;
	mant = u & 0x7fffffu;
	if (((u >> 23) & 0xff) == 0xff)
		return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
	if (e >= 31)
		return (uint16_t)(sign | 0x7c00u);
	if (e <= 0)
		return (uint16_t)sign;
	r = ((uint32_t)e << 10) | (mant >> 13);
	rest = mant & 0x1fffu;
	if (rest > 0x1000u || (rest == 0x1000u && (r & 1)))
		r++;
	return (uint16_t)(sign | r);
}

/* EMU_BUG=value: element 0 of tensor t scaled by 1.05 (integers: plus one). */
static void
scale_first(const IrParam *p, void *data)
{
	float f;
	double d;
	uint16_t h;

	switch ((IrBase)p->type.elem) {
	case IR_F32:
		memcpy(&f, data, 4);
		f *= 1.05f;
		memcpy(data, &f, 4);
		break;
	case IR_F64:
		memcpy(&d, data, 8);
		d *= 1.05;
		memcpy(data, &d, 8);
		break;
	case IR_BF16:
	case IR_F16:
		memcpy(&h, data, 2);
		h = p->type.elem == IR_BF16 ? f_to_bf16(bf16_to_f(h) * 1.05f) : f_to_f16(f16_to_f(h) * 1.05f);
		memcpy(data, &h, 2);
		break;
	default:
		((unsigned char *)data)[0]++;
		break;
	}
}

/* Runs one launch; nonzero when an operand or the launch shape was wrong or the
 * interpreter reported a finding (printed on stderr). */
static int
run_launch(const Launch *l)
{
	const IrKernel *k = l->fn->k;
	const char *bug = bug_for(k);
	InterpArg *args = xcalloc((size_t)k->nparams + 1, sizeof *args);
	InterpTmap *maps = xcalloc((size_t)k->nparams + 1, sizeof *maps);
	InterpOptions o;
	unsigned char last[16];
	size_t eb = 0, n = 0;
	int out, in, rc = 1;

	interp_options_default(&o);
	o.num_sms = emu_sms();
	pthread_mutex_lock(&interp_lock);
	if (decode_args(l, args, maps) != 0 || check_operands(l, args) != 0 || check_shape(l, args, &o) != 0)
		goto done;
	out = output_tensor(k, args);
	if (out >= 0) {
		eb = (size_t)ir_type_bytes(ir_scalar((IrBase)k->params[out].type.elem));
		n = tensor_bytes(k, out, args);
		memcpy(last, (unsigned char *)args[out].data + n - eb, eb);
	}
	if (strcmp(bug, "input") == 0 && (in = first_tensor(k, args, ACC_IN)) >= 0)
		((unsigned char *)args[in].data)[0] ^= 1;
	if (interp_run(k, args, &o) != 0) {
		fprintf(stderr, "emu_libcuda: %s: the interpreter stopped the launch (the error above)\n", k->name);
		goto done;
	}
	rc = 0;
	if (out < 0)
		goto done;
	if (strcmp(bug, "tail") == 0)
		memcpy((unsigned char *)args[out].data + n - eb, last, eb);
	else if (strcmp(bug, "oob") == 0)
		memset((unsigned char *)args[out].data + n, 0, eb);
	else if (strcmp(bug, "value") == 0)
		scale_first(&k->params[out], args[out].data);
done:
	pthread_mutex_unlock(&interp_lock);
	free(args);
	free(maps);
	return rc;
}
