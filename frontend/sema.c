/* sema.c: semantic analysis of a parsed .cake file. Resolves names through nested scopes,
 * gives every expression a type under strict rules (no implicit conversions; untyped
 * literals take the type their context needs), evaluates constants with range checks,
 * applies -D overrides, and gathers each kernel's metadata (targets, threads, grid text,
 * shape symbols, shared arrays) for lowering. Errors are reported as they are found and
 * poison the expression (TY_ERROR) so that one mistake gives one message. */
#include "ast.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Sema {
	Parser *p;
	const FeOptions *opt;
	Symbol **scope;
	int nscope, capscope;
	int *marks;
	int nmarks, capmarks;
	/* the kernel being checked */
	Node *kernel;
	int nparams;            /* its declared parameters; shape symbols come after */
	Symbol **syms;
	int nsyms, capsyms;
	Symbol **shared;
	int nshared, capshared;
	int64_t smem;
	int nslots;
	int depth;              /* block nesting: 1 is the kernel body */
} Sema;

static const struct {
	const char *name;
	int builtin;
	int nargs;              /* functions only */
} builtins[] = {
	{"lane", BI_LANE, -1}, {"warp", BI_WARP, -1},
	{"thread", BI_THREAD, -1}, {"block", BI_BLOCK, -1},
	{"block_dim", BI_BLOCK_DIM, -1}, {"grid_dim", BI_GRID_DIM, -1},
	{"exp2", BI_EXP2, 1}, {"log2", BI_LOG2, 1}, {"rsqrt", BI_RSQRT, 1}, {"sqrt", BI_SQRT, 1},
	{"fma", BI_FMA, 3}, {"min", BI_MIN, 2}, {"max", BI_MAX, 2}, {"abs", BI_ABS, 1},
	{"cdiv", BI_CDIV, 2}, {"barrier", BI_BARRIER, 0},
	{"shfl_xor", BI_SHFL_XOR, 2}, {"shfl_down", BI_SHFL_DOWN, 2},
	{"shfl_up", BI_SHFL_UP, 2}, {"shfl_idx", BI_SHFL_IDX, 2},
	{"any", BI_ANY, 1}, {"all", BI_ALL, 1}, {"ballot", BI_BALLOT, 1},
	{"atomic_add", BI_ATOMIC_ADD, 2}, {"atomic_min", BI_ATOMIC_MIN, 2},
	{"atomic_max", BI_ATOMIC_MAX, 2}, {"atomic_and", BI_ATOMIC_AND, 2},
	{"atomic_or", BI_ATOMIC_OR, 2}, {"atomic_xchg", BI_ATOMIC_XCHG, 2},
	{"atomic_cas", BI_ATOMIC_CAS, 3},
};

static void check_expr(Sema *S, Node *e);
static int check_value(Sema *S, Node *e);
static void check_stmt(Sema *S, Node *s);

/* ---- types and constants ---- */

/* Parses a type name: a scalar ("f32") or a 2- or 4-wide vector of a non-i1 scalar
 * ("bf16x4"). Returns 0 if s names no type. */
static int
type_from_name(const char *s, IrType *t)
{
	int n = (int)strlen(s), b;

	b = ir_base_from_name(s, n);
	if (b >= 0) {
		*t = ir_scalar((IrBase)b);
		return 1;
	}
	if (n > 2 && s[n - 2] == 'x' && (s[n - 1] == '2' || s[n - 1] == '4')) {
		b = ir_base_from_name(s, n - 2);
		if (b > IR_I1) {
			*t = ir_vector((IrBase)b, s[n - 1] - '0');
			return 1;
		}
	}
	return 0;
}

/* Type names for messages; a few rotating buffers so one message can show several. */
static const char *
tname(IrType t)
{
	static char bufs[4][48];
	static int next;
	char *s = bufs[next++ & 3];

	fe_type_str(t, s, 48);
	return s;
}

static IrType
ty_base(int base)
{
	IrType t = {(uint8_t)base, 1, 0, 0};

	return t;
}

static int is_untyped(IrType t) { return t.base == TY_UNTYPED_INT || t.base == TY_UNTYPED_FLOAT; }
static int is_error(IrType t) { return t.base == TY_ERROR; }
static int is_scalar(IrType t) { return t.lanes == 1 && t.base >= IR_I1 && t.base <= IR_F64; }
static int is_vector(IrType t) { return t.lanes > 1; }

/* An integer type other than i1 (the numeric integers), or an untyped integer. */
static int
is_intnum(IrType t)
{
	return t.base == TY_UNTYPED_INT || (t.base > IR_I1 && t.base <= IR_U64);
}

static int
is_floatnum(IrType t)
{
	return t.base == TY_UNTYPED_FLOAT || (t.base >= IR_F16 && t.base <= IR_F64);
}

static int
is_unsigned(IrType t)
{
	return t.base == IR_U32 || t.base == IR_U64;
}

static double
float_max(int base)
{
	switch (base) {
	case IR_F16: return 65504.0;
	case IR_BF16: return 3.3895313892515355e38;
	case IR_F32: return 3.4028234663852886e38;
	default: return HUGE_VAL;
	}
}

/* Whether the integer v (the bits of a u64) is a value of type base. */
static int
int_fits(int base, int64_t v)
{
	switch (base) {
	case IR_I1: return v == 0 || v == 1;
	case IR_I8: return v >= -128 && v <= 127;
	case IR_I16: return v >= -32768 && v <= 32767;
	case IR_I32: return v >= INT32_MIN && v <= INT32_MAX;
	case IR_U32: return v >= 0 && v <= (int64_t)UINT32_MAX;
	default: return 1;
	}
}

static void
const_str(char *out, size_t size, IrType t, ConstVal v)
{
	if (is_floatnum(t))
		fe_double_str(out, size, v.f);
	else if (t.base == IR_U64)
		snprintf(out, size, "%llu", (unsigned long long)v.i);
	else if (t.base == IR_I1)
		snprintf(out, size, "%s", v.i ? "true" : "false");
	else
		snprintf(out, size, "%lld", (long long)v.i);
}

/* Rounds a float constant to what its type holds, so that folding matches run time. */
static double
round_float(int base, double v)
{
	return base == IR_F32 ? (double)(float)v : v;
}

/* Marks e as a compile-time value of type t. */
static void
set_const(Node *e, IrType t, ConstVal v)
{
	e->ty = t;
	e->isconst = 1;
	e->cv = v;
}

static void
set_error(Node *e)
{
	e->ty = ty_base(TY_ERROR);
	e->isconst = 0;
}

/* Gives the untyped constant e the type t, checking that its value fits. */
static int
convert_untyped(Node *e, IrType t)
{
	char s[64];

	const_str(s, sizeof s, e->ty, e->cv);
	if (!is_scalar(t)) {
		diag_error(e->loc, "type mismatch: expected %s, found %s constant %s", tname(t),
			   tname(e->ty), s);
		return 0;
	}
	if (e->ty.base == TY_UNTYPED_INT && is_intnum(t)) {
		if (!int_fits(t.base, e->cv.i) || (t.base == IR_U64 && e->cv.i < 0)) {
			diag_error(e->loc, "constant %s overflows %s", s, tname(t));
			return 0;
		}
	} else if (is_floatnum(t)) {
		double f = e->ty.base == TY_UNTYPED_INT ? (double)e->cv.i : e->cv.f;

		if (fabs(f) > float_max(t.base)) {
			diag_error(e->loc, "constant %s overflows %s", s, tname(t));
			return 0;
		}
		e->cv.f = round_float(t.base, f);
	} else if (e->ty.base == TY_UNTYPED_FLOAT && is_intnum(t)) {
		diag_error(e->loc, "cannot use the float constant %s as %s (convert it with %s(...))",
			   s, tname(t), tname(t));
		return 0;
	} else {
		diag_error(e->loc, "type mismatch: expected %s, found %s constant %s", tname(t),
			   tname(e->ty), s);
		return 0;
	}
	e->ty = t;
	return 1;
}

/* Makes e (already checked) a value of type want: untyped constants convert; anything
 * else must match exactly. `what` names the context: "the initializer of 'x'". */
static int
convert(Node *e, IrType want, const char *what)
{
	if (is_error(e->ty) || is_error(want))
		return 0;
	if (ir_type_eq(e->ty, want))
		return 1;
	if (is_untyped(e->ty))
		return convert_untyped(e, want);
	diag_error(e->loc, "type mismatch in %s: expected %s, found %s", what, tname(want),
		   tname(e->ty));
	set_error(e);
	return 0;
}

/* Gives an untyped constant its default type: i32 for integers, f32 for floats. */
static int
default_type(Node *e)
{
	if (e->ty.base == TY_UNTYPED_INT)
		return convert_untyped(e, ir_scalar(IR_I32));
	if (e->ty.base == TY_UNTYPED_FLOAT)
		return convert_untyped(e, ir_scalar(IR_F32));
	return !is_error(e->ty);
}

/* The value of a constant of type `from` converted as the `cast` op does at run time:
 * float to integer truncates toward zero and saturates, integers wrap to the width. */
static ConstVal
cast_const(IrType from, IrType to, ConstVal v)
{
	ConstVal r = {0, 0};

	if (is_floatnum(to)) {
		if (is_floatnum(from))
			r.f = v.f;
		else if (from.base == IR_U64)
			r.f = (double)(uint64_t)v.i;
		else
			r.f = (double)v.i;
		r.f = round_float(to.base, r.f);
		return r;
	}
	if (is_floatnum(from)) {
		double f = trunc(v.f);

		if (isnan(f))
			r.i = 0;
		else if (to.base == IR_U64)
			r.i = f <= 0 ? 0 : f >= 18446744073709551615.0 ? -1 : (int64_t)(uint64_t)f;
		else if (to.base == IR_I64)
			r.i = f <= -9223372036854775808.0 ? INT64_MIN : f >= 9223372036854775807.0 ? INT64_MAX : (int64_t)f;
		else {
			int64_t lo, hi;

			switch (to.base) {
			case IR_I8: lo = -128; hi = 127; break;
			case IR_I16: lo = -32768; hi = 32767; break;
			case IR_I32: lo = INT32_MIN; hi = INT32_MAX; break;
			default: lo = 0; hi = UINT32_MAX; break;
			}
			r.i = f <= (double)lo ? lo : f >= (double)hi ? hi : (int64_t)f;
		}
		return r;
	}
	switch (to.base) {
	case IR_I8: r.i = (int8_t)(uint8_t)((uint64_t)v.i & 0xff); break;
	case IR_I16: r.i = (int16_t)(uint16_t)((uint64_t)v.i & 0xffff); break;
	case IR_I32: r.i = (int32_t)(uint32_t)((uint64_t)v.i & 0xffffffff); break;
	case IR_U32: r.i = (int64_t)((uint64_t)v.i & 0xffffffff); break;
	default: r.i = v.i; break;
	}
	return r;
}

/* ---- scopes ---- */

static void
push_scope(Sema *S)
{
	PUSH(S->marks, S->nmarks, S->capmarks, S->nscope);
}

static void
pop_scope(Sema *S)
{
	S->nscope = S->marks[--S->nmarks];
}

static Symbol *
lookup(Sema *S, const char *name)
{
	int i;

	for (i = S->nscope - 1; i >= 0; i--)
		if (strcmp(S->scope[i]->name, name) == 0)
			return S->scope[i];
	return NULL;
}

static const char *
sym_what(const Symbol *s)
{
	switch (s->kind) {
	case SYM_CONST: return "constant";
	case SYM_TENSOR: return "tensor parameter";
	case SYM_SCALAR: return "parameter";
	case SYM_SHAPE: return "shape symbol";
	case SYM_LET: return "'let' binding";
	case SYM_VAR: return "variable";
	case SYM_ITER: return "loop index";
	case SYM_SHARED: return "shared array";
	default: return "builtin";
	}
}

/* Declares name in the innermost scope. A name may not be declared twice where it is
 * visible (no shadowing), nor be a type or builtin name. Returns the new symbol, which
 * stays out of scope after an error so that uses keep resolving to the first one. */
static Symbol *
declare(Sema *S, SymKind kind, const char *name, SrcLoc loc, Node *decl)
{
	Symbol *s = arena_alloc(S->p->arena, sizeof *s);
	Symbol *old = lookup(S, name);
	IrType t;

	s->kind = kind;
	s->name = name;
	s->loc = loc;
	s->decl = decl;
	if (type_from_name(name, &t)) {
		diag_error(loc, "'%s' is a type name and cannot be declared", name);
		return s;
	}
	if (old && old->kind == SYM_BUILTIN) {
		diag_error(loc, "'%s' is a builtin name and cannot be redefined", name);
		return s;
	}
	if (old) {
		if ((kind == SYM_TENSOR || kind == SYM_SCALAR) &&
		    (old->kind == SYM_TENSOR || old->kind == SYM_SCALAR))
			diag_error(loc, "duplicate parameter '%s'", name);
		else
			diag_error(loc, "redefinition of '%s'", name);
		diag_note(old->loc, "'%s' was first declared here as a %s", name, sym_what(old));
		return s;
	}
	PUSH(S->scope, S->nscope, S->capscope, s);
	return s;
}

static int
new_slot(Sema *S)
{
	return S->nslots++;
}

/* ---- expressions ---- */

/* Folds an integer operation of type t (an integer type or untyped int). Returns 0 after
 * reporting an overflow or a division by zero. */
static int
fold_int(Node *e, AstOp op, IrType t, int64_t a, int64_t b, int64_t *r)
{
	int bits = t.base == TY_UNTYPED_INT ? 64 : ir_base_bits((IrBase)t.base);
	int u64 = t.base == IR_U64;
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	int bad = 0;

	switch (op) {
	case OP_ADD:
		if (u64)
			bad = (*r = (int64_t)(ua + ub), ua + ub < ua);
		else
			bad = __builtin_add_overflow(a, b, r);
		break;
	case OP_SUB:
		if (u64)
			bad = (*r = (int64_t)(ua - ub), ub > ua);
		else
			bad = __builtin_sub_overflow(a, b, r);
		break;
	case OP_MUL:
		if (u64) {
			uint64_t m;

			bad = __builtin_mul_overflow(ua, ub, &m);
			*r = (int64_t)m;
		} else {
			bad = __builtin_mul_overflow(a, b, r);
		}
		break;
	case OP_DIV:
	case OP_REM:
		if (b == 0) {
			diag_error(e->loc, "division by zero in a constant expression");
			return 0;
		}
		if (u64)
			*r = (int64_t)(op == OP_DIV ? ua / ub : ua % ub);
		else if (a == INT64_MIN && b == -1)
			bad = 1;
		else
			*r = op == OP_DIV ? a / b : a % b;
		break;
	case OP_AND: *r = a & b; break;
	case OP_OR: *r = a | b; break;
	case OP_XOR: *r = a ^ b; break;
	case OP_SHL:
	case OP_SHR:
		if (b < 0 || b >= bits) {
			diag_error(e->loc, "shift count %lld is out of range for %s (0 to %d)",
				   (long long)b, tname(t), bits - 1);
			return 0;
		}
		if (op == OP_SHL) {
			*r = (int64_t)(ua << b);
			if (!u64 && bits == 64 && ((*r >> b) != a))
				bad = 1;
		} else if (u64 || a >= 0) {
			*r = (int64_t)(ua >> b);
		} else {
			*r = ~(int64_t)(~ua >> b);
		}
		break;
	default:
		ICE("fold_int: operator %d", op);
	}
	if (!bad && !u64 && !int_fits(t.base, *r))
		bad = 1;
	if (bad) {
		diag_error(e->loc, "constant expression overflows %s", tname(t));
		return 0;
	}
	return 1;
}

static int
compare(AstOp op, int c)
{
	switch (op) {
	case OP_EQ: return c == 0;
	case OP_NE: return c != 0;
	case OP_LT: return c < 0;
	case OP_LE: return c <= 0;
	case OP_GT: return c > 0;
	default: return c >= 0;
	}
}

static int
is_compare(AstOp op)
{
	return op >= OP_EQ && op <= OP_GE;
}

/* Folds `a op b` for two constants of type t; sets e. Returns 0 on a reported error or
 * when the operation is not folded (f16/bf16 arithmetic is left to run time). */
static int
fold_binary(Node *e, AstOp op, IrType t, ConstVal a, ConstVal b)
{
	ConstVal r = {0, 0};

	if (is_compare(op)) {
		int c;

		if (is_floatnum(t)) {
			if (isnan(a.f) || isnan(b.f)) {
				r.i = op == OP_NE;
				set_const(e, ir_scalar(IR_I1), r);
				return 1;
			}
			c = a.f < b.f ? -1 : a.f > b.f;
		} else if (t.base == IR_U64) {
			c = (uint64_t)a.i < (uint64_t)b.i ? -1 : (uint64_t)a.i > (uint64_t)b.i;
		} else {
			c = a.i < b.i ? -1 : a.i > b.i;
		}
		r.i = compare(op, c);
		set_const(e, ir_scalar(IR_I1), r);
		return 1;
	}
	if (op == OP_LAND || op == OP_LOR) {
		r.i = op == OP_LAND ? (a.i && b.i) : (a.i || b.i);
		set_const(e, t, r);
		return 1;
	}
	if (is_floatnum(t)) {
		if (t.base == IR_F16 || t.base == IR_BF16)
			return 0;
		switch (op) {
		case OP_ADD: r.f = a.f + b.f; break;
		case OP_SUB: r.f = a.f - b.f; break;
		case OP_MUL: r.f = a.f * b.f; break;
		case OP_DIV:
			if (b.f == 0) {
				diag_error(e->loc, "division by zero in a constant expression");
				set_error(e);
				return 0;
			}
			r.f = a.f / b.f;
			break;
		default:
			return 0;
		}
		r.f = round_float(t.base, r.f);
		if (isinf(r.f) || fabs(r.f) > float_max(t.base)) {
			diag_error(e->loc, "constant expression overflows %s", tname(t));
			set_error(e);
			return 0;
		}
		set_const(e, t, r);
		return 1;
	}
	if (!fold_int(e, op, t, a.i, b.i, &r.i)) {
		set_error(e);
		return 0;
	}
	set_const(e, t, r);
	return 1;
}

/* Whether op applies to operands of type t. */
static int
binary_ok(AstOp op, IrType t)
{
	int lanes_ok = 1;

	if (is_untyped(t))
		return op != OP_LAND && op != OP_LOR &&
		       (t.base == TY_UNTYPED_INT ||
			op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_DIV || is_compare(op));
	if (is_compare(op) || op == OP_LAND || op == OP_LOR)
		lanes_ok = t.lanes == 1;
	if (!lanes_ok)
		return 0;
	switch (op) {
	case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV:
		return is_intnum(t) || is_floatnum(t);
	case OP_REM: case OP_SHL: case OP_SHR:
		return is_intnum(t);
	case OP_AND: case OP_OR: case OP_XOR:
		return ir_is_int(t);
	case OP_LAND: case OP_LOR:
		return t.base == IR_I1;
	case OP_EQ: case OP_NE:
		return ir_is_int(t) || ir_is_float(t);
	default:
		return is_intnum(t) || is_floatnum(t);
	}
}

/* Brings the operands of a binary operator (or of min, max, select...) to one type:
 * untyped constants take the other side's type. Returns 0 after reporting a mismatch. */
static int
unify(Node *e, Node *a, Node *b, const char *what)
{
	if (is_error(a->ty) || is_error(b->ty))
		return 0;
	if (ir_type_eq(a->ty, b->ty))
		return 1;
	if (is_untyped(a->ty) && is_untyped(b->ty)) {
		/* an untyped int meets an untyped float: both are floats now */
		if (a->ty.base == TY_UNTYPED_INT) {
			a->cv.f = (double)a->cv.i;
			a->ty = ty_base(TY_UNTYPED_FLOAT);
		} else {
			b->cv.f = (double)b->cv.i;
			b->ty = ty_base(TY_UNTYPED_FLOAT);
		}
		return 1;
	}
	if (is_untyped(a->ty))
		return convert_untyped(a, b->ty);
	if (is_untyped(b->ty))
		return convert_untyped(b, a->ty);
	diag_error(e->loc, "operands of %s have different types: %s and %s", what,
		   tname(a->ty), tname(b->ty));
	return 0;
}

static void
check_binary(Sema *S, Node *e)
{
	char what[32];
	int ok = check_value(S, e->lhs) & check_value(S, e->rhs);
	IrType t;

	snprintf(what, sizeof what, "'%s'", ast_op_text(e->op));
	if (!ok || !unify(e, e->lhs, e->rhs, what)) {
		set_error(e);
		return;
	}
	t = e->lhs->ty;
	if (!binary_ok(e->op, t)) {
		if (e->op == OP_LAND || e->op == OP_LOR)
			diag_error(e->loc, "operands of '%s' must be i1, found %s", ast_op_text(e->op),
				   tname(t));
		else if (is_compare(e->op) && is_vector(t))
			diag_error(e->loc, "'%s' compares scalars, found %s", ast_op_text(e->op),
				   tname(t));
		else
			diag_error(e->loc, "operator '%s' does not apply to %s", ast_op_text(e->op),
				   tname(t));
		set_error(e);
		return;
	}
	e->ty = is_compare(e->op) ? ir_scalar(IR_I1) : t;
	if (e->lhs->isconst && e->rhs->isconst)
		fold_binary(e, e->op, t, e->lhs->cv, e->rhs->cv);
}

static void
check_unary(Sema *S, Node *e)
{
	IrType t;
	int ok;

	if (!check_value(S, e->lhs)) {
		set_error(e);
		return;
	}
	t = e->lhs->ty;
	switch (e->op) {
	case OP_NEG: ok = (is_intnum(t) && !is_unsigned(t)) || is_floatnum(t); break;
	case OP_NOT: ok = t.base == IR_I1; break;
	default: ok = is_intnum(t); break;
	}
	if (!ok) {
		if (e->op == OP_NOT)
			diag_error(e->loc, "operator '!' needs i1, found %s (use '~' for integers)", tname(t));
		else
			diag_error(e->loc, "operator '%s' does not apply to %s", ast_op_text(e->op),
				   tname(t));
		set_error(e);
		return;
	}
	e->ty = t;
	if (!e->lhs->isconst || t.base == IR_F16 || t.base == IR_BF16)
		return;
	if (e->op == OP_NEG && is_floatnum(t)) {
		ConstVal r = {0, -e->lhs->cv.f};

		set_const(e, t, r);
	} else if (e->op == OP_NEG) {
		ConstVal z = {0, 0};

		fold_binary(e, OP_SUB, t, z, e->lhs->cv);
	} else if (e->op == OP_NOT) {
		ConstVal r = {!e->lhs->cv.i, 0};

		set_const(e, t, r);
	} else {
		ConstVal r = {0, 0};

		r = cast_const(ir_scalar(IR_I64), t.base == TY_UNTYPED_INT ? ir_scalar(IR_I64) : t,
			       (ConstVal){~e->lhs->cv.i, 0});
		set_const(e, t, r);
	}
}

static void
check_cond(Sema *S, Node *e)
{
	int ok = check_value(S, e->cond) & check_value(S, e->lhs) & check_value(S, e->rhs);

	if (!ok || !convert(e->cond, ir_scalar(IR_I1), "the condition of '?:'") ||
	    !unify(e, e->lhs, e->rhs, "'?:'")) {
		set_error(e);
		return;
	}
	if (e->cond->isconst && e->lhs->isconst && e->rhs->isconst) {
		set_const(e, e->lhs->ty, e->cond->cv.i ? e->lhs->cv : e->rhs->cv);
		return;
	}
	/* a run-time choice between two untyped constants needs a real type */
	if (is_untyped(e->lhs->ty) && (!default_type(e->lhs) || !default_type(e->rhs))) {
		set_error(e);
		return;
	}
	e->ty = e->lhs->ty;
}


/* Checks the indices (and vector width) of an element access on tensor or shared array s
 * and gives e its element (or vector) type. */
static int
check_element(Sema *S, Node *e, Symbol *s, int read, int write)
{
	Node *ix;
	int i = 0, ok = 1;

	e->sym = s;
	e->indexkind = s->kind == SYM_TENSOR ? IDX_TENSOR : IDX_SHARED;
	if (is_error(s->type)) {
		/* its declaration was reported; still check the indices themselves */
		for (ix = e->list.head; ix; ix = ix->next)
			check_expr(S, ix);
		set_error(e);
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
		if (!check_value(S, ix))
			ok = 0;
		else if (!is_intnum(ix->ty) && !is_untyped(ix->ty) && !is_error(ix->ty)) {
			diag_error(ix->loc, "%s must be i32, found %s", what, tname(ix->ty));
			ok = 0;
		} else if (!convert(ix, ir_scalar(IR_I32), what)) {
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
		check_expr(S, e->width);
		if (is_error(e->width->ty)) {
			ok = 0;
		} else if (!e->width->isconst || !is_intnum(e->width->ty)) {
			diag_error(e->width->loc, "vector width must be the constant 2 or 4");
			ok = 0;
		} else if (e->width->cv.i != 2 && e->width->cv.i != 4) {
			diag_error(e->width->loc, "vector width must be 2 or 4, found %lld",
				   (long long)e->width->cv.i);
			ok = 0;
		} else {
			e->ty = ir_vector((IrBase)s->type.base, (int)e->width->cv.i);
			if (e->width->ty.base == TY_UNTYPED_INT)
				convert_untyped(e->width, ir_scalar(IR_I32));
		}
	}
	if (!ok)
		set_error(e);
	return ok;
}

/* A lane of a vector: v[i] with a constant i. */
static void
check_lane_index(Sema *S, Node *e)
{
	IrType vt = e->lhs->ty;
	Node *ix = e->list.head;

	if (e->list.n != 1 || e->width) {
		diag_error(e->loc, "a vector lane takes one constant index, as in v[%d]", vt.lanes - 1);
		set_error(e);
		return;
	}
	check_expr(S, ix);
	if (is_error(ix->ty)) {
		set_error(e);
		return;
	}
	if (!ix->isconst || !is_intnum(ix->ty)) {
		diag_error(ix->loc, "a vector lane index must be an integer constant");
		set_error(e);
		return;
	}
	if (ix->cv.i < 0 || ix->cv.i >= vt.lanes) {
		diag_error(ix->loc, "lane index %lld is out of range for %s (0 to %d)",
			   (long long)ix->cv.i, tname(vt), vt.lanes - 1);
		set_error(e);
		return;
	}
	if (ix->ty.base == TY_UNTYPED_INT)
		convert_untyped(ix, ir_scalar(IR_I32));
	e->indexkind = IDX_LANE;
	e->lane = (int)ix->cv.i;
	e->ty = ir_scalar((IrBase)vt.base);
}

/* Resolves the base of an index expression to a tensor or shared array, if it is one. */
static Symbol *
element_base(Sema *S, Node *e)
{
	Symbol *s;

	if (e->lhs->kind != N_NAME)
		return NULL;
	s = lookup(S, e->lhs->name);
	if (s && (s->kind == SYM_TENSOR || s->kind == SYM_SHARED)) {
		e->lhs->sym = s;
		e->lhs->ty = ty_base(TY_NONVALUE);
		return s;
	}
	return NULL;
}

static void
check_index(Sema *S, Node *e)
{
	Symbol *s = element_base(S, e);

	if (s) {
		check_element(S, e, s, 1, 0);
		return;
	}
	if (!check_value(S, e->lhs)) {
		set_error(e);
		return;
	}
	if (!is_vector(e->lhs->ty)) {
		diag_error(e->loc, "cannot index a value of type %s (only tensors, shared arrays and vectors take [ ])",
			   tname(e->lhs->ty));
		set_error(e);
		return;
	}
	check_lane_index(S, e);
}

static void
check_member(Sema *S, Node *e)
{
	static const char lanes[] = "xyzw";
	const char *m = e->name;
	Symbol *s = e->lhs->kind == N_NAME ? lookup(S, e->lhs->name) : NULL;
	int lane = m[0] && !m[1] && strchr(lanes, m[0]) ? (int)(strchr(lanes, m[0]) - lanes) : -1;

	if (s && s->kind == SYM_BUILTIN && s->builtin >= BI_THREAD && s->builtin <= BI_GRID_DIM) {
		e->lhs->sym = s;
		e->lhs->ty = ty_base(TY_NONVALUE);
		if (lane < 0 || lane > 2) {
			diag_error(e->loc, "'%s' has members x, y and z, found '%s'", s->name, m);
			set_error(e);
			return;
		}
		e->builtin = s->builtin;
		e->lane = lane;
		e->ty = ir_scalar(IR_I32);
		return;
	}
	if (!check_value(S, e->lhs)) {
		set_error(e);
		return;
	}
	if (!is_vector(e->lhs->ty)) {
		diag_error(e->loc, "a value of type %s has no member '%s' (lanes .x .y .z .w are for vectors)",
			   tname(e->lhs->ty), m);
		set_error(e);
		return;
	}
	if (lane < 0 || lane >= e->lhs->ty.lanes) {
		diag_error(e->loc, "%s has no lane '.%s' (it has %.*s)", tname(e->lhs->ty), m,
			   e->lhs->ty.lanes == 2 ? 6 : 14, ".x, .y, .z, .w");
		set_error(e);
		return;
	}
	e->lane = lane;
	e->ty = ir_scalar((IrBase)e->lhs->ty.base);
}

static void
check_name(Sema *S, Node *e)
{
	Symbol *s = lookup(S, e->name);

	e->sym = s;
	if (!s) {
		diag_error(e->loc, "undefined name '%s'", e->name);
		set_error(e);
		return;
	}
	switch (s->kind) {
	case SYM_CONST:
		if (is_error(s->type))
			set_error(e);
		else
			set_const(e, s->type, s->val);
		break;
	case SYM_SCALAR: case SYM_SHAPE: case SYM_LET: case SYM_VAR: case SYM_ITER:
		e->ty = s->type;
		if (is_error(s->type))
			e->ty = ty_base(TY_ERROR);
		break;
	case SYM_BUILTIN:
		e->builtin = s->builtin;
		e->ty = s->builtin == BI_LANE || s->builtin == BI_WARP ? ir_scalar(IR_I32)
								      : ty_base(TY_NONVALUE);
		break;
	default:
		e->ty = ty_base(TY_NONVALUE);
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
			diag_error(e->loc, "conversion to %s takes 1 argument, found %d", tname(t), e->list.n);
			set_error(e);
			return;
		}
		if (t.base == IR_I1) {
			diag_error(e->loc, "cannot convert to i1; compare instead, as in x != 0");
			set_error(e);
			return;
		}
		if (!check_value(S, a)) {
			set_error(e);
			return;
		}
		if (!is_scalar(a->ty) && !is_untyped(a->ty)) {
			diag_error(e->loc, "cannot convert %s to %s", tname(a->ty), tname(t));
			set_error(e);
			return;
		}
		e->ty = t;
		if (a->isconst && t.base != IR_F16 && t.base != IR_BF16) {
			IrType from = a->ty;

			if (from.base == TY_UNTYPED_INT)
				from = ir_scalar(IR_I64);
			else if (from.base == TY_UNTYPED_FLOAT)
				from = ir_scalar(IR_F64);
			set_const(e, t, cast_const(from, t, a->cv));
		} else if (a->isconst && is_untyped(a->ty)) {
			convert_untyped(a, t);
		}
		return;
	}
	/* vectors: one value per lane, one scalar to broadcast, or a vector to convert */
	e->builtin = BI_VECTOR;
	e->ty = t;
	if (e->list.n == 1) {
		if (!check_value(S, a)) {
			set_error(e);
			return;
		}
		if (is_vector(a->ty)) {
			e->builtin = BI_CAST;
			if (a->ty.lanes != t.lanes) {
				diag_error(e->loc, "cannot convert %s to %s: the lane counts differ",
					   tname(a->ty), tname(t));
				set_error(e);
			}
			return;
		}
		if (!convert(a, ir_scalar((IrBase)t.base), "the value broadcast to every lane"))
			set_error(e);
		return;
	}
	if (e->list.n != t.lanes) {
		diag_error(e->loc, "'%s' takes %s (or one value to broadcast), found %d",
			   tname(t), plural(t.lanes, "lane value"), e->list.n);
		set_error(e);
		return;
	}
	for (a = e->list.head; a; a = a->next, i++) {
		char what[64];

		snprintf(what, sizeof what, "lane %d of '%s'", i, tname(t));
		if (!check_value(S, a) || !convert(a, ir_scalar((IrBase)t.base), what))
			set_error(e);
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
		if (!is_untyped(args[i]->ty) && typed < 0)
			typed = i;
	if (typed < 0) {
		for (i = 1; i < n; i++)
			if (!unify(e, args[0], args[i], what))
				return 0;
		for (i = 1; i < n; i++)
			if (!unify(e, args[0], args[i], what))
				return 0;
		return 1;
	}
	for (i = 0; i < n; i++)
		if (i != typed && !unify(e, args[typed], args[i], what))
			return 0;
	return 1;
}

static int
is_atomic(int b)
{
	return b >= BI_ATOMIC_ADD && b <= BI_ATOMIC_CAS;
}

static void
check_atomic(Sema *S, Node *e, Node **args, int n)
{
	Node *place = args[0];
	Symbol *s = place->kind == N_INDEX ? element_base(S, place) : NULL;
	IrType t;
	int i, ok;

	if (!s) {
		diag_error(place->loc, "the first argument of '%s' must be a tensor or shared array element, as in x[i]",
			   e->name);
		set_error(e);
		return;
	}
	if (!check_element(S, place, s, 0, 1)) {
		set_error(e);
		return;
	}
	t = place->ty;
	if (is_vector(t)) {
		diag_error(place->loc, "'%s' works on one element, found a %s access", e->name, tname(t));
		set_error(e);
		return;
	}
	if (e->builtin == BI_ATOMIC_ADD)
		ok = t.base == IR_F32 || t.base == IR_I32 || t.base == IR_U32 || t.base == IR_U64;
	else
		ok = t.base == IR_I32 || t.base == IR_U32 || t.base == IR_U64;
	if (!ok) {
		diag_error(place->loc, "'%s' does not support %s elements (it takes %s)", e->name,
			   tname(t), e->builtin == BI_ATOMIC_ADD ? "f32, i32, u32 or u64" : "i32, u32 or u64");
		set_error(e);
		return;
	}
	e->ty = t;
	for (i = 1; i < n; i++) {
		char what[64];

		snprintf(what, sizeof what, "argument %d of '%s'", i + 1, e->name);
		if (!check_value(S, args[i]) || !convert(args[i], t, what))
			set_error(e);
	}
}

/* Requires a to be one of the listed types after defaulting an untyped constant to
 * `dflt`. Returns 0 after an error. */
static int
want_types(Node *e, Node *a, int argno, IrType dflt, const int *bases, const char *list)
{
	int i;

	if (is_error(a->ty))
		return 0;
	if (is_untyped(a->ty) && !convert(a, dflt, "an argument"))
		return 0;
	for (i = 0; bases[i]; i++)
		if (a->ty.lanes == 1 && a->ty.base == bases[i])
			return 1;
	if (argno)
		diag_error(a->loc, "argument %d of '%s' must be %s, found %s", argno, e->name, list,
			   tname(a->ty));
	else
		diag_error(a->loc, "the argument of '%s' must be %s, found %s", e->name, list,
			   tname(a->ty));
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
	int n = 0, i, ok = 1, nargs = 0;

	if (type_from_name(e->name, &t)) {
		check_conversion(S, e, t);
		return;
	}
	s = lookup(S, e->name);
	if (!s) {
		diag_error(e->loc, "unknown function '%s'", e->name);
		set_error(e);
		return;
	}
	if (s->kind != SYM_BUILTIN || s->builtin < BI_EXP2) {
		diag_error(e->loc, "'%s' is a %s, not a function", e->name, sym_what(s));
		set_error(e);
		return;
	}
	e->builtin = s->builtin;
	for (i = 0; i < (int)(sizeof builtins / sizeof builtins[0]); i++)
		if (builtins[i].builtin == s->builtin)
			nargs = builtins[i].nargs;
	if (e->list.n != nargs) {
		diag_error(e->loc, "'%s' takes %s, found %d", e->name, plural(nargs, "argument"),
			   e->list.n);
		set_error(e);
		return;
	}
	for (a = e->list.head; a; a = a->next)
		args[n++] = a;
	if (is_atomic(e->builtin)) {
		check_atomic(S, e, args, n);
		return;
	}
	for (i = 0; i < n; i++)
		ok &= check_value(S, args[i]);
	if (!ok) {
		set_error(e);
		return;
	}
	switch (e->builtin) {
	case BI_EXP2: case BI_LOG2: case BI_RSQRT:
		ok = want_types(e, args[0], 0, ir_scalar(IR_F32), f32only, "f32");
		e->ty = args[0]->ty;
		break;
	case BI_SQRT:
		ok = want_types(e, args[0], 0, ir_scalar(IR_F32), f32f64, "f32 or f64");
		e->ty = args[0]->ty;
		break;
	case BI_FMA:
		ok = unify_args(e, args, 3);
		for (i = 0; ok && i < 3; i++)
			if (is_untyped(args[i]->ty))
				ok = convert(args[i], ir_scalar(IR_F32), "an argument of 'fma'");
		t = args[0]->ty;
		if (ok && t.base != IR_F32 && t.base != IR_F64) {
			diag_error(e->loc, "the arguments of 'fma' must be f32 or f64 (scalars or vectors), found %s",
				   tname(t));
			ok = 0;
		}
		e->ty = t;
		break;
	case BI_MIN: case BI_MAX: case BI_CDIV:
		ok = unify_args(e, args, 2);
		t = args[0]->ty;
		if (ok && (!is_scalar(t) && !is_untyped(t))) {
			diag_error(e->loc, "'%s' takes scalars, found %s", e->name, tname(t));
			ok = 0;
		} else if (ok && (t.base == IR_I1 || (e->builtin == BI_CDIV && !is_intnum(t)))) {
			diag_error(e->loc, "'%s' does not apply to %s", e->name, tname(t));
			ok = 0;
		}
		if (!ok)
			break;
		e->ty = t;
		if (args[0]->isconst && args[1]->isconst) {
			ConstVal x = args[0]->cv, y = args[1]->cv, r = {0, 0};

			if (e->builtin == BI_CDIV) {
				int64_t sum;

				if (!fold_int(e, OP_SUB, t, y.i, 1, &sum) ||
				    !fold_int(e, OP_ADD, t, x.i, sum, &sum) ||
				    !fold_int(e, OP_DIV, t, sum, y.i, &r.i)) {
					ok = 0;
					break;
				}
			} else if (is_floatnum(t)) {
				r.f = (e->builtin == BI_MIN) == (x.f < y.f) ? x.f : y.f;
			} else if (t.base == IR_U64) {
				r.i = (e->builtin == BI_MIN) == ((uint64_t)x.i < (uint64_t)y.i) ? x.i : y.i;
			} else {
				r.i = (e->builtin == BI_MIN) == (x.i < y.i) ? x.i : y.i;
			}
			set_const(e, t, r);
		} else if (is_untyped(t)) {
			ok = default_type(args[0]) && default_type(args[1]);
			e->ty = args[0]->ty;
		}
		if (ok && !e->isconst && e->builtin == BI_CDIV && t.base != IR_I32) {
			diag_error(e->loc, "'cdiv' on run-time values takes i32, found %s", tname(t));
			ok = 0;
		}
		break;
	case BI_ABS:
		t = args[0]->ty;
		if (!(is_scalar(t) || is_untyped(t)) || t.base == IR_I1 || is_unsigned(t)) {
			diag_error(args[0]->loc, "the argument of 'abs' must be a signed integer or a float, found %s",
				   tname(t));
			ok = 0;
			break;
		}
		e->ty = t;
		if (args[0]->isconst && t.base != IR_F16 && t.base != IR_BF16) {
			ConstVal r = args[0]->cv;

			if (is_floatnum(t)) {
				r.f = fabs(r.f);
			} else if (r.i < 0) {
				ConstVal z = {0, 0};

				ok = fold_binary(e, OP_SUB, t, z, r);
				break;
			}
			set_const(e, t, r);
		}
		break;
	case BI_BARRIER:
		e->ty = ir_scalar(IR_VOID);
		break;
	case BI_SHFL_XOR: case BI_SHFL_DOWN: case BI_SHFL_UP: case BI_SHFL_IDX:
		ok = want_types(e, args[0], 1, ir_scalar(IR_I32), shfl,
				"a 32-bit scalar (i32, u32 or f32)") &&
		     convert(args[1], ir_scalar(IR_I32), "the lane argument of a shuffle");
		e->ty = args[0]->ty;
		break;
	case BI_ANY: case BI_ALL: case BI_BALLOT:
		ok = want_types(e, args[0], 0, ir_scalar(IR_I1), i1only, "i1");
		e->ty = ir_scalar(e->builtin == BI_BALLOT ? IR_U32 : IR_I1);
		break;
	default:
		ICE("check_call: builtin %d", e->builtin);
	}
	if (!ok)
		set_error(e);
}

static void
check_expr(Sema *S, Node *e)
{
	e->isconst = 0;
	switch (e->kind) {
	case N_INT:
		set_const(e, ty_base(TY_UNTYPED_INT), (ConstVal){e->ival, 0});
		break;
	case N_FLOAT:
		set_const(e, ty_base(TY_UNTYPED_FLOAT), (ConstVal){0, e->fval});
		break;
	case N_BOOL:
		set_const(e, ir_scalar(IR_I1), (ConstVal){e->ival, 0});
		break;
	case N_NAME: check_name(S, e); break;
	case N_UNARY: check_unary(S, e); break;
	case N_BINARY: check_binary(S, e); break;
	case N_COND: check_cond(S, e); break;
	case N_CALL: check_call(S, e); break;
	case N_INDEX: check_index(S, e); break;
	case N_MEMBER: check_member(S, e); break;
	default:
		ICE("check_expr: node kind %d", e->kind);
	}
}

/* check_expr, then insists on a value: not a tensor, namespace, function or void call. */
static int
check_value(Sema *S, Node *e)
{
	check_expr(S, e);
	if (is_error(e->ty))
		return 0;
	if (e->ty.base == IR_VOID) {
		diag_error(e->loc, "'%s()' does not produce a value", e->name);
	} else if (e->ty.base == TY_NONVALUE) {
		const Symbol *s = e->sym;

		if (s && s->kind == SYM_TENSOR)
			diag_error(e->loc, "tensor '%s' must be indexed, as in %s[i]", s->name, s->name);
		else if (s && s->kind == SYM_SHARED)
			diag_error(e->loc, "shared array '%s' must be indexed, as in %s[i]", s->name, s->name);
		else if (s && s->builtin >= BI_THREAD && s->builtin <= BI_GRID_DIM)
			diag_error(e->loc, "'%s' needs a member: %s.x, %s.y or %s.z", s->name, s->name,
				   s->name, s->name);
		else if (s)
			diag_error(e->loc, "'%s' is a function; call it", s->name);
		else
			diag_error(e->loc, "this expression has no value");
	} else {
		return 1;
	}
	set_error(e);
	return 0;
}

/* Checks e as a compile-time integer; returns 0 (after an error naming `what`) if not. */
static int
const_int(Sema *S, Node *e, const char *what, int64_t *v)
{
	check_expr(S, e);
	if (is_error(e->ty))
		return 0;
	if (!e->isconst || !(is_intnum(e->ty))) {
		diag_error(e->loc, "%s must be a compile-time integer constant", what);
		set_error(e);
		return 0;
	}
	if (e->ty.base == TY_UNTYPED_INT && !convert_untyped(e, ir_scalar(IR_I64)))
		return 0;
	*v = e->cv.i;
	return 1;
}

/* ---- statements ---- */

/* Resolves a declared type; `what` describes the declaration for messages. */
static int
resolve_type(Node *t, IrType *out)
{
	if (!type_from_name(t->name, out)) {
		diag_error(t->loc, "unknown type '%s'", t->name);
		return 0;
	}
	return 1;
}

static void
check_local(Sema *S, Node *s)
{
	char what[96];
	IrType t;
	Symbol *sym;
	int ok = 1;

	snprintf(what, sizeof what, "the initializer of '%s'", s->name);
	if (s->type) {
		ok = resolve_type(s->type, &t);
		if (ok && s->type->list.n) {
			diag_error(s->type->loc, "a local variable holds one value; use a shared array for an array");
			ok = 0;
		}
	}
	if (check_value(S, s->init) && ok)
		ok = s->type ? convert(s->init, t, what) : default_type(s->init);
	else
		ok = 0;
	sym = declare(S, s->kind == N_VAR ? SYM_VAR : SYM_LET, s->name, s->loc, s);
	sym->type = ok ? s->init->ty : ty_base(TY_ERROR);
	sym->slot = new_slot(S);
	s->sym = sym;
	s->ty = sym->type;
}

static void
check_shared(Sema *S, Node *s)
{
	Symbol *sym;
	IrType t;
	Node *d;
	int64_t count = 1, bytes, v, align = 16;
	int i = 0, ok = 1;

	if (S->depth != 1) {
		diag_error(s->loc, "shared arrays are declared at the top level of the kernel body");
		ok = 0;
	}
	if (!resolve_type(s->type, &t))
		return;
	if (!is_scalar(t) || t.base == IR_I1) {
		diag_error(s->type->loc, "shared array elements must be a numeric scalar type, found %s",
			   tname(t));
		ok = 0;
	}
	if (s->type->list.n == 0 || s->type->list.n > IR_MAX_RANK) {
		diag_error(s->type->loc, "shared array '%s' needs 1 to %d dimensions, as in %s[64]",
			   s->name, IR_MAX_RANK, s->type->name);
		return;
	}
	sym = declare(S, SYM_SHARED, s->name, s->loc, s);
	s->sym = sym;
	sym->type = t;
	sym->rank = s->type->list.n;
	for (d = s->type->list.head; d; d = d->next, i++) {
		check_expr(S, d);
		if (is_error(d->ty)) {
			ok = 0;
		} else if (!d->isconst || !is_intnum(d->ty)) {
			diag_error(d->loc, "shared array dimensions must be compile-time integer constants");
			ok = 0;
		} else if (d->cv.i <= 0) {
			diag_error(d->loc, "shared array dimension must be positive, found %lld",
				   (long long)d->cv.i);
			ok = 0;
		} else {
			sym->dims[i] = d->cv.i;
			if (count > FE_SMEM_LIMIT || d->cv.i > FE_SMEM_LIMIT)
				count = FE_SMEM_LIMIT + 1;
			else
				count *= d->cv.i;
		}
	}
	if (s->lhs && const_int(S, s->lhs, "the alignment", &v)) {
		if (v <= 0 || v > 4096 || (v & (v - 1))) {
			diag_error(s->lhs->loc, "alignment must be a power of two from 1 to 4096, found %lld",
				   (long long)v);
			ok = 0;
		} else if (v > align) {
			align = v;
		}
	}
	sym->align = (int)align;
	if (!ok) {
		sym->type = ty_base(TY_ERROR);
		return;
	}
	bytes = count * ir_type_bytes(t);
	S->smem = (S->smem + align - 1) / align * align + bytes;
	if (S->smem > FE_SMEM_LIMIT) {
		diag_error(s->loc, "shared arrays of kernel '%s' need %lld bytes, over the limit of %d bytes (227 KiB)",
			   S->kernel->name, (long long)S->smem, FE_SMEM_LIMIT);
		S->smem = -(int64_t)FE_SMEM_LIMIT * 4;  /* report once per kernel */
	}
	sym->buf = S->nshared;
	PUSH(S->shared, S->nshared, S->capshared, sym);
}

/* Checks the left side of an assignment; returns its type or TY_ERROR. */
static IrType
check_place(Sema *S, Node *e, int compound)
{
	Symbol *s;

	if (e->kind == N_NAME) {
		s = lookup(S, e->name);
		e->sym = s;
		if (!s) {
			diag_error(e->loc, "undefined name '%s'", e->name);
			return ty_base(TY_ERROR);
		}
		e->ty = s->type;
		switch (s->kind) {
		case SYM_VAR:
			return s->type;
		case SYM_LET:
			diag_error(e->loc, "cannot assign to '%s': it is a 'let' binding (declare it with 'var' to change it)",
				   e->name);
			break;
		case SYM_ITER:
			diag_error(e->loc, "cannot assign to the loop index '%s'", e->name);
			break;
		case SYM_TENSOR:
		case SYM_SHARED:
			diag_error(e->loc, "cannot assign to %s '%s' as a whole; assign its elements, as in %s[i]",
				   sym_what(s), e->name, e->name);
			break;
		default:
			diag_error(e->loc, "cannot assign to the %s '%s'", sym_what(s), e->name);
			break;
		}
		return ty_base(TY_ERROR);
	}
	if (e->kind == N_INDEX && (s = element_base(S, e))) {
		check_element(S, e, s, compound, 1);
		return e->ty;
	}
	if (e->kind == N_INDEX || e->kind == N_MEMBER) {
		check_expr(S, e);
		if (!is_error(e->ty))
			diag_error(e->loc, e->builtin ? "cannot assign to a builtin"
					   : "cannot assign to one lane of a vector; build a new vector instead");
		return ty_base(TY_ERROR);
	}
	diag_error(e->loc, "cannot assign to this expression; the left side must be a variable or an element");
	return ty_base(TY_ERROR);
}

static void
check_assign(Sema *S, Node *s)
{
	IrType t = check_place(S, s->lhs, s->op != OP_NONE);
	char what[96];

	if (!check_value(S, s->rhs) || is_error(t))
		return;
	if (s->op == OP_NONE) {
		if (s->lhs->kind == N_NAME)
			snprintf(what, sizeof what, "the assignment to '%s'", s->lhs->name);
		else
			snprintf(what, sizeof what, "the assignment");
		convert(s->rhs, t, what);
		return;
	}
	snprintf(what, sizeof what, "'%s='", ast_op_text(s->op));
	if (!convert(s->rhs, t, what))
		return;
	if (!binary_ok(s->op, t))
		diag_error(s->loc, "operator '%s=' does not apply to %s", ast_op_text(s->op), tname(t));
}

static void
check_condition(Sema *S, Node *c, const char *stmt)
{
	if (!check_value(S, c))
		return;
	if (c->ty.base != IR_I1 || c->ty.lanes != 1)
		diag_error(c->loc, "the condition of '%s' must be i1, found %s (compare it, as in x != 0)",
			   stmt, tname(c->ty));
}

static void
check_block(Sema *S, Node *b)
{
	Node *s;

	push_scope(S);
	S->depth++;
	for (s = b->list.head; s; s = s->next)
		check_stmt(S, s);
	S->depth--;
	pop_scope(S);
}

static void
check_for(Sema *S, Node *s)
{
	Node *bounds[3] = {s->lo, s->hi, s->step};
	static const char *const names[3] = {"lower bound", "upper bound", "step"};
	Symbol *iv;
	int64_t v;
	int i;

	for (i = 0; i < 3; i++) {
		char what[64];

		if (!bounds[i])
			continue;
		snprintf(what, sizeof what, "the %s of a for loop", names[i]);
		if (check_value(S, bounds[i]))
			convert(bounds[i], ir_scalar(IR_I32), what);
	}
	if (s->step && s->step->isconst && s->step->ty.base == IR_I32 && s->step->cv.i <= 0)
		diag_error(s->step->loc, "the step of a for loop must be positive, found %lld",
			   (long long)s->step->cv.i);
	if (s->op == UNROLL_COUNT && const_int(S, s->unroll_n, "the unroll count", &v) &&
	    (v < 1 || v > 1024))
		diag_error(s->unroll_n->loc, "the unroll count must be from 1 to 1024, found %lld",
			   (long long)v);
	push_scope(S);
	iv = declare(S, SYM_ITER, s->name, s->loc, s);
	iv->type = ir_scalar(IR_I32);
	iv->slot = new_slot(S);
	s->sym = iv;
	check_block(S, s->body);
	pop_scope(S);
}

static void
check_stmt(Sema *S, Node *s)
{
	s->slot_base = S->nslots;
	switch (s->kind) {
	case N_LET:
	case N_VAR:
		check_local(S, s);
		break;
	case N_SHARED:
		check_shared(S, s);
		break;
	case N_ASSIGN:
		check_assign(S, s);
		break;
	case N_IF:
		check_condition(S, s->cond, "if");
		check_block(S, s->body);
		if (s->els && s->els->kind == N_IF)
			check_stmt(S, s->els);
		else if (s->els)
			check_block(S, s->els);
		break;
	case N_FOR:
		check_for(S, s);
		break;
	case N_WHILE:
		check_condition(S, s->cond, "while");
		check_block(S, s->body);
		break;
	case N_BLOCK:
		check_block(S, s);
		break;
	case N_EXPRSTMT:
		if (s->lhs->kind != N_CALL) {
			diag_error(s->lhs->loc, "this expression does nothing; only calls can be statements");
			break;
		}
		check_expr(S, s->lhs);
		if (is_untyped(s->lhs->ty))
			default_type(s->lhs);
		break;
	case N_UNSUPPORTED:
		if (strcmp(s->name, "return") == 0)
			diag_error(s->loc, "'return' is not supported: a kernel ends at its closing brace (put the rest in an if)");
		else
			diag_error(s->loc, "'%s' is not supported: loops run to their bounds (use a while loop with a condition)",
				   s->name);
		break;
	default:
		ICE("check_stmt: node kind %d", s->kind);
	}
}

/* ---- constants and -D ---- */

/* Parses the text of a -D value as a constant of type t: 1 if it is one, 0 if it is not
 * spelled as one, -1 if it is out of the type's range. */
static int
parse_define(const char *text, IrType t, ConstVal *v)
{
	char *end;

	v->i = 0;
	v->f = 0;
	if (!*text || isspace((unsigned char)*text))
		return 0;
	errno = 0;
	if (t.base == IR_I1) {
		if (strcmp(text, "true") == 0 || strcmp(text, "1") == 0)
			v->i = 1;
		else if (strcmp(text, "false") != 0 && strcmp(text, "0") != 0)
			return 0;
		return 1;
	}
	if (ir_is_float(t)) {
		v->f = strtod(text, &end);
		if (*end || isnan(v->f))
			return 0;
		if (errno == ERANGE || fabs(v->f) > float_max(t.base))
			return -1;
		v->f = round_float(t.base, v->f);
		return 1;
	}
	if (t.base == IR_U64 && text[0] == '-') {
		strtoll(text, &end, 0);
		return *end ? 0 : -1;
	}
	if (t.base == IR_U64)
		v->i = (int64_t)strtoull(text, &end, 0);
	else
		v->i = strtoll(text, &end, 0);
	if (*end)
		return 0;
	return errno != ERANGE && int_fits(t.base, v->i) ? 1 : -1;
}

/* The range of an integer type, for messages. */
static const char *
int_range(int base)
{
	switch (base) {
	case IR_I8: return "-128 to 127";
	case IR_I16: return "-32768 to 32767";
	case IR_I32: return "-2147483648 to 2147483647";
	case IR_I64: return "-9223372036854775808 to 9223372036854775807";
	case IR_U32: return "0 to 4294967295";
	case IR_U64: return "0 to 18446744073709551615";
	default: return "its range";
	}
}

static void
check_const(Sema *S, Node *c, int *used)
{
	Symbol *sym;
	IrType t = ty_base(TY_ERROR);
	ConstVal v;
	int ok = 1, i;
	char what[96];

	snprintf(what, sizeof what, "the value of constant '%s'", c->name);
	if (c->type) {
		ok = resolve_type(c->type, &t);
		if (ok && (!is_scalar(t) || c->type->list.n)) {
			diag_error(c->type->loc, "a constant must have a scalar type, found %s%s", c->type->name,
				   c->type->list.n ? "[...]" : "");
			ok = 0;
		}
	}
	if (!check_value(S, c->init)) {
		ok = 0;
	} else if (!c->init->isconst) {
		diag_error(c->init->loc, "the value of constant '%s' must be known at compile time",
			   c->name);
		ok = 0;
	} else if (ok) {
		ok = c->type ? convert(c->init, t, what) : default_type(c->init);
	}
	sym = declare(S, SYM_CONST, c->name, c->loc, c);
	sym->type = ok ? c->init->ty : ty_base(TY_ERROR);
	sym->val = c->init->cv;
	c->sym = sym;
	c->ty = sym->type;
	c->isconst = ok;
	c->cv = sym->val;
	for (i = 0; i < S->opt->ndefines; i++) {
		const FeDefine *d = &S->opt->defines[i];

		if (strcmp(d->name, c->name) != 0)
			continue;
		used[i] = 1;
		if (!ok)
			continue;
		switch (parse_define(d->value, sym->type, &v)) {
		case 0:
			diag_error(c->loc, "-D %s=%s: expected %s for the %s constant '%s'",
				   d->name, d->value, ir_is_float(sym->type) ? "a number" :
				   sym->type.base == IR_I1 ? "true or false" : "an integer",
				   tname(sym->type), c->name);
			continue;
		case -1:
			if (ir_is_float(sym->type))
				diag_error(c->loc, "-D %s=%s: the value overflows %s", d->name, d->value,
					   tname(sym->type));
			else
				diag_error(c->loc, "-D %s=%s: the value is out of range for %s (%s)",
					   d->name, d->value, tname(sym->type), int_range(sym->type.base));
			continue;
		default:
			break;
		}
		sym->val = c->cv = v;
	}
}

/* ---- kernels ---- */

static void
check_param(Sema *S, Node *pn, int index)
{
	static const int scalar_ok[] = {IR_I32, IR_I64, IR_U32, IR_U64, IR_F32, IR_F64, IR_F16,
					IR_BF16, 0};
	Node *ty = pn->type, *d;
	Symbol *sym;
	IrType t;
	int i, ok;

	sym = declare(S, pn->op == ACCESS_NONE ? SYM_SCALAR : SYM_TENSOR, pn->name, pn->loc, pn);
	pn->sym = sym;
	sym->param = index;
	sym->type = ty_base(TY_ERROR);
	sym->access = pn->op == ACCESS_NONE ? ACC_INOUT : pn->op;
	if (!resolve_type(ty, &t))
		return;
	if (pn->op == ACCESS_NONE) {
		if (ty->list.n) {
			diag_error(pn->loc, "tensor parameter '%s' needs an access: in, out or inout, as in '%s: in %s[...]'",
				   pn->name, pn->name, ty->name);
			return;
		}
		for (i = 0; scalar_ok[i] && scalar_ok[i] != t.base; i++)
			;
		if (!scalar_ok[i] || t.lanes != 1) {
			diag_error(ty->loc, "a scalar parameter must be i32, i64, u32, u64, f32, f64, f16 or bf16, found %s",
				   tname(t));
			return;
		}
		sym->type = t;
		return;
	}
	if (ty->list.n == 0 || ty->list.n > IR_MAX_RANK) {
		diag_error(ty->loc, "tensor parameter '%s' needs 1 to %d dimensions, as in %s[N]",
			   pn->name, IR_MAX_RANK, ty->name);
		return;
	}
	if (!is_scalar(t) || t.base == IR_I1) {
		diag_error(ty->loc, "tensor elements must be a numeric scalar type, found %s", tname(t));
		return;
	}
	ok = 1;
	sym->rank = ty->list.n;
	for (d = ty->list.head, i = 0; d; d = d->next, i++) {
		Symbol *ds = d->kind == N_NAME ? lookup(S, d->name) : NULL;

		if (d->kind == N_NAME && (!ds || ds->kind == SYM_SHAPE)) {
			if (!ds) {
				ds = declare(S, SYM_SHAPE, d->name, d->loc, d);
				ds->type = ir_scalar(IR_I32);
				ds->param = S->nparams + S->nsyms;
				PUSH(S->syms, S->nsyms, S->capsyms, ds);
			}
			d->sym = ds;
			d->ty = ir_scalar(IR_I32);
			sym->dimsym[i] = ds;
			continue;
		}
		if (ds && ds->kind != SYM_CONST) {
			diag_error(d->loc, "dimension '%s' is a %s; a dimension is a shape symbol or a constant",
				   d->name, sym_what(ds));
			ok = 0;
			continue;
		}
		check_expr(S, d);
		if (is_error(d->ty)) {
			ok = 0;
		} else if (!d->isconst || !is_intnum(d->ty)) {
			diag_error(d->loc, "a tensor dimension must be a shape symbol or an integer constant");
			ok = 0;
		} else if (d->cv.i <= 0 || d->cv.i > INT32_MAX) {
			diag_error(d->loc, "a tensor dimension must be from 1 to %d, found %lld", INT32_MAX,
				   (long long)d->cv.i);
			ok = 0;
		} else {
			sym->dims[i] = d->cv.i;
		}
	}
	if (ok)
		sym->type = t;
}

static const char *
target_list(void)
{
	return "sm_90a, sm_100a or sm_103a";
}

static void
check_targets(Node *a, KernelInfo *ki)
{
	Node *n;

	ki->targets = 0;
	for (n = a->list.head; n; n = n->next) {
		int t;

		if (n->kind != N_NAME) {
			diag_error(n->loc, "expected a target name (%s)", target_list());
			continue;
		}
		t = ir_target_from_name(n->name);
		if (t < 0) {
			diag_error(n->loc, "unknown target '%s' (expected %s)", n->name, target_list());
		} else if (ki->targets & (1u << t)) {
			diag_error(n->loc, "duplicate target '%s'", n->name);
		} else {
			ki->targets |= 1u << t;
		}
	}
}

static void
check_threads(Sema *S, Node *a, KernelInfo *ki)
{
	static const int limit[3] = {1024, 1024, 64};
	static const char *const axis[3] = {"x", "y", "z"};
	int64_t total = 1, v;
	Node *n;
	int i = 0, ok = 1;

	if (a->list.n > 3) {
		diag_error(a->loc, "threads(...) takes 1 to 3 sizes (x, y, z), found %d", a->list.n);
		return;
	}
	for (n = a->list.head; n; n = n->next, i++) {
		char what[48];

		snprintf(what, sizeof what, "the block size in %s", axis[i]);
		if (!const_int(S, n, what, &v)) {
			ok = 0;
			continue;
		}
		if (v < 1 || v > limit[i]) {
			diag_error(n->loc, "the block size in %s must be from 1 to %d, found %lld", axis[i],
				   limit[i], (long long)v);
			ok = 0;
			continue;
		}
		ki->threads[i] = (int)v;
		total *= v;
	}
	if (ok && total > 1024)
		diag_error(a->loc, "threads(...) asks for %lld threads per block; a block holds 1 to 1024",
			   (long long)total);
}

/* Builds the host-side text of a grid expression (see ir.h): integer literals, shape
 * symbols, integer scalar parameters, + - * / %, cdiv, min, max; constant parts folded,
 * every operation parenthesized. Returns 0 after an error. */
static int
grid_text(Sema *S, Node *e, Buf *out, int *isconst, int64_t *val)
{
	Buf a = {0}, b = {0};
	int ca, cb, ok = 1;
	int64_t va, vb;
	Symbol *s;

	*isconst = 0;
	switch (e->kind) {
	case N_INT:
		*isconst = 1;
		*val = e->ival;
		return 1;
	case N_NAME:
		s = lookup(S, e->name);
		e->sym = s;
		if (!s) {
			diag_error(e->loc, "undefined name '%s'", e->name);
			return 0;
		}
		if (s->kind == SYM_CONST && is_intnum(s->type)) {
			*isconst = 1;
			*val = s->val.i;
			if (s->type.base == IR_U64 && *val < 0) {
				diag_error(e->loc, "constant '%s' is too large for a grid size", s->name);
				return 0;
			}
			return 1;
		}
		if (s->kind == SYM_SHAPE || (s->kind == SYM_SCALAR && is_intnum(s->type))) {
			buf_puts(out, s->name);
			return 1;
		}
		if (is_error(s->type))
			return 0;
		if ((s->kind == SYM_SCALAR || s->kind == SYM_CONST) && !is_intnum(s->type))
			diag_error(e->loc, "a grid size must be an integer, but the %s '%s' has type %s",
				   sym_what(s), s->name, tname(s->type));
		else
			diag_error(e->loc, "grid(...) cannot use the %s '%s'; it takes shape symbols, integer scalar parameters and constants",
				   sym_what(s), s->name);
		return 0;
	case N_FLOAT:
		diag_error(e->loc, "a grid size must be an integer, found a float literal");
		return 0;
	case N_BINARY:
		if (e->op < OP_ADD || e->op > OP_REM) {
			diag_error(e->loc, "grid(...) supports + - * / %%, cdiv, min and max, found '%s'",
				   ast_op_text(e->op));
			return 0;
		}
		break;
	case N_CALL:
		if (strcmp(e->name, "cdiv") && strcmp(e->name, "min") && strcmp(e->name, "max")) {
			diag_error(e->loc, "grid(...) supports the functions cdiv, min and max, found '%s'",
				   e->name);
			return 0;
		}
		if (e->list.n != 2) {
			diag_error(e->loc, "'%s' takes 2 arguments, found %d", e->name, e->list.n);
			return 0;
		}
		break;
	default:
		diag_error(e->loc, "grid(...) supports integer literals, constants, shape symbols, integer scalar parameters, + - * / %%, cdiv, min and max");
		return 0;
	}
	{
		Node *l = e->kind == N_BINARY ? e->lhs : e->list.head;
		Node *r = e->kind == N_BINARY ? e->rhs : e->list.head->next;

		ok = grid_text(S, l, &a, &ca, &va) & grid_text(S, r, &b, &cb, &vb);
	}
	if (ok && ca && cb) {
		IrType i64 = ir_scalar(IR_I64);

		*isconst = 1;
		if (e->kind == N_BINARY) {
			ok = fold_int(e, e->op, i64, va, vb, val);
		} else if (strcmp(e->name, "cdiv") == 0) {
			int64_t t;

			ok = fold_int(e, OP_ADD, i64, va, vb - 1, &t) && fold_int(e, OP_DIV, i64, t, vb, val);
		} else {
			*val = (strcmp(e->name, "min") == 0) == (va < vb) ? va : vb;
		}
	} else if (ok) {
		if (ca)
			buf_printf(&a, va < 0 ? "(0 - %lld)" : "%lld", (long long)(va < 0 ? -va : va));
		if (cb)
			buf_printf(&b, vb < 0 ? "(0 - %lld)" : "%lld", (long long)(vb < 0 ? -vb : vb));
		if (e->kind == N_BINARY)
			buf_printf(out, "(%s %s %s)", a.s, ast_op_text(e->op), b.s);
		else
			buf_printf(out, "%s(%s, %s)", e->name, a.s, b.s);
	}
	buf_free(&a);
	buf_free(&b);
	return ok;
}

static void
check_grid(Sema *S, Node *a, KernelInfo *ki)
{
	static const int64_t limit[3] = {2147483647, 65535, 65535};
	Node *n;
	int i = 0;

	if (a->list.n > 3) {
		diag_error(a->loc, "grid(...) takes 1 to 3 sizes (x, y, z), found %d", a->list.n);
		return;
	}
	for (n = a->list.head; n; n = n->next, i++) {
		Buf b = {0};
		int isconst;
		int64_t v;

		if (!grid_text(S, n, &b, &isconst, &v)) {
			buf_free(&b);
			continue;
		}
		if (isconst && (v < 1 || v > limit[i])) {
			diag_error(n->loc, "the grid size in %c must be from 1 to %lld, found %lld", "xyz"[i],
				   (long long)limit[i], (long long)v);
		} else if (isconst) {
			ki->grid[i] = arena_printf(S->p->arena, "%lld", (long long)v);
		} else {
			ki->grid[i] = arena_strdup(S->p->arena, b.s);
		}
		buf_free(&b);
	}
}

static void
check_kernel(Sema *S, Node *k)
{
	KernelInfo *ki = arena_alloc(S->p->arena, sizeof *ki);
	Node *n, *seen[N_NKINDS] = {0};
	int i = 0;

	k->kinfo = ki;
	S->kernel = k;
	S->nparams = k->list.n;
	S->nsyms = S->nshared = 0;
	S->smem = 0;
	S->nslots = 0;
	ki->targets = (1u << TARGET_COUNT) - 1;
	for (i = 0; i < 3; i++) {
		ki->threads[i] = 1;
		ki->grid[i] = "1";
	}
	push_scope(S);
	i = 0;
	for (n = k->list.head; n; n = n->next)
		check_param(S, n, i++);
	for (n = k->attrs.head; n; n = n->next) {
		static const char *const names[N_NKINDS] = {
			[N_TARGETS] = "targets", [N_THREADS] = "threads", [N_GRID] = "grid",
		};

		if (seen[n->kind]) {
			diag_error(n->loc, "duplicate '%s(...)' clause", names[n->kind]);
			diag_note(seen[n->kind]->loc, "the first one is here");
			continue;
		}
		seen[n->kind] = n;
		if (n->kind == N_TARGETS)
			check_targets(n, ki);
		else if (n->kind == N_THREADS)
			check_threads(S, n, ki);
		else
			check_grid(S, n, ki);
	}
	if (!seen[N_THREADS])
		diag_error(k->loc, "kernel '%s' needs a threads(...) clause giving its block size", k->name);
	S->depth = 0;
	check_block(S, k->body);
	pop_scope(S);

	ki->nsyms = S->nsyms;
	ki->syms = arena_alloc(S->p->arena, sizeof(Symbol *) * (size_t)(S->nsyms + 1));
	if (S->nsyms)
		memcpy(ki->syms, S->syms, sizeof(Symbol *) * (size_t)S->nsyms);
	ki->nshared = S->nshared;
	ki->shared = arena_alloc(S->p->arena, sizeof(Symbol *) * (size_t)(S->nshared + 1));
	if (S->nshared)
		memcpy(ki->shared, S->shared, sizeof(Symbol *) * (size_t)S->nshared);
	ki->nslots = S->nslots;
}

int
sema_program(Parser *p, Node *program, const FeOptions *opt)
{
	Sema S;
	Node *d, *kernels = NULL;
	int *used = xcalloc((size_t)opt->ndefines + 1, sizeof *used);
	int errors = diag_errors(), i, nkernels = 0;
	Node **seen = NULL;
	int nseen = 0, capseen = 0;

	memset(&S, 0, sizeof S);
	S.p = p;
	S.opt = opt;
	for (i = 0; i < (int)(sizeof builtins / sizeof builtins[0]); i++) {
		Symbol *s = arena_alloc(p->arena, sizeof *s);

		s->kind = SYM_BUILTIN;
		s->name = builtins[i].name;
		s->builtin = builtins[i].builtin;
		s->type = ty_base(TY_NONVALUE);
		PUSH(S.scope, S.nscope, S.capscope, s);
	}
	/* constants first, in order: every kernel of the file sees all of them */
	push_scope(&S);
	for (d = program->list.head; d; d = d->next)
		if (d->kind == N_CONST)
			check_const(&S, d, used);
	for (i = 0; i < opt->ndefines; i++) {
		SrcLoc loc = {p->file, 0, 0};

		if (!used[i])
			diag_error(loc, "-D %s=%s: there is no constant named '%s' in this file",
				   opt->defines[i].name, opt->defines[i].value, opt->defines[i].name);
	}
	for (d = program->list.head; d; d = d->next) {
		if (d->kind != N_KERNEL)
			continue;
		for (i = 0; i < nseen; i++)
			if (strcmp(seen[i]->name, d->name) == 0) {
				diag_error(d->loc, "duplicate kernel '%s'", d->name);
				diag_note(seen[i]->loc, "the first kernel '%s' is here", d->name);
			}
		PUSH(seen, nseen, capseen, d);
		if (!kernels)
			kernels = d;
		nkernels++;
		check_kernel(&S, d);
	}
	if (!nkernels) {
		SrcLoc loc = {p->file, 0, 0};

		diag_error(loc, "no kernel in this file (expected 'kernel name(...) threads(...) { ... }')");
	}
	pop_scope(&S);
	free(S.scope);
	free(S.marks);
	free(S.syms);
	free(S.shared);
	free(seen);
	free(used);
	return diag_errors() - errors;
}
