/* backend_ptx/llvm_gen.h: state shared by the files that generate LLVM IR from IR (the
 * llvm_*.c files). Private to backend_ptx/ (it pulls in the LLVM C API headers).
 *
 * Layers: llvm_kernel.c (module, kernel, regions, target machine) on top; then the
 * opcode dispatch llvm_ops.c -> llvm_math.c, llvm_async.c -> llvm_tcgen05.c -> llvm_wgmma.c
 * (the descriptor and tied-asm helpers); llvm_values.c at the bottom. */
#ifndef CAKE_LLVM_GEN_H
#define CAKE_LLVM_GEN_H

#include "backend.h"

#include <llvm-c/Core.h>

/* The LLVM IR generation of one kernel for one target. */
typedef struct LlvmGen {
	const IrKernel *k;
	int target;
	LLVMContextRef ctx;
	LLVMModuleRef mod;
	LLVMBuilderRef b;
	LLVMValueRef fn;
	LLVMValueRef *vals;     /* the LLVM value of each IR value id (not fragments) */
	LLVMValueRef **lanes;   /* a fragment's lanes, one scalar each (see lg_is_frag) */
	Arena *arena;           /* the lanes arrays */
	int *uses;              /* how many operands name each value */
	int *tied_uses;         /* of those, how many are wgmma asm that tie accumulator lanes */
	char *untied;           /* wgmma.wait results that need no ties (find_untied_waits) */
	char *fixed_iv;         /* variables of loops with constant bounds (LLVM unrolls the
				   small ones fully; elemptr) */
	const IrOp **def;       /* ir_def_map(k): each value's defining op (NULL for region args) */
	int named;              /* LLVM values carry names (only when LLVM IR is printed) */
	LLVMValueRef smem;      /* the dynamic shared array, created on first use */
	unsigned sscope_device; /* syncscope("device") */
	int in_plain_loop;      /* directly in a loop plain_unroll unrolls (gen_for): add[1] and
				   mul[1] get nsw there */
	int plain_loops;        /* how many such loops (the pipeline adds PLAIN_LOOP_PASSES) */
	int aligned_tensors;    /* tensor parameters whose base the launcher checks beyond
				   their element size (with shared memory: VECTORIZE_PASSES) */
	int lane;               /* >= 0 while a lane-wise op on fragments is built lane by lane
				   (llvm_ops.c, lanewise): lg_val gives that lane of a fragment */
	/* the line table (`cakec --lineinfo`): NULL di without one */
	int lineinfo;
	LLVMDIBuilderRef di;
	LLVMMetadataRef sp;     /* the kernel's DISubprogram */
	LLVMMetadataRef *scopes;  /* per source file index: its scope in sp, made on first use */
	int nscopes;
	int host_math;          /* built for the host's JIT (tests/math/math_cpu.c): exp's
				   ex2.approx is LLVM's exact exp2 there */
	Buf *err;
	int failed;
} LlvmGen;

/* ---- llvm_values.c: the ground floor, which every other file calls ---- */
/* Records the first generation error (later ones are dropped) and marks the generation
 * failed. */
void lg_error(LlvmGen *g, const IrOp *op, const char *fmt, ...);
LLVMTypeRef lg_type(LlvmGen *g, IrType t);
/* A call to an intrinsic by its name without overload suffixes ("llvm.fma"), overloaded on
 * the ntys types. */
LLVMValueRef lg_intrinsic(LlvmGen *g, const char *name, LLVMTypeRef *tys, int ntys,
			  LLVMValueRef *args, int nargs, const char *vname);

/* Fragments (vectors of more than 4 lanes: wgmma accumulators of up to 128 f32) live as
 * arrays of scalar LLVM values, one per lane, never as LLVM vectors: a <128 x float> crossing
 * a basic block costs instruction selection 128 copies in every block that reads a lane, and
 * every wgmma would split and rebuild it. Phis of fragments are one scalar phi per lane. */
int lg_is_frag(IrType t);
/* Whether IR value v is defined by a `const` op. */
int lg_is_const(const LlvmGen *g, IrValue v);
/* The LLVM value of IR value v, used by op (a fragment is rebuilt into a vector here; while
 * a lane-wise op is built, g->lane >= 0, it is that lane of the fragment). */
LLVMValueRef lg_val(LlvmGen *g, const IrOp *op, IrValue v);
/* The lanes of fragment v (n of them); poison lanes after an error. */
LLVMValueRef *lg_lanes(LlvmGen *g, const IrOp *op, IrValue v);
/* Binds v to r (a fragment-typed vector r is split into its lanes here). */
void lg_bind(LlvmGen *g, IrValue v, LLVMValueRef r);
/* Binds fragment v to n lanes (copied). */
void lg_bind_lanes(LlvmGen *g, IrValue v, LLVMValueRef *lanes, int n);
/* Binds dst to what src is bound to (a value a region passes on; errors name op). */
void lg_alias(LlvmGen *g, const IrOp *op, IrValue dst, IrValue src);
/* The kernel's dynamic shared array (ptr addrspace(3)), created on first use. */
LLVMValueRef lg_smem_base(LlvmGen *g);
/* The LLVM name of op's first result ("v12"; empty without results): the dispatchers name
 * the values they build after the IR's, for --emit=llvm. */
void lg_result_name(const IrOp *op, char *nm, size_t size);
/* Shorthands: operand i of op, the i32 and i64 types and constants of them. */
LLVMValueRef lg_arg(LlvmGen *g, const IrOp *op, int i);
LLVMTypeRef lg_i32t(LlvmGen *g);
LLVMTypeRef lg_i64t(LlvmGen *g);
LLVMValueRef lg_c32(LlvmGen *g, int64_t v);
LLVMValueRef lg_pair(LlvmGen *g, LLVMValueRef lo, LLVMValueRef hi);
LLVMValueRef lg_c64(LlvmGen *g, uint64_t v);

/* ---- llvm_ops.c ---- */
/* Generates one op without regions and binds its result (if any) in g->vals. */
void lg_op(LlvmGen *g, const IrOp *op);
LLVMValueRef lg_linear_tid(LlvmGen *g);

/* ---- llvm_math.c ---- */
/* Generates one op of the math library (exp .. isinf, ir/ops.def), lane by lane on vectors;
 * t is its result type. */
LLVMValueRef lg_math_op(LlvmGen *g, const IrOp *op, IrType t, const char *nm);
/* The f32 algorithm of math op opc (exp .. tanh.approx; 1 or 2 scalar operands in a) built
 * at g->b, which needs only g->ctx, g->mod and g->b: tests/math/math_cpu.c runs the accurate
 * ones on the host. NULL for the other ops. */
LLVMValueRef lg_math_scalar(LlvmGen *g, int opc, LLVMValueRef *a);

/* ---- llvm_async.c ---- */
/* Generates one async op (mbar .. wgmma.wait; the MMA ops through their family's file);
 * reports the high-level region ops (role, elect, produce, consume), which pass expand-async
 * must have expanded, and ops that do not exist on the target. */
void lg_async_op(LlvmGen *g, const IrOp *op);

/* ---- llvm_store.c ---- */
/* Generates store.row. */
void lg_store_row(LlvmGen *g, const IrOp *op);
/* One asm statement storing words[w] at column cols[w] from p where the column is below
 * left (with pairs, a word is a b32 of two 16-bit elements at cols[w] and cols[w] + 1). */
void lg_store_clipped(LlvmGen *g, LLVMValueRef p, LLVMValueRef left, LLVMValueRef *words, const int *cols,
		      int nw, int ebytes, int pairs);

/* ---- llvm_tcgen05.c ---- */
/* Generates one tensor-memory or tcgen05 op (tmem.alloc .. tcgen05.fence.after). */
void lg_tcgen05_op(LlvmGen *g, const IrOp *op);

/* ---- llvm_wgmma.c ---- */
/* Generates one wgmma op (wgmma.desc .. wgmma.wait). */
void lg_wgmma_op(LlvmGen *g, const IrOp *op);
/* The K-major shared-memory matrix descriptor (i64) of wgmma.desc and tcgen05.desc: operand
 * 0 the address, op->imm the swizzle; version is or'ed in (0 wgmma, 1 << 46 tcgen05). */
LLVMValueRef lg_matrix_desc(LlvmGen *g, const IrOp *op, uint64_t version, const char *nm);
/* Ties every word of op's operands through the asm statement insn into op's results (one
 * per operand, same type), so that LLVM reads the results only after insn. */
void lg_tied_sync(LlvmGen *g, const IrOp *op, const char *insn);
/* Generates the wgmma group (fence, chained wgmmas, commit) that starts at r->ops[i] as one
 * asm statement; returns the number of ops it took, 0 if none starts there. */
int lg_wgmma_group(LlvmGen *g, const IrRegion *r, int i);

#endif
