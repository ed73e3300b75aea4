/* round_robin.c: a loop whose iterations the warpgroups of its role take in turn
 * (docs/language.md, "Dealing iterations"): `for (i in lo .. hi) round_robin { ... }` in a
 * role of W warpgroups runs iteration k (counting from 0) in warpgroup k % W of the role
 * only. Its sema and its IR.
 *
 * The other warpgroups still walk the iteration's produce and consume blocks, without
 * waiting or arriving: their stages and phases move on as the block's would, so every
 * warpgroup meets a pipeline's stages in the order its producer fills them. The IR is
 * `if[1] (k % W == warpgroup - first) { body } else { the stage moves }`; schedule-check
 * counts the body's blocks as one warpgroup's threads (passes/schedule_check.c).
 *
 * What makes the moves right, checked here:
 *   - the stage moves must be known without running the body: no block of the body is in
 *     a loop inside it (functions cannot name a kernel's pipelines), each pipeline runs at
 *     most one block an iteration, and the conditions of the ifs around them do not
 *     depend on the iteration (no variable declared or assigned in the loop, no call), so
 *     the warpgroups that skip an iteration evaluate them to the same;
 *   - nothing leaves the body early (break, continue, return).
 * The schedule rules of the dealt stages (a multiple of W stages; the role uses the
 * pipeline only in such loops) are schedule-check's, on the IR's if[1].
 */
#include "frontend.h"
#include "async.h"

#include <stdlib.h>

/* ---- sema ---- */

/* Whether round_robin loop s may deal its iterations here; reports why not. */
static int
can_deal(Sema *S, Node *s)
{
	AsyncSema *h = S->asy;
	Node *r = h ? h->role : NULL;

	if (!r) {
		diag_error(s->loc, "a round_robin loop outside a role: its iterations go to the warpgroups of a role in turn");
		return 0;
	}
	if (r->wlo % 4 || (r->whi + 1) % 4) {
		diag_error(s->loc, "a round_robin loop in role '%s' of warps %d .. %d: iterations are dealt to whole warpgroups (warpgroups a .. b)",
			   r->name, r->wlo, r->whi);
		return 0;
	}
	if (h->in_elect) {
		diag_error(s->loc, "a round_robin loop in an elect block: iterations are dealt to whole warpgroups");
		return 0;
	}
	if (h->rr) {
		diag_error(s->loc, "round_robin loops do not nest");
		diag_note(h->rr->loc, "the enclosing round_robin loop is here");
		return 0;
	}
	return 1;
}

void
asy_round_robin_enter(Sema *S, Node *s)
{
	AsyncSema *h = S->asy;

	if (can_deal(S, s))
		h->rr = s;
}

typedef struct RrWalk {
	Node *loop;
	int *slots, nslots;       /* the variables from outside the loop that it assigns */
	Node **per_pipe;          /* per pipeline: its block in the loop */
} RrWalk;

/* Reports the first name or call in condition e that may differ between iterations. */
static int
invariant(RrWalk *w, const Node *e, const Node *block)
{
	const Node *c;
	const Symbol *y = e ? e->sym : NULL;
	int i;

	if (!e)
		return 1;
	if (e->kind == N_CALL) {
		diag_error(e->loc, "a call in the condition of a %s block in a round_robin loop: the warpgroups that skip the iteration evaluate the condition too, so it may only read values that stay the same",
			   block->kind == N_PRODUCE ? "produce" : "consume");
		return 0;
	}
	if (e->kind == N_NAME && y && (y->kind == SYM_LET || y->kind == SYM_VAR || y->kind == SYM_ITER)) {
		int inside = y->slot >= w->loop->slot_base;

		for (i = 0; i < w->nslots && !inside; i++)
			inside = w->slots[i] == y->slot;
		if (inside) {
			diag_error(e->loc, "the condition of a %s block in a round_robin loop depends on '%s', which the loop %s: the warpgroups that skip the iteration evaluate the condition too",
				   block->kind == N_PRODUCE ? "produce" : "consume", y->name,
				   y->slot >= w->loop->slot_base ? "declares" : "assigns");
			return 0;
		}
	}
	if (!invariant(w, e->lhs, block) || !invariant(w, e->rhs, block) || !invariant(w, e->cond, block))
		return 0;
	for (c = e->list.head; c; c = c->next)
		if (!invariant(w, c, block))
			return 0;
	return 1;
}

/* The first produce or consume block under s, or NULL: whether the skipping warpgroups
 * have anything to walk there, and the block a condition's message names. */
static const Node *
first_block(const Node *s)
{
	const Node *c, *b;

	if (!s)
		return NULL;
	switch (s->kind) {
	case N_PRODUCE: case N_CONSUME:
		return s;
	case N_BLOCK:
		for (c = s->list.head; c; c = c->next)
			if ((b = first_block(c)) != NULL)
				return b;
		return NULL;
	default:
		b = first_block(s->body);
		return b ? b : first_block(s->els);
	}
}

static void rr_walk(RrWalk *w, Node *s, int in_loop);

static void
rr_block(RrWalk *w, Node *s, int in_loop)
{
	const Symbol *p = s->sym;
	const char *what = s->kind == N_PRODUCE ? "produce" : "consume";

	if (in_loop)
		diag_error(s->loc, "a %s block in a loop inside a round_robin loop: the warpgroups that skip an iteration could not tell how often it runs",
			   what);
	else if (w->per_pipe[p->index]) {
		diag_error(s->loc, "a second block of pipeline '%s' in a round_robin loop: each pipeline runs one produce or consume block an iteration",
			   p->name);
		diag_note(w->per_pipe[p->index]->loc, "the first is here");
	}
	w->per_pipe[p->index] = s;
	rr_walk(w, s->body, in_loop);
}

static void
rr_walk(RrWalk *w, Node *s, int in_loop)
{
	Node *c;

	if (!s)
		return;
	switch (s->kind) {
	case N_PRODUCE: case N_CONSUME:
		if (s->sym && s->sym->kind == SYM_PIPELINE)
			rr_block(w, s, in_loop);
		return;
	case N_IF:
		if (!s->cond->isconst && first_block(s))
			invariant(w, s->cond, first_block(s));
		rr_walk(w, s->body, in_loop);
		rr_walk(w, s->els, in_loop);
		return;
	case N_FOR: case N_WHILE:
		rr_walk(w, s->body, 1);
		return;
	case N_ELECT:
		rr_walk(w, s->body, in_loop);
		return;
	case N_BLOCK:
		for (c = s->list.head; c; c = c->next)
			rr_walk(w, c, in_loop);
		return;
	default:
		return;
	}
}

void
asy_round_robin_leave(Sema *S, Node *s)
{
	AsyncSema *h = S->asy;
	RrWalk w = {s, NULL, 0, NULL};

	if (!h || h->rr != s)
		return;
	h->rr = NULL;
	if (s->body->exits)
		diag_error(s->loc, "a round_robin loop left by 'break', 'continue' or 'return': each warpgroup must walk every iteration's stages");
	w.slots = xmalloc(sizeof(int) * (size_t)(S->nslots + 1));
	irgen_assigned_vars(s->body, s->slot_base, w.slots, &w.nslots);
	w.per_pipe = xcalloc((size_t)h->npipes + 1, sizeof *w.per_pipe);
	rr_walk(&w, s->body, 0);
	free(w.per_pipe);
	free(w.slots);
}

/* ---- IR ---- */

/* The hidden stage and phase slots of the blocks under s, once each. */
static void
block_slots(const Node *s, int *out, int *n)
{
	const Node *c;
	int i, k;

	if (!s)
		return;
	switch (s->kind) {
	case N_PRODUCE: case N_CONSUME:
		for (k = 0; k < 2; k++) {
			for (i = 0; i < *n && out[i] != s->hslot + k; i++)
				;
			if (i == *n)
				out[(*n)++] = s->hslot + k;
		}
		block_slots(s->body, out, n);
		return;
	case N_BLOCK:
		for (c = s->list.head; c; c = c->next)
			block_slots(c, out, n);
		return;
	case N_FOR: case N_WHILE:
		return;
	default:
		block_slots(s->body, out, n);
		block_slots(s->els, out, n);
		return;
	}
}

/* The skipping warpgroups' walk of the body: each block's stage moves on, under the same
 * conditions as in the body; nothing else runs. */
static void skip_walk(IrGen *G, Node *s);

/* An if around blocks: the same condition, carrying only their stages (the variables the
 * body declares before it do not exist in the skipping warpgroups). */
static void
skip_if(IrGen *G, Node *s)
{
	int *slots = xmalloc(sizeof(int) * (size_t)(2 * G->info->nslots + 2));
	int n = 0;
	IrValue c = irgen_expr(G, s->cond);

	block_slots(s, slots, &n);
	irgen_if(G, slots, n, s->loc, c, s->body, skip_walk, s->els, skip_walk, 0);
	free(slots);
}

static void
skip_walk(IrGen *G, Node *s)
{
	Node *c;

	if (!first_block(s))
		return;
	switch (s->kind) {
	case N_PRODUCE: case N_CONSUME:
		skip_walk(G, s->body);
		irgen_stage_advance(G, s);
		return;
	case N_IF:
		if (s->cond->isconst)   /* sema kept only the branch taken */
			skip_walk(G, s->body);
		else
			skip_if(G, s);
		return;
	case N_ELECT:
		skip_walk(G, s->body);
		return;
	case N_BLOCK:
		for (c = s->list.head; c; c = c->next)
			skip_walk(G, c);
		return;
	default:
		return;
	}
}

void
irgen_round_robin_body(IrGen *G, Node *s, IrValue iv, IrValue lo, IrValue step)
{
	const Node *r = G->role;
	int groups = (r->whi + 1 - r->wlo) / 4;
	IrValue k, mine, me;

	G->b.loc = s->loc;
	k = irgen_op2(G, IR_SUB, iv, lo);
	if (s->step && !(s->step->isconst && s->step->cv.i == 1))
		k = irgen_op2(G, IR_DIV, k, step);
	k = irgen_op2(G, IR_REM, k, irb_const_int(&G->b, ir_vtype(G->k, k), groups));
	if (ir_vtype(G->k, k).base != IR_I32)
		k = irb_op1(&G->b, IR_CAST, ir_scalar(IR_I32), k);
	me = irgen_op2(G, IR_SUB, irgen_warpgroup(G), irgen_c32(G, r->wlo / 4));
	mine = irb_op2(&G->b, IR_CMP_EQ, ir_scalar(IR_I1), k, me);
	irgen_assigned_if(G, s, mine, s->body, NULL, s->body, skip_walk, 1);
}
