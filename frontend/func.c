/* func.c: user functions (`fn name(params) -> T { ... }`). A function has no calling
 * convention: each call is checked and lowered as if the body were written at the call,
 * with its parameters bound to the arguments. So the call gets a copy of the body (its own
 * types, symbols and slots), checked in the caller's context (the role, warpgroup and
 * produce/consume block it is in: the async rules see through the call) but with only the
 * file's names and the parameters in sight. Every location in the copy carries the call's
 * inline site, so a diagnostic inside the body, from sema or from a later pass, also names
 * the call (diag_inline_site). */
#include "ast.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
fn_declare_all(Sema *S, Node *program)
{
	Node *d;

	for (d = program->list.head; d; d = d->next) {
		Symbol *s;

		if (d->kind != N_FUNC)
			continue;
		s = sema_declare(S, SYM_FUNC, d->name, d->loc, d);
		s->type = fe_ty(TY_NONVALUE);
		d->sym = s;
	}
}

/* Marks FN_NAMED on the functions that n calls, and on those their bodies call. */
static void
mark_named(Sema *S, const Node *n)
{
	const Node *c;

	if (!n)
		return;
	if (n->kind == N_CALL && !n->lhs) {
		Symbol *s = sema_lookup(S, n->name);

		if (s && s->kind == SYM_FUNC && s->decl && !(s->decl->ival & FN_NAMED)) {
			s->decl->ival |= FN_NAMED;
			mark_named(S, s->decl->body);
		}
	}
	mark_named(S, n->lhs);
	mark_named(S, n->rhs);
	mark_named(S, n->cond);
	mark_named(S, n->init);
	mark_named(S, n->body);
	mark_named(S, n->els);
	mark_named(S, n->lo);
	mark_named(S, n->hi);
	mark_named(S, n->step);
	mark_named(S, n->width);
	mark_named(S, n->unroll_n);
	for (c = n->list.head; c; c = c->next)
		mark_named(S, c);
}

void
fn_report_unused(Sema *S, Node *program)
{
	Node *d;

	/* A generic kernel without an instance here is a template: its body is checked only
	 * in instances, so what it calls counts as used (a file may keep a generic kernel
	 * whose instances another file makes). */
	for (d = program->list.head; d; d = d->next)
		if (d->kind == N_KERNEL && d->init && d->kinfo && !d->kinfo->ninst)
			mark_named(S, d->body);
	/* an imported file is a library: the importer uses what it needs */
	for (d = program->list.head; d; d = d->next)
		if (d->kind == N_FUNC && !(d->ival & (FN_CALLED | FN_NAMED)) && d->loc.file == S->p->file)
			diag_warning(d->loc, "function '%s' is never called (a function's body is checked where it is called)",
				     d->name);
}

/* ---- parameters ---- */

/* The type of a value parameter or of the result, or 0 after an error. */
static int
value_type(Sema *S, Node *t, IrType *out)
{
	if (asy_frag_name(t->name))
		return asy_frag_type(S, t, out);
	if (!fe_type_from_name(t->name, out)) {
		diag_error(t->loc, "unknown type '%s'", t->name);
		return 0;
	}
	if (t->list.n) {
		diag_error(t->loc, "a parameter of type %s[...] needs 'in', 'out' or 'inout' (a tensor) or 'shared' (a shared array) before its type",
			   t->name);
		return 0;
	}
	return 1;
}

/* Binds dimension name/expression d of parameter pn to the argument's dimension: a
 * shape symbol (dimsym) or a fixed size. A name seen first is declared (an alias of the
 * shape symbol, or a constant); a name seen again, or a constant, must agree. */
static int
bind_dim(Sema *S, Node *pn, int i, Node *d, Symbol *dimsym, int64_t size)
{
	Symbol *old = d->kind == N_NAME ? sema_lookup(S, d->name) : NULL;

	/* a name is this function's own unless it is a constant of the file */
	if (d->kind == N_NAME && (!old || old->kind == SYM_SHAPE ||
				  (old->kind == SYM_CONST && old->decl && old->decl->kind == N_PARAM))) {
		Symbol *s;

		if (old) {
			if (dimsym ? old->kind == SYM_SHAPE && old->param == dimsym->param
				   : old->kind == SYM_CONST && old->val.i == size)
				return 1;
		} else {
			s = sema_declare(S, dimsym ? SYM_SHAPE : SYM_CONST, d->name, d->loc, pn);
			if (dimsym) {
				s->param = dimsym->param;
			} else {
				s->val.i = size;
			}
			s->type = dimsym ? dimsym->type : ir_scalar(IR_I32);   /* i64 under index(i64) */
			d->sym = s;
			return 1;
		}
	} else {
		sema_expr(S, d);
		if (fe_is_error(d->ty))
			return 0;
		if (!d->isconst || !fe_intnum(d->ty)) {
			diag_error(d->loc, "a dimension of a parameter is a name or an integer constant");
			return 0;
		}
		if (!dimsym && d->cv.i == size)
			return 1;
	}
	if (dimsym)
		diag_error(d->loc, "dimension %d of '%s' is the shape symbol '%s' of the argument, which does not match",
			   i + 1, pn->name, dimsym->name);
	else
		diag_error(d->loc, "dimension %d of '%s' does not match the argument's size %lld", i + 1,
			   pn->name, (long long)size);
	return 0;
}

/* A tensor or shared-array parameter: the argument names one of the same element type
 * and rank (a tensor with the access the parameter asks for); the parameter becomes
 * another name for it. */
static Symbol *
bind_array(Sema *S, Node *pn, Symbol *arg, const char *fname)
{
	int shared = pn->op == ACCESS_SHARED, i, ok = 1;
	Node *d;
	IrType t;
	Symbol *s;

	if (!fe_type_from_name(pn->type->name, &t) || !fe_scalar(t) || !pn->type->list.n) {
		diag_error(pn->type->loc, "parameter '%s' of '%s' needs an element type and dimensions, as in %s[N]",
			   pn->name, fname, pn->type->name);
		return NULL;
	}
	if (!ir_type_eq(arg->type, t) || arg->rank != pn->type->list.n) {
		const char *what = shared ? "shared array" : "tensor";

		diag_error(pn->loc, "parameter '%s' of '%s' takes a rank-%d %s %s, but the argument '%s' is a rank-%d %s %s",
			   pn->name, fname, pn->type->list.n, fe_tname(t), what, arg->name, arg->rank,
			   fe_tname(arg->type), what);
		return NULL;
	}
	if (!shared && (((pn->op == ACC_IN || pn->op == ACC_INOUT) && arg->access == ACC_OUT) ||
			((pn->op == ACC_OUT || pn->op == ACC_INOUT) && arg->access == ACC_IN))) {
		static const char *const acc[] = {"in", "out", "inout"};

		diag_error(pn->loc, "parameter '%s' of '%s' is '%s', but the tensor '%s' passed to it is '%s'",
			   pn->name, fname, acc[pn->op], arg->name, acc[arg->access]);
		return NULL;
	}
	s = sema_declare(S, arg->kind, pn->name, pn->loc, pn);
	{
		Symbol keep = *s;

		*s = *arg;
		s->name = keep.name;
		s->loc = keep.loc;
		s->decl = pn;
	}
	if (!shared)
		s->access = pn->op;
	for (d = pn->type->list.head, i = 0; d; d = d->next, i++)
		ok &= bind_dim(S, pn, i, d, shared ? NULL : arg->dimsym[i], arg->dims[i]);
	return ok ? s : NULL;
}

/* ---- calls ---- */

/* The arguments, checked in the caller's scope: a value for a value parameter (converted
 * to its type), a tensor or shared array for the others. */
static int
check_args(Sema *S, Node *e, Node *fn, Symbol **arrays, IrType *types, Node **decl);

/* A generic function's parameters bound from the call: a type parameter from the first
 * argument whose parameter has it as its type (a value's type, a tensor's or shared
 * array's element type), else its default; a constant parameter from its default. Returns
 * the declaration with them in place (a copy), or NULL after an error. */
static Node *
instantiate(Sema *S, Node *e, Node *fn, Symbol **arrays)
{
	int n = fn->init->list.n, i, j;
	const char **names = arena_alloc(S->p->arena, sizeof(char *) * (size_t)n);
	const char **types = arena_alloc(S->p->arena, sizeof(char *) * (size_t)n);
	int64_t *ints = arena_alloc(S->p->arena, sizeof(int64_t) * (size_t)n);
	const Node *tp, *pn, *a, *d;
	AstSubst sub;
	Node *decl;

	for (tp = fn->init->list.head, i = 0; tp; tp = tp->next, i++) {
		names[i] = tp->name;
		types[i] = NULL;
		ints[i] = tp->init && tp->init->kind == N_INT ? tp->init->ival : 0;
		if (fe_tparam_is_const(tp)) {
			if (!tp->init || tp->init->kind != N_INT) {
				diag_error(e->loc, "'%s': the constant parameter '%s' cannot be inferred from the arguments: give it a default",
					   fn->name, tp->name);
				return NULL;
			}
			continue;
		}
		for (pn = fn->list.head, a = e->list.head, j = 0; pn; pn = pn->next, a = a->next, j++) {
			IrType t;

			if (!pn->type || strcmp(pn->type->name, tp->name) != 0)
				continue;
			if (pn->op != ACCESS_NONE && arrays[j])
				t = arrays[j]->type;
			else if (pn->op == ACCESS_NONE && !pn->type->list.n && !fe_untyped(a->ty) && !fe_is_error(a->ty))
				t = a->ty;
			else
				continue;
			if (types[i] && strcmp(types[i], fe_tname(t)) != 0) {
				diag_error(a->loc, "'%s': %s is %s from an earlier argument but %s from argument %d",
					   fn->name, tp->name, types[i], fe_tname(t), j + 1);
				return NULL;
			}
			types[i] = arena_strdup(S->p->arena, fe_tname(t));
		}
		if (!types[i] && tp->init && tp->init->kind == N_NAME)
			types[i] = tp->init->name;
		if (!types[i]) {
			diag_error(e->loc, "'%s': the type parameter '%s' cannot be inferred: no typed argument has it as its type",
				   fn->name, tp->name);
			return NULL;
		}
		for (d = tp->list.head; d && strcmp(d->name, types[i]) != 0; d = d->next)
			;
		if (!d) {
			diag_error(e->loc, "'%s': %s = %s is not one of the types '%s' takes", fn->name,
				   tp->name, types[i], tp->name);
			return NULL;
		}
	}
	sub.n = n;
	sub.names = names;
	sub.types = types;
	sub.ints = ints;
	decl = ast_clone(S->p, fn, 0, &sub);
	decl->init = NULL;
	decl->loc = fn->loc;
	return decl;
}

/* The arguments, checked in the caller's scope: a value for a value parameter (converted
 * to its type), a tensor or shared array for the others. A generic function is
 * instantiated between the two (*decl: the declaration the call uses). */
static int
check_args(Sema *S, Node *e, Node *fn, Symbol **arrays, IrType *types, Node **decl)
{
	Node *pn, *a;
	int i = 0, ok = 1;

	for (pn = fn->list.head, a = e->list.head; pn; pn = pn->next, a = a->next, i++) {
		arrays[i] = NULL;
		if (pn->op != ACCESS_NONE) {
			Symbol *s = a->kind == N_NAME ? sema_lookup(S, a->name) : NULL;
			SymKind want = pn->op == ACCESS_SHARED ? SYM_SHARED : SYM_TENSOR;

			if (!s || s->kind != want) {
				diag_error(a->loc, "argument %d of '%s' must name a %s (parameter '%s')", i + 1,
					   fn->name, want == SYM_SHARED ? "shared array" : "tensor", pn->name);
				ok = 0;
			} else if (fe_is_error(s->type)) {
				ok = 0;
			} else {
				a->sym = s;
				a->ty = fe_ty(TY_NONVALUE);
				arrays[i] = s;
			}
			continue;
		}
		ok &= sema_value(S, a);
	}
	if (!ok)
		return 0;
	*decl = fn->init ? instantiate(S, e, fn, arrays) : fn;
	if (!*decl)
		return 0;
	for (pn = (*decl)->list.head, a = e->list.head, i = 0; pn; pn = pn->next, a = a->next, i++) {
		char what[96];
		IrType t;

		if (pn->op != ACCESS_NONE)
			continue;
		snprintf(what, sizeof what, "argument %d of '%s' (parameter '%s')", i + 1, fn->name, pn->name);
		if (!value_type(S, pn->type, &t) || !fe_convert(a, t, what))
			ok = 0;
		types[i] = t;
	}
	return ok;
}

/* Whether every path through s ends in a return. */
static int
always_returns(const Node *s)
{
	const Node *c;

	if (!s)
		return 0;
	switch (s->kind) {
	case N_RETURN:
		return 1;
	case N_BLOCK:
		for (c = s->list.head; c; c = c->next)
			if (always_returns(c))
				return 1;
		return 0;
	case N_IF:
		return always_returns(s->body) && always_returns(s->els);
	default:
		return 0;
	}
}

/* Checks the copy of fn's body for call e in a scope that hides the caller's names. */
static void
check_copy(Sema *S, FnCall *fc, NodeList params, Symbol **arrays, const IrType *types, IrType ret)
{
	int saved_lo = S->hide_lo, saved_hi = S->hide_hi, slots[2] = {-1, -1}, i = 0, ok = 1;
	Node *pn;

	sema_scope_push(S);
	S->hide_lo = S->file_top;
	S->hide_hi = S->nscope;
	for (pn = params.head; pn; pn = pn->next, i++) {
		Symbol *s;

		if (pn->op != ACCESS_NONE) {
			fc->params[i] = bind_array(S, pn, arrays[i], fc->fn->name);
			ok &= fc->params[i] != NULL;
			continue;
		}
		s = sema_declare(S, SYM_LET, pn->name, pn->loc, pn);
		s->type = types[i];
		s->slot = sema_new_slot(S);
		fc->params[i] = s;
	}
	if (ok) {
		int errors = diag_errors();

		sema_check_body(S, fc->body, XC_FUNC, fc, ret, slots);
		if (diag_errors() != errors)
			fc->fn->ival |= FN_FAILED;
	}
	fc->ret_slot = slots[0];
	fc->val_slot = slots[1];
	if (ok && !(fc->fn->ival & FN_FAILED) && ret.base != IR_VOID && !always_returns(fc->body)) {
		diag_error(fc->fn->loc, "function '%s' may reach its end without returning a value", fc->fn->name);
		fc->fn->ival |= FN_FAILED;
	}
	S->hide_lo = saved_lo;
	S->hide_hi = saved_hi;
	sema_scope_pop(S);
}

void
fn_check_call(Sema *S, Node *e, Symbol *s)
{
	Node *fn = s->decl, *decl = fn;
	FnCall *fc;
	Symbol **arrays;
	IrType ret = ir_scalar(IR_VOID), *types;
	int i, errors = diag_errors(), site;

	fn->ival |= FN_CALLED;
	e->sym = s;
	fe_set_error(e);
	for (i = 0; i < S->ninl; i++)
		if (S->inl[i]->fn == fn) {
			diag_error(e->loc, "recursive call of '%s': functions are inlined at their calls, so a function cannot call itself, directly or through others",
				   fn->name);
			return;
		}
	if (S->ninl >= FE_MAX_INLINE) {
		diag_error(e->loc, "calls nest more than %d deep", FE_MAX_INLINE);
		return;
	}
	if (S->inl_nodes > FE_MAX_INLINED)
		return;   /* reported at the call that crossed it */
	if (e->list.n != fn->list.n) {
		diag_error(e->loc, "'%s' takes %d argument%s, found %d", fn->name, fn->list.n,
			   fn->list.n == 1 ? "" : "s", e->list.n);
		return;
	}
	arrays = xcalloc((size_t)fn->list.n + 1, sizeof *arrays);
	types = xcalloc((size_t)fn->list.n + 1, sizeof *types);
	if (!check_args(S, e, fn, arrays, types, &decl) || (fn->ival & FN_FAILED) ||
	    (decl->type && !value_type(S, decl->type, &ret))) {
		free(arrays);
		free(types);
		return;
	}
	fc = arena_alloc(S->p->arena, sizeof *fc);
	fc->fn = fn;
	fc->nparams = fn->list.n;
	fc->params = arena_alloc(S->p->arena, sizeof(Symbol *) * (size_t)(fn->list.n + 1));
	{
		char what[160];

		snprintf(what, sizeof what, "the call of '%s'", fn->name);
		site = diag_inline_site(e->loc, what);
	}
	{
		int64_t before = S->p->nclones;

		fc->body = ast_clone(S->p, decl->body, site, NULL);
		S->inl_nodes += S->p->nclones - before;
	}
	if (S->inl_nodes > FE_MAX_INLINED) {
		diag_error(e->loc, "the kernel's calls copy more than %d syntax nodes when inlined (each call "
			   "copies its function's body, and the calls in it theirs): call fewer times, or "
			   "loop over one call", FE_MAX_INLINED);
		free(arrays);
		free(types);
		return;
	}
	PUSH(S->inl, S->ninl, S->capinl, fc);
	/* the parameters are copied too: their dimension names are declared per call */
	check_copy(S, fc, ast_clone_list(S->p, decl->list, site, NULL), arrays, types, ret);
	S->ninl--;
	free(arrays);
	free(types);
	if (diag_errors() != errors)
		return;
	e->call = fc;
	e->ty = ret;
}
