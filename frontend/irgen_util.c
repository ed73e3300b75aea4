/* irgen_util.c: what irgen.c and irgen_async.c share: the builtins' ops, the carried
 * slots of structured statements and region ops (which outer variables a body assigns,
 * their types, lowering a body into a region that yields them), and the base pointer of a
 * shared buffer, staged buffers at the stage of the innermost produce/consume block. */
#include "ast.h"

#include <stdlib.h>
#include <string.h>

/* Each builtin's IR op and check kind (builtins.def). */
const IrGenBuiltin irgen_builtins[BI_COUNT] = {
#define BUILTIN(id, name, nargs, check, opcode, meaning) [BI_##id] = {opcode, CHK_##check},
#include "builtins.def"
#undef BUILTIN
};

/* builtins.def names a DIM builtin's .x op: .y and .z follow it. */
_Static_assert(IR_TID_Z == IR_TID_X + 2 && IR_CTAID_Z == IR_CTAID_X + 2 &&
	       IR_NTID_Z == IR_NTID_X + 2 && IR_NCTAID_Z == IR_NCTAID_X + 2,
	       "ops.def lists the .x, .y and .z ops in order");

/* ---- carried slots ---- */

/* Adds (in slot order, once each) the variables declared before slot `base` that the
 * statement s assigns: the values a structured statement must pass out. */
static void
add_slot(int slot, int base, int *out, int *n)
{
	int i;

	if (slot >= base)
		return;
	for (i = 0; i < *n && out[i] < slot; i++)
		;
	if (i < *n && out[i] == slot)
		return;
	memmove(out + i + 1, out + i, sizeof *out * (size_t)(*n - i));
	out[i] = slot;
	(*n)++;
}

void
irgen_assigned_vars(const Node *s, int base, int *out, int *n)
{
	const Node *c;

	if (!s)
		return;
	switch (s->kind) {
	case N_ASSIGN:
		if (!s->lhs->sym)       /* a name sema could not resolve (reported there) */
			return;
		if (s->lhs->kind == N_INDEX && s->lhs->indexkind == IDX_REGS) {
			/* any element: the index is known only as irgen unrolls */
			int i;

			for (i = 0; i < s->lhs->sym->count; i++)
				add_slot(s->lhs->sym->slot + i, base, out, n);
			return;
		}
		if (s->lhs->kind != N_NAME || s->lhs->sym->kind != SYM_VAR)
			return;
		add_slot(s->lhs->sym->slot, base, out, n);
		return;
	case N_BREAK:
	case N_CONTINUE:
	case N_RETURN:
		/* the flags (and the value) an exit sets */
		add_slot(s->xslot[0], base, out, n);
		if (s->kind == N_RETURN && s->xslot[1] >= 0)
			add_slot(s->xslot[1], base, out, n);
		return;
	case N_PRODUCE:
	case N_CONSUME:
		/* the pipeline's hidden stage and phase advance after the block */
		add_slot(s->hslot, base, out, n);
		add_slot(s->hslot + 1, base, out, n);
		irgen_assigned_vars(s->body, base, out, n);
		return;
	case N_ROLE:
	case N_ELECT:
		irgen_assigned_vars(s->body, base, out, n);
		return;
	case N_BLOCK:
		for (c = s->list.head; c; c = c->next)
			irgen_assigned_vars(c, base, out, n);
		return;
	case N_IF:
		irgen_assigned_vars(s->body, base, out, n);
		irgen_assigned_vars(s->els, base, out, n);
		return;
	case N_FOR:
	case N_WHILE:
		irgen_assigned_vars(s->body, base, out, n);
		return;
	default:
		return;
	}
}

IrType *
irgen_carried_types(IrGen *G, const int *slots, int n)
{
	IrType *t = xmalloc(sizeof *t * (size_t)(n + 1));
	int i;

	for (i = 0; i < n; i++)
		t[i] = ir_vtype(G->k, G->slots[slots[i]]);
	return t;
}

/* Ends region r (the builder is in it) with a terminator passing the carried values. */
void
irgen_terminate(IrGen *G, int opc, IrValue cond, const int *slots, int n)
{
	IrValue *v = xmalloc(sizeof *v * (size_t)(n + 2));
	int i, k = 0;

	if (cond)
		v[k++] = cond;
	for (i = 0; i < n; i++)
		v[k++] = G->slots[slots[i]];
	irb_op(&G->b, opc, ir_scalar(IR_VOID), k, v);
	free(v);
}

/* Lowers `body` into region r by `lower` (irgen_block when NULL), then yields the carried
 * slots; restores the builder. */
void
irgen_into(IrGen *G, IrRegion *r, Node *body, IrgenLower lower, const int *slots, int n, SrcLoc end)
{
	IrRegion *saved = G->b.r;

	G->b.r = r;
	if (body)
		(lower ? lower : irgen_block)(G, body);
	G->b.loc = end;
	irgen_terminate(G, IR_YIELD, 0, slots, n);
	G->b.r = saved;
}

/* ---- shared buffers ---- */

/* The stage of pipeline `pipe` in the innermost produce/consume block of it. */
IrValue
irgen_stage(IrGen *G, int pipe)
{
	int i;

	for (i = G->nasync - 1; i >= 0; i--)
		if (G->async_pipe[i] == pipe)
			return G->async_stage[i];
	ICE("no produce/consume block of pipeline %d around a use of its buffers", pipe);
}

/* The base pointer of shared buffer s here: smem, or smem.stage of the current stage. */
IrValue
irgen_buffer(IrGen *G, const Symbol *s)
{
	IrType pt = ir_ptr(IR_SHARED, (IrBase)s->type.base);
	IrValue st;

	if (!s->pipe)
		return irb_imm(&G->b, IR_SMEM, pt, s->buf, 0, NULL);
	st = irgen_stage(G, s->pipe->index);
	return irb_imm(&G->b, IR_SMEM_STAGE, pt, s->buf, 1, &st);
}

IrValue
irgen_c32(IrGen *G, int64_t v)
{
	return irb_const_int(&G->b, ir_scalar(IR_I32), v);
}

IrValue
irgen_warpgroup(IrGen *G)
{
	IrValue w = irb_op(&G->b, IR_WARPID, ir_scalar(IR_I32), 0, NULL);

	return irgen_op2(G, IR_DIV, w, irgen_c32(G, 4));
}

IrValue
irgen_op2(IrGen *G, int opc, IrValue a, IrValue b)
{
	return irb_op2(&G->b, opc, ir_vtype(G->k, a), a, b);
}
