/* scope.c: the names sema resolves, shared by sema.c, expr.c and the async checks: a
 * stack of symbols that scopes pop from its top, with a hash of chains through it so a
 * lookup is one bucket's walk; declaring a name checks it against every visible one (no
 * shadowing). */
#include "ast.h"

#include <string.h>

void
sema_scope_push(Sema *S)
{
	PUSH(S->marks, S->nmarks, S->capmarks, S->nscope);
}

static unsigned
bucket(const char *name)
{
	return (unsigned)hash_fnv1a(name, strlen(name), HASH_INIT) & (SEMA_BUCKETS - 1);
}

void
sema_scope_pop(Sema *S)
{
	int mark = S->marks[--S->nmarks];

	while (S->nscope > mark) {
		S->nscope--;
		S->heads[bucket(S->scope[S->nscope]->name)] = S->chain[S->nscope];
	}
}

void
sema_push_name(Sema *S, Symbol *s)
{
	unsigned h = bucket(s->name);
	int cap = S->capscope;

	PUSH(S->scope, S->nscope, S->capscope, s);
	S->chain = grow(S->chain, &S->capchain, cap > S->capscope ? cap : S->capscope, sizeof(int));
	S->chain[S->nscope - 1] = S->heads[h];
	S->heads[h] = S->nscope - 1;
}

Symbol *
sema_lookup(Sema *S, const char *name)
{
	int i;

	for (i = S->heads[bucket(name)]; i >= 0; i = S->chain[i])
		if ((i < S->hide_lo || i >= S->hide_hi) && strcmp(S->scope[i]->name, name) == 0)
			return S->scope[i];
	return NULL;
}

const char *
sema_sym_what(const Symbol *s)
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
	case SYM_TMAP: return "tensor map";
	case SYM_PIPELINE: return "pipeline";
	case SYM_MBARRIER: return "mbarrier";
	case SYM_FUNC: return "function";
	case SYM_REGS: return "register array";
	case SYM_TMEM: return "tensor memory";
	default: return "builtin";
	}
}

/* Declares name in the innermost scope. A name may not be declared twice where it is
 * visible (no shadowing), nor be a type or builtin name. Returns the new symbol, which
 * stays out of scope after an error so that uses keep resolving to the first one. */
Symbol *
sema_declare(Sema *S, SymKind kind, const char *name, SrcLoc loc, Node *decl)
{
	Symbol *s = arena_alloc(S->p->arena, sizeof *s);
	Symbol *old = sema_lookup(S, name);
	IrType t;

	s->kind = kind;
	s->name = name;
	s->loc = loc;
	s->decl = decl;
	if (fe_type_from_name(name, &t)) {
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
		diag_note(old->loc, "'%s' was first declared here as a %s", name, sema_sym_what(old));
		return s;
	}
	sema_push_name(S, s);
	return s;
}
