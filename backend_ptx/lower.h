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
	LLVMValueRef *vals;     /* the LLVM value of each IR value id */
	LLVMValueRef smem;      /* the dynamic shared array, created on first use */
	unsigned sscope_device; /* syncscope("device") */
	Buf *err;
	int failed;
} Lower;

/* ---- lower_llvm.c ---- */
/* Records the first lowering error (later ones are dropped) and marks the lowering failed. */
void lw_error(Lower *L, const IrOp *op, const char *fmt, ...);
LLVMTypeRef lw_type(Lower *L, IrType t);
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

#endif
