/* backend_ptx/lower.h: state shared by the files that lower IR to LLVM IR. Private to
 * backend_ptx/ (it pulls in the LLVM C API headers). */
#ifndef CAKE_LOWER_H
#define CAKE_LOWER_H

#include "backend.h"

#include <llvm-c/Core.h>

/* The lowering of one kernel for one target. */
typedef struct Lower {
	const IrKernel *k;
	int target;
	LLVMContextRef ctx;
	LLVMModuleRef mod;
	LLVMBuilderRef b;
	LLVMValueRef fn;
	LLVMValueRef *vals;     /* the LLVM value of each IR value id (not fragments) */
	LLVMValueRef **lanes;   /* a fragment's lanes, one scalar each (see lw_is_frag) */
	Arena *arena;           /* the lanes arrays */
	int *uses;              /* how many operands name each value */
	int *tied_uses;         /* of those, how many are wgmma asm that tie accumulator lanes */
	char *untied;           /* wgmma.wait results that need no ties (find_untied_waits) */
	const IrOp **def;       /* the op that defines each value (NULL for region arguments) */
	int named;              /* LLVM values carry names (only when LLVM IR is printed) */
	LLVMValueRef smem;      /* the dynamic shared array, created on first use */
	unsigned sscope_device; /* syncscope("device") */
	Buf *err;
	int failed;
} Lower;

/* ---- lower_llvm.c ---- */
/* Records the first lowering error (later ones are dropped) and marks the lowering failed. */
void lw_error(Lower *L, const IrOp *op, const char *fmt, ...);
LLVMTypeRef lw_type(Lower *L, IrType t);

/* Fragments (vectors of more than 4 lanes: wgmma accumulators of up to 128 f32) live as
 * arrays of scalar LLVM values, one per lane, never as LLVM vectors: a <128 x float> crossing
 * a basic block costs instruction selection 128 copies in every block that reads a lane, and
 * every wgmma would split and rebuild it. Phis of fragments are one scalar phi per lane. */
int lw_is_frag(IrType t);
/* The LLVM value of IR value v, used by op (a fragment is rebuilt into a vector here). */
LLVMValueRef lw_val(Lower *L, const IrOp *op, IrValue v);
/* The lanes of fragment v (n of them); poison lanes after an error. */
LLVMValueRef *lw_lanes(Lower *L, const IrOp *op, IrValue v);
/* Binds v to r (a fragment-typed vector r is split into its lanes here). */
void lw_bind(Lower *L, IrValue v, LLVMValueRef r);
/* Binds fragment v to n lanes (copied). */
void lw_bind_lanes(Lower *L, IrValue v, LLVMValueRef *lanes, int n);
/* A call to an intrinsic by its name without overload suffixes ("llvm.fma"), overloaded on
 * the ntys types. */
LLVMValueRef lw_intrinsic(Lower *L, const char *name, LLVMTypeRef *tys, int ntys,
			  LLVMValueRef *args, int nargs, const char *vname);

/* ---- lower_ops.c ---- */
/* Lowers one op without regions and binds its result (if any) in L->vals. */
void lw_op(Lower *L, const IrOp *op);
/* The kernel's dynamic shared array (ptr addrspace(3)), created on first use. */
LLVMValueRef lw_smem_base(Lower *L);

/* ---- lower_async.c ---- */
/* Lowers one Hopper async op (mbar .. wgmma.wait); reports the high-level region ops
 * (role, elect, produce, consume), which pass lower-async must have lowered. */
void lw_async_op(Lower *L, const IrOp *op);
/* Lowers the wgmma group (fence, chained wgmmas, commit) that starts at r->ops[i] as one
 * asm statement; returns the number of ops it took, 0 if none starts there. */
int lw_wgmma_group(Lower *L, const IrRegion *r, int i);

#endif
