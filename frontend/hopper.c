/* hopper.c: sema of the Hopper constructs (docs/language.md, "Hopper"; the design is
 * hopper.md): the kernel clauses min_blocks and cluster, tensor maps, pipelines, raw
 * mbarriers, staged/swizzled/aliased shared buffers, roles, elect, produce and consume,
 * and the calls tma_load, tma_store, mbar_*, remote, wgmma and store.
 *
 * Besides types, it checks what the frontend can see of the schedule rules (hopper.md
 * section 3): role warp ranges (disjoint, inside the CTA, whole warpgroups where wgmma
 * runs), register budgets, TMA boxes, tma_load destinations and issue by one thread,
 * expect-tx bytes of raw barriers, wgmma operands, pipeline arrival counts, buffers
 * sharing storage across roles, cluster sizes and target gating. Arrival counts and
 * single-thread issue need to know which threads reach a statement: a small abstract
 * domain (a range of warps, threads per warp) follows roles, elect and conditions on
 * warp, warpgroup, lane and thread.x; any other condition that differs between threads
 * makes it unknown, and the checks that need it are left to the schedule-check pass. */
#include "ast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REGFILE 65536
#define MBAR_MAX ((1 << 20) - 1)   /* arrival and tx counts are 20-bit */
#define TMA_MAX_RANK 5
#define TMA_MAX_BOX 256
#define MAX_CLUSTER 8
#define MAX_STAGES 32

/* The threads that reach a statement: warps lo..hi of the CTA (lo < 0: unknown; hi < lo:
 * none) and tpw threads of each (-1: unknown). */
typedef struct Reach {
	int lo, hi, tpw;
} Reach;

/* A produce or consume block and how many threads run it (-1: unknown). */
typedef struct Site {
	Node *node;
	Symbol *pipe;
	Node *role;
	int side;               /* 0: produce arms full, 1: consume releases empty */
	int arrivals;
} Site;

/* An mbar_expect_tx with a constant byte count and the TMA loads on its barrier that
 * follow it in the same block. */
typedef struct Expect {
	Node *call;
	Symbol *bar;
	int64_t bytes, got;
	int nloads, depth, unsure, done;
} Expect;

/* A shared buffer used by a role (NULL: outside every role), for aliases. */
typedef struct Use {
	Symbol *buf;
	Node *role;
	SrcLoc loc;
} Use;

struct HopSema {
	KernelInfo *ki;
	Node *kernel;
	int threads, nwarps;
	Reach reach;
	Node *role;             /* the role being checked */
	int in_elect;
	int nasync;             /* enclosing produce/consume blocks, innermost last */
	Node *async[LOWER_MAX_ASYNC];
	int async_depth[LOWER_MAX_ASYNC];  /* the block depth of each body */
	int async_loads[LOWER_MAX_ASYNC];
	int depth;              /* block depth */
	Node *stmt;             /* the call of the expression statement being checked */
	int npipes, nbars;
	Symbol **hobjs;
	int nhobjs, caphobjs;
	Symbol **tmaps;
	int ntmaps, captmaps;
	Node **roles;
	int nroles, caproles;
	Site *sites;
	int nsites, capsites;
	Expect *expects;
	int nexpects, capexpects;
	Use *uses;
	int nuses, capuses;
};

typedef struct HopSema HopSema;

/* "a pipeline", "an mbarrier": the kind of s with its article, for messages. */
static const char *
a_what(const Symbol *s)
{
	static char buf[4][48];
	static int next;
	const char *w = sema_sym_what(s);
	char *b = buf[next++ & 3];

	snprintf(b, 48, "%s %s", strchr("aeiou", w[0]) || w[0] == 'm' ? "an" : "a", w);
	return b;
}

/* "role 'p'", or the code outside every role; a few rotating buffers. */
static const char *
role_desc(const Node *role)
{
	static char buf[2][96];
	static int next;
	char *b = buf[next++ & 1];

	if (!role)
		return "code outside every role";
	snprintf(b, 96, "role '%s'", role->name);
	return b;
}

/* ---- small helpers ---- */

static int
top_level(Sema *S, Node *s, const char *what)
{
	if (S->depth == 1)
		return 1;
	diag_error(s->loc, "%s are declared at the top level of the kernel body", what);
	return 0;
}

/* A compile-time integer in [lo, hi]; `what` names it. */
static int
const_in(Sema *S, Node *e, const char *what, int64_t lo, int64_t hi, int64_t *v)
{
	if (!sema_const_int(S, e, what, v))
		return 0;
	if (*v >= lo && *v <= hi)
		return 1;
	diag_error(e->loc, "%s must be from %lld to %lld, found %lld", what, (long long)lo,
		   (long long)hi, (long long)*v);
	return 0;
}

/* A run-time or constant i32 value. */
static int
i32_value(Sema *S, Node *e, const char *what)
{
	return sema_value(S, e) && fe_convert(e, ir_scalar(IR_I32), what);
}

/* The symbol a name argument names if it is of kind `kind`; reports otherwise. */
static Symbol *
name_of(Sema *S, Node *a, SymKind kind, const char *call, const char *what)
{
	Symbol *s;

	if (a->kind != N_NAME) {
		diag_error(a->loc, "%s takes %s", call, what);
		return NULL;
	}
	s = sema_lookup(S, a->name);
	a->sym = s;
	a->ty = fe_ty(TY_NONVALUE);
	if (!s) {
		diag_error(a->loc, "undefined name '%s'", a->name);
		return NULL;
	}
	if (s->kind != kind) {
		diag_error(a->loc, "%s takes %s, but '%s' is %s", call, what, a->name, a_what(s));
		return NULL;
	}
	if (fe_is_error(s->type))
		return NULL;
	return s;
}

static int64_t
elem_bytes(IrType t)
{
	return ir_type_bytes(ir_scalar((IrBase)t.base));
}

/* Bytes of one stage of a shared buffer. */
static int64_t
stage_bytes(const Symbol *b)
{
	int64_t n = elem_bytes(b->type);
	int i;

	for (i = 0; i < b->rank; i++)
		n *= b->dims[i];
	return n;
}

static int64_t
box_bytes(const Symbol *map)
{
	int64_t n = elem_bytes(map->tensor->type);
	int i;

	for (i = 0; i < map->rank; i++)
		n *= map->dims[i];
	return n;
}

/* Splits a call's arguments into positional ones (at most max) and named ones. Returns
 * the number of positional ones, or -1 after reporting a named one that is not allowed. */
static int
split_args(Node *e, Node **pos, int max, const char *named_ok, Node **named)
{
	Node *a;
	int n = 0;

	if (named)
		*named = NULL;
	for (a = e->list.head; a; a = a->next) {
		if (a->kind == N_NAMED) {
			if (!named_ok || strcmp(a->name, named_ok) != 0 || a->next) {
				if (named_ok)
					diag_error(a->loc, "'%s' takes the named argument '%s:' last, found '%s:'",
						   e->name, named_ok, a->name);
				else
					diag_error(a->loc, "'%s' takes no named arguments, found '%s:'", e->name, a->name);
				return -1;
			}
			*named = a;
			continue;
		}
		if (n < max)
			pos[n] = a;
		n++;
	}
	return n;
}

static int
want_nargs(Node *e, int n, int lo, int hi, const char *form)
{
	if (n >= lo && n <= hi)
		return 1;
	diag_error(e->loc, "'%s' takes %s, found %d argument%s", e->name, form, n, n == 1 ? "" : "s");
	return 0;
}

/* ---- which threads reach a statement ---- */

static int
reach_warps(Reach r)
{
	if (r.lo < 0)
		return -1;
	return r.hi >= r.lo ? r.hi - r.lo + 1 : 0;
}

static int
reach_threads(Reach r)
{
	int w = reach_warps(r);

	if (w < 0 || r.tpw < 0)
		return -1;
	return w * r.tpw;
}

int
hop_varies(Sema *S, Node *e)
{
	Node *c;

	if (!e)
		return 0;
	switch (e->kind) {
	case N_INT: case N_FLOAT: case N_BOOL:
		return 0;
	case N_NAME:
		if (!e->sym)
			return 0;
		switch (e->sym->kind) {
		case SYM_BUILTIN:
			return e->sym->builtin == BI_LANE || e->sym->builtin == BI_WARP ||
			       e->sym->builtin == BI_WARPGROUP;
		case SYM_LET: case SYM_VAR: case SYM_ITER:
			return e->sym->varies;
		default:
			return 0;
		}
	case N_MEMBER:
		return e->builtin == BI_THREAD || (!e->builtin && hop_varies(S, e->lhs));
	case N_CALL:
		if ((e->builtin >= BI_SHFL_XOR && e->builtin <= BI_ATOMIC_CAS) || e->builtin == BI_WGMMA)
			return 1;
		if (hop_varies(S, e->lhs))
			return 1;
		for (c = e->list.head; c; c = c->next)
			if (hop_varies(S, c))
				return 1;
		return 0;
	case N_INDEX: case N_LIST:
		if (hop_varies(S, e->lhs) || hop_varies(S, e->width))
			return 1;
		for (c = e->list.head; c; c = c->next)
			if (hop_varies(S, c))
				return 1;
		return 0;
	default:
		return hop_varies(S, e->lhs) || hop_varies(S, e->rhs) || hop_varies(S, e->cond);
	}
}

static int
negate_cmp(int op)
{
	switch (op) {
	case OP_EQ: return OP_NE;
	case OP_NE: return OP_EQ;
	case OP_LT: return OP_GE;
	case OP_LE: return OP_GT;
	case OP_GT: return OP_LE;
	default: return OP_LT;
	}
}

static int
swap_cmp(int op)
{
	switch (op) {
	case OP_LT: return OP_GT;
	case OP_LE: return OP_GE;
	case OP_GT: return OP_LT;
	case OP_GE: return OP_LE;
	default: return op;
	}
}

/* Restricts the integer range [*lo, *hi] to the x with `x op c`; 0 if the result is not
 * one range (x != c in the middle). */
static int
clip(int *lo, int *hi, int op, int64_t c)
{
	int64_t a = *lo, b = *hi;

	switch (op) {
	case OP_EQ: if (c > a) a = c; if (c < b) b = c; break;
	case OP_LT: if (c - 1 < b) b = c - 1; break;
	case OP_LE: if (c < b) b = c; break;
	case OP_GT: if (c + 1 > a) a = c + 1; break;
	case OP_GE: if (c > a) a = c; break;
	default:
		if (c == a)
			a++;
		else if (c == b)
			b--;
		else if (c > a && c < b)
			return 0;
		break;
	}
	if (b < a) {
		a = 0;
		b = -1;
	}
	*lo = (int)a;
	*hi = (int)b;
	return 1;
}

/* Narrows r by the condition c being `truth`. */
static void
narrow(Sema *S, Reach *r, Node *c, int truth)
{
	HopSema *h = S->hop;
	Node *var, *k;
	int op, b;

	if (!c || fe_is_error(c->ty) || !hop_varies(S, c))
		return;   /* every thread takes the same branch */
	if (c->kind == N_BINARY && c->op == OP_LAND && truth) {
		narrow(S, r, c->lhs, 1);
		narrow(S, r, c->rhs, 1);
		return;
	}
	if (c->kind == N_BINARY && c->op == OP_LOR && !truth) {
		narrow(S, r, c->lhs, 0);
		narrow(S, r, c->rhs, 0);
		return;
	}
	if (c->kind != N_BINARY || !fe_is_compare(c->op))
		goto unknown;
	op = c->op;
	if (c->rhs->isconst && !c->lhs->isconst) {
		var = c->lhs;
		k = c->rhs;
	} else if (c->lhs->isconst && !c->rhs->isconst) {
		var = c->rhs;
		k = c->lhs;
		op = swap_cmp(op);
	} else {
		goto unknown;
	}
	if (!truth)
		op = negate_cmp(op);
	if (!fe_intnum(k->ty))
		goto unknown;
	b = var->kind == N_NAME && var->sym && var->sym->kind == SYM_BUILTIN ? var->sym->builtin :
	    var->kind == N_MEMBER ? (var->builtin == BI_THREAD && var->lane == 0 ? BI_THREAD : 0) : 0;
	switch (b) {
	case BI_WARP:
		if (r->lo >= 0 && !clip(&r->lo, &r->hi, op, k->cv.i))
			r->lo = -1;
		return;
	case BI_WARPGROUP: {
		/* warpgroup g is warps 4g .. 4g+3 */
		int lo = r->lo, hi = r->hi;
		int64_t g = k->cv.i;

		if (lo < 0)
			return;
		switch (op) {
		case OP_EQ: clip(&lo, &hi, OP_GE, 4 * g); clip(&lo, &hi, OP_LE, 4 * g + 3); break;
		case OP_LT: clip(&lo, &hi, OP_LT, 4 * g); break;
		case OP_LE: clip(&lo, &hi, OP_LE, 4 * g + 3); break;
		case OP_GT: clip(&lo, &hi, OP_GT, 4 * g + 3); break;
		case OP_GE: clip(&lo, &hi, OP_GE, 4 * g); break;
		default:
			if (hi < 4 * g || lo > 4 * g + 3)
				break;
			if (lo >= 4 * g)
				clip(&lo, &hi, OP_GT, 4 * g + 3);
			else if (hi <= 4 * g + 3)
				clip(&lo, &hi, OP_LT, 4 * g);
			else
				lo = -1;
			break;
		}
		r->lo = lo;
		r->hi = hi;
		return;
	}
	case BI_LANE: {
		int lo = 0, hi = 31;

		if (r->tpw != 32 || !clip(&lo, &hi, op, k->cv.i))
			r->tpw = -1;
		else
			r->tpw = hi >= lo ? hi - lo + 1 : 0;
		return;
	}
	case BI_THREAD:
		/* thread.x == c in a one-dimensional block: one thread of warp c / 32 */
		if (op == OP_EQ && h->ki->threads[1] == 1 && h->ki->threads[2] == 1 && r->lo >= 0 &&
		    r->tpw == 32) {
			clip(&r->lo, &r->hi, OP_EQ, k->cv.i / 32);
			r->tpw = 1;
			return;
		}
		break;
	default:
		break;
	}
unknown:
	r->lo = -1;
	r->tpw = -1;
}

void
hop_if_begin(Sema *S, Node *s, int branch, void **saved)
{
	HopSema *h = S->hop;
	Reach *old;

	*saved = NULL;
	if (!h)
		return;
	old = xmalloc(sizeof *old);
	*old = h->reach;
	*saved = old;
	if (s->kind == N_IF)
		narrow(S, &h->reach, s->cond, !branch);
	else if (s->kind == N_WHILE ? hop_varies(S, s->cond)
		 : hop_varies(S, s->lo) || hop_varies(S, s->hi) || hop_varies(S, s->step))
		/* threads that iterate differently arrive different numbers of times */
		h->reach.lo = h->reach.tpw = -1;
}

void
hop_if_end(Sema *S, void *saved)
{
	if (S->hop && saved)
		S->hop->reach = *(Reach *)saved;
	free(saved);
}

/* ---- blocks and raw expect-tx ---- */

void
hop_block_enter(Sema *S)
{
	if (S->hop)
		S->hop->depth++;
}

static void
finish_expect(Expect *x)
{
	char bar[96];

	if (x->done)
		return;
	x->done = 1;
	if (x->unsure || x->nloads == 0 || x->got == x->bytes)
		return;
	snprintf(bar, sizeof bar, "%s", x->bar->name);
	diag_error(x->call->loc, "mbar_expect_tx(%s, %lld) announces %lld bytes, but the %d tma_load%s on '%s' after it bring %lld",
		   bar, (long long)x->bytes, (long long)x->bytes, x->nloads, x->nloads == 1 ? "" : "s", bar,
		   (long long)x->got);
}

void
hop_block_leave(Sema *S)
{
	HopSema *h = S->hop;
	int i;

	if (!h)
		return;
	for (i = 0; i < h->nexpects; i++)
		if (h->expects[i].depth == h->depth)
			finish_expect(&h->expects[i]);
	h->depth--;
}

/* The latest unfinished expect-tx on bar. */
static Expect *
pending_expect(HopSema *h, Symbol *bar)
{
	int i;

	for (i = h->nexpects - 1; i >= 0; i--)
		if (h->expects[i].bar == bar && !h->expects[i].done)
			return &h->expects[i];
	return NULL;
}

/* ---- kernels and clauses ---- */

void
hop_kernel_begin(Sema *S, Node *k, KernelInfo *ki)
{
	HopSema *h = xcalloc(1, sizeof *h);

	h->ki = ki;
	h->kernel = k;
	h->threads = ki->threads[0] * ki->threads[1] * ki->threads[2];
	h->nwarps = (h->threads + 31) / 32;
	h->reach.lo = 0;
	h->reach.hi = h->nwarps - 1;
	h->reach.tpw = h->threads < 32 ? h->threads : 32;
	S->hop = h;
}

int
hop_clause(Sema *S, Node *n, KernelInfo *ki)
{
	int64_t v, total = 1;
	Node *a;
	int i = 0;

	if (n->kind == N_MIN_BLOCKS) {
		if (n->list.n != 1) {
			diag_error(n->loc, "min_blocks(...) takes one count, found %d", n->list.n);
			return 1;
		}
		if (const_in(S, n->list.head, "min_blocks", 1, 32, &v))
			ki->min_blocks = (int)v;
		return 1;
	}
	if (n->kind != N_CLUSTER)
		return 0;
	if (n->list.n > 3) {
		diag_error(n->loc, "cluster(...) takes 1 to 3 sizes (x, y, z), found %d", n->list.n);
		return 1;
	}
	for (a = n->list.head; a; a = a->next, i++) {
		char what[48];

		snprintf(what, sizeof what, "the cluster size in %c", "xyz"[i]);
		if (!const_in(S, a, what, 1, MAX_CLUSTER, &v))
			return 1;
		ki->cluster[i] = (int)v;
		total *= v;
	}
	if (total > MAX_CLUSTER)
		diag_error(n->loc, "cluster(%d, %d, %d) makes %lld CTAs; at most %d are allowed (16 needs a non-portable opt-in, not supported)",
			   ki->cluster[0], ki->cluster[1], ki->cluster[2], (long long)total, MAX_CLUSTER);
	return 1;
}

static int
cluster_size(const HopSema *h)
{
	return h->ki->cluster[0] * h->ki->cluster[1] * h->ki->cluster[2];
}

/* Arrival counts: the threads that run a pipeline's produce (consume) blocks must be as
 * many as its full (empty) barrier counts per phase. */
static void
check_arrivals(HopSema *h)
{
	static const char *const side_name[2] = {"full", "empty"};
	static const char *const block_name[2] = {"produce", "consume"};
	int i, j, r, side;

	for (i = 0; i < h->nhobjs; i++) {
		Symbol *p = h->hobjs[i];

		if (p->kind != SYM_PIPELINE || fe_is_error(p->type))
			continue;
		for (side = 0; side < 2; side++) {
			int want = ir_pipe_source_count(p->src[side], p->mult[side]);
			int total = 0, unknown = 0, any = 0;

			for (r = 0; r < h->nroles && !unknown; r++) {
				int most = 0;

				for (j = 0; j < h->nsites; j++) {
					Site *st = &h->sites[j];

					if (st->pipe != p || st->side != side || st->role != h->roles[r])
						continue;
					any = 1;
					if (st->arrivals < 0)
						unknown = 1;
					else if (st->arrivals > most)
						most = st->arrivals;
				}
				total += most;
			}
			if (!any || unknown || total == want)
				continue;
			diag_error(p->loc, "pipeline '%s': its %s barrier expects %d arrival%s per phase (%s * %d), but its %s blocks are run by %d thread%s",
				   p->name, side_name[side], want, want == 1 ? "" : "s",
				   ir_pipe_source_name(p->src[side]), p->mult[side], block_name[side], total,
				   total == 1 ? "" : "s");
			for (r = 0; r < h->nroles; r++) {
				Site *most = NULL;

				for (j = 0; j < h->nsites; j++) {
					Site *st = &h->sites[j];

					if (st->pipe == p && st->side == side && st->role == h->roles[r] &&
					    (!most || st->arrivals > most->arrivals))
						most = st;
				}
				if (most)
					diag_note(most->node->loc, "in role '%s' (warps %d .. %d), %d thread%s run%s this %s block",
						  h->roles[r]->name, h->roles[r]->wlo, h->roles[r]->whi,
						  most->arrivals, most->arrivals == 1 ? "" : "s",
						  most->arrivals == 1 ? "s" : "", block_name[side]);
			}
		}
	}
}

/* The register budget: setmaxnreg budgets (and the entry budget of warps in no role with
 * one) must fit the register file for min_blocks CTAs. */
static void
check_registers(HopSema *h)
{
	Node *first = NULL;
	int64_t sum = 0, entry, budget;
	int covered = 0, i;
	Buf detail = {0};

	for (i = 0; i < h->nroles; i++)
		if (h->roles[i]->regs && !first)
			first = h->roles[i];
	if (!first)
		return;
	if (h->ki->min_blocks == 0) {
		diag_error(first->loc, "role '%s' sets regs(%d), but kernel '%s' has no min_blocks(...) clause: setmaxnreg needs the register count at entry that min_blocks(1) fixes",
			   first->name, first->regs, h->kernel->name);
		return;
	}
	budget = REGFILE / h->ki->min_blocks;
	entry = REGFILE / ((int64_t)h->threads * h->ki->min_blocks);
	if (entry > 255)
		entry = 255;
	entry &= ~7;
	for (i = 0; i < h->nroles; i++) {
		Node *r = h->roles[i];
		int n = r->whi - r->wlo + 1;
		int64_t regs = r->regs ? r->regs : entry;

		covered += n;
		sum += regs * 32 * n;
		buf_printf(&detail, "%srole '%s' %lld x %d threads", detail.len ? ", " : "", r->name,
			   (long long)regs, 32 * n);
	}
	if (covered < h->nwarps) {
		sum += entry * 32 * (h->nwarps - covered);
		buf_printf(&detail, ", other warps %lld x %d threads", (long long)entry,
			   32 * (h->nwarps - covered));
	}
	if (sum > budget)
		diag_error(first->loc, "the register budgets of kernel '%s' add up to %lld registers (%s), but %lld fit (%d / min_blocks(%d))",
			   h->kernel->name, (long long)sum, detail.s, (long long)budget, REGFILE,
			   h->ki->min_blocks);
	buf_free(&detail);
}

void
hop_kernel_end(Sema *S, Node *k, KernelInfo *ki)
{
	HopSema *h = S->hop;
	int i;

	(void)k;
	if (!h)
		return;
	for (i = 0; i < h->nexpects; i++)
		finish_expect(&h->expects[i]);
	check_registers(h);
	check_arrivals(h);
	ki->ntmaps = h->ntmaps;
	ki->tmaps = arena_alloc(S->p->arena, sizeof(Symbol *) * (size_t)(h->ntmaps + 1));
	if (h->ntmaps)
		memcpy(ki->tmaps, h->tmaps, sizeof(Symbol *) * (size_t)h->ntmaps);
	ki->nhobjs = h->nhobjs;
	ki->hobjs = arena_alloc(S->p->arena, sizeof(Symbol *) * (size_t)(h->nhobjs + 1));
	if (h->nhobjs)
		memcpy(ki->hobjs, h->hobjs, sizeof(Symbol *) * (size_t)h->nhobjs);
	free(h->hobjs);
	free(h->tmaps);
	free(h->roles);
	free(h->sites);
	free(h->expects);
	free(h->uses);
	free(h);
	S->hop = NULL;
}

/* ---- declarations ---- */

static void
check_tensormap(Sema *S, Node *s)
{
	HopSema *h = S->hop;
	Node *c = s->init, *a, *box = NULL, *tn;
	Symbol *sym, *t = NULL;
	int ok = top_level(S, s, "tensor maps"), i, rank = 0, nswz = 0, noob = 0;
	int64_t v, inner;

	sym = sema_declare(S, SYM_TMAP, s->name, s->loc, s);
	s->sym = sym;
	sym->type = fe_ty(TY_ERROR);
	if (c->kind != N_CALL || c->lhs || strcmp(c->name, "tma") != 0) {
		diag_error(c->loc, "a tensor map is made by tma(TENSOR, box[...], swizzle(N)), as in 'tensormap %s = tma(a, box[128, 64], swizzle(128));'",
			   s->name);
		return;
	}
	c->builtin = BI_TMA;
	tn = c->list.head;
	if (!tn || tn->kind == N_NAMED || !tn->next) {
		diag_error(c->loc, "tma(...) takes a tensor and box[...], then optionally swizzle(N) and oob(nan)");
		return;
	}
	t = name_of(S, tn, SYM_TENSOR, "tma(...)", "a tensor parameter first");
	for (a = tn->next; a; a = a->next) {
		if (a->kind == N_INDEX && a->lhs->kind == N_NAME && strcmp(a->lhs->name, "box") == 0 &&
		    !a->width && !box) {
			box = a;
		} else if (a->kind == N_CALL && !a->lhs && strcmp(a->name, "swizzle") == 0 && a->list.n == 1 && !nswz++) {
			Node *w = a->list.head;

			if (w->kind == N_NAME && strcmp(w->name, "none") == 0) {
				sym->swizzle = 0;
			} else if (sema_const_int(S, w, "the swizzle", &v)) {
				if (v != 0 && v != 32 && v != 64 && v != 128) {
					diag_error(w->loc, "swizzle must be none, 32, 64 or 128 (bytes), found %lld", (long long)v);
					ok = 0;
				}
				sym->swizzle = (int)v;
			} else {
				ok = 0;
			}
		} else if (a->kind == N_CALL && !a->lhs && strcmp(a->name, "oob") == 0 && a->list.n == 1 && !noob++) {
			Node *w = a->list.head;

			if (w->kind == N_NAME && (strcmp(w->name, "nan") == 0 || strcmp(w->name, "zero") == 0)) {
				sym->oob_nan = w->name[0] == 'n';
			} else {
				diag_error(w->loc, "oob(...) takes nan or zero (what reads outside the tensor give)");
				ok = 0;
			}
		} else {
			diag_error(a->loc, "tma(...) takes box[...] once, then swizzle(N) and oob(nan) at most once each");
			ok = 0;
		}
	}
	if (!box) {
		if (ok)
			diag_error(c->loc, "tma(...) needs the box, as in tma(%s, box[64, 64])",
				   tn->kind == N_NAME ? tn->name : "a");
		return;
	}
	rank = box->list.n;
	if (rank < 1 || rank > TMA_MAX_RANK) {
		diag_error(box->loc, "a TMA box has 1 to %d dimensions, found %d", TMA_MAX_RANK, rank);
		return;
	}
	sym->rank = rank;
	for (a = box->list.head, i = 0; a; a = a->next, i++) {
		char what[64];

		snprintf(what, sizeof what, "TMA box dimension %d of '%s'", i + 1, s->name);
		if (!sema_const_int(S, a, what, &v)) {
			ok = 0;
			continue;
		}
		if (v < 1 || v > TMA_MAX_BOX) {
			diag_error(a->loc, "%s is %lld, expected 1 to %d", what, (long long)v, TMA_MAX_BOX);
			ok = 0;
			continue;
		}
		sym->dims[i] = v;
	}
	if (!t || !ok)
		return;
	if (t->rank != rank) {
		diag_error(box->loc, "the box of tensor map '%s' has %d dimension%s but tensor '%s' has %d",
			   s->name, rank, rank == 1 ? "" : "s", t->name, t->rank);
		return;
	}
	inner = sym->dims[rank - 1] * elem_bytes(t->type);
	if (inner % 16) {
		diag_error(box->loc, "TMA box inner dimension of '%s' is %lld bytes (%lld x %s), expected a multiple of 16",
			   s->name, (long long)inner, (long long)sym->dims[rank - 1], fe_tname(t->type));
		return;
	}
	if (sym->swizzle && inner > sym->swizzle) {
		diag_error(box->loc, "TMA box inner dimension of '%s' is %lld bytes but %dB swizzle allows at most %d",
			   s->name, (long long)inner, sym->swizzle, sym->swizzle);
		return;
	}
	sym->tensor = t;
	sym->param = S->nparams + S->nsyms + h->ntmaps;
	sym->type = fe_ty(TY_NONVALUE);
	PUSH(h->tmaps, h->ntmaps, h->captmaps, sym);
}

/* A pipeline's arrival source: tma, thread, warp or warpgroup, optionally `* count`. */
static int
pipe_source(Sema *S, Node *v, const char *pipe, int side, int *src, int *mult)
{
	static const char *const side_name[2] = {"full", "empty"};
	Node *name = v;
	int64_t m = 1;

	if (v->kind == N_BINARY && v->op == OP_MUL) {
		name = v->lhs;
		if (!const_in(S, v->rhs, "the arrival multiplier", 1, MBAR_MAX, &m))
			return 0;
	}
	if (name->kind != N_NAME || ir_pipe_source_from_name(name->name) < 0) {
		diag_error(name->loc, "the %s source of pipeline '%s' is tma, thread, warp or warpgroup, optionally times a count (warpgroup * 2)",
			   side_name[side], pipe);
		return 0;
	}
	*src = ir_pipe_source_from_name(name->name);
	*mult = (int)m;
	if (side == 1 && *src == PIPE_SRC_TMA) {
		diag_error(name->loc, "TMA completes only a full barrier; the empty source of pipeline '%s' is thread, warp or warpgroup",
			   pipe);
		return 0;
	}
	if (ir_pipe_source_count(*src, *mult) > MBAR_MAX) {
		diag_error(v->loc, "the %s source of pipeline '%s' makes %lld arrivals, more than an mbarrier counts (%d)",
			   side_name[side], pipe, (long long)ir_pipe_source_count(*src, *mult), MBAR_MAX);
		return 0;
	}
	return 1;
}

static void
check_pipeline(Sema *S, Node *s)
{
	HopSema *h = S->hop;
	static const char *const names[3] = {"stages", "full", "empty"};
	Node *args[3] = {0}, *a;
	Symbol *sym;
	int ok = top_level(S, s, "pipelines"), i;
	int64_t v;

	for (a = s->list.head; a; a = a->next) {
		if (a->kind != N_NAMED) {
			diag_error(a->loc, "pipeline takes named arguments: pipeline %s(stages: N, full: SOURCE, empty: SOURCE)",
				   s->name);
			ok = 0;
			continue;
		}
		for (i = 0; i < 3 && strcmp(a->name, names[i]) != 0; i++)
			;
		if (i == 3 || args[i]) {
			diag_error(a->loc, i == 3 ? "pipeline takes stages:, full: and empty:, found '%s:'"
				   : "duplicate '%s:' in pipeline", a->name);
			ok = 0;
			continue;
		}
		args[i] = a;
	}
	sym = sema_declare(S, SYM_PIPELINE, s->name, s->loc, s);
	s->sym = sym;
	sym->type = fe_ty(TY_ERROR);
	for (i = 0; i < 3; i++)
		if (!args[i] && ok) {
			diag_error(s->loc, "pipeline '%s' needs '%s:' (pipeline %s(stages: N, full: SOURCE, empty: SOURCE))",
				   s->name, names[i], s->name);
			ok = 0;
		}
	if (!ok)
		return;
	if (!const_in(S, args[0]->lhs, "the number of stages", 1, MAX_STAGES, &v))
		return;
	sym->stages = (int)v;
	if (!pipe_source(S, args[1]->lhs, s->name, 0, &sym->src[0], &sym->mult[0]) ||
	    !pipe_source(S, args[2]->lhs, s->name, 1, &sym->src[1], &sym->mult[1]))
		return;
	sym->type = fe_ty(TY_NONVALUE);
	sym->index = h->npipes++;
	sym->bar[0] = h->nbars++;
	sym->bar[1] = h->nbars++;
	PUSH(h->hobjs, h->nhobjs, h->caphobjs, sym);
}

static void
check_mbarrier(Sema *S, Node *s)
{
	HopSema *h = S->hop;
	Node *a = s->list.head;
	Symbol *sym;
	int ok = top_level(S, s, "mbarriers");
	int64_t v;

	sym = sema_declare(S, SYM_MBARRIER, s->name, s->loc, s);
	s->sym = sym;
	sym->type = fe_ty(TY_ERROR);
	if (s->list.n != 1 || a->kind != N_NAMED || strcmp(a->name, "count") != 0) {
		diag_error(s->loc, "mbarrier takes its arrival count: mbarrier %s(count: N)", s->name);
		return;
	}
	if (!const_in(S, a->lhs, "the arrival count", 1, MBAR_MAX, &v) || !ok)
		return;
	sym->count = (int)v;
	sym->type = fe_ty(TY_NONVALUE);
	sym->index = h->nbars++;
	PUSH(h->hobjs, h->nhobjs, h->caphobjs, sym);
}

void
hop_shared(Sema *S, Node *s, Symbol *sym)
{
	Node *a;
	Symbol *t;
	int64_t v;

	sym->stages = 1;
	for (a = s->attrs.head; a; a = a->next) {
		if (strcmp(a->name, "in") == 0) {
			t = name_of(S, a->lhs, SYM_PIPELINE, "'in'", "a pipeline");
			if (t) {
				sym->pipe = t;
				sym->stages = t->stages;
			}
		} else if (strcmp(a->name, "swizzle") == 0) {
			if (a->lhs->kind == N_NAME && strcmp(a->lhs->name, "none") == 0)
				continue;
			if (!sema_const_int(S, a->lhs, "the swizzle", &v))
				continue;
			if (v != 0 && v != 32 && v != 64 && v != 128)
				diag_error(a->lhs->loc, "swizzle must be none, 32, 64 or 128 (bytes), found %lld", (long long)v);
			else
				sym->swizzle = (int)v;
		} else if (strcmp(a->name, "alias") == 0) {
			t = name_of(S, a->lhs, SYM_SHARED, "alias(...)", "a shared array declared before");
			if (!t || t == sym)
				continue;
			if (t->alias)
				diag_error(a->lhs->loc, "'%s' is an alias of '%s'; write alias(%s)", t->name,
					   t->alias->name, t->alias->name);
			else
				sym->alias = t;
		}
	}
	if (sym->alias && sym->pipe) {
		diag_error(s->loc, "shared array '%s' cannot both be in a pipeline and alias '%s'", s->name,
			   sym->alias->name);
		sym->alias = NULL;
	}
}

int64_t
hop_buffer_bytes(const Symbol *sym, int64_t bytes)
{
	/* a lower bound of what layout gives: an alias reuses its target's storage */
	return sym->alias ? 0 : bytes * (sym->stages > 0 ? sym->stages : 1);
}

int
hop_frag_type(Sema *S, Node *type, IrType *t)
{
	int64_t m, n;

	if (type->list.n != 2) {
		diag_error(type->loc, "an accumulator fragment is f32acc[64, N], found %d dimension%s",
			   type->list.n, type->list.n == 1 ? "" : "s");
		return 0;
	}
	if (!sema_const_int(S, type->list.head, "the rows of f32acc", &m) ||
	    !sema_const_int(S, type->list.head->next, "the columns of f32acc", &n))
		return 0;
	if (m != 64) {
		diag_error(type->list.head->loc, "an accumulator fragment has 64 rows (one wgmma m64 tile per warpgroup), found %lld",
			   (long long)m);
		return 0;
	}
	if (n < 16 || n > 256 || n % 8) {
		diag_error(type->list.head->next->loc, "the columns of f32acc must be a multiple of 8 from 16 to 256, found %lld",
			   (long long)n);
		return 0;
	}
	*t = ir_vector(IR_F32, (int)(n / 2));
	return 1;
}

/* ---- roles, elect, produce, consume ---- */

static void
check_role(Sema *S, Node *s)
{
	HopSema *h = S->hop;
	Node *r = s->list.head, *a;
	Reach saved_reach = h->reach;
	Node *saved_role = h->role;
	int64_t lo, hi = -1, v;
	int ok = top_level(S, s, "roles"), i, group;

	if (s->list.n != 1 || r->kind != N_RANGE) {
		diag_error(s->loc, "role '%s' takes its warps: warps a .. b, warp a, warpgroup g or warpgroups a .. b",
			   s->name);
		ok = 0;
	} else {
		group = strcmp(r->name, "warpgroup") == 0 || strcmp(r->name, "warpgroups") == 0;
		if (!group && strcmp(r->name, "warp") != 0 && strcmp(r->name, "warps") != 0) {
			diag_error(r->loc, "expected warps, warp, warpgroup or warpgroups, found '%s'", r->name);
			ok = 0;
		} else if (r->hi && (strcmp(r->name, "warp") == 0 || strcmp(r->name, "warpgroup") == 0)) {
			diag_error(r->loc, "'%s' takes one number; write '%ss a .. b' for a range", r->name, r->name);
			ok = 0;
		} else if (!const_in(S, r->lo, "the first warp of a role", 0, 1023, &lo) ||
			   (r->hi && !const_in(S, r->hi, "the last warp of a role", 0, 1023, &hi))) {
			ok = 0;
		} else {
			if (!r->hi)
				hi = lo;
			if (hi < lo) {
				diag_error(r->loc, "role '%s' has warps %lld .. %lld: the first must not be after the last",
					   s->name, (long long)lo, (long long)hi);
				ok = 0;
			}
			s->wlo = (int)(group ? 4 * lo : lo);
			s->whi = (int)(group ? 4 * hi + 3 : hi);
		}
	}
	if (ok && s->whi >= h->nwarps) {
		diag_error(r->loc, "role '%s' covers warps %d .. %d, but the CTA has %d warp%s (threads(%d))",
			   s->name, s->wlo, s->whi, h->nwarps, h->nwarps == 1 ? "" : "s", h->threads);
		ok = 0;
	}
	for (i = 0; ok && i < h->nroles; i++) {
		Node *o = h->roles[i];

		if (strcmp(o->name, s->name) == 0) {
			diag_error(s->loc, "duplicate role '%s'", s->name);
			diag_note(o->loc, "the first role '%s' is here", o->name);
			ok = 0;
		} else if (s->wlo <= o->whi && o->wlo <= s->whi) {
			diag_error(r->loc, "role '%s' (warps %d .. %d) overlaps role '%s' (warps %d .. %d)",
				   s->name, s->wlo, s->whi, o->name, o->wlo, o->whi);
			diag_note(o->loc, "role '%s' is here", o->name);
			ok = 0;
		}
	}
	for (a = s->attrs.head; a; a = a->next) {
		if (a != s->attrs.head || a->list.n != 1) {
			diag_error(a->loc, a == s->attrs.head ? "regs(...) takes one register count"
				   : "duplicate regs(...) on role '%s'", s->name);
			continue;
		}
		if (!sema_const_int(S, a->list.head, "the register budget", &v))
			continue;
		if (v < 24 || v > 256 || v % 8)
			diag_error(a->list.head->loc, "regs(%lld): setmaxnreg takes a multiple of 8 from 24 to 256",
				   (long long)v);
		else
			s->regs = (int)v;
	}
	if (ok && s->regs && (s->wlo % 4 || (s->whi - s->wlo + 1) % 4)) {
		diag_error(s->attrs.head->loc, "role '%s' sets regs(%d) but covers warps %d .. %d, not whole warpgroups (setmaxnreg applies to all 4 warps of a warpgroup)",
			   s->name, s->regs, s->wlo, s->whi);
		s->regs = 0;
	}
	if (ok) {
		PUSH(h->roles, h->nroles, h->caproles, s);
	} else {
		s->wlo = 0;     /* reported: no further complaints about its warps */
		s->whi = -1;
	}
	/* each pipeline gets a hidden stage and phase, starting at (0, 0) in this role */
	s->hslot = S->nslots;
	s->ival = h->npipes;
	S->nslots += 2 * h->npipes;
	h->role = s;
	h->reach.lo = ok ? s->wlo : -1;
	h->reach.hi = ok ? s->whi : -1;
	h->reach.tpw = 32;
	sema_check_block(S, s->body);
	h->role = saved_role;
	h->reach = saved_reach;
}

static void
check_elect(Sema *S, Node *s)
{
	HopSema *h = S->hop;
	Reach saved = h->reach;

	if (h->in_elect)
		diag_error(s->loc, "elect inside an elect block: only one thread runs the outer block");
	h->in_elect++;
	h->reach.tpw = 1;   /* one thread of each warp that gets here */
	sema_check_block(S, s->body);
	h->in_elect--;
	h->reach = saved;
}

static void
check_async(Sema *S, Node *s)
{
	HopSema *h = S->hop;
	const char *what = s->kind == N_PRODUCE ? "produce" : "consume";
	Symbol *p = sema_lookup(S, s->lhs->name);
	Site st;
	int i;

	s->lhs->sym = p;
	if (!p || p->kind != SYM_PIPELINE) {
		if (!p)
			diag_error(s->lhs->loc, "%s of an undeclared pipeline '%s'", what, s->lhs->name);
		else
			diag_error(s->lhs->loc, "%s takes a pipeline, but '%s' is %s", what, s->lhs->name,
				   a_what(p));
		sema_check_block(S, s->body);
		return;
	}
	if (fe_is_error(p->type)) {
		sema_check_block(S, s->body);
		return;
	}
	if (!h->role) {
		diag_error(s->loc, "%s of pipeline '%s' outside any role: produce and consume blocks run in a role (role NAME(warps a .. b) { ... })",
			   what, p->name);
		sema_check_block(S, s->body);
		return;
	}
	for (i = 0; i < h->nasync; i++)
		if (h->async[i]->sym == p) {
			diag_error(s->loc, "%s of pipeline '%s' inside a %s block of the same pipeline", what,
				   p->name, h->async[i]->kind == N_PRODUCE ? "produce" : "consume");
			sema_check_block(S, s->body);
			return;
		}
	if (h->nasync == LOWER_MAX_ASYNC) {
		diag_error(s->loc, "produce and consume blocks nest at most %d deep", LOWER_MAX_ASYNC);
		return;
	}
	s->sym = p;
	s->hslot = h->role->hslot + 2 * p->index;
	st.node = s;
	st.pipe = p;
	st.role = h->role;
	st.side = s->kind == N_CONSUME;
	st.arrivals = reach_threads(h->reach);
	PUSH(h->sites, h->nsites, h->capsites, st);
	h->async[h->nasync] = s;
	h->async_depth[h->nasync] = h->depth + 1;
	h->async_loads[h->nasync] = 0;
	h->nasync++;
	sema_check_block(S, s->body);
	h->nasync--;
	if (s->kind == N_PRODUCE && p->src[0] == PIPE_SRC_TMA && h->async_loads[h->nasync] == 0)
		diag_error(s->loc, "produce block of pipeline '%s' issues no tma_load, but its full barrier waits for TMA bytes (full: tma)",
			   p->name);
}

int
hop_stmt(Sema *S, Node *s)
{
	HopSema *h = S->hop;

	if (!h)
		return 0;
	switch (s->kind) {
	case N_EXPRSTMT:
		h->stmt = s->lhs;
		return 0;
	case N_TENSORMAP: check_tensormap(S, s); return 1;
	case N_PIPELINE: check_pipeline(S, s); return 1;
	case N_MBARRIER: check_mbarrier(S, s); return 1;
	case N_ROLE: check_role(S, s); return 1;
	case N_ELECT: check_elect(S, s); return 1;
	case N_PRODUCE: case N_CONSUME: check_async(S, s); return 1;
	default: return 0;
	}
}

/* ---- buffer uses ---- */

static Node *
async_of(HopSema *h, const Symbol *pipe)
{
	int i;

	for (i = h->nasync - 1; i >= 0; i--)
		if (h->async[i]->sym == pipe)
			return h->async[i];
	return NULL;
}

static const Symbol *
storage_of(const Symbol *b)
{
	return b->alias ? b->alias : b;
}

int
hop_buffer_use(Sema *S, Symbol *buf, SrcLoc loc)
{
	HopSema *h = S->hop;
	Use u;
	int i;

	if (!h || fe_is_error(buf->type))
		return 1;
	if (buf->pipe && !async_of(h, buf->pipe)) {
		diag_error(loc, "shared array '%s' is staged in pipeline '%s': use it inside a produce or consume block of '%s', which selects the stage",
			   buf->name, buf->pipe->name, buf->pipe->name);
		return 0;
	}
	for (i = 0; i < h->nuses; i++)
		if (h->uses[i].buf == buf && h->uses[i].role == h->role)
			return 1;
	for (i = 0; i < h->nuses; i++) {
		Use *o = &h->uses[i];

		if (o->buf != buf && o->role != h->role && storage_of(o->buf) == storage_of(buf)) {
			diag_error(loc, "shared array '%s' shares its storage with '%s' (alias), but '%s' is used by %s and '%s' by %s: aliased buffers must not be used by different roles",
				   buf->name, o->buf->name, buf->name, role_desc(h->role), o->buf->name,
				   role_desc(o->role));
			diag_note(o->loc, "'%s' is used here", o->buf->name);
			break;
		}
	}
	u.buf = buf;
	u.role = h->role;
	u.loc = loc;
	PUSH(h->uses, h->nuses, h->capuses, u);
	return 1;
}

/* A shared array named by argument a, or NULL after an error. */
static Symbol *
buffer_arg(Sema *S, Node *a, const char *call)
{
	Symbol *b = name_of(S, a, SYM_SHARED, call, "a shared array");

	if (b && !hop_buffer_use(S, b, a->loc))
		return NULL;
	return b;
}

int
hop_remote_element(Sema *S, Node *e, int read, int write)
{
	HopSema *h = S->hop;
	Node *call = e->lhs, *args[2];
	Symbol *b;
	int n = split_args(call, args, 2, NULL, NULL);

	call->builtin = BI_REMOTE;
	call->ty = fe_ty(TY_NONVALUE);
	fe_set_error(e);
	if (n < 0 || !want_nargs(call, n, 2, 2, "a shared array and a CTA rank (remote(buf, rank)[i])"))
		return 0;
	if (!(b = name_of(S, args[0], SYM_SHARED, "remote(...)", "a shared array first")))
		return 0;
	if (!i32_value(S, args[1], "the CTA rank of remote(...)"))
		return 0;
	if (h && cluster_size(h) == 1) {
		diag_error(call->loc, "remote(...) reaches another CTA's shared memory, but kernel '%s' has no cluster (cluster(1))",
			   h->kernel->name);
		return 0;
	}
	call->sym = b;
	if (!sema_element(S, e, b, read, write))
		return 0;
	e->indexkind = IDX_REMOTE;
	return 1;
}

/* ---- calls ---- */

/* The tensor map argument a. */
static Symbol *
tmap_arg(Sema *S, Node *a, const char *call)
{
	return name_of(S, a, SYM_TMAP, call, "a tensor map");
}

/* coordinates [c0, ...]: one i32 per dimension of map. */
static int
coords_arg(Sema *S, Node *a, int rank, const char *call, const char *whose)
{
	Node *c;
	int ok = 1, i = 0;

	if (a->kind != N_LIST) {
		diag_error(a->loc, "%s takes the coordinates as a list, as in [row, col]", call);
		return 0;
	}
	if (a->list.n != rank) {
		diag_error(a->loc, "%s needs %d coordinate%s (%s), found %d", call, rank,
			   rank == 1 ? "" : "s", whose, a->list.n);
		ok = 0;
	}
	for (c = a->list.head; c; c = c->next, i++) {
		char what[64];

		snprintf(what, sizeof what, "coordinate %d of %s", i + 1, call);
		ok &= i32_value(S, c, what);
	}
	a->ty = fe_ty(TY_NONVALUE);
	return ok;
}

/* One thread of each warp issues TMA copies: more would copy the box again. */
static int
one_thread(Sema *S, Node *e)
{
	HopSema *h = S->hop;

	if (h->reach.tpw <= 1)
		return 1;
	diag_error(e->loc, "%s is issued by one thread: put it inside an elect block (here it runs in %d threads of each warp)",
		   e->name, h->reach.tpw);
	return 0;
}

/* A TMA copy between buffer b and the boxes of map: same type, bytes and swizzle. */
static int
tma_match(Node *e, Symbol *b, Symbol *map)
{
	if (b->type.base != map->tensor->type.base) {
		diag_error(e->loc, "%s: tensor map '%s' holds %s elements but shared array '%s' holds %s",
			   e->name, map->name, fe_tname(map->tensor->type), b->name, fe_tname(b->type));
		return 0;
	}
	if (stage_bytes(b) != box_bytes(map)) {
		diag_error(e->loc, "%s: the box of tensor map '%s' is %lld bytes but shared array '%s'%s is %lld bytes",
			   e->name, map->name, (long long)box_bytes(map), b->name,
			   b->pipe ? " (one stage)" : "", (long long)stage_bytes(b));
		return 0;
	}
	if (b->swizzle != map->swizzle) {
		diag_error(e->loc, "%s: tensor map '%s' has swizzle %d but shared array '%s' has swizzle %d",
			   e->name, map->name, map->swizzle, b->name, b->swizzle);
		return 0;
	}
	return 1;
}

static void
check_tma_load(Sema *S, Node *e)
{
	HopSema *h = S->hop;
	Node *args[4], *mc;
	Node *prod = h->nasync && h->async[h->nasync - 1]->kind == N_PRODUCE ? h->async[h->nasync - 1] : NULL;
	Symbol *b, *map, *bar = NULL;
	int n = split_args(e, args, 4, "multicast", &mc), ok;
	Expect *x;

	if (n < 0 || !want_nargs(e, n, 3, 4, "a shared array, a tensor map, [coordinates] and, outside produce blocks, an mbarrier"))
		return;
	b = buffer_arg(S, args[0], "tma_load");
	map = tmap_arg(S, args[1], "tma_load");
	ok = b && map;
	if (map)
		ok &= coords_arg(S, args[2], map->rank, "tma_load", "the tensor map's rank");
	if (n == 4 && !(bar = name_of(S, args[3], SYM_MBARRIER, "tma_load", "an mbarrier last")))
		ok = 0;
	if (mc) {
		ok &= i32_value(S, mc->lhs, "the multicast mask");
		if (cluster_size(h) == 1) {
			diag_error(mc->loc, "multicast sends the box to the CTAs of a cluster, but kernel '%s' has no cluster (cluster(1))",
				   h->kernel->name);
			ok = 0;
		}
	}
	if (!ok)
		return;
	if (prod && bar) {
		diag_error(args[3]->loc, "inside a produce block, tma_load signals the pipeline's full barrier: remove the barrier argument");
		return;
	}
	if (!prod && !bar) {
		diag_error(e->loc, "tma_load outside a produce block needs an mbarrier to signal: tma_load(buf, map, [coords], bar)");
		return;
	}
	if (prod && b->pipe != prod->sym) {
		diag_error(args[0]->loc, "tma_load in a produce block of pipeline '%s' loads into '%s', which is not a buffer of '%s' (declare it 'in %s')",
			   prod->sym->name, b->name, prod->sym->name, prod->sym->name);
		return;
	}
	if (prod && prod->sym->src[0] != PIPE_SRC_TMA) {
		diag_error(e->loc, "tma_load in a produce block of pipeline '%s', whose full source is %s: TMA bytes complete only a 'full: tma' barrier",
			   prod->sym->name, ir_pipe_source_name(prod->sym->src[0]));
		return;
	}
	if (prod && (e != h->stmt || h->depth != h->async_depth[h->nasync - 1])) {
		diag_error(e->loc, "tma_load must be a statement at the top of its produce block, not inside if, for or while (the block arms its barrier with the bytes of these loads)");
		return;
	}
	if (prod)
		h->async_loads[h->nasync - 1]++;
	if (map->tensor->access == ACC_OUT) {
		diag_error(args[1]->loc, "tma_load reads tensor '%s' through '%s', but it is an 'out' tensor",
			   map->tensor->name, map->name);
		return;
	}
	if (!one_thread(S, e) || !tma_match(e, b, map))
		return;
	if (bar && (x = pending_expect(h, bar))) {
		if (mc || e != h->stmt || x->depth != h->depth) {
			x->unsure = 1;
		} else {
			x->got += box_bytes(map);
			x->nloads++;
		}
	}
}

static void
check_tma_store(Sema *S, Node *e)
{
	Node *args[3];
	Symbol *b, *map;
	int n = split_args(e, args, 3, NULL, NULL), ok;

	if (n < 0 || !want_nargs(e, n, 3, 3, "a tensor map, [coordinates] and a shared array"))
		return;
	map = tmap_arg(S, args[0], "tma_store");
	b = buffer_arg(S, args[2], "tma_store");
	ok = b && map;
	if (map)
		ok &= coords_arg(S, args[1], map->rank, "tma_store", "the tensor map's rank");
	if (!ok)
		return;
	if (map->tensor->access == ACC_IN) {
		diag_error(args[0]->loc, "tma_store writes tensor '%s' through '%s', but it is an 'in' tensor",
			   map->tensor->name, map->name);
		return;
	}
	if (one_thread(S, e))
		tma_match(e, b, map);
}

/* The barrier calls: mbar_arrive(b), mbar_expect_tx(b, bytes), mbar_wait(b, parity). */
static void
check_mbar_call(Sema *S, Node *e)
{
	HopSema *h = S->hop;
	Node *args[2];
	Symbol *bar;
	int n = split_args(e, args, 2, NULL, NULL), want = e->builtin == BI_MBAR_ARRIVE ? 1 : 2;
	Expect x, *old;
	int i;

	if (n < 0 || !want_nargs(e, n, want, want, e->builtin == BI_MBAR_ARRIVE ? "an mbarrier"
				 : e->builtin == BI_MBAR_WAIT ? "an mbarrier and a parity (0 or 1)"
				 : "an mbarrier and a byte count"))
		return;
	if (!(bar = name_of(S, args[0], SYM_MBARRIER, e->name, "an mbarrier first")))
		return;
	if (want == 2 && !i32_value(S, args[1], e->builtin == BI_MBAR_WAIT ? "the parity" : "the byte count"))
		return;
	if (e->builtin == BI_MBAR_WAIT) {
		if (args[1]->isconst && args[1]->cv.i != 0 && args[1]->cv.i != 1)
			diag_error(args[1]->loc, "the parity of mbar_wait is 0 or 1, found %lld", (long long)args[1]->cv.i);
		for (i = 0; i < h->nexpects; i++)
			if (h->expects[i].bar == bar)
				finish_expect(&h->expects[i]);
		return;
	}
	if (e->builtin != BI_MBAR_EXPECT_TX)
		return;
	if (args[1]->isconst && (args[1]->cv.i < 0 || args[1]->cv.i > MBAR_MAX)) {
		diag_error(args[1]->loc, "mbar_expect_tx announces 0 to %d bytes, found %lld", MBAR_MAX,
			   (long long)args[1]->cv.i);
		return;
	}
	if ((old = pending_expect(h, bar)))
		finish_expect(old);
	if (!args[1]->isconst || e != h->stmt)
		return;
	memset(&x, 0, sizeof x);
	x.call = e;
	x.bar = bar;
	x.bytes = args[1]->cv.i;
	x.depth = h->depth;
	PUSH(h->expects, h->nexpects, h->capexpects, x);
}

/* wgmma and the fragment store run in whole warpgroups. */
static int
whole_warpgroups(Sema *S, Node *e)
{
	HopSema *h = S->hop;
	Node *r = h->role;

	if (h->in_elect) {
		diag_error(e->loc, "%s inside an elect block: it needs all 128 threads of the warpgroup", e->name);
		return 0;
	}
	if (r && (r->wlo % 4 || (r->whi - r->wlo + 1) % 4)) {
		diag_error(e->loc, "%s in role '%s' of warps %d .. %d, which is not whole warpgroups (a role that issues wgmma starts at a multiple of 4 warps and spans a multiple of 4)",
			   e->name, r->name, r->wlo, r->whi);
		return 0;
	}
	if (!r && h->threads % 128) {
		diag_error(e->loc, "%s outside any role needs whole warpgroups, but the CTA has %d threads",
			   e->name, h->threads);
		return 0;
	}
	return 1;
}

/* An accumulator fragment value; its N (columns), or 0 after an error. */
static int
frag_arg(Sema *S, Node *e, Node *a)
{
	if (!sema_value(S, a))
		return 0;
	if (ir_is_frag(a->ty))
		return a->ty.lanes * 2;
	diag_error(a->loc, "%s takes an accumulator fragment (f32acc[64, N]) here, found %s", e->name,
		   fe_tname(a->ty));
	return 0;
}

/* A wgmma operand: K-major (K = the inner dimension), swizzled, bf16 or f16. */
static int
wgmma_operand(Node *e, Node *a, Symbol *b, const char *which)
{
	int64_t k = b->rank == 2 ? b->dims[1] : 0, span;

	if (b->rank != 2) {
		diag_error(a->loc, "wgmma operand %s '%s' must have 2 dimensions (rows, K), found %d", which,
			   b->name, b->rank);
		return 0;
	}
	if (b->type.base != IR_BF16 && b->type.base != IR_F16) {
		diag_error(a->loc, "wgmma operand %s '%s' holds %s; wgmma takes bf16 or f16", which, b->name,
			   fe_tname(b->type));
		return 0;
	}
	if (!b->swizzle) {
		diag_error(a->loc, "wgmma operand %s '%s' is not swizzled: declare it swizzle(32), swizzle(64) or swizzle(128)",
			   which, b->name);
		return 0;
	}
	if (k % 16) {
		diag_error(a->loc, "wgmma operand %s '%s' has K = %lld, expected a multiple of 16 (one k16 step each)",
			   which, b->name, (long long)k);
		return 0;
	}
	span = k * elem_bytes(b->type);
	if (span != b->swizzle) {
		diag_error(a->loc, "wgmma operand %s '%s' has rows of %lld bytes (K = %lld), but its swizzle(%d) needs rows of %d bytes",
			   which, b->name, (long long)span, (long long)k, b->swizzle, b->swizzle);
		return 0;
	}
	(void)e;
	return 1;
}

static void
check_wgmma(Sema *S, Node *e)
{
	HopSema *h = S->hop;
	Node *args[3], *a;
	Symbol *ba, *bb;
	unsigned missing = h->ki->targets & ~ir_op_targets(IR_WGMMA);
	int n = split_args(e, args, 3, NULL, NULL), cols, t;
	int64_t rows, start;

	if (missing) {
		for (t = 0; t < TARGET_COUNT && !(missing & (1u << t)); t++)
			;
		diag_error(e->loc, "wgmma needs sm_90a; kernel '%s' also targets %s", h->kernel->name,
			   ir_target_name(t));
		return;
	}
	if (n < 0 || !want_nargs(e, n, 3, 3, "an accumulator, operand A and operand B: acc = wgmma(acc, a, b)"))
		return;
	if (!(cols = frag_arg(S, e, args[0])))
		return;
	a = args[1];
	if (a->kind == N_CALL && a->lhs && strcmp(a->name, "rows") == 0) {
		Node *ra[2];
		int m = split_args(a, ra, 2, NULL, NULL);

		a->builtin = BI_ROWS;
		a->ty = fe_ty(TY_NONVALUE);
		if (m < 0 || !want_nargs(a, m, 2, 2, "a first row and a count: buf.rows(start, 64)"))
			return;
		if (!(ba = buffer_arg(S, a->lhs, "wgmma")))
			return;
		a->sym = ba;
		if (!i32_value(S, ra[0], "the first row of rows(...)") ||
		    !sema_const_int(S, ra[1], "the row count of rows(...)", &rows))
			return;
		if (rows != 64) {
			diag_error(ra[1]->loc, "wgmma operand A has 64 rows (m64), found rows(..., %lld)", (long long)rows);
			return;
		}
		if (ra[0]->isconst && ((start = ra[0]->cv.i) % 8 || start < 0 || start + 64 > ba->dims[0])) {
			diag_error(ra[0]->loc, "rows(%lld, 64) of '%s': the first row must be a multiple of 8 (a swizzle atom) and the rows inside its %lld",
				   (long long)start, ba->name, (long long)ba->dims[0]);
			return;
		}
	} else {
		if (!(ba = buffer_arg(S, a, "wgmma")))
			return;
		if (ba->rank == 2 && ba->dims[0] != 64) {
			diag_error(a->loc, "wgmma operand A '%s' has %lld rows; it takes 64 (m64): pass %s.rows(start, 64)",
				   ba->name, (long long)ba->dims[0], ba->name);
			return;
		}
	}
	if (args[2]->kind == N_CALL && args[2]->lhs) {
		diag_error(args[2]->loc, "wgmma operand B is a whole shared array of N rows; only operand A takes buf.rows(start, 64)");
		return;
	}
	if (!(bb = buffer_arg(S, args[2], "wgmma")))
		return;
	if (!wgmma_operand(e, a->lhs && a->kind == N_CALL ? a->lhs : a, ba, "A") ||
	    !wgmma_operand(e, args[2], bb, "B"))
		return;
	if (ba->type.base != bb->type.base) {
		diag_error(e->loc, "wgmma operands must have one type: A '%s' is %s but B '%s' is %s", ba->name,
			   fe_tname(ba->type), bb->name, fe_tname(bb->type));
		return;
	}
	if (ba->dims[1] != bb->dims[1]) {
		diag_error(e->loc, "wgmma operands must share K: A '%s' has K = %lld but B '%s' has K = %lld",
			   ba->name, (long long)ba->dims[1], bb->name, (long long)bb->dims[1]);
		return;
	}
	if (bb->dims[0] != cols) {
		diag_error(args[2]->loc, "wgmma operand B '%s' has %lld rows but the accumulator has N = %d columns",
			   bb->name, (long long)bb->dims[0], cols);
		return;
	}
	if (!whole_warpgroups(S, e))
		return;
	e->ty = args[0]->ty;
}

/* store(tensor, acc, [row0, col0]): the fragment's elements at their (row, col). */
static void
check_store(Sema *S, Node *e)
{
	Node *args[3];
	Symbol *t;
	int n = split_args(e, args, 3, NULL, NULL);

	if (n < 0 || !want_nargs(e, n, 3, 3, "a tensor, an accumulator and [row, col]: store(c, acc, [r, c])"))
		return;
	if (!(t = name_of(S, args[0], SYM_TENSOR, "store", "a tensor first")))
		return;
	if (!frag_arg(S, e, args[1]))
		return;
	if (t->rank != 2) {
		diag_error(args[0]->loc, "store writes a 2-dimensional tensor, but '%s' has %d dimension%s",
			   t->name, t->rank, t->rank == 1 ? "" : "s");
		return;
	}
	if (t->access == ACC_IN) {
		diag_error(args[0]->loc, "cannot write to '%s': it is an 'in' tensor (declare it 'out' or 'inout')",
			   t->name);
		return;
	}
	if (t->type.base != IR_F32 && t->type.base != IR_BF16 && t->type.base != IR_F16) {
		diag_error(args[0]->loc, "store converts the accumulator to f32, bf16 or f16, but '%s' holds %s",
			   t->name, fe_tname(t->type));
		return;
	}
	if (!coords_arg(S, args[2], 2, "store", "a row and a column"))
		return;
	whole_warpgroups(S, e);
}

int
hop_call(Sema *S, Node *e)
{
	HopSema *h = S->hop;
	Node *args[1];

	e->ty = ir_scalar(IR_VOID);
	if (e->lhs) {
		if (strcmp(e->name, "rows") == 0)
			diag_error(e->loc, "'.rows(start, 64)' selects rows of a shared array as operand A of wgmma; it is not a value");
		else
			diag_error(e->loc, "unknown method '.%s(...)' (only wgmma's operand A takes buf.rows(start, 64))",
				   e->name);
		fe_set_error(e);
		return 1;
	}
	if (!h) {
		diag_error(e->loc, "'%s' is only available in a kernel body", e->name);
		fe_set_error(e);
		return 1;
	}
	switch (e->builtin) {
	case BI_TMA:
		diag_error(e->loc, "tma(...) makes a tensor map: tensormap NAME = tma(TENSOR, box[...], swizzle(N));");
		fe_set_error(e);
		return 1;
	case BI_REMOTE:
		diag_error(e->loc, "remote(buf, rank) must be indexed, as in remote(buf, rank)[i]");
		fe_set_error(e);
		return 1;
	case BI_TMA_LOAD: check_tma_load(S, e); break;
	case BI_TMA_STORE: check_tma_store(S, e); break;
	case BI_MBAR_ARRIVE: case BI_MBAR_EXPECT_TX: case BI_MBAR_WAIT: check_mbar_call(S, e); break;
	case BI_WGMMA: check_wgmma(S, e); break;
	case BI_STORE: check_store(S, e); break;
	case BI_TMA_STORE_WAIT: case BI_FENCE_PROXY_ASYNC: case BI_CLUSTER_SYNC:
		if (split_args(e, args, 1, NULL, NULL) != 0)
			diag_error(e->loc, "'%s' takes no arguments, found %d", e->name, e->list.n);
		if (e->builtin == BI_CLUSTER_SYNC && cluster_size(h) == 1)
			diag_error(e->loc, "cluster_sync() synchronizes the CTAs of a cluster, but kernel '%s' has no cluster (cluster(1)); use barrier()",
				   h->kernel->name);
		break;
	default:
		return 0;
	}
	if (e->builtin == BI_WGMMA && !ir_is_frag(e->ty))
		fe_set_error(e);
	return 1;
}
