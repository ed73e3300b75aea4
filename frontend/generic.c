/* generic.c: generic kernels and their instances.
 *
 *   kernel gemm<T: bf16 | f16, O: bf16 | f16 | f32, BN: i32 = 256>(a: in T[M, K], ...)
 *   instance gemm<bf16, bf16>;                   // kernel gemm_bf16_bf16
 *   instance gemm<f16, f32, 128> as gemm_small;  // kernel gemm_small
 *   instance gemm<bf16, bf16, 64> as gemm_thin when (M <= 64);
 *
 * A parameter whose types are one integer type (`BN: i32`) is a constant, any other a type
 * (`T: bf16 | f16`, one of the listed types). A generic kernel is not checked or compiled
 * itself: each instance is a copy of it with the parameters replaced by the instance's
 * arguments (type names in types and conversions, constants as values), checked and
 * compiled as a kernel of its own name. The instances of a generic kernel share one entry
 * point named as the kernel (host/emit.c), which launches the first instance, in
 * declaration order, whose tensor element types and constant dimensions match the
 * arguments and whose `when` condition holds, and refuses other arguments at run time
 * (CAKE_ERR_DTYPE or CAKE_ERR_SHAPE, naming the instances). A `when` becomes a clause of
 * the instance's kernel, checked with its parameters in sight (sema.c's check_when). The
 * entry point must select something for every type a type parameter lists and, for the
 * arguments an instance takes, whatever the condition (gen_check_entries): a later
 * instance takes them all, the last without `when`. `instance gemv<bf16> entry gemm when
 * (M <= 16);` puts an instance of another generic kernel into gemm's entry point, in
 * declaration order among gemm's own: one function per operation over several designs.
 * Its kernel must take the same arguments as the entry's first instance but for the
 * tensors' element types and constant dimensions (check_signatures). */
#include "ast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define is_const_param fe_tparam_is_const

static int
in_domain(const Node *tp, const char *type)
{
	const Node *d;

	for (d = tp->list.head; d; d = d->next)
		if (strcmp(d->name, type) == 0)
			return 1;
	return 0;
}

static void
domain_text(const Node *tp, char *out, size_t size)
{
	const Node *d;
	size_t n = 0;

	out[0] = 0;
	for (d = tp->list.head; d && n < size; d = d->next)
		n += (size_t)snprintf(out + n, size - n, "%s%s", d == tp->list.head ? "" : ", ", d->name);
}

void
gen_check_generic(Sema *S, Node *k)
{
	Node *tp, *d, *pn, *o;
	IrType t;

	(void)S;
	for (tp = k->init->list.head; tp; tp = tp->next) {
		for (d = tp->list.head; d; d = d->next)
			if (!fe_type_from_name(d->name, &t) || t.lanes != 1 || t.base == IR_I1)
				diag_error(d->loc, "'%s' is not a scalar type a generic parameter can take", d->name);
		for (o = k->init->list.head; o != tp; o = o->next)
			if (strcmp(o->name, tp->name) == 0)
				diag_error(tp->loc, "duplicate generic parameter '%s'", tp->name);
		if (fe_type_from_name(tp->name, &t))
			diag_error(tp->loc, "'%s' is a type name and cannot name a generic parameter", tp->name);
		if (tp->init && (is_const_param(tp) ? tp->init->kind != N_INT && tp->init->kind != N_NAME
				 : tp->init->kind != N_NAME))
			diag_error(tp->init->loc, "the default of '%s' must be %s", tp->name,
				   is_const_param(tp) ? "an integer or an integer constant's name" : "one of its types");
	}
	/* the entry point's argument struct is one for all instances */
	for (pn = k->list.head; pn; pn = pn->next)
		for (tp = k->init->list.head; tp; tp = tp->next)
			if (pn->op == ACCESS_NONE && pn->type && strcmp(pn->type->name, tp->name) == 0 &&
			    !is_const_param(tp))
				diag_error(pn->type->loc, "a scalar parameter of a generic kernel cannot have the generic type '%s' (the entry point's arguments are shared by every instance)",
					   tp->name);
}

static Node *
find_kernel(Node *program, const char *name)
{
	Node *d;

	for (d = program->list.head; d; d = d->next)
		if (d->kind == N_KERNEL && strcmp(d->name, name) == 0)
			return d;
	return NULL;
}

/* Binds argument a (or the default) to generic parameter tp: a type name into *type, an
 * integer into *val. Returns 0 after an error. */
static int
bind_arg(Sema *S, const Node *k, const Node *tp, const Node *a, const char **type, int64_t *val)
{
	char dom[160];

	if (!a)
		a = tp->init;
	if (!a) {
		diag_error(k->loc, "generic parameter '%s' of '%s' has no default: the instance must give it",
			   tp->name, k->name);
		return 0;
	}
	if (is_const_param(tp)) {
		/* an integer, or the name of a file's integer constant (-D sets those too) */
		const Symbol *c = a->kind == N_NAME ? sema_lookup(S, a->name) : NULL;
		int64_t v = c ? c->val.i : a->ival;
		IrType t;

		fe_type_from_name(tp->list.head->name, &t);
		if (a->kind == N_NAME && (!c || c->kind != SYM_CONST || !fe_intnum(c->type))) {
			diag_error(a->loc, "generic parameter '%s' of '%s' is a %s constant: '%s' is not an integer constant",
				   tp->name, k->name, tp->list.head->name, a->name);
			return 0;
		}
		if ((a->kind != N_INT && a->kind != N_NAME) || !fe_int_fits(t.base, v)) {
			diag_error(a->loc, "generic parameter '%s' of '%s' is a %s constant: give an integer in its range",
				   tp->name, k->name, tp->list.head->name);
			return 0;
		}
		*type = NULL;
		*val = v;
		return 1;
	}
	domain_text(tp, dom, sizeof dom);
	if (a->kind != N_NAME || !in_domain(tp, a->name)) {
		diag_error(a->loc, "generic parameter '%s' of '%s' takes %s%s, not %s%s%s", tp->name,
			   k->name, tp->list.n > 1 ? "one of " : "", dom,
			   a->kind == N_NAME ? "'" : "a value", a->kind == N_NAME ? a->name : "",
			   a->kind == N_NAME ? "'" : "");
		return 0;
	}
	*type = a->name;
	*val = 0;
	return 1;
}

/* The instance's name: `as NAME`, else the kernel's name and the given arguments
 * (gemm_bf16_f32_128; a negative constant is spelled m5). */
static const char *
instance_name(Sema *S, const Node *inst)
{
	const Node *a;
	Buf b = {0};
	const char *name;

	for (a = inst->attrs.head; a; a = a->next)
		if (strcmp(a->name, "as") == 0)
			return a->lhs->name;
	buf_puts(&b, inst->name);
	for (a = inst->list.head; a; a = a->next) {
		if (a->kind == N_INT)
			buf_printf(&b, a->ival < 0 ? "_m%lld" : "_%lld", (long long)(a->ival < 0 ? -a->ival : a->ival));
		else
			buf_printf(&b, "_%s", a->name);
	}
	name = arena_strdup(S->p->arena, b.s);
	buf_free(&b);
	return name;
}

static int
check_attrs(const Node *inst)
{
	const Node *a;
	int ok = 1;

	for (a = inst->attrs.head; a; a = a->next) {
		if (((strcmp(a->name, "as") == 0 || strcmp(a->name, "entry") == 0) && a->lhs->kind == N_NAME)
		    || strcmp(a->name, "when") == 0)
			continue;
		diag_error(a->loc, "unknown instance option '%s' (expected 'as NAME', 'entry NAME' or 'when (CONDITION)')",
			   a->name);
		ok = 0;
	}
	return ok;
}

Node *
gen_entry_of(Node *inst, Node *program)
{
	const Node *a;
	Node *k;

	for (a = inst->attrs.head; a; a = a->next)
		if (strcmp(a->name, "entry") == 0)
			break;
	if (!a)
		return inst->lhs;
	k = find_kernel(program, a->lhs->name);
	if (!k || !k->init) {
		diag_error(a->lhs->loc, "%s '%s' %s: an instance joins the entry point of a generic kernel, named as the kernel",
			   k ? "kernel" : "there is no kernel named", a->lhs->name,
			   k ? "is not generic" : "in this file");
		return NULL;
	}
	return k;
}

Node *
gen_instance(Sema *S, Node *inst, Node *program)
{
	Node *k = find_kernel(program, inst->name), *tp, *a, *copy;
	AstSubst sub;
	const char **names, **types, *name;
	int64_t *ints;
	int n, i, ok = 1, site;
	char what[256];
	size_t len = 0;

	if (!k || !k->init) {
		diag_error(inst->loc, k ? "kernel '%s' is not generic (it has no <...> parameters)"
			   : "there is no kernel named '%s'", inst->name);
		return NULL;
	}
	if (!check_attrs(inst))
		return NULL;
	n = k->init->list.n;
	if (inst->list.n > n) {
		diag_error(inst->loc, "'%s' takes %d generic argument%s, found %d", k->name, n,
			   n == 1 ? "" : "s", inst->list.n);
		return NULL;
	}
	names = arena_alloc(S->p->arena, sizeof *names * (size_t)n);
	types = arena_alloc(S->p->arena, sizeof *types * (size_t)n);
	ints = arena_alloc(S->p->arena, sizeof *ints * (size_t)n);
	len += (size_t)snprintf(what, sizeof what, "the instance '%s<", k->name);
	for (tp = k->init->list.head, a = inst->list.head, i = 0; tp; tp = tp->next, i++) {
		names[i] = tp->name;
		ok &= bind_arg(S, k, tp, a, &types[i], &ints[i]);
		if (ok && len < sizeof what)
			len += (size_t)(types[i] ? snprintf(what + len, sizeof what - len, "%s%s", i ? ", " : "", types[i])
				      : snprintf(what + len, sizeof what - len, "%s%lld", i ? ", " : "", (long long)ints[i]));
		if (a)
			a = a->next;
	}
	if (!ok)
		return NULL;
	name = instance_name(S, inst);
	if (!fe_wanted(S->opt, name)) {
		/* its entry point is then incomplete: gen_check_entries passes over it, and
		 * cakec's --kernel filter drops it */
		Node *ek = gen_entry_of(inst, program);

		k->kinfo->nleft_out++;
		if (ek && ek != k && ek->kinfo)
			ek->kinfo->nleft_out++;
		S->left_out = 1;
		return NULL;
	}
	if (len < sizeof what)
		snprintf(what + len, sizeof what - len, ">'");
	sub.n = n;
	sub.names = names;
	sub.types = types;
	sub.ints = ints;
	site = diag_inline_site(inst->loc, what);
	copy = ast_clone(S->p, k, site, &sub);
	copy->init = NULL;
	/* when (...): a clause of the copy, so that it sees the copy's parameters; written at
	 * the instance, it reports there without a note */
	for (a = inst->attrs.head; a; a = a->next)
		if (strcmp(a->name, "when") == 0) {
			Node *w = ast_clone(S->p, a, a->loc.site, &sub);

			w->kind = N_WHEN;
			w->name = k->name;
			copy->attrs = ast_list_append(copy->attrs, w);
		}
	copy->name = name;
	copy->loc = inst->loc;          /* duplicate names are reported at the instance */
	inst->body = copy;
	inst->lhs = k;
	return copy;
}

/* The type argument instance `inst` gives parameter i of its kernel (NULL for constants). */
static const char *
inst_type(const Node *inst, int i)
{
	const Node *tp = inst->lhs->init->list.head, *a = inst->list.head;
	int j;

	for (j = 0; j < i; j++) {
		tp = tp->next;
		if (a)
			a = a->next;
	}
	if (is_const_param(tp))
		return NULL;
	return a ? a->name : tp->init->name;
}

/* Whether some instance in insts[0..n) gives type parameter j of its kernel the type
 * `type`. */
static int
type_taken(Node **insts, int n, int j, const char *type)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(inst_type(insts[i], j), type) == 0)
			return 1;
	return 0;
}

/* Whether instances a and b take the same tensor element types. */
static int
same_types(const Node *a, const Node *b)
{
	const Node *pa, *pb;

	for (pa = a->body->list.head, pb = b->body->list.head; pa && pb; pa = pa->next, pb = pb->next)
		if (pa->op != ACCESS_NONE && strcmp(pa->type->name, pb->type->name) != 0)
			return 0;
	return 1;
}

/* The resolved tensor parameter p (NULL for a scalar or one with an error). */
static const Symbol *
tensor_sym(const Node *p)
{
	return p->op != ACCESS_NONE && p->sym && !fe_is_error(p->sym->type) ? p->sym : NULL;
}

/* Whether the entry point chooses between instances a and b by a dimension: some
 * dimension is a constant in one and, in the other, a shape symbol or another constant. */
static int
dims_choose(const Node *a, const Node *b)
{
	const Node *pa, *pb;
	int i;

	for (pa = a->body->list.head, pb = b->body->list.head; pa && pb; pa = pa->next, pb = pb->next) {
		const Symbol *ta = tensor_sym(pa), *tb = tensor_sym(pb);

		for (i = 0; ta && tb && i < ta->rank && i < tb->rank; i++)
			if ((!ta->dimsym[i] || !tb->dimsym[i]) &&
			    (ta->dimsym[i] || tb->dimsym[i] || ta->dims[i] != tb->dims[i]))
				return 1;
	}
	return 0;
}

/* The targets instance a's kernel is built for. */
static unsigned
targets_of(const Node *a)
{
	return a->body->kinfo ? a->body->kinfo->targets : 0;
}

/* Whether the entry point k chooses between its instances by dimensions or targets as
 * well as element types (its messages then say so). */
static int
entry_by_more(const Node *k)
{
	int i;

	for (i = 1; i < k->kinfo->nentry; i++)
		if (dims_choose(k->kinfo->entry[0], k->kinfo->entry[i]) ||
		    targets_of(k->kinfo->entry[0]) != targets_of(k->kinfo->entry[i]))
			return 1;
	return 0;
}

/* Whether instance a takes every argument instance b takes, on every device b runs on,
 * whatever their conditions: the same element types, b's targets among a's, and each of
 * b's dimensions fits a's (a's constant is b's, or a's shape symbol stands for it
 * everywhere a names it). */
static int
covers(const Node *a, const Node *b)
{
	const Symbol *sym[IR_MAX_PARAMS];
	const Symbol *bsym[IR_MAX_PARAMS];
	int64_t bval[IR_MAX_PARAMS];
	const Node *pa, *pb;
	int n = 0, i, j;

	if (!same_types(a, b) || (targets_of(b) & ~targets_of(a)))
		return 0;
	for (pa = a->body->list.head, pb = b->body->list.head; pa && pb; pa = pa->next, pb = pb->next) {
		const Symbol *ta = tensor_sym(pa), *tb = tensor_sym(pb);

		for (i = 0; ta && tb && i < ta->rank && i < tb->rank; i++) {
			if (!ta->dimsym[i]) {
				if (tb->dimsym[i] || tb->dims[i] != ta->dims[i])
					return 0;
				continue;
			}
			for (j = 0; j < n && sym[j] != ta->dimsym[i]; j++)
				;
			if (j == n && n < IR_MAX_PARAMS) {
				sym[n] = ta->dimsym[i];
				bsym[n] = tb->dimsym[i];
				bval[n++] = tb->dims[i];
			} else if (j < n && (bsym[j] != tb->dimsym[i] || (!bsym[j] && bval[j] != tb->dims[i]))) {
				return 0;
			}
		}
	}
	return 1;
}

/* "[N, K]": the dimensions of tensor parameter p as written (nothing for a scalar). */
static void
dims_text(const Node *p, Buf *out)
{
	const Node *d;

	for (d = p->type->list.head; d; d = d->next) {
		buf_puts(out, d == p->type->list.head ? "[" : ", ");
		ast_expr_text(d, out);
	}
	if (p->type->list.n)
		buf_puts(out, "]");
}

/* "b: in f16[N, K]": parameter p as the instance has it (its element type substituted). */
static void
param_text(const Node *p, Buf *out)
{
	static const char *const access[] = {[ACC_IN] = "in ", [ACC_OUT] = "out ", [ACC_INOUT] = "inout "};

	buf_printf(out, "%s: %s%s", p->name, p->op >= 0 && p->op <= ACC_INOUT ? access[p->op] : "",
		   p->type->name);
	dims_text(p, out);
}

/* Whether parameters a and b agree but for a tensor's element type and its constant
 * dimensions (the entry point chooses by both): where both dimensions are shape symbols,
 * they are the same one. */
static int
same_param(const Node *a, const Node *b)
{
	const Symbol *ta = tensor_sym(a), *tb = tensor_sym(b);
	int i;

	if (a->op != b->op || strcmp(a->name, b->name) != 0)
		return 0;
	if (a->op == ACCESS_NONE)
		return strcmp(a->type->name, b->type->name) == 0;
	if (!ta || !tb)
		return 1;       /* reported already */
	if (ta->rank != tb->rank)
		return 0;
	for (i = 0; i < ta->rank; i++)
		if (ta->dimsym[i] && tb->dimsym[i] && strcmp(ta->dimsym[i]->name, tb->dimsym[i]->name) != 0)
			return 0;
	return 1;
}

/* Why instance a's kernel cannot share an entry point with instance b's: a parameter that
 * differs beyond its tensor's element type (which the entry point chooses by), their
 * number, or the index width (one argument struct serves every instance); 0 if it can. */
static int
signature_differs(const Node *a, const Node *b, Buf *why)
{
	const Node *pa, *pb;

	for (pa = a->list.head, pb = b->list.head; pa && pb; pa = pa->next, pb = pb->next)
		if (!same_param(pa, pb)) {
			buf_puts(why, "its parameter '");
			param_text(pa, why);
			buf_puts(why, "' is '");
			param_text(pb, why);
			buf_puts(why, "' there");
			return 1;
		}
	if (pa || pb) {
		buf_printf(why, "it has %d parameters, the entry point's instances %d", a->list.n, b->list.n);
		return 1;
	}
	if (a->kinfo->index64 != b->kinfo->index64) {
		buf_printf(why, "it indexes in %s, the entry point's instances in %s",
			   a->kinfo->index64 ? "i64" : "i32", b->kinfo->index64 ? "i64" : "i32");
		return 1;
	}
	return 0;
}

/* "T = bf16, O = f32": the types instance inst takes, for messages (nothing for none). */
static void
types_text(const Node *inst, Buf *b)
{
	const Node *tp;
	int j, n = 0;

	for (tp = inst->lhs->init->list.head, j = 0; tp; tp = tp->next, j++)
		if (!is_const_param(tp))
			buf_printf(b, "%s%s = %s", n++ ? ", " : "", tp->name, inst_type(inst, j));
}

/* The conditions of k's instances: for the arguments an instance takes, the entry point
 * tries the instances that take them in order, so a later instance must take them all
 * and, in the end, one without `when` (else it selects nothing when the condition is
 * false); one after an instance that takes all its arguments without `when` is never
 * tried. */
static void
check_conditions(const Node *k)
{
	Node **insts = k->kinfo->entry;
	int n = k->kinfo->nentry, i, j, by_more = entry_by_more(k);

	for (i = 0; i < n; i++) {
		const KernelInfo *ki = insts[i]->body->kinfo;
		const char *name = insts[i]->body->name;
		Buf types = {0};
		int later = 0;

		if (!ki || !ki->when)
			continue;
		types_text(insts[i], &types);
		for (j = 0; j < i; j++)
			if (covers(insts[j], insts[i]) && !insts[j]->body->kinfo->when)
				break;
		for (later = i + 1; later < n && !covers(insts[later], insts[i]); later++)
			;
		if (j < i && by_more) {
			diag_error(ki->when_at->loc, "the entry point '%s' never selects the instance '%s': '%s' before it takes every argument '%s' takes, on its targets, and has no 'when'",
				   k->name, name, insts[j]->body->name, name);
		} else if (j < i) {
			diag_error(ki->when_at->loc, "the entry point '%s' never selects the instance '%s': '%s' before it takes the same types%s%s%s and has no 'when'",
				   k->name, name, insts[j]->body->name, types.s ? " (" : "",
				   types.s ? types.s : "", types.s ? ")" : "");
		} else if (later == n && by_more) {
			diag_error(ki->when_at->loc, "the entry point '%s' selects nothing for the arguments '%s' takes when '%s' is false: declare an instance that takes them all, on its targets, without 'when' after '%s'",
				   k->name, name, ki->when_text, name);
		} else if (later == n) {
			diag_error(ki->when_at->loc, "the entry point '%s' selects nothing%s%s when '%s' is false: declare an instance %swithout 'when' after '%s'",
				   k->name, types.s ? " for " : "", types.s ? types.s : "", ki->when_text,
				   types.s ? "that takes these types " : "", name);
		}
		if (j < i)
			diag_note(insts[j]->loc, "'%s' is here", insts[j]->body->name);
		buf_free(&types);
	}
}

/* Why instance a's kernel and instance b's have argument structs of other layouts though
 * the same parameters: a per_rank table of another size (its tensors are an array of the
 * struct); 0 if they have one layout. */
static int
tables_differ(const Node *a, const Node *b, Buf *why)
{
	const Node *pa, *pb;

	for (pa = a->list.head, pb = b->list.head; pa && pb; pa = pa->next, pb = pb->next) {
		const Symbol *ta = tensor_sym(pa), *tb = tensor_sym(pb);

		if (ta && tb && ta->ranks != tb->ranks) {
			buf_printf(why, "its per_rank table '%s' holds %d tensors, the first instance's %d (one argument struct serves every instance)",
				   pa->name, ta->ranks, tb->ranks);
			return 1;
		}
	}
	return 0;
}

/* Whether instance inst names its entry point (`entry NAME`) rather than joining its
 * kernel's by default. */
static int
names_entry(const Node *inst)
{
	const Node *a;

	for (a = inst->attrs.head; a; a = a->next)
		if (strcmp(a->name, "entry") == 0)
			return 1;
	return 0;
}

/* The instances of k's entry point that other kernels bring (`entry K`) take the same
 * arguments as its first instance, but for their tensors' element types; and every
 * instance has per_rank tables of the first one's sizes. Instances of one kernel whose
 * tables differ (one per world size) have no entry point, unless one asked to join it:
 * that is an error. */
static void
check_signatures(const Node *k)
{
	Node **insts = k->kinfo->entry;
	int i, n = k->kinfo->nentry;

	for (i = 1; i < n && k->kinfo->nentry; i++) {
		Buf why = {0};
		int bad = insts[i]->lhs != insts[0]->lhs && signature_differs(insts[i]->body, insts[0]->body, &why);

		if (!bad && tables_differ(insts[i]->body, insts[0]->body, &why)) {
			bad = names_entry(insts[i]) || names_entry(insts[0]);
			if (!bad)
				k->kinfo->nentry = 0;   /* joined by default: no entry point */
		}
		if (bad) {
			diag_error(insts[i]->loc, "the instance '%s' cannot join the entry point '%s': %s",
				   insts[i]->body->name, k->name, why.s);
			diag_note(insts[0]->loc, "the entry point's first instance, '%s', is here",
				  insts[0]->body->name);
		}
		buf_free(&why);
	}
}

void
gen_check_entries(Sema *S, Node *program)
{
	Node *k;

	for (k = program->list.head; k; k = k->next) {
		const Node *tp, *d;
		int j;

		if (k->kind != N_KERNEL || !k->init || !k->kinfo || k->kinfo->nleft_out)
			continue;
		/* an imported design is the importer's to use or not; the rules below are for
		 * its entry point, where the importer makes one */
		if (k->loc.file != S->p->file && !k->kinfo->nentry)
			continue;
		/* a kernel whose entry point only other kernels' instances join (designs imported
		 * from other files) is that entry's declaration: it needs no instance itself, and
		 * its types' coverage is theirs */
		if (!k->kinfo->ninst && !k->kinfo->nentry) {
			diag_error(k->loc, "generic kernel '%s' has no instance (declare one: 'instance %s<...>;')",
				   k->name, k->name);
			continue;
		}
		for (tp = k->init->list.head, j = 0; tp && k->kinfo->ninst; tp = tp->next, j++) {
			if (is_const_param(tp))
				continue;
			for (d = tp->list.head; d; d = d->next)
				if (!type_taken(k->kinfo->insts, k->kinfo->ninst, j, d->name))
					diag_error(d->loc, "the entry point '%s' selects nothing when %s = %s: no instance takes it (declare one, or take %s out of %s's types)",
						   k->name, tp->name, d->name, d->name, tp->name);
		}
		check_signatures(k);
		check_conditions(k);
	}
}
