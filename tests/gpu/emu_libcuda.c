/* emu_libcuda.c: a stand-in libcuda.so.1 that runs the GPU tests without a GPU.
 *
 * It lets CI exercise the whole GPU test harness (tests/gpu: set-up, poison, guards,
 * comparisons, the thread and graph tests) and prove that the tests can fail: device
 * memory is host memory, streams queue their work until something waits, stream capture records kernel
 * launches into a graph that cuGraphLaunch replays, and a launch of a kernel of
 * kernels_src runs a CPU version of it in f32 (found by the device symbol's prefix; the
 * gdp variants by their names, gdp_t<T>_h<NH>_k<K>v<V>_bv<BV>[_<design>][_l2]_<type>, which
 * say their -D constants and design: rows, fused, warp or tma_c<CPS>s<STAGES>). cuTensorMapEncodeTiled applies the driver's documented rules and writes
 * its arguments into the map's 128 bytes (tmap_decode reads them back), so that the gemm
 * kernels' CPU version reads A and B through their maps, as the kernels read them through
 * TMA. It checks what the harness relies on: copies and kernel operands inside live allocations,
 * the grid and block each launcher should compute (num_sms is EMU_SMS), the maps the
 * launcher encoded, no stream work while capturing other than launches.
 *
 * It emulates the harness's view of a GPU, not the kernels' PTX: the real kernels are
 * only tested on a GPU (bench/run_gpu.sh).
 *
 * Environment:
 *   EMU_BUG=tail|oob|value|input   break every kernel (or EMU_BUG_KERNEL's) on purpose:
 *       leave the last output unwritten, write one element past the end, scale output 0
 *       by 1.05, or change input element 0
 *   EMU_BUG=ktail                   the gemm kernels drop the last K block when K is not a
 *       multiple of 64 (K / 64 blocks instead of cdiv(K, 64))
 *   EMU_CC=100                      the device's compute capability (default 90)
 *   EMU_SMS=8                       the device's multiprocessor count (default 132, an H100
 *       or H200 SXM)
 *   EMU_NO_DEVICE=1                 cuInit fails with CUDA_ERROR_NO_DEVICE
 *   EMU_CAPTURE_LOAD_FAILS=1        module loads fail while a stream captures (global)
 *   EMU_EAGER=1                     run stream work at once instead of at the next wait */
#define _POSIX_C_SOURCE 200809L

#include <cuda.h>

#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

CUresult CUDAAPI
cuMemFree(CUdeviceptr dptr)
{
	size_t i;

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

typedef struct Launch {
	int kind;
	unsigned int grid[3], block[3];
	unsigned char args[16][8];
	unsigned char maps[4][128];     /* the 128-byte tensor map parameters, in order */
	int variant;            /* K_GDP: index into gdp_fns */
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

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;   /* before Stream.mu, before lock */
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

static CUresult
flush(Stream *st)
{
	CUresult r;
	size_t i;

	pthread_mutex_lock(&st->mu);
	for (i = 0; i < st->nq; i++)
		if (exec_op(&st->q[i]))
			st->failed = 1;
	st->nq = 0;
	r = st->failed ? CUDA_ERROR_LAUNCH_FAILED : CUDA_SUCCESS;
	st->failed = 0;
	pthread_mutex_unlock(&st->mu);
	return r;
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
	default: *v = 0; break;
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

/* ---- modules and kernels ---- */

enum { K_AXPBY, K_SILU_MUL, K_RMSNORM, K_SOFTMAX, K_SGEMM, K_RMSNORM_ROWS, K_SOFTMAX_ROWS,
       K_GEMM_BF16, K_GEMM_F16, K_GEMM_BF16_F32, K_GEMM_F16_F32, K_COUNT, K_GDP = K_COUNT };

/* The gdp variants met so far: their constants and design, read from the kernel's name; a
 * function handle of one is the address of its entry. The designs (kernels_src/gdp,
 * docs/gdp.md) compute the same thing and differ in their launch shape: base, rows and
 * fused run (KD / 8) * (BV / 4) threads a block, warp 32 x (BV / WC) (WC = 2048 / KD
 * columns a warp), tma a persistent grid of min(CPS * num_sms, items) blocks of
 * 32 * (BV / WC + 1) threads whose q, k, v and state go through four tensor maps. */
enum { GD_BASE, GD_ROWS, GD_FUSED, GD_WARP, GD_TMA };

typedef struct GdpFn {
	int T, NH, K, V, BV, l2, f16;
	int design, cps, stages;
} GdpFn;
static GdpFn gdp_fns[64];
static int ngdp_fns;

static GdpFn *
gdp_function(const char *name)
{
	GdpFn f;
	char rest[64];
	const char *tag;
	int i, n = 0;
	size_t len = strlen(name);

	memset(&f, 0, sizeof f);
	if (sscanf(name, "gdp_t%d_h%d_k%dv%d_bv%d_%63[a-z0-9_]%n", &f.T, &f.NH, &f.K, &f.V, &f.BV, rest, &n) != 6 ||
	    (size_t)n != len || len < 13 || strspn(name + len - 12, "0123456789abcdef") != 12 ||
	    name[len - 13] != '_' || f.T < 1 || f.NH < 1 || f.K < 8 || f.K > 256 || f.V < 4 || f.V > 256 ||
	    f.BV < 4 || f.V % f.BV)
		return NULL;
	tag = rest;
	if (strncmp(tag, "rows_", 5) == 0) {
		f.design = GD_ROWS;
		tag += 5;
	} else if (strncmp(tag, "fused_", 6) == 0) {
		f.design = GD_FUSED;
		tag += 6;
	} else if (strncmp(tag, "warp_", 5) == 0) {
		f.design = GD_WARP;
		tag += 5;
	} else if (strncmp(tag, "tma_", 4) == 0) {
		n = 0;
		if (sscanf(tag, "tma_c%ds%d_%n", &f.cps, &f.stages, &n) != 2 || n == 0 || f.cps < 1 ||
		    f.stages < 1)
			return NULL;
		f.design = GD_TMA;
		tag += n;
	}
	if (f.design == GD_WARP || f.design == GD_TMA) {
		/* a warp holds all K rows of 2048 / K columns, 16 rows a thread */
		if (f.K % 16 || f.K < 32 || f.K > 256 || f.BV % (2048 / f.K))
			return NULL;
	}
	f.l2 = strncmp(tag, "l2_", 3) == 0;
	f.f16 = strncmp(tag + (f.l2 ? 3 : 0), "f16", 3) == 0;
	pthread_mutex_lock(&lock);
	for (i = 0; i < ngdp_fns; i++)
		if (memcmp(&gdp_fns[i], &f, sizeof f) == 0)
			break;
	if (i == ngdp_fns && ngdp_fns < 64)
		gdp_fns[ngdp_fns++] = f;
	pthread_mutex_unlock(&lock);
	return i < 64 ? &gdp_fns[i] : NULL;
}

/* Each kernel: its name (the device symbol is <name>_<12 hex digits>) and the sizes of its
 * parameters, in order. */
static const struct {
	const char *prefix;
	int nargs;
	int size[8];            /* 128: a tensor map */
} kernels[K_COUNT] = {
	{"axpby", 5, {8, 8, 4, 4, 4}},                  /* x, y, a, b, n */
	{"silu_mul", 4, {8, 8, 8, 4}},                  /* gate, up, out, n */
	{"rmsnorm", 6, {8, 8, 8, 4, 4, 4}},             /* x, w, y, eps, M, N */
	{"softmax", 4, {8, 8, 4, 4}},                   /* x, y, M, N */
	{"sgemm_tiled", 6, {8, 8, 8, 4, 4, 4}},         /* A, B, C, M, K, N */
	{"rmsnorm_rows", 6, {8, 8, 8, 4, 4, 4}},        /* x, w, y, eps, M, N */
	{"softmax_rows", 4, {8, 8, 4, 4}},              /* x, y, M, N */
	/* a, b, c, M, K, N, then the tensor maps ta (over a) and tb (over b) */
	{"gemm_bf16", 8, {8, 8, 8, 4, 4, 4, 128, 128}},
	{"gemm_f16", 8, {8, 8, 8, 4, 4, 4, 128, 128}},
	{"gemm_bf16_f32", 8, {8, 8, 8, 4, 4, 4, 128, 128}},
	{"gemm_f16_f32", 8, {8, 8, 8, 4, 4, 4, 128, 128}},
};

static int modules_live;

CUresult CUDAAPI
cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned int n, CUjit_option *o, void **v)
{
	(void)image;
	(void)n;
	(void)o;
	(void)v;
	if (!current)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (global_captures && getenv("EMU_CAPTURE_LOAD_FAILS"))
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
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

/* A function handle is the address of its entry in `kernels`. */
CUresult CUDAAPI
cuModuleGetFunction(CUfunction *fn, CUmodule m, const char *name)
{
	int k;

	(void)m;
	if (strncmp(name, "gdp_t", 5) == 0) {
		GdpFn *g = gdp_function(name);

		if (!g)
			return CUDA_ERROR_NOT_FOUND;
		*fn = (CUfunction)(void *)g;
		return CUDA_SUCCESS;
	}
	for (k = 0; k < K_COUNT; k++) {
		size_t len = strlen(kernels[k].prefix);

		if (strncmp(name, kernels[k].prefix, len) == 0 && name[len] == '_' &&
		    strlen(name + len + 1) == 12 && strspn(name + len + 1, "0123456789abcdef") == 12) {
			*fn = (CUfunction)(void *)&kernels[k];
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_NOT_FOUND;
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
	Launch l;
	int i, nmaps = 0;

	(void)extra;
	if (!current)
		return CUDA_ERROR_INVALID_CONTEXT;
	memset(&l, 0, sizeof l);
	if ((const char *)(void *)fn >= (const char *)gdp_fns && (const char *)(void *)fn < (const char *)(gdp_fns + 64)) {
		l.kind = K_GDP;
		l.variant = (int)((const GdpFn *)(void *)fn - gdp_fns);
	} else {
		l.kind = (int)(((const char *)(void *)fn - (const char *)(void *)kernels) / (ptrdiff_t)sizeof kernels[0]);
		if (l.kind < 0 || l.kind >= K_COUNT)
			return CUDA_ERROR_INVALID_HANDLE;
	}
	l.grid[0] = cfg->gridDimX;
	l.grid[1] = cfg->gridDimY;
	l.grid[2] = cfg->gridDimZ;
	l.block[0] = cfg->blockDimX;
	l.block[1] = cfg->blockDimY;
	l.block[2] = cfg->blockDimZ;
	/* copy the parameters by value, as the driver does at launch; gdp: 8 tensors, the
	 * scale, then the shape symbols B, HQK, HV, TI */
	if (l.kind == K_GDP) {
		for (i = 0; i < 13; i++)
			memcpy(l.args[i], params[i], i < 8 ? 8 : 4);
		/* the tma design's tensor maps tms, tmq, tmk, tmv follow */
		for (i = 0; gdp_fns[l.variant].design == GD_TMA && i < 4; i++)
			memcpy(l.maps[i], params[13 + i], 128);
	} else
		for (i = 0; i < kernels[l.kind].nargs; i++) {
			int sz = kernels[l.kind].size[i];

			if (sz == 128 && nmaps < 2)
				memcpy(l.maps[nmaps++], params[i], 128);
			else
				memcpy(l.args[i], params[i], (size_t)sz);
		}
	if (st && st->capture) {
		Graph *g = st->capture;

		if (g->n == g->cap) {
			int cap = g->cap ? g->cap * 2 : 8;
			Launch *p = realloc(g->l, (size_t)cap * sizeof *p);

			if (!p)
				return CUDA_ERROR_OUT_OF_MEMORY;
			g->l = p;
			g->cap = cap;
		}
		g->l[g->n++] = l;
		return CUDA_SUCCESS;
	}
	{
		Op op;

		memset(&op, 0, sizeof op);
		op.kind = OP_LAUNCH;
		op.l = l;
		return submit(cfg->hStream, &op);
	}
}

/* ---- TMA tensor maps ---- */

/* cuTensorMapEncodeTiled writes its arguments into the map's 128 bytes (the real map is
 * opaque): word 0 a magic number, 1 the address, 2 the small fields, 3..7 the dims,
 * 8..11 the strides, 12..14 the box and the largest element stride. A kernel's CPU version
 * reads its operands through the map (tmap_decode), as the kernel reads them through TMA,
 * so a launcher that encodes the wrong tensor, extent or stride gives wrong results here
 * too. */
#define TMAP_MAGIC 0x656d752d746d6170ull        /* "emu-tmap" */

typedef struct Tmap {
	uintptr_t base;
	int dtype, rank, interleave, swizzle, l2, oob;
	uint64_t dim[5], stride[4];     /* innermost first; stride[i] is dimension i + 1's */
	uint32_t box[5], estr_max;
} Tmap;

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
	uint32_t emax = 0, row;
	cuuint32_t i;

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
		emax = estr[i] > emax ? estr[i] : emax;
	}
	row = box[0] * (uint32_t)tmap_elem_bytes(dtype);
	if (row % 16 || (swz && row > span[swz]))
		return CUDA_ERROR_INVALID_VALUE;
	if (oob == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA && dtype < CU_TENSOR_MAP_DATA_TYPE_FLOAT16)
		return CUDA_ERROR_INVALID_VALUE;
	memset(map, 0, sizeof *map);
	map->opaque[0] = TMAP_MAGIC;
	map->opaque[1] = (cuuint64_t)(uintptr_t)addr;
	map->opaque[2] = (cuuint64_t)dtype | (cuuint64_t)rank << 8 | (cuuint64_t)il << 16 |
			 (cuuint64_t)swz << 24 | (cuuint64_t)l2 << 32 | (cuuint64_t)oob << 40;
	for (i = 0; i < rank; i++) {
		map->opaque[3 + i] = dims[i];
		if (i + 1 < rank)
			map->opaque[8 + i] = strides[i];
		map->opaque[12 + i / 2] |= (cuuint64_t)box[i] << (32 * (i % 2));
	}
	map->opaque[14] |= (cuuint64_t)emax << 32;
	return CUDA_SUCCESS;
}

/* Reads a map as cuTensorMapEncodeTiled wrote it; 0 when bytes are not such a map. */
static int
tmap_decode(const unsigned char *bytes, Tmap *t)
{
	uint64_t w[16];
	int i;

	memcpy(w, bytes, sizeof w);
	memset(t, 0, sizeof *t);
	if (w[0] != TMAP_MAGIC)
		return 0;
	t->base = (uintptr_t)w[1];
	t->dtype = (int)(w[2] & 0xff);
	t->rank = (int)(w[2] >> 8 & 0xff);
	t->interleave = (int)(w[2] >> 16 & 0xff);
	t->swizzle = (int)(w[2] >> 24 & 0xff);
	t->l2 = (int)(w[2] >> 32 & 0xff);
	t->oob = (int)(w[2] >> 40 & 0xff);
	for (i = 0; i < 5; i++) {
		t->dim[i] = w[3 + i];
		if (i < 4)
			t->stride[i] = w[8 + i];
		t->box[i] = (uint32_t)(w[12 + i / 2] >> (32 * (i % 2)));
	}
	t->estr_max = (uint32_t)(w[14] >> 32);
	return 1;
}

/* ---- the kernels on the CPU ---- */

#define LOG2E 1.4426950408889634f

static float
bf16_to_f(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, 4);
	return f;
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

/* A row reduction as the kernels do it: `lanes` threads (256: a block per row, 32: a
 * warp per row) each sum a strided share (part[t]), then a tree over them. */
#define BLOCK 256

static float
block_sum(float *part, int lanes)
{
	int w;

	for (w = lanes / 2; w > 0; w /= 2) {
		int t;

		for (t = 0; t < w; t++)
			part[t] += part[t + w];
	}
	return part[0];
}

static const char *
kind_name(int kind)
{
	return kind == K_GDP ? "gdp" : kernels[kind].prefix;
}

static int32_t
arg_i32(const Launch *l, int i)
{
	int32_t v;

	memcpy(&v, l->args[i], 4);
	return v;
}

static float
arg_f32(const Launch *l, int i)
{
	float v;

	memcpy(&v, l->args[i], 4);
	return v;
}

static void *
arg_ptr(const Launch *l, int i, size_t bytes, int *ok)
{
	CUdeviceptr p;

	memcpy(&p, l->args[i], 8);
	if (bytes && !in_alloc((uintptr_t)p, bytes)) {
		fprintf(stderr, "emu_libcuda: %s: operand %d: %zu bytes at 0x%llx are outside any allocation\n",
			kind_name(l->kind), i, bytes, (unsigned long long)p);
		*ok = 0;
	}
	return (void *)(uintptr_t)p;
}

static int
expect_dims(const Launch *l, unsigned int gx, unsigned int gy, unsigned int bx, unsigned int by)
{
	if (l->grid[0] == gx && l->grid[1] == gy && l->grid[2] == 1 && l->block[0] == bx &&
	    l->block[1] == by && l->block[2] == 1)
		return 1;
	fprintf(stderr, "emu_libcuda: %s: launch: grid (%u, %u, %u) block (%u, %u, %u); expected grid (%u, %u, 1) block (%u, %u, 1)\n",
		kind_name(l->kind), l->grid[0], l->grid[1], l->grid[2], l->block[0],
		l->block[1], l->block[2], gx, gy, bx, by);
	return 0;
}

/* expect_dims for a 3-D grid of 1-D blocks */
static int
expect_dims3(const Launch *l, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx)
{
	if (l->grid[0] == gx && l->grid[1] == gy && l->grid[2] == gz && l->block[0] == bx &&
	    l->block[1] == 1 && l->block[2] == 1)
		return 1;
	fprintf(stderr, "emu_libcuda: %s: launch: grid (%u, %u, %u) block (%u, %u, %u); expected grid (%u, %u, %u) block (%u, 1, 1)\n",
		kind_name(l->kind), l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
		l->block[2], gx, gy, gz, bx);
	return 0;
}

static const char *
bug_for(int kind)
{
	const char *bug = getenv("EMU_BUG"), *only = getenv("EMU_BUG_KERNEL");

	if (!bug || !*bug)
		return "";
	if (only && *only && strcmp(kind_name(kind), only) != 0)
		return "";
	return bug;
}

static unsigned int
cdiv(int64_t a, int64_t b)
{
	return (unsigned int)((a + b - 1) / b);
}

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

/* Round to nearest even; values past the largest finite become infinities (the
 * subnormals of the outputs the tests check do not occur: |o| >> 2^-14). */
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

/* expect_dims for a 3-D grid of 2-D blocks */
static int
expect_dims32(const Launch *l, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
	      unsigned int by)
{
	if (l->grid[0] == gx && l->grid[1] == gy && l->grid[2] == gz && l->block[0] == bx &&
	    l->block[1] == by && l->block[2] == 1)
		return 1;
	fprintf(stderr, "emu_libcuda: %s: launch: grid (%u, %u, %u) block (%u, %u, %u); expected grid (%u, %u, %u) block (%u, %u, 1)\n",
		kind_name(l->kind), l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
		l->block[2], gx, gy, gz, bx, by);
	return 0;
}

/* Checks tensor map `which` of a gdp tma launch: over `ptr` (rank dimensions of shape
 * `dims`, outermost first, elements of `esize` bytes, contiguous), box `box`, no swizzle,
 * as the kernel's tma(...) declarations say. */
static int
gdp_tmap(const Launch *l, int which, const void *ptr, int rank, const int64_t *dims,
	 const uint32_t *box, int esize)
{
	static const char *names[4] = {"tms", "tmq", "tmk", "tmv"};
	Tmap t;
	uint64_t stride = (uint64_t)esize;
	int i, ok;

	ok = tmap_decode(l->maps[which], &t) && t.base == (uintptr_t)ptr && t.rank == rank &&
	     tmap_elem_bytes(t.dtype) == esize && t.swizzle == CU_TENSOR_MAP_SWIZZLE_NONE &&
	     t.interleave == CU_TENSOR_MAP_INTERLEAVE_NONE && t.estr_max == 1;
	for (i = 0; ok && i < rank; i++) {
		/* the map lists dimensions innermost first */
		ok = t.dim[i] == (uint64_t)dims[rank - 1 - i] && t.box[i] == box[rank - 1 - i] &&
		     (i == 0 || t.stride[i - 1] == stride);
		stride *= (uint64_t)dims[rank - 1 - i];
	}
	if (!ok)
		fprintf(stderr, "emu_libcuda: gdp: tensor map '%s' does not describe its tensor with the kernel's box\n",
			names[which]);
	return ok;
}

/* The gdp decode step (docs/gdp.md) per batch and value head, in f32 as the kernel does
 * it (a sum over K per column, exp2 of g log2 e, q and k normalised when l2). */
static int
run_gdp(const Launch *l, const char *bug)
{
	const GdpFn *gd = &gdp_fns[l->variant];
	int ok = 1, T = gd->T, NH = gd->NH, K = gd->K, V = gd->V, b, h, t, j, i, c;
	int64_t B = arg_i32(l, 9), HQK = arg_i32(l, 10), HV = arg_i32(l, 11), TI = arg_i32(l, 12);
	size_t ns = (size_t)(B * HV) * (size_t)(K * V), no = (size_t)(B * T * HV * V);
	uint16_t *q = arg_ptr(l, 0, (size_t)(B * T * HQK * K) * 2, &ok);
	uint16_t *k = arg_ptr(l, 1, (size_t)(B * T * NH * HQK * K) * 2, &ok);
	uint16_t *v = arg_ptr(l, 2, (size_t)(B * T * NH * HV * V) * 2, &ok);
	float *g = arg_ptr(l, 3, (size_t)(B * T * HV) * 4, &ok);
	uint16_t *beta = arg_ptr(l, 4, (size_t)(B * T * NH * HV) * 2, &ok);
	float *s = arg_ptr(l, 5, ns * 4, &ok);
	uint16_t *o = arg_ptr(l, 6, no * 2, &ok);
	float *inter = arg_ptr(l, 7, (size_t)TI * ns * 4, &ok);
	float scale = arg_f32(l, 8), kk[256], qq[256], *S, *u;

	if (!ok || HQK <= 0 || HV % HQK)
		return 1;
	if (gd->design == GD_WARP || gd->design == GD_TMA) {
		unsigned int nw = (unsigned int)(gd->BV / (2048 / K)), items = (unsigned int)(B * HV * (V / gd->BV));
		unsigned int sms = (unsigned int)(gd->cps * emu_sms());

		if (gd->design == GD_WARP &&
		    !expect_dims32(l, (unsigned int)(V / gd->BV), (unsigned int)HV, (unsigned int)B, 32, nw))
			return 1;
		if (gd->design == GD_TMA) {
			int64_t ds[4] = {B, HV, K, V}, dq[4] = {B, T, HQK, K};
			int64_t dk[5] = {B, T, NH, HQK, K}, dv[5] = {B, T, NH, HV, V};
			uint32_t bs[4] = {1, 1, (uint32_t)K, (uint32_t)gd->BV}, bq[4] = {1, (uint32_t)T, 1, (uint32_t)K};
			uint32_t bk[5] = {1, (uint32_t)T, (uint32_t)NH, 1, (uint32_t)K};
			uint32_t bv[5] = {1, (uint32_t)T, (uint32_t)NH, 1, (uint32_t)gd->BV};

			if (!expect_dims3(l, items < sms ? items : sms, 1, 1, 32 * (nw + 1)) ||
			    !gdp_tmap(l, 0, s, 4, ds, bs, 4) || !gdp_tmap(l, 1, q, 4, dq, bq, 2) ||
			    !gdp_tmap(l, 2, k, 5, dk, bk, 2) || !gdp_tmap(l, 3, v, 5, dv, bv, 2))
				return 1;
		}
	} else if (!expect_dims3(l, (unsigned int)(V / gd->BV), (unsigned int)HV, (unsigned int)B,
				 (unsigned int)((K / 8) * (gd->BV / 4)))) {
		return 1;
	}
	S = malloc(sizeof *S * (size_t)(K * V));
	u = malloc(sizeof *u * (size_t)V);
	if (!S || !u) {
		free(S);
		free(u);
		return 1;
	}
	for (b = 0; b < B; b++)
		for (h = 0; h < HV; h++) {
			int64_t hq = h / (HV / HQK);
			float *st = s + ((size_t)(b * HV + h)) * (size_t)(K * V);

			memcpy(S, st, sizeof *S * (size_t)(K * V));
			for (t = 0; t < T; t++) {
				int64_t bt = (int64_t)b * T + t;
				float a = exp2f(g[bt * HV + h] * LOG2E), ss;

				for (i = 0; i < K * V; i++)
					S[i] *= a;
				for (j = 0; j < NH; j++) {
					int64_t btj = bt * NH + j;
					float be = gd->f16 ? f16_to_f(beta[btj * HV + h]) : bf16_to_f(beta[btj * HV + h]);

					ss = 0.0f;
					for (i = 0; i < K; i++) {
						uint16_t x = k[(btj * HQK + hq) * K + i];

						kk[i] = gd->f16 ? f16_to_f(x) : bf16_to_f(x);
						ss += kk[i] * kk[i];
					}
					for (i = 0; gd->l2 && i < K; i++)
						kk[i] /= sqrtf(ss + 1e-6f);
					for (c = 0; c < V; c++) {
						uint16_t x = v[(btj * HV + h) * V + c];
						float acc = 0.0f;

						for (i = 0; i < K; i++)
							acc = fmaf(S[i * V + c], kk[i], acc);
						u[c] = ((gd->f16 ? f16_to_f(x) : bf16_to_f(x)) - acc) * be;
					}
					for (i = 0; i < K; i++)
						for (c = 0; c < V; c++)
							S[i * V + c] = fmaf(kk[i], u[c], S[i * V + c]);
				}
				ss = 0.0f;
				for (i = 0; i < K; i++) {
					uint16_t x = q[(bt * HQK + hq) * K + i];

					qq[i] = gd->f16 ? f16_to_f(x) : bf16_to_f(x);
					ss += qq[i] * qq[i];
				}
				for (i = 0; gd->l2 && i < K; i++)
					qq[i] /= sqrtf(ss + 1e-6f);
				for (c = 0; c < V; c++) {
					float acc = 0.0f;
					size_t at = (size_t)((bt * HV + h) * V + c);

					for (i = 0; i < K; i++)
						acc = fmaf(S[i * V + c], qq[i], acc);
					if (strcmp(bug, "tail") == 0 && at == no - 1)
						continue;
					o[at] = gd->f16 ? f_to_f16(acc * scale) : f_to_bf16(acc * scale);
				}
				if (t < TI)
					memcpy(inter + ((size_t)((b * TI + t) * HV + h)) * (size_t)(K * V), S,
					       sizeof *S * (size_t)(K * V));
			}
			memcpy(st, S, sizeof *S * (size_t)(K * V));
		}
	free(S);
	free(u);
	if (strcmp(bug, "oob") == 0)
		o[no] = 0;
	if (strcmp(bug, "value") == 0)
		o[0] = gd->f16 ? f_to_f16(f16_to_f(o[0]) * 1.05f) : f_to_bf16(bf16_to_f(o[0]) * 1.05f);
	if (strcmp(bug, "input") == 0)
		q[0] ^= 1;
	return 0;
}

/* The gemm kernels' tile and block sizes and tile order (kernels_src/gemm/gemm_*.cake). */
#define GEMM_BM 128
#define GEMM_BN 256
#define GEMM_BK 64
#define GEMM_GROUP_M 8

/* Checks tensor map `which` of a gemm launch against what the kernel assumes of it: over
 * the tensor at `ptr` (rows x k of 2-byte elements, K-major), box [box_rows, 64], the
 * 128-byte swizzle, zero fill; and that the rows it covers lie inside an allocation. */
static int
gemm_tmap(const Launch *l, int which, Tmap *t, uintptr_t ptr, int64_t rows, int64_t k,
	  uint32_t box_rows, int dtype)
{
	const char *name = which ? "tb" : "ta";

	if (!tmap_decode(l->maps[which], t)) {
		fprintf(stderr, "emu_libcuda: %s: tensor map '%s' was not made by cuTensorMapEncodeTiled\n",
			kind_name(l->kind), name);
		return 0;
	}
	if (t->base != ptr || t->dtype != dtype || t->rank != 2 || t->dim[0] != (uint64_t)k ||
	    t->dim[1] != (uint64_t)rows || t->stride[0] != (uint64_t)k * 2 || t->box[0] != GEMM_BK ||
	    t->box[1] != box_rows || t->swizzle != CU_TENSOR_MAP_SWIZZLE_128B ||
	    t->interleave != CU_TENSOR_MAP_INTERLEAVE_NONE || t->estr_max != 1 ||
	    t->oob != CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) {
		fprintf(stderr, "emu_libcuda: %s: tensor map '%s': address 0x%llx, type %d, rank %d, dims [%llu, %llu], row stride %llu, box [%u, %u], swizzle %d, oob %d, element strides <= %u; expected address 0x%llx, type %d, rank 2, dims [%lld, %lld], row stride %lld, box [%d, %u], swizzle 128B (%d), oob zero, element strides 1\n",
			kind_name(l->kind), name, (unsigned long long)t->base, t->dtype, t->rank,
			(unsigned long long)t->dim[0], (unsigned long long)t->dim[1],
			(unsigned long long)t->stride[0], t->box[0], t->box[1], t->swizzle, t->oob,
			t->estr_max, (unsigned long long)ptr, dtype, (long long)k, (long long)rows,
			(long long)(k * 2), GEMM_BK, box_rows, (int)CU_TENSOR_MAP_SWIZZLE_128B);
		return 0;
	}
	if (!in_alloc(t->base, (size_t)(rows * k) * 2)) {
		fprintf(stderr, "emu_libcuda: %s: tensor map '%s': %lld bytes at 0x%llx are outside any allocation\n",
			kind_name(l->kind), name, (long long)(rows * k * 2), (unsigned long long)t->base);
		return 0;
	}
	return 1;
}

/* An element as TMA reads it: zero outside the map's extents (the fill is zero). */
static float
gemm_load(const Tmap *t, int64_t row, int64_t col, int f16)
{
	uint16_t h;

	if (row >= (int64_t)t->dim[1] || col >= (int64_t)t->dim[0])
		return 0.0f;
	memcpy(&h, (const unsigned char *)t->base + (uint64_t)row * t->stride[0] + (uint64_t)col * 2, 2);
	return f16 ? f16_to_f(h) : bf16_to_f(h);
}

/* C[M, N] = A[M, K] . B[N, K]^T as the kernels compute it, as far as the result shows:
 * the persistent loop (CTA x takes tiles x, x + grid, ...) in GROUP_M tile-row order,
 * each CTA's 128 x 256 tile summed in f32 over cdiv(K, 64) K blocks read through the
 * tensor maps (zeros past the edges), the store masked to C. Every tile must be taken
 * exactly once. */
static int
run_gemm(const Launch *l, const char *bug)
{
	int f16 = l->kind == K_GEMM_F16 || l->kind == K_GEMM_F16_F32;
	int f32 = l->kind == K_GEMM_BF16_F32 || l->kind == K_GEMM_F16_F32;
	int dtype = f16 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16 : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
	int64_t M = arg_i32(l, 3), K = arg_i32(l, 4), N = arg_i32(l, 5);
	int64_t tiles_m = cdiv(M, GEMM_BM), tiles_n = cdiv(N, GEMM_BN), tiles = tiles_m * tiles_n;
	int64_t kblocks = cdiv(K, GEMM_BK), kend, cta, tile, i, j, p;
	int ok = 1, bad = 0, tail = strcmp(bug, "tail") == 0;
	uintptr_t pa, pb;
	unsigned char *c, *seen;
	unsigned int grid;
	Tmap ta, tb;

	c = arg_ptr(l, 2, (size_t)(M * N) * (f32 ? 4 : 2), &ok);
	pa = (uintptr_t)arg_ptr(l, 0, 0, &ok);
	pb = (uintptr_t)arg_ptr(l, 1, 0, &ok);
	grid = (unsigned int)(tiles < emu_sms() ? tiles : emu_sms());
	if (!ok || !expect_dims(l, grid, 1, 384, 1) || M < 1 || N < 1 || K < 1 ||
	    !gemm_tmap(l, 0, &ta, pa, M, K, GEMM_BM, dtype) ||
	    !gemm_tmap(l, 1, &tb, pb, N, K, GEMM_BN, dtype))
		return 1;
	if (strcmp(bug, "ktail") == 0)
		kblocks = K / GEMM_BK;
	kend = kblocks * GEMM_BK < K ? kblocks * GEMM_BK : K;      /* past K: zeros */
	seen = calloc((size_t)tiles, 1);
	if (!seen)
		return 1;
	for (cta = 0; cta < grid; cta++)
		for (tile = cta; tile < tiles; tile += grid) {
			int64_t group = tile / (GEMM_GROUP_M * tiles_n);
			int64_t gm = tiles_m - group * GEMM_GROUP_M < GEMM_GROUP_M ? tiles_m - group * GEMM_GROUP_M : GEMM_GROUP_M;
			int64_t m0 = (group * GEMM_GROUP_M + tile % (GEMM_GROUP_M * tiles_n) % gm) * GEMM_BM;
			int64_t n0 = tile % (GEMM_GROUP_M * tiles_n) / gm * GEMM_BN;

			if (m0 >= M || n0 >= N || seen[m0 / GEMM_BM * tiles_n + n0 / GEMM_BN]++) {
				bad = 1;
				continue;
			}
			for (i = m0; i < m0 + GEMM_BM && i < M; i++)
				for (j = n0; j < n0 + GEMM_BN && j < N; j++) {
					float acc = 0.0f;

					if (tail && i == M - 1 && j == N - 1)
						continue;
					for (p = 0; p < kend; p++)
						acc = fmaf(gemm_load(&ta, i, p, f16), gemm_load(&tb, j, p, f16), acc);
					if (f32)
						memcpy(c + (size_t)(i * N + j) * 4, &acc, 4);
					else {
						uint16_t h = f16 ? f_to_f16(acc) : f_to_bf16(acc);

						memcpy(c + (size_t)(i * N + j) * 2, &h, 2);
					}
				}
		}
	for (tile = 0; tile < tiles; tile++)
		bad |= seen[tile] != 1;
	free(seen);
	if (bad) {
		fprintf(stderr, "emu_libcuda: %s: the tile order does not take each of the %lld tiles once\n",
			kind_name(l->kind), (long long)tiles);
		return 1;
	}
	if (strcmp(bug, "oob") == 0)
		memset(c + (size_t)(M * N) * (f32 ? 4 : 2), 0, f32 ? 4 : 2);
	if (strcmp(bug, "value") == 0) {
		if (f32) {
			float v;

			memcpy(&v, c, 4);
			v *= 1.05f;
			memcpy(c, &v, 4);
		} else {
			uint16_t h;

			memcpy(&h, c, 2);
			h = f16 ? f_to_f16(f16_to_f(h) * 1.05f) : f_to_bf16(bf16_to_f(h) * 1.05f);
			memcpy(c, &h, 2);
		}
	}
	if (strcmp(bug, "input") == 0)
		*(unsigned char *)ta.base ^= 1;
	return 0;
}

/* Runs one launch; nonzero when an operand or the launch shape was wrong. */
static int
run_launch(const Launch *l)
{
	const char *bug = bug_for(l->kind);
	int ok = 1, tail = strcmp(bug, "tail") == 0, oob = strcmp(bug, "oob") == 0;
	int64_t i, j, p;

	switch (l->kind) {
	case K_GDP:
		return run_gdp(l, bug);
	case K_GEMM_BF16:
	case K_GEMM_F16:
	case K_GEMM_BF16_F32:
	case K_GEMM_F16_F32:
		return run_gemm(l, bug);
	case K_AXPBY: {
		int64_t n = arg_i32(l, 4);
		float *x = arg_ptr(l, 0, (size_t)n * 4, &ok), *y = arg_ptr(l, 1, (size_t)n * 4, &ok);
		float a = arg_f32(l, 2), b = arg_f32(l, 3);

		if (!ok || !expect_dims(l, n > 1024 ? cdiv(n, 1024) : 1, 1, 256, 1))
			return 1;
		for (i = 0; i < n - tail; i++)
			y[i] = a * x[i] + b * y[i];
		if (oob)
			y[n] = 0.0f;
		if (strcmp(bug, "value") == 0)
			y[0] *= 1.05f;
		if (strcmp(bug, "input") == 0)
			x[0] += 1.0f;
		break;
	}
	case K_SILU_MUL: {
		int64_t n = arg_i32(l, 3);
		uint16_t *g = arg_ptr(l, 0, (size_t)n * 2, &ok), *u = arg_ptr(l, 1, (size_t)n * 2, &ok);
		uint16_t *o = arg_ptr(l, 2, (size_t)n * 2, &ok);

		if (!ok || !expect_dims(l, n > 1024 ? cdiv(n, 1024) : 1, 1, 256, 1))
			return 1;
		for (i = 0; i < n - tail; i++) {
			float gv = bf16_to_f(g[i]);

			o[i] = f_to_bf16(gv / (1.0f + exp2f(-gv * LOG2E)) * bf16_to_f(u[i]));
		}
		if (oob)
			o[n] = 0;
		if (strcmp(bug, "value") == 0)
			o[0] = f_to_bf16(bf16_to_f(o[0]) * 1.05f);
		if (strcmp(bug, "input") == 0)
			g[0] ^= 1;
		break;
	}
	case K_RMSNORM:
	case K_RMSNORM_ROWS: {
		int64_t m = arg_i32(l, 4), n = arg_i32(l, 5);
		int rows = l->kind == K_RMSNORM_ROWS, lanes = rows ? 32 : BLOCK;
		uint16_t *x = arg_ptr(l, 0, (size_t)(m * n) * 2, &ok), *w = arg_ptr(l, 1, (size_t)n * 2, &ok);
		uint16_t *y = arg_ptr(l, 2, (size_t)(m * n) * 2, &ok);
		float eps = arg_f32(l, 3);

		if (!ok || !expect_dims(l, rows ? cdiv(m, 8) : (unsigned int)m, 1, 256, 1))
			return 1;
		for (i = 0; i < m; i++) {
			float part[BLOCK] = {0.0f}, acc, scale;

			for (j = 0; j < n; j++) {
				float v = bf16_to_f(x[i * n + j]);

				part[j % lanes] += v * v;
			}
			acc = block_sum(part, lanes);
			scale = 1.0f / sqrtf(acc / (float)n + eps);
			for (j = 0; j < n; j++) {
				if (tail && i == m - 1 && j == n - 1)
					break;
				y[i * n + j] = f_to_bf16(bf16_to_f(x[i * n + j]) * scale * bf16_to_f(w[j]));
			}
		}
		if (oob)
			y[m * n] = 0;
		if (strcmp(bug, "value") == 0)
			y[0] = f_to_bf16(bf16_to_f(y[0]) * 1.05f);
		if (strcmp(bug, "input") == 0)
			w[0] ^= 1;
		break;
	}
	case K_SOFTMAX:
	case K_SOFTMAX_ROWS: {
		int64_t m = arg_i32(l, 2), n = arg_i32(l, 3);
		int rows = l->kind == K_SOFTMAX_ROWS, lanes = rows ? 32 : BLOCK;
		float *x = arg_ptr(l, 0, (size_t)(m * n) * 4, &ok), *y = arg_ptr(l, 1, (size_t)(m * n) * 4, &ok);

		if (!ok || !expect_dims(l, rows ? cdiv(m, 8) : (unsigned int)m, 1, 256, 1))
			return 1;
		for (i = 0; i < m; i++) {
			const float *r = x + i * n;
			float mx = -3.4028234663852886e38f, part[BLOCK] = {0.0f}, bias, inv;

			for (j = 0; j < n; j++)
				mx = r[j] > mx ? r[j] : mx;
			bias = mx * LOG2E;
			for (j = 0; j < n; j++)
				part[j % lanes] += exp2f(fmaf(r[j], LOG2E, -bias));
			inv = 1.0f / block_sum(part, lanes);
			for (j = 0; j < n; j++) {
				if (tail && i == m - 1 && j == n - 1)
					break;
				y[i * n + j] = exp2f(fmaf(r[j], LOG2E, -bias)) * inv;
			}
		}
		if (oob)
			y[m * n] = 0.0f;
		if (strcmp(bug, "value") == 0)
			y[0] *= 1.05f;
		if (strcmp(bug, "input") == 0)
			x[0] += 1.0f;
		break;
	}
	case K_SGEMM: {
		int64_t m = arg_i32(l, 3), k = arg_i32(l, 4), n = arg_i32(l, 5);
		float *a = arg_ptr(l, 0, (size_t)(m * k) * 4, &ok), *b = arg_ptr(l, 1, (size_t)(k * n) * 4, &ok);
		float *c = arg_ptr(l, 2, (size_t)(m * n) * 4, &ok);

		if (!ok || !expect_dims(l, cdiv(n, 64), cdiv(m, 64), 16, 16))
			return 1;
		for (i = 0; i < m; i++)
			for (j = 0; j < n; j++) {
				float acc = 0.0f;

				if (tail && i == m - 1 && j == n - 1)
					break;
				for (p = 0; p < k; p++)
					acc = fmaf(a[i * k + p], b[p * n + j], acc);
				c[i * n + j] = acc;
			}
		if (oob)
			c[m * n] = 0.0f;
		if (strcmp(bug, "value") == 0)
			c[0] *= 1.05f;
		if (strcmp(bug, "input") == 0)
			b[0] += 1.0f;
		break;
	}
	}
	return 0;
}
