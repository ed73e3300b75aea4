/* turns.c: the warpgroups of a role taking turns (docs/language.md, "Taking turns"):
 * take_turn() and pass_turn(), their sema and their IR.
 *
 * A role of k warpgroups that calls them holds a ring of k named barriers (ids turn_base ..
 * turn_base + k - 1, allocated per kernel from 1; 0 is barrier()'s), each counting 256
 * threads: warpgroup i's take_turn() is bar.sync on barrier i (its 128 threads), the
 * previous warpgroup's pass_turn() bar.arrive on it (128 more). At the role's entry the
 * last warpgroup passes to the first, so the first goes first. A role of one warpgroup
 * always holds the turn: the calls are no-ops.
 *
 * The check here is what makes the ring work: in every warpgroup take_turn() and
 * pass_turn() alternate, starting with take_turn(), on every path through the role's
 * body: a loop body and the branches of an if leave the turn as they found it, nothing
 * leaves a loop or the role holding it, and the calls are in the role's own body (not in a
 * function, where the walk does not see them). Every warpgroup must also take its turn as
 * often as the others (the ring stops otherwise); that depends on run-time values, and the
 * interpreter reports the warpgroup left waiting.
 */
#include "frontend.h"
#include "async.h"

#define TURN_THREADS 256    /* the waiting warpgroup and the one passing */

/* ---- sema ---- */

/* take_turn() / pass_turn(): no arguments, in a role of whole warpgroups, outside elect. */
void
asy_turn_call(Sema *S, Node *e)
{
	AsyncSema *h = S->asy;
	Node *r = h->role;

	if (e->list.n)
		diag_error(e->loc, "'%s' takes no arguments, found %d", e->name, e->list.n);
	if (!r) {
		diag_error(e->loc, "%s() outside a role: the warpgroups of a role take turns", e->name);
		return;
	}
	if (r->wlo % 4 || (r->whi + 1) % 4) {
		diag_error(e->loc, "%s() in role '%s' of warps %d .. %d: turns pass between whole warpgroups (warpgroups a .. b)",
			   e->name, r->name, r->wlo, r->whi);
		return;
	}
	if (h->in_elect)
		diag_error(e->loc, "%s() in an elect block: the whole warpgroup takes and passes the turn", e->name);
	if (h->rr)
		diag_error(e->loc, "%s() in a round_robin loop: its iterations run in one warpgroup each, and the turn goes around all of them",
			   e->name);
	r->nturns++;
}

typedef struct Walk {
	int holding;
	int calls;
} Walk;

static void walk(Walk *w, Node *s);

static void
walk_list(Walk *w, NodeList l)
{
	Node *s;

	for (s = l.head; s; s = s->next)
		walk(w, s);
}

static void
walk_call(Walk *w, Node *e)
{
	if (!e || e->kind != N_CALL || (e->builtin != BI_TAKE_TURN && e->builtin != BI_PASS_TURN))
		return;
	w->calls++;
	if (e->builtin == BI_TAKE_TURN && w->holding)
		diag_error(e->loc, "take_turn() while the warpgroup holds the turn: pass_turn() first");
	else if (e->builtin == BI_PASS_TURN && !w->holding)
		diag_error(e->loc, "pass_turn() without the turn: take_turn() first");
	w->holding = e->builtin == BI_TAKE_TURN;
}

/* A body that must leave the turn as it found it (a loop's). */
static void
walk_same(Walk *w, Node *body, Node *at, const char *what)
{
	int h0 = w->holding;

	walk(w, body);
	if (w->holding != h0)
		diag_error(at->loc, "%s %s the turn: take_turn() and pass_turn() pair up inside it", what,
			   h0 ? "passes" : "takes");
	w->holding = h0;
}

static void
walk(Walk *w, Node *s)
{
	int h0, h1;

	if (!s)
		return;
	switch (s->kind) {
	case N_BLOCK:
		walk_list(w, s->list);
		break;
	case N_EXPRSTMT:
		walk_call(w, s->lhs);
		break;
	case N_IF:
		h0 = w->holding;
		walk(w, s->body);
		h1 = w->holding;
		w->holding = h0;
		walk(w, s->els);
		if (w->holding != h1)
			diag_error(s->loc, "the branches of this if leave the turn differently (one holds it, the other not)");
		w->holding = h1;
		break;
	case N_FOR: case N_WHILE:
		walk_same(w, s->body, s, "the body of this loop");
		break;
	case N_ELECT: case N_PRODUCE: case N_CONSUME:
		walk(w, s->body);
		break;
	case N_BREAK: case N_CONTINUE: case N_RETURN:
		if (w->holding)
			diag_error(s->loc, "'%s' while the warpgroup holds the turn: pass_turn() first",
				   s->kind == N_BREAK ? "break" : s->kind == N_CONTINUE ? "continue" : "return");
		break;
	default:
		break;
	}
}

/* After role r's body is checked: its ring of barriers, and the pairing of the calls. */
void
asy_turn_role(Sema *S, Node *r)
{
	AsyncSema *h = S->asy;
	Walk w = {0, 0};
	int k = (r->whi - r->wlo + 1) / 4;

	if (!r->nturns)
		return;
	walk(&w, r->body);
	if (w.holding)
		diag_error(r->loc, "role '%s' ends holding the turn: pass_turn() before its end", r->name);
	if (w.calls != r->nturns)
		diag_error(r->loc, "role '%s' calls take_turn()/pass_turn() from a function: write them in the role's body, where they are checked to pair up",
			   r->name);
	if (k < 2)
		return;
	if (h->nturn_ids + k > 15) {
		diag_error(r->loc, "role '%s' takes turns among %d warpgroups, one named barrier each, but a CTA has 15 (%d taken by other roles)",
			   r->name, k, h->nturn_ids);
		return;
	}
	r->turn_base = 1 + h->nturn_ids;
	h->nturn_ids += k;
}

/* ---- IR ---- */

/* warpgroup - first warpgroup of the role (+ 1, modulo the ring, for the next one), as the
 * barrier id. One op a statement: the order of the ops is the IR's, not the C compiler's. */
static IrValue
ring_pos(IrGen *G, const Node *r, int next)
{
	int k = (r->whi - r->wlo + 1) / 4;
	IrValue wg = irgen_warpgroup(G), i;

	i = irgen_op2(G, IR_SUB, wg, irgen_c32(G, r->wlo / 4));
	if (next) {
		i = irgen_op2(G, IR_ADD, i, irgen_c32(G, 1));
		i = irgen_op2(G, IR_REM, i, irgen_c32(G, k));
	}
	return irgen_op2(G, IR_ADD, i, irgen_c32(G, r->turn_base));
}

void
irgen_turn_call(IrGen *G, Node *e)
{
	const Node *r = G->role;
	IrValue a[2];

	if (!r || !r->turn_base)
		return;
	G->b.loc = e->loc;
	a[0] = ring_pos(G, r, e->builtin == BI_PASS_TURN);
	a[1] = irgen_c32(G, TURN_THREADS);
	irb_op(&G->b, e->builtin == BI_TAKE_TURN ? IR_BAR_SYNC : IR_BAR_ARRIVE, ir_scalar(IR_VOID), 2, a);
}

/* At role r's entry: its last warpgroup passes the turn to the first. */
void
irgen_turn_start(IrGen *G, const Node *r)
{
	IrRegion *regs, *outer = G->b.r;
	IrValue c, a[2];

	if (!r->turn_base)
		return;
	G->b.loc = r->loc;
	c = irgen_warpgroup(G);
	c = irb_op2(&G->b, IR_CMP_EQ, ir_scalar(IR_I1), c, irgen_c32(G, r->whi / 4));
	irb_region_op(&G->b, IR_IF, 1, &c, 0, NULL, &regs);
	G->b.r = &regs[0];
	a[0] = irgen_c32(G, r->turn_base);
	a[1] = irgen_c32(G, TURN_THREADS);
	irb_op(&G->b, IR_BAR_ARRIVE, ir_scalar(IR_VOID), 2, a);
	irb_op(&G->b, IR_YIELD, ir_scalar(IR_VOID), 0, NULL);
	G->b.r = &regs[1];
	irb_op(&G->b, IR_YIELD, ir_scalar(IR_VOID), 0, NULL);
	G->b.r = outer;
}
