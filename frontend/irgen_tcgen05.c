/* irgen_tcgen05.c: tensor memory and the tcgen05 MMA -> IR (docs/language.md, "Blackwell:
 * tensor memory and tcgen05"; the ops are ir/ops.def's TMEM_* and TCGEN05_* rows).
 *
 * One allocation per CTA holds every `tmem` (ir_tmem_cols of the kernel's IrTmem table,
 * each tmem at its Symbol.col, stage s of a staged one s * COLS further): warp 0 allocates it into the
 * shared slot `tmem.addr` and gives up the permit, and every thread reads the address after
 * fence.before, a CTA barrier and fence.after (the order tcgen05.alloc's write needs). At
 * the kernel's end the same fences and barrier order every thread's tcgen05 work before
 * warp 0 frees the columns. A kernel with tmem has no early return (sema), so every thread
 * reaches both. */
#include "ast.h"

#include <string.h>

static const IrType t_i32 = {IR_I32, 1, 0, 0};
static const IrType t_void = {IR_VOID, 1, 0, 0};

/* if (warpid == 0) { ops of `emit` } */
static void
in_warp0(IrGen *G, void (*emit)(IrGen *G, IrValue arg), IrValue arg)
{
	IrRegion *regs, *outer = G->b.r;
	IrValue w = irb_op(&G->b, IR_WARPID, t_i32, 0, NULL);
	IrValue c = irb_op2(&G->b, IR_CMP_EQ, ir_scalar(IR_I1), w, irgen_c32(G, 0));

	irb_region_op(&G->b, IR_IF, 1, &c, 0, NULL, &regs);
	G->b.r = &regs[0];
	emit(G, arg);
	irb_op(&G->b, IR_YIELD, t_void, 0, NULL);
	G->b.r = &regs[1];
	irb_op(&G->b, IR_YIELD, t_void, 0, NULL);
	G->b.r = outer;
}

/* IR_CTA_PAIR in a cta_group(2) kernel: every tmem and tcgen05 op works for the pair. */
static int64_t
pair_bit(const IrGen *G)
{
	return G->info->cta_group == 2 ? IR_CTA_PAIR : 0;
}

/* With cta_group::2 the warp 0 of both CTAs allocate, each blocking until the other does. */
static void
emit_alloc(IrGen *G, IrValue slot)
{
	irb_imm(&G->b, IR_TMEM_ALLOC, t_void, ir_tmem_cols(G->k) | pair_bit(G), 1, &slot);
	irb_imm(&G->b, IR_TMEM_RELINQUISH, t_void, pair_bit(G), 0, NULL);
}

static void
emit_dealloc(IrGen *G, IrValue base)
{
	irb_imm(&G->b, IR_TMEM_DEALLOC, t_void, ir_tmem_cols(G->k) | pair_bit(G), 1, &base);
}

/* fence.before, barrier, fence.after: tcgen05 work before it is ordered before the tcgen05
 * work of every thread after it. For a pair the barrier is the cluster's: the leader's MMAs
 * write the peer's tensor memory and its commits arrive there, so neither CTA frees its
 * columns (or exits) before the other is done. */
static void
fenced_barrier(IrGen *G)
{
	irb_op(&G->b, IR_TCGEN05_FENCE_BEFORE, t_void, 0, NULL);
	irb_op(&G->b, pair_bit(G) ? IR_CLUSTER_SYNC : IR_BARRIER, t_void, 0, NULL);
	irb_op(&G->b, IR_TCGEN05_FENCE_AFTER, t_void, 0, NULL);
}

void
irgen_tmem_begin(IrGen *G)
{
	IrKernel *k = G->k;
	IrBuffer b;
	IrValue slot;
	int buf, i;

	if (!G->info->ntmems)
		return;
	for (i = 0; i < G->info->ntmems; i++) {
		const Symbol *s = G->info->tmems[i];
		IrTmem t;

		memset(&t, 0, sizeof t);
		t.name = arena_strdup(k->arena, s->name);
		t.cols = (int)s->dims[1];
		t.stages = s->stages;
		t.col = s->col;
		t.elem = (IrBase)s->type.base;
		t.packed = s->packed;
		t.pipeline = s->pipe ? arena_strdup(k->arena, s->pipe->name) : NULL;
		t.writer = s->wrole ? arena_strdup(k->arena, s->wrole->name) : NULL;
		t.reader = s->rrole ? arena_strdup(k->arena, s->rrole->name) : NULL;
		t.loc = s->loc;
		ir_add_tmem(k, t);
	}
	memset(&b, 0, sizeof b);
	b.name = "tmem.addr";
	b.elem = IR_I32;
	b.rank = 1;
	b.dims[0] = 1;
	b.count = 1;
	b.align = 16;
	b.offset = -1;
	b.loc = G->info->tmems[0]->loc;
	b.stages = 1;
	b.pipeline = -1;
	b.alias = -1;
	buf = ir_add_buffer(k, b);
	G->b.loc = b.loc;
	slot = irb_imm(&G->b, IR_SMEM, ir_ptr(IR_SHARED, IR_I32), buf, 0, NULL);
	in_warp0(G, emit_alloc, slot);
	fenced_barrier(G);
	G->tmem_base = irb_imm(&G->b, IR_LOAD, t_i32, 0, 1, &slot);
}

void
irgen_tmem_end(IrGen *G)
{
	if (!G->tmem_base)
		return;
	G->b.loc = G->info->tmems[0]->loc;   /* generated for the declarations: reported there */
	fenced_barrier(G);
	in_warp0(G, emit_dealloc, G->tmem_base);
}

/* The TMEM address of column col (an i32 value, or 0 for none) of tmem d's current stage,
 * at lane `lane` (0 for none). */
static IrValue
tmem_addr(IrGen *G, const Symbol *d, IrValue lane, IrValue col)
{
	IrValue a = irgen_op2(G, IR_ADD, G->tmem_base, irgen_c32(G, d->col));

	if (d->pipe) {
		IrValue st = irgen_stage(G, d->pipe->index);

		a = irgen_op2(G, IR_ADD, a, irgen_op2(G, IR_MUL, st, irgen_c32(G, d->dims[1])));
	}
	if (col)
		a = irgen_op2(G, IR_ADD, a, col);
	if (lane)
		a = irgen_op2(G, IR_ADD, a, irgen_op2(G, IR_SHL, lane, irgen_c32(G, 16)));
	return a;
}

/* Operand A of the MMA at K step `step`: the descriptor of xa, the shared array's step,
 * or for A in tensor memory (at ta) the address of the step's 8 columns (its 16 elements,
 * two per column). */
static IrValue
mma_a_at(IrGen *G, const Symbol *sa, IrValue xa, IrValue ta, int64_t step)
{
	if (sa->kind != SYM_TMEM)
		return irb_imm(&G->b, IR_TCGEN05_DESC, ir_scalar(IR_I64), sa->swizzle, 1, &xa);
	return step ? irgen_op2(G, IR_ADD, ta, irgen_c32(G, 8 * step)) : ta;
}

/* tcgen05_mma(D, A, B, accumulate: E): one tcgen05.mma per 16 of K (32 for fp8: 32 bytes
 * either way), the descriptors advanced by those 32 bytes inside the 128-byte swizzle span
 * each (A in tensor memory: by 8 columns); the first takes E as its enable-input-d, the
 * others accumulate. For a CTA pair the shape is the pair's: M = 256 (A's 128 rows in each
 * CTA), N = twice B's rows. */
void
irgen_tcgen05_mma(IrGen *G, Node *e)
{
	Node *dn = e->list.head, *an = dn->next, *bn = an->next, *acc = bn->next;
	const Symbol *d = dn->sym, *sa = an->sym, *sb = bn->sym;
	IrValue en = irgen_expr(G, acc->lhs), pa = 0, ta = 0, pb, addr, tru, ops[4];
	int64_t step, imm, kstep = ir_is_fp8(sa->type) ? 32 : 16;
	int64_t ksize = sa->kind == SYM_TMEM ? 2 * sa->dims[1] : sa->dims[1];

	G->b.loc = e->loc;
	addr = tmem_addr(G, d, 0, 0);
	if (sa->kind == SYM_TMEM)
		ta = tmem_addr(G, sa, 0, 0);
	else
		pa = irgen_buffer(G, sa);
	pb = irgen_buffer(G, sb);
	tru = irb_const_int(&G->b, ir_scalar(IR_I1), 1);
	imm = pair_bit(G) ? 2 * sb->dims[0] | (2 * sa->dims[0] / 64) << 9 : sb->dims[0] | (sa->dims[0] / 64) << 9;
	imm |= (int64_t)ir_mma_kind(sa->type.base) << 12 | pair_bit(G);
	if (d->type.base == IR_F16)
		imm |= (int64_t)1 << 17;   /* f16 D */
	for (step = 0; step < ksize / kstep; step++) {
		IrValue xa = pa, xb = pb;

		if (step) {
			if (pa)
				xa = irb_op2(&G->b, IR_ELEMPTR, ir_vtype(G->k, pa), pa, irgen_c32(G, kstep * step));
			xb = irb_op2(&G->b, IR_ELEMPTR, ir_vtype(G->k, pb), pb, irgen_c32(G, kstep * step));
		}
		ops[0] = addr;
		ops[1] = mma_a_at(G, sa, xa, ta, step);
		ops[2] = irb_imm(&G->b, IR_TCGEN05_DESC, ir_scalar(IR_I64), sb->swizzle, 1, &xb);
		ops[3] = step ? tru : en;
		irb_imm(&G->b, IR_TCGEN05_MMA, t_void, imm, 4, ops);
	}
}

/* The address of tmem_load's and tmem_store's first cell: lane lane0, column col0 of D's
 * current stage (their operands 2 and 3). */
static IrValue
ldst_addr(IrGen *G, Node *e)
{
	Node *dn = e->list.head;
	IrValue lane = irgen_expr(G, dn->next), col = irgen_expr(G, dn->next->next);

	G->b.loc = e->loc;
	return tmem_addr(G, dn->sym, lane, col);
}

/* The register type of n columns of tmem d: f32 or f32xn, or f16xn (an f16 D's low halves). */
static IrType
ldst_type(const Symbol *d, int n)
{
	return n == 1 ? ir_scalar((IrBase)d->type.base) : ir_vector((IrBase)d->type.base, n);
}

/* tcgen05.ld of n columns at (lane0, column col0 of the current stage), then
 * tcgen05.wait.ld, whose result is the only one read; its lanes are the elements. */
void
irgen_tmem_load(IrGen *G, Node *e, int n, IrValue *out)
{
	IrValue addr = ldst_addr(G, e), v;
	IrType t = ldst_type(e->list.head->sym, n);
	int i;

	v = irb_imm(&G->b, IR_TCGEN05_LD, t, n, 1, &addr);
	v = irb_op(&G->b, IR_TCGEN05_WAIT_LD, t, 1, &v);
	for (i = 0; i < n; i++)
		out[i] = n == 1 ? v : irb_imm(&G->b, IR_EXTRACT, ir_scalar((IrBase)t.base), i, 1, &v);
}

/* tcgen05.st of the register array's elements (a vector of them: f32xn, or f16xn for an
 * f16 D; of pairs of them packed into f32 words for a packed A operand), then
 * tcgen05.wait.st: the cells are written when the statement ends, so the fence.before of
 * the consume's release publishes them (expand_async). */
/* The n 32-bit words of a 16-bit register array: elements 2j (low half) and 2j + 1 (high)
 * in word j, as an f32 of those bits (tcgen05.st moves bits; an A operand's layout). */
static void
pack_pairs(IrGen *G, const Symbol *r, int n, IrValue *w)
{
	IrType two = ir_vector((IrBase)r->type.base, 2);
	int j;

	for (j = 0; j < n; j++) {
		IrValue v = irb_op(&G->b, IR_VEC, two, 2, &G->slots[r->slot + 2 * j]);

		w[j] = irb_op(&G->b, IR_BITCAST, ir_scalar(IR_F32), 1, &v);
	}
}

void
irgen_tmem_store(IrGen *G, Node *e)
{
	const Symbol *d = e->list.head->sym, *r = e->list.head->next->next->next->sym;
	IrValue ops[2], packed[128], *w = &G->slots[r->slot];   /* 128: tcgen05.st .x128 */
	int n = r->count;

	ops[0] = ldst_addr(G, e);
	if (d->packed) {
		n /= 2;
		pack_pairs(G, r, n, packed);
		w = packed;
	}
	ops[1] = n == 1 ? w[0] : irb_op(&G->b, IR_VEC, d->packed ? ir_vector(IR_F32, n) : ldst_type(d, n), n, w);
	irb_imm(&G->b, IR_TCGEN05_ST, t_void, n, 2, ops);
	irb_op(&G->b, IR_TCGEN05_WAIT_ST, t_void, 0, NULL);
}
