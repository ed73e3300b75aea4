/* backend_ptx/llvm_tcgen05.c: the LLVM IR for tensor memory and tcgen05 (targets with
 * FEAT_TMEM and FEAT_TCGEN05: sm_100a, sm_103a) through LLVM 22's llvm.nvvm.tcgen05.*
 * intrinsics: alloc, dealloc, relinquish, mma (A from a descriptor or from TMEM), commit
 * (with or without multicast), ld/st .32x32b (f16 registers: .pack::16b/.unpack::16b), the
 * waits and the fences; the descriptors.
 *
 * A TMEM address is an IR i32 (lane << 16 | column); the intrinsics take it as a
 * ptr addrspace(6), which is 32-bit (NVPTX's datalayout p6:32:32), made by inttoptr.
 * NVPTX aborts the process ("Cannot select") on a tcgen05 intrinsic the target lacks: the
 * verifier's target gating and attribute rules (ir/verify_tmem.c) keep every op that gets
 * here to the forms both targets have (kinds f16 and f8f6f4, no i8, no shift). */
#include "llvm_gen.h"

#include <stdio.h>

#define AS_TMEM 6

static LLVMValueRef
call(LlvmGen *g, const char *name, LLVMValueRef *args, int nargs, const char *nm)
{
	return lg_intrinsic(g, name, NULL, 0, args, nargs, nm);
}

static int
cta_group(const IrOp *op)
{
	return op->imm & IR_CTA_PAIR ? 2 : 1;
}

static LLVMValueRef
tmem_ptr(LlvmGen *g, const IrOp *op, int i)
{
	return LLVMBuildIntToPtr(g->b, lg_arg(g, op, i), LLVMPointerTypeInContext(g->ctx, AS_TMEM), "");
}

static LLVMValueRef
i1c(LlvmGen *g, int v)
{
	return LLVMConstInt(LLVMInt1TypeInContext(g->ctx), (unsigned long long)v, 0);
}

/* tmem.alloc (the address goes to the shared slot), tmem.dealloc, tmem.relinquish. */
static void
alloc_op(LlvmGen *g, const IrOp *op)
{
	LLVMValueRef args[2];
	char name[64];

	switch (op->opc) {
	case IR_TMEM_ALLOC:
		args[0] = lg_arg(g, op, 0);
		args[1] = lg_c32(g, op->imm & 0xffff);
		snprintf(name, sizeof name, "llvm.nvvm.tcgen05.alloc.shared.cg%d", cta_group(op));
		call(g, name, args, 2, "");
		break;
	case IR_TMEM_DEALLOC:
		args[0] = tmem_ptr(g, op, 0);
		args[1] = lg_c32(g, op->imm & 0xffff);
		snprintf(name, sizeof name, "llvm.nvvm.tcgen05.dealloc.cg%d", cta_group(op));
		call(g, name, args, 2, "");
		break;
	default:
		snprintf(name, sizeof name, "llvm.nvvm.tcgen05.relinq.alloc.permit.cg%d", cta_group(op));
		call(g, name, NULL, 0, "");
		break;
	}
}

/* The instruction descriptor (PTX ISA, tcgen05 "Instruction descriptor") of tcgen05.mma's
 * attribute N | M / 64 << 9 | kind << 12 | cta_group::2 << 16 | f16 D << 17: D's format in
 * bits 4-5 (f16 0, f32 1), A's and B's in 7-9 and 10-12 (kind f16: f16 0, bf16 1; kind
 * f8f6f4: e4m3 0, e5m2 1), both K-major (bits 15, 16 clear: A in tensor memory must be),
 * N >> 3 in 17-22, M >> 4 in 24-28 (cta_group::2: the pair's M). bf16 into f32, M 128,
 * N 256 gives 0x08400490. */
static uint32_t
mma_idesc(int64_t imm)
{
	uint32_t n = (uint32_t)(imm & 0x1ff), m = (uint32_t)((imm >> 9) & 7) * 64;
	uint32_t kind = (uint32_t)((imm >> 12) & 0xf), f16d = (uint32_t)((imm >> 17) & 1);
	uint32_t ab = kind == IR_MMA_BF16 || kind == IR_MMA_E5M2;    /* format 1 */

	return (f16d ? 0 : 1u) << 4 | ab << 7 | ab << 10 | (n >> 3) << 17 | (m >> 4) << 24;
}

/* tcgen05.mma d, a, b, e: .shared when A is a descriptor, .tensor when A is in TMEM. */
static void
mma(LlvmGen *g, const IrOp *op)
{
	int tensor = ir_type_eq(ir_vtype(g->k, op->args[1]), ir_scalar(IR_I32)) ||
		     ir_type_eq(ir_vtype(g->k, op->args[1]), ir_scalar(IR_U32));
	int kind = (int)((op->imm >> 12) & 0xf);
	LLVMValueRef args[8];

	if (kind > IR_MMA_E5M2) {
		lg_error(g, op, "kind %d (the verifier allows 0 to 3)", kind);
		return;
	}
	args[0] = tmem_ptr(g, op, 0);
	args[1] = tensor ? tmem_ptr(g, op, 1) : lg_arg(g, op, 1);
	args[2] = lg_arg(g, op, 2);
	args[3] = lg_c32(g, mma_idesc(op->imm));
	args[4] = lg_arg(g, op, 3);
	args[5] = lg_c32(g, kind < IR_MMA_E4M3 ? 0 : 2);            /* the intrinsic's kind: f16 0, f8f6f4 2 */
	args[6] = lg_c32(g, cta_group(op));
	args[7] = lg_c32(g, 0);                           /* collector::a::discard, the default */
	call(g, tensor ? "llvm.nvvm.tcgen05.mma.tensor" : "llvm.nvvm.tcgen05.mma.shared", args, 8, "");
}

/* tcgen05.commit: one arrival on the mbarrier (or, with the mask, on the barrier at the same
 * offset in each CTA of the mask) once this thread's earlier MMAs completed. */
static void
commit(LlvmGen *g, const IrOp *op)
{
	LLVMValueRef args[2];
	char name[64];

	args[0] = lg_arg(g, op, 0);
	if (op->nargs == 2)
		args[1] = lg_arg(g, op, 1);
	snprintf(name, sizeof name, "llvm.nvvm.tcgen05.commit%s.shared.cg%d", op->nargs == 2 ? ".mc" : "",
		 cta_group(op));
	call(g, name, args, op->nargs == 2 ? 2 : 1, "");
}

/* The i32 or <n x i32> of the intrinsics as the IR's .x<n> register type and back. */
static LLVMTypeRef
words_type(LlvmGen *g, int n)
{
	return n == 1 ? lg_i32t(g) : LLVMVectorType(lg_i32t(g), (unsigned)n);
}

/* Binds v (the IR type of .x<n>) to the ld's words lane by lane: a bitcast of the whole
 * <n x i32> makes NVPTX copy the registers pairwise (mov.b64) right after the ld, reading
 * them before tcgen05.wait::ld; per-lane bitcasts are free. */
static void
bind_words(LlvmGen *g, IrValue v, LLVMValueRef r, int n, const char *nm)
{
	IrType t = ir_vtype(g->k, v);
	LLVMTypeRef et = lg_type(g, ir_scalar((IrBase)t.base));
	LLVMValueRef lanes[128], vec;
	int i;

	if (n == 1) {
		lg_bind(g, v, LLVMBuildBitCast(g->b, r, et, nm));
		return;
	}
	for (i = 0; i < n; i++)
		lanes[i] = LLVMBuildBitCast(g->b, LLVMBuildExtractElement(g->b, r, lg_c32(g, i), ""), et, "");
	if (lg_is_frag(t)) {
		lg_bind_lanes(g, v, lanes, n);
		return;
	}
	vec = LLVMGetPoison(lg_type(g, t));
	for (i = 0; i < n; i++)
		vec = LLVMBuildInsertElement(g->b, vec, lanes[i], lg_c32(g, i), i == n - 1 ? nm : "");
	lg_bind(g, v, vec);
}

/* f16 registers of n columns (f16x8 .. f16x128, lanes held one by one): the low halves of
 * the cells, two per word, column 2i in the low half of word i (.pack::16b reads adjacent
 * columns into one register, the lower column in the lower half, as every PTX x2 pair). */
static void
bind_halves(LlvmGen *g, IrValue v, LLVMValueRef r, int n)
{
	LLVMTypeRef ht = LLVMVectorType(LLVMHalfTypeInContext(g->ctx), 2);
	LLVMValueRef lanes[128], w;
	int i;

	for (i = 0; i < n; i += 2) {
		w = LLVMBuildBitCast(g->b, LLVMBuildExtractElement(g->b, r, lg_c32(g, i / 2), ""), ht, "");
		lanes[i] = LLVMBuildExtractElement(g->b, w, lg_c32(g, 0), "");
		lanes[i + 1] = LLVMBuildExtractElement(g->b, w, lg_c32(g, 1), "");
	}
	lg_bind_lanes(g, v, lanes, n);
}

/* The words of f16 registers: lanes 2i and 2i + 1 in word i. */
static LLVMValueRef
pack_halves(LlvmGen *g, const IrOp *op, IrValue v, int n)
{
	LLVMTypeRef ht = LLVMVectorType(LLVMHalfTypeInContext(g->ctx), 2);
	LLVMValueRef *l = lg_lanes(g, op, v), words = LLVMGetPoison(words_type(g, n / 2)), w;
	int i;

	for (i = 0; i < n; i += 2) {
		w = LLVMBuildInsertElement(g->b, LLVMGetPoison(ht), l[i], lg_c32(g, 0), "");
		w = LLVMBuildInsertElement(g->b, w, l[i + 1], lg_c32(g, 1), "");
		words = LLVMBuildInsertElement(g->b, words, LLVMBuildBitCast(g->b, w, lg_i32t(g), ""),
					       lg_c32(g, i / 2), "");
	}
	return words;
}

/* tcgen05.ld/st of n columns: .32x32b.x<n> of f32/i32 words, or for f16 registers (an f16
 * accumulator's cells) .x<n/2> with .pack::16b/.unpack::16b, two cells per register. */
static void
ld_st(LlvmGen *g, const IrOp *op)
{
	int n = (int)(op->imm & 0xffff), st = op->opc == IR_TCGEN05_ST;
	int half = ir_vtype(g->k, st ? op->args[1] : op->res[0]).base == IR_F16, x = half ? n / 2 : n;
	LLVMValueRef args[3], r;
	char name[64], nm[32];

	if (n < 1 || n > 128 || (n & (n - 1)) || (half && n < 8)) {
		lg_error(g, op, "%d columns (the verifier allows 1, 2, 4 .. 128; f16: 8 .. 128)", n);
		return;
	}
	args[0] = tmem_ptr(g, op, 0);
	if (st) {
		args[1] = half ? pack_halves(g, op, op->args[1], n) : LLVMBuildBitCast(g->b, lg_arg(g, op, 1), words_type(g, n), "");
		args[2] = i1c(g, half);                   /* .unpack::16b */
		snprintf(name, sizeof name, "llvm.nvvm.tcgen05.st.32x32b.x%d", x);
		call(g, name, args, 3, "");
		return;
	}
	args[1] = i1c(g, half);                           /* .pack::16b */
	snprintf(name, sizeof name, "llvm.nvvm.tcgen05.ld.32x32b.x%d", x);
	lg_result_name(op, nm, sizeof nm);
	r = call(g, name, args, 2, "");
	if (half)
		bind_halves(g, op->res[0], r, n);
	else
		bind_words(g, op->res[0], r, n, nm);
}

void
lg_tcgen05_op(LlvmGen *g, const IrOp *op)
{
	char nm[32];

	lg_result_name(op, nm, sizeof nm);
	switch (op->opc) {
	case IR_TMEM_ALLOC: case IR_TMEM_DEALLOC: case IR_TMEM_RELINQUISH:
		alloc_op(g, op);
		break;
	case IR_TCGEN05_DESC:
		lg_bind(g, op->res[0], lg_matrix_desc(g, op, UINT64_C(1) << 46, nm));
		break;
	case IR_TCGEN05_MMA: mma(g, op); break;
	case IR_TCGEN05_COMMIT: commit(g, op); break;
	case IR_TCGEN05_LD: case IR_TCGEN05_ST: ld_st(g, op); break;
	case IR_TCGEN05_WAIT_LD:
		/* Not llvm.nvvm.tcgen05.wait.ld: the ld intrinsic's results are plain SSA values,
		 * and nothing stops LLVM from moving their (pure) uses above a call that merely
		 * has side effects, which would read the registers before the load landed. An
		 * asm statement that takes every word of the results in and gives them back
		 * ("=r"/"=f" tied to the inputs) makes each later use depend on the wait, as
		 * wgmma.wait does for accumulators. With no operands the intrinsic suffices. */
		if (op->nargs)
			lg_tied_sync(g, op, "tcgen05.wait::ld.sync.aligned;");
		else
			call(g, "llvm.nvvm.tcgen05.wait.ld", NULL, 0, "");
		break;
	case IR_TCGEN05_WAIT_ST: call(g, "llvm.nvvm.tcgen05.wait.st", NULL, 0, ""); break;
	case IR_TCGEN05_FENCE_BEFORE: call(g, "llvm.nvvm.tcgen05.fence.before.thread.sync", NULL, 0, ""); break;
	case IR_TCGEN05_FENCE_AFTER: call(g, "llvm.nvvm.tcgen05.fence.after.thread.sync", NULL, 0, ""); break;
	default:
		lg_error(g, op, "'%s' cannot be lowered here", ir_opinfo[op->opc].name);
		break;
	}
}
