/* irgen_wgmma.c: warpgroup MMA -> IR (docs/language.md, "wgmma and accumulator
 * fragments"): wgmma expanded into K/16 k16 steps between a fence and a commit, and
 * store(tensor, acc, [row, col]) into the unrolled per-thread stores of the m64nN
 * accumulator layout. */
#include "ast.h"

#include <stdlib.h>

/* An op that passes its n operands through (wgmma.fence, wgmma.wait): out[i] is the
 * result for in[i]. */
static void
pass_through(IrGen *G, int opc, int64_t imm, int n, const IrValue *in, IrValue *out)
{
	IrOp op;
	int i;

	ir_op_init(G->k, &op, opc, n, n, 0, G->b.loc);
	op.imm = imm;
	for (i = 0; i < n; i++) {
		op.args[i] = in[i];
		op.res[i] = out[i] = ir_new_value(G->k, ir_vtype(G->k, in[i]));
		G->k->vlocs[out[i]] = G->b.loc;
	}
	ir_region_push(G->b.r, &op);
}

/* The RS form, acc = wgmma(acc, a, B) with a register A fragment: wgmma.fence of the
 * accumulator and A (the ISA wants a fence between writing A's registers, often by the
 * conversion just before, and the wgmma that reads them), one wgmma per k16 slice of A,
 * wgmma.commit and wgmma.wait[0] of both, in consume blocks too: A's registers must not
 * change while the wgmmas are in flight, and the wait, which ties them, keeps them live
 * and unchanged until the wgmmas retired. */
static IrValue
wgmma_rs(IrGen *G, Node *e, IrValue acc, IrType ft)
{
	Node *a = e->list.head->next, *bn = a->next;
	const Symbol *sb = bn->sym;
	IrValue va, pb, tru, in[2], out[2], ops[4];
	int64_t step, nsteps;
	int n = ft.lanes * 2;

	va = irgen_expr(G, a);
	nsteps = ir_vtype(G->k, va).lanes / 8;
	G->b.loc = e->loc;
	pb = irgen_buffer(G, sb);
	tru = irb_const_int(&G->b, ir_scalar(IR_I1), 1);
	in[0] = acc;
	in[1] = va;
	pass_through(G, IR_WGMMA_FENCE, 0, 2, in, out);
	acc = out[0];
	for (step = 0; step < nsteps; step++) {
		IrValue xb = pb;

		if (step)
			xb = irb_op2(&G->b, IR_ELEMPTR, ir_vtype(G->k, pb), pb, irgen_c32(G, 16 * step));
		ops[0] = acc;
		ops[1] = out[1];
		ops[2] = irb_imm(&G->b, IR_WGMMA_DESC, ir_scalar(IR_I64), sb->swizzle, 1, &xb);
		ops[3] = tru;
		acc = irb_imm(&G->b, IR_WGMMA, ft, n | (sb->type.base == IR_F16 ? 1 << 16 : 0) | step << 20, 4, ops);
	}
	irb_op(&G->b, IR_WGMMA_COMMIT, ir_scalar(IR_VOID), 0, NULL);
	in[0] = acc;
	in[1] = out[1];
	pass_through(G, IR_WGMMA_WAIT, 0, 2, in, out);
	return out[0];
}

/* acc = wgmma(acc, A, B): wgmma.fence, one m64nNk16 wgmma per 16 of K with the
 * descriptors advanced by 16 elements (32 bytes) each, wgmma.commit; outside consume
 * blocks wgmma.wait[0] (a consume block's lowering waits before releasing its stage). */
IrValue
irgen_wgmma(IrGen *G, Node *e)
{
	Node *a = e->list.head->next, *bn = a->next;
	const Symbol *sa = a->sym, *sb = bn->sym;
	IrType ft = e->ty;
	IrValue acc, pa, pb, tru, ops[4];
	int64_t kdim, step;
	int n = ft.lanes * 2;

	acc = irgen_expr(G, e->list.head);
	if (ir_is_afrag(a->ty))
		return wgmma_rs(G, e, acc, ft);
	kdim = sa->dims[1];
	if (a->kind == N_CALL) {
		IrValue start = irgen_expr(G, a->list.head);

		G->b.loc = e->loc;
		pa = irgen_buffer(G, sa);
		start = irgen_op2(G, IR_MUL, start, irgen_c32(G, kdim));
		pa = irb_op2(&G->b, IR_ELEMPTR, ir_vtype(G->k, pa), pa, start);
	} else {
		G->b.loc = e->loc;
		pa = irgen_buffer(G, sa);
	}
	pb = irgen_buffer(G, sb);
	tru = irb_const_int(&G->b, ir_scalar(IR_I1), 1);
	acc = irb_op(&G->b, IR_WGMMA_FENCE, ft, 1, &acc);
	for (step = 0; step < kdim / 16; step++) {
		IrValue xa = pa, xb = pb;

		if (step) {
			xa = irb_op2(&G->b, IR_ELEMPTR, ir_vtype(G->k, pa), pa, irgen_c32(G, 16 * step));
			xb = irb_op2(&G->b, IR_ELEMPTR, ir_vtype(G->k, pb), pb, irgen_c32(G, 16 * step));
		}
		ops[0] = acc;
		ops[1] = irb_imm(&G->b, IR_WGMMA_DESC, ir_scalar(IR_I64), sa->swizzle, 1, &xa);
		ops[2] = irb_imm(&G->b, IR_WGMMA_DESC, ir_scalar(IR_I64), sb->swizzle, 1, &xb);
		ops[3] = tru;
		acc = irb_imm(&G->b, IR_WGMMA, ft, n | (sa->type.base == IR_F16 ? 1 << 16 : 0), 4, ops);
	}
	irb_op(&G->b, IR_WGMMA_COMMIT, ir_scalar(IR_VOID), 0, NULL);
	if (!G->nconsume)
		acc = irb_imm(&G->b, IR_WGMMA_WAIT, ft, 0, 1, &acc);
	return acc;
}

/* bf16a(acc), f16a(acc): a cast lane by lane (asy_wgmma_afrag says why that is all). */
IrValue
irgen_wgmma_afrag(IrGen *G, Node *e)
{
	IrValue acc = irgen_expr(G, e->list.head);

	G->b.loc = e->loc;
	return irb_op1(&G->b, IR_CAST, e->ty, acc);
}

/* i32, or i64 under index(i64): the type of tensor index arithmetic */
static IrType
index_type(const IrGen *G)
{
	return ir_scalar(G->info->index64 ? IR_I64 : IR_I32);
}

/* A tensor dimension as a value of the kernel's index type (i32, or i64 under
 * index(i64)). */
static IrValue
dim_of(IrGen *G, const Symbol *t, int i)
{
	if (t->dimsym[i])
		return G->k->body.args[t->dimsym[i]->param];
	return irb_const_int(&G->b, index_type(G), t->dims[i]);
}

/* v (i32) widened to the index type */
static IrValue
to_index(IrGen *G, IrValue v)
{
	return G->info->index64 ? irb_op1(&G->b, IR_CAST, index_type(G), v) : v;
}

static IrValue
to_elem(IrGen *G, IrValue v, IrType t)
{
	if (ir_type_eq(ir_vtype(G->k, v), t))
		return v;
	return irb_op1(&G->b, IR_CAST, t, v);
}

/* Builds `if (c) { then } else { ... }` with no results and leaves the builder in the then
 * region; *els is the else region, the return value the region to go back to. */
static IrRegion *
begin_if(IrGen *G, IrValue c, IrRegion **els)
{
	IrRegion *regs, *outer = G->b.r;

	irb_region_op(&G->b, IR_IF, 1, &c, 0, NULL, &regs);
	G->b.r = &regs[0];
	*els = &regs[1];
	return outer;
}

static void
end_region(IrGen *G)
{
	irb_op(&G->b, IR_YIELD, ir_scalar(IR_VOID), 0, NULL);
}

/* store(tensor, acc, [row0, col0]) of an m64nN f32 accumulator: thread t of the
 * warpgroup holds rows 16 * (t / 32) + (t % 32) / 4 + 8 * i and columns
 * 8 * j + 2 * (t % 4) + e in register j * 4 + i * 2 + e (i, e in 0..1).
 *
 * Two straight runs of code, no branch per element: where the whole 64 x N block lies
 * inside the tensor and every row starts at an even element (N and col0 even), each pair
 * of columns is one plain 2-wide store; otherwise every element is one predicated scalar
 * store (store.if) that skips the rows and columns outside the tensor. */
void
irgen_wgmma_store(IrGen *G, Node *e)
{
	Node *tn = e->list.head, *an = tn->next, *cn = an->next;
	const Symbol *t = tn->sym;
	IrType et = ir_scalar((IrBase)t->type.base), vt = ir_vector((IrBase)t->type.base, 2);
	IrType f2 = ir_vector(IR_F32, 2), i1 = ir_scalar(IR_I1), vd = ir_scalar(IR_VOID);
	IrType pt = ir_ptr(IR_GLOBAL, (IrBase)t->type.base), it = index_type(G);
	IrValue acc, row0, col0, lane, wq, rb, cb, nrows, ncols, base, one, zero, left, full;
	IrValue prow[2], rowin[2], *inc;
	IrRegion *outer, *els;
	int i, j, k, n = an->ty.lanes * 2;

	acc = irgen_expr(G, an);
	row0 = irgen_expr(G, cn->list.head);
	col0 = irgen_expr(G, cn->list.head->next);
	G->b.loc = e->loc;
	base = G->k->body.args[t->param];
	nrows = dim_of(G, t, 0);
	ncols = dim_of(G, t, 1);
	one = irb_const_int(&G->b, it, 1);
	zero = irb_const_int(&G->b, it, 0);
	lane = irb_op(&G->b, IR_LANEID, ir_scalar(IR_I32), 0, NULL);
	wq = irb_op(&G->b, IR_WARPID, ir_scalar(IR_I32), 0, NULL);
	wq = irgen_op2(G, IR_AND, wq, irgen_c32(G, 3));
	rb = irgen_op2(G, IR_ADD, irgen_op2(G, IR_MUL, wq, irgen_c32(G, 16)), irgen_op2(G, IR_SHR, lane, irgen_c32(G, 2)));
	rb = irgen_op2(G, IR_ADD, row0, rb);
	cb = irgen_op2(G, IR_ADD, col0, irgen_op2(G, IR_MUL, irgen_op2(G, IR_AND, lane, irgen_c32(G, 3)), irgen_c32(G, 2)));
	/* rows and columns are i32; the element offsets take the index type */
	rb = to_index(G, rb);
	cb = to_index(G, cb);
	row0 = to_index(G, row0);
	col0 = to_index(G, col0);
	for (i = 0; i < 2; i++) {
		IrValue r = i ? irgen_op2(G, IR_ADD, rb, irb_const_int(&G->b, it, 8)) : rb;

		rowin[i] = irb_op2(&G->b, IR_CMP_LT, i1, r, nrows);
		prow[i] = irb_op2(&G->b, IR_ELEMPTR, pt, base, irgen_op2(G, IR_ADD, irgen_op2(G, IR_MUL, r, ncols), cb));
	}
	/* the whole block inside (row0 + 64 <= M, col0 + N <= ncols) with even rows: the same
	 * for every thread of the warpgroup */
	full = irb_op2(&G->b, IR_CMP_LE, i1, irgen_op2(G, IR_ADD, row0, irb_const_int(&G->b, it, 64)), nrows);
	full = irgen_op2(G, IR_AND, full, irb_op2(&G->b, IR_CMP_LE, i1, irgen_op2(G, IR_ADD, col0, irb_const_int(&G->b, it, n)), ncols));
	full = irgen_op2(G, IR_AND, full, irb_op2(&G->b, IR_CMP_EQ, i1, irgen_op2(G, IR_AND, irgen_op2(G, IR_OR, ncols, col0), one), zero));
	outer = begin_if(G, full, &els);
	for (i = 0; i < 2; i++)
		for (j = 0; j < n / 8; j++) {
			IrValue v[2], p;

			v[0] = irb_imm(&G->b, IR_EXTRACT, ir_scalar(IR_F32), j * 4 + i * 2, 1, &acc);
			v[1] = irb_imm(&G->b, IR_EXTRACT, ir_scalar(IR_F32), j * 4 + i * 2 + 1, 1, &acc);
			p = j ? irb_op2(&G->b, IR_ELEMPTR, pt, prow[i], irgen_c32(G, 8 * j)) : prow[i];
			irb_op2(&G->b, IR_STORE, vd, p, to_elem(G, irb_op(&G->b, IR_VEC, f2, 2, v), vt));
		}
	end_region(G);
	G->b.r = els;
	/* columns left in the tensor from this thread's first: column 8 j + k is inside when
	 * left > 8 j + k */
	left = irgen_op2(G, IR_SUB, ncols, cb);
	inc = xcalloc((size_t)n / 4, sizeof *inc);
	for (j = 0; j < n / 4; j++)
		inc[j] = irb_op2(&G->b, IR_CMP_GT, i1, left, irb_const_int(&G->b, it, 8 * (j / 2) + j % 2));
	for (i = 0; i < 2; i++) {
		IrRegion *o2, *e2;

		o2 = begin_if(G, rowin[i], &e2);
		for (j = 0; j < n / 8; j++)
			for (k = 0; k < 2; k++) {
				IrValue args[3];

				args[0] = j || k ? irb_op2(&G->b, IR_ELEMPTR, pt, prow[i], irgen_c32(G, 8 * j + k)) : prow[i];
				args[1] = to_elem(G, irb_imm(&G->b, IR_EXTRACT, ir_scalar(IR_F32), j * 4 + i * 2 + k, 1, &acc), et);
				args[2] = inc[2 * j + k];
				irb_op(&G->b, IR_STORE_IF, vd, 3, args);
			}
		end_region(G);
		G->b.r = e2;
		end_region(G);
		G->b.r = o2;
	}
	free(inc);
	end_region(G);
	G->b.r = outer;
}
