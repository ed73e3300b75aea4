/* cse.c: common subexpression elimination over the region tree.
 *
 * Requires: verified IR.
 * Guarantees: no two OPF_PURE ops without regions compute the same thing where the first
 *   is available at the second: same opcode, result type, attribute (imm, and fimm bit for
 *   bit) and operands (in either order for OPF_COMM ops). An op is available in the rest of
 *   its region and in the regions nested there, never outside its region: a value from an
 *   `if` branch or a loop body never replaces one outside it, nor one in the other branch
 *   or in the other region of a `while`. Special registers and `smem` are merged like any
 *   pure op; loads, stores, atomics and synchronizing ops never are.
 * Invalidates: the canonical form where merged operands become one value (x - x, selects
 *   of one value: -O2 canonicalizes again); the merged ops are dropped and their uses
 *   rewritten (through a replacement map applied while each region's op array is rebuilt).
 */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

/* A scoped hash table: entries are pushed on a stack and chained through their bucket;
 * leaving a region pops its entries, which restores the buckets' heads in LIFO order. */
typedef struct Entry {
	IrOp op;          /* a copy: its args and res live in the kernel's arena */
	uint64_t hash;
	int next;         /* previous head of the bucket, -1 for none */
} Entry;

typedef struct Cse {
	IrKernel *k;
	IrRewriter map;   /* merged op's result -> the earlier op's */
	int *heads;       /* nbuckets, -1 for empty */
	int nbuckets;
	Entry *stack;
	int nstack, capstack;
} Cse;

static int
mergeable(const IrOp *op)
{
	return (ir_opinfo[op->opc].flags & OPF_PURE) && op->nregions == 0 && op->nres == 1;
}

/* Operand i in the order the key uses: commutative pairs sorted by value id. */
static IrValue
key_arg(const IrOp *op, int i)
{
	if ((ir_opinfo[op->opc].flags & OPF_COMM) && op->nargs == 2) {
		IrValue lo = op->args[0] < op->args[1] ? op->args[0] : op->args[1];
		IrValue hi = op->args[0] < op->args[1] ? op->args[1] : op->args[0];

		return i == 0 ? lo : hi;
	}
	return op->args[i];
}

static uint64_t
hash_op(const Cse *c, const IrOp *op)
{
	IrType t = ir_vtype(c->k, op->res[0]);
	uint64_t h = HASH_INIT;
	int i;

	h = hash_fnv1a(&op->opc, sizeof op->opc, h);
	h = hash_fnv1a(&t, sizeof t, h);
	h = hash_fnv1a(&op->imm, sizeof op->imm, h);
	h = hash_fnv1a(&op->fimm, sizeof op->fimm, h);
	for (i = 0; i < op->nargs; i++) {
		IrValue a = key_arg(op, i);

		h = hash_fnv1a(&a, sizeof a, h);
	}
	return h;
}

static int
same_op(const Cse *c, const IrOp *a, const IrOp *b)
{
	int i;

	if (a->opc != b->opc || a->nargs != b->nargs || a->imm != b->imm
	    || memcmp(&a->fimm, &b->fimm, sizeof a->fimm) != 0
	    || !ir_type_eq(ir_vtype(c->k, a->res[0]), ir_vtype(c->k, b->res[0])))
		return 0;
	for (i = 0; i < a->nargs; i++)
		if (key_arg(a, i) != key_arg(b, i))
			return 0;
	return 1;
}

/* The earlier op computing the same as op, or NULL. */
static const IrOp *
lookup(const Cse *c, const IrOp *op, uint64_t h)
{
	int e;

	for (e = c->heads[h % (uint64_t)c->nbuckets]; e >= 0; e = c->stack[e].next)
		if (c->stack[e].hash == h && same_op(c, &c->stack[e].op, op))
			return &c->stack[e].op;
	return NULL;
}

static void
insert(Cse *c, const IrOp *op, uint64_t h)
{
	int b = (int)(h % (uint64_t)c->nbuckets);
	Entry e = {*op, h, c->heads[b]};

	PUSH(c->stack, c->nstack, c->capstack, e);
	c->heads[b] = c->nstack - 1;
}

static void
pop_to(Cse *c, int mark)
{
	while (c->nstack > mark) {
		Entry *e = &c->stack[--c->nstack];

		c->heads[e->hash % (uint64_t)c->nbuckets] = e->next;
	}
}

static void cse_region(Cse *c, IrRegion *r);

/* Keeps op unless an equal op is available, whose result then replaces op's. */
static int
cse_op(IrRegion *out, IrOp *op, void *ctx)
{
	Cse *c = ctx;
	int j;

	(void)out;
	for (j = 0; j < op->nargs; j++)
		op->args[j] = ir_rw_get(&c->map, op->args[j]);
	for (j = 0; j < op->nregions; j++)
		cse_region(c, &op->regions[j]);
	if (mergeable(op)) {
		uint64_t h = hash_op(c, op);
		const IrOp *prev = lookup(c, op, h);

		if (prev) {
			ir_rw_set(&c->map, op->res[0], prev->res[0]);
			return 0;
		}
		insert(c, op, h);
	}
	return 1;
}

static void
cse_region(Cse *c, IrRegion *r)
{
	int mark = c->nstack;

	ir_region_rebuild(r, cse_op, c);
	pop_to(c, mark);
}

void
pass_cse(IrKernel *k, PassContext *cx)
{
	Cse c = {0};
	int i;

	(void)cx;
	c.k = k;
	ir_rw_init(&c.map, k);
	c.nbuckets = 1024;
	while (c.nbuckets < k->nvalues)
		c.nbuckets *= 2;
	c.heads = xmalloc(sizeof *c.heads * (size_t)c.nbuckets);
	for (i = 0; i < c.nbuckets; i++)
		c.heads[i] = -1;
	cse_region(&c, &k->body);
	ir_rw_free(&c.map);
	free(c.heads);
	free(c.stack);
}
