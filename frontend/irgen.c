/* irgen.c: IR generation, checked AST -> IR. Locals become SSA values: irgen keeps the
 * current value of every local slot, and a structured statement that assigns variables
 * declared outside it passes their new values out: an `if` yields them as its results, a
 * `for` carries them as iteration arguments, a `while` through its condition and yield.
 * Tensor and shared elements become row-major i32 index arithmetic, elemptr and load or
 * store. Everything here was checked by sema; a surprise is an internal error. */
#include "ast.h"

#include <stdlib.h>
#include <string.h>


static IrType
vtype(IrGen *G, IrValue v)
{
	return ir_vtype(G->k, v);
}

static IrValue
op1(IrGen *G, int opc, IrType t, IrValue a)
{
	return irb_op1(&G->b, opc, t, a);
}

static IrValue
op2(IrGen *G, int opc, IrType t, IrValue a, IrValue b)
{
	return irb_op2(&G->b, opc, t, a, b);
}

static IrValue
ig_const(IrGen *G, Node *e)
{
	if (ir_is_frag(e->ty) || ir_type_eq(e->ty, ir_vector(IR_F32, 4)))
		return irb_const_float(&G->b, e->ty, e->cv.f);   /* a splat */
	if (e->ty.base > IR_F64 || e->ty.lanes != 1)
		ICE("constant of type %d reached lowering at %d:%d", e->ty.base, e->loc.line, e->loc.col);
	if (ir_const_is_float(e->ty))
		return irb_const_float(&G->b, e->ty, e->cv.f);
	return irb_const_int(&G->b, e->ty, e->cv.i);
}

/* The base of remote(buf, rank)[i, ...]: buf in the CTA of that rank. */
static IrValue
ig_remote(IrGen *G, Node *e)
{
	Node *call = e->lhs;
	const Symbol *b = call->sym;
	IrValue base, rank;

	rank = irgen_expr(G, call->list.head->next);
	G->b.loc = call->loc;
	base = irgen_buffer(G, b);
	return irb_op2(&G->b, IR_MAPA, ir_ptr(IR_CLUSTER, (IrBase)b->type.base), base, rank);
}

/* a op b in the linear index of an element of tensor s, marked as unable to overflow
 * (add[1], mul[1]: LLVM's nsw). The language makes an access whose index arithmetic
 * overflows undefined (docs/language.md, "Tensor and shared-array elements"); with every
 * index inside its dimension each partial sum i0 * d1 + i1 ... lies between 0 and the
 * element count, which fits the index type (the launcher refuses larger tensors). Shared
 * arrays index 32-bit addresses, where the mark buys nothing. */
static IrValue
index_op(IrGen *G, const Symbol *s, int opc, IrType t, IrValue a, IrValue b)
{
	IrValue v[2] = {a, b};

	return irb_imm(&G->b, opc, t, s->kind == SYM_TENSOR, 2, v);
}

/* The pointer to the element an N_INDEX on a tensor or shared array names: the base
 * pointer advanced by the row-major linear index of its (i32) indices. Indices left off at
 * the end count as 0: t[i, j] of a 4-dimensional t is the start of matrix (i, j), as
 * store and fragment take it (irgen_wgmma.c). */
/* Parameter first + r of the n consecutive ones of a per_rank table (tensors or tensor
 * maps), for r a run-time i32: a chain of selects, the last one where r is none of the
 * others (sema and the launcher keep r below n where they can tell; past it, the access is
 * the last tensor's). */
IrValue
irgen_rank_pick(IrGen *G, int first, int n, IrValue r, SrcLoc loc)
{
	IrType i32 = ir_scalar(IR_I32), t;
	IrValue v = G->k->body.args[first + n - 1];
	int q;

	G->b.loc = loc;
	if (!ir_type_eq(vtype(G, r), i32))
		r = op1(G, IR_CAST, i32, r);
	t = vtype(G, v);
	for (q = n - 2; q >= 0; q--) {
		IrValue c = op2(G, IR_CMP_EQ, ir_scalar(IR_I1), r, irb_const_int(&G->b, i32, q));
		IrValue args[3] = {c, G->k->body.args[first + q], v};

		v = irb_op(&G->b, IR_SELECT, t, 3, args);
	}
	return v;
}

IrValue
irgen_elemptr(IrGen *G, Node *e)
{
	const Symbol *s = e->sym;
	IrType pt, it;
	IrValue base, lin = 0, dim;
	Node *ix = e->list.head;
	int i = 0, first;

	if (e->indexkind == IDX_REMOTE) {
		pt = ir_ptr(IR_CLUSTER, (IrBase)s->type.base);
		base = ig_remote(G, e);
	} else if (s->kind == SYM_TENSOR && s->ranks) {
		pt = ir_ptr(IR_GLOBAL, (IrBase)s->type.base);
		base = irgen_rank_pick(G, s->param, s->ranks, irgen_expr(G, ix), e->loc);
		ix = ix->next;
		i = 1;
	} else if (s->kind == SYM_TENSOR) {
		pt = ir_ptr(IR_GLOBAL, (IrBase)s->type.base);
		base = G->k->body.args[s->param];
	} else {
		pt = ir_ptr(IR_SHARED, (IrBase)s->type.base);
		G->b.loc = e->loc;
		base = irgen_buffer(G, s);
	}
	/* The row-major linear index, in i64 under index(i64) (i32 indices sign-extended,
	 * shape symbols already i64), else in i32. */
	it = ir_scalar(s->kind == SYM_TENSOR && G->info->index64 ? IR_I64 : IR_I32);
	first = i;
	for (; ix; ix = ix->next, i++) {
		IrValue v = irgen_expr(G, ix);

		G->b.loc = e->loc;
		if (!ir_type_eq(vtype(G, v), it))
			v = op1(G, IR_CAST, it, v);
		if (i == first) {
			lin = v;
			continue;
		}
		if (s->kind == SYM_TENSOR && s->dimsym[i])
			dim = G->k->body.args[s->dimsym[i]->param];
		else
			dim = irb_const_int(&G->b, it, s->dims[i]);
		lin = index_op(G, s, IR_MUL, it, lin, dim);
		lin = index_op(G, s, IR_ADD, it, lin, v);
	}
	for (; s->kind == SYM_TENSOR && i < s->rank; i++) {
		dim = s->dimsym[i] ? G->k->body.args[s->dimsym[i]->param] : irb_const_int(&G->b, it, s->dims[i]);
		lin = index_op(G, s, IR_MUL, it, lin, dim);
	}
	return op2(G, IR_ELEMPTR, pt, base, lin);
}

static int
readonly(const Symbol *s)
{
	return s->kind == SYM_TENSOR && s->access == ACC_IN;
}

static const int binop_opc[OP_COUNT] = {
	[OP_ADD] = IR_ADD, [OP_SUB] = IR_SUB, [OP_MUL] = IR_MUL, [OP_DIV] = IR_DIV,
	[OP_REM] = IR_REM, [OP_AND] = IR_AND, [OP_OR] = IR_OR, [OP_XOR] = IR_XOR,
	[OP_SHL] = IR_SHL, [OP_SHR] = IR_SHR, [OP_LAND] = IR_AND, [OP_LOR] = IR_OR,
	[OP_EQ] = IR_CMP_EQ, [OP_NE] = IR_CMP_NE, [OP_LT] = IR_CMP_LT, [OP_LE] = IR_CMP_LE,
	[OP_GT] = IR_CMP_GT, [OP_GE] = IR_CMP_GE,
};

static IrValue
binop(IrGen *G, AstOp op, IrValue a, IrValue b)
{
	IrType t = op >= OP_EQ && op <= OP_GE ? ir_scalar(IR_I1) : vtype(G, a);

	return op2(G, binop_opc[op], t, a, b);
}

static IrValue
zero_of(IrGen *G, IrType t)
{
	if (ir_is_float(t))
		return irb_const_float(&G->b, t, 0.0);
	return irb_const_int(&G->b, t, 0);
}

/* A call of a user function: the arguments bound to the value parameters' slots, then the
 * body (sema's copy for this call) in place, with its own return flag. */
static IrValue
ig_inline(IrGen *G, Node *e)
{
	const FnCall *fc = e->call;
	int saved[3] = {G->ret_slot, G->brk_slot, G->cont_slot}, i = 0;
	Node *a;

	for (a = e->list.head; a; a = a->next, i++)
		if (fc->params[i]->kind == SYM_LET)
			G->slots[fc->params[i]->slot] = irgen_expr(G, a);
	G->b.loc = e->loc;
	if (fc->ret_slot >= 0)
		G->slots[fc->ret_slot] = irb_const_int(&G->b, ir_scalar(IR_I1), 0);
	if (fc->val_slot >= 0)
		G->slots[fc->val_slot] = zero_of(G, e->ty);
	G->ret_slot = fc->ret_slot;
	G->brk_slot = G->cont_slot = -1;
	irgen_block(G, fc->body);
	G->ret_slot = saved[0];
	G->brk_slot = saved[1];
	G->cont_slot = saved[2];
	return fc->val_slot >= 0 ? G->slots[fc->val_slot] : 0;
}

static IrValue
ig_call(IrGen *G, Node *e)
{
	int check = irgen_builtins[e->builtin].check, opc = irgen_builtins[e->builtin].opcode;
	IrValue args[4], v;
	Node *a;
	int n = 0;

	if (e->call)
		return ig_inline(G, e);
	if (check == CHK_ASYNC && irgen_async_call(G, e, &v))
		return v;
	if (check == CHK_ORDERED) {
		/* the place's pointer, then the positional values; scope: is the attribute */
		for (a = e->list.head; a; a = a->next) {
			if (a->kind == N_NAMED)
				continue;
			args[n] = n == 0 ? irgen_elemptr(G, a) : irgen_expr(G, a);
			n++;
		}
		G->b.loc = e->loc;
		return irb_imm(&G->b, opc, e->ty, e->ival, n, args);
	}
	if (check == CHK_ATOMIC) {
		args[n++] = irgen_elemptr(G, e->list.head);
		for (a = e->list.head->next; a; a = a->next)
			args[n++] = irgen_expr(G, a);
	} else if (check == CHK_CP_ASYNC) {
		args[n++] = irgen_elemptr(G, e->list.head);
		args[n++] = irgen_elemptr(G, e->list.head->next);
	} else if (check == CHK_CP_WAIT) {
		/* a constant: the wait's attribute, not an operand */
	} else {
		for (a = e->list.head; a && n < 4; a = a->next)
			args[n++] = irgen_expr(G, a);
	}
	G->b.loc = e->loc;
	switch (e->builtin) {
	case BI_CAST:
		if (ir_type_eq(vtype(G, args[0]), e->ty))
			return args[0];
		return op1(G, IR_CAST, e->ty, args[0]);
	case BI_VECTOR:
		if (n == 1) {
			IrValue lanes[4] = {args[0], args[0], args[0], args[0]};

			return irb_op(&G->b, IR_VEC, e->ty, e->ty.lanes, lanes);
		}
		return irb_op(&G->b, IR_VEC, e->ty, n, args);
	case BI_CDIV: {
		/* (a + (b - 1)) / b: the caller promises a >= 0 and b > 0 */
		IrType t = vtype(G, args[0]);
		IrValue bm1 = op2(G, IR_SUB, t, args[1], irb_const_int(&G->b, t, 1));

		return op2(G, IR_DIV, t, op2(G, IR_ADD, t, args[0], bm1), args[1]);
	}
	case BI_CP_ASYNC:
		irb_imm(&G->b, opc, ir_scalar(IR_VOID), ir_type_bytes(e->list.head->ty), 2, args);
		return 0;
	case BI_CP_ASYNC_WAIT:
		irb_imm(&G->b, opc, ir_scalar(IR_VOID), e->list.head->cv.i, 0, NULL);
		return 0;
	default:
		/* one op of the call's type (void for barrier, cp_async_commit) on its arguments */
		if (!opc)
			ICE("ig_call: builtin %d", e->builtin);
		return irb_op(&G->b, opc, e->ty, n, args);
	}
}

/* ---- register arrays (regarray.c) ---- */

static const int binop_known[OP_COUNT] = {
	[OP_ADD] = IR_ADD, [OP_SUB] = IR_SUB, [OP_MUL] = IR_MUL, [OP_DIV] = IR_DIV,
	[OP_REM] = IR_REM, [OP_AND] = IR_AND, [OP_OR] = IR_OR, [OP_XOR] = IR_XOR,
	[OP_SHL] = IR_SHL, [OP_SHR] = IR_SHR,
};

/* The value of an index sema found known once loops are unrolled (ra_known), here, with
 * i32 arithmetic as the GPU does it; 0 after reporting an undefined operation. */
int
irgen_known(IrGen *G, const Node *e, int64_t *out)
{
	IrType i32 = ir_scalar(IR_I32);
	int64_t a[2];

	if (e->isconst) {
		*out = e->cv.i;
		return 1;
	}
	if (e->kind == N_NAME) {
		*out = G->known[e->sym->slot];
		return 1;
	}
	if (!irgen_known(G, e->lhs, &a[0]) || (e->kind == N_BINARY && !irgen_known(G, e->rhs, &a[1])))
		return 0;
	if (e->kind == N_UNARY)
		return ir_eval_int_op(e->op == OP_NEG ? IR_NEG : IR_NOT, i32, i32, 1, a, out);
	if (ir_eval_int_op(binop_known[e->op], i32, i32, 2, a, out))
		return 1;
	diag_error(e->loc, "this register array index divides by zero or shifts by 32 or more");
	return 0;
}

/* The slot of register array element e (an N_INDEX with IDX_REGS). */
static int
ig_reg_slot(IrGen *G, const Node *e)
{
	const Symbol *s = e->sym;
	const Node *ix;
	int64_t lin = 0, v;
	int i = 0;

	for (ix = e->list.head; ix; ix = ix->next, i++) {
		if (!irgen_known(G, ix, &v))
			return s->slot;
		if ((v < 0 || v >= s->dims[i]) && G->oob != ix) {
			G->oob = ix;   /* once per index, not once per unrolled copy */
			diag_error(ix->loc, "index %lld is out of bounds of register array '%s' (dimension %d has %lld elements)",
				   (long long)v, s->name, i + 1, (long long)s->dims[i]);
			return s->slot;
		}
		if (v < 0 || v >= s->dims[i])
			return s->slot;
		lin = lin * s->dims[i] + v;
	}
	return s->slot + (int)lin;
}

/* The lane of a vector lane read e (an N_INDEX with IDX_LANE): its constant, or its index
 * in this unrolled copy (0 after reporting one out of range). */
static int
ig_lane(IrGen *G, const Node *e)
{
	const Node *ix = e->list.head;
	int lanes = e->lhs->ty.lanes;
	int64_t v;

	if (e->lane >= 0)
		return e->lane;
	if (!irgen_known(G, ix, &v))
		return 0;
	if ((v < 0 || v >= lanes) && G->oob != ix) {
		G->oob = ix;   /* once per index, not once per unrolled copy */
		diag_error(ix->loc, "lane index %lld is out of range for %s (0 to %d)", (long long)v,
			   fe_tname(e->lhs->ty), lanes - 1);
	}
	return v < 0 || v >= lanes ? 0 : (int)v;
}

/* The largest power of two up to 16 known to divide the i32 value of index e here (1 when
 * nothing is): a value known once loops are unrolled exactly, a sum by its terms, a
 * product or shift by its factors, a let by its value. Enough for the starts kernels
 * write (4 * q, 64 + 8 * j, r * 64 + 16 * k). */
static int64_t
known_pow2(IrGen *G, const Node *e, int depth)
{
	int64_t v, a, b;

	if (ra_known(e) && irgen_known(G, e, &v))
		return v == 0 ? 16 : (v & -v) > 16 ? 16 : v & -v;
	if (depth > 16)
		return 1;
	switch (e->kind) {
	case N_NAME:
		if (e->sym->kind == SYM_LET && e->sym->decl && e->sym->decl->init)
			return known_pow2(G, e->sym->decl->init, depth + 1);
		return 1;
	case N_UNARY:
		return e->op == OP_NEG ? known_pow2(G, e->lhs, depth + 1) : 1;
	case N_BINARY:
		a = known_pow2(G, e->lhs, depth + 1);
		b = known_pow2(G, e->rhs, depth + 1);
		if (e->op == OP_ADD || e->op == OP_SUB)
			return a < b ? a : b;
		if (e->op == OP_MUL)
			return a * b > 16 ? 16 : a * b;
		if (e->op == OP_SHL && e->rhs->isconst && e->rhs->cv.i >= 0 && e->rhs->cv.i < 5)
			return a << e->rhs->cv.i > 16 ? 16 : a << e->rhs->cv.i;
		return 1;
	default:
		return 1;
	}
}

/* The bytes (a power of two up to 16) the address of element x (an N_INDEX of a shared
 * array) is known to be aligned to: each stage of a shared array starts 16-byte aligned
 * (smem_layout), and the row-major index adds each index times the dimensions after it. */
static int
shared_align(IrGen *G, const Node *x)
{
	const Symbol *b = x->sym;
	int64_t al = 16, eb = ir_type_bytes(b->type), inner = 1, m;
	const Node *ix;
	int i;

	for (i = b->rank - 1; i >= 0; i--) {
		for (ix = x->list.head, m = 0; m < i; m++)
			ix = ix->next;
		m = known_pow2(G, ix, 0) * (inner & -inner) * eb;
		if (m < al)
			al = m;
		inner *= b->dims[i];
	}
	return (int)al;
}

/* var r: T[N] = load(buf, [i, ..., j]): the row buf[i, ..., j .. j + N - 1] in pieces of
 * up to 16 bytes, each as wide as the alignment known at its start allows (one
 * ld.shared.v4 for 4 f32 or 8 bf16 where the start is a multiple of 4 or 8 elements).
 * Elements narrower than 4 bytes are read as 32-bit words, split by bitcast; each element
 * is then converted to T. */
static void
ig_load_row(IrGen *G, const Node *call, const Symbol *r)
{
	const Node *x = call->rhs;
	IrType et = x->sym->type, wt = ir_scalar(IR_U32);
	int eb = ir_type_bytes(et), a0 = shared_align(G, x), k = 0, i, j;
	IrValue p0 = irgen_elemptr(G, (Node *)x), *out = &G->slots[r->slot];

	G->b.loc = call->loc;
	while (k < r->count) {
		int at = (k * eb) & -(k * eb), w = k == 0 || at > a0 ? a0 : at, n;
		IrValue p = k ? op2(G, IR_ELEMPTR, vtype(G, p0), p0, irgen_c32(G, k)) : p0, v;

		while (w > (r->count - k) * eb)
			w /= 2;
		if (w < 4 || eb >= 4) {
			n = w < eb ? 1 : w / eb;
			v = irb_imm(&G->b, IR_LOAD, n == 1 ? et : ir_vector((IrBase)et.base, n), 0, 1, &p);
			for (i = 0; i < n; i++)
				out[k + i] = n == 1 ? v : irb_imm(&G->b, IR_EXTRACT, et, i, 1, &v);
		} else {
			int per = 4 / eb;

			n = w / eb;
			p = op1(G, IR_BITCAST, ir_ptr(IR_SHARED, IR_U32), p);
			v = irb_imm(&G->b, IR_LOAD, w == 4 ? wt : ir_vector(IR_U32, w / 4), 0, 1, &p);
			for (i = 0; i < w / 4; i++) {
				IrValue word = w == 4 ? v : irb_imm(&G->b, IR_EXTRACT, wt, i, 1, &v);

				word = op1(G, IR_BITCAST, ir_vector((IrBase)et.base, per), word);
				for (j = 0; j < per; j++)
					out[k + per * i + j] = irb_imm(&G->b, IR_EXTRACT, et, j, 1, &word);
			}
		}
		k += n;
	}
	for (i = 0; i < r->count; i++)
		if (!ir_type_eq(et, r->type))
			out[i] = op1(G, IR_CAST, r->type, out[i]);
}

static void
ig_regs_decl(IrGen *G, const Node *s)
{
	const Symbol *sym = s->sym;
	Node *a = s->init->kind == N_LIST ? s->init->list.head : NULL;
	IrValue v;
	int i;

	if (s->init->builtin == BI_TMEM_LOAD && s->init->kind == N_CALL) {
		irgen_tmem_load(G, s->init, sym->count, &G->slots[sym->slot]);
		return;
	}
	if (s->init->builtin == BI_LOAD && s->init->kind == N_CALL) {
		ig_load_row(G, s->init, sym);
		return;
	}
	v = a ? 0 : irgen_expr(G, s->init);

	for (i = 0; i < sym->count; i++, a = a ? a->next : NULL)
		G->slots[sym->slot + i] = a ? irgen_expr(G, a) : v;
}

/* if c then tn (or the i1 constant tv where tn is NULL) else en (or ev): a value of type t
 * whose two sides are made in regions of their own, so each runs only when taken (sema's
 * e->lazy: a side that touches memory). Slots an inlined call sets inside stay there. */
static IrValue
ig_lazy_if(IrGen *G, SrcLoc loc, IrType t, IrValue c, Node *tn, int tv, Node *en, int ev)
{
	IrValue *saved = xmalloc(sizeof(IrValue) * (size_t)(G->info->nslots + 1));
	IrRegion *regs, *outer = G->b.r;
	IrValue r, v;
	int i;

	G->b.loc = loc;
	r = irb_region_op(&G->b, IR_IF, 1, &c, 1, &t, &regs)->res[0];
	memcpy(saved, G->slots, sizeof(IrValue) * (size_t)G->info->nslots);
	for (i = 0; i < 2; i++) {
		Node *n = i ? en : tn;

		G->b.r = &regs[i];
		v = n ? irgen_expr(G, n) : irb_const_int(&G->b, t, i ? ev : tv);
		G->b.loc = loc;
		irb_op(&G->b, IR_YIELD, ir_scalar(IR_VOID), 1, &v);
		memcpy(G->slots, saved, sizeof(IrValue) * (size_t)G->info->nslots);
	}
	G->b.r = outer;
	free(saved);
	return r;
}

/* a && b, a || b where the right side runs only when the left does not decide: a constant
 * left side, or a right side that touches memory (sema's e->lazy). */
static IrValue
ig_logic(IrGen *G, Node *e)
{
	int land = e->op == OP_LAND;
	IrValue a;

	if (e->lhs->isconst)    /* false && x, true || x: the constant; else x */
		return irgen_expr(G, (e->lhs->cv.i != 0) != land ? e->lhs : e->rhs);
	a = irgen_expr(G, e->lhs);
	if (land)
		return ig_lazy_if(G, e->loc, e->ty, a, e->rhs, 0, NULL, 0);
	return ig_lazy_if(G, e->loc, e->ty, a, NULL, 1, e->rhs, 0);
}

IrValue
irgen_expr(IrGen *G, Node *e)
{
	IrValue a, b, c;

	if (e->isconst) {
		G->b.loc = e->loc;
		return ig_const(G, e);
	}
	switch (e->kind) {
	case N_NAME:
		G->b.loc = e->loc;
		switch (e->sym->kind) {
		case SYM_SCALAR:
		case SYM_SHAPE:
			return G->k->body.args[e->sym->param];
		case SYM_LET:
		case SYM_VAR:
		case SYM_ITER:
			return G->slots[e->sym->slot];
		case SYM_BUILTIN:
			if (irgen_builtins[e->builtin].opcode)
				return irb_op(&G->b, irgen_builtins[e->builtin].opcode, ir_scalar(IR_I32), 0, NULL);
			if (irgen_async_call(G, e, &a))
				return a;
			break;
		default:
			break;
		}
		break;
	case N_MEMBER:
		if (e->builtin) {
			G->b.loc = e->loc;
			return irb_op(&G->b, irgen_builtins[e->builtin].opcode + e->lane, ir_scalar(IR_I32), 0, NULL);
		}
		a = irgen_expr(G, e->lhs);
		G->b.loc = e->loc;
		return irb_imm(&G->b, IR_EXTRACT, e->ty, e->lane, 1, &a);
	case N_UNARY:
		a = irgen_expr(G, e->lhs);
		G->b.loc = e->loc;
		return op1(G, e->op == OP_NEG ? IR_NEG : IR_NOT, e->ty, a);
	case N_BINARY:
		if ((e->op == OP_LAND || e->op == OP_LOR) && (e->lazy || e->lhs->isconst))
			return ig_logic(G, e);
		a = irgen_expr(G, e->lhs);
		b = irgen_expr(G, e->rhs);
		G->b.loc = e->loc;
		if (ir_is_frag(e->ty) && !ir_type_eq(vtype(G, a), vtype(G, b))) {
			/* an accumulator fragment and an f32: the f32 in every lane */
			IrValue lanes[IR_FRAG_MAX];
			IrValue s = ir_is_frag(vtype(G, a)) ? b : a;
			int i;

			for (i = 0; i < e->ty.lanes; i++)
				lanes[i] = s;
			s = irb_op(&G->b, IR_VEC, e->ty, e->ty.lanes, lanes);
			if (ir_is_frag(vtype(G, a)))
				b = s;
			else
				a = s;
		}
		return binop(G, e->op, a, b);
	case N_COND:
		if (e->cond->isconst)   /* only the arm taken: the other may touch memory */
			return irgen_expr(G, e->cond->cv.i ? e->lhs : e->rhs);
		c = irgen_expr(G, e->cond);
		if (e->lazy)
			return ig_lazy_if(G, e->loc, e->ty, c, e->lhs, 0, e->rhs, 0);
		a = irgen_expr(G, e->lhs);
		b = irgen_expr(G, e->rhs);
		G->b.loc = e->loc;
		return irb_op3(&G->b, IR_SELECT, e->ty, c, a, b);
	case N_CALL:
		return ig_call(G, e);
	case N_INDEX:
		if (e->indexkind == IDX_REGS)
			return G->slots[ig_reg_slot(G, e)];
		if (e->indexkind == IDX_LANE) {
			a = irgen_expr(G, e->lhs);
			G->b.loc = e->loc;
			return irb_imm(&G->b, IR_EXTRACT, e->ty, ig_lane(G, e), 1, &a);
		}
		a = irgen_elemptr(G, e);
		return irb_imm(&G->b, IR_LOAD, e->ty, readonly(e->sym), 1, &a);
	default:
		break;
	}
	ICE("irgen_expr: node kind %d at %d:%d", e->kind, e->loc.line, e->loc.col);
}

/* ---- statements ---- */

/* The current values of the carried slots. */
static IrValue *
carried_values(IrGen *G, const int *slots, int n)
{
	IrValue *v = xmalloc(sizeof *v * (size_t)(n + 1));
	int i;

	for (i = 0; i < n; i++)
		v[i] = G->slots[slots[i]];
	return v;
}

/* Gives region r fresh arguments: `first` (if not void) and then one per carried slot,
 * which become those slots' current values. */
static void
region_args(IrGen *G, IrRegion *r, IrType first, const int *slots, int n, IrValue *first_v)
{
	IrValue *args = xmalloc(sizeof *args * (size_t)(n + 2));
	int i, k = 0;

	if (first.base != IR_VOID)
		args[k++] = *first_v = ir_new_value(G->k, first);
	for (i = 0; i < n; i++) {
		IrValue v = ir_new_value(G->k, vtype(G, G->slots[slots[i]]));

		G->k->vlocs[v] = G->b.loc;
		args[k++] = v;
	}
	ir_region_set_args(G->k, r, k, args);
	for (i = 0; i < n; i++)
		G->slots[slots[i]] = args[(first.base != IR_VOID) + i];
	free(args);
}

void
irgen_if(IrGen *G, const int *slots, int n, SrcLoc loc, IrValue c, Node *then, IrgenLower lt,
	 Node *els, IrgenLower le, int64_t flag)
{
	IrValue *saved = xmalloc(sizeof(IrValue) * (size_t)(G->info->nslots + 1));
	IrRegion *regs;
	IrValue *res;
	IrType *types;
	IrOp *op;
	int i;

	G->b.loc = loc;
	types = irgen_carried_types(G, slots, n);
	op = irb_region_op(&G->b, IR_IF, 1, &c, n, types, &regs);
	op->imm = flag;
	res = op->res;
	memcpy(saved, G->slots, sizeof(IrValue) * (size_t)G->info->nslots);
	irgen_into(G, &regs[0], then, lt, slots, n, loc);
	memcpy(G->slots, saved, sizeof(IrValue) * (size_t)G->info->nslots);
	irgen_into(G, &regs[1], els, le, slots, n, loc);
	memcpy(G->slots, saved, sizeof(IrValue) * (size_t)G->info->nslots);
	for (i = 0; i < n; i++)
		G->slots[slots[i]] = res[i];
	free(types);
	free(saved);
}

static void
ig_if(IrGen *G, Node *s)
{
	if (s->cond->isconst) {         /* sema kept only the branch taken */
		irgen_block(G, s->body);
		return;
	}
	irgen_assigned_if(G, s, irgen_expr(G, s->cond), s->body, NULL, s->els, NULL, 0);
}

void
irgen_assigned_if(IrGen *G, Node *scope, IrValue c, Node *then, IrgenLower lt, Node *els,
		  IrgenLower le, int64_t flag)
{
	int *slots = xmalloc(sizeof(int) * (size_t)(G->info->nslots + 1));
	int n = 0;

	irgen_assigned_vars(scope, scope->slot_base, slots, &n);
	irgen_if(G, slots, n, scope->loc, c, then, lt, els, le, flag);
	free(slots);
}

/* The i1 that is true once one of the exits in `exits` was taken here. */
static IrValue
exit_taken(IrGen *G, int exits)
{
	const int bits[3] = {EXIT_RETURN, EXIT_BREAK, EXIT_CONTINUE};
	const int slot[3] = {G->ret_slot, G->brk_slot, G->cont_slot};
	IrValue any = 0;
	int i;

	for (i = 0; i < 3; i++) {
		if (!(exits & bits[i]) || slot[i] < 0)
			continue;
		any = any ? op2(G, IR_OR, ir_scalar(IR_I1), any, G->slots[slot[i]]) : G->slots[slot[i]];
	}
	return any ? any : irb_const_int(&G->b, ir_scalar(IR_I1), 0);
}

static IrValue
not1(IrGen *G, IrValue v)
{
	return op1(G, IR_NOT, ir_scalar(IR_I1), v);
}

/* Sets the flag slot of a loop (break or continue) to false, if it has one. */
static void
clear_flag(IrGen *G, int slot)
{
	if (slot >= 0)
		G->slots[slot] = irb_const_int(&G->b, ir_scalar(IR_I1), 0);
}

/* Enters loop s's body: its break and continue flags become the innermost; returns the
 * previous ones in saved[2]. */
static void
enter_loop(IrGen *G, const Node *s, int *saved)
{
	saved[0] = G->brk_slot;
	saved[1] = G->cont_slot;
	G->brk_slot = s->xslot[0];
	G->cont_slot = s->xslot[1];
}

static void
leave_loop(IrGen *G, const int *saved)
{
	G->brk_slot = saved[0];
	G->cont_slot = saved[1];
}

/* Whether loop s may stop before its bounds or condition say (a break or a return in its
 * body): then it is lowered to a while loop that tests the flags. */
static int
loop_may_exit(const Node *s)
{
	return (s->body->exits & (EXIT_BREAK | EXIT_RETURN)) != 0;
}

/* A bound of for loop s in the index's type: i32 bounds of an i64 loop are
 * sign-extended. A missing step is 1. */
static IrValue
for_bound(IrGen *G, Node *s, Node *e)
{
	IrType it = s->sym->type;
	IrValue v;

	if (!e) {
		G->b.loc = s->loc;
		return irb_const_int(&G->b, it, 1);
	}
	v = irgen_expr(G, e);
	G->b.loc = s->loc;
	return ir_type_eq(vtype(G, v), it) ? v : op1(G, IR_CAST, it, v);
}

/* A loop whose index names register-array elements: unrolled here, the index a constant
 * in each copy of the body (sema checked that the bounds are constants and that no break
 * or return leaves it). */
static void
ig_for_unrolled(IrGen *G, Node *s)
{
	int64_t lo = s->lo->cv.i, hi = s->hi->cv.i, step = s->step ? s->step->cv.i : 1, v;
	int saved[2], slot = s->sym->slot;

	enter_loop(G, s, saved);
	for (v = lo; v < hi; v += step) {
		G->b.loc = s->loc;
		G->known[slot] = v;
		G->slots[slot] = irb_const_int(&G->b, s->sym->type, v);
		clear_flag(G, s->xslot[1]);
		irgen_block(G, s->body);
	}
	leave_loop(G, saved);
}

/* A for loop that break or return may leave: a while loop carrying the index, whose
 * condition is `iv < hi` and no exit taken. */
static void
ig_for_exit(IrGen *G, Node *s)
{
	int *slots = xmalloc(sizeof(int) * (size_t)(G->info->nslots + 2));
	IrValue hi, step, *init, *res, *vals, iv, c;
	IrType *types;
	IrRegion *regs, *outer = G->b.r;
	int n = 0, i, saved[2];

	irgen_assigned_vars(s, s->slot_base, slots + 1, &n);
	init = xmalloc(sizeof *init * (size_t)(n + 2));
	vals = xmalloc(sizeof *vals * (size_t)(n + 2));
	types = xmalloc(sizeof *types * (size_t)(n + 2));
	init[0] = for_bound(G, s, s->lo);
	hi = for_bound(G, s, s->hi);
	step = for_bound(G, s, s->step);
	G->b.loc = s->loc;
	clear_flag(G, s->xslot[0]);
	slots[0] = s->sym->slot;
	G->slots[slots[0]] = init[0];
	for (i = 1; i <= n; i++)
		init[i] = G->slots[slots[i]];
	for (i = 0; i <= n; i++)
		types[i] = vtype(G, init[i]);
	res = irb_region_op(&G->b, IR_WHILE, n + 1, init, n + 1, types, &regs)->res;
	enter_loop(G, s, saved);

	region_args(G, &regs[0], ir_scalar(IR_VOID), slots, n + 1, &iv);
	G->b.r = &regs[0];
	G->b.loc = s->loc;
	c = op2(G, IR_CMP_LT, ir_scalar(IR_I1), G->slots[slots[0]], hi);
	c = op2(G, IR_AND, ir_scalar(IR_I1), c, not1(G, exit_taken(G, s->body->exits & (EXIT_BREAK | EXIT_RETURN))));
	vals[0] = c;
	for (i = 0; i <= n; i++)
		vals[i + 1] = G->slots[slots[i]];
	irb_op(&G->b, IR_CONDITION, ir_scalar(IR_VOID), n + 2, vals);

	region_args(G, &regs[1], ir_scalar(IR_VOID), slots, n + 1, &iv);
	G->b.r = &regs[1];
	G->b.loc = s->loc;
	clear_flag(G, s->xslot[1]);
	irgen_block(G, s->body);
	G->b.loc = s->loc;
	vals[0] = op2(G, IR_ADD, s->sym->type, G->slots[slots[0]], step);
	for (i = 1; i <= n; i++)
		vals[i] = G->slots[slots[i]];
	irb_op(&G->b, IR_YIELD, ir_scalar(IR_VOID), n + 1, vals);
	G->b.r = outer;
	leave_loop(G, saved);
	for (i = 1; i <= n; i++)
		G->slots[slots[i]] = res[i];
	free(types);
	free(vals);
	free(init);
	free(slots);
}

static void
ig_for(IrGen *G, Node *s)
{
	int *slots = xmalloc(sizeof(int) * (size_t)(G->info->nslots + 1));
	IrValue *args, *res, iv;
	IrType *types;
	IrRegion *regs, *outer;
	IrOp *op;
	int n = 0, i, saved[2];

	if (s->ival) {
		free(slots);
		ig_for_unrolled(G, s);
		return;
	}
	if (loop_may_exit(s)) {
		free(slots);
		ig_for_exit(G, s);
		return;
	}
	irgen_assigned_vars(s, s->slot_base, slots, &n);
	args = xmalloc(sizeof *args * (size_t)(n + 3));
	args[0] = for_bound(G, s, s->lo);
	args[1] = for_bound(G, s, s->hi);
	args[2] = for_bound(G, s, s->step);
	for (i = 0; i < n; i++)
		args[3 + i] = G->slots[slots[i]];
	types = irgen_carried_types(G, slots, n);
	G->b.loc = s->loc;
	op = irb_region_op(&G->b, IR_FOR, 3 + n, args, n, types, &regs);
	op->imm = s->op == UNROLL_FULL ? -1 : s->op == UNROLL_COUNT ? s->unroll_n->cv.i : 0;
	res = op->res;
	region_args(G, &regs[0], s->sym->type, slots, n, &iv);
	G->k->vlocs[iv] = s->loc;
	G->slots[s->sym->slot] = iv;
	outer = G->b.r;
	G->b.r = &regs[0];
	enter_loop(G, s, saved);
	G->b.loc = s->loc;
	clear_flag(G, s->xslot[1]);
	if (s->op == LOOP_ROUND_ROBIN)
		irgen_round_robin_body(G, s, iv, args[0], args[2]);
	else
		irgen_block(G, s->body);
	leave_loop(G, saved);
	G->b.loc = s->loc;
	irgen_terminate(G, IR_YIELD, 0, slots, n);
	G->b.r = outer;
	for (i = 0; i < n; i++)
		G->slots[slots[i]] = res[i];
	free(types);
	free(args);
	free(slots);
}

/* A while loop's condition once an exit may have been taken: false then, without
 * evaluating the condition (it may read past what the loop checked). */
static IrValue
ig_cond_unless_exit(IrGen *G, Node *s)
{
	IrValue go;

	G->b.loc = s->loc;
	go = not1(G, exit_taken(G, s->body->exits & (EXIT_BREAK | EXIT_RETURN)));
	return ig_lazy_if(G, s->loc, ir_scalar(IR_I1), go, s->cond, 0, NULL, 0);
}

static void
ig_while(IrGen *G, Node *s)
{
	int *slots = xmalloc(sizeof(int) * (size_t)(G->info->nslots + 1));
	IrValue *init, *res, c, unused;
	IrType *types;
	IrRegion *regs, *outer;
	int n = 0, i, saved[2];

	G->b.loc = s->loc;
	clear_flag(G, s->xslot[0]);
	irgen_assigned_vars(s, s->slot_base, slots, &n);
	init = carried_values(G, slots, n);
	types = irgen_carried_types(G, slots, n);
	G->b.loc = s->loc;
	res = irb_region_op(&G->b, IR_WHILE, n, init, n, types, &regs)->res;
	outer = G->b.r;
	enter_loop(G, s, saved);

	region_args(G, &regs[0], ir_scalar(IR_VOID), slots, n, &unused);
	G->b.r = &regs[0];
	c = loop_may_exit(s) ? ig_cond_unless_exit(G, s) : irgen_expr(G, s->cond);
	G->b.loc = s->loc;
	irgen_terminate(G, IR_CONDITION, c, slots, n);

	region_args(G, &regs[1], ir_scalar(IR_VOID), slots, n, &unused);
	G->b.r = &regs[1];
	G->b.loc = s->loc;
	clear_flag(G, s->xslot[1]);
	irgen_block(G, s->body);
	leave_loop(G, saved);
	G->b.loc = s->loc;
	irgen_terminate(G, IR_YIELD, 0, slots, n);
	G->b.r = outer;
	for (i = 0; i < n; i++)
		G->slots[slots[i]] = res[i];
	free(types);
	free(init);
	free(slots);
}

static void
ig_assign(IrGen *G, Node *s)
{
	Node *lhs = s->lhs;
	IrValue v, p, old;

	if (lhs->kind == N_NAME || lhs->indexkind == IDX_REGS) {
		int slot = lhs->kind == N_NAME ? lhs->sym->slot : ig_reg_slot(G, lhs);

		v = irgen_expr(G, s->rhs);
		if (s->op != OP_NONE) {
			G->b.loc = s->loc;
			v = binop(G, s->op, G->slots[slot], v);
		}
		G->slots[slot] = v;
		return;
	}
	p = irgen_elemptr(G, lhs);
	v = irgen_expr(G, s->rhs);
	G->b.loc = s->loc;
	if (s->op != OP_NONE) {
		old = irb_imm(&G->b, IR_LOAD, lhs->ty, 0, 1, &p);
		v = binop(G, s->op, old, v);
	}
	irb_op2(&G->b, IR_STORE, ir_scalar(IR_VOID), p, v);
}

static void
ig_stmt(IrGen *G, Node *s)
{
	switch (s->kind) {
	case N_LET:
	case N_VAR:
		if (s->sym->kind == SYM_REGS) {
			ig_regs_decl(G, s);
			break;
		}
		G->slots[s->sym->slot] = irgen_expr(G, s->init);
		if (s->sym->ucon)
			irgen_known(G, s->init, &G->known[s->sym->slot]);
		break;
	case N_SHARED:
		break;
	case N_ASSIGN:
		ig_assign(G, s);
		break;
	case N_IF:
		ig_if(G, s);
		break;
	case N_FOR:
		ig_for(G, s);
		break;
	case N_WHILE:
		ig_while(G, s);
		break;
	case N_BLOCK:
		irgen_block(G, s);
		break;
	case N_EXPRSTMT:
		irgen_expr(G, s->lhs);
		break;
	case N_BREAK:
	case N_CONTINUE:
	case N_RETURN:
		if (s->kind == N_RETURN && s->lhs)
			G->slots[s->xslot[1]] = irgen_expr(G, s->lhs);
		G->b.loc = s->loc;
		G->slots[s->xslot[0]] = irb_const_int(&G->b, ir_scalar(IR_I1), 1);
		break;
	default:
		if (!irgen_async_stmt(G, s))
			ICE("ig_stmt: node kind %d", s->kind);
	}
}

static void ig_stmts(IrGen *G, Node *first);

/* The statements from `rest` on, after a statement that may have taken the exits in
 * `exits`: an if that runs them only when none was taken, passing on what they assign. */
static void
ig_unless_exit(IrGen *G, int exits, Node *rest, SrcLoc loc)
{
	int *slots = xmalloc(sizeof(int) * (size_t)(G->info->nslots + 1));
	IrValue *saved = xmalloc(sizeof(IrValue) * (size_t)(G->info->nslots + 1));
	IrRegion *regs, *outer = G->b.r;
	IrValue c, *res;
	IrType *types;
	Node *s;
	int n = 0, i;

	for (s = rest; s; s = s->next)
		irgen_assigned_vars(s, rest->slot_base, slots, &n);
	G->b.loc = loc;
	c = not1(G, exit_taken(G, exits));
	types = irgen_carried_types(G, slots, n);
	res = irb_region_op(&G->b, IR_IF, 1, &c, n, types, &regs)->res;
	memcpy(saved, G->slots, sizeof(IrValue) * (size_t)G->info->nslots);
	G->b.r = &regs[0];
	ig_stmts(G, rest);
	G->b.loc = loc;
	irgen_terminate(G, IR_YIELD, 0, slots, n);
	memcpy(G->slots, saved, sizeof(IrValue) * (size_t)G->info->nslots);
	G->b.r = &regs[1];
	irgen_terminate(G, IR_YIELD, 0, slots, n);
	G->b.r = outer;
	for (i = 0; i < n; i++)
		G->slots[slots[i]] = res[i];
	free(types);
	free(saved);
	free(slots);
}

/* A statement list; what follows a statement that may exit runs only if it did not. */
static void
ig_stmts(IrGen *G, Node *first)
{
	Node *s;

	for (s = first; s; s = s->next) {
		ig_stmt(G, s);
		if (s->exits && s->next) {
			ig_unless_exit(G, s->exits, s->next, s->loc);
			return;
		}
	}
}

/* A block, or the `else if` statement that stands for one. */
void
irgen_block(IrGen *G, Node *b)
{
	if (b->kind != N_BLOCK) {
		ig_stmt(G, b);
		return;
	}
	ig_stmts(G, b->list.head);
}

/* ---- kernels ---- */

static void
add_params(IrGen *G, Node *kernel)
{
	IrKernel *k = G->k;
	const Node *pn;
	int i;

	for (pn = kernel->list.head; pn; pn = pn->next) {
		const Symbol *s = pn->sym;
		IrParam ip;

		memset(&ip, 0, sizeof ip);
		ip.name = arena_strdup(k->arena, pn->name);
		ip.loc = pn->loc;
		if (s->kind == SYM_SCALAR) {
			ip.kind = PARAM_SCALAR;
			ip.type = s->type;
			ip.access = ACC_IN;
		} else {
			int r, first = s->ranks > 0;

			ip.kind = PARAM_TENSOR;
			ip.type = ir_ptr(IR_GLOBAL, (IrBase)s->type.base);
			ip.access = s->access;
			ip.rank = s->rank - first;
			for (i = first; i < s->rank; i++) {
				ip.dims[i - first].sym = s->dimsym[i] ? s->dimsym[i]->param : -1;
				ip.dims[i - first].size = s->dimsym[i] ? 0 : s->dims[i];
			}
			/* a per_rank table: one tensor parameter per rank, its first dimension gone */
			ip.ranks = s->ranks;
			for (r = 0; r + 1 < s->ranks; r++) {
				ip.rank_no = r;
				ip.name = arena_printf(k->arena, "%s_%d", pn->name, r);
				ir_add_param(k, ip);
			}
			if (s->ranks) {
				ip.rank_no = s->ranks - 1;
				ip.name = arena_printf(k->arena, "%s_%d", pn->name, s->ranks - 1);
			}
		}
		ir_add_param(k, ip);
	}
	for (i = 0; i < G->info->nsyms; i++) {
		const Symbol *s = G->info->syms[i];
		IrParam ip;

		memset(&ip, 0, sizeof ip);
		ip.name = arena_strdup(k->arena, s->name);
		ip.kind = PARAM_SYM;
		ip.type = s->type;      /* i32, or i64 under index(i64) */
		ip.loc = s->loc;
		if (ir_add_param(k, ip) != s->param)
			ICE("shape symbol '%s' is parameter %d, expected %d", s->name, k->nparams - 1, s->param);
	}
}

static void
add_buffers(IrGen *G)
{
	int i, j;

	for (i = 0; i < G->info->nshared; i++) {
		const Symbol *s = G->info->shared[i];
		IrBuffer b;

		memset(&b, 0, sizeof b);
		b.name = arena_strdup(G->k->arena, s->name);
		b.elem = (IrBase)s->type.base;
		b.rank = s->rank;
		b.count = 1;
		for (j = 0; j < s->rank; j++) {
			b.dims[j] = s->dims[j];
			b.count *= s->dims[j];
		}
		b.align = s->align;
		b.offset = -1;
		b.loc = s->loc;
		b.stages = s->stages > 0 ? s->stages : 1;
		b.pipeline = s->pipe ? s->pipe->index : -1;
		b.swizzle = s->swizzle;
		b.alias = s->alias ? s->alias->buf : -1;
		if (ir_add_buffer(G->k, b) != s->buf)
			ICE("shared array '%s' is buffer %d, expected %d", s->name, G->k->nbufs - 1, s->buf);
	}
}

IrKernel *
irgen_kernel(Parser *p, Node *kernel, const KernelInfo *info, const char *path)
{
	IrGen G;
	IrKernel *k = ir_kernel_new(kernel->name, p->file);
	int i;

	memset(&G, 0, sizeof G);
	G.k = k;
	G.info = info;
	k->source = arena_strdup(k->arena, path);
	k->targets = info->targets;
	k->index64 = info->index64;
	k->dependent = info->dependent;
	if (info->requires)
		k->requires = arena_strdup(k->arena, info->requires);
	for (i = 0; i < 3; i++) {
		k->threads[i] = info->threads[i];
		k->grid[i] = arena_strdup(k->arena, info->grid[i]);
	}
	add_params(&G, kernel);
	add_buffers(&G);
	G.slots = xcalloc((size_t)info->nslots + 1, sizeof *G.slots);
	G.known = xcalloc((size_t)info->nslots + 1, sizeof *G.known);
	G.b.k = k;
	G.b.r = &k->body;
	G.b.loc = kernel->body->loc;
	irgen_async_tables(&G);
	irgen_async_init(&G);
	irgen_tmem_begin(&G);
	G.ret_slot = kernel->xslot[0];
	G.brk_slot = G.cont_slot = -1;
	clear_flag(&G, G.ret_slot);
	irgen_block(&G, kernel->body);
	G.b.loc = kernel->body->loc;
	irgen_async_end(&G);
	irgen_tmem_end(&G);
	irb_op(&G.b, IR_RET, ir_scalar(IR_VOID), 0, NULL);
	free(G.slots);
	free(G.known);
	return k;
}
