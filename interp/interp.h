/* interp: an interpreter of cakec's optimized IR on the CPU (docs/interpreter.md).
 *
 * A kernel that went through the pass pipeline runs over a whole grid: blocks (clusters of
 * CTAs together) one after another (in an order drawn from the seed), the warps of a block as coroutines switched
 * at block barriers (their order drawn from the seed too), each warp executing 32 lanes
 * at once under an active mask; mbarriers, TMA, wgmma and cp.async groups as in
 * interp/async.c. Findings (out-of-bounds or misaligned accesses, reads of
 * uninitialized shared memory, data races on shared and global memory, missing proxy
 * fences, accumulators read before wgmma.wait, barriers reached by part of a block,
 * divergent collectives, ops the interpreter does not know; docs/interpreter.md) are
 * reported through diag as
 * `file:line:col: error: ...` at the op's source location with the block, warp and lane,
 * and the run stops at the first one. */
#ifndef CAKE_INTERP_H
#define CAKE_INTERP_H

#include "../ir/ir.h"

/* A tensor map encoded outside the interpreter, by what cuTensorMapEncodeTiled was given:
 * dimensions innermost first, as the driver lists them. The emulated driver
 * (tests/gpu/emu_libcuda.c) decodes the maps a launcher encoded into these. */
typedef struct InterpTmap {
	const void *global;     /* the address of element (0, ..., 0) */
	int rank;               /* 0: the all-zero map a launcher passes for an empty tensor */
	int elem_bytes;         /* TMA copies bytes: the data type matters by its size */
	uint64_t dims[IR_MAX_RANK];
	uint64_t strides[IR_MAX_RANK];  /* bytes; strides[i] is dimension i + 1's */
	uint32_t box[IR_MAX_RANK];
	uint32_t elem_strides[IR_MAX_RANK];
	int swizzle;            /* bytes: 0, 32, 64 or 128 */
	int oob_nan;            /* out-of-bounds elements read as NaN (else zero) */
	int interleave;         /* 0: none */
} InterpTmap;

/* One kernel argument, indexed like IrKernel.params. */
typedef struct InterpArg {
	/* tensors: the elements, row-major and contiguous, in the parameter's element type
	 * (bf16 and f16 as their 16-bit patterns); the interpreter reads and writes them in
	 * place. shape[0..rank) must match the parameter's rank. */
	void *data;
	int rank;
	int64_t shape[IR_MAX_RANK];
	/* syms and integer scalars: the value (a sym left unset is bound from the shapes);
	 * float scalars: f */
	int64_t i;
	double f;
	int set;        /* syms: given explicitly (else bound from tensor shapes) */
	/* tensor maps: NULL, and the interpreter builds the map from its tensor as the
	 * launcher does (its shape, the tma(...) declaration's box, swizzle and fill); or the
	 * map a launcher encoded, which interp_bind requires to be exactly that map (over the
	 * tensor's data, row-major and contiguous): a map the interpreter's TMA would read
	 * differently is an argument error, never run with the wrong layout */
	const InterpTmap *tmap;
} InterpArg;

typedef struct InterpOptions {
	uint64_t seed;          /* the scheduler's seed: block order and warp order */
	int64_t num_sms;        /* what a grid formula's num_sms is (0: 132, an H200's) */
	int check_uninit;       /* report reads of shared memory no thread wrote (default on
	                         * through interp_options_default) */
	int check_races;        /* report two warps' accesses to one shared byte, one a write,
	                         * in one barrier interval (default on) */
	int check_global_races; /* report two threads' unordered accesses to one element of an
	                         * out or inout tensor, one a write (default on) */
	uint64_t max_steps;     /* ops one block's warps may execute before the run is stopped
	                         * as a finding (a loop that never ends); 0: 2^32 */
	const char *trace_path; /* write a Chrome Trace Event JSON timeline of the run there
	                         * (docs/interpreter.md, "Timeline"); NULL: none */
	int64_t trace_blocks;   /* trace the clusters holding a block of linear index below
	                         * this (x fastest); 0: 1, the first block's */
} InterpOptions;

void interp_options_default(InterpOptions *o);

/* Checks the arguments against k's parameters, binds each sym not set from the tensor
 * shapes (every tensor dimension naming it must agree), checks each tensor map given
 * (InterpArg.tmap) against its tensor and declaration, and computes the grid from k's
 * formulas as the launcher would. Returns 0, or -1 with a message in err (nothing is
 * reported through diag). */
int interp_bind(const IrKernel *k, InterpArg *args, const InterpOptions *o, int64_t grid[3],
		Buf *err);

/* The number of elements of tensor parameter p under the bound args (after interp_bind). */
int64_t interp_tensor_elems(const IrKernel *k, int p, const InterpArg *args);

/* Reports (through diag, at its source location) the first thing in k the interpreter
 * cannot run: an op without a row in its table, more than 1024 threads. Returns 0 when k
 * can run, -1 after reporting. interp_run checks it too. */
int interp_check(const IrKernel *k);

/* Runs k (after the pass pipeline: async ops expanded, shared memory laid out) over the
 * grid interp_bind computes. Returns 0 when the run finished without a finding, 1 after
 * reporting a finding or a bad argument through diag. */
int interp_run(const IrKernel *k, InterpArg *args, const InterpOptions *o);

/* ---- npy.c: NumPy .npy files ---- */

/* An array read from or written to a .npy file: little-endian, C order. */
typedef struct NpyArray {
	char descr[16];         /* "<f4", "<u2", "|b1", ... */
	int rank;
	int64_t shape[IR_MAX_RANK];
	int64_t count;          /* elements */
	int elem_bytes;
	void *data;
} NpyArray;

/* Reads path; returns 0, or -1 with a message in err. */
int npy_read(const char *path, NpyArray *a, Buf *err);
/* Writes a (descr, rank, shape, data) to path; returns 0, or -1 with a message in err. */
int npy_write(const char *path, const NpyArray *a, Buf *err);
/* The descr a tensor of element type b is stored with ("<f4"; bf16: "<u2", its bit
 * patterns, since NumPy has no bf16), and whether descr d may hold b (bf16 also from
 * "<i2" and "|V2"/"<V2", as ml_dtypes' bfloat16 saves). */
const char *npy_descr_of(IrBase b);
int npy_descr_fits(const char *d, IrBase b);

#endif
