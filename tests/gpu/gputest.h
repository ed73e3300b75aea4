/* gputest.h: shared code of the GPU test programs (tests/gpu, docs/testing.md).
 *
 * Every test program runs its kernels through the launchers cakec generated into
 * build/gen/<family>/ and the runtime beside them (cakert), and:
 * - picks device 0, retains its primary context and makes it current (gt_init); without a
 *   driver or a device it prints "SKIPPED: <reason>" and the program exits 0;
 * - fills inputs from a fixed-seed generator, poisons outputs with 0xFF bytes (NaN for
 *   floats) and surrounds every device tensor with poisoned guard bytes;
 * - compares against a double-precision CPU reference with the relative error
 *   |got - ref| / max(|ref|, floor), and also fails when an output still holds the poison,
 *   when a guard byte changed (a write out of bounds) or when an input changed.
 *
 * Environment: CAKE_GPU_TEST_SMALL=1 drops the large cases (for compute-sanitizer);
 * CAKE_GPU_TEST_REQUIRE=1 turns a skip into a failure (for runs on a GPU machine, so that
 * a broken set-up cannot pass as "skipped"). */
#ifndef GPUTEST_H
#define GPUTEST_H

#include <stddef.h>
#include <stdint.h>

#include "cakert.h"

/* The device all tests run on: device 0's primary context. */
typedef struct GtDev {
	const CakertDriver *cu;
	CUdevice dev;
	CUcontext ctx;
	int major, minor;       /* compute capability */
	char name[128];
} GtDev;

/* Sets up g for the test program `prog`. Returns 0 when the device is ready, 1 when the
 * test is skipped (a SKIPPED line was printed; exit 0 unless CAKE_GPU_TEST_REQUIRE is set,
 * which gt_skip_status handles), -1 on a failure (printed). */
int gt_init(GtDev *g, const char *prog);
/* The exit status for a skipped program: 0, or 1 under CAKE_GPU_TEST_REQUIRE=1. */
int gt_skip_status(void);
/* Releases the primary context. */
void gt_fini(GtDev *g);
/* Makes g's context current on the calling thread (each thread needs it once). */
int gt_make_current(const GtDev *g);
/* Nonzero when CAKE_GPU_TEST_SMALL is set to something other than 0. */
int gt_small(void);
/* Whether the kernel or variant `name` runs: CAKE_GPU_TEST_ONLY, where set, is a
 * comma-separated list of the names that do (every one runs where it is unset). */
int gt_selected(const char *name);

/* Prints "FAIL <what>: <call> failed: <CUDA error>" and returns nonzero when r is not
 * CUDA_SUCCESS. */
int gt_cu(CUresult r, const char *call, const char *what);

/* ---- random inputs: a fixed-seed generator (splitmix64) ---- */

typedef struct GtRng {
	uint64_t s;
} GtRng;

void gt_rng_seed(GtRng *r, uint64_t seed);
uint64_t gt_rng_next(GtRng *r);
/* Uniform in [lo, hi), never exactly 0: a draw that lands on 0 is drawn again. */
double gt_rng_uniform(GtRng *r, double lo, double hi);
/* A float drawn uniformly from (-bound, bound), again while its magnitude is below min:
 * the inputs of the bit-exact checks (never 0, never tiny). */
float gt_rng_away(GtRng *r, double bound, float min);
/* A seed for case `index` of test `name`: printed with each case so it can be replayed. */
uint64_t gt_seed(const char *name, int index);

/* ---- bf16 ---- */

uint16_t gt_bf16_from_float(float f);   /* round to nearest even, NaN stays NaN */
float gt_bf16_to_float(uint16_t h);
/* ---- f16 ---- */
uint16_t gt_f16_from_float(float f);     /* round to nearest even; overflow to inf, subnormals */
double gt_f16_to_double(uint16_t h);     /* exact */

/* ---- device tensors with guards ---- */

/* Bytes of poisoned guard before and after each tensor: 256 keeps the data 256-byte
 * aligned (any vector width) and catches stray writes near either end. */
#define GT_GUARD 256
#define GT_POISON 0xFF

typedef struct GtBuf {
	CUdeviceptr base;       /* the allocation: guard, data, guard */
	CUdeviceptr ptr;        /* base + GT_GUARD */
	size_t bytes;           /* data bytes */
	unsigned char *host;    /* scratch for the whole allocation when checking */
} GtBuf;

/* Allocates bytes of data plus the guards; gt_buf_poison (on the stream that will use
 * the buffer) sets them. */
int gt_buf_alloc(GtBuf *b, size_t bytes, const char *what);
void gt_buf_free(GtBuf *b);
/* Copies bytes from src into the data on stream (stream order). */
int gt_buf_upload(GtBuf *b, const void *src, CUstream s, const char *what);
/* Sets the data and the guards to GT_POISON on stream. */
int gt_buf_poison(GtBuf *b, CUstream s, const char *what);
/* Synchronizes s, then copies the whole allocation back; returns the data bytes in
 * b->host + GT_GUARD, or NULL after printing a failure. */
const unsigned char *gt_buf_download(GtBuf *b, CUstream s, const char *what);
/* After gt_buf_download: 1 when every guard byte still holds GT_POISON. */
int gt_buf_guards_ok(const GtBuf *b);

/* A CakeTensor view of b's data on g's device (row-major, strides NULL). */
void gt_tensor(CakeTensor *t, const GtDev *g, GtBuf *b, int code, int bits, int ndim,
	       const int64_t *shape);

/* A stand-in tensor for a launcher's argument checks: data at addr (16-byte aligned,
 * nothing reads it), on a CUDA device, row-major. */
void gt_stand_in(CakeTensor *t, uintptr_t addr, const int64_t *shape, int ndim, int code,
		 int bits);

/* ---- comparison ---- */

/* The running result of comparing one output. */
typedef struct GtCmp {
	double floor, threshold;
	double max_rel;         /* largest |got - ref| / max(|ref|, floor); inf for NaN */
	size_t worst;           /* where */
	double worst_got, worst_ref;
	size_t poisoned;        /* outputs still holding the poison bit pattern */
	size_t n;
} GtCmp;

void gt_cmp_init(GtCmp *c, double floor, double threshold);
/* Adds one element: got as read back (as double), ref, and whether its bits are the
 * poison. */
void gt_cmp_add(GtCmp *c, size_t i, double got, double ref, int poisoned);

/* Downloads b (see gt_buf_download) and clears *guards_ok when a guard changed. */
const unsigned char *gt_fetch(GtBuf *b, CUstream s, const char *what, int *guards_ok);
/* Adds n f32 / bf16 outputs read back into data (poison: all bits set). */
void gt_cmp_f32(GtCmp *c, const unsigned char *data, const double *ref, size_t n);
void gt_cmp_bf16(GtCmp *c, const unsigned char *data, const double *ref, size_t n);

/* One result line per case, then the verdict: returns 0 on pass, 1 on fail. Prints
 *   PASS <kernel> <label>: max_rel_err 1.2e-07 <= 1e-06 (floor 1)
 * or FAIL with the worst element, the poisoned count and the guard/input state.
 * guards_ok and inputs_ok are 1 when the guards and inputs were found intact. */
int gt_report(const char *kernel, const char *label, const GtCmp *c, int guards_ok,
	      int inputs_ok);
/* n elements of size bytes read back into p against ref, bit for bit: prints
 *   PASS <kernel> <what>: n elements identical
 * or FAIL with the first element that differs (its value when size is 4: an f32) or the
 * guard that changed; returns 0 on pass, 1 on fail. */
int gt_same(const char *kernel, const char *what, const unsigned char *p, const void *ref, size_t n,
	    size_t size, int guards_ok);

/* ---- the kernels under test (cases.c): one case = one set of sizes ---- */

typedef struct GtCase GtCase;

typedef struct GtKernel {
	const char *name;
	int ndims;                      /* 1 (n), 2 (M, N) or 3 (M, N, K) */
	/* Allocates device buffers (guarded, poisoned) and host arrays for dims. */
	GtCase *(*create)(const GtDev *g, const int64_t *dims);
	/* New random inputs from seed, uploaded on s; outputs poisoned on s; the reference
	 * recomputed. Uses only stream-ordered copies, so it may precede a graph replay;
	 * scalar arguments are drawn at the first fill only, since a captured graph holds
	 * them by value. */
	int (*fill)(GtCase *c, uint64_t seed, CUstream s);
	/* Launches through the generated launcher on s. */
	int (*launch)(GtCase *c, CUstream s, CakeError *err);
	/* Synchronizes s, reads everything back, compares, prints the case line (label
	 * after the sizes) and returns 0 on pass. */
	int (*check)(GtCase *c, CUstream s, const char *label);
	void (*destroy)(GtCase *c);
} GtKernel;

extern const GtKernel gt_axpby, gt_silu_mul, gt_rmsnorm, gt_softmax, gt_sgemm_tiled;
extern const GtKernel gt_rmsnorm_rows, gt_softmax_rows;

/* Writes "n=1000" / "M=3 N=5" / "M=3 N=5 K=7" for k's dims into out. */
void gt_dims_label(const GtKernel *k, const int64_t *dims, char *out, size_t size);

/* A list of sizes for a kernel test; large ones are left out under CAKE_GPU_TEST_SMALL. */
typedef struct GtSize {
	int64_t dims[3];
	int large;
} GtSize;

/* The per-kernel test program: runs every size in sizes[0..n) (create, fill, launch,
 * check) on a fresh stream and returns the exit status. */
int gt_run_sizes(const GtKernel *k, const GtSize *sizes, int n);

/* The main of a check built for sm_90a only (tests/gpu/checks/): case i of n is
 * run(g, s, i) on one stream (non-zero: it failed), then "NAME: K of n WHAT passed". Prints
 * SKIPPED without a GPU or on another architecture. The exit status. */
int gt_run_sm90(const char *name, const char *what, int n, int (*run)(const GtDev *g, CUstream s, int i));

/* The main of a family's test program (test_vsa, test_ssd, test_cp_fixup): one generic
 * kernel's instances and its entry point, each tested by run_all, or one of them run twice
 * and clocked by first_call (bench/first_call.py). Handles the command line:
 *   test_NAME                        every case: run_all(g, s, &ran) returns the failures
 *   test_NAME --list                 the instances, then the entry point NAME
 *   test_NAME --first-call KERNEL    first_call(g, s, KERNEL) (an instance or NAME)
 * prints SKIPPED without a GPU (and, with sm90_only, SKIPPED and a NOTE on another
 * architecture, exit 0), "test_NAME: K of N cases passed" at the end. The exit status. */
typedef struct GtFamily {
	const char *name;
	const char *const *kernels;
	int nkernels;
	int sm90_only;
	int (*run_all)(const GtDev *g, CUstream s, int *ran);
	int (*first_call)(const GtDev *g, CUstream s, const char *kernel);
} GtFamily;

int gt_family_main(const GtFamily *f, int argc, char **argv);

/* Cold start (bench/first_call.py): the host-side time of a process's first launches.
 * A test program times each launcher call with gt_now_ms and passes it to gt_clock_note
 * with the kernel's descriptor: the first two calls of the process are kept, the first with the module load for the context (a cubin, or
 * the driver's JIT compile of the PTX). gt_first_call_line prints them in the form the
 * script reads:
 *   first_call NAME: first 0.412 ms, second 0.006 ms, image cubin sm_90a (LABEL)
 * with the image the runtime loaded for the first clocked kernel (cakert_loaded_image),
 * or of any of `alt` (an entry point's instances) when that one loaded nothing. Returns
 * 1 (a FAIL line) when fewer than two launches were clocked. */
double gt_now_ms(void);
void gt_clock_note(const CakertKernel *desc, double ms);
int gt_first_call_line(const char *name, const char *label, CUcontext ctx,
		       const CakertKernel *const *alt, int nalt);

#endif
