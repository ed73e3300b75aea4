/* contract.c: floating-point contraction, a * b + c as one fused multiply-add.
 *
 * CUDA C++ contracts by default (nvcc and NVRTC --fmad=true), and so do Triton and clang's
 * CUDA mode: plain code ported from them expects fma's speed and its one rounding. The
 * language makes the same promise (docs/language.md, "Floating-point contraction"), and
 * makes it here, in the IR, not in LLVM: which products are fused is then fixed before any
 * backend sees the kernel, so the interpreter (which runs this IR) and the GPU compute the
 * same bits, at -O0 as at -O2. It runs before canonicalize and cse, whose operand orders
 * and merges would otherwise decide which of two products an add fuses.
 *
 * Requires: verified IR.
 * Guarantees: no f32 or f64 (scalar or vector: fragments too) `add` or `sub` has an operand
 *   defined by a `mul` of its type: add(mul(a, b), c) and add(c, mul(a, b)) became
 *   fma(a, b, c); sub(mul(a, b), c) became fma(a, b, neg(c)); sub(c, mul(a, b)) became
 *   fma(neg(a), b, c). Where both operands are products the left one is fused. The
 *   product stays for its other uses (dce deletes it when there are none): an add fuses
 *   whatever else uses its product, as nvcc's contraction does. f16 and bf16 are left
 *   alone (the interpreter's fma is exact only for f32 and f64).
 * Invalidates: canonical (new fma and neg ops, whose constants nothing folded). The result
 *   values keep their ids; the only new values are the negations.
 */
#include "passes.h"

#include <stdlib.h>

typedef struct Contract {
	IrKernel *k;
	int n;                  /* the values that existed before the pass */
	IrValue (*mul)[2];      /* per value < n: the operands of the f32/f64 mul defining it, else 0 */
} Contract;

static int
fusable_type(IrType t)
{
	return t.base == IR_F32 || t.base == IR_F64;
}

static void
record_mul(IrOp *op, void *ctx)
{
	Contract *c = ctx;

	if (op->opc == IR_MUL && op->nres == 1 && op->res[0] > 0 && op->res[0] < c->n &&
	    fusable_type(ir_vtype(c->k, op->res[0]))) {
		c->mul[op->res[0]][0] = op->args[0];
		c->mul[op->res[0]][1] = op->args[1];
	}
}

static int
is_product(const Contract *c, IrValue v)
{
	return v > 0 && v < c->n && c->mul[v][0] != 0;
}

/* Appends neg(v) to out and returns its value. */
static IrValue
negate(Contract *c, IrRegion *out, IrValue v, SrcLoc loc)
{
	IrOp neg;

	ir_op_init(c->k, &neg, IR_NEG, 1, 1, 0, loc);
	neg.args[0] = v;
	neg.res[0] = ir_new_value(c->k, ir_vtype(c->k, v));
	ir_region_push(out, &neg);
	return neg.res[0];
}

/* Appends the fma that replaces the add or sub op, if one does; returns whether it did. */
static int
fuse(Contract *c, IrRegion *out, const IrOp *op)
{
	IrValue x = op->args[0], y = op->args[1], a, b, z;
	IrOp f;

	if (is_product(c, x)) {
		a = c->mul[x][0];
		b = c->mul[x][1];
		z = op->opc == IR_ADD ? y : negate(c, out, y, op->loc);
	} else if (is_product(c, y)) {
		a = op->opc == IR_ADD ? c->mul[y][0] : negate(c, out, c->mul[y][0], op->loc);
		b = c->mul[y][1];
		z = x;
	} else {
		return 0;
	}
	ir_op_init(c->k, &f, IR_FMA, 3, 1, 0, op->loc);
	f.args[0] = a;
	f.args[1] = b;
	f.args[2] = z;
	f.res[0] = op->res[0];
	ir_region_push(out, &f);
	return 1;
}

static void contract_region(Contract *c, IrRegion *r);

static int
visit(IrRegion *out, IrOp *op, void *ctx)
{
	Contract *c = ctx;
	int i;

	for (i = 0; i < op->nregions; i++)
		contract_region(c, &op->regions[i]);
	if ((op->opc == IR_ADD || op->opc == IR_SUB) && op->nres == 1 &&
	    fusable_type(ir_vtype(c->k, op->res[0])) && fuse(c, out, op))
		return 0;
	return 1;
}

static void
contract_region(Contract *c, IrRegion *r)
{
	ir_region_rebuild(r, visit, c);
}

void
pass_contract(IrKernel *k, PassContext *cx)
{
	Contract c = {k, k->nvalues, NULL};

	(void)cx;
	c.mul = xcalloc((size_t)k->nvalues + 1, sizeof *c.mul);
	ir_walk(&k->body, record_mul, &c);
	contract_region(&c, &k->body);
	free(c.mul);
}
