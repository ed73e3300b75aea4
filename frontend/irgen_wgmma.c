/* irgen_wgmma.c: warpgroup MMA -> IR (docs/language.md, "wgmma and accumulator
 * fragments"): wgmma expanded into one instruction per 32 bytes of K between a fence and a commit, and
 * store(tensor, x, [row, col]) into one op: wgmma.store of an m64nN accumulator, or
 * store.row of a register array. */
#include "ast.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* A shared operand's start: the array, or buf.rows(start, n) of it (start rows of K). */
static IrValue
operand_base(IrGen *G, Node *e, Node *a, const Symbol *sb)
{
	IrValue p, start;

	if (a->kind != N_CALL) {
		G->b.loc = e->loc;
		return irgen_buffer(G, sb);
	}
	start = irgen_expr(G, a->list.head);
	G->b.loc = e->loc;
	p = irgen_buffer(G, sb);
	start = irgen_op2(G, IR_MUL, start, irgen_c32(G, sb->dims[1]));
	return irb_op2(&G->b, IR_ELEMPTR, ir_vtype(G->k, p), p, start);
}

/* Operand B's descriptor for K step `step` (kk elements of K a step): K-major, kk elements
 * further along its rows; N-major (`buf.T`, panels of W columns each K rows, stacked), kk
 * rows further, the panels K rows of the span apart (the leading byte offset). */
static IrValue
b_desc(IrGen *G, Node *bn, IrValue pb, int n, int kk, int64_t step)
{
	const Symbol *sb = bn->sym;
	int64_t w = sb->swizzle / 2, off = kk * step, imm = sb->swizzle;

	if (bn->kind == N_MEMBER) {
		off *= w;
		imm |= sb->dims[0] / (n / w) * sb->swizzle << 16;
	}
	if (off)
		pb = irb_op2(&G->b, IR_ELEMPTR, ir_vtype(G->k, pb), pb, irgen_c32(G, off));
	return irb_imm(&G->b, IR_WGMMA_DESC, ir_scalar(IR_I64), imm, 1, &pb);
}

/* The first k16 step of a.cols(c0, k) whose c0 is an unroll index: c0 in this unrolled
 * copy, checked here (once per call, not per copy); 0 after an error. */
static int64_t
cols_start(IrGen *G, Node *a)
{
	Node *ix = a->list.head;
	int64_t c0;

	if (!irgen_known(G, ix, &c0))
		return 0;
	if ((c0 % 16 || c0 < 0 || c0 + a->ty.lanes * 2 > a->lhs->ty.lanes * 2) && G->oob != ix) {
		G->oob = ix;
		diag_error(ix->loc, "cols(%lld, %d) of a register A fragment of K = %d: the first column must be a multiple of 16 (a k16 step) and the columns inside it",
			   (long long)c0, a->ty.lanes * 2, a->lhs->ty.lanes * 2);
		return 0;
	}
	return c0 / 16;
}

/* The RS form, acc = wgmma(acc, a, B) with a register A fragment: wgmma.fence of the
 * accumulator and A (the ISA wants a fence between writing A's registers, often by the
 * conversion just before, and the wgmma that reads them), one wgmma per k16 slice of A,
 * wgmma.commit, and outside consume blocks wgmma.wait[0] of both: A's registers must not
 * change while the wgmmas are in flight, and the wait, which ties them, keeps them live
 * and unchanged until the wgmmas retired. In a consume block expand_wgmma_waits places
 * that wait, tying A too. */
static IrValue
wgmma_rs(IrGen *G, Node *e, IrValue acc, IrType ft)
{
	Node *a = e->list.head->next, *bn = a->next;
	const Symbol *sb = bn->sym;
	IrValue va, pb, tru, in[2], out[2], ops[4];
	int cols = a->kind == N_CALL && a->lhs, n = ft.lanes * 2;
	int64_t step, first = cols ? a->ival / 16 : 0, nsteps = a->ty.lanes / 8;

	if (cols && a->ival < 0)
		first = cols_start(G, a);

	/* a.cols(c0, k): the k16 steps c0 / 16 .. of a's registers (first), k / 16 of them */
	va = irgen_expr(G, cols ? a->lhs : a);
	pb = operand_base(G, e, bn, sb);
	tru = irb_const_int(&G->b, ir_scalar(IR_I1), 1);
	in[0] = acc;
	in[1] = va;
	pass_through(G, IR_WGMMA_FENCE, 0, 2, in, out);
	acc = out[0];
	for (step = 0; step < nsteps; step++) {
		ops[0] = acc;
		ops[1] = out[1];
		ops[2] = b_desc(G, bn, pb, n, 16, step);
		ops[3] = tru;
		acc = irb_imm(&G->b, IR_WGMMA, ft, n | (int64_t)ir_mma_kind(sb->type.base) << 16 | (first + step) << 20 |
			      (bn->kind == N_MEMBER ? IR_WGMMA_BT : 0), 4, ops);
	}
	irb_op(&G->b, IR_WGMMA_COMMIT, ir_scalar(IR_VOID), 0, NULL);
	if (G->nconsume)
		return acc;
	in[0] = acc;
	in[1] = out[1];
	pass_through(G, IR_WGMMA_WAIT, 0, 2, in, out);
	return out[0];
}

/* acc = wgmma(acc, A, B): wgmma.fence, one wgmma per 32 bytes of K (m64nNk16 for bf16 and
 * f16, k32 for fp8, k8 for tf32) with the descriptors advanced by 32 bytes each,
 * wgmma.commit; outside consume blocks wgmma.wait[0] (a consume block's lowering waits
 * before releasing its stage). */
IrValue
irgen_wgmma(IrGen *G, Node *e)
{
	Node *a = e->list.head->next, *bn = a->next;
	const Symbol *sa = a->sym, *sb = bn->sym;
	IrType ft = e->ty;
	IrValue acc, pa, pb, tru, ops[4];
	int64_t kdim, step;
	int n = ft.lanes * 2, kind, kk;

	acc = irgen_expr(G, e->list.head);
	if (ir_is_afrag(a->ty))
		return wgmma_rs(G, e, acc, ft);
	kind = ir_mma_kind(sa->type.base);
	kk = ir_mma_kind_k(kind);
	kdim = sa->dims[1];
	pa = operand_base(G, e, a, sa);
	pb = operand_base(G, e, bn, sb);
	tru = irb_const_int(&G->b, ir_scalar(IR_I1), 1);
	acc = irb_op(&G->b, IR_WGMMA_FENCE, ft, 1, &acc);
	for (step = 0; step < kdim / kk; step++) {
		IrValue xa = pa;

		if (step)
			xa = irb_op2(&G->b, IR_ELEMPTR, ir_vtype(G->k, pa), pa, irgen_c32(G, kk * step));
		ops[0] = acc;
		ops[1] = irb_imm(&G->b, IR_WGMMA_DESC, ir_scalar(IR_I64), sa->swizzle, 1, &xa);
		ops[2] = b_desc(G, bn, pb, n, kk, step);
		ops[3] = tru;
		acc = irb_imm(&G->b, IR_WGMMA, ft, n | (int64_t)kind << 16 | (bn->kind == N_MEMBER ? IR_WGMMA_BT : 0), 4, ops);
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

/* IR_TILE_PAIRED where call e says `paired: true` (mma_wgmma.c's paired_arg checked it). */
static int64_t
tile_paired(const Node *e)
{
	const Node *a;

	for (a = e->list.head; a; a = a->next)
		if (a->kind == N_NAMED && strcmp(a->name, "paired") == 0 && a->lhs->cv.i)
			return IR_TILE_PAIRED;
	return 0;
}

/* The place of a 2-dimensional tile, as store.row, wgmma.store and wgmma.load take it: the
 * matrix's pointer, rows and columns, then row and col in the index type (evaluated first,
 * as written); the result is IR_TILE_TRANSPOSED for a `.T` tile (rows and columns are then
 * the transpose's), else 0. tn is the tile argument (mma_wgmma.c's tile_arg: a tensor,
 * t[i, ...] of a larger one, either with .T), cn the [row, col] list of call e. */
static int64_t
shared_place(IrGen *G, Node *e, Node *base, Node *cn, int tr, IrValue *out)
{
	const Symbol *b = base->sym;
	int64_t cols = b->rank == 2 ? b->dims[1] : b->dims[0];

	out[0] = operand_base(G, e, base, b);
	out[3] = to_index(G, irgen_expr(G, cn->list.head));
	out[4] = to_index(G, irgen_expr(G, cn->list.head->next));
	G->b.loc = e->loc;
	out[1 + tr] = irb_const_int(&G->b, index_type(G), base->ival);
	out[2 - tr] = irb_const_int(&G->b, index_type(G), cols);
	return (tr ? IR_TILE_TRANSPOSED | tile_paired(e) : 0) | IR_TILE_SWIZZLE_BITS(b->swizzle);
}

static int64_t
tile_place(IrGen *G, Node *e, Node *tn, Node *cn, IrValue *out)
{
	const Symbol *t = tn->sym;
	Node *base = tn->kind == N_MEMBER ? tn->lhs : tn;
	int tr = tn->kind == N_MEMBER;

	if (t->kind == SYM_SHARED)
		return shared_place(G, e, base, cn, tr, out);
	out[0] = base->kind == N_INDEX ? irgen_elemptr(G, base) : G->k->body.args[t->param];
	out[3] = to_index(G, irgen_expr(G, cn->list.head));
	out[4] = to_index(G, irgen_expr(G, cn->list.head->next));
	G->b.loc = e->loc;
	out[1 + tr] = dim_of(G, t, t->rank - 2);
	out[2 - tr] = dim_of(G, t, t->rank - 1);
	return tr ? IR_TILE_TRANSPOSED | tile_paired(e) : 0;
}

/* store(tensor, r, [row, col0]) of a register array r: one store.row op of its elements
 * (ir/ops.def), which the backend lowers to 16-byte stores where the row is inside the
 * tensor and aligned, and to predicated stores where it is not. */
static void
irgen_row_store(IrGen *G, Node *e)
{
	const Symbol *r = e->list.head->next->sym;
	IrValue args[5 + IR_MAX_ROW_STORE];
	int j;

	tile_place(G, e, e->list.head, e->list.head->next->next, args);
	for (j = 0; j < r->count; j++)
		args[5 + j] = G->slots[r->slot + j];
	irb_op(&G->b, IR_STORE_ROW, ir_scalar(IR_VOID), 5 + r->count, args);
}

/* store(tensor, acc, [row0, col0]) of an m64nN f32 accumulator: one wgmma.store op (its
 * meaning and the fragment layout are in ir/ops.def; the backend lowers it to two straight
 * runs of code, full tile and partial tile, with no branch per element). Row and column
 * arguments take the index type, as the tensor's dimensions do. */
void
irgen_wgmma_store(IrGen *G, Node *e)
{
	Node *an = e->list.head->next;
	IrValue acc, p[5], args[6];
	int64_t tr;

	if (an->sym && an->sym->kind == SYM_REGS) {
		irgen_row_store(G, e);
		return;
	}
	acc = irgen_expr(G, an);
	tr = tile_place(G, e, e->list.head, an->next, p);
	/* wgmma.store[transposed] ptr, acc, nrows, ncols, row0, col0 */
	args[0] = p[0];
	args[1] = acc;
	memcpy(args + 2, p + 1, 4 * sizeof *args);
	irb_imm(&G->b, IR_WGMMA_STORE, ir_scalar(IR_VOID), tr, 6, args);
}

/* fragment(t, [row0, col0], N) -> wgmma.load[N] ptr, nrows, ncols, row0, col0;
 * fragment(v, [col0], N) of a 1-dimensional v -> wgmma.load[N | broadcast] ptr, 1, len, 0,
 * col0: every row reads row 0. */
IrValue
irgen_wgmma_fragment(IrGen *G, Node *e)
{
	Node *tn = e->list.head, *cn = tn->next;
	const Symbol *t = tn->sym;
	IrValue args[5];
	int64_t imm = e->ty.lanes * 2;  /* N (f32x4 is m64n8) */

	if (tn->kind != N_NAME || t->rank == 2) {
		imm |= tile_place(G, e, tn, cn, args);
	} else {
		args[4] = to_index(G, irgen_expr(G, cn->list.head));
		G->b.loc = e->loc;
		args[0] = t->kind == SYM_SHARED ? irgen_buffer(G, t) : G->k->body.args[t->param];
		args[1] = irb_const_int(&G->b, index_type(G), 1);
		args[2] = dim_of(G, t, 0);
		args[3] = irb_const_int(&G->b, index_type(G), 0);
		imm |= 1 << 16;
	}
	return irb_imm(&G->b, IR_WGMMA_LOAD, e->ty, imm, 5, args);
}

/* ---- rows of a fragment (mma_wgmma.c's asy_frag_rows) ----
 * Lane l of a thread's m64nN fragment lies 8 ((l >> 1) & 1) rows below the thread's first
 * row, 16 (warp % 4) + lane / 4, and 8 (l >> 2) + (l & 1) columns right of its first
 * column, 2 (lane % 4) (ir/ops.def, wgmma.store). Everything here is built from ordinary
 * ops (extract, vec, select, shfl.xor), so the interpreter and the backend need nothing
 * new. */

static int
lane_row(int l)
{
	return 8 * ((l >> 1) & 1);
}

static int
lane_col(int l)
{
	return 8 * (l >> 2) + (l & 1);
}

static IrValue
first_row(IrGen *G)
{
	IrValue w = irb_op(&G->b, IR_WARPID, ir_scalar(IR_I32), 0, NULL);
	IrValue l = irb_op(&G->b, IR_LANEID, ir_scalar(IR_I32), 0, NULL);

	w = irgen_op2(G, IR_MUL, irgen_op2(G, IR_AND, w, irgen_c32(G, 3)), irgen_c32(G, 16));
	return irgen_op2(G, IR_ADD, w, irgen_op2(G, IR_SHR, l, irgen_c32(G, 2)));
}

static IrValue
first_col(IrGen *G)
{
	IrValue l = irb_op(&G->b, IR_LANEID, ir_scalar(IR_I32), 0, NULL);

	return irgen_op2(G, IR_SHL, irgen_op2(G, IR_AND, l, irgen_c32(G, 3)), irgen_c32(G, 1));
}

static IrValue
lane_of(IrGen *G, IrValue v, int l)
{
	return irb_imm(&G->b, IR_EXTRACT, ir_scalar(IR_F32), l, 1, &v);
}

/* row_max / row_sum: the thread's lanes of each row combined as a tree (independent
 * operations), then across the quad that shares the rows. */
static IrValue
row_reduce(IrGen *G, IrValue acc, int opc)
{
	IrType f = ir_scalar(IR_F32);
	IrValue part[128], r[2];
	int nl = ir_vtype(G->k, acc).lanes, i, l, n, m;

	for (i = 0; i < 2; i++) {
		for (l = n = 0; l < nl; l++)
			if (lane_row(l) == 8 * i)
				part[n++] = lane_of(G, acc, l);
		for (; n > 1; n = (n + 1) / 2)
			for (m = 0; m < n / 2; m++)
				part[m] = irb_op2(&G->b, opc, f, part[2 * m], part[2 * m + 1]);
		for (r[i] = part[0], m = 1; m <= 2; m *= 2)
			r[i] = irb_op2(&G->b, opc, f, r[i], irb_op2(&G->b, IR_SHFL_XOR, f, r[i], irgen_c32(G, m)));
	}
	return irb_op(&G->b, IR_VEC, ir_vector(IR_F32, 2), 2, r);
}

/* by_row(v, N): lane l takes v's value of its row. */
static IrValue
by_row(IrGen *G, IrValue v, IrType ft)
{
	IrValue r[2], lanes[128];
	int l;

	r[0] = lane_of(G, v, 0);
	r[1] = lane_of(G, v, 1);
	for (l = 0; l < ft.lanes; l++)
		lanes[l] = r[lane_row(l) / 8];
	return irb_op(&G->b, IR_VEC, ft, ft.lanes, lanes);
}

/* mask_cols(acc, n, v): lane l masked where col >= n, that is where lane_col(l) >= n -
 * first column; mask_above(acc, d, v): where col - row > d, that is where lane_col(l) -
 * lane_row(l) > d + first row - first column. One bound per thread, one compare per lane. */
static IrValue
mask(IrGen *G, Node *e, IrValue acc, IrValue bound, IrValue v)
{
	IrType ft = ir_vtype(G->k, acc);
	IrValue lanes[128], c;
	int l, above = e->builtin == BI_MASK_ABOVE;

	c = irgen_op2(G, IR_SUB, bound, first_col(G));
	if (above)
		c = irgen_op2(G, IR_ADD, c, first_row(G));
	for (l = 0; l < ft.lanes; l++) {
		IrValue k = irgen_c32(G, above ? lane_col(l) - lane_row(l) : lane_col(l));
		IrValue p = irb_op2(&G->b, above ? IR_CMP_GT : IR_CMP_GE, ir_scalar(IR_I1), k, c);

		lanes[l] = irb_op3(&G->b, IR_SELECT, ir_scalar(IR_F32), p, v, lane_of(G, acc, l));
	}
	return irb_op(&G->b, IR_VEC, ft, ft.lanes, lanes);
}

/* row_max, row_sum, by_row, mask_cols, mask_above */
IrValue
irgen_frag_rows(IrGen *G, Node *e)
{
	Node *a = e->list.head;
	IrValue x = irgen_expr(G, a), bound, v;

	if (e->builtin == BI_BY_ROW) {
		G->b.loc = e->loc;
		return by_row(G, x, e->ty);
	}
	if (e->builtin == BI_ROW_MAX || e->builtin == BI_ROW_SUM) {
		G->b.loc = e->loc;
		return row_reduce(G, x, e->builtin == BI_ROW_MAX ? IR_MAX : IR_ADD);
	}
	bound = irgen_expr(G, a->next);
	v = a->next->next ? irgen_expr(G, a->next->next) : 0;
	G->b.loc = e->loc;
	if (!v)
		v = irb_const_float(&G->b, ir_scalar(IR_F32), -INFINITY);
	return mask(G, e, x, bound, v);
}

/* store_rows(t, rv, [row0]): rv's lane i to row row0 + first row + 8 i of the vector, by
 * the quad's first thread, a predicated store each (no branch). */
void
irgen_store_rows(IrGen *G, Node *e)
{
	Node *tn = e->list.head, *vn = tn->next;
	const Symbol *t = tn->sym;
	IrType it = index_type(G), et = ir_scalar((IrBase)t->type.base);
	IrValue rv = irgen_expr(G, vn), row0, base, len, r, lead, p, x;
	int i;

	base = tn->kind == N_INDEX ? irgen_elemptr(G, tn) : G->k->body.args[t->param];
	row0 = to_index(G, irgen_expr(G, vn->next->list.head));
	G->b.loc = e->loc;
	len = dim_of(G, t, t->rank - 1);
	lead = irb_op2(&G->b, IR_CMP_EQ, ir_scalar(IR_I1),
		       irgen_op2(G, IR_AND, irb_op(&G->b, IR_LANEID, ir_scalar(IR_I32), 0, NULL), irgen_c32(G, 3)),
		       irgen_c32(G, 0));
	row0 = irgen_op2(G, IR_ADD, row0, to_index(G, first_row(G)));
	for (i = 0; i < 2; i++) {
		r = i ? irgen_op2(G, IR_ADD, row0, irb_const_int(&G->b, it, 8)) : row0;
		p = irgen_op2(G, IR_AND, lead, irb_op2(&G->b, IR_CMP_LT, ir_scalar(IR_I1), r, len));
		x = lane_of(G, rv, i);
		if (et.base != IR_F32)
			x = irb_op1(&G->b, IR_CAST, et, x);
		irb_op3(&G->b, IR_STORE_IF, ir_scalar(IR_VOID), irb_op2(&G->b, IR_ELEMPTR, ir_vtype(G->k, base), base, r), x, p);
	}
}
