/* backend_ptx/llvm_async.c: the LLVM IR for the async ops (mbarriers, TMA, cluster, elect,
 * setmaxnreg) through LLVM 22's NVVM intrinsics, and the dispatch of the MMA ops to their
 * family's file (wgmma: llvm_wgmma.c; tensor memory and tcgen05: llvm_tcgen05.c).
 *
 * Addresses: shared memory is 32-bit (-nvptx-short-ptr); mbarriers and TMA destinations use
 * those addresses directly. A shared::cta address is also a valid shared::cluster address
 * of the executing CTA, so the TMA destination (a shared::cluster pointer in the intrinsic)
 * is the same 32-bit value rather than a round trip through generic addresses. Tensor maps
 * are kernel parameters passed by value as grid constants; the ops take their address. */
#include "llvm_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* IR address space 7 is shared::cluster, as in NVPTX. */
#define AS_CLUSTER 7

static LLVMValueRef
c1(LlvmGen *g, int v)
{
	return LLVMConstInt(LLVMInt1TypeInContext(g->ctx), (unsigned long long)v, 0);
}

static LLVMValueRef
call(LlvmGen *g, const char *name, LLVMValueRef *args, int nargs, const char *nm)
{
	return lg_intrinsic(g, name, NULL, 0, args, nargs, nm);
}

/* An i32 operand (i32 or u32 in the IR). */
static LLVMValueRef
ival(LlvmGen *g, const IrOp *op, int i)
{
	return lg_arg(g, op, i);
}

/* byte offset (i32) into the dynamic shared array */
static LLVMValueRef
smem_at(LlvmGen *g, LLVMValueRef off, const char *nm)
{
	LLVMValueRef base = lg_smem_base(g);

	return LLVMBuildInBoundsGEP2(g->b, LLVMInt8TypeInContext(g->ctx), base, &off, 1, nm);
}

/* mbar[b] idx: barrier b's offset + 8 * idx. */
static LLVMValueRef
mbar_addr(LlvmGen *g, const IrOp *op, const char *nm)
{
	const IrBarrier *bar;
	LLVMValueRef off;

	if (op->imm < 0 || op->imm >= g->k->nbarriers) {
		lg_error(g, op, "barrier %lld of %d", (long long)op->imm, g->k->nbarriers);
		return LLVMGetPoison(lg_type(g, ir_ptr(IR_SHARED, IR_I64)));
	}
	bar = &g->k->barriers[op->imm];
	if (bar->offset < 0) {
		lg_error(g, op, "mbarrier '%s' has no offset (smem-layout has not run)", bar->name);
		return LLVMGetPoison(lg_type(g, ir_ptr(IR_SHARED, IR_I64)));
	}
	off = LLVMBuildNUWMul(g->b, ival(g, op, 0), lg_c32(g, 8), "");
	off = LLVMBuildNUWAdd(g->b, off, lg_c32(g, bar->offset), "");
	return smem_at(g, off, nm);
}

/* smem.stage[buf] s: the buffer's offset + s * its stage stride. */
static LLVMValueRef
stage_addr(LlvmGen *g, const IrOp *op, const char *nm)
{
	const IrBuffer *b;
	LLVMValueRef off;

	if (op->imm < 0 || op->imm >= g->k->nbufs) {
		lg_error(g, op, "buffer %lld of %d", (long long)op->imm, g->k->nbufs);
		return LLVMGetPoison(lg_type(g, ir_ptr(IR_SHARED, IR_I8)));
	}
	b = &g->k->bufs[op->imm];
	if (b->offset < 0 || (b->stages > 1 && b->stage_stride <= 0)) {
		lg_error(g, op, "shared buffer '%s' has no offset or stage stride (smem-layout has not run)", b->name);
		return LLVMGetPoison(lg_type(g, ir_ptr(IR_SHARED, IR_I8)));
	}
	off = LLVMBuildNUWMul(g->b, ival(g, op, 0), lg_c32(g, b->stage_stride), "");
	off = LLVMBuildNUWAdd(g->b, off, lg_c32(g, b->offset), "");
	return smem_at(g, off, nm);
}

/* The same 32-bit shared address as a shared::cluster pointer (see the top). */
static LLVMValueRef
as_cluster(LlvmGen *g, LLVMValueRef p)
{
	LLVMValueRef a = LLVMBuildPtrToInt(g->b, p, lg_i32t(g), "");

	return LLVMBuildIntToPtr(g->b, a, LLVMPointerTypeInContext(g->ctx, AS_CLUSTER), "");
}

/* try_wait.parity in a loop. The intrinsic may read and write memory, so LLVM keeps it in
 * the loop and keeps the accesses it guards after it. */
static void
mbar_wait(LlvmGen *g, const IrOp *op)
{
	LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "mbar.wait");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "mbar.done");
	LLVMValueRef args[2], ok;

	args[0] = lg_arg(g, op, 0);
	args[1] = ival(g, op, 1);
	LLVMBuildBr(g->b, loop);
	LLVMPositionBuilderAtEnd(g->b, loop);
	ok = call(g, "llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta", args, 2, "");
	LLVMBuildCondBr(g->b, ok, done, loop);
	LLVMPositionBuilderAtEnd(g->b, done);
}

/* The mbarrier of a CTA pair's load (cta_group::2): bar's offset in the leader, mapa to
 * cluster rank & ~1. The intrinsic takes a ptr addrspace(3), so the shared::cluster address
 * is punned back to one (BLACKWELL.md: PTX wants the shared::cluster address there). */
static LLVMValueRef
pair_bar(LlvmGen *g, const IrOp *op)
{
	LLVMValueRef args[2], a;

	if (!(ir_targets[g->target].features & FEAT_TCGEN05)) {
		lg_error(g, op, "cta_group::2 does not exist on %s (the verifier gates it)", ir_target_name(g->target));
		return lg_arg(g, op, 2);
	}
	args[0] = lg_arg(g, op, 2);
	args[1] = call(g, "llvm.nvvm.read.ptx.sreg.cluster.ctarank", NULL, 0, "");
	args[1] = LLVMBuildAnd(g->b, args[1], lg_c32(g, ~1), "leader");
	a = call(g, "llvm.nvvm.mapa.shared.cluster", args, 2, "");
	a = LLVMBuildPtrToInt(g->b, a, lg_i32t(g), "");
	return LLVMBuildIntToPtr(g->b, a, LLVMPointerTypeInContext(g->ctx, 3), "");
}

/* cp.async.bulk.tensor g2s (tile; multicast when mc; cta_group::2 with IR_TMA_PAIR) and
 * s2g. IR coordinates are row-major, PTX's innermost first. */
static void
tma(LlvmGen *g, const IrOp *op)
{
	LLVMValueRef args[16];
	char name[64];
	int load = op->opc != IR_TMA_STORE, rank = load ? IR_TMA_RANK(op->imm) : (int)op->imm, n = 0, i, first;
	int pair = load && (op->imm & IR_TMA_PAIR);

	if (rank < 1 || rank > 5) {
		lg_error(g, op, "rank %d", rank);
		return;
	}
	if (op->opc == IR_TMA_STORE) {
		first = 2;
		args[n++] = lg_arg(g, op, 1);             /* src */
		args[n++] = lg_arg(g, op, 0);             /* map */
		for (i = op->nargs - 1; i >= first; i--)
			args[n++] = ival(g, op, i);
		args[n++] = lg_c64(g, 0);                  /* cache hint (unused) */
		args[n++] = c1(g, 0);
		snprintf(name, sizeof name, "llvm.nvvm.cp.async.bulk.tensor.s2g.tile.%dd", rank);
		call(g, name, args, n, "");
		return;
	}
	first = op->opc == IR_TMA_LOAD_MC ? 4 : 3;
	args[n++] = as_cluster(g, lg_arg(g, op, 0));      /* dst */
	args[n++] = pair ? pair_bar(g, op) : lg_arg(g, op, 2);    /* mbarrier */
	args[n++] = lg_arg(g, op, 1);                     /* map */
	for (i = op->nargs - 1; i >= first; i--)
		args[n++] = ival(g, op, i);
	args[n++] = op->opc == IR_TMA_LOAD_MC
		    ? LLVMBuildTrunc(g->b, ival(g, op, 3), LLVMInt16TypeInContext(g->ctx), "")
		    : LLVMConstInt(LLVMInt16TypeInContext(g->ctx), 0, 0);
	args[n++] = lg_c64(g, 0);
	args[n++] = c1(g, op->opc == IR_TMA_LOAD_MC);   /* use the CTA mask */
	args[n++] = c1(g, 0);                           /* use the cache hint */
	args[n++] = lg_c32(g, pair ? 2 : 0);               /* cta_group: none, or ::2 */
	snprintf(name, sizeof name, "llvm.nvvm.cp.async.bulk.tensor.g2s.tile.%dd", rank);
	call(g, name, args, n, "");
}

/* ---- dispatch ---- */

void
lg_async_op(LlvmGen *g, const IrOp *op)
{
	LLVMValueRef r = NULL, args[2];
	char nm[32];

	lg_result_name(op, nm, sizeof nm);
	if (ir_opinfo[op->opc].flags & OPF_HIGH) {
		lg_error(g, op, "internal: a high-level region op reached the backend (pass expand-async "
			 "expands it)");
		return;
	}
	if (!(ir_op_targets(op->opc) & (1u << g->target))) {
		lg_error(g, op, "does not exist on %s (the verifier gates it)", ir_target_name(g->target));
		return;
	}
	switch (op->opc) {
	case IR_MBAR: r = mbar_addr(g, op, nm); break;
	case IR_SMEM_STAGE: r = stage_addr(g, op, nm); break;
	case IR_MBAR_INIT:
		args[0] = lg_arg(g, op, 0);
		args[1] = lg_c32(g, op->imm);
		call(g, "llvm.nvvm.mbarrier.init.shared", args, 2, "");
		break;
	case IR_MBAR_ARRIVE:
		args[0] = lg_arg(g, op, 0);
		call(g, "llvm.nvvm.mbarrier.arrive.shared", args, 1, "");
		break;
	case IR_MBAR_ARRIVE_TX:
		args[0] = lg_arg(g, op, 0);
		args[1] = ival(g, op, 1);
		call(g, "llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta", args, 2, "");
		break;
	case IR_MBAR_EXPECT_TX:
		args[0] = lg_arg(g, op, 0);
		args[1] = ival(g, op, 1);
		call(g, "llvm.nvvm.mbarrier.expect.tx.scope.cta.space.cta", args, 2, "");
		break;
	case IR_MBAR_WAIT: mbar_wait(g, op); break;
	case IR_MBAR_ARRIVE_REMOTE:
		/* release at CTA scope, as CUTLASS's cluster barriers arrive: what it orders are
		 * this thread's reads of its own CTA's stage (or tensor memory), already
		 * performed, before the peer refills it. The cluster-scope form, a fence per
		 * arrive, cost the multicast GEMM (gemm_mc) a third of its speed on the H200
		 * (bench/RESULTS.md, section 15). */
		args[0] = lg_arg(g, op, 0);
		args[1] = ival(g, op, 1);
		args[0] = call(g, "llvm.nvvm.mapa.shared.cluster", args, 2, "");
		args[1] = lg_c32(g, 1);
		call(g, "llvm.nvvm.mbarrier.arrive.scope.cta.space.cluster", args, 2, "");
		break;
	case IR_FENCE_MBAR_INIT: call(g, "llvm.nvvm.fence.mbarrier_init.release.cluster", NULL, 0, ""); break;
	case IR_FENCE_PROXY_ASYNC:
		call(g, op->imm ? "llvm.nvvm.fence.proxy.async.global" : "llvm.nvvm.fence.proxy.async.shared_cta", NULL, 0, "");
		break;
	case IR_TMA_LOAD: case IR_TMA_LOAD_MC: case IR_TMA_STORE: tma(g, op); break;
	case IR_TMA_COMMIT: call(g, "llvm.nvvm.cp.async.bulk.commit.group", NULL, 0, ""); break;
	case IR_TMA_WAIT:
		args[0] = lg_c32(g, op->imm);
		call(g, "llvm.nvvm.cp.async.bulk.wait.group.read", args, 1, "");
		break;
	case IR_ELECT_SYNC:
		args[0] = lg_c32(g, -1);
		r = LLVMBuildExtractValue(g->b, call(g, "llvm.nvvm.elect.sync", args, 1, ""), 1, nm);
		break;
	case IR_SETMAXNREG:
		args[0] = lg_c32(g, op->imm < 0 ? -op->imm : op->imm);
		call(g, op->imm < 0 ? "llvm.nvvm.setmaxnreg.dec.sync.aligned.u32"
				    : "llvm.nvvm.setmaxnreg.inc.sync.aligned.u32", args, 1, "");
		break;
	case IR_CLUSTER_RANK: r = call(g, "llvm.nvvm.read.ptx.sreg.cluster.ctarank", NULL, 0, nm); break;
	case IR_CLUSTER_SYNC:
		call(g, "llvm.nvvm.barrier.cluster.arrive.aligned", NULL, 0, "");
		call(g, "llvm.nvvm.barrier.cluster.wait.aligned", NULL, 0, "");
		break;
	case IR_MAPA:
		args[0] = lg_arg(g, op, 0);
		args[1] = ival(g, op, 1);
		r = call(g, "llvm.nvvm.mapa.shared.cluster", args, 2, nm);
		break;
	case IR_WGMMA_DESC: case IR_WGMMA: case IR_WGMMA_FENCE: case IR_WGMMA_COMMIT:
	case IR_WGMMA_WAIT: case IR_WGMMA_STORE: case IR_WGMMA_LOAD:
		lg_wgmma_op(g, op);
		return;
	case IR_TMEM_ALLOC: case IR_TMEM_DEALLOC: case IR_TMEM_RELINQUISH: case IR_TCGEN05_DESC:
	case IR_TCGEN05_MMA: case IR_TCGEN05_COMMIT: case IR_TCGEN05_LD: case IR_TCGEN05_ST:
	case IR_TCGEN05_WAIT_LD: case IR_TCGEN05_WAIT_ST: case IR_TCGEN05_FENCE_BEFORE:
	case IR_TCGEN05_FENCE_AFTER:
		lg_tcgen05_op(g, op);
		return;
	default:
		lg_error(g, op, "'%s' cannot be lowered here", ir_opinfo[op->opc].name);
		return;
	}
	if (op->nres)
		lg_bind(g, op->res[0], r ? r : LLVMGetPoison(lg_type(g, ir_vtype(g->k, op->res[0]))));
}
