/* expr.c: checking expressions: names, operators, element and lane accesses, builtin
 * calls, conversions and vector constructors. Each expression gets its type and, when it
 * has one, its compile-time value; an error poisons it (TY_ERROR) so that it is reported
 * once. */
#include "ast.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each builtin's name, argument count and check (builtins.def). */
static const struct {
	const char *name;
	int nargs;              /* functions only */
	int check;              /* BuiltinCheck */
} builtins[BI_COUNT] = {
#define BUILTIN(id, name, nargs, check, opcode, meaning) [BI_##id] = {name, nargs, CHK_##check},
#include "builtins.def"
#undef BUILTIN
};

/* Puts the builtin names into the outermost scope. */
void
sema_add_builtins(Sema *S)
{
	int b;

	for (b = BI_NONE + 1; b < BI_COUNT; b++) {
		Symbol *s;

		if (builtins[b].check == CHK_METHOD || builtins[b].check == CHK_CONV)
			continue;
		s = arena_alloc(S->p->arena, sizeof *s);
		s->kind = SYM_BUILTIN;
		s->name = builtins[b].name;
		s->builtin = b;
		s->type = fe_ty(TY_NONVALUE);
		sema_push_name(S, s);
	}
}

static void
check_binary(Sema *S, Node *e)
{
	char what[32];
	int ok = sema_value(S, e->lhs) & sema_value(S, e->rhs);
	IrType t;

	snprintf(what, sizeof what, "'%s'", ast_op_text(e->op));
	if (ok && e->op >= OP_ADD && e->op <= OP_DIV && ir_is_frag(e->lhs->ty) &&
	    ir_type_eq(e->rhs->ty, ir_scalar(IR_F32))) {
		e->ty = e->lhs->ty;     /* an accumulator fragment and an f32, lane by lane */
		return;
	}
	if (ok && e->op >= OP_ADD && e->op <= OP_DIV && ir_is_frag(e->rhs->ty) &&
	    ir_type_eq(e->lhs->ty, ir_scalar(IR_F32))) {
		e->ty = e->rhs->ty;
		return;
	}
	if (!ok || !fe_unify(e, e->lhs, e->rhs, what)) {
		fe_set_error(e);
		return;
	}
	t = e->lhs->ty;
	if (!fe_binary_ok(e->op, t)) {
		if (e->op == OP_LAND || e->op == OP_LOR)
			diag_error(e->loc, "operands of '%s' must be i1, found %s", ast_op_text(e->op),
				   fe_tname(t));
		else if (fe_is_compare(e->op) && fe_vector(t))
			diag_error(e->loc, "'%s' compares scalars, found %s", ast_op_text(e->op),
				   fe_tname(t));
		else
			diag_error(e->loc, "operator '%s' does not apply to %s%s", ast_op_text(e->op),
				   fe_tname(t), fe_fp8_advice(t));
		fe_set_error(e);
		return;
	}
	e->ty = fe_is_compare(e->op) ? ir_scalar(IR_I1) : t;
	e->lazy = (e->op == OP_LAND || e->op == OP_LOR) && fe_touches_memory(e->rhs);
	if (e->lhs->isconst && e->rhs->isconst)
		fe_fold_binary(e, e->op, t, e->lhs->cv, e->rhs->cv);
}

static void
check_unary(Sema *S, Node *e)
{
	IrType t;
	int ok;

	if (!sema_value(S, e->lhs)) {
		fe_set_error(e);
		return;
	}
	t = e->lhs->ty;
	switch (e->op) {
	case OP_NEG: ok = (fe_intnum(t) && !fe_unsigned(t)) || fe_floatnum(t); break;
	case OP_NOT: ok = t.base == IR_I1; break;
	default: ok = fe_intnum(t); break;
	}
	if (!ok) {
		if (e->op == OP_NOT)
			diag_error(e->loc, "operator '!' needs i1, found %s (use '~' for integers)", fe_tname(t));
		else
			diag_error(e->loc, "operator '%s' does not apply to %s%s", ast_op_text(e->op),
				   fe_tname(t), fe_fp8_advice(t));
		fe_set_error(e);
		return;
	}
	e->ty = t;
	if (!e->lhs->isconst || t.base == IR_F16 || t.base == IR_BF16)
		return;
	if (e->op == OP_NEG && fe_floatnum(t)) {
		ConstVal r = {0, -e->lhs->cv.f};

		fe_set_const(e, t, r);
	} else if (e->op == OP_NEG) {
		ConstVal z = {0, 0};

		fe_fold_binary(e, OP_SUB, t, z, e->lhs->cv);
	} else if (e->op == OP_NOT) {
		ConstVal r = {!e->lhs->cv.i, 0};

		fe_set_const(e, t, r);
	} else {
		ConstVal r = {0, 0};

		r = fe_cast_const(ir_scalar(IR_I64), t.base == TY_UNTYPED_INT ? ir_scalar(IR_I64) : t,
			       (ConstVal){~e->lhs->cv.i, 0});
		fe_set_const(e, t, r);
	}
}

/* Whether a tensor of s is indexed in i64: its kernel has index(i64). Shared arrays
 * stay i32 (shared memory is far below 2^31 elements). */
static int
index64(const Sema *S, const Symbol *s)
{
	return s->kind == SYM_TENSOR && S->kernel && S->kernel->kinfo && S->kernel->kinfo->index64;
}

/* The type an index is converted to: its own when it is i32 or (under index(i64)) i64;
 * an untyped constant is i64 under index(i64), else i32. irgen sign-extends i32 indices. */
static IrType
index_type(const Sema *S, const Symbol *s, const Node *ix)
{
	if (index64(S, s) && (ix->ty.base == IR_I64 || fe_untyped(ix->ty)))
		return ir_scalar(IR_I64);
	return ir_scalar(IR_I32);
}

/* An index is i32, or i64 under index(i64); reports otherwise. */
static int
index_type_ok(const Sema *S, const Symbol *s, const Node *ix, const char *what)
{
	if (fe_untyped(ix->ty) || fe_is_error(ix->ty) || ix->ty.base == IR_I32 ||
	    (ix->ty.base == IR_I64 && ix->ty.lanes == 1 && index64(S, s)))
		return 1;
	if (ix->ty.base == IR_I64 && ix->ty.lanes == 1 && s->kind == SYM_TENSOR)
		diag_error(ix->loc, "%s is i64, but kernel '%s' indexes in i32 (declare index(i64) on the kernel to index tensors with i64)",
			   what, S->kernel ? S->kernel->name : "?");
	else if (ix->ty.base == IR_I64 && ix->ty.lanes == 1)
		diag_error(ix->loc, "%s is i64, but shared arrays index in i32 (convert with i32(...))", what);
	else
		diag_error(ix->loc, "%s must be %s, found %s", what,
			   index64(S, s) ? "i32 or i64" : "i32", fe_tname(ix->ty));
	return 0;
}

/* Whether n (an expression, or a statement of an inlined body) reads or writes memory: an
 * element of a tensor or shared array, an atomic or ordered access, a copy, or an async call
 * that loads. '&&', '||' and '?:' run such a side only when it is taken, as C does, so
 * `i < n && x[i] > 0` never reads x[n]; a side without memory is computed regardless (the
 * same value, and no branch). */
int
fe_touches_memory(const Node *n)
{
	const Node *c;

	if (!n)
		return 0;
	if (n->kind == N_INDEX && n->indexkind != IDX_LANE && n->indexkind != IDX_REGS)
		return 1;
	if (n->kind == N_CALL && n->call && fe_touches_memory(n->call->body))
		return 1;
	if (n->kind == N_CALL) {
		switch (builtins[n->builtin].check) {
		case CHK_ATOMIC: case CHK_ORDERED: case CHK_CP_ASYNC: return 1;
		default: break;
		}
		if (n->builtin == BI_LOAD || n->builtin == BI_TMEM_LOAD || n->builtin == BI_FRAGMENT)
			return 1;
	}
	if (fe_touches_memory(n->lhs) || fe_touches_memory(n->rhs) || fe_touches_memory(n->cond) ||
	    fe_touches_memory(n->init) || fe_touches_memory(n->body) || fe_touches_memory(n->els) ||
	    fe_touches_memory(n->lo) || fe_touches_memory(n->hi) || fe_touches_memory(n->step))
		return 1;
	for (c = n->list.head; c; c = c->next)
		if (fe_touches_memory(c))
			return 1;
	return 0;
}

static void
check_cond(Sema *S, Node *e)
{
	int ok = sema_value(S, e->cond) & sema_value(S, e->lhs) & sema_value(S, e->rhs);

	if (!ok || !fe_convert(e->cond, ir_scalar(IR_I1), "the condition of '?:'") ||
	    !fe_unify(e, e->lhs, e->rhs, "'?:'")) {
		fe_set_error(e);
		return;
	}
	if (e->cond->isconst && e->lhs->isconst && e->rhs->isconst) {
		fe_set_const(e, e->lhs->ty, e->cond->cv.i ? e->lhs->cv : e->rhs->cv);
		return;
	}
	e->lazy = !e->cond->isconst && (fe_touches_memory(e->lhs) || fe_touches_memory(e->rhs));
	/* a run-time choice between two untyped constants needs a real type */
	if (fe_untyped(e->lhs->ty) && (!fe_default_type(e->lhs) || !fe_default_type(e->rhs))) {
		fe_set_error(e);
		return;
	}
	e->ty = e->lhs->ty;
}

/* Checks the indices (and vector width) of an element access on tensor or shared array s
 * and gives e its element (or vector) type. */
int
sema_element(Sema *S, Node *e, Symbol *s, int read, int write)
{
	Node *ix;
	int i = 0, ok = 1;

	e->sym = s;
	e->indexkind = s->kind == SYM_TENSOR ? IDX_TENSOR : IDX_SHARED;
	if (s->kind == SYM_SHARED && !fe_is_error(s->type) && !asy_buffer_use(S, s, e->lhs->loc)) {
		for (ix = e->list.head; ix; ix = ix->next)
			sema_expr(S, ix);
		fe_set_error(e);
		return 0;
	}
	if (fe_is_error(s->type)) {
		/* its declaration was reported; still check the indices themselves */
		for (ix = e->list.head; ix; ix = ix->next)
			sema_expr(S, ix);
		fe_set_error(e);
		return 0;
	}
	if (s->kind == SYM_TENSOR && write && s->access == ACC_IN) {
		diag_error(e->lhs->loc, "cannot write to '%s': it is an 'in' tensor (declare it 'inout' to read and write it)",
			   s->name);
		ok = 0;
	}
	if (s->kind == SYM_TENSOR && read && s->access == ACC_OUT) {
		diag_error(e->lhs->loc, "cannot read '%s': it is an 'out' tensor (declare it 'inout' to read and write it)",
			   s->name);
		ok = 0;
	}
	if (e->list.n != s->rank) {
		diag_error(e->loc, "wrong number of indices for '%s': it has %d dimension%s, found %d ind%s",
			   s->name, s->rank, s->rank == 1 ? "" : "s", e->list.n,
			   e->list.n == 1 ? "ex" : "ices");
		ok = 0;
	}
	for (ix = e->list.head; ix; ix = ix->next, i++) {
		char what[96];

		snprintf(what, sizeof what, "index %d of '%s'", i + 1, s->name);
		if (!sema_value(S, ix))
			ok = 0;
		else if (!index_type_ok(S, s, ix, what))
			ok = 0;
		else if (!fe_convert(ix, index_type(S, s, ix), what)) {
			ok = 0;
		} else if (ix->isconst && ix->cv.i < 0) {
			diag_error(ix->loc, "%s is negative (%lld)", what, (long long)ix->cv.i);
			ok = 0;
		} else if (ix->isconst && i < s->rank && (s->kind == SYM_SHARED || !s->dimsym[i]) &&
			   ix->cv.i >= s->dims[i]) {
			diag_error(ix->loc, "%s is out of bounds: %lld, but the dimension has size %lld",
				   what, (long long)ix->cv.i, (long long)s->dims[i]);
			ok = 0;
		}
	}
	e->ty = ir_scalar((IrBase)s->type.base);
	if (e->width) {
		sema_expr(S, e->width);
		if (fe_is_error(e->width->ty)) {
			ok = 0;
		} else if (!e->width->isconst || !fe_intnum(e->width->ty)) {
			diag_error(e->width->loc, "vector width must be the constant 2 or 4");
			ok = 0;
		} else if (e->width->cv.i != 2 && e->width->cv.i != 4) {
			diag_error(e->width->loc, "vector width must be 2 or 4, found %lld",
				   (long long)e->width->cv.i);
			ok = 0;
		} else {
			e->ty = ir_vector((IrBase)s->type.base, (int)e->width->cv.i);
			if (e->width->ty.base == TY_UNTYPED_INT)
				fe_convert_untyped(e->width, ir_scalar(IR_I32));
		}
	}
	if (!ok)
		fe_set_error(e);
	return ok;
}

/* A lane of a vector: v[i] with i a constant, or known once loops are unrolled (ra_known):
 * e->lane is then -1 and irgen finds the lane in each unrolled copy. */
static void
check_lane_index(Sema *S, Node *e)
{
	IrType vt = e->lhs->ty;
	Node *ix = e->list.head;

	if (e->list.n != 1 || e->width) {
		diag_error(e->loc, "a vector lane takes one constant index, as in v[%d]", vt.lanes - 1);
		fe_set_error(e);
		return;
	}
	sema_expr(S, ix);
	if (fe_is_error(ix->ty)) {
		fe_set_error(e);
		return;
	}
	if (!fe_intnum(ix->ty) || !ra_known(ix)) {
		diag_error(ix->loc, "a vector lane index must be known at compile time once loops are unrolled (constants, indices of 'unroll' loops with constant bounds, 'let's and arithmetic of those)");
		fe_set_error(e);
		return;
	}
	if (!ix->isconst) {
		/* an unroll index: irgen unrolls its loops and finds the lane in each copy */
		if (!fe_convert(ix, ir_scalar(IR_I32), "a vector lane index")) {
			fe_set_error(e);
			return;
		}
		ra_mark_loops(ix);
		e->indexkind = IDX_LANE;
		e->lane = -1;
		e->ty = ir_scalar((IrBase)vt.base);
		return;
	}
	if (ix->cv.i < 0 || ix->cv.i >= vt.lanes) {
		diag_error(ix->loc, "lane index %lld is out of range for %s (0 to %d)",
			   (long long)ix->cv.i, fe_tname(vt), vt.lanes - 1);
		fe_set_error(e);
		return;
	}
	if (ix->ty.base == TY_UNTYPED_INT)
		fe_convert_untyped(ix, ir_scalar(IR_I32));
	e->indexkind = IDX_LANE;
	e->lane = (int)ix->cv.i;
	e->ty = ir_scalar((IrBase)vt.base);
}

/* Resolves the base of an index expression to a tensor or shared array, if it is one. */
Symbol *
sema_element_base(Sema *S, Node *e)
{
	Symbol *s;

	if (e->lhs->kind != N_NAME)
		return NULL;
	s = sema_lookup(S, e->lhs->name);
	if (s && (s->kind == SYM_TENSOR || s->kind == SYM_SHARED)) {
		e->lhs->sym = s;
		e->lhs->ty = fe_ty(TY_NONVALUE);
		return s;
	}
	return NULL;
}

static void
check_index(Sema *S, Node *e)
{
	Symbol *s = sema_element_base(S, e);

	if (s) {
		sema_element(S, e, s, 1, 0);
		return;
	}
	if (e->lhs->kind == N_NAME && (s = sema_lookup(S, e->lhs->name)) && s->kind == SYM_REGS) {
		if (!ra_element(S, e, s))
			fe_set_error(e);
		return;
	}
	if (e->lhs->kind == N_CALL && !e->lhs->lhs && strcmp(e->lhs->name, "remote") == 0) {
		asy_remote_element(S, e, 1, 0);
		return;
	}
	if (!sema_value(S, e->lhs)) {
		fe_set_error(e);
		return;
	}
	if (!fe_vector(e->lhs->ty)) {
		diag_error(e->loc, "cannot index a value of type %s (only tensors, shared arrays and vectors take [ ])",
			   fe_tname(e->lhs->ty));
		fe_set_error(e);
		return;
	}
	check_lane_index(S, e);
}

static void
check_member(Sema *S, Node *e)
{
	static const char lanes[] = "xyzw";
	const char *m = e->name;
	Symbol *s = e->lhs->kind == N_NAME ? sema_lookup(S, e->lhs->name) : NULL;
	int lane = m[0] && !m[1] && strchr(lanes, m[0]) ? (int)(strchr(lanes, m[0]) - lanes) : -1;

	if (s && s->kind == SYM_BUILTIN && builtins[s->builtin].check == CHK_DIM) {
		e->lhs->sym = s;
		e->lhs->ty = fe_ty(TY_NONVALUE);
		if (lane < 0 || lane > 2) {
			diag_error(e->loc, "'%s' has members x, y and z, found '%s'", s->name, m);
			fe_set_error(e);
			return;
		}
		e->builtin = s->builtin;
		e->lane = lane;
		e->ty = ir_scalar(IR_I32);
		return;
	}
	if (!sema_value(S, e->lhs)) {
		fe_set_error(e);
		return;
	}
	if (!fe_vector(e->lhs->ty)) {
		diag_error(e->loc, "a value of type %s has no member '%s' (lanes .x .y .z .w are for vectors)",
			   fe_tname(e->lhs->ty), m);
		fe_set_error(e);
		return;
	}
	if (lane < 0 || lane >= e->lhs->ty.lanes) {
		diag_error(e->loc, "%s has no lane '.%s' (it has %.*s)", fe_tname(e->lhs->ty), m,
			   e->lhs->ty.lanes == 2 ? 6 : 14, ".x, .y, .z, .w");
		fe_set_error(e);
		return;
	}
	e->lane = lane;
	e->ty = ir_scalar((IrBase)e->lhs->ty.base);
}

static void
check_name(Sema *S, Node *e)
{
	Symbol *s = sema_lookup(S, e->name);

	e->sym = s;
	if (!s && strcmp(e->name, "num_sms") == 0) {
		diag_error(e->loc, "'num_sms' (the device's SM count) is only available in grid(...)");
		fe_set_error(e);
		return;
	}
	if (!s) {
		diag_error(e->loc, "undefined name '%s'", e->name);
		fe_set_error(e);
		return;
	}
	switch (s->kind) {
	case SYM_CONST:
		if (fe_is_error(s->type))
			fe_set_error(e);
		else
			fe_set_const(e, s->type, s->val);
		break;
	case SYM_LET:
		if (s->constlet) {
			fe_set_const(e, s->type, s->val);
			break;
		}
		/* fall through */
	case SYM_SCALAR: case SYM_SHAPE: case SYM_VAR: case SYM_ITER:
		e->ty = s->type;
		if (fe_is_error(s->type))
			e->ty = fe_ty(TY_ERROR);
		break;
	case SYM_BUILTIN:
		e->builtin = s->builtin;
		e->ty = builtins[s->builtin].check == CHK_VALUE ? ir_scalar(IR_I32) : fe_ty(TY_NONVALUE);
		break;
	default:
		e->ty = fe_ty(TY_NONVALUE);
		break;
	}
}

/* ---- calls: builtins, conversions, vector constructors ---- */

static const char *
plural(int n, const char *word)
{
	static char s[4][32];
	static int next;
	char *b = s[next++ & 3];

	snprintf(b, 32, "%d %s%s", n, word, n == 1 ? "" : "s");
	return b;
}

static void
check_conversion(Sema *S, Node *e, IrType t)
{
	Node *a = e->list.head;
	int i = 0;

	if (t.lanes == 1) {
		e->builtin = BI_CAST;
		if (e->list.n != 1) {
			diag_error(e->loc, "conversion to %s takes 1 argument, found %d", fe_tname(t), e->list.n);
			fe_set_error(e);
			return;
		}
		if (t.base == IR_I1) {
			diag_error(e->loc, "cannot convert to i1; compare instead, as in x != 0");
			fe_set_error(e);
			return;
		}
		if (!sema_value(S, a)) {
			fe_set_error(e);
			return;
		}
		if (!fe_scalar(a->ty) && !fe_untyped(a->ty)) {
			diag_error(e->loc, "cannot convert %s to %s", fe_tname(a->ty), fe_tname(t));
			fe_set_error(e);
			return;
		}
		/* a literal converted to fp8 is an f32 first, as at run time */
		if (ir_is_fp8(t) && fe_untyped(a->ty) && !fe_convert_untyped(a, ir_scalar(IR_F32))) {
			fe_set_error(e);
			return;
		}
		if (!fe_conversion_ok(e, a->ty, t)) {
			fe_set_error(e);
			return;
		}
		e->ty = t;
		/* f16/bf16 constants are held unrounded, so fp8 from them is left to run time */
		if (a->isconst && t.base != IR_F16 && t.base != IR_BF16 &&
		    !(ir_is_fp8(t) && (a->ty.base == IR_F16 || a->ty.base == IR_BF16))) {
			IrType from = a->ty;

			if (from.base == TY_UNTYPED_INT)
				from = ir_scalar(IR_I64);
			else if (from.base == TY_UNTYPED_FLOAT)
				from = ir_scalar(IR_F64);
			fe_set_const(e, t, fe_cast_const(from, t, a->cv));
		} else if (a->isconst && fe_untyped(a->ty)) {
			fe_convert_untyped(a, t);
		}
		return;
	}
	/* vectors: one value per lane, one scalar to broadcast, or a vector to convert */
	e->builtin = BI_VECTOR;
	e->ty = t;
	if (e->list.n == 1) {
		if (!sema_value(S, a)) {
			fe_set_error(e);
			return;
		}
		if (fe_vector(a->ty)) {
			e->builtin = BI_CAST;
			if (a->ty.lanes != t.lanes) {
				diag_error(e->loc, "cannot convert %s to %s: the lane counts differ",
					   fe_tname(a->ty), fe_tname(t));
				fe_set_error(e);
			} else if (!fe_conversion_ok(e, a->ty, t)) {
				fe_set_error(e);
			}
			return;
		}
		if (!fe_convert(a, ir_scalar((IrBase)t.base), "the value broadcast to every lane"))
			fe_set_error(e);
		return;
	}
	if (e->list.n != t.lanes) {
		diag_error(e->loc, "'%s' takes %s (or one value to broadcast), found %d",
			   fe_tname(t), plural(t.lanes, "lane value"), e->list.n);
		fe_set_error(e);
		return;
	}
	for (a = e->list.head; a; a = a->next, i++) {
		char what[64];

		snprintf(what, sizeof what, "lane %d of '%s'", i, fe_tname(t));
		if (!sema_value(S, a) || !fe_convert(a, ir_scalar((IrBase)t.base), what))
			fe_set_error(e);
	}
}

/* Checks args[0..n) and brings them to one type (untyped ones follow the typed ones). */
static int
unify_args(Node *e, Node **args, int n)
{
	int i, typed = -1;
	char what[48];

	snprintf(what, sizeof what, "'%s'", e->name);
	for (i = 0; i < n; i++)
		if (!fe_untyped(args[i]->ty) && typed < 0)
			typed = i;
	if (typed < 0) {
		for (i = 1; i < n; i++)
			if (!fe_unify(e, args[0], args[i], what))
				return 0;
		for (i = 1; i < n; i++)
			if (!fe_unify(e, args[0], args[i], what))
				return 0;
		return 1;
	}
	for (i = 0; i < n; i++)
		if (i != typed && !fe_unify(e, args[typed], args[i], what))
			return 0;
	return 1;
}

/* Checks place, the first argument of builtin e (an atomic or a flag access): one element
 * of a tensor or shared array (as in EXAMPLE[i]), read and/or written. 0 after a
 * diagnostic. */
static int
element_arg(Sema *S, Node *e, Node *place, int read, int write, const char *example)
{
	Symbol *s = place->kind == N_INDEX ? sema_element_base(S, place) : NULL;

	if (!s) {
		diag_error(place->loc, "the first argument of '%s' must be a tensor or shared array element, as in %s[i]",
			   e->name, example);
		return 0;
	}
	if (!sema_element(S, place, s, read, write))
		return 0;
	if (fe_vector(place->ty)) {
		diag_error(place->loc, "'%s' works on one element, found a %s access", e->name, fe_tname(place->ty));
		return 0;
	}
	return 1;
}

static void
check_atomic(Sema *S, Node *e, Node **args, int n)
{
	Node *place = args[0];
	IrType t;
	int i, ok;

	if (!element_arg(S, e, place, 0, 1, "x")) {
		fe_set_error(e);
		return;
	}
	t = place->ty;
	if (e->builtin == BI_ATOMIC_ADD)
		ok = t.base == IR_F32 || t.base == IR_I32 || t.base == IR_U32 || t.base == IR_U64;
	else
		ok = t.base == IR_I32 || t.base == IR_U32 || t.base == IR_U64;
	if (!ok) {
		diag_error(place->loc, "'%s' does not support %s elements (it takes %s)", e->name,
			   fe_tname(t), e->builtin == BI_ATOMIC_ADD ? "f32, i32, u32 or u64" : "i32, u32 or u64");
		fe_set_error(e);
		return;
	}
	e->ty = t;
	for (i = 1; i < n; i++) {
		char what[64];

		snprintf(what, sizeof what, "argument %d of '%s'", i + 1, e->name);
		if (!sema_value(S, args[i]) || !fe_convert(args[i], t, what))
			fe_set_error(e);
	}
}

/* The flag accesses and the fence: load_acquire(place), store_release(place, v),
 * wait_ge(place, v, timeout_ns), fence_acq_rel(), each with an optional `scope: cta | cluster |
 * gpu | system` (default gpu), which e->ival keeps for irgen. The place is an i32, u32,
 * i64 or u64 element of a tensor or shared array (what ld.acquire and st.release take). */
static const int ordered_nargs[BI_COUNT] = {
	[BI_LOAD_ACQUIRE] = 1, [BI_STORE_RELEASE] = 2, [BI_WAIT_GE] = 3, [BI_FENCE_ACQ_REL] = 0,
};

static int
ordered_scope(Node *e, Node *named)
{
	int i;

	if (strcmp(named->name, "scope") != 0) {
		diag_error(named->loc, "'%s' takes no argument '%s:' (only scope:)", e->name, named->name);
		return 0;
	}
	for (i = 0; i < IR_NSCOPES; i++)
		if (named->lhs->kind == N_NAME && strcmp(named->lhs->name, ir_scopes[i].word) == 0) {
			e->ival = i;
			return 1;
		}
	diag_error(named->lhs->loc, "the scope of '%s' is cta, cluster, gpu or system", e->name);
	return 0;
}

static int
ordered_place(Sema *S, Node *e, Node *place)
{
	IrBase b;

	if (!element_arg(S, e, place, e->builtin != BI_STORE_RELEASE, e->builtin == BI_STORE_RELEASE, "flags"))
		return 0;
	b = place->ty.base;
	if (b != IR_I32 && b != IR_U32 && b != IR_I64 && b != IR_U64) {
		diag_error(place->loc, "'%s' works on one i32, u32, i64 or u64 element, found %s", e->name,
			   fe_tname(place->ty));
		return 0;
	}
	return 1;
}

static void
check_ordered(Sema *S, Node *e)
{
	Node *a, *pos[3] = {NULL, NULL, NULL};
	int n = 0, ok = 1, want = ordered_nargs[e->builtin];

	e->ival = IR_SCOPE_GPU;
	for (a = e->list.head; a; a = a->next) {
		if (a->kind == N_NAMED)
			ok &= ordered_scope(e, a);
		else if (n < 3)
			pos[n++] = a;
		else
			n++;
	}
	e->ty = ir_scalar(e->builtin == BI_WAIT_GE ? IR_I1 : IR_VOID);
	if (n != want) {
		diag_error(e->loc, "'%s' takes %s (and scope:), found %d", e->name, plural(want, "argument"), n);
		fe_set_error(e);
		return;
	}
	if (want && !ordered_place(S, e, pos[0])) {
		fe_set_error(e);
		return;
	}
	if (e->builtin == BI_LOAD_ACQUIRE)
		e->ty = pos[0]->ty;
	if (n > 1 && (!sema_value(S, pos[1]) || !fe_convert(pos[1], pos[0]->ty, "the value")))
		ok = 0;
	if (n > 2 && (!sema_value(S, pos[2]) || !fe_convert(pos[2], ir_scalar(IR_I64), "the timeout")))
		ok = 0;
	if (!ok)
		fe_set_error(e);
}

/* cp_async(dst, src): dst a shared array element or vector slice, src one of a readable
 * tensor with the same type, 4, 8 or 16 bytes in all. */
static void
check_cp_async(Sema *S, Node *e, Node **args)
{
	Symbol *d = args[0]->kind == N_INDEX ? sema_element_base(S, args[0]) : NULL;
	Symbol *s = args[1]->kind == N_INDEX ? sema_element_base(S, args[1]) : NULL;
	int bytes, ok;

	e->ty = ir_scalar(IR_VOID);
	if (!d || d->kind != SYM_SHARED) {
		diag_error(args[0]->loc, "the destination of 'cp_async' must be a shared array element or slice, as in s[i, j : 4]");
		fe_set_error(e);
		return;
	}
	if (!s || s->kind != SYM_TENSOR) {
		diag_error(args[1]->loc, "the source of 'cp_async' must be a tensor element or slice, as in x[i, j : 4]");
		fe_set_error(e);
		return;
	}
	/* both sides checked, so that both report their errors */
	ok = sema_element(S, args[0], d, 0, 1);
	ok &= sema_element(S, args[1], s, 1, 0);
	if (!ok) {
		fe_set_error(e);
		return;
	}
	if (!ir_type_eq(args[0]->ty, args[1]->ty)) {
		diag_error(e->loc, "'cp_async' copies %s into %s: the types must be the same",
			   fe_tname(args[1]->ty), fe_tname(args[0]->ty));
		fe_set_error(e);
		return;
	}
	bytes = ir_type_bytes(args[0]->ty);
	if (bytes != 4 && bytes != 8 && bytes != 16) {
		diag_error(e->loc, "'cp_async' copies 4, 8 or 16 bytes, found %d (%s)", bytes,
			   fe_tname(args[0]->ty));
		fe_set_error(e);
	}
}

/* Requires a to be one of the listed types after defaulting an untyped constant to
 * `dflt`. Returns 0 after an error. */
static int
want_types(Node *e, Node *a, int argno, IrType dflt, const int *bases, const char *list)
{
	int i;

	if (fe_is_error(a->ty))
		return 0;
	if (fe_untyped(a->ty) && !fe_convert(a, dflt, "an argument"))
		return 0;
	for (i = 0; bases[i]; i++)
		if (a->ty.lanes == 1 && a->ty.base == bases[i])
			return 1;
	if (argno)
		diag_error(a->loc, "argument %d of '%s' must be %s, found %s", argno, e->name, list,
			   fe_tname(a->ty));
	else
		diag_error(a->loc, "the argument of '%s' must be %s, found %s", e->name, list,
			   fe_tname(a->ty));
	return 0;
}

/* The math library's calls (MATH_F32V, MATH_FLOATV, MATH2_F32, MATH2_FLOAT): n arguments of
 * one float type, untyped constants taken as f32, scalars or vectors (lane-wise); f64 only
 * where f64ok. Sets e's type; returns 0 after an error. Never folded: the GPU's results
 * are the ones documented (docs/language.md, "Math functions"). */
static int
check_math(Node *e, Node **args, int n, int f64ok)
{
	const char *list = f64ok ? "f32 or f64 (scalars or vectors)" : "f32, f32x2 or f32x4";
	IrType t;
	int i;

	if (n > 1 && !unify_args(e, args, n))
		return 0;
	for (i = 0; i < n; i++)
		if (fe_untyped(args[i]->ty) && !fe_convert(args[i], ir_scalar(IR_F32), "an argument"))
			return 0;
	t = args[0]->ty;
	e->ty = t;
	if (t.base == IR_F32 || (f64ok && t.base == IR_F64))
		return 1;
	if (n > 1)
		diag_error(e->loc, "the arguments of '%s' must be %s, found %s", e->name, list, fe_tname(t));
	else
		diag_error(args[0]->loc, "the argument of '%s' must be %s, found %s", e->name, list,
			   fe_tname(t));
	return 0;
}

static void
check_call(Sema *S, Node *e)
{
	static const int f32only[] = {IR_F32, 0};
	static const int f32f64[] = {IR_F32, IR_F64, 0};
	static const int shfl[] = {IR_I32, IR_U32, IR_F32, 0};
	static const int i1only[] = {IR_I1, 0};
	Node *args[4], *a;
	Symbol *s;
	IrType t;
	int n = 0, i, ok = 1, check;

	if (e->lhs) {
		asy_call(S, e);    /* buf.rows(...) */
		return;
	}
	if (fe_type_from_name(e->name, &t)) {
		check_conversion(S, e, t);
		return;
	}
	s = sema_lookup(S, e->name);
	if (!s) {
		diag_error(e->loc, "unknown function '%s'", e->name);
		fe_set_error(e);
		return;
	}
	if (s->kind == SYM_FUNC) {
		fn_check_call(S, e, s);
		return;
	}
	check = s->kind == SYM_BUILTIN ? builtins[s->builtin].check : CHK_NONE;
	if (check == CHK_NONE || check == CHK_VALUE || check == CHK_DIM) {
		diag_error(e->loc, "'%s' is a %s, not a function", e->name, sema_sym_what(s));
		fe_set_error(e);
		return;
	}
	e->builtin = s->builtin;
	if (check == CHK_ASYNC && asy_call(S, e))
		return;
	if (check == CHK_ORDERED) {
		check_ordered(S, e);
		return;
	}
	if (e->list.n != builtins[e->builtin].nargs) {
		diag_error(e->loc, "'%s' takes %s, found %d", e->name,
			   plural(builtins[e->builtin].nargs, "argument"), e->list.n);
		fe_set_error(e);
		return;
	}
	for (a = e->list.head; a; a = a->next)
		args[n++] = a;
	if (check == CHK_ATOMIC) {
		check_atomic(S, e, args, n);
		return;
	}
	if (check == CHK_CP_ASYNC) {
		check_cp_async(S, e, args);
		return;
	}
	if (check == CHK_CP_WAIT) {
		int64_t groups;

		e->ty = ir_scalar(IR_VOID);
		if (!sema_const_int(S, args[0], "the group count of 'cp_async_wait'", &groups)) {
			fe_set_error(e);
		} else if (groups < 0 || groups > 31) {
			diag_error(args[0]->loc, "the group count of 'cp_async_wait' must be 0 to 31, found %lld",
				   (long long)groups);
			fe_set_error(e);
		}
		return;
	}
	for (i = 0; i < n; i++)
		ok &= sema_value(S, args[i]);
	if (!ok) {
		fe_set_error(e);
		return;
	}
	switch (check) {
	case CHK_MATH_F32:
		ok = want_types(e, args[0], 0, ir_scalar(IR_F32), f32only, "f32");
		e->ty = args[0]->ty;
		break;
	case CHK_MATH_FLOAT:
		ok = want_types(e, args[0], 0, ir_scalar(IR_F32), f32f64, "f32 or f64");
		e->ty = args[0]->ty;
		break;
	case CHK_FMA:
		ok = unify_args(e, args, 3);
		for (i = 0; ok && i < 3; i++)
			if (fe_untyped(args[i]->ty))
				ok = fe_convert(args[i], ir_scalar(IR_F32), "an argument of 'fma'");
		t = args[0]->ty;
		if (ok && t.base != IR_F32 && t.base != IR_F64) {
			diag_error(e->loc, "the arguments of 'fma' must be f32 or f64 (scalars or vectors), found %s",
				   fe_tname(t));
			ok = 0;
		}
		e->ty = t;
		break;
	case CHK_BINARY:
		ok = unify_args(e, args, 2);
		t = args[0]->ty;
		if (ok && !fe_scalar(t) && (t.base == IR_F32 || t.base == IR_F64) && e->builtin != BI_CDIV) {
			e->ty = t;      /* min/max of float vectors (row_max's f32x2): lane by lane */
			break;
		}
		if (ok && (!fe_scalar(t) && !fe_untyped(t))) {
			diag_error(e->loc, "'%s' takes scalars or float vectors, found %s", e->name, fe_tname(t));
			ok = 0;
		} else if (ok && (t.base == IR_I1 || ir_is_fp8(t) || (e->builtin == BI_CDIV && !fe_intnum(t)))) {
			diag_error(e->loc, "'%s' does not apply to %s%s", e->name, fe_tname(t), fe_fp8_advice(t));
			ok = 0;
		}
		if (!ok)
			break;
		e->ty = t;
		if (args[0]->isconst && args[1]->isconst) {
			ConstVal x = args[0]->cv, y = args[1]->cv, r = {0, 0};

			if (e->builtin == BI_CDIV) {
				int64_t sum;

				if (!fe_fold_int(e, OP_SUB, t, y.i, 1, &sum) ||
				    !fe_fold_int(e, OP_ADD, t, x.i, sum, &sum) ||
				    !fe_fold_int(e, OP_DIV, t, sum, y.i, &r.i)) {
					ok = 0;
					break;
				}
			} else if (fe_floatnum(t)) {
				r.f = (e->builtin == BI_MIN) == (x.f < y.f) ? x.f : y.f;
			} else if (t.base == IR_U64) {
				r.i = (e->builtin == BI_MIN) == ((uint64_t)x.i < (uint64_t)y.i) ? x.i : y.i;
			} else {
				r.i = (e->builtin == BI_MIN) == (x.i < y.i) ? x.i : y.i;
			}
			fe_set_const(e, t, r);
		} else if (fe_untyped(t)) {
			ok = fe_default_type(args[0]) && fe_default_type(args[1]);
			e->ty = args[0]->ty;
		}
		if (ok && !e->isconst && e->builtin == BI_CDIV && t.base != IR_I32) {
			diag_error(e->loc, "'cdiv' on run-time values takes i32, found %s", fe_tname(t));
			ok = 0;
		}
		break;
	case CHK_ABS:
		t = args[0]->ty;
		if (!(fe_scalar(t) || fe_untyped(t)) || t.base == IR_I1 || fe_unsigned(t) || ir_is_fp8(t)) {
			diag_error(args[0]->loc, "the argument of 'abs' must be a signed integer or a float, found %s%s",
				   fe_tname(t), fe_fp8_advice(t));
			ok = 0;
			break;
		}
		e->ty = t;
		if (args[0]->isconst && t.base != IR_F16 && t.base != IR_BF16) {
			ConstVal r = args[0]->cv;

			if (fe_floatnum(t)) {
				r.f = fabs(r.f);
			} else if (r.i < 0) {
				ConstVal z = {0, 0};

				ok = fe_fold_binary(e, OP_SUB, t, z, r);
				break;
			}
			fe_set_const(e, t, r);
		}
		break;
	case CHK_MATH_F32V: case CHK_MATH_FLOATV: case CHK_MATH2_F32: case CHK_MATH2_FLOAT:
		ok = check_math(e, args, n, check == CHK_MATH_FLOATV || check == CHK_MATH2_FLOAT);
		break;
	case CHK_CLASSIFY:
		ok = want_types(e, args[0], 0, ir_scalar(IR_F32), f32f64, "f32 or f64");
		e->ty = ir_scalar(IR_I1);
		break;
	case CHK_VOID:
		e->ty = ir_scalar(IR_VOID);
		break;
	case CHK_SHUFFLE:
		ok = want_types(e, args[0], 1, ir_scalar(IR_I32), shfl,
				"a 32-bit scalar (i32, u32 or f32)") &&
		     fe_convert(args[1], ir_scalar(IR_I32), "the lane argument of a shuffle");
		e->ty = args[0]->ty;
		break;
	case CHK_VOTE:
		ok = want_types(e, args[0], 0, ir_scalar(IR_I1), i1only, "i1");
		e->ty = ir_scalar(e->builtin == BI_BALLOT ? IR_U32 : IR_I1);
		break;
	default:
		ICE("check_call: builtin %d", e->builtin);
	}
	if (!ok)
		fe_set_error(e);
}

void
sema_expr(Sema *S, Node *e)
{
	e->isconst = 0;
	switch (e->kind) {
	case N_INT:
		fe_set_const(e, fe_ty(TY_UNTYPED_INT), (ConstVal){e->ival, 0});
		break;
	case N_FLOAT:
		fe_set_const(e, fe_ty(TY_UNTYPED_FLOAT), (ConstVal){0, e->fval});
		break;
	case N_BOOL:
		fe_set_const(e, ir_scalar(IR_I1), (ConstVal){e->ival, 0});
		break;
	case N_NAME: check_name(S, e); break;
	case N_UNARY: check_unary(S, e); break;
	case N_BINARY: check_binary(S, e); break;
	case N_COND: check_cond(S, e); break;
	case N_CALL: check_call(S, e); break;
	case N_INDEX: check_index(S, e); break;
	case N_MEMBER: check_member(S, e); break;
	case N_LIST:
		diag_error(e->loc, "a list [...] is only an argument of tma_load, tma_store and store (the coordinates)");
		fe_set_error(e);
		break;
	case N_NAMED:
		diag_error(e->loc, "a named argument '%s: ...' is only accepted by tma_load (multicast:, part:) and tcgen05_mma (accumulate:)", e->name);
		fe_set_error(e);
		break;
	default:
		ICE("sema_expr: node kind %d", e->kind);
	}
}

/* sema_expr, then insists on a value: not a tensor, namespace, function or void call. */
int
sema_value(Sema *S, Node *e)
{
	sema_expr(S, e);
	if (fe_is_error(e->ty))
		return 0;
	if (e->ty.base == IR_VOID) {
		diag_error(e->loc, "'%s()' does not produce a value", e->name);
	} else if (e->ty.base == TY_NONVALUE) {
		const Symbol *s = e->sym;

		if (s && s->kind == SYM_TENSOR)
			diag_error(e->loc, "tensor '%s' must be indexed, as in %s[i]", s->name, s->name);
		else if (s && s->kind == SYM_SHARED)
			diag_error(e->loc, "shared array '%s' must be indexed, as in %s[i]", s->name, s->name);
		else if (s && (s->kind == SYM_TMAP || s->kind == SYM_PIPELINE || s->kind == SYM_MBARRIER))
			diag_error(e->loc, "%s '%s' is not a value", sema_sym_what(s), s->name);
		else if (s && builtins[s->builtin].check == CHK_DIM)
			diag_error(e->loc, "'%s' needs a member: %s.x, %s.y or %s.z", s->name, s->name,
				   s->name, s->name);
		else if (s)
			diag_error(e->loc, "'%s' is a function; call it", s->name);
		else
			diag_error(e->loc, "this expression has no value");
	} else {
		return 1;
	}
	fe_set_error(e);
	return 0;
}

/* Checks e as a compile-time integer; returns 0 (after an error naming `what`) if not. */
int
sema_const_int(Sema *S, Node *e, const char *what, int64_t *v)
{
	sema_expr(S, e);
	if (fe_is_error(e->ty))
		return 0;
	if (!e->isconst || !(fe_intnum(e->ty))) {
		diag_error(e->loc, "%s must be a compile-time integer constant", what);
		fe_set_error(e);
		return 0;
	}
	if (e->ty.base == TY_UNTYPED_INT && !fe_convert_untyped(e, ir_scalar(IR_I64)))
		return 0;
	*v = e->cv.i;
	return 1;
}
