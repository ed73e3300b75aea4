/* ast.c: the AST builders the grammar calls (one per action) and the --emit=ast printer.
 * Nodes live in the program arena; the builders also track nesting depth so that deeply
 * nested input is an error here rather than a stack overflow in a later recursive walk. */
#include "ast.h"

#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

Node *
ast_node(Parser *p, NodeKind kind, SrcLoc loc)
{
	Node *n = arena_alloc(p->arena, sizeof *n);

	n->kind = kind;
	n->loc = loc;
	n->depth = 1;
	n->xslot[0] = n->xslot[1] = -1;
	return n;
}

NodeList
ast_list_empty(void)
{
	NodeList l = {NULL, NULL, 0};

	return l;
}

NodeList
ast_list_one(Node *n)
{
	return ast_list_append(ast_list_empty(), n);
}

NodeList
ast_list_append(NodeList l, Node *n)
{
	if (!n)
		return l;
	n->next = NULL;
	if (l.tail)
		l.tail->next = n;
	else
		l.head = n;
	l.tail = n;
	l.n++;
	return l;
}

/* Raises n's depth above child's and reports the nesting limit once per file. */
static void
deepen(Parser *p, Node *n, const Node *child)
{
	if (!child || child->depth + 1 <= n->depth)
		return;
	n->depth = child->depth + 1;
	if (n->depth > FE_MAX_DEPTH && !p->too_deep) {
		p->too_deep = 1;
		diag_error(n->loc, "nesting is too deep (more than %d levels)", FE_MAX_DEPTH);
	}
}

static void
deepen_list(Parser *p, Node *n, NodeList l)
{
	const Node *c;

	for (c = l.head; c; c = c->next)
		deepen(p, n, c);
}

Node *
ast_program(Parser *p, NodeList decls)
{
	SrcLoc loc = {p->file, 0, 0, 0};
	Node *n = ast_node(p, N_PROGRAM, loc);

	n->list = decls;
	p->program = n;
	return n;
}

Node *
ast_int(Parser *p, SrcLoc loc, int64_t v)
{
	Node *n = ast_node(p, N_INT, loc);

	n->ival = v;
	return n;
}

Node *
ast_float(Parser *p, SrcLoc loc, double v)
{
	Node *n = ast_node(p, N_FLOAT, loc);

	n->fval = v;
	return n;
}

Node *
ast_bool(Parser *p, SrcLoc loc, int v)
{
	Node *n = ast_node(p, N_BOOL, loc);

	n->ival = v != 0;
	return n;
}

Node *
ast_name(Parser *p, SrcLoc loc, const char *name)
{
	Node *n = ast_node(p, N_NAME, loc);

	n->name = name;
	return n;
}

Node *
ast_unary(Parser *p, SrcLoc loc, AstOp op, Node *a)
{
	Node *n = ast_node(p, N_UNARY, loc);

	n->op = op;
	n->lhs = a;
	deepen(p, n, a);
	return n;
}

Node *
ast_binary(Parser *p, SrcLoc loc, AstOp op, Node *a, Node *b)
{
	Node *n = ast_node(p, N_BINARY, loc);

	n->op = op;
	n->lhs = a;
	n->rhs = b;
	deepen(p, n, a);
	deepen(p, n, b);
	return n;
}

Node *
ast_cond(Parser *p, SrcLoc loc, Node *c, Node *a, Node *b)
{
	Node *n = ast_node(p, N_COND, loc);

	n->cond = c;
	n->lhs = a;
	n->rhs = b;
	deepen(p, n, c);
	deepen(p, n, a);
	deepen(p, n, b);
	return n;
}

Node *
ast_call(Parser *p, SrcLoc loc, const char *name, NodeList args)
{
	Node *n = ast_node(p, N_CALL, loc);

	n->name = name;
	n->list = args;
	deepen_list(p, n, args);
	return n;
}

Node *
ast_index(Parser *p, SrcLoc loc, Node *base, NodeList idx, Node *width)
{
	Node *n = ast_node(p, N_INDEX, loc);

	n->lhs = base;
	n->list = idx;
	n->width = width;
	deepen(p, n, base);
	deepen_list(p, n, idx);
	deepen(p, n, width);
	return n;
}

Node *
ast_member(Parser *p, SrcLoc loc, Node *base, const char *name)
{
	Node *n = ast_node(p, N_MEMBER, loc);

	n->lhs = base;
	n->name = name;
	deepen(p, n, base);
	return n;
}

Node *
ast_type(Parser *p, SrcLoc loc, const char *name, NodeList dims)
{
	Node *n = ast_node(p, N_TYPE, loc);

	n->name = name;
	n->list = dims;
	deepen_list(p, n, dims);
	return n;
}

Node *
ast_let(Parser *p, SrcLoc loc, int mutable_, const char *name, Node *type, Node *init)
{
	Node *n = ast_node(p, mutable_ ? N_VAR : N_LET, loc);

	n->name = name;
	n->type = type;
	n->init = init;
	deepen(p, n, type);
	deepen(p, n, init);
	return n;
}

/* Reports a contextual keyword (step, unroll, align) spelled wrong. Returns 0 then. */
static int
want_word(const char *word, SrcLoc loc, const char *expected, const char *where)
{
	if (strcmp(word, expected) == 0)
		return 1;
	diag_error(loc, "expected '%s' %s, found '%s'", expected, where, word);
	return 0;
}

/* The attributes after a shared array's type; align(N) goes to lhs (as before there were
 * other attributes), the rest (in, swizzle, alias) stay in attrs for async_decl.c. */
/* Tensor memory: `tmem NAME: f32[128, COLS] in PIPELINE;` (only `in` is an attribute). */
Node *
ast_tmem(Parser *p, SrcLoc loc, const char *word, const char *name, Node *type, NodeList attrs)
{
	Node *n, *a;

	if (!want_word(word, loc, "tmem", "before 'NAME: TYPE' (a tensor-memory declaration)"))
		return NULL;
	n = ast_node(p, N_TMEM, loc);
	n->name = name;
	n->type = type;
	n->attrs = attrs;
	deepen(p, n, type);
	for (a = attrs.head; a; a = a->next)
		deepen(p, n, a);
	return n;
}

Node *
ast_shared(Parser *p, SrcLoc loc, const char *name, Node *type, NodeList attrs)
{
	Node *n = ast_node(p, N_SHARED, loc);
	Node *a, *next, *seen[4] = {0};
	static const char *const words[4] = {"in", "align", "swizzle", "alias"};
	int i;

	n->name = name;
	n->type = type;
	deepen(p, n, type);
	for (a = attrs.head; a; a = next) {
		next = a->next;
		if (!a->lhs) {
			diag_error(a->loc, "shared array '%s' takes no bare word '%s' (its attributes are 'in PIPELINE', 'align(N)', 'swizzle(N)' and 'alias(NAME)'; 'packed' marks a tmem that holds an MMA operand A)",
				   name, a->name);
			continue;
		}
		for (i = 0; i < 4 && strcmp(a->name, words[i]) != 0; i++)
			;
		if (i == 4)
			continue;
		if (seen[i]) {
			diag_error(a->loc, "duplicate '%s' on shared array '%s'", a->name, name);
			diag_note(seen[i]->loc, "the first one is here");
			continue;
		}
		seen[i] = a;
		deepen(p, n, a);
		if (i == 1)
			n->lhs = a->lhs;
		else
			n->attrs = ast_list_append(n->attrs, a);
	}
	return n;
}

Node *
ast_shared_attr(Parser *p, SrcLoc loc, const char *word, Node *arg)
{
	Node *n;

	if (strcmp(word, "in") && strcmp(word, "align") && strcmp(word, "swizzle") &&
	    strcmp(word, "alias")) {
		diag_error(loc, "expected 'in', 'align', 'swizzle' or 'alias' after the shared array's type, found '%s'",
			   word);
		return NULL;
	}
	n = ast_node(p, N_SATTR, loc);
	n->name = word;
	n->lhs = arg;
	deepen(p, n, arg);
	return n;
}

Node *
ast_bare_attr(Parser *p, SrcLoc loc, const char *word)
{
	Node *n = ast_node(p, N_SATTR, loc);

	n->name = word;
	return n;
}

Node *
ast_assign(Parser *p, SrcLoc loc, AstOp op, Node *lhs, Node *rhs)
{
	Node *n = ast_node(p, N_ASSIGN, loc);

	n->op = op;
	n->lhs = lhs;
	n->rhs = rhs;
	deepen(p, n, lhs);
	deepen(p, n, rhs);
	return n;
}

Node *
ast_if(Parser *p, SrcLoc loc, Node *cond, Node *then, Node *els)
{
	Node *n = ast_node(p, N_IF, loc);

	n->cond = cond;
	n->body = then;
	n->els = els;
	deepen(p, n, cond);
	deepen(p, n, then);
	deepen(p, n, els);
	return n;
}

Node *
ast_unroll(Parser *p, SrcLoc loc, const char *word, Node *count)
{
	Node *n = ast_node(p, N_UNROLL, loc);

	if (!count && strcmp(word, "round_robin") == 0) {
		n->op = LOOP_ROUND_ROBIN;
		return n;
	}
	if (!want_word(word, loc, "unroll", count ? "before the unroll count" : "or 'round_robin' or a block after the loop header"))
		return NULL;
	n->op = count ? UNROLL_COUNT : UNROLL_FULL;
	n->lhs = count;
	deepen(p, n, count);
	return n;
}

Node *
ast_for(Parser *p, SrcLoc loc, const char *iv, Node *lo, Node *hi, const char *word, SrcLoc wloc,
	Node *step, Node *unroll, Node *body)
{
	Node *n = ast_node(p, N_FOR, loc);

	n->name = iv;
	n->lo = lo;
	n->hi = hi;
	if (word && want_word(word, wloc, "step", "or ')' after the loop bounds"))
		n->step = step;
	n->op = unroll ? unroll->op : UNROLL_NONE;
	n->unroll_n = unroll ? unroll->lhs : NULL;
	n->body = body;
	deepen(p, n, lo);
	deepen(p, n, hi);
	deepen(p, n, n->step);
	deepen(p, n, unroll);
	deepen(p, n, body);
	return n;
}

Node *
ast_while(Parser *p, SrcLoc loc, Node *cond, Node *body)
{
	Node *n = ast_node(p, N_WHILE, loc);

	n->cond = cond;
	n->body = body;
	deepen(p, n, cond);
	deepen(p, n, body);
	return n;
}

Node *
ast_block(Parser *p, SrcLoc loc, NodeList stmts)
{
	Node *n = ast_node(p, N_BLOCK, loc);

	n->list = stmts;
	deepen_list(p, n, stmts);
	return n;
}

Node *
ast_exprstmt(Parser *p, SrcLoc loc, Node *e)
{
	Node *n = ast_node(p, N_EXPRSTMT, loc);

	n->lhs = e;
	deepen(p, n, e);
	return n;
}

Node *
ast_exit(Parser *p, SrcLoc loc, NodeKind kind, Node *value)
{
	Node *n = ast_node(p, kind, loc);

	n->lhs = value;
	deepen(p, n, value);
	return n;
}

NodeList
ast_clone_list(Parser *p, NodeList l, int site, const AstSubst *subst)
{
	NodeList r = ast_list_empty();
	const Node *c;

	for (c = l.head; c; c = c->next)
		r = ast_list_append(r, ast_clone(p, c, site, subst));
	return r;
}

/* Whether name is type parameter tp's vector, `Tx2` or `Tx4`, or its register A fragment
 * of wgmma, `Ta` (bf16a, f16a): the suffix, or NULL. */
static const char *
vector_of(const char *name, const char *tp)
{
	size_t n = strlen(tp);

	if (strncmp(name, tp, n) != 0 ||
	    (strcmp(name + n, "x2") != 0 && strcmp(name + n, "x4") != 0 && strcmp(name + n, "a") != 0))
		return NULL;
	return name + n;
}

/* Applies subst to copy c: a type name in a type or a conversion call (the parameter's
 * vectors `Tx2`, `Tx4` and A fragment `Ta` too), a value name. */
static void
substitute(Parser *p, Node *c, const AstSubst *subst)
{
	const char *lanes;
	int i;

	for (i = 0; subst && i < subst->n; i++) {
		if (c->name && subst->types[i] && (c->kind == N_TYPE || (c->kind == N_CALL && !c->lhs)) &&
		    (lanes = vector_of(c->name, subst->names[i]))) {
			size_t n = strlen(subst->types[i]), nl = strlen(lanes) + 1;
			char *v = arena_alloc(p->arena, n + nl);

			memcpy(v, subst->types[i], n);
			memcpy(v + n, lanes, nl);
			c->name = v;
			return;
		}
		if (!c->name || strcmp(c->name, subst->names[i]) != 0)
			continue;
		if (subst->types[i] && (c->kind == N_TYPE || (c->kind == N_CALL && !c->lhs)))
			c->name = subst->types[i];
		else if (!subst->types[i] && c->kind == N_NAME) {
			c->kind = N_INT;
			c->ival = subst->ints[i];
			c->name = NULL;
		}
		return;
	}
}

Node *
ast_clone(Parser *p, const Node *n, int site, const AstSubst *subst)
{
	Node *c;

	if (!n)
		return NULL;
	c = arena_alloc(p->arena, sizeof *c);
	p->nclones++;
	memcpy(c, n, offsetof(Node, ty));
	c->next = NULL;
	c->loc.site = site;
	c->xslot[0] = c->xslot[1] = -1;
	c->lhs = ast_clone(p, n->lhs, site, subst);
	c->rhs = ast_clone(p, n->rhs, site, subst);
	c->cond = ast_clone(p, n->cond, site, subst);
	c->type = ast_clone(p, n->type, site, subst);
	c->init = ast_clone(p, n->init, site, subst);
	c->body = ast_clone(p, n->body, site, subst);
	c->els = ast_clone(p, n->els, site, subst);
	c->lo = ast_clone(p, n->lo, site, subst);
	c->hi = ast_clone(p, n->hi, site, subst);
	c->step = ast_clone(p, n->step, site, subst);
	c->width = ast_clone(p, n->width, site, subst);
	c->unroll_n = ast_clone(p, n->unroll_n, site, subst);
	c->list = ast_clone_list(p, n->list, site, subst);
	c->attrs = ast_clone_list(p, n->attrs, site, subst);
	substitute(p, c, subst);
	return c;
}

Node *
ast_generic(Parser *p, NodeList tparams)
{
	Node *n;

	if (!tparams.n)
		return NULL;
	n = ast_node(p, N_LIST, tparams.head->loc);
	n->list = tparams;
	deepen_list(p, n, tparams);
	return n;
}

Node *
ast_tparam(Parser *p, SrcLoc loc, const char *name, NodeList domain, Node *dflt)
{
	Node *n = ast_node(p, N_TPARAM, loc);

	n->name = name;
	n->list = domain;
	n->init = dflt;
	return n;
}

Node *
ast_instance(Parser *p, SrcLoc loc, const char *word, const char *name, SrcLoc nloc,
	     NodeList args, NodeList attrs)
{
	Node *n;

	if (strcmp(word, "instance") != 0) {
		diag_error(loc, "unknown declaration '%s %s<...>' (expected 'instance KERNEL<...>;')", word, name);
		return NULL;
	}
	n = ast_node(p, N_INSTANCE, nloc);
	n->name = name;
	n->list = args;
	n->attrs = attrs;
	deepen_list(p, n, args);
	deepen_list(p, n, attrs);
	return n;
}

Node *
ast_func(Parser *p, SrcLoc loc, const char *name, NodeList params, Node *ret, Node *body)
{
	Node *n = ast_node(p, N_FUNC, loc);

	n->name = name;
	n->list = params;
	n->type = ret;
	n->body = body;
	deepen_list(p, n, params);
	deepen(p, n, ret);
	deepen(p, n, body);
	return n;
}

Node *
ast_import(Parser *p, SrcLoc loc, const char *path)
{
	Node *n = ast_node(p, N_IMPORT, loc);

	n->name = path;
	return n;
}

Node *
ast_const(Parser *p, SrcLoc loc, const char *name, Node *type, Node *init)
{
	Node *n = ast_node(p, N_CONST, loc);

	n->name = name;
	n->type = type;
	n->init = init;
	deepen(p, n, type);
	deepen(p, n, init);
	return n;
}

Node *
ast_kernel(Parser *p, SrcLoc loc, const char *name, NodeList params, NodeList attrs, Node *body)
{
	Node *n = ast_node(p, N_KERNEL, loc);

	n->name = name;
	n->list = params;
	n->attrs = attrs;
	n->body = body;
	deepen_list(p, n, params);
	deepen_list(p, n, attrs);
	deepen(p, n, body);
	return n;
}

Node *
ast_param(Parser *p, SrcLoc loc, const char *name, const char *access, SrcLoc aloc, Node *type)
{
	Node *n = ast_node(p, N_PARAM, loc);

	n->name = name;
	n->type = type;
	n->op = ACCESS_NONE;
	if (access) {
		if (strcmp(access, "shared") == 0)
			n->op = ACCESS_SHARED;
		else if (strcmp(access, "in") == 0)
			n->op = ACC_IN;
		else if (strcmp(access, "out") == 0)
			n->op = ACC_OUT;
		else if (strcmp(access, "inout") == 0)
			n->op = ACC_INOUT;
		else
			diag_error(aloc, "expected 'in', 'out' or 'inout' before the tensor type, found '%s'",
				   access);
	}
	deepen(p, n, type);
	return n;
}

Node *
ast_clause(Parser *p, SrcLoc loc, const char *name, NodeList args)
{
	static const struct {
		const char *name;
		NodeKind kind;
	} clauses[] = {{"targets", N_TARGETS}, {"threads", N_THREADS}, {"grid", N_GRID},
		       {"min_blocks", N_MIN_BLOCKS}, {"cluster", N_CLUSTER},
		       {"cta_group", N_CTA_GROUP},
		       {"index", N_INDEXW}, {"launch", N_LAUNCH}, {"requires", N_REQUIRES}};
	Node *n;
	size_t i;

	for (i = 0; i < sizeof clauses / sizeof clauses[0]; i++)
		if (strcmp(name, clauses[i].name) == 0)
			break;
	if (i == sizeof clauses / sizeof clauses[0]) {
		diag_error(loc, "unknown kernel clause '%s' (expected targets, threads, grid, min_blocks, cluster, cta_group, index, launch or requires)",
			   name);
		return NULL;
	}
	n = ast_node(p, clauses[i].kind, loc);
	n->list = args;
	deepen_list(p, n, args);
	return n;
}

/* ---- the Hopper constructs ---- */

Node *
ast_list_expr(Parser *p, SrcLoc loc, NodeList items)
{
	Node *n = ast_node(p, N_LIST, loc);

	n->list = items;
	deepen_list(p, n, items);
	return n;
}

Node *
ast_named(Parser *p, SrcLoc loc, const char *name, Node *value)
{
	Node *n = ast_node(p, N_NAMED, loc);

	n->name = name;
	n->lhs = value;
	deepen(p, n, value);
	return n;
}

/* recv.name(args): a call with a receiver (only buf.rows(start, count) means anything). */
Node *
ast_method(Parser *p, SrcLoc loc, Node *recv, const char *name, NodeList args)
{
	Node *n = ast_call(p, loc, name, args);

	n->lhs = recv;
	deepen(p, n, recv);
	return n;
}

Node *
ast_decl_init(Parser *p, SrcLoc loc, const char *word, const char *name, SrcLoc nloc, Node *init)
{
	Node *n;

	if (strcmp(word, "tensormap") != 0) {
		diag_error(loc, "unknown declaration '%s %s = ...' (expected 'tensormap NAME = tma(...)', or 'let' or 'var' for a local)",
			   word, name);
		return NULL;
	}
	n = ast_node(p, N_TENSORMAP, nloc);
	n->name = name;
	n->init = init;
	deepen(p, n, init);
	return n;
}

Node *
ast_decl_args(Parser *p, SrcLoc loc, const char *word, const char *name, SrcLoc nloc, NodeList args)
{
	Node *n;

	if (strcmp(word, "role") == 0) {
		diag_error(loc, "role '%s' needs a body: role %s(...) { ... }", name, name);
		return NULL;
	}
	if (strcmp(word, "pipeline") != 0 && strcmp(word, "mbarrier") != 0) {
		diag_error(loc, "unknown declaration '%s' (expected pipeline, mbarrier or role)", word);
		return NULL;
	}
	n = ast_node(p, word[0] == 'p' ? N_PIPELINE : N_MBARRIER, nloc);
	n->name = name;
	n->list = args;
	deepen_list(p, n, args);
	return n;
}

Node *
ast_role(Parser *p, SrcLoc loc, const char *word, const char *name, SrcLoc nloc, NodeList args,
	 NodeList attrs, Node *body)
{
	Node *n;

	if (strcmp(word, "pipeline") == 0 || strcmp(word, "mbarrier") == 0) {
		diag_error(loc, "%s '%s' is a declaration without a block: %s %s(...);", word, name, word, name);
		return NULL;
	}
	if (strcmp(word, "role") != 0) {
		diag_error(loc, "unknown statement '%s' (expected 'role NAME(warps a .. b) { ... }')", word);
		return NULL;
	}
	n = ast_node(p, N_ROLE, nloc);
	n->name = name;
	n->list = args;
	n->attrs = attrs;
	n->body = body;
	deepen_list(p, n, args);
	deepen_list(p, n, attrs);
	deepen(p, n, body);
	return n;
}

Node *
ast_range(Parser *p, SrcLoc loc, const char *word, Node *lo, Node *hi)
{
	Node *n = ast_node(p, N_RANGE, loc);

	n->name = word;
	n->lo = lo;
	n->hi = hi;
	deepen(p, n, lo);
	deepen(p, n, hi);
	return n;
}

Node *
ast_role_attr(Parser *p, SrcLoc loc, const char *word, NodeList args)
{
	Node *n;

	if (!want_word(word, loc, "regs", "or a block after the role's warps"))
		return NULL;
	n = ast_node(p, N_REGS, loc);
	n->list = args;
	deepen_list(p, n, args);
	return n;
}

Node *
ast_word_block(Parser *p, SrcLoc loc, const char *word, Node *body)
{
	Node *n;

	if (strcmp(word, "produce") == 0 || strcmp(word, "consume") == 0) {
		diag_error(loc, "'%s' needs a pipeline: %s PIPELINE { ... }", word, word);
		return NULL;
	}
	if (strcmp(word, "elect") != 0) {
		diag_error(loc, "unknown statement '%s { ... }' (expected 'elect { ... }')", word);
		return NULL;
	}
	n = ast_node(p, N_ELECT, loc);
	n->body = body;
	deepen(p, n, body);
	return n;
}

Node *
ast_pipe_block(Parser *p, SrcLoc loc, const char *word, const char *name, SrcLoc nloc, Node *body)
{
	Node *n;

	if (strcmp(word, "role") == 0) {
		diag_error(loc, "role '%s' needs its warps: role %s(warps a .. b) { ... }", name, name);
		return NULL;
	}
	if (strcmp(word, "produce") != 0 && strcmp(word, "consume") != 0) {
		diag_error(loc, "unknown statement '%s %s { ... }' (expected 'produce PIPELINE { ... }' or 'consume PIPELINE { ... }')",
			   word, name);
		return NULL;
	}
	n = ast_node(p, word[0] == 'p' ? N_PRODUCE : N_CONSUME, loc);
	n->lhs = ast_name(p, nloc, name);
	n->body = body;
	deepen(p, n, body);
	return n;
}

/* ---- printing ---- */

static const char *const op_text[OP_COUNT] = {
	[OP_NONE] = "=",
	[OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*", [OP_DIV] = "/", [OP_REM] = "%",
	[OP_AND] = "&", [OP_OR] = "|", [OP_XOR] = "^", [OP_SHL] = "<<", [OP_SHR] = ">>",
	[OP_LAND] = "&&", [OP_LOR] = "||",
	[OP_EQ] = "==", [OP_NE] = "!=", [OP_LT] = "<", [OP_LE] = "<=", [OP_GT] = ">",
	[OP_GE] = ">=",
	[OP_NEG] = "-", [OP_NOT] = "!", [OP_BITNOT] = "~",
};

const char *
ast_op_text(AstOp op)
{
	return (unsigned)op < OP_COUNT ? op_text[op] : "?";
}

/* A binary operator's precedence, as the grammar's (docs/language.md's table): || 2 to
 * * / % 10; unary operators are 11. */
static int
op_prec(AstOp op)
{
	switch (op) {
	case OP_LOR: return 2;
	case OP_LAND: return 3;
	case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE: return 4;
	case OP_OR: return 5;
	case OP_XOR: return 6;
	case OP_AND: return 7;
	case OP_SHL: case OP_SHR: return 8;
	case OP_ADD: case OP_SUB: return 9;
	default: return 10;
	}
}

/* e, parenthesized if its precedence is below min. */
static void
expr_text(const Node *e, Buf *out, int min)
{
	const Node *a;
	int p;

	switch (e->kind) {
	case N_INT: buf_printf(out, "%lld", (long long)e->ival); return;
	case N_BOOL: buf_puts(out, e->ival ? "true" : "false"); return;
	case N_FLOAT: buf_printf(out, "%g", e->fval); return;
	case N_NAME: buf_puts(out, e->name); return;
	case N_CALL:
		buf_printf(out, "%s(", e->name);
		for (a = e->list.head; a; a = a->next) {
			expr_text(a, out, 0);
			buf_puts(out, a->next ? ", " : "");
		}
		buf_puts(out, ")");
		return;
	case N_UNARY: p = 11; break;
	case N_BINARY: p = op_prec(e->op); break;
	default: buf_puts(out, "..."); return;
	}
	if (p < min)
		buf_puts(out, "(");
	if (e->kind == N_UNARY) {
		buf_puts(out, ast_op_text(e->op));
		expr_text(e->lhs, out, 11);
	} else {
		/* left associative; comparisons do not chain */
		expr_text(e->lhs, out, p == 4 ? 5 : p);
		buf_printf(out, " %s ", ast_op_text(e->op));
		expr_text(e->rhs, out, p + 1);
	}
	if (p < min)
		buf_puts(out, ")");
}

void
ast_expr_text(const Node *e, Buf *out)
{
	expr_text(e, out, 0);
}

void
fe_type_str(IrType t, char *out, int size)
{
	switch (t.base) {
	case TY_UNTYPED_INT:
		snprintf(out, (size_t)size, "untyped int");
		break;
	case TY_UNTYPED_FLOAT:
		snprintf(out, (size_t)size, "untyped float");
		break;
	case TY_NONVALUE:
		snprintf(out, (size_t)size, "no value");
		break;
	case IR_F32:
		/* a wgmma accumulator fragment holds N / 2 lanes of an m64nN tile */
		if (ir_is_frag(t)) {
			snprintf(out, (size_t)size, "f32acc[64, %d]", t.lanes * 2);
			break;
		}
		ir_type_str(t, out, size);
		break;
	case IR_BF16: case IR_F16:
		/* a wgmma register A fragment holds K / 2 lanes of a 64 x K operand */
		if (ir_is_afrag(t)) {
			snprintf(out, (size_t)size, "%sa[64, %d]", t.base == IR_F16 ? "f16" : "bf16", t.lanes * 2);
			break;
		}
		ir_type_str(t, out, size);
		break;
	default:
		ir_type_str(t, out, size);
	}
}

void
fe_double_str(char *out, size_t size, double v)
{
	int prec;

	for (prec = 1; prec <= 17; prec++) {
		snprintf(out, size, "%.*g", prec, v);
		if (strtod(out, NULL) == v)
			break;
	}
	if (!strpbrk(out, ".eEni") && strlen(out) + 2 < size)
		strcat(out, ".0");
}

static void
put_double(Buf *out, double v)
{
	char s[64];

	fe_double_str(s, sizeof s, v);
	buf_puts(out, s);
}

static void
put_const(Buf *out, IrType t, ConstVal v)
{
	if (t.base == TY_UNTYPED_FLOAT || ir_const_is_float(t))
		put_double(out, v.f);
	else if (t.base == IR_U64)
		buf_printf(out, "%llu", (unsigned long long)v.i);
	else if (t.base == IR_I1)
		buf_puts(out, v.i ? "true" : "false");
	else
		buf_printf(out, "%lld", (long long)v.i);
}

static void print_node(Buf *out, const Node *n, int indent, const char *label);

static void
print_list(Buf *out, NodeList l, int indent, const char *label)
{
	const Node *c;

	for (c = l.head; c; c = c->next)
		print_node(out, c, indent, label);
}

static const char *const access_names[] = {"in", "out", "inout"};

static int
is_expr(NodeKind k)
{
	return k <= N_NAMED;
}

static void
print_node(Buf *out, const Node *n, int indent, const char *label)
{
	char ty[64];

	if (!n)
		return;
	buf_printf(out, "%*s", indent * 2, "");
	if (label)
		buf_printf(out, "%s: ", label);
	switch (n->kind) {
	case N_INT: buf_printf(out, "int %lld", (long long)n->ival); break;
	case N_FLOAT: buf_puts(out, "float "); put_double(out, n->fval); break;
	case N_BOOL: buf_puts(out, n->ival ? "bool true" : "bool false"); break;
	case N_NAME: buf_printf(out, "name %s", n->name); break;
	case N_UNARY: buf_printf(out, "unary %s", ast_op_text(n->op)); break;
	case N_BINARY: buf_printf(out, "binary %s", ast_op_text(n->op)); break;
	case N_COND: buf_puts(out, "select"); break;
	case N_CALL: buf_printf(out, "call %s", n->name); break;
	case N_INDEX: buf_puts(out, "index"); break;
	case N_MEMBER: buf_printf(out, "member .%s", n->name); break;
	case N_LET: buf_printf(out, "let %s", n->name); break;
	case N_VAR: buf_printf(out, "var %s", n->name); break;
	case N_SHARED: buf_printf(out, "shared %s", n->name); break;
	case N_TMEM: buf_printf(out, "tmem %s", n->name); break;
	case N_ASSIGN:
		buf_printf(out, "assign %s%s", n->op ? ast_op_text(n->op) : "", "=");
		break;
	case N_IF: buf_puts(out, "if"); break;
	case N_FOR:
		buf_printf(out, "for %s", n->name);
		if (n->op == UNROLL_FULL)
			buf_puts(out, " unroll");
		else if (n->op == UNROLL_COUNT)
			buf_puts(out, " unroll(n)");
		else if (n->op == LOOP_ROUND_ROBIN)
			buf_puts(out, " round_robin");
		break;
	case N_WHILE: buf_puts(out, "while"); break;
	case N_BLOCK: buf_puts(out, "block"); break;
	case N_EXPRSTMT: buf_puts(out, "expr"); break;
	case N_BREAK: buf_puts(out, "break"); break;
	case N_CONTINUE: buf_puts(out, "continue"); break;
	case N_RETURN: buf_puts(out, "return"); break;
	case N_FUNC: buf_printf(out, "fn %s", n->name); break;
	case N_IMPORT: buf_printf(out, "import \"%s\"", n->name); break;
	case N_TPARAM: buf_printf(out, "tparam %s", n->name); break;
	case N_INSTANCE: buf_printf(out, "instance %s", n->name); break;
	case N_PROGRAM: buf_printf(out, "program %s", diag_source_path(n->loc.file)); break;
	case N_CONST: buf_printf(out, "const %s", n->name); break;
	case N_KERNEL: buf_printf(out, "kernel %s", n->name); break;
	case N_PARAM:
		buf_printf(out, "param %s", n->name);
		if (n->op >= ACC_IN && n->op <= ACC_INOUT)
			buf_printf(out, " %s", access_names[n->op]);
		else if (n->op == ACCESS_SHARED)
			buf_puts(out, " shared");
		break;
	case N_TARGETS: buf_puts(out, "targets"); break;
	case N_THREADS: buf_puts(out, "threads"); break;
	case N_GRID: buf_puts(out, "grid"); break;
	case N_TYPE: buf_printf(out, "type %s", n->name); break;
	case N_UNROLL: buf_puts(out, "unroll"); break;
	case N_LIST: buf_puts(out, "list"); break;
	case N_NAMED: buf_printf(out, "named %s", n->name); break;
	case N_TENSORMAP: buf_printf(out, "tensormap %s", n->name); break;
	case N_PIPELINE: buf_printf(out, "pipeline %s", n->name); break;
	case N_MBARRIER: buf_printf(out, "mbarrier %s", n->name); break;
	case N_ROLE:
		buf_printf(out, "role %s", n->name);
		buf_printf(out, " warps %d..%d", n->wlo, n->whi);
		if (n->regs)
			buf_printf(out, " regs %d", n->regs);
		break;
	case N_RANGE: buf_printf(out, "%s", n->name); break;
	case N_REGS: buf_puts(out, "regs"); break;
	case N_ELECT: buf_puts(out, "elect"); break;
	case N_PRODUCE: buf_printf(out, "produce %s", n->lhs->name); break;
	case N_CONSUME: buf_printf(out, "consume %s", n->lhs->name); break;
	case N_SATTR: buf_printf(out, "%s", n->name); break;
	case N_MIN_BLOCKS: buf_puts(out, "min_blocks"); break;
	case N_CLUSTER: buf_puts(out, "cluster"); break;
	case N_CTA_GROUP: buf_puts(out, "cta_group"); break;
	case N_INDEXW: buf_puts(out, "index"); break;
	case N_LAUNCH: buf_puts(out, "launch"); break;
	case N_REQUIRES: buf_puts(out, "requires"); break;
	case N_WHEN: buf_puts(out, "when"); break;
	default: buf_puts(out, "?"); break;
	}
	if (n->loc.line > 0)
		buf_printf(out, " @%d:%d", n->loc.line, n->loc.col);
	if (n->ty.base != IR_VOID && (is_expr(n->kind) || n->kind == N_LET || n->kind == N_VAR ||
				      n->kind == N_CONST) && n->ty.base != TY_NONVALUE) {
		fe_type_str(n->ty, ty, sizeof ty);
		buf_printf(out, " : %s", ty);
		if (n->isconst) {
			buf_puts(out, " = ");
			put_const(out, n->ty, n->cv);
		}
	}
	buf_putn(out, "\n", 1);

	indent++;
	switch (n->kind) {
	case N_UNARY:
		print_node(out, n->lhs, indent, NULL);
		break;
	case N_BINARY:
		print_node(out, n->lhs, indent, NULL);
		print_node(out, n->rhs, indent, NULL);
		break;
	case N_COND:
		print_node(out, n->cond, indent, "cond");
		print_node(out, n->lhs, indent, "then");
		print_node(out, n->rhs, indent, "else");
		break;
	case N_CALL:
		print_node(out, n->lhs, indent, "receiver");
		print_list(out, n->list, indent, NULL);
		break;
	case N_INDEX:
		print_node(out, n->lhs, indent, "base");
		print_list(out, n->list, indent, "index");
		print_node(out, n->width, indent, "width");
		break;
	case N_MEMBER:
		print_node(out, n->lhs, indent, NULL);
		break;
	case N_LET:
	case N_VAR:
	case N_CONST:
		print_node(out, n->type, indent, NULL);
		print_node(out, n->init, indent, NULL);
		break;
	case N_SHARED:
		print_node(out, n->type, indent, NULL);
		print_node(out, n->lhs, indent, "align");
		print_list(out, n->attrs, indent, NULL);
		break;
	case N_TMEM:
		print_node(out, n->type, indent, NULL);
		print_list(out, n->attrs, indent, NULL);
		break;
	case N_NAMED:
	case N_SATTR:
		print_node(out, n->lhs, indent, NULL);
		break;
	case N_TENSORMAP:
		print_node(out, n->init, indent, NULL);
		break;
	case N_RANGE:
		print_node(out, n->lo, indent, "from");
		print_node(out, n->hi, indent, "to");
		break;
	case N_ROLE:
		print_list(out, n->list, indent, NULL);
		print_list(out, n->attrs, indent, NULL);
		print_node(out, n->body, indent, NULL);
		break;
	case N_ELECT:
	case N_PRODUCE:
	case N_CONSUME:
		print_node(out, n->body, indent, NULL);
		break;
	case N_ASSIGN:
		print_node(out, n->lhs, indent, "to");
		print_node(out, n->rhs, indent, NULL);
		break;
	case N_IF:
		print_node(out, n->cond, indent, "cond");
		print_node(out, n->body, indent, "then");
		print_node(out, n->els, indent, "else");
		break;
	case N_FOR:
		print_node(out, n->lo, indent, "from");
		print_node(out, n->hi, indent, "to");
		print_node(out, n->step, indent, "step");
		print_node(out, n->unroll_n, indent, "unroll");
		print_node(out, n->body, indent, NULL);
		break;
	case N_WHILE:
		print_node(out, n->cond, indent, "cond");
		print_node(out, n->body, indent, NULL);
		break;
	case N_EXPRSTMT:
	case N_RETURN:
		print_node(out, n->lhs, indent, NULL);
		break;
	case N_TPARAM:
	case N_INSTANCE:
		print_list(out, n->list, indent, NULL);
		print_node(out, n->init, indent, "default");
		print_list(out, n->attrs, indent, NULL);
		break;
	case N_FUNC:
		print_list(out, n->list, indent, NULL);
		print_node(out, n->type, indent, "returns");
		print_node(out, n->body, indent, NULL);
		break;
	case N_KERNEL:
		print_node(out, n->init, indent, "generic");
		print_list(out, n->list, indent, NULL);
		print_list(out, n->attrs, indent, NULL);
		print_node(out, n->body, indent, NULL);
		break;
	case N_PARAM:
		print_node(out, n->type, indent, NULL);
		break;
	case N_WHEN:
		print_node(out, n->lhs, indent, NULL);
		break;
	case N_BLOCK:
	case N_PROGRAM:
	case N_TARGETS:
	case N_THREADS:
	case N_GRID:
	case N_TYPE:
	case N_LIST:
	case N_PIPELINE:
	case N_MBARRIER:
	case N_REGS:
	case N_MIN_BLOCKS:
	case N_CLUSTER:
	case N_CTA_GROUP:
	case N_INDEXW:
	case N_LAUNCH:
	case N_REQUIRES:
		print_list(out, n->list, indent, NULL);
		break;
	default:
		break;
	}
}

void
ast_print(Buf *out, const Node *program)
{
	print_node(out, program, 0, NULL);
}
