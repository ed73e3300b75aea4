/* regarray.c: register arrays, `var r: f32[8] = 0.0;`. An array stays in registers only
 * when every index is known at compile time once loops are unrolled, so that each element
 * is a variable of its own (an SSA value, carried through if/for/while like any other). The
 * indices may use constants, the indices of `unroll` loops with constant bounds, and `let`s
 * and arithmetic of those; irgen unrolls such loops itself (Node.ival of the N_FOR) and
 * computes each index as it goes. A run-time index is an error here, never local memory. */
#include "async.h"

#include <stdio.h>
#include <string.h>

int
ra_known(const Node *e)
{
	if (e->isconst && fe_intnum(e->ty))
		return 1;
	switch (e->kind) {
	case N_NAME:
		return e->sym && (e->sym->kind == SYM_ITER || e->sym->kind == SYM_LET) && e->sym->ucon;
	case N_UNARY:
		return (e->op == OP_NEG || e->op == OP_BITNOT) && ra_known(e->lhs);
	case N_BINARY:
		return e->op >= OP_ADD && e->op <= OP_SHR && ra_known(e->lhs) && ra_known(e->rhs);
	default:
		return 0;
	}
}

/* Marks the loops whose indices e uses: irgen unrolls them (their trip count is within
 * FE_MAX_FULL_UNROLL: sema checks every full unroll). Also for vector lane indices. */
void
ra_mark_loops(const Node *e)
{
	if (e->isconst)
		return;
	switch (e->kind) {
	case N_NAME:
		if (e->sym->kind == SYM_LET) {
			if (!e->sym->ra_marked) {
				e->sym->ra_marked = 1;
				ra_mark_loops(e->sym->decl->init);
			}
		} else
			((Node *)e->sym->decl)->ival = 1;
		return;
	case N_UNARY:
		ra_mark_loops(e->lhs);
		return;
	case N_BINARY:
		ra_mark_loops(e->lhs);
		ra_mark_loops(e->rhs);
		return;
	default:
		return;
	}
}

static int
check_dims(Sema *S, Node *type, Symbol *sym)
{
	int64_t count = 1, v;
	Node *d;
	int i = 0;

	if (type->list.n > IR_MAX_RANK) {
		diag_error(type->loc, "a register array has 1 to %d dimensions", IR_MAX_RANK);
		return 0;
	}
	for (d = type->list.head; d; d = d->next, i++) {
		if (!sema_const_int(S, d, "a register array's dimension", &v))
			return 0;
		if (v <= 0 || v > FE_MAX_REGS) {
			diag_error(d->loc, "a register array's dimension must be from 1 to %d, found %lld",
				   FE_MAX_REGS, (long long)v);
			return 0;
		}
		sym->dims[i] = v;
		count *= v;
		if (count > FE_MAX_REGS) {
			diag_error(type->loc, "a register array holds at most %d elements (registers are per thread)",
				   FE_MAX_REGS);
			return 0;
		}
	}
	sym->rank = i;
	sym->count = (int)count;
	return 1;
}

/* The conversions load makes: none, or a float to a wider one (bf16 staged in shared
 * memory read as f32: computing in f32 without a second copy of the buffer). */
static int
load_converts(IrType from, IrType to)
{
	int ff = ir_is_float(from) || ir_is_fp8(from);

	return to.lanes == 1 && (ir_type_eq(from, to) || (ff && ir_is_float(to) && ir_type_bytes(to) > ir_type_bytes(from)));
}

/* var r: T[N] = load(buf, [i, ..., j]): r[k] = T(buf[i, ..., j + k]). The coordinates are
 * checked as the element access buf[i, ..., j] (an N_INDEX made here, kept in e->rhs for
 * irgen), and the last element read must be inside the row when j is constant. */
static int
load_init(Sema *S, Node *e, const Symbol *sym, IrType t)
{
	Node *pos[2], *ix;
	Symbol *b;
	int n = asy_split_args(e, pos, 2, NULL, NULL);

	e->builtin = BI_LOAD;
	e->ty = fe_ty(TY_NONVALUE);
	if (!S->asy) {
		diag_error(e->loc, "'load' is only available in a kernel body");
		return 0;
	}
	if (n < 0 || !asy_want_nargs(e, n, 2, 2, "a shared array and the first element's coordinates: load(buf, [i, j])"))
		return 0;
	if (!(b = asy_name_of(S, pos[0], SYM_SHARED, "load", "a shared array")))
		return 0;
	if (pos[1]->kind != N_LIST) {
		diag_error(pos[1]->loc, "load takes the first element's coordinates as a list, [i, j]");
		return 0;
	}
	if (sym->rank != 1) {
		diag_error(e->loc, "load fills a register array of one dimension, but '%s' has %d", sym->name, sym->rank);
		return 0;
	}
	e->rhs = ast_node(S->p, N_INDEX, pos[1]->loc);
	e->rhs->lhs = pos[0];
	e->rhs->list = pos[1]->list;
	if (!sema_element(S, e->rhs, b, 1, 0))
		return 0;
	if (!load_converts(b->type, t)) {
		diag_error(e->loc, "load reads '%s' (%s) into register array '%s' of %s: the array's type is the buffer's, or a wider float",
			   b->name, fe_tname(b->type), sym->name, fe_tname(t));
		return 0;
	}
	for (ix = e->rhs->list.head; ix->next; ix = ix->next)
		;
	if (ix->isconst && ix->cv.i + sym->count > b->dims[b->rank - 1]) {
		diag_error(ix->loc, "load reads elements %lld .. %lld of a row of '%s', which has %lld",
			   (long long)ix->cv.i, (long long)(ix->cv.i + sym->count - 1), b->name,
			   (long long)b->dims[b->rank - 1]);
		return 0;
	}
	for (ix = e->rhs->list.head; ix; ix = ix->next)
		if (ra_known(ix))
			ra_mark_loops(ix);
	return 1;
}

/* The initializer: one value for every element, or a list of one per element. */
static int
check_init(Sema *S, Node *init, const Symbol *sym, IrType t)
{
	char what[96];
	Node *a;
	int ok = 1;

	snprintf(what, sizeof what, "the initializer of register array '%s'", sym->name);
	if (init->kind == N_CALL && !init->lhs && strcmp(init->name, "tmem_load") == 0)
		return asy_tmem_load(S, init, sym, t);
	if (init->kind == N_CALL && !init->lhs && strcmp(init->name, "load") == 0)
		return load_init(S, init, sym, t);
	if (init->kind != N_LIST)
		return sema_value(S, init) && fe_convert(init, t, what);
	if (init->list.n != sym->count) {
		diag_error(init->loc, "register array '%s' has %d elements, but its initializer lists %d",
			   sym->name, sym->count, init->list.n);
		return 0;
	}
	for (a = init->list.head; a; a = a->next)
		ok &= sema_value(S, a) && fe_convert(a, t, what);
	return ok;
}

void
ra_declare(Sema *S, Node *s)
{
	Symbol *sym = sema_declare(S, SYM_REGS, s->name, s->loc, s);
	IrType t;
	int ok = 1, i;

	s->sym = sym;
	sym->type = fe_ty(TY_ERROR);
	if (s->kind != N_VAR) {
		diag_error(s->loc, "a register array is declared with 'var'");
		ok = 0;
	}
	if (!fe_type_from_name(s->type->name, &t)) {
		diag_error(s->type->loc, "unknown type '%s'", s->type->name);
		return;
	}
	if (!check_dims(S, s->type, sym) || !check_init(S, s->init, sym, t) || !ok)
		return;
	sym->type = t;
	s->ty = t;
	sym->slot = sema_new_slot(S);
	for (i = 1; i < sym->count; i++)
		sema_new_slot(S);
}

int
ra_element(Sema *S, Node *e, Symbol *s)
{
	Node *ix;
	int i = 0, ok = 1;

	e->lhs->sym = s;
	e->lhs->ty = fe_ty(TY_NONVALUE);
	e->sym = s;
	if (fe_is_error(s->type))
		return 0;
	if (e->width) {
		diag_error(e->width->loc, "register array elements are read one at a time (no ': width')");
		return 0;
	}
	if (e->list.n != s->rank) {
		diag_error(e->loc, "register array '%s' has %d dimension%s, found %d indices", s->name,
			   s->rank, s->rank == 1 ? "" : "s", e->list.n);
		return 0;
	}
	for (ix = e->list.head; ix; ix = ix->next, i++) {
		if (!sema_value(S, ix) || !fe_convert(ix, ir_scalar(IR_I32), "a register array index")) {
			ok = 0;
		} else if (!ra_known(ix)) {
			diag_error(ix->loc, "the index of register array '%s' must be known at compile time once loops are unrolled (constants, indices of 'unroll' loops with constant bounds, 'let's and arithmetic of those); a run-time index would put the array in local memory",
				   s->name);
			ok = 0;
		} else if (ix->isconst && (ix->cv.i < 0 || ix->cv.i >= s->dims[i])) {
			diag_error(ix->loc, "index %lld is out of bounds of register array '%s' (dimension %d has %lld elements)",
				   (long long)ix->cv.i, s->name, i + 1, (long long)s->dims[i]);
			ok = 0;
		} else {
			ra_mark_loops(ix);
		}
	}
	e->indexkind = IDX_REGS;
	e->ty = s->type;
	return ok;
}

/* The register array a that store(tensor, r, [row, col]) writes as one row: one dimension
 * of f32, bf16 or f16, at most IR_MAX_ROW_STORE elements (one store.row op). */
int
ra_row_arg(Sema *S, Node *a, Symbol *s)
{
	(void)S;
	a->sym = s;
	a->ty = fe_ty(TY_NONVALUE);
	if (fe_is_error(s->type))
		return 0;
	if (s->rank != 1 || s->count > IR_MAX_ROW_STORE) {
		diag_error(a->loc, "store writes a register array of one dimension and at most %d elements as a row, but '%s' is %s[%lld%s]",
			   IR_MAX_ROW_STORE, s->name, fe_tname(s->type), (long long)s->dims[0], s->rank > 1 ? ", ..." : "");
		return 0;
	}
	if (s->type.base != IR_F32 && s->type.base != IR_BF16 && s->type.base != IR_F16) {
		diag_error(a->loc, "store writes register arrays of f32, bf16 or f16, but '%s' holds %s", s->name,
			   fe_tname(s->type));
		return 0;
	}
	return 1;
}
