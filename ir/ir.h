/* ir: cakec's SSA IR with structured regions.
 *
 * A kernel is a table of values (integer ids, each with a type) and one body region.
 * A region is an array of ops plus its block arguments. Ops that carry regions (if, for,
 * while) pass values out through `yield`/`condition` terminators, in the style of MLIR's
 * scf dialect; there is no CFG until the backend.
 *
 * Textual form (printed by ir_print_*, read back by ir_parse; print(parse(print(x))) is
 * print(x) byte for byte):
 *
 *   kernel @vadd {
 *     source "kernels_src/elementwise/vadd.cake"
 *     targets sm_90a sm_100a sm_103a
 *     threads 256 1 1
 *     grid "cdiv(n, 256)" "1" "1"
 *     smem_bytes 1024                          # only when non-zero
 *     param a : tensor in f32 [n] !3:5         # value %1: ptr.global.f32
 *     param o : tensor out f32 [n, 4]          # dims: a sym param's name or an integer
 *     param n : sym                            # value %3: i32, bound from tensor shapes
 *     param alpha : scalar f32                 # value %4
 *     shared tile : f32 [256] align 16 offset 0  # buffer 0; no offset before layout
 *     body(%1: ptr.global.f32, %2: ptr.global.f32, %3: i32, %4: f32) {
 *       %5 = tid.x : i32 !7:13
 *       %6 = const 256 : i32
 *       %7 = const 0x1p-1 : f32
 *       %8 = cmp.lt %5, %3 : i1
 *       %9 = if %8 : f32 {
 *         yield %7
 *       } else {
 *         yield %4
 *       }
 *       %10, %11 = for[4] %lo, %hi, %step, %i0, %f0 : i32, f32 (%12: i32, %13: i32, %14: f32) {
 *         ...
 *         yield %x, %y
 *       }
 *       %15 = while %init : i32 (%16: i32) {
 *         condition %c, %16
 *       } do (%17: i32) {
 *         yield %z
 *       }
 *       %18 = smem[0] : ptr.shared.f32
 *       %19 = load[1] %p : f32x4
 *       store %p, %v
 *       ret
 *     }
 *   }
 *
 * Kernel header, one item per line, printed in this order (the parser takes them in any
 * order, each at most once, params and shared buffers in ABI/buffer order; body is last):
 * - `source "PATH"`, `targets T...` and `smem_bytes N` appear only when set. `threads X Y Z`
 *   and `grid "X" "Y" "Z"` always print (the parser defaults them to 1 and "1").
 *   `cluster X Y Z` prints when it is not 1 1 1, `min_blocks N` when non-zero,
 *   `index i64` and `launch dependent` when set, `requires "COND"` when the kernel has
 *   one.
 * - `param NAME : tensor in|out|inout ELEM [DIM, ...]` (type ptr.global.ELEM; a DIM is a
 *   sym parameter's name or a decimal size), `param NAME : sym` (i32; any other type is
 *   spelled `sym TYPE`), `param NAME : scalar TYPE`, `param NAME : tmap TENSOR box [D, ...]
 *   swizzle S oob zero|nan` (type tmap; TENSOR names a tensor param; box dims row-major).
 * - `mbarrier NAME count C [n N] [offset O]`: n only when not 1, offset once laid out.
 * - `pipeline NAME stages N full BAR SRC MULT empty BAR SRC MULT`: BAR names an mbarrier,
 *   SRC is tma, thread, warp or warpgroup. Printed after the params, barriers first.
 * - `shared NAME : ELEM [DIM, ...] align A [stages S] [pipeline P] [swizzle W] [alias B]
 *   [stage_stride T] [offset N]`: each optional item prints only when not its default
 *   (stages 1, no pipeline, swizzle 0, no alias, stride 0, offset -1); the element count
 *   (one stage) is the product of the dims. Names of params, buffers, barriers and
 *   pipelines may be used before the item that declares them.
 * - `body(%v: TYPE, ...) { ops }`: the body's arguments, one per parameter in order.
 * - Names (kernel, params, buffers) are bare when they are C identifiers, otherwise quoted.
 *   Strings escape `"` and `\` with a backslash and bytes below 0x20 and 0x7f as `\xHH`;
 *   the parser also takes `\n` and `\t`.
 * Ops, one per line:
 * - results (if any) `%a, %b =`, the op name, `[imm]` for OPF_IMM ops (always printed; the
 *   parser reads a missing one as 0) and for OPF_NSW and OPF_FLAG ops whose imm is not 0 (`add[1]`, `role[1]`), the operands `%x, %y`, then `: type, type` (the
 *   result types, omitted when there are none), then the regions, then the location.
 *   The operands begin on the op's own line (a list may continue after a comma).
 * - `const` prints its value before the `:`: integers in decimal (the int64 in IrOp.imm;
 *   a u64 constant may also be written up to 18446744073709551615); floats (IrOp.fimm)
 *   as C99 hex floats (`%a`: 0x1.8p+1, -0x0p+0), `inf`, `-inf`, `nan` and `-nan` for the
 *   default quiet NaNs, `nan(0xHHHHHHHHHHHHHHHH)` with the whole 64-bit pattern for any
 *   other NaN, so that every double round-trips bit for bit. The parser also takes
 *   decimal floats. A vector-typed const is a splat.
 * - Types: i1 i8 i16 i32 i64 u8 u16 u32 u64 e4m3 e5m2 f16 bf16 f32 f64, vectors `f32x2`
 *   `f32x4`, accumulator fragments `f32x8` .. `f32x128` (a multiple of 4), wgmma register A
 *   fragments `bf16x8` .. `bf16x128` and `f16x8` .. `f16x128` (a multiple of 8), pointers
 *   `ptr.global.f32`
 *   `ptr.shared.bf16` `ptr.cluster.bf16`, and `tmap` (tensor-map params only).
 * - Regions: `(%v: type, ...)` (the region's arguments, omitted when it has none), then
 *   `{`, the ops one level deeper, `}`. if: `{...} else {...}`; while: `{...} do {...}`;
 *   for: one region whose arguments are the induction variable and the carried values;
 *   role, elect, produce, consume: one region without arguments ending in `yield`:
 *     role %lo, %hi, %regs { ... yield }
 *     %r = elect %init : T { ... yield %x }
 *     %acc2 = consume[PIPE] %stage, %phase : f32x128 { ... yield %acc1 }
 * - Locations: ` !LINE:COL` at the end of an op, param or shared line, in the kernel's
 *   source file. Only locations in that file print (line > 0 and loc.file == k->file);
 *   the parser gives items without one their position in the IR text (a different file)
 *   so that diagnostics point into the .ir file, and these never print back. `source`
 *   must come before the first location. IrKernel.vlocs is not printed: the parser sets a
 *   value's location to its defining op's (body arguments: their parameter's).
 * - Value ids are kept as written, never renumbered: ids the text does not define are
 *   unused slots with void type. Ids are limited to 1048575.
 * - Comments start with `#` and run to the end of the line; layout is otherwise free.
 * - ir_parse reports the first error (file:line:col in the IR text) and returns NULL. It
 *   checks the syntax, operand counts of fixed-arity ops, region counts, that each id is
 *   defined once and every used id somewhere; ir_verify checks the rest. Regions nest at
 *   most 128 deep.
 */
#ifndef CAKE_IR_H
#define CAKE_IR_H

#include "../support/util.h"

/* ---- ir.c: types, opcodes, kernels, the builder ---- */

typedef enum IrBase {
	IR_VOID,
	/* Ranges are part of the contract: integers are IR_I1..IR_U64 (signed IR_I8..IR_I64,
	 * unsigned IR_U8..IR_U64), data scalars IR_I1..IR_F64, and the fp8 storage types sit
	 * between the integers and the arithmetic floats IR_F16..IR_F64. */
	IR_I1, IR_I8, IR_I16, IR_I32, IR_I64, IR_U8, IR_U16, IR_U32, IR_U64,
	IR_E4M3,        /* OCP fp8 E4M3 ("fn": no infinities, max 448), storage only */
	IR_E5M2,        /* OCP fp8 E5M2 (IEEE-like, max 57344), storage only */
	IR_F16, IR_BF16, IR_F32, IR_F64,
	IR_PTR,
	IR_TMAP,        /* an opaque CUtensorMap (128 bytes); only tmap params have it */
	IR_NBASE
} IrBase;

/* IR_CLUSTER: shared::cluster (distributed shared memory, addresses from mapa). */
typedef enum IrSpace { IR_GLOBAL = 1, IR_SHARED = 3, IR_CLUSTER = 7 } IrSpace;

/* The lane counts of wgmma accumulator fragments: f32 vectors of IR_FRAG_MIN..IR_FRAG_MAX
 * lanes, a multiple of 4 (N/2 lanes for wgmma m64nNk16; N = 8 gives the ordinary f32x4). */
#define IR_FRAG_MIN 8
#define IR_FRAG_MAX 128
/* wgmma's register A fragments (m64 x K, K a multiple of 16): bf16 or f16 vectors of K / 2
 * lanes, 8..128 (a multiple of 8), each pair of lanes one 32-bit register of the ISA's
 * layout (docs/ir.md, "wgmma"). */

/* A value type: a scalar, a vector of 2 or 4 scalars (or an f32 accumulator fragment of
 * 8..128 lanes, a multiple of 4), a pointer into an address space with the scalar type it
 * points to, or tmap. */
typedef struct IrType {
	uint8_t base;   /* IrBase */
	uint8_t lanes;  /* 1, 2 or 4 (f32: also 8..128, multiple of 4); 1 for pointers and void */
	uint8_t space;  /* IrSpace, pointers only */
	uint8_t elem;   /* IrBase of the pointee, pointers only */
} IrType;

IrType ir_scalar(IrBase b);
IrType ir_vector(IrBase b, int lanes);
IrType ir_ptr(IrSpace space, IrBase elem);
int ir_type_eq(IrType a, IrType b);
int ir_is_int(IrType t);        /* i1..u64, scalar or vector */
int ir_is_signed(IrType t);     /* i8..i64 (i1 is not) */
int ir_is_unsigned(IrType t);   /* u8..u64 (i1 is not) */
int ir_is_float(IrType t);      /* f16, bf16, f32, f64, scalar or vector: the arithmetic floats */
int ir_is_fp8(IrType t);        /* e4m3, e5m2, scalar or vector: storage, conversions only */
int ir_const_is_float(IrType t);  /* a const of type t holds its value in fimm: floats, fp8 */
int ir_is_frag(IrType t);       /* an f32 accumulator fragment: f32x8 .. f32x128 */
int ir_is_afrag(IrType t);      /* a wgmma register A fragment: bf16x8 .. bf16x128, f16x8 .. */
int ir_is_wgmma_op(int opc);    /* wgmma, wgmma.fence, wgmma.commit, wgmma.wait */
int ir_base_bits(IrBase b);     /* 1, 8, 16, 32, 64; pointers 64 */
/* fp8 (ir/fp8.c): the bits of x in the fp8 type b, rounded to nearest even and saturated to
 * the largest finite value (NaN gives 0x7f), as PTX's cvt.rn.satfinite does; and the
 * exact value of an fp8 bit pattern. */
uint8_t ir_fp8_encode(IrBase b, double x);
/* The bits of a constant of fp8 type b (which keeps e5m2's infinities), and whether x is a
 * value of b (NaN and, for e5m2, infinities included). */
uint8_t ir_fp8_bits(IrBase b, double x);
int ir_fp8_is_value(IrBase b, double x);
double ir_fp8_decode(IrBase b, uint8_t bits);
double ir_fp8_max(IrBase b);    /* 448, 57344 */
int ir_type_bytes(IrType t);    /* storage size; i1 counts as 1 byte */
/* The operand kinds of the MMA instructions, the kind field of wgmma's and tcgen05.mma's
 * attribute: 0 bf16, 1 f16, 2 e4m3, 3 e5m2, 4 tf32 (f32 operands; wgmma only). One 32-byte
 * K step of a K-major operand holds 32 / size elements (k16, k32, k8). */
enum { IR_MMA_BF16, IR_MMA_F16, IR_MMA_E4M3, IR_MMA_E5M2, IR_MMA_TF32, IR_MMA_NKINDS };
int ir_mma_kind(IrBase b);              /* -1 if b is no operand type */
IrBase ir_mma_kind_base(int kind);      /* the element type shared memory holds */
const char *ir_mma_kind_name(int kind); /* PTX's operand type: "bf16", "tf32" */
int ir_mma_kind_k(int kind);            /* K of one instruction: 16, 16, 32, 32, 8 */
/* The scopes of ordered accesses (load.acquire, store.release, fence, wait.ge: their
 * attribute): the threads that the ordering is promised to. One table holds each scope's
 * names: the language's word, PTX's qualifier and LLVM's syncscope ("" is LLVM's system). */
enum { IR_SCOPE_CTA, IR_SCOPE_CLUSTER, IR_SCOPE_GPU, IR_SCOPE_SYSTEM, IR_NSCOPES };
typedef struct IrScope {
	const char *word;       /* cta, cluster, gpu, system */
	const char *ptx;        /* cta, cluster, gpu, sys */
	const char *llvm;       /* block, cluster, device, "" */
} IrScope;
extern const IrScope ir_scopes[IR_NSCOPES];
/* The bits of a shared-memory matrix descriptor (wgmma's; tcgen05's with version bit 46)
 * that do not depend on the address, for wgmma.desc's attribute (swizzle, leading byte
 * offset); 0 for a swizzle other than 32, 64 or 128. The backend and the interpreter both
 * or the start address >> 4 into bits 0-13. */
uint64_t ir_matrix_desc_bits(int64_t imm, uint64_t version);
/* The swizzle TMA and wgmma share, a function of the shared-memory address: within each
 * span of 32, 64 or 128 bytes, the 16-byte chunk index (bits 4..) XORed with the row of
 * the span (bits 7..) mod span / 16; other spans leave the address as it is. */
int64_t ir_swizzle(int64_t addr, int span);
/* The byte offset, before the swizzle, of element (r, c) of a shared tile of wgmma.load or
 * wgmma.store (attribute imm, element size eb; nrows and ncols as the op's operands): the
 * matrix is row-major with rows of ncols; swizzled, it is panels of span / eb columns, each
 * nrows rows of one span, stacked (the layout TMA writes with `part:` and wgmma reads);
 * transposed, (r, c) is the matrix's (c, r) and nrows, ncols are the tile's. */
int64_t ir_tile_shared_byte(int64_t imm, int64_t r, int64_t c, int64_t nrows, int64_t ncols, int eb);
const char *ir_base_name(IrBase b);   /* "f32" */
int ir_base_from_name(const char *s, int n);  /* -1 if not a scalar name */
void ir_type_str(IrType t, char *out, int size);  /* "f32x4", "ptr.global.bf16", "tmap" */

typedef enum IrOpcode {
#define OP(id, name, nargs, nregions, flags, feat, meaning) IR_##id,
#include "ops.def"
#undef OP
	IR_NOPCODES
} IrOpcode;

enum {
	OPF_PURE = 1 << 0,
	OPF_COMM = 1 << 1,
	OPF_TERM = 1 << 2,
	OPF_IMM = 1 << 3,
	OPF_CONST = 1 << 4,
	OPF_MEMREAD = 1 << 5,
	OPF_MEMWRITE = 1 << 6,
	OPF_SYNC = 1 << 7,
	OPF_ARITH = 1 << 8,
	OPF_ASYNC = 1 << 10,    /* async proxy / mbarrier machinery (TMA, mbar.*) */
	OPF_HIGH = 1 << 12,     /* high-level region op, lowered before the backend */
	OPF_NSW = 1 << 13,      /* integer add/mul: imm 1 = no signed overflow (ops.def) */
	OPF_FLAG = 1 << 14,     /* imm is an optional flag word, printed only when non-zero */
	OPF_ATOMIC = 1 << 15,   /* an atomic access: never a data race with another (ops.def) */
};

/* What a target can do: ops.def names the features an op needs, targets.def the features
 * each target has. */
enum {
	FEAT_TMA = 1 << 0,          /* cp.async.bulk.tensor (TMA) */
	FEAT_CLUSTER = 1 << 1,      /* thread-block clusters, distributed shared memory */
	FEAT_SETMAXNREG = 1 << 2,   /* per-warpgroup register reallocation */
	FEAT_WGMMA = 1 << 3,        /* wgmma.mma_async, accumulators in registers */
	FEAT_TCGEN05 = 1 << 4,      /* tcgen05.mma, accumulators in tensor memory */
	FEAT_TMEM = 1 << 5,         /* tensor memory (tcgen05.alloc/ld/st) */
	FEAT_F32X2 = 1 << 6,        /* packed f32x2 add, mul and fma (LLVM keeps <2 x float>) */
	FEAT_COUNT = 7
};
const char *ir_feature_name(unsigned bit);  /* "wgmma" for FEAT_WGMMA */

/* tma.load's and tma.load.mc's imm (ops.def): the rank in the low byte; IR_TMA_PAIR marks
 * a load for a CTA pair (cta_group::2), whose complete-tx goes to the barrier at the same
 * offset in the pair's leader (cluster rank & ~1; for a multicast load, in the leader of
 * each destination's pair). One definition for the verifier, interpreter, backend. */
#define IR_TMA_RANK(imm) ((int)((imm) & 0xff))
#define IR_TMA_PAIR 256

typedef struct IrOpInfo {
	const char *name;
	int nargs;      /* -1: variadic */
	int nregions;
	unsigned flags;
	unsigned features;  /* FEAT_* the target must have, 0 for all targets */
	const char *meaning;
} IrOpInfo;
extern const IrOpInfo ir_opinfo[IR_NOPCODES];

/* Whether op code opc is an atomic access (OPF_ATOMIC): the atom.* read-modify-writes and
 * the ordered flag accesses. */
static inline int
ir_is_atomic(int opc)
{
	return (ir_opinfo[opc].flags & OPF_ATOMIC) != 0;
}
int ir_opcode_from_name(const char *s, int n);  /* -1 if unknown */

typedef int IrValue;  /* 1.. into IrKernel.vtypes; 0 is "no value" */

typedef struct IrRegion IrRegion;

typedef struct IrOp {
	int opc;
	int nargs;
	IrValue *args;
	int nres;
	IrValue *res;
	int64_t imm;     /* OPF_IMM attribute; integer constants */
	double fimm;     /* float constants */
	int nregions;
	IrRegion *regions;  /* arena memory: stable while the op moves */
	SrcLoc loc;
} IrOp;

struct IrRegion {
	int nargs;
	IrValue *args;      /* arena */
	int nops, capops;
	IrOp *ops;          /* malloc'd; pointers into it die on the next push */
};

typedef enum IrTarget {
#define TARGET(id, name, ccmaj, ccmin, cpu, ptx, regfile, maxregs, smem, feat) TARGET_##id,
#include "targets.def"
#undef TARGET
	TARGET_COUNT
} IrTarget;

/* One row of ir/targets.def. */
typedef struct IrTargetInfo {
	const char *id;         /* "SM_90A": the runtime's CAKERT_<id> */
	const char *name;       /* "sm_90a" */
	int cc_major, cc_minor;
	const char *llvm_cpu;
	int ptx_version;        /* times ten */
	int regfile;            /* 32-bit registers per SM */
	int max_regs;           /* per thread */
	int64_t smem_block;     /* bytes per CTA */
	unsigned features;      /* FEAT_* */
} IrTargetInfo;
extern const IrTargetInfo ir_targets[TARGET_COUNT];

#define IR_ALL_TARGETS ((1u << TARGET_COUNT) - 1)
const char *ir_target_name(int t);          /* "sm_90a" */
int ir_target_from_name(const char *s);     /* -1 if unknown */
/* The targets (bit 1 << IrTarget each) on which opcode opc exists: those with every
 * feature its ops.def row names. */
unsigned ir_op_targets(int opc);
/* The targets (bits) that have every feature in feat. */
unsigned ir_feature_targets(unsigned feat);
/* "sm_90a, sm_100a or sm_103a": the targets in mask, joined for a message (last: " or ",
 * " and "; NULL for ", "), into out. */
void ir_target_list(Buf *out, unsigned mask, const char *last);
/* Every target, joined as ir_target_list does, in a static buffer (for messages). */
const char *ir_all_target_names(const char *last);

typedef enum IrParamKind { PARAM_TENSOR, PARAM_SCALAR, PARAM_SYM, PARAM_TMAP } IrParamKind;
typedef enum IrAccess { ACC_IN, ACC_OUT, ACC_INOUT } IrAccess;

#define IR_MAX_RANK 8

/* One tensor dimension: the index of a PARAM_SYM parameter, or a fixed size. */
typedef struct IrDim {
	int sym;        /* parameter index, or -1 */
	int64_t size;   /* when sym < 0 */
} IrDim;

/* Kernel parameters, in ABI order. Tensors are contiguous, row-major, and passed as a
 * global pointer; a sym is an i32 bound from tensor shapes by the launcher; a scalar is
 * passed by value. A tmap is a TMA tensor map over tensor parameter tmap_tensor, encoded by
 * the launcher and passed by value (128 bytes, a grid constant); its rank/dims are the box
 * dims in elements (sym -1, row-major like the tensor), rank 1..5. */
typedef struct IrParam {
	const char *name;
	int kind;        /* IrParamKind */
	IrType type;     /* the ABI type: ptr.global.T for tensors; i32 for syms; tmap */
	int access;      /* tensors: IrAccess */
	int rank;
	IrDim dims[IR_MAX_RANK];
	SrcLoc loc;
	int tmap_tensor; /* tmaps: the index of the tensor parameter */
	int swizzle;     /* tmaps: 0, 32, 64 or 128 (bytes) */
	int oob_nan;     /* tmaps: out-of-bounds elements read as NaN (else zero) */
	/* tensors of a per_rank table (docs/language.md, "Tensors on other GPUs"): this is
	 * tensor rank_no of ranks (consecutive parameters, named table_r); ranks 0: a plain
	 * tensor */
	int ranks, rank_no;
} IrParam;

/* A statically sized shared-memory buffer. A staged buffer (stages > 1, or any buffer of a
 * pipeline) has one copy of dims per stage; stage s is at offset + s * stage_stride. */
typedef struct IrBuffer {
	const char *name;
	IrBase elem;
	int rank;
	int64_t dims[IR_MAX_RANK];
	int64_t count;     /* elements, product of dims (one stage) */
	int align;         /* bytes */
	int64_t offset;    /* byte offset once laid out (of stage 0); -1 before */
	SrcLoc loc;
	int stages;        /* 1 = unstaged */
	int pipeline;      /* index into IrKernel.pipelines, or -1 */
	int swizzle;       /* 0, 32, 64 or 128: the TMA/wgmma swizzle of the data in it */
	int alias;         /* index of the buffer whose storage it shares, or -1 */
	int64_t stage_stride;  /* bytes between stages, set by layout; 0 before */
} IrBuffer;

/* An mbarrier (or an array of n of them: a pipeline's full/empty barriers, one per stage).
 * Each object is 8 bytes of shared memory, initialised by generated code at kernel entry
 * with its arrival count. */
typedef struct IrBarrier {
	const char *name;  /* a pipeline's barriers are named "PIPE.full" and "PIPE.empty" */
	int count;         /* arrival count */
	int n;             /* array length, >= 1 */
	int64_t offset;    /* byte offset of element 0 once laid out; -1 before */
	SrcLoc loc;
} IrBarrier;

/* Who arrives on a pipeline's barrier in each phase. */
typedef enum IrPipeSource {
	PIPE_SRC_TMA,        /* one elected arrive.expect_tx, completed by TMA bytes (count 1) */
	PIPE_SRC_THREAD,     /* one (elected) thread per unit */
	PIPE_SRC_WARP,       /* 32 threads per unit */
	PIPE_SRC_WARPGROUP,  /* 128 threads per unit */
	PIPE_SRC_MMA,        /* one tcgen05.commit per unit: arrives once the thread's
				tcgen05.mma ops completed (count 1) */
	PIPE_SRC_COUNT
} IrPipeSource;
const char *ir_pipe_source_name(int src);        /* "tma", "thread", "warp", "warpgroup", "mma" */
int ir_pipe_source_from_name(const char *s);     /* -1 if unknown */
/* The arrival count a source times mult gives a barrier (tma: 1 per mult). */
int ir_pipe_source_count(int src, int mult);

/* A pipeline: stages, a full and an empty barrier array (n = stages each) and the sources
 * arriving on them. */
typedef struct IrPipeline {
	const char *name;
	int stages;
	int full, empty;            /* indices into IrKernel.barriers */
	int full_src, full_mult;    /* IrPipeSource and multiplier (>= 1) */
	int empty_src, empty_mult;
	/* a cluster release (IR text: `cluster` after the empty side): the empty side's
	 * releases reach the stage's barrier in every CTA of the cluster, which counts those
	 * of the whole cluster (ir_pipe_count), so that a producer whose multicast loads write
	 * into other CTAs' stages waits until each of them is free */
	int empty_cluster;
	SrcLoc loc;
} IrPipeline;

/* A tensor-memory accumulator of the language (`tmem`): its columns in the kernel's one TMEM
 * allocation (tmem.alloc), for --report=tmem; the ops address TMEM by value, not by this. */
typedef struct IrTmem {
	const char *name;
	int cols;          /* columns of one stage (128 lanes each) */
	int stages;        /* 1, or the stages of its pipeline */
	int col;           /* first column of stage 0 in the allocation */
	IrBase elem;       /* the accumulator's type: IR_F32, or IR_F16 (one per 32-bit cell); packed: IR_BF16 or IR_F16 */
	int packed;        /* an MMA operand A, two 16-bit elements per 32-bit cell (tcgen05.st of f32 words) */
	const char *pipeline;        /* its pipeline's name, or NULL */
	const char *writer, *reader; /* the roles of its first MMA and first load, or NULL */
	SrcLoc loc;
} IrTmem;

typedef struct IrKernel {
	Arena *arena;      /* the kernel's lifetime: names, args, regions */
	const char *name;
	const char *source;     /* path of the .cake file, or NULL */
	int file;               /* diag file index for locations, -1 if none */
	unsigned targets;       /* bit (1 << IrTarget) per target */
	int threads[3];
	/* Grid dimensions as host expressions in a small C-like language: integer literals,
	 * names of sym and integer scalar parameters, + - * / % and parentheses, and the
	 * functions cdiv(a, b), min(a, b), max(a, b); all arithmetic in int64. */
	const char *grid[3];
	int nparams, capparams;
	IrParam *params;
	int nbufs, capbufs;
	IrBuffer *bufs;
	int64_t smem_bytes;     /* static shared memory once laid out, else 0 */
	int nvalues, capvalues; /* vtypes[0] is unused */
	IrType *vtypes;
	SrcLoc *vlocs;          /* where each value was defined, if known */
	IrRegion body;          /* args: one value per parameter, in order */
	int min_blocks;         /* launch bounds: min resident blocks per SM, 0 if none */
	int cluster[3];         /* cluster dims (CTAs), 1 1 1 for none */
	/* index(i64): sym parameters are i64 and tensor indexing is 64-bit; the launcher
	 * lifts its 2^31 limits. 0 (i32) by default. */
	int index64;
	/* launch(dependent): launched with programmatic stream serialization; the kernel
	 * lets the next kernel launch at entry and waits for the previous one's memory
	 * before its body. 0 by default. */
	int dependent;
	/* requires(COND): a condition in the grid formulas' language plus comparisons, && ||
	 * ! (as an entry point's `when`) that the launcher checks before launching; NULL if
	 * none. */
	const char *requires;
	int nbarriers, capbarriers;
	IrBarrier *barriers;
	int npipelines, cappipelines;
	IrPipeline *pipelines;
	int ntmems, captmems;
	IrTmem *tmems;
} IrKernel;

/* The cta_group::2 bit of the imm of tmem.alloc/dealloc/relinquish and tcgen05.mma/commit:
 * the op works for a CTA pair (cluster ranks 2k and 2k + 1; the even one is the leader). */
#define IR_CTA_PAIR (INT64_C(1) << 16)
/* Whether k's tmem and tcgen05 ops use cta_group::2 (the verifier holds one per kernel). */
int ir_cta_pair(const IrKernel *k);
/* Whether pipeline p is a pair pipeline: its kernel pairs CTAs (pair: ir_cta_pair) and a
 * side of p is mma. The mma side
 * runs in the leader CTA only (its commits arrive in both CTAs); the other side runs in
 * both, and its arrivals go to the leader's barrier, so a non-tma source's count covers
 * both CTAs (docs/ir.md, "CTA pairs"). */
int ir_pair_pipeline(const IrPipeline *p, int pair);
/* The arrival count of side (0 full, 1 empty) of pipeline p in kernel k (pair:
 * ir_cta_pair): its source times its multiplier (ir_pipe_source_count); for a cluster
 * release, times the releasing units of the cluster (its CTAs, or its pairs for a pair
 * pipeline, whose mma side commits once per pair), and a warp or warpgroup source counts
 * one arrival per warp (one lane arrives for its warp). */
int ir_pipe_count(const IrKernel *k, const IrPipeline *p, int side, int pair);

/* The bytes one box of tensor map value map moves (its name in *name when not NULL), or -1
 * when map is not a tensor-map parameter. */
/* The tensor-map parameter a tmap value is: a kernel-body argument of a PARAM_TMAP, or a
 * select between such values (the maps of a per_rank table, which share their box and
 * element type: the last one's is returned). NULL if neither. */
const IrParam *ir_tmap_param(const IrKernel *k, IrValue map);
int64_t ir_tma_box_bytes(const IrKernel *k, IrValue map, const char **name);
/* The CTAs a multicast mask names (its low 16 bits). */
int ir_mask_ctas(int64_t mask);
/* The bytes a TMA load (tma.load, tma.load.mc) completes on the barrier it signals, as a
 * pipeline's expect counts them: one box; for a multicast load one from each CTA of its
 * mask, each issuing its part the same way (mask_ctas: how many CTAs the mask names in
 * every CTA, 0 when unknown: the whole cluster); twice that with IR_TMA_PAIR, whose
 * leader's barrier counts both CTAs of the pair. -1 for another op or map. The one rule
 * for schedule-check's byte accounting and expand-async's arrive.tx. */
int64_t ir_tma_load_bytes(const IrKernel *k, const IrOp *op, int mask_ctas, const char **name);

/* An entry point: one launcher for the instances of a generic kernel, which launches the
 * first of them, in order, whose tensor element types match its arguments and whose
 * condition holds (the instances' parameters differ only in those types). */
typedef struct IrEntry {
	char *name;
	int ninst;
	char **insts;           /* kernel names */
	/* each instance's `when` condition, NULL where it has none: in the host formula
	 * language (ir.h's grid formulas with comparisons, && || !), fully parenthesized,
	 * and as the user wrote it (for messages and the manifest) */
	char **when;
	char **when_text;
} IrEntry;

typedef struct IrModule {
	int nkernels, capkernels;
	IrKernel **kernels;
	int nentries, capentries;
	IrEntry *entries;
} IrModule;

IrKernel *ir_kernel_new(const char *name, int file);
void ir_kernel_free(IrKernel *k);
IrModule *ir_module_new(void);
void ir_module_add(IrModule *m, IrKernel *k);
/* when and when_text (each NULL, or ninst strings that may be NULL): see IrEntry. */
void ir_module_add_entry(IrModule *m, const char *name, int ninst, const char *const *insts,
			 const char *const *when, const char *const *when_text);
void ir_entry_free(IrEntry *e);
void ir_module_free(IrModule *m);

IrValue ir_new_value(IrKernel *k, IrType t);
IrType ir_vtype(const IrKernel *k, IrValue v);
/* align[i] = the byte alignment of tensor parameter i's base that the launcher checks
 * (16 for tensors with vector accesses or a TMA map, else the element size); 0 for the
 * other parameters. align has k->nparams entries. (tensor_align.c) */
void ir_tensor_aligns(const IrKernel *k, int *align);
int ir_add_param(IrKernel *k, IrParam p);      /* also adds its body argument; returns index */
/* Returns the buffer number. A buffer with stages == 0 (zero-initialised by a caller that
 * does not set the staging fields) gets stages 1, pipeline -1 and alias -1. */
int ir_add_buffer(IrKernel *k, IrBuffer b);
int ir_add_barrier(IrKernel *k, IrBarrier b);      /* returns the barrier index */
int ir_add_pipeline(IrKernel *k, IrPipeline p);    /* returns the pipeline index */
int ir_add_tmem(IrKernel *k, IrTmem t);             /* returns the tmem index */
/* The TMEM columns the kernel's tmems take: their total rounded up to a power of two from
 * 32 to 512 (what tcgen05.alloc allocates); 0 without tmem. */
int ir_tmem_cols(const IrKernel *k);

/* Appends a copy of op to r and returns a pointer to it, valid until r grows again. */
IrOp *ir_region_push(IrRegion *r, const IrOp *op);
/* Allocates the argument and result arrays and n empty regions of an op being built. */
void ir_op_init(IrKernel *k, IrOp *op, int opc, int nargs, int nres, int nregions, SrcLoc loc);
void ir_region_set_args(IrKernel *k, IrRegion *r, int n, const IrValue *args);
void ir_region_free(IrRegion *r);  /* frees the op arrays of r and everything nested */

/* The builder: an insertion point (append to a region) and the location for new ops. */
typedef struct IrBuilder {
	IrKernel *k;
	IrRegion *r;
	SrcLoc loc;
} IrBuilder;

/* One op with nargs operands and a single result of type t (no result if t is void). */
IrValue irb_op(IrBuilder *b, int opc, IrType t, int nargs, const IrValue *args);
IrValue irb_op1(IrBuilder *b, int opc, IrType t, IrValue a);
IrValue irb_op2(IrBuilder *b, int opc, IrType t, IrValue a, IrValue c);
IrValue irb_op3(IrBuilder *b, int opc, IrType t, IrValue a, IrValue c, IrValue d);
IrValue irb_const_int(IrBuilder *b, IrType t, int64_t v);
IrValue irb_const_float(IrBuilder *b, IrType t, double v);
IrValue irb_imm(IrBuilder *b, int opc, IrType t, int64_t imm, int nargs, const IrValue *args);
/* A region op with the given result types; fills *op_regions with its regions (arena
 * memory) so the caller can build inside them with another IrBuilder. */
IrOp *irb_region_op(IrBuilder *b, int opc, int nargs, const IrValue *args, int nres,
		    const IrType *restypes, IrRegion **op_regions);

/* Walks every op of r and nested regions in order, calling f before descending. */
void ir_walk(IrRegion *r, void (*f)(IrOp *op, void *ctx), void *ctx);

/* ---- target.c: chip facts of a kernel, over all its targets (all targets if it names
 * none): the smallest register file and shared-memory limit, and the entry register
 * budget (the one rule for it: the register-budget check and setmaxnreg both use it). */
int ir_kernel_regfile(const IrKernel *k);
int64_t ir_kernel_smem_limit(const IrKernel *k);
int ir_entry_regs(const IrKernel *k);

/* ---- limits: the sizes past which a compile would run for minutes or exhaust memory
 * instead of answering. Each has one check that reports at the user's line; docs/ir.md
 * and docs/language.md ("Limits") list them. ---- */
/* The most iterations a full unroll (for[-1], `unroll` in .cake) may have: the verifier
 * refuses more in IR with known bounds, sema in .cake (frontend/sema.c). */
#define IR_MAX_FULL_UNROLL 4096
/* The largest unroll factor (for[N], `unroll(N)` in .cake): the verifier, sema. */
#define IR_MAX_UNROLL_FACTOR 1024
/* The most ops a kernel may have, each counted once per copy of its body that the unrolls
 * around it make (their trips when known, else the factor). LLVM's load-store vectorizer
 * and instruction selection grow faster than linearly in a block's size: at this size the
 * slowest straight-line kernel (all stores) compiles in about 2 s per target, and the
 * largest kernel of kernels_src has 1534 (bench/compile_scaling.py). The verifier reports
 * it at the outermost unroll around the op that crosses it, or at that op. */
#define IR_MAX_UNROLLED_OPS 8192
/* The most stages of a pipeline or a staged shared buffer, and elements of an mbarrier
 * array: the verifier; sema in .cake (frontend/async_decl.c). */
#define IR_MAX_STAGES 32
/* The most parameters of a kernel: as written in .cake (sema), as listed in IR, sym
 * parameters included (the parser). Launch arguments are at most 32 KiB, and checks on
 * them grow faster than linearly in their number. */
#define IR_MAX_PARAMS 256
/* The most kernels one compile may hold (instances of generic kernels included): the
 * frontend reports at the declaration that crosses it, the IR parser at the kernel. */
#define IR_MAX_KERNELS 1024
/* The most values one store.row writes (a register array row in .cake): the verifier, sema
 * (frontend/regarray.c). Past it one row is better written in several. */
#define IR_MAX_ROW_STORE 128
/* wgmma.load's and wgmma.store's imm bit for a transposed tile: the fragment's rows are the
 * tensor's columns (nrows and ncols are then the tile's, the matrix holds ncols rows of
 * nrows); `t.T` in .cake. */
#define IR_TILE_TRANSPOSED (1 << 17)
/* ... and for a transposed tile of a global tensor, paired rows: the thread's rows i = 0, 1
 * are the tile's rows 16 (t / 32) + 2 ((t % 32) / 4) + i (ir_frag_row) instead of
 * 16 (t / 32) + (t % 32) / 4 + 8 i, so that its two elements of a column are adjacent in
 * memory and move as one access; `paired: true` in .cake. Only the rows' order changes: a
 * fragment read paired is stored paired. */
#define IR_TILE_PAIRED (1 << 20)
/* The tile row of fragment row i (0, 1) of thread t (the linear thread index mod 128) of
 * wgmma.load and wgmma.store, by their attribute (IR_TILE_PAIRED or not). */
#define ir_frag_row(imm, t, i) \
	((imm) & IR_TILE_PAIRED ? 16 * ((t) / 32) + 2 * ((t) % 32 / 4) + (i) : 16 * ((t) / 32) + (t) % 32 / 4 + 8 * (i))
/* ... and for a tile of shared memory (a ptr.shared operand), the array's swizzle in bits
 * 18-19 (0 none, 1 32 bytes, 2 64, 3 128): element (r, c) of its matrix (nrows rows, the
 * panel height when swizzled) is at ir_tile_shared_byte, then ir_swizzle of the address. */
#define IR_TILE_SWIZZLE(imm) ((int)((imm) >> 18 & 3) ? 16 << (int)((imm) >> 18 & 3) : 0)
#define IR_TILE_SWIZZLE_BITS(span) ((int64_t)((span) == 128 ? 3 : (span) == 64 ? 2 : (span) == 32 ? 1 : 0) << 18)
/* wgmma's imm: N | kind << 16 | step << 20 | IR_WGMMA_BT (B is N-major: the ISA's
 * imm-trans-b, 16-bit kinds only). */
#define IR_WGMMA_STEP(imm) ((int)(((imm) >> 20) & 0xff))
#define IR_WGMMA_BT (1 << 28)
/* wgmma.desc's imm: the swizzle in bytes, and for an N-major operand, panels of one swizzle
 * span side by side, the bytes from one panel to the next (the descriptor's leading byte
 * offset) << 16; 0 there for a K-major operand. */
#define IR_DESC_SWIZZLE(imm) ((int)((imm) & 0xffff))
#define IR_DESC_LBO(imm) ((int64_t)(imm) >> 16)

/* ---- eval.c: integer evaluation, shared by folding, schedule checks and interpreters ---- */
/* x wrapped to t's width and extended by its signedness (i1, u32, u64: zero-extended). */
int64_t ir_int_norm(IrType t, int64_t x);
/* What integer op opc computes with result type t on operands a[0..nargs-1], normalized to
 * their type at (the first operand's: compares and casts read its signedness). Covers the
 * OPF_ARITH ops, compares, select and int-to-int casts; returns 0 for anything else and
 * for results the GPU leaves undefined (x / 0, MIN / -1, shifts by the width or more). */
int ir_eval_int_op(int opc, IrType t, IrType at, int nargs, const int64_t *a, int64_t *out);

/* Evaluates integer scalar values through their defining ops. Ops it cannot compute from
 * their operands (special registers, memory, region results, region arguments: d NULL) go
 * to leaf, which may know them (schedule-check: the thread index of one thread). */
#define IR_EVAL_MAX_DEPTH 64
typedef struct IrEval IrEval;
struct IrEval {
	const IrKernel *k;
	const IrOp **defs;      /* ir_def_map(k) */
	int (*leaf)(IrEval *e, const IrOp *d, IrValue v, int64_t *out);
	void *ctx;              /* for leaf */
	long steps, max_steps;  /* a budget over all calls: 0 known after it runs out */
	int depth;
};
int ir_eval_value(IrEval *e, IrValue v, int64_t *out);

/* ---- rewrite.c: def map, replacement map, region rebuild ---- */
/* Per value id 0..k->nvalues: the op defining it, NULL for region arguments and unused ids.
 * The pointers die when a region array is rebuilt or grows. Free with free(). */
const IrOp **ir_def_map(const IrKernel *k);

/* A replacement map over the values that exist when it is made: every use of old becomes
 * a use of with (chains resolve to their end) when it is applied. */
typedef struct IrRewriter {
	IrKernel *k;
	int n;
	IrValue *map;
} IrRewriter;
void ir_rw_init(IrRewriter *rw, IrKernel *k);
void ir_rw_set(IrRewriter *rw, IrValue old, IrValue with);
/* Inline: passes call it for every operand they visit. A chain a -> b -> c resolves to c;
 * the step bound stops a cycle a pass made by mistake. */
static inline IrValue
ir_rw_get(const IrRewriter *rw, IrValue v)
{
	int steps;

	for (steps = 0; v > 0 && v < rw->n && rw->map[v] && steps < rw->n; steps++)
		v = rw->map[v];
	return v;
}
void ir_rw_apply(IrRewriter *rw, IrRegion *r);   /* every operand in r and below */
void ir_rw_free(IrRewriter *rw);
/* Rebuilds r's op array in order: fn returns 1 to keep op (appended after whatever fn
 * itself appended to out, e.g. the ops of an inlined region), 0 to drop it (its nested
 * regions are freed). fn may change op before keeping it. */
void ir_region_rebuild(IrRegion *r, int (*fn)(IrRegion *out, IrOp *op, void *ctx), void *ctx);

/* ---- print.c ---- */
void ir_print_kernel(Buf *out, const IrKernel *k);
/* The hash whose low 48 bits end a kernel's device symbol (`<kernel>_<hash>`): of its
 * printed IR (text, len) less the `source "path"` line, so that the same file compiled
 * from another folder gets the same symbol. cakec names symbols with it; the emulated
 * driver finds a symbol's IR with it. */
uint64_t ir_symbol_hash(const char *text, size_t len);
void ir_print_module(Buf *out, const IrModule *m);

/* ---- parse.c ---- */
/* Parses IR text; reports errors through diag (file:line:col) and returns NULL on error.
 * The text is registered with diag_add_source as is, so it must stay valid as long as
 * diagnostics may point into it (ops without a source location point into the text). */
IrModule *ir_parse(const char *path, const char *text, size_t len);

/* ---- verify.c ---- */
/* Checks the invariants (operand counts and types per opcode, dominance of uses, region
 * arguments and terminators, yields matching results, params and buffers). Reports each
 * problem through diag naming `when` (e.g. "after pass cse") and returns the count. */
int ir_verify(const IrKernel *k, const char *when);
/* The run before the first pass: ir_verify that tells the rules a user can break in .cake
 * (where roles, elect, produce, consume and wgmma run, regs, target gating) from the
 * invariants only a compiler bug breaks: rule violations are prefixed with rule_when (none
 * when NULL) and counted in *nrule. It also checks the input's size (IR_MAX_UNROLLED_OPS),
 * which passes may grow. Returns the count of all errors. */
int ir_verify_rules(const IrKernel *k, const char *when, const char *rule_when, int *nrule);
/* 1 (the default): ir_verify runs the whole-kernel tensor-memory rules (alloc/dealloc
 * pairing, relinquish, fences); cakec-run --no-static-tmem-rules clears it. */
extern int ir_verify_tmem_kernel_rules;

#endif
