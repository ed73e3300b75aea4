/* sema.c: semantic analysis of a parsed .cake file: statements, constants and -D,
 * kernels. Checks statements in nested scopes (names are scope.c's, expressions expr.c's,
 * types and constant folding types.c's), applies -D overrides, and gathers each kernel's
 * metadata (targets, threads, grid text, shape symbols, shared arrays) for IR generation.
 * Errors are reported as they are found and the checks go on. */
#include "ast.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_stmt(Sema *S, Node *s);

int
sema_new_slot(Sema *S)
{
	return S->nslots++;
}

#define new_slot sema_new_slot

/* ---- statements ---- */

/* Resolves a declared type; `what` describes the declaration for messages. */
static int
resolve_type(Node *t, IrType *out)
{
	if (!fe_type_from_name(t->name, out)) {
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
	if (s->type && s->type->list.n && !asy_frag_name(s->type->name)) {
		ra_declare(S, s);
		return;
	}
	if (s->type && asy_frag_name(s->type->name)) {
		ok = asy_frag_type(S, s->type, &t);
	} else if (s->type) {
		ok = resolve_type(s->type, &t);
	}
	if (sema_value(S, s->init) && ok)
		ok = s->type ? fe_convert(s->init, t, what) : fe_default_type(s->init);
	else
		ok = 0;
	sym = sema_declare(S, s->kind == N_VAR ? SYM_VAR : SYM_LET, s->name, s->loc, s);
	sym->type = ok ? s->init->ty : fe_ty(TY_ERROR);
	sym->slot = new_slot(S);
	sym->ucon = ok && s->kind == N_LET && sym->type.base == IR_I32 && sym->type.lanes == 1 &&
		    ra_known(s->init);
	/* A let of a compile-time scalar is a constant like a `const`: it may size arrays and
	 * bound unrolled loops (`let NT = 2 * VT;` in a generic kernel). */
	sym->constlet = ok && s->kind == N_LET && s->init->isconst && sym->type.lanes == 1;
	sym->val = s->init->cv;
	s->sym = sym;
	s->ty = sym->type;
}

static void
check_shared(Sema *S, Node *s)
{
	Symbol *sym;
	IrType t;
	Node *d;
	int64_t count = 1, v, align = 16;
	int i = 0, ok = 1;

	if (S->depth != 1) {
		diag_error(s->loc, "shared arrays are declared at the top level of the kernel body");
		ok = 0;
	}
	if (!resolve_type(s->type, &t))
		return;
	if (!fe_scalar(t) || t.base == IR_I1) {
		diag_error(s->type->loc, "shared array elements must be a numeric scalar type, found %s",
			   fe_tname(t));
		ok = 0;
	}
	if (s->type->list.n == 0 || s->type->list.n > IR_MAX_RANK) {
		diag_error(s->type->loc, "shared array '%s' needs 1 to %d dimensions, as in %s[64]",
			   s->name, IR_MAX_RANK, s->type->name);
		return;
	}
	sym = sema_declare(S, SYM_SHARED, s->name, s->loc, s);
	s->sym = sym;
	sym->type = t;
	sym->rank = s->type->list.n;
	for (d = s->type->list.head; d; d = d->next, i++) {
		sema_expr(S, d);
		if (fe_is_error(d->ty)) {
			ok = 0;
		} else if (!d->isconst || !fe_intnum(d->ty)) {
			diag_error(d->loc, "shared array dimensions must be compile-time integer constants");
			ok = 0;
		} else if (d->cv.i <= 0) {
			diag_error(d->loc, "shared array dimension must be positive, found %lld",
				   (long long)d->cv.i);
			ok = 0;
		} else {
			sym->dims[i] = d->cv.i;
			count = count > FE_MAX_SHARED_ELEMS / d->cv.i ? FE_MAX_SHARED_ELEMS + 1 : count * d->cv.i;
		}
	}
	/* Whether the buffers fit a target's shared memory is smem-layout's rule (it knows the
	 * layout and the targets); here only what the language can index. */
	if (ok && count > FE_MAX_SHARED_ELEMS) {
		diag_error(s->loc, "shared array '%s' has more than %lld elements: its indices are i32",
			   s->name, (long long)FE_MAX_SHARED_ELEMS);
		ok = 0;
	}
	if (s->lhs && sema_const_int(S, s->lhs, "the alignment", &v)) {
		if (v <= 0 || v > 4096 || (v & (v - 1))) {
			diag_error(s->lhs->loc, "alignment must be a power of two from 1 to 4096, found %lld",
				   (long long)v);
			ok = 0;
		} else if (v > align) {
			align = v;
		}
	}
	asy_shared(S, s, sym);
	if (sym->swizzle * 8 > align)
		align = sym->swizzle * 8;   /* the swizzle pattern repeats every 8 rows */
	sym->align = (int)align;
	if (!ok) {
		sym->type = fe_ty(TY_ERROR);
		return;
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
		s = sema_lookup(S, e->name);
		e->sym = s;
		if (!s) {
			diag_error(e->loc, "undefined name '%s'", e->name);
			return fe_ty(TY_ERROR);
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
				   sema_sym_what(s), e->name, e->name);
			break;
		default:
			diag_error(e->loc, "cannot assign to the %s '%s'", sema_sym_what(s), e->name);
			break;
		}
		return fe_ty(TY_ERROR);
	}
	if (e->kind == N_INDEX && (s = sema_element_base(S, e))) {
		sema_element(S, e, s, compound, 1);
		return e->ty;
	}
	if (e->kind == N_INDEX && e->lhs->kind == N_NAME && (s = sema_lookup(S, e->lhs->name)) &&
	    s->kind == SYM_REGS)
		return ra_element(S, e, s) ? e->ty : fe_ty(TY_ERROR);
	if (e->kind == N_INDEX && e->lhs->kind == N_CALL && !e->lhs->lhs &&
	    strcmp(e->lhs->name, "remote") == 0) {
		asy_remote_element(S, e, compound, 1);
		return e->ty;
	}
	if (e->kind == N_INDEX || e->kind == N_MEMBER) {
		sema_expr(S, e);
		if (!fe_is_error(e->ty))
			diag_error(e->loc, e->builtin ? "cannot assign to a builtin"
					   : "cannot assign to one lane of a vector; build a new vector instead");
		return fe_ty(TY_ERROR);
	}
	diag_error(e->loc, "cannot assign to this expression; the left side must be a variable or an element");
	return fe_ty(TY_ERROR);
}

static void
check_assign(Sema *S, Node *s)
{
	IrType t = check_place(S, s->lhs, s->op != OP_NONE);
	char what[96];

	if (!sema_value(S, s->rhs) || fe_is_error(t))
		return;
	if (s->op == OP_NONE) {
		if (s->lhs->kind == N_NAME)
			snprintf(what, sizeof what, "the assignment to '%s'", s->lhs->name);
		else
			snprintf(what, sizeof what, "the assignment");
		fe_convert(s->rhs, t, what);
		return;
	}
	snprintf(what, sizeof what, "'%s='", ast_op_text(s->op));
	if (!fe_convert(s->rhs, t, what))
		return;
	if (!fe_binary_ok(s->op, t))
		diag_error(s->loc, "operator '%s=' does not apply to %s%s", ast_op_text(s->op), fe_tname(t),
			   fe_fp8_advice(t));
}

static void
check_condition(Sema *S, Node *c, const char *stmt)
{
	if (!sema_value(S, c))
		return;
	if (c->ty.base != IR_I1 || c->ty.lanes != 1)
		diag_error(c->loc, "the condition of '%s' must be i1, found %s (compare it, as in x != 0)",
			   stmt, fe_tname(c->ty));
}

/* An if whose condition is a compile-time constant (a generic kernel's `if (S > 1)`, a
 * -D switch) keeps only the branch it takes, as if the other were not written: that
 * branch is not checked, so it may use what this instance lacks (cluster_sync() in an
 * instance without a cluster), and no code is made for it. What is left in `body` is
 * the branch taken, which irgen emits without an if. */
static void
discard_dead_branch(Sema *S, Node *s)
{
	Node *c = s->cond;

	if (!c->isconst || c->ty.base != IR_I1 || c->ty.lanes != 1)
		return;
	if (c->cv.i) {
		s->els = NULL;
		return;
	}
	if (s->els && s->els->kind == N_IF) {
		s->body = ast_block(S->p, s->els->loc, (NodeList){s->els, s->els, 1});
		s->els->next = NULL;
	} else {
		s->body = s->els ? s->els : ast_block(S->p, s->body->loc, (NodeList){NULL, NULL, 0});
	}
	s->els = NULL;
}

static void
check_block(Sema *S, Node *b)
{
	Node *s;

	sema_scope_push(S);
	S->depth++;
	b->exits = 0;
	for (s = b->list.head; s; s = s->next) {
		check_stmt(S, s);
		b->exits |= s->exits;
	}
	S->depth--;
	sema_scope_pop(S);
}

void
sema_check_block(Sema *S, Node *b)
{
	check_block(S, b);
}

/* ---- early exits ---- */

/* The exits in s that leave it, by syntax alone: breaks and continues of a loop around s
 * (not of loops inside it), returns anywhere (not in the bodies of called functions,
 * which are not part of the tree). */
static int
scan_exits(const Node *s, int in_loop)
{
	const Node *c;
	int x = 0;

	if (!s)
		return 0;
	switch (s->kind) {
	case N_BREAK: return in_loop ? 0 : EXIT_BREAK;
	case N_CONTINUE: return in_loop ? 0 : EXIT_CONTINUE;
	case N_RETURN: return EXIT_RETURN;
	case N_FOR:
	case N_WHILE: return scan_exits(s->body, 1);
	case N_IF: return scan_exits(s->body, in_loop) | scan_exits(s->els, in_loop);
	case N_ROLE: case N_ELECT: case N_PRODUCE: case N_CONSUME:
		return scan_exits(s->body, in_loop);
	case N_BLOCK:
		for (c = s->list.head; c; c = c->next)
			x |= scan_exits(c, in_loop);
		return x;
	default:
		return 0;
	}
}

static void
push_exit(Sema *S, int kind, Node *node, FnCall *call, IrType ret)
{
	ExitCtx x = {kind, node, call, ret};

	PUSH(S->xs, S->nxs, S->capxs, x);
}

static const char *
block_word(const Node *n)
{
	switch (n->kind) {
	case N_ROLE: return "role";
	case N_ELECT: return "elect";
	case N_PRODUCE: return "produce";
	default: return "consume";
	}
}

/* break, continue, return: finds what the exit leaves and records its flag slots. A
 * produce or consume block cannot be left early (its stage would never be released or
 * filled), nor a role or elect block (the threads that skip their yield diverge). */
static void
check_exit(Sema *S, Node *s)
{
	const char *word = s->kind == N_BREAK ? "break" : s->kind == N_CONTINUE ? "continue" : "return";
	int i;

	for (i = S->nxs - 1; i >= 0; i--) {
		ExitCtx *x = &S->xs[i];

		if (x->kind == XC_BLOCK) {
			diag_error(s->loc, "'%s' cannot leave the %s block early%s", word, block_word(x->node),
				   x->node->kind == N_PRODUCE || x->node->kind == N_CONSUME
				   ? ": its stage must be filled and released" : "");
			diag_note(x->node->loc, "the %s block is here", block_word(x->node));
			return;
		}
		if (x->kind == XC_LOOP && s->kind != N_RETURN) {
			s->xslot[0] = x->node->xslot[s->kind == N_BREAK ? 0 : 1];
			s->exits = s->kind == N_BREAK ? EXIT_BREAK : EXIT_CONTINUE;
			return;
		}
		if (x->kind == XC_LOOP)
			continue;
		if (s->kind != N_RETURN) {
			diag_error(s->loc, "'%s' outside a loop", word);
			return;
		}
		break;
	}
	if (i < 0)
		ICE("check_exit: no body around '%s'", word);
	if (S->xs[i].kind == XC_KERNEL && !asy_kernel_return(S, s))
		return;
	if (S->xs[i].ret.base == IR_VOID && s->lhs) {
		diag_error(s->lhs->loc, S->xs[i].kind == XC_KERNEL ? "a kernel returns no value"
			   : "function '%s' returns no value (it has no '-> type')", S->xs[i].call
			   ? S->xs[i].call->fn->name : "");
		return;
	}
	if (S->xs[i].ret.base != IR_VOID) {
		char what[96];

		if (!s->lhs) {
			diag_error(s->loc, "function '%s' must return a value of type %s",
				   S->xs[i].call->fn->name, fe_tname(S->xs[i].ret));
			return;
		}
		snprintf(what, sizeof what, "the value returned by '%s'", S->xs[i].call->fn->name);
		if (!sema_value(S, s->lhs) || !fe_convert(s->lhs, S->xs[i].ret, what))
			return;
	}
	if (S->xs[i].kind == XC_KERNEL) {
		s->xslot[0] = S->xs[i].node->xslot[0];
	} else {
		s->xslot[0] = S->xs[i].call->ret_slot;
		s->xslot[1] = S->xs[i].call->val_slot;
	}
	s->exits = EXIT_RETURN;
}

/* A loop's break flag is declared before the loop (the loop passes it on to its next
 * iteration's condition); its continue flag inside (reset at each iteration). */
static void
loop_flags_before(Sema *S, Node *s)
{
	s->xslot[0] = scan_exits(s->body, 0) & EXIT_BREAK ? new_slot(S) : -1;
}

static void
loop_body(Sema *S, Node *s)
{
	if (scan_exits(s->body, 0) & EXIT_CONTINUE)
		s->xslot[1] = new_slot(S);
	push_exit(S, XC_LOOP, s, NULL, ir_scalar(IR_VOID));
	check_block(S, s->body);
	S->nxs--;
	s->exits = s->body->exits & EXIT_RETURN;
}

void
sema_check_body(Sema *S, Node *body, int kind, FnCall *call, IrType ret, int *slots)
{
	Node *owner = kind == XC_KERNEL ? S->kernel : NULL;

	slots[0] = slots[1] = -1;
	if (scan_exits(body, 0) & EXIT_RETURN) {
		slots[0] = new_slot(S);
		if (ret.base != IR_VOID)
			slots[1] = new_slot(S);
	}
	if (call) {
		call->ret_slot = slots[0];
		call->val_slot = slots[1];
	}
	if (owner)
		owner->xslot[0] = slots[0];
	push_exit(S, kind, owner, call, ret);
	check_block(S, body);
	S->nxs--;
}

static void
check_for(Sema *S, Node *s)
{
	Node *bounds[3] = {s->lo, s->hi, s->step};
	static const char *const names[3] = {"lower bound", "upper bound", "step"};
	Symbol *iv;
	IrType it = ir_scalar(IR_I32);
	int64_t v;
	int i, ok[3] = {0, 0, 0};

	/* The index is i64 when a bound is; i32 bounds are then sign-extended (irgen). */
	for (i = 0; i < 3; i++) {
		ok[i] = bounds[i] && sema_value(S, bounds[i]);
		if (ok[i] && ir_type_eq(bounds[i]->ty, ir_scalar(IR_I64)))
			it = ir_scalar(IR_I64);
	}
	for (i = 0; i < 3; i++) {
		char what[64];

		if (!ok[i] || (it.base == IR_I64 && ir_type_eq(bounds[i]->ty, ir_scalar(IR_I32))))
			continue;
		snprintf(what, sizeof what, "the %s of a for loop", names[i]);
		fe_convert(bounds[i], it, what);
	}
	if (s->step && s->step->isconst && s->step->ty.base == it.base && s->step->cv.i <= 0)
		diag_error(s->step->loc, "the step of a for loop must be positive, found %lld",
			   (long long)s->step->cv.i);
	if (s->op == UNROLL_FULL && s->lo->isconst && s->hi->isconst && (!s->step || s->step->isconst) &&
	    s->lo->ty.base == IR_I32 && s->hi->ty.base == IR_I32) {
		int64_t step = s->step ? s->step->cv.i : 1;
		int64_t trips = s->hi->cv.i > s->lo->cv.i && step > 0
				? (s->hi->cv.i - s->lo->cv.i + step - 1) / step : 0;

		if (trips > FE_MAX_FULL_UNROLL)
			diag_error(s->loc, "'unroll' asks for a full unroll of %lld iterations, past the limit of %d (unroll by a count, unroll(N), or not at all)",
				   (long long)trips, FE_MAX_FULL_UNROLL);
	}
	if (s->op == UNROLL_COUNT && sema_const_int(S, s->unroll_n, "the unroll count", &v) &&
	    (v < 1 || v > IR_MAX_UNROLL_FACTOR))
		diag_error(s->unroll_n->loc, "the unroll count must be from 1 to %d, found %lld",
			   IR_MAX_UNROLL_FACTOR, (long long)v);
	sema_scope_push(S);
	iv = sema_declare(S, SYM_ITER, s->name, s->loc, s);
	iv->type = it;
	iv->slot = new_slot(S);
	iv->ucon = s->op == UNROLL_FULL && s->lo->isconst && s->hi->isconst && (!s->step || s->step->isconst);
	s->sym = iv;
	if (s->op == LOOP_ROUND_ROBIN)
		asy_round_robin_enter(S, s);
	loop_body(S, s);
	if (s->op == LOOP_ROUND_ROBIN)
		asy_round_robin_leave(S, s);
	else if (s->op != UNROLL_NONE && (scan_exits(s->body, 0) & EXIT_BREAK || s->exits))
		diag_error(s->loc, "a loop left by 'break' or 'return' cannot be unrolled (its trip count is not known)");
	sema_scope_pop(S);
}

static void
check_stmt(Sema *S, Node *s)
{
	s->exits = 0;
	if (s->kind == N_FOR || s->kind == N_WHILE)
		loop_flags_before(S, s);
	s->slot_base = S->nslots;
	if (s->kind == N_ROLE || s->kind == N_ELECT || s->kind == N_PRODUCE || s->kind == N_CONSUME) {
		push_exit(S, XC_BLOCK, s, NULL, ir_scalar(IR_VOID));
		asy_stmt(S, s);
		S->nxs--;
		return;
	}
	if (asy_stmt(S, s))
		return;
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
		discard_dead_branch(S, s);
		check_block(S, s->body);
		if (s->els && s->els->kind == N_IF)
			check_stmt(S, s->els);
		else if (s->els)
			check_block(S, s->els);
		s->exits = s->body->exits | (s->els ? s->els->exits : 0);
		break;
	case N_FOR:
		check_for(S, s);
		break;
	case N_WHILE:
		check_condition(S, s->cond, "while");
		loop_body(S, s);
		break;
	case N_BLOCK:
		check_block(S, s);
		break;
	case N_BREAK:
	case N_CONTINUE:
	case N_RETURN:
		check_exit(S, s);
		break;
	case N_EXPRSTMT:
		if (s->lhs->kind != N_CALL) {
			diag_error(s->lhs->loc, "this expression does nothing; only calls can be statements");
			break;
		}
		sema_expr(S, s->lhs);
		if (fe_untyped(s->lhs->ty))
			fe_default_type(s->lhs);
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
		if (errno == ERANGE || fabs(v->f) > fe_float_max(t.base))
			return -1;
		v->f = fe_round_float(t.base, v->f);
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
	return errno != ERANGE && fe_int_fits(t.base, v->i) ? 1 : -1;
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
	case IR_U8: return "0 to 255";
	case IR_U16: return "0 to 65535";
	case IR_U32: return "0 to 4294967295";
	case IR_U64: return "0 to 18446744073709551615";
	default: return "its range";
	}
}

/* Applies the -D definitions of constant c (of type t, valid when ok) to *v, marking them
 * used. */
static void
apply_defines(Sema *S, Node *c, IrType t, int ok, ConstVal *v, int *used)
{
	ConstVal dv;
	int i;

	for (i = 0; i < S->opt->ndefines; i++) {
		const FeDefine *d = &S->opt->defines[i];

		if (strcmp(d->name, c->name) != 0)
			continue;
		used[i] = 1;
		if (!ok)
			continue;
		switch (parse_define(d->value, t, &dv)) {
		case 0:
			diag_error(c->loc, "-D %s=%s: expected %s for the %s constant '%s'",
				   d->name, d->value, ir_is_float(t) ? "a number" :
				   t.base == IR_I1 ? "true or false" : "an integer",
				   fe_tname(t), c->name);
			continue;
		case -1:
			if (ir_is_float(t))
				diag_error(c->loc, "-D %s=%s: the value overflows %s", d->name, d->value,
					   fe_tname(t));
			else
				diag_error(c->loc, "-D %s=%s: the value is out of range for %s (%s)",
					   d->name, d->value, fe_tname(t), int_range(t.base));
			continue;
		default:
			break;
		}
		*v = dv;
	}
}

/* A constant already declared in another file (two imported designs that derive the same
 * layout constants): the same constant when its type and value (after -D) are the same,
 * else an error. Returns 1 when c was handled so. */
static int
merge_const(Sema *S, Node *c, IrType t, ConstVal v, int ok)
{
	Symbol *old = sema_lookup(S, c->name);

	if (!old || old->kind != SYM_CONST || old->loc.file == c->loc.file || !ok ||
	    fe_is_error(old->type))
		return 0;
	if (!ir_type_eq(old->type, t) || old->val.i != v.i || memcmp(&old->val.f, &v.f, sizeof v.f) != 0) {
		diag_error(c->loc, "constant '%s' is declared in two files with a different %s: the same name must be the same constant",
			   c->name, ir_type_eq(old->type, t) ? "value" : "type");
		diag_note(old->loc, "'%s' is first declared here", c->name);
	}
	c->sym = old;
	c->ty = old->type;
	c->isconst = 1;
	c->cv = old->val;
	return 1;
}

static void
check_const(Sema *S, Node *c, int *used)
{
	Symbol *sym;
	IrType t = fe_ty(TY_ERROR);
	ConstVal v;
	int ok = 1;
	char what[96];

	snprintf(what, sizeof what, "the value of constant '%s'", c->name);
	if (c->type) {
		ok = resolve_type(c->type, &t);
		if (ok && (!fe_scalar(t) || c->type->list.n)) {
			diag_error(c->type->loc, "a constant must have a scalar type, found %s%s", c->type->name,
				   c->type->list.n ? "[...]" : "");
			ok = 0;
		} else if (ok && ir_is_fp8(t)) {
			diag_error(c->type->loc, "a constant cannot be %s (a storage type): make it f32 and convert where it is stored",
				   fe_tname(t));
			ok = 0;
		}
	}
	if (!sema_value(S, c->init)) {
		ok = 0;
	} else if (!c->init->isconst) {
		diag_error(c->init->loc, "the value of constant '%s' must be known at compile time",
			   c->name);
		ok = 0;
	} else if (ok) {
		ok = c->type ? fe_convert(c->init, t, what) : fe_default_type(c->init);
		if (ok && !c->type && ir_is_fp8(c->init->ty)) {
			diag_error(c->init->loc, "a constant cannot be %s (a storage type): make it f32 and convert where it is stored",
				   fe_tname(c->init->ty));
			ok = 0;
		}
	}
	t = ok ? c->init->ty : fe_ty(TY_ERROR);
	v = c->init->cv;
	apply_defines(S, c, t, ok, &v, used);
	if (merge_const(S, c, t, v, ok))
		return;
	sym = sema_declare(S, SYM_CONST, c->name, c->loc, c);
	sym->type = t;
	sym->val = v;
	c->sym = sym;
	c->ty = sym->type;
	c->isconst = ok;
	c->cv = sym->val;
}

/* ---- kernels ---- */

/* `per_rank`: the first dimension of a tensor parameter is a constant count of tensors,
 * each its own parameter (the launcher takes one tensor per rank). The count, or 1. */
static int
check_per_rank(Symbol *sym, Node *pn)
{
	Node *d = pn->type->list.head;

	if (!(pn->ival & PARAM_PER_RANK) || fe_is_error(sym->type))
		return 1;
	if (sym->rank < 2 || sym->dimsym[0]) {
		diag_error(d->loc, "the first dimension of per_rank tensor '%s' is its count of tensors (a constant, 1 to %d), and another dimension must follow",
			   pn->name, FE_MAX_RANKS);
		sym->type = fe_ty(TY_ERROR);
		return 1;
	}
	if (sym->dims[0] > FE_MAX_RANKS) {
		diag_error(d->loc, "per_rank tensor '%s' has %lld tensors, more than %d", pn->name,
			   (long long)sym->dims[0], FE_MAX_RANKS);
		sym->type = fe_ty(TY_ERROR);
		return 1;
	}
	sym->ranks = (int)sym->dims[0];
	return sym->ranks;
}

/* Declares kernel parameter pn (IR parameter index); the IR parameters it takes. */
static int
check_param(Sema *S, Node *pn, int index)
{
	static const int scalar_ok[] = {IR_I32, IR_I64, IR_U8, IR_U16, IR_U32, IR_U64, IR_F32, IR_F64,
					IR_F16, IR_BF16, 0};
	Node *ty = pn->type, *d;
	Symbol *sym;
	IrType t;
	int i, ok;

	sym = sema_declare(S, pn->op == ACCESS_NONE ? SYM_SCALAR : SYM_TENSOR, pn->name, pn->loc, pn);
	pn->sym = sym;
	sym->param = index;
	sym->type = fe_ty(TY_ERROR);
	sym->access = pn->op == ACCESS_NONE ? ACC_INOUT : pn->op;
	if (!resolve_type(ty, &t))
		return 1;
	if (pn->op == ACCESS_NONE) {
		if (ty->list.n) {
			diag_error(pn->loc, "tensor parameter '%s' needs an access: in, out or inout, as in '%s: in %s[...]'",
				   pn->name, pn->name, ty->name);
			return 1;
		}
		for (i = 0; scalar_ok[i] && scalar_ok[i] != t.base; i++)
			;
		if (!scalar_ok[i] || t.lanes != 1) {
			diag_error(ty->loc, "a scalar parameter must be i32, i64, u8, u16, u32, u64, f32, f64, f16 or bf16, found %s",
				   fe_tname(t));
			return 1;
		}
		sym->type = t;
		return 1;
	}
	if (ty->list.n == 0 || ty->list.n > IR_MAX_RANK) {
		diag_error(ty->loc, "tensor parameter '%s' needs 1 to %d dimensions, as in %s[N]",
			   pn->name, IR_MAX_RANK, ty->name);
		return 1;
	}
	if (!fe_scalar(t) || t.base == IR_I1) {
		diag_error(ty->loc, "tensor elements must be a numeric scalar type, found %s", fe_tname(t));
		return 1;
	}
	ok = 1;
	sym->rank = ty->list.n;
	for (d = ty->list.head, i = 0; d; d = d->next, i++) {
		Symbol *ds = d->kind == N_NAME ? sema_lookup(S, d->name) : NULL;

		if (d->kind == N_NAME && (!ds || ds->kind == SYM_SHAPE)) {
			if (!ds) {
				ds = sema_declare(S, SYM_SHAPE, d->name, d->loc, d);
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
				   d->name, sema_sym_what(ds));
			ok = 0;
			continue;
		}
		sema_expr(S, d);
		if (fe_is_error(d->ty)) {
			ok = 0;
		} else if (!d->isconst || !fe_intnum(d->ty)) {
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
	return check_per_rank(sym, pn);
}

/* One IR parameter's name as irgen gives it, where it was declared, and whether it is a
 * per_rank table's (name_r: nothing else checks those against the other names). */
typedef struct IrName {
	const char *name;
	SrcLoc loc;
	int table;
} IrName;

static void
push_names(Sema *S, IrName **v, int *n, int *cap, const char *name, SrcLoc loc, int ranks)
{
	IrName x;
	int r;

	for (r = 0; r < (ranks ? ranks : 1); r++) {
		x.name = ranks ? arena_printf(S->p->arena, "%s_%d", name, r) : name;
		x.loc = loc;
		x.table = ranks > 0;
		PUSH(*v, *n, *cap, x);
	}
}

/* The kernel's IR parameters (its parameters, a per_rank table as name_0 .., the shape
 * symbols, the tensor maps, a table's as map_0 ..) need distinct names, which the IR and
 * the launcher use: a name a table's parameter takes is reported at the later of the two
 * declarations (two plain names are sema_declare's business). */
static void
check_ir_names(Sema *S, Node *k, const KernelInfo *ki)
{
	IrName *v = NULL;
	int n = 0, cap = 0, i, j;
	Node *pn;

	for (pn = k->list.head; pn; pn = pn->next)
		if (pn->sym)
			push_names(S, &v, &n, &cap, pn->name, pn->loc, pn->sym->kind == SYM_TENSOR ? pn->sym->ranks : 0);
	for (i = 0; i < S->nsyms; i++)
		push_names(S, &v, &n, &cap, S->syms[i]->name, S->syms[i]->loc, 0);
	for (i = 0; i < ki->ntmaps; i++)
		push_names(S, &v, &n, &cap, ki->tmaps[i]->name, ki->tmaps[i]->loc, ki->tmaps[i]->ranks);
	for (j = 1; j < n; j++)
		for (i = 0; i < j; i++)
			if ((v[i].table || v[j].table) && strcmp(v[i].name, v[j].name) == 0) {
				diag_error(v[j].loc, "'%s' is the name of two parameters of the kernel (a per_rank table's tensors and maps are named name_0, name_1, ...): rename one",
					   v[j].name);
				break;
			}
	free(v);
}

static void
check_targets(Node *a, KernelInfo *ki)
{
	Node *n;

	ki->targets = 0;
	for (n = a->list.head; n; n = n->next) {
		int t;

		if (n->kind != N_NAME) {
			diag_error(n->loc, "expected a target name (%s)", ir_all_target_names(" or "));
			continue;
		}
		t = ir_target_from_name(n->name);
		if (t < 0) {
			diag_error(n->loc, "unknown target '%s' (expected %s)", n->name, ir_all_target_names(" or "));
		} else if (ki->targets & (1u << t)) {
			diag_error(n->loc, "duplicate target '%s'", n->name);
		} else {
			ki->targets |= 1u << t;
		}
	}
}

/* index(i32) or index(i64): the width of tensor index arithmetic and shape symbols
 * (docs/language.md, "64-bit indexing"). */
static void
check_index(Node *a, KernelInfo *ki)
{
	Node *n = a->list.head;

	if (a->list.n != 1 || n->kind != N_NAME ||
	    (strcmp(n->name, "i32") != 0 && strcmp(n->name, "i64") != 0)) {
		diag_error(n && a->list.n == 1 ? n->loc : a->loc,
			   "index(...) takes one index width, i32 or i64, as in index(i64)");
		return;
	}
	n->ty = fe_ty(TY_NONVALUE);
	ki->index64 = strcmp(n->name, "i64") == 0;
}

/* launch(dependent): the launcher lets the kernel start while the kernel before it on the
 * stream finishes, and the kernel waits for that one's memory before its body
 * (docs/language.md, "Clauses"). */
static void
check_launch(Node *a, KernelInfo *ki)
{
	Node *n = a->list.head;

	if (a->list.n != 1 || n->kind != N_NAME || strcmp(n->name, "dependent") != 0) {
		diag_error(n && a->list.n == 1 ? n->loc : a->loc,
			   "launch(...) takes one launch mode, dependent, as in launch(dependent)");
		return;
	}
	n->ty = fe_ty(TY_NONVALUE);
	ki->dependent = 1;
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
		if (!sema_const_int(S, n, what, &v)) {
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

/* The two kinds of host formula (see ir.h): a grid(...) size, an integer, and an instance's
 * `when (...)` condition, which adds comparisons, && || ! and true/false. */
typedef struct Formula {
	const char *clause;     /* "grid(...)" */
	const char *value;      /* "a grid size": what a name or literal in it must be */
	const char *takes;      /* the names it takes */
	const char *ops;        /* the operators it supports */
	int logic;
} Formula;

static const Formula grid_formula = {
	"grid(...)", "a grid size", "shape symbols, integer scalar parameters and constants",
	"+ - * / %, cdiv, min and max", 0,
};
static const Formula when_formula = {
	"when (...)", "a value in when (...)",
	"shape symbols, integer scalar parameters, constants and num_sms",
	"+ - * / %, cdiv, min, max, comparisons, && || and !", 1,
};
static const Formula requires_formula = {
	"requires(...)", "a value in requires(...)",
	"shape symbols, integer scalar parameters, constants and num_sms",
	"+ - * / %, cdiv, min, max, comparisons, && || and !", 1,
};

/* A formula part: its host text (parts that are not constant), whether it is constant and
 * its value, whether it is a condition (else an integer). */
typedef struct Part {
	Buf text;
	int isconst, isbool;
	int64_t val;
} Part;

static const Part part_none;

static int formula_part(Sema *S, const Formula *F, Node *e, Part *out);

/* The calls of functions a formula is expanding, innermost last: each binds the
 * function's parameters to the parts its arguments made (formula_call). */
typedef struct FormulaFrame {
	const Node *fn;
	Part *args;
} FormulaFrame;

/* Function calls nest at most FORMULA_CALL_DEPTH deep, and an expansion's host text is at
 * most FORMULA_TEXT_MAX bytes: a body that uses a parameter twice doubles its argument's
 * text, so a chain of such calls would otherwise grow the text exponentially. */
enum { FORMULA_CALL_DEPTH = 64, FORMULA_TEXT_MAX = 1 << 16 };
static FormulaFrame formula_frames[FORMULA_CALL_DEPTH];
static int formula_nframes;
static int formula_overflowed;  /* reported once per outermost call */

/* Reports operand x of e unless it is of the kind e's operator takes (a condition when
 * want_bool, else an integer). */
static int
part_kind(const Node *e, const Part *x, int want_bool)
{
	if (x->isbool == want_bool)
		return 1;
	diag_error(e->loc, "'%s' takes %s, found %s", e->kind == N_CALL ? e->name : ast_op_text(e->op),
		   want_bool ? "conditions" : "integers",
		   x->isbool ? "a condition" : "an integer");
	return 0;
}

/* The host text of part x as an operand: constants written out ((0 - 5) for -5; a
 * condition as a comparison, as the host language has no true or false). */
static void
part_operand(const Part *x, Buf *out)
{
	if (!x->isconst)
		buf_puts(out, x->text.s ? x->text.s : "");
	else if (x->isbool)
		buf_puts(out, x->val ? "(0 == 0)" : "(0 != 0)");
	else
		buf_printf(out, x->val < 0 ? "(0 - %lld)" : "%lld", (long long)(x->val < 0 ? -x->val : x->val));
}

/* Folds e = a OP b where both are constant. */
static int
fold_part(Node *e, const Part *a, const Part *b, Part *out)
{
	IrType i64 = ir_scalar(IR_I64);
	int64_t t, va = a->val, vb = b->val;

	out->isconst = 1;
	if (e->kind == N_CALL && strcmp(e->name, "cdiv") == 0)
		return fe_fold_int(e, OP_ADD, i64, va, vb - 1, &t) && fe_fold_int(e, OP_DIV, i64, t, vb, &out->val);
	if (e->kind == N_CALL) {
		out->val = (strcmp(e->name, "min") == 0) == (va < vb) ? va : vb;
		return 1;
	}
	switch (e->op) {
	case OP_EQ: out->val = va == vb; break;
	case OP_NE: out->val = va != vb; break;
	case OP_LT: out->val = va < vb; break;
	case OP_LE: out->val = va <= vb; break;
	case OP_GT: out->val = va > vb; break;
	case OP_GE: out->val = va >= vb; break;
	default: return fe_fold_int(e, e->op, i64, va, vb, &out->val);
	}
	return 1;
}

/* e = a && b or a || b with one side constant: false && x and true || x are that constant,
 * true && x and false || x are x. (The host evaluates && and || from the left and only as
 * far as needed; a constant side decides without the other.) */
static int
fold_logic(const Node *e, Part *a, Part *b, Part *out)
{
	Part *c = a->isconst ? a : b, *x = a->isconst ? b : a;

	if ((e->op == OP_LAND) != (c->val != 0)) {
		out->isconst = 1;
		out->val = c->val;
	} else {
		out->isconst = x->isconst;
		out->val = x->val;
		buf_puts(&out->text, x->text.s ? x->text.s : "");
	}
	return 1;
}

/* Inside a function a formula expands, name e is one of its parameters (*out: a copy of the
 * argument's part, 1) or else must be a file constant (0: look it up). */
static int
formula_param(const Node *e, Part *out)
{
	const FormulaFrame *f;
	const Node *p;
	int i = 0;

	if (!formula_nframes)
		return 0;
	f = &formula_frames[formula_nframes - 1];
	for (p = f->fn->list.head; p; p = p->next, i++)
		if (strcmp(p->name, e->name) == 0) {
			*out = f->args[i];
			out->text = (Buf){0};
			buf_puts(&out->text, f->args[i].text.s ? f->args[i].text.s : "");
			return 1;
		}
	return 0;
}

static int
formula_name(Sema *S, const Formula *F, Node *e, Part *out)
{
	Symbol *s;

	if (formula_param(e, out))
		return 1;
	s = sema_lookup(S, e->name);
	e->sym = s;
	if (formula_nframes && (!s || s->kind != SYM_CONST)) {
		diag_error(e->loc, "a function called in %s sees only its parameters and the file's constants: '%s' is neither",
			   F->clause, e->name);
		return 0;
	}
	if (!s && strcmp(e->name, "num_sms") == 0) {
		/* the device's SM count, supplied by the launcher (persistent kernels) */
		buf_puts(&out->text, "num_sms");
		return 1;
	}
	if (!s) {
		diag_error(e->loc, "undefined name '%s'", e->name);
		return 0;
	}
	if (s->kind == SYM_CONST && fe_intnum(s->type)) {
		out->isconst = 1;
		out->val = s->val.i;
		if (s->type.base == IR_U64 && out->val < 0) {
			diag_error(e->loc, "constant '%s' is too large for %s", s->name, F->value);
			return 0;
		}
		return 1;
	}
	if (F->logic && s->kind == SYM_CONST && s->type.base == IR_I1 && s->type.lanes == 1) {
		out->isconst = out->isbool = 1;
		out->val = s->val.i != 0;
		return 1;
	}
	if (s->kind == SYM_SHAPE || (s->kind == SYM_SCALAR && fe_intnum(s->type))) {
		buf_puts(&out->text, s->name);
		return 1;
	}
	if (fe_is_error(s->type))
		return 0;
	if ((s->kind == SYM_SCALAR || s->kind == SYM_CONST) && !fe_intnum(s->type))
		diag_error(e->loc, "%s must be an integer, but the %s '%s' has type %s", F->value,
			   sema_sym_what(s), s->name, fe_tname(s->type));
	else
		diag_error(e->loc, "%s cannot use the %s '%s'; it takes %s", F->clause,
			   sema_sym_what(s), s->name, F->takes);
	return 0;
}

/* Whether function type node t is an integer scalar (0), i1 (1), or neither (-1). */
static int
formula_type(const Node *t)
{
	static const char *const ints[] = {"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"};
	size_t i;

	if (!t || (t->kind != N_NAME && (t->kind != N_TYPE || t->list.n)))
		return -1;
	if (strcmp(t->name, "i1") == 0)
		return 1;
	for (i = 0; i < sizeof ints / sizeof ints[0]; i++)
		if (strcmp(t->name, ints[i]) == 0)
			return 0;
	return -1;
}

/* Whether fn, called at e, is one a formula can expand: not generic, integer or i1
 * parameters and value, its body one `return EXPR;` (reported if not). */
static int
formula_fn_ok(const Formula *F, const Node *e, const Node *fn)
{
	const Node *body = fn->body, *p;

	if (fn->init || formula_type(fn->type) < 0 || !body || body->kind != N_BLOCK || body->list.n != 1 ||
	    body->list.head->kind != N_RETURN || !body->list.head->lhs) {
		diag_error(e->loc, "%s can call a function whose body is one 'return' of a formula, with integer "
			   "or i1 parameters and value; '%s' is not one", F->clause, e->name);
		diag_note(fn->loc, "'%s' is declared here", fn->name);
		return 0;
	}
	for (p = fn->list.head; p; p = p->next)
		if (formula_type(p->type) < 0) {
			diag_error(e->loc, "%s can call a function with integer or i1 parameters; '%s' of '%s' is not one",
				   F->clause, p->name, e->name);
			return 0;
		}
	if (fn->list.n != e->list.n) {
		diag_error(e->loc, "'%s' takes %d argument%s, found %d", e->name, fn->list.n,
			   fn->list.n == 1 ? "" : "s", e->list.n);
		return 0;
	}
	return 1;
}

/* Reports x (an argument of fn at `at`, or with param NULL its value) unless it is of the
 * kind declared (formula_type: 1 a condition, 0 an integer). */
static int
formula_fn_kind(const Node *at, const Node *fn, const Node *param, const Part *x, int want_bool)
{
	if (x->isbool == want_bool)
		return 1;
	if (param)
		diag_error(at->loc, "parameter '%s' of '%s' is %s, found %s", param->name, fn->name,
			   want_bool ? "an i1" : "an integer", x->isbool ? "a condition" : "an integer");
	else
		diag_error(at->loc, "'%s' returns %s, but its formula is %s", fn->name,
			   want_bool ? "an i1" : "an integer", x->isbool ? "a condition" : "an integer");
	return 0;
}

/* A call of a user function in formula F: its body's formula with the parameters bound to
 * the arguments' parts (the function is inlined into the host text, as into a kernel). */
static int
formula_call(Sema *S, const Formula *F, Node *e, Node *fn, Part *out)
{
	Part *args;
	const Node *p;
	Node *a;
	int ok = 1, i = 0, hlo = S->hide_lo, hhi = S->hide_hi;

	if (!formula_fn_ok(F, e, fn))
		return 0;
	if (formula_nframes == FORMULA_CALL_DEPTH) {
		diag_error(e->loc, "function calls in %s nest more than %d deep", F->clause, FORMULA_CALL_DEPTH);
		return 0;
	}
	fn->ival |= FN_CALLED;
	args = xcalloc((size_t)e->list.n + 1, sizeof *args);
	for (a = e->list.head, p = fn->list.head; a; a = a->next, p = p->next, i++)
		ok = ok && formula_part(S, F, a, &args[i]) && formula_fn_kind(a, fn, p, &args[i], formula_type(p->type));
	if (ok) {
		/* the body sees its parameters and the file's names, not the kernel's */
		formula_frames[formula_nframes].fn = fn;
		formula_frames[formula_nframes++].args = args;
		S->hide_lo = S->file_top;
		S->hide_hi = S->nscope;
		ok = formula_part(S, F, fn->body->list.head->lhs, out);
		S->hide_lo = hlo;
		S->hide_hi = hhi;
		formula_nframes--;
		ok = ok && formula_fn_kind(fn->body->list.head, fn, NULL, out, formula_type(fn->type));
		if (ok && out->text.len > FORMULA_TEXT_MAX) {
			if (!formula_overflowed)
				diag_error(e->loc, "the call of '%s' in %s expands to more than %d bytes of host formula",
					   e->name, F->clause, FORMULA_TEXT_MAX);
			formula_overflowed = 1;
			ok = 0;
		}
		if (!formula_nframes)
			formula_overflowed = 0;
	}
	for (i = 0; i < e->list.n; i++)
		buf_free(&args[i].text);
	free(args);
	return ok;
}

/* Whether e's operator or function is one formula F takes (reported if not). */
static int
formula_op_ok(const Formula *F, const Node *e)
{
	if (e->kind == N_CALL) {
		if (strcmp(e->name, "cdiv") && strcmp(e->name, "min") && strcmp(e->name, "max")) {
			diag_error(e->loc, "%s supports the functions cdiv, min, max and file functions of one 'return', found '%s'",
				   F->clause, e->name);
			return 0;
		}
		if (e->list.n != 2) {
			diag_error(e->loc, "'%s' takes 2 arguments, found %d", e->name, e->list.n);
			return 0;
		}
		return 1;
	}
	if ((e->op >= OP_ADD && e->op <= OP_REM) || e->op == OP_NEG ||
	    (F->logic && ((e->op >= OP_LAND && e->op <= OP_GE) || e->op == OP_NOT)))
		return 1;
	diag_error(e->loc, "%s supports %s, found '%s'", F->clause, F->ops, ast_op_text(e->op));
	return 0;
}

/* Builds the host-side text of formula e (see ir.h): integer literals, shape symbols,
 * integer scalar parameters, + - * / %, cdiv, min, max, and in a condition comparisons,
 * && || !; constant parts folded, every operation parenthesized. Returns 0 after an
 * error. */
static int
formula_part(Sema *S, const Formula *F, Node *e, Part *out)
{
	Part a = part_none, b = part_none;
	int ok = 1, rel, logic;

	switch (e->kind) {
	case N_INT:
		out->isconst = 1;
		out->val = e->ival;
		return 1;
	case N_BOOL:
		if (!F->logic)
			break;
		out->isconst = out->isbool = 1;
		out->val = e->ival;
		return 1;
	case N_NAME:
		return formula_name(S, F, e, out);
	case N_FLOAT:
		diag_error(e->loc, "%s must be an integer, found a float literal", F->value);
		return 0;
	case N_UNARY:
		if (!formula_op_ok(F, e) || !formula_part(S, F, e->lhs, &a) ||
		    !part_kind(e, &a, e->op == OP_NOT)) {
			buf_free(&a.text);
			return 0;
		}
		out->isbool = e->op == OP_NOT;
		if (a.isconst) {
			out->isconst = 1;
			out->val = e->op == OP_NOT ? !a.val : 0;
			if (e->op == OP_NEG)
				ok = fe_fold_int(e, OP_SUB, ir_scalar(IR_I64), 0, a.val, &out->val);
		} else {
			buf_printf(&out->text, e->op == OP_NOT ? "!%s" : "(0 - %s)", a.text.s);
		}
		buf_free(&a.text);
		return ok;
	case N_CALL:
		if (strcmp(e->name, "cdiv") && strcmp(e->name, "min") && strcmp(e->name, "max")) {
			Symbol *fs = sema_lookup(S, e->name);

			if (fs && fs->kind == SYM_FUNC)
				return formula_call(S, F, e, fs->decl, out);
		}
		if (!formula_op_ok(F, e))
			return 0;
		break;
	case N_BINARY:
		if (!formula_op_ok(F, e))
			return 0;
		break;
	default:
		break;
	}
	if (e->kind != N_BINARY && e->kind != N_CALL) {
		diag_error(e->loc, "%s supports integer literals, constants, shape symbols, integer scalar parameters, %s",
			   F->clause, F->ops);
		return 0;
	}
	logic = e->kind == N_BINARY && (e->op == OP_LAND || e->op == OP_LOR);
	rel = e->kind == N_BINARY && e->op >= OP_EQ && e->op <= OP_GE;
	ok = formula_part(S, F, e->kind == N_BINARY ? e->lhs : e->list.head, &a) &
	     formula_part(S, F, e->kind == N_BINARY ? e->rhs : e->list.head->next, &b);
	/* == and != also compare two conditions */
	if (ok && rel && (e->op == OP_EQ || e->op == OP_NE) && a.isbool && b.isbool)
		;
	else if (ok)
		ok = part_kind(e, &a, logic) && part_kind(e, &b, logic);
	out->isbool = logic || rel;
	if (!ok)
		;
	else if (a.isconst && b.isconst)
		ok = fold_part(e, &a, &b, out);
	else if (logic && (a.isconst || b.isconst))
		ok = fold_logic(e, &a, &b, out);
	else {
		Buf x = {0}, y = {0};

		part_operand(&a, &x);
		part_operand(&b, &y);
		if (e->kind == N_BINARY)
			buf_printf(&out->text, "(%s %s %s)", x.s, ast_op_text(e->op), y.s);
		else
			buf_printf(&out->text, "%s(%s, %s)", e->name, x.s, y.s);
		buf_free(&x);
		buf_free(&y);
	}
	buf_free(&a.text);
	buf_free(&b.text);
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
		Part g = part_none;

		if (!formula_part(S, &grid_formula, n, &g)) {
			buf_free(&g.text);
			continue;
		}
		if (g.isconst && (g.val < 1 || g.val > limit[i])) {
			diag_error(n->loc, "the grid size in %c must be from 1 to %lld, found %lld", "xyz"[i],
				   (long long)limit[i], (long long)g.val);
		} else if (g.isconst) {
			ki->grid[i] = arena_printf(S->p->arena, "%lld", (long long)g.val);
		} else {
			ki->grid[i] = arena_strdup(S->p->arena, g.text.s);
		}
		buf_free(&g.text);
	}
}

/* A clause's condition (an instance's when, a kernel's requires) over the kernel's shape
 * symbols, integer scalars, constants and num_sms: sets *host (the host formula) and,
 * where text is not NULL, *text (as written), both NULL when it always holds. Returns 0 after an error, or when it
 * never holds (*never set; the caller says what that means). */
static int
clause_condition(Sema *S, const Formula *F, Node *at, Node *cond, const char **host,
		 const char **text, int *never)
{
	Part c = part_none;
	Buf t = {0};
	int ok = 0;

	*host = NULL;
	if (text)
		*text = NULL;
	*never = 0;
	if (!formula_part(S, F, cond, &c)) {
		buf_free(&c.text);
		return 0;
	}
	if (!c.isbool) {
		diag_error(at->loc, "%s takes a condition (a comparison, &&, || or !), found an integer expression",
			   F->clause);
	} else if (c.isconst && !c.val) {
		*never = 1;
	} else {
		if (!c.isconst) {
			*host = arena_strdup(S->p->arena, c.text.s);
			if (text) {
				ast_expr_text(cond, &t);
				*text = arena_strdup(S->p->arena, t.s);
			}
		}
		ok = 1;
	}
	buf_free(&c.text);
	buf_free(&t);
	return ok;
}

/* An instance's `when (...)` (generic.c makes it a clause of the instance's kernel), which
 * the entry point evaluates before launching the instance. A condition that is always
 * true is dropped (the instance always holds); one that is always false would make the
 * instance unreachable from the entry point. */
static void
check_when(Sema *S, Node *w, KernelInfo *ki)
{
	int never;

	if (clause_condition(S, &when_formula, w, w->lhs, &ki->when, &ki->when_text, &never))
		ki->when_at = ki->when ? w : NULL;
	else if (never)
		diag_error(w->loc, "the entry point '%s' never selects the instance '%s': its condition is always false",
			   w->name, S->kernel->name);
}

/* requires(COND): a condition the arguments must meet (a generic kernel's instance: with
 * its parameters' values), which the launcher checks with the other argument checks and
 * refuses with CAKE_ERR_SHAPE. One that always holds is dropped; one that never holds
 * leaves nothing to launch. */
static void
check_requires(Sema *S, Node *r, KernelInfo *ki)
{
	int never;

	if (r->list.n != 1) {
		diag_error(r->loc, "requires(...) takes one condition, found %d", r->list.n);
		return;
	}
	if (!clause_condition(S, &requires_formula, r, r->list.head, &ki->requires, NULL, &never) &&
	    never)
		diag_error(r->loc, "kernel '%s' can never launch: its requires(...) condition is always false",
			   S->kernel->name);
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
	S->nslots = 0;
	ki->targets = (1u << TARGET_COUNT) - 1;
	for (i = 0; i < 3; i++) {
		ki->threads[i] = 1;
		ki->grid[i] = "1";
		ki->cluster[i] = 1;
	}
	ki->cta_group = 1;
	sema_scope_push(S);
	i = 0;
	for (n = k->list.head; n; n = n->next) {
		int before = i;

		i += check_param(S, n, i);
		if (before <= IR_MAX_PARAMS && i > IR_MAX_PARAMS)
			diag_error(n->loc, "kernel '%s' has more than %d parameters", k->name, IR_MAX_PARAMS);
	}
	/* a per_rank tensor is several IR parameters: the shape symbols come after them all */
	S->nparams = i;
	for (i = 0; i < S->nsyms; i++)
		S->syms[i]->param = S->nparams + i;
	for (n = k->attrs.head; n; n = n->next) {
		static const char *const names[N_NKINDS] = {
			[N_TARGETS] = "targets", [N_THREADS] = "threads", [N_GRID] = "grid",
			[N_MIN_BLOCKS] = "min_blocks", [N_CLUSTER] = "cluster", [N_CTA_GROUP] = "cta_group", [N_INDEXW] = "index",
			[N_LAUNCH] = "launch",
			[N_WHEN] = "when", [N_REQUIRES] = "requires",
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
		else if (n->kind == N_GRID)
			check_grid(S, n, ki);
		else if (n->kind == N_INDEXW)
			check_index(n, ki);
		else if (n->kind == N_LAUNCH)
			check_launch(n, ki);
		else if (n->kind == N_WHEN)
			check_when(S, n, ki);
		else if (n->kind == N_REQUIRES)
			check_requires(S, n, ki);
		else
			asy_clause(S, n, ki);
	}
	if (!seen[N_THREADS])
		diag_error(k->loc, "kernel '%s' needs a threads(...) clause giving its block size", k->name);
	/* Shape symbols were declared i32 with the parameters, before the clauses. */
	for (i = 0; ki->index64 && i < S->nsyms; i++)
		S->syms[i]->type = ir_scalar(IR_I64);
	S->depth = 0;
	asy_kernel_begin(S, k, ki);
	{
		int slots[2];

		sema_check_body(S, k->body, XC_KERNEL, NULL, ir_scalar(IR_VOID), slots);
	}
	asy_kernel_end(S, k, ki);
	check_ir_names(S, k, ki);
	sema_scope_pop(S);

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
	for (i = 0; i < SEMA_BUCKETS; i++)
		S.heads[i] = -1;
	sema_add_builtins(&S);
	/* constants first, in order: every kernel of the file sees all of them */
	sema_scope_push(&S);
	for (d = program->list.head; d; d = d->next)
		if (d->kind == N_CONST)
			check_const(&S, d, used);
	fn_declare_all(&S, program);
	S.file_top = S.nscope;
	for (i = 0; i < opt->ndefines; i++) {
		SrcLoc loc = {p->file, 0, 0, 0};

		if (!used[i])
			diag_error(loc, "-D %s=%s: there is no constant named '%s' in this file",
				   opt->defines[i].name, opt->defines[i].value, opt->defines[i].name);
	}
	for (d = program->list.head; d; d = d->next) {
		if (d->kind == N_KERNEL && d->init) {
			d->kinfo = arena_alloc(p->arena, sizeof *d->kinfo);
			gen_check_generic(&S, d);
		}
	}
	/* each instance: a kernel of its own, after the program's (irgen follows this order) */
	{
		Node *last = NULL, *insts = NULL;
		int ninst = 0;

		for (d = program->list.head; d; d = d->next)
			ninst += d->kind == N_INSTANCE;
		for (d = program->list.head; d; d = d->next) {
			KernelInfo *gi;
			Node *copy;

			Node *ek;

			if (d->kind != N_INSTANCE || !(copy = gen_instance(&S, d, program)))
				continue;
			gi = d->lhs->kinfo;
			if (!gi->insts)
				gi->insts = arena_alloc(p->arena, sizeof(Node *) * (size_t)ninst);
			gi->insts[gi->ninst++] = d;
			if ((ek = gen_entry_of(d, program)) != NULL) {
				gi = ek->kinfo;
				if (!gi->entry)
					gi->entry = arena_alloc(p->arena, sizeof(Node *) * (size_t)ninst);
				gi->entry[gi->nentry++] = d;
			}
			if (last)
				last->next = copy;
			else
				insts = copy;
			last = copy;
		}
		if (insts) {
			program->list.tail->next = insts;
			program->list.tail = last;
		}
	}
	for (d = program->list.head; d; d = d->next) {
		if (d->kind != N_KERNEL || d->init)
			continue;
		if (nkernels == IR_MAX_KERNELS) {
			diag_error(d->loc, "more than %d kernels in one file (instances included): split the file",
				   IR_MAX_KERNELS);
			break;
		}
		for (i = 0; i < nseen; i++)
			if (strcmp(seen[i]->name, d->name) == 0) {
				diag_error(d->loc, "duplicate kernel '%s'", d->name);
				diag_note(seen[i]->loc, "the first kernel '%s' is here", d->name);
			}
		PUSH(seen, nseen, capseen, d);
		if (!kernels)
			kernels = d;
		nkernels++;
		if (!fe_wanted(opt, d->name)) {
			S.left_out = 1;
			continue;
		}
		S.inl_nodes = 0;
		check_kernel(&S, d);
	}
	if (!nkernels && !S.left_out) {
		SrcLoc loc = {p->file, 1, 1, 0};   /* the file's start: an empty file has no other */

		diag_error(loc, "no kernel in this file (expected 'kernel name(...) threads(...) { ... }')");
	}
	if (diag_errors() == errors)
		gen_check_entries(&S, program);
	if (diag_errors() == errors && !S.left_out)   /* a left-out kernel may call them */
		fn_report_unused(&S, program);
	sema_scope_pop(&S);
	free(S.scope);
	free(S.chain);
	free(S.marks);
	free(S.syms);
	free(S.shared);
	free(S.xs);
	free(S.inl);
	free(seen);
	free(used);
	return diag_errors() - errors;
}
