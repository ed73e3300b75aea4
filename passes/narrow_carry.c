/* narrow_carry.c: a value a loop loads one iteration ahead in a narrow float type and
 * carries converted is carried as it was loaded, and converted where the loop uses it.
 *
 * Why: a load is waited for where its value is first used, and a conversion right after
 * the load is such a use. In
 *     var n: f32 = f32(x[0]);
 *     for (i in 0 .. m) { let r = n; if (i + 1 < m) { n = f32(x[i + 1]); } ...use r... }
 * every iteration waits for its prefetch at the conversion, before the work the prefetch
 * was to overlap: kernels_src/ssd's warp 1 lost a memory latency a chunk so
 * (bench/RESULTS.md section 51). Neither LLVM nor ptxas moves the conversion across the
 * loop's back edge. Carried as loaded, it runs at the top of the next iteration.
 *
 * What is rewritten: a loop-carried value of a `for` of scalar type W (f32 or f64) whose
 * next value (the body's yield operand) is, at the top level of the body,
 *   - a `cast` of a value of a narrower float type N (bf16 or f16, or f32 for W = f64:
 *     the conversion is exact),
 *   - the carried value itself (its region argument), or
 *   - a result of an `if` of the body whose two yields give one of those two,
 * with at least one of the casts casting a `load`, and whose initial value is a cast of an
 * N value, a float constant N holds exactly, or a result of an `if` (beside the `for`)
 * whose yields give one of those two. A new carried value of type N then runs beside it
 * (new `if` results where the old value went through one), a cast of it at the top of the
 * body replaces the old region argument's uses, and a cast of its result after the loop
 * replaces the old result's. The old carried value is then used only by its own chain,
 * which dce drops with the casts it computed. The values are the same bits: an exact
 * conversion commutes with carrying.
 *
 * Requires: verified IR, async ops expanded (loops inside roles are plain loops).
 * Guarantees: no carried value of that shape keeps a load's conversion in its chain.
 * Invalidates: canonical (new casts and constants; dce and the backend do not need it).
 */
#include "passes.h"

#include <string.h>

/* Whether n is a float type that converts exactly to the wider scalar float type w. */
static int
narrower(IrType n, IrType w)
{
	if (n.lanes != 1 || w.lanes != 1)
		return 0;
	if (w.base == IR_F32)
		return n.base == IR_BF16 || n.base == IR_F16;
	if (w.base == IR_F64)
		return n.base == IR_BF16 || n.base == IR_F16 || n.base == IR_F32;
	return 0;
}

/* The index of the top-level op of r that defines v (its result number in *ri), or -1.
 * A scan rather than ir_def_map: the pass inserts ops, which moves the ones it found. */
static int
def_in(const IrRegion *r, IrValue v, int *ri)
{
	int i, j;

	for (i = 0; i < r->nops; i++)
		for (j = 0; j < r->ops[i].nres; j++)
			if (r->ops[i].res[j] == v) {
				*ri = j;
				return i;
			}
	return -1;
}

typedef struct Chain {
	IrKernel *k;
	IrRegion *outer;        /* the for's region: constants may be defined there */
	IrRegion *body;         /* the for's body (NULL for an initial value's chain) */
	IrValue arg;            /* the carried value's region argument (0 for an initial value) */
	IrValue narrow_arg;     /* its narrow twin, once made */
	IrType wide, narrow;    /* narrow.base is IR_VOID until a cast fixes it */
	int loaded;             /* some cast converts a load */
} Chain;

/* Where v is defined, seen from region r: an op of r, or a constant of the loop's body
 * or of the for's region (cse leaves one constant for all its uses). Returns the op's
 * index in *in, or -1. */
static int
lookup(const Chain *c, IrRegion *r, IrValue v, IrRegion **in, int *ri)
{
	IrRegion *rs[3] = {r, c->body, c->outer};
	int i, j;

	for (j = 0; j < 3; j++) {
		if (!rs[j] || (j > 0 && rs[j] == r))
			continue;
		i = def_in(rs[j], v, ri);
		if (i >= 0 && (j == 0 || rs[j]->ops[i].opc == IR_CONST)) {
			*in = rs[j];
			return i;
		}
	}
	return -1;
}

/* Whether value v of region r takes one of the shapes above (depth 0: an `if` allowed). */
static int
check(Chain *c, IrRegion *r, IrValue v, int depth)
{
	IrRegion *in;
	int ri, i, j;
	const IrOp *op;

	if (c->arg && v == c->arg)
		return 1;
	if ((i = lookup(c, r, v, &in, &ri)) < 0)
		return 0;
	op = &in->ops[i];
	if (op->opc == IR_CAST) {
		IrType t = ir_vtype(c->k, op->args[0]);

		if (!narrower(t, c->wide) || (c->narrow.base != IR_VOID && !ir_type_eq(t, c->narrow)))
			return 0;
		c->narrow = t;
		j = def_in(in, op->args[0], &ri);
		c->loaded |= j >= 0 && in->ops[j].opc == IR_LOAD;
		return 1;
	}
	if (op->opc == IR_CONST)
		return ir_vtype(c->k, v).lanes == 1;    /* exactness is checked once N is known */
	if (op->opc != IR_IF || depth > 0)
		return 0;
	for (j = 0; j < 2; j++) {
		IrRegion *b = &op->regions[j];

		if (!check(c, b, b->ops[b->nops - 1].args[ri], depth + 1))
			return 0;
	}
	return 1;
}

/* Whether every constant of the chain of v holds exactly in the narrow type. */
static int
consts_exact(const Chain *c, IrRegion *r, IrValue v)
{
	IrRegion *in;
	int ri, i, j;
	const IrOp *op;

	if ((c->arg && v == c->arg) || (i = lookup(c, r, v, &in, &ri)) < 0)
		return 1;
	op = &in->ops[i];
	if (op->opc == IR_CONST)
		return pass_round_float((IrBase)c->narrow.base, op->fimm) == op->fimm;
	if (op->opc != IR_IF)
		return 1;
	for (j = 0; j < 2; j++) {
		IrRegion *b = &op->regions[j];

		if (!consts_exact(c, b, b->ops[b->nops - 1].args[ri]))
			return 0;
	}
	return 1;
}

/* Inserts op into r at index at (the ops from there move up one). */
static void
insert_op(IrRegion *r, int at, const IrOp *op)
{
	ir_region_push(r, op);
	memmove(&r->ops[at + 1], &r->ops[at], sizeof *r->ops * (size_t)(r->nops - 1 - at));
	r->ops[at] = *op;
}

/* A new value of type t defined at loc. */
static IrValue
new_value(IrKernel *k, IrType t, SrcLoc loc)
{
	IrValue v = ir_new_value(k, t);

	k->vlocs[v] = loc;
	return v;
}

/* Appends value v to the array *vals of *n entries (arena memory: a new array). */
static void
append(IrKernel *k, IrValue **vals, int *n, IrValue v)
{
	IrValue *nv = arena_alloc(k->arena, sizeof *nv * (size_t)(*n + 1));

	if (*n)
		memcpy(nv, *vals, sizeof *nv * (size_t)*n);
	nv[(*n)++] = v;
	*vals = nv;
}

/* The narrow twin of v (a value of region r that check accepted), made where needed: a
 * constant's beside the constant (which may move the for: callers find it again). */
static IrValue
twin(Chain *c, IrRegion *r, IrValue v)
{
	IrRegion *in;
	int ri, i, j;
	IrOp *op, cst;
	IrValue nv;

	if (c->arg && v == c->arg)
		return c->narrow_arg;
	i = lookup(c, r, v, &in, &ri);
	op = &in->ops[i];
	if (op->opc == IR_CAST)
		return op->args[0];
	if (op->opc == IR_CONST) {
		ir_op_init(c->k, &cst, IR_CONST, 0, 1, 0, op->loc);
		cst.fimm = op->fimm;
		cst.res[0] = new_value(c->k, c->narrow, op->loc);
		insert_op(in, i, &cst);
		return cst.res[0];
	}
	/* an if of r: a new result, each branch yielding its twin (branch regions are arena
	 * memory, stable while r's op array moves) */
	nv = new_value(c->k, c->narrow, op->loc);
	append(c->k, &op->res, &op->nres, nv);
	for (j = 0; j < 2; j++) {
		IrRegion *b = &op->regions[j];
		IrValue t = twin(c, b, b->ops[b->nops - 1].args[ri]);
		IrOp *y = &b->ops[b->nops - 1];

		append(c->k, &y->args, &y->nargs, t);
	}
	return nv;
}

/* A cast of v to type t at index at of r; returns its result. */
static IrValue
insert_cast(IrKernel *k, IrRegion *r, int at, IrValue v, IrType t, SrcLoc loc)
{
	IrOp op;

	ir_op_init(k, &op, IR_CAST, 1, 1, 0, loc);
	op.args[0] = v;
	op.res[0] = new_value(k, t, loc);
	insert_op(r, at, &op);
	return op.res[0];
}

/* Carried value j of the `for` at index fi of r, if it has the shape: carried narrow. */
static void
narrow_one(IrKernel *k, IrRegion *r, int fi, int j)
{
	IrOp *f = &r->ops[fi];
	IrRegion *body = &f->regions[0];
	IrValue arg = body->args[1 + j], init = f->args[3 + j], next = body->ops[body->nops - 1].args[j];
	IrValue res = f->res[j], ninit, narg, nnext, nres;
	Chain c = {k, r, body, arg, 0, ir_vtype(k, res), {IR_VOID, 1, 0, 0}, 0};
	Chain ci = c;
	SrcLoc loc = f->loc;
	IrRewriter rw;
	int ri;

	if (c.wide.lanes != 1 || (c.wide.base != IR_F32 && c.wide.base != IR_F64))
		return;
	if (!check(&c, body, next, 0) || !c.loaded || c.narrow.base == IR_VOID)
		return;
	ci.arg = 0;
	ci.body = NULL;
	ci.narrow = c.narrow;
	if (!check(&ci, r, init, 0) || !consts_exact(&c, body, next) || !consts_exact(&ci, r, init))
		return;
	/* the twins first: their constants may go before the for, which moves it */
	ninit = twin(&ci, r, init);
	narg = new_value(k, c.narrow, loc);
	c.narrow_arg = narg;
	nnext = twin(&c, body, next);
	f = &r->ops[def_in(r, res, &ri)];
	append(k, &body->args, &body->nargs, narg);
	append(k, &body->ops[body->nops - 1].args, &body->ops[body->nops - 1].nargs, nnext);
	append(k, &f->args, &f->nargs, ninit);
	nres = new_value(k, c.narrow, loc);
	append(k, &f->res, &f->nres, nres);
	/* the old argument's uses read the twin converted at the top of the body, the old
	 * result's the twin's result converted after the loop (neither cast uses the old) */
	ir_rw_init(&rw, k);
	ir_rw_set(&rw, arg, insert_cast(k, body, 0, narg, c.wide, loc));
	fi = def_in(r, res, &ri);
	ir_rw_set(&rw, res, insert_cast(k, r, fi + 1, nres, c.wide, loc));
	ir_rw_apply(&rw, r);
	ir_rw_free(&rw);
}

/* Inner loops first: a carried value narrowed there is a cast after that loop, which an
 * outer loop's chain may then see. */
static void
narrow_region(IrKernel *k, IrRegion *r)
{
	int i, j, n, ri;

	for (i = 0; i < r->nops; i++) {
		IrValue key;

		for (j = 0; j < r->ops[i].nregions; j++)
			narrow_region(k, &r->ops[i].regions[j]);
		if (r->ops[i].opc != IR_FOR || r->ops[i].nres == 0)
			continue;
		key = r->ops[i].res[0];
		n = r->ops[i].nres;     /* the carried values before any twin joins them */
		for (j = 0; j < n; j++) {
			narrow_one(k, r, i, j);
			i = def_in(r, key, &ri);    /* a twin's constant may precede it now */
		}
	}
}

void
pass_narrow_carry(IrKernel *k, PassContext *cx)
{
	(void)cx;
	narrow_region(k, &k->body);
}
