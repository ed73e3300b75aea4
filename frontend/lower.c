/* lower.c: checked AST -> IR. Locals become SSA values: the lowering keeps the current
 * value of every local slot, and a structured statement that assigns variables declared
 * outside it passes their new values out: an `if` yields them as its results, a `for`
 * carries them as iteration arguments, a `while` through its condition and yield.
 * Tensor and shared elements become row-major i32 index arithmetic, elemptr and load or
 * store. Everything here was checked by sema; a surprise is an internal error. */
#include "ast.h"

#include <stdlib.h>
#include <string.h>


static IrType
vtype(Lower *L, IrValue v)
{
	return ir_vtype(L->k, v);
}

static IrValue
op1(Lower *L, int opc, IrType t, IrValue a)
{
	return irb_op1(&L->b, opc, t, a);
}

static IrValue
op2(Lower *L, int opc, IrType t, IrValue a, IrValue b)
{
	return irb_op2(&L->b, opc, t, a, b);
}

static IrValue
const_i32(Lower *L, int64_t v)
{
	return irb_const_int(&L->b, ir_scalar(IR_I32), v);
}

static IrValue
lower_const(Lower *L, Node *e)
{
	if (ir_is_frag(e->ty))
		return irb_const_float(&L->b, e->ty, e->cv.f);   /* a splat */
	if (e->ty.base > IR_F64 || e->ty.lanes != 1)
		ICE("constant of type %d reached lowering at %d:%d", e->ty.base, e->loc.line, e->loc.col);
	if (ir_is_float(e->ty))
		return irb_const_float(&L->b, e->ty, e->cv.f);
	return irb_const_int(&L->b, e->ty, e->cv.i);
}

/* The pointer to the element an N_INDEX on a tensor or shared array names: the base
 * pointer advanced by the row-major linear index of its (i32) indices. */
static IrValue
lower_elemptr(Lower *L, Node *e)
{
	const Symbol *s = e->sym;
	IrType pt;
	IrValue base, lin = 0;
	Node *ix;
	int i = 0;

	if (e->indexkind == IDX_REMOTE) {
		pt = ir_ptr(IR_CLUSTER, (IrBase)s->type.base);
		base = lower_hop_remote(L, e);
	} else if (s->kind == SYM_TENSOR) {
		pt = ir_ptr(IR_GLOBAL, (IrBase)s->type.base);
		base = L->k->body.args[s->param];
	} else {
		pt = ir_ptr(IR_SHARED, (IrBase)s->type.base);
		L->b.loc = e->loc;
		base = lower_hop_buffer(L, s);
	}
	for (ix = e->list.head; ix; ix = ix->next, i++) {
		IrValue v = lower_expr(L, ix);

		L->b.loc = e->loc;
		if (i == 0) {
			lin = v;
			continue;
		}
		if (s->kind == SYM_TENSOR && s->dimsym[i])
			lin = op2(L, IR_MUL, ir_scalar(IR_I32), lin, L->k->body.args[s->dimsym[i]->param]);
		else
			lin = op2(L, IR_MUL, ir_scalar(IR_I32), lin, const_i32(L, s->dims[i]));
		lin = op2(L, IR_ADD, ir_scalar(IR_I32), lin, v);
	}
	return op2(L, IR_ELEMPTR, pt, base, lin);
}

static int
readonly(const Symbol *s)
{
	return s->kind == SYM_TENSOR && s->access == ACC_IN;
}

static const int binop_opc[OP_COUNT] = {
	[OP_ADD] = IR_ADD, [OP_SUB] = IR_SUB, [OP_MUL] = IR_MUL, [OP_DIV] = IR_DIV,
	[OP_REM] = IR_REM, [OP_AND] = IR_AND, [OP_OR] = IR_OR, [OP_XOR] = IR_XOR,
	[OP_SHL] = IR_SHL, [OP_SHR] = IR_SHR, [OP_LAND] = IR_AND, [OP_LOR] = IR_OR,
	[OP_EQ] = IR_CMP_EQ, [OP_NE] = IR_CMP_NE, [OP_LT] = IR_CMP_LT, [OP_LE] = IR_CMP_LE,
	[OP_GT] = IR_CMP_GT, [OP_GE] = IR_CMP_GE,
};

static IrValue
binop(Lower *L, AstOp op, IrValue a, IrValue b)
{
	IrType t = op >= OP_EQ && op <= OP_GE ? ir_scalar(IR_I1) : vtype(L, a);

	return op2(L, binop_opc[op], t, a, b);
}

static const int special_opc[][3] = {
	[BI_THREAD] = {IR_TID_X, IR_TID_Y, IR_TID_Z},
	[BI_BLOCK] = {IR_CTAID_X, IR_CTAID_Y, IR_CTAID_Z},
	[BI_BLOCK_DIM] = {IR_NTID_X, IR_NTID_Y, IR_NTID_Z},
	[BI_GRID_DIM] = {IR_NCTAID_X, IR_NCTAID_Y, IR_NCTAID_Z},
};

static IrValue
lower_call(Lower *L, Node *e)
{
	static const int simple[BI_COUNT] = {
		[BI_EXP2] = IR_EXP2, [BI_LOG2] = IR_LOG2, [BI_RSQRT] = IR_RSQRT, [BI_SQRT] = IR_SQRT,
		[BI_FMA] = IR_FMA, [BI_MIN] = IR_MIN, [BI_MAX] = IR_MAX, [BI_ABS] = IR_ABS,
		[BI_SHFL_XOR] = IR_SHFL_XOR, [BI_SHFL_DOWN] = IR_SHFL_DOWN,
		[BI_SHFL_UP] = IR_SHFL_UP, [BI_SHFL_IDX] = IR_SHFL_IDX,
		[BI_ANY] = IR_VOTE_ANY, [BI_ALL] = IR_VOTE_ALL, [BI_BALLOT] = IR_BALLOT,
		[BI_ATOMIC_ADD] = IR_ATOM_ADD, [BI_ATOMIC_MIN] = IR_ATOM_MIN,
		[BI_ATOMIC_MAX] = IR_ATOM_MAX, [BI_ATOMIC_AND] = IR_ATOM_AND,
		[BI_ATOMIC_OR] = IR_ATOM_OR, [BI_ATOMIC_XCHG] = IR_ATOM_XCHG,
		[BI_ATOMIC_CAS] = IR_ATOM_CAS,
	};
	IrValue args[4], v;
	Node *a;
	int n = 0;

	if (lower_hop_call(L, e, &v))
		return v;
	if (e->builtin >= BI_ATOMIC_ADD && e->builtin <= BI_ATOMIC_CAS) {
		args[n++] = lower_elemptr(L, e->list.head);
		for (a = e->list.head->next; a; a = a->next)
			args[n++] = lower_expr(L, a);
	} else if (e->builtin == BI_CP_ASYNC) {
		args[n++] = lower_elemptr(L, e->list.head);
		args[n++] = lower_elemptr(L, e->list.head->next);
	} else if (e->builtin == BI_CP_ASYNC_WAIT) {
		/* a constant: the wait's attribute, not an operand */
	} else {
		for (a = e->list.head; a && n < 4; a = a->next)
			args[n++] = lower_expr(L, a);
	}
	L->b.loc = e->loc;
	switch (e->builtin) {
	case BI_CAST:
		if (ir_type_eq(vtype(L, args[0]), e->ty))
			return args[0];
		return op1(L, IR_CAST, e->ty, args[0]);
	case BI_VECTOR:
		if (n == 1) {
			IrValue lanes[4] = {args[0], args[0], args[0], args[0]};

			return irb_op(&L->b, IR_VEC, e->ty, e->ty.lanes, lanes);
		}
		return irb_op(&L->b, IR_VEC, e->ty, n, args);
	case BI_CDIV: {
		/* (a + (b - 1)) / b: the caller promises a >= 0 and b > 0 */
		IrType t = vtype(L, args[0]);
		IrValue bm1 = op2(L, IR_SUB, t, args[1], irb_const_int(&L->b, t, 1));

		return op2(L, IR_DIV, t, op2(L, IR_ADD, t, args[0], bm1), args[1]);
	}
	case BI_BARRIER:
		irb_op(&L->b, IR_BARRIER, ir_scalar(IR_VOID), 0, NULL);
		return 0;
	case BI_CP_ASYNC:
		irb_imm(&L->b, IR_CP_ASYNC, ir_scalar(IR_VOID), ir_type_bytes(e->list.head->ty), 2, args);
		return 0;
	case BI_CP_ASYNC_COMMIT:
		irb_op(&L->b, IR_CP_ASYNC_COMMIT, ir_scalar(IR_VOID), 0, NULL);
		return 0;
	case BI_CP_ASYNC_WAIT:
		irb_imm(&L->b, IR_CP_ASYNC_WAIT, ir_scalar(IR_VOID), e->list.head->cv.i, 0, NULL);
		return 0;
	default:
		if (!simple[e->builtin])
			ICE("lower_call: builtin %d", e->builtin);
		return irb_op(&L->b, simple[e->builtin], e->ty, n, args);
	}
}

IrValue
lower_expr(Lower *L, Node *e)
{
	IrValue a, b, c;

	if (e->isconst) {
		L->b.loc = e->loc;
		return lower_const(L, e);
	}
	switch (e->kind) {
	case N_NAME:
		L->b.loc = e->loc;
		switch (e->sym->kind) {
		case SYM_SCALAR:
		case SYM_SHAPE:
			return L->k->body.args[e->sym->param];
		case SYM_LET:
		case SYM_VAR:
		case SYM_ITER:
			return L->slots[e->sym->slot];
		case SYM_BUILTIN:
			if (lower_hop_call(L, e, &a))
				return a;
			return irb_op(&L->b, e->sym->builtin == BI_LANE ? IR_LANEID : IR_WARPID,
				      ir_scalar(IR_I32), 0, NULL);
		default:
			break;
		}
		break;
	case N_MEMBER:
		if (e->builtin) {
			L->b.loc = e->loc;
			return irb_op(&L->b, special_opc[e->builtin][e->lane], ir_scalar(IR_I32), 0, NULL);
		}
		a = lower_expr(L, e->lhs);
		L->b.loc = e->loc;
		return irb_imm(&L->b, IR_EXTRACT, e->ty, e->lane, 1, &a);
	case N_UNARY:
		a = lower_expr(L, e->lhs);
		L->b.loc = e->loc;
		return op1(L, e->op == OP_NEG ? IR_NEG : IR_NOT, e->ty, a);
	case N_BINARY:
		a = lower_expr(L, e->lhs);
		b = lower_expr(L, e->rhs);
		L->b.loc = e->loc;
		if (ir_is_frag(e->ty) && !ir_type_eq(vtype(L, a), vtype(L, b))) {
			/* an accumulator fragment and an f32: the f32 in every lane */
			IrValue lanes[IR_FRAG_MAX];
			IrValue s = ir_is_frag(vtype(L, a)) ? b : a;
			int i;

			for (i = 0; i < e->ty.lanes; i++)
				lanes[i] = s;
			s = irb_op(&L->b, IR_VEC, e->ty, e->ty.lanes, lanes);
			if (ir_is_frag(vtype(L, a)))
				b = s;
			else
				a = s;
		}
		return binop(L, e->op, a, b);
	case N_COND:
		c = lower_expr(L, e->cond);
		a = lower_expr(L, e->lhs);
		b = lower_expr(L, e->rhs);
		L->b.loc = e->loc;
		return irb_op3(&L->b, IR_SELECT, e->ty, c, a, b);
	case N_CALL:
		return lower_call(L, e);
	case N_INDEX:
		if (e->indexkind == IDX_LANE) {
			a = lower_expr(L, e->lhs);
			L->b.loc = e->loc;
			return irb_imm(&L->b, IR_EXTRACT, e->ty, e->lane, 1, &a);
		}
		a = lower_elemptr(L, e);
		return irb_imm(&L->b, IR_LOAD, e->ty, readonly(e->sym), 1, &a);
	default:
		break;
	}
	ICE("lower_expr: node kind %d at %d:%d", e->kind, e->loc.line, e->loc.col);
}

/* ---- statements ---- */

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
lower_assigned_vars(const Node *s, int base, int *out, int *n)
{
	const Node *c;

	if (!s)
		return;
	switch (s->kind) {
	case N_ASSIGN:
		if (s->lhs->kind != N_NAME || s->lhs->sym->kind != SYM_VAR)
			return;
		add_slot(s->lhs->sym->slot, base, out, n);
		return;
	case N_PRODUCE:
	case N_CONSUME:
		/* the pipeline's hidden stage and phase advance after the block */
		add_slot(s->hslot, base, out, n);
		add_slot(s->hslot + 1, base, out, n);
		lower_assigned_vars(s->body, base, out, n);
		return;
	case N_ROLE:
	case N_ELECT:
		lower_assigned_vars(s->body, base, out, n);
		return;
	case N_BLOCK:
		for (c = s->list.head; c; c = c->next)
			lower_assigned_vars(c, base, out, n);
		return;
	case N_IF:
		lower_assigned_vars(s->body, base, out, n);
		lower_assigned_vars(s->els, base, out, n);
		return;
	case N_FOR:
	case N_WHILE:
		lower_assigned_vars(s->body, base, out, n);
		return;
	default:
		return;
	}
}

/* The current values of the carried slots. */
static IrValue *
carried_values(Lower *L, const int *slots, int n)
{
	IrValue *v = xmalloc(sizeof *v * (size_t)(n + 1));
	int i;

	for (i = 0; i < n; i++)
		v[i] = L->slots[slots[i]];
	return v;
}

IrType *
lower_carried_types(Lower *L, const int *slots, int n)
{
	IrType *t = xmalloc(sizeof *t * (size_t)(n + 1));
	int i;

	for (i = 0; i < n; i++)
		t[i] = vtype(L, L->slots[slots[i]]);
	return t;
}

/* Gives region r fresh arguments: `first` (if not void) and then one per carried slot,
 * which become those slots' current values. */
static void
region_args(Lower *L, IrRegion *r, IrType first, const int *slots, int n, IrValue *first_v)
{
	IrValue *args = xmalloc(sizeof *args * (size_t)(n + 2));
	int i, k = 0;

	if (first.base != IR_VOID)
		args[k++] = *first_v = ir_new_value(L->k, first);
	for (i = 0; i < n; i++) {
		IrValue v = ir_new_value(L->k, vtype(L, L->slots[slots[i]]));

		L->k->vlocs[v] = L->b.loc;
		args[k++] = v;
	}
	ir_region_set_args(L->k, r, k, args);
	for (i = 0; i < n; i++)
		L->slots[slots[i]] = args[(first.base != IR_VOID) + i];
	free(args);
}

/* Ends region r (the builder is in it) with a terminator passing the carried values. */
static void
terminate(Lower *L, int opc, IrValue cond, const int *slots, int n)
{
	IrValue *v = xmalloc(sizeof *v * (size_t)(n + 2));
	int i, k = 0;

	if (cond)
		v[k++] = cond;
	for (i = 0; i < n; i++)
		v[k++] = L->slots[slots[i]];
	irb_op(&L->b, opc, ir_scalar(IR_VOID), k, v);
	free(v);
}

/* Lowers `body` into region r, then yields the carried slots; restores the builder. */
void
lower_into(Lower *L, IrRegion *r, Node *body, const int *slots, int n, SrcLoc end)
{
	IrRegion *saved = L->b.r;

	L->b.r = r;
	if (body)
		lower_block(L, body);
	L->b.loc = end;
	terminate(L, IR_YIELD, 0, slots, n);
	L->b.r = saved;
}

static void lower_stmt(Lower *L, Node *s);

static void
lower_if(Lower *L, Node *s)
{
	int *slots = xmalloc(sizeof(int) * (size_t)(L->info->nslots + 1));
	IrValue *saved = xmalloc(sizeof(IrValue) * (size_t)(L->info->nslots + 1));
	int n = 0, i;
	IrRegion *regs;
	IrValue c, *res;
	IrType *types;

	lower_assigned_vars(s, s->slot_base, slots, &n);
	c = lower_expr(L, s->cond);
	L->b.loc = s->loc;
	types = lower_carried_types(L, slots, n);
	res = irb_region_op(&L->b, IR_IF, 1, &c, n, types, &regs)->res;
	memcpy(saved, L->slots, sizeof(IrValue) * (size_t)L->info->nslots);
	lower_into(L, &regs[0], s->body, slots, n, s->loc);
	memcpy(L->slots, saved, sizeof(IrValue) * (size_t)L->info->nslots);
	lower_into(L, &regs[1], s->els, slots, n, s->loc);
	memcpy(L->slots, saved, sizeof(IrValue) * (size_t)L->info->nslots);
	for (i = 0; i < n; i++)
		L->slots[slots[i]] = res[i];
	free(types);
	free(saved);
	free(slots);
}

static void
lower_for(Lower *L, Node *s)
{
	int *slots = xmalloc(sizeof(int) * (size_t)(L->info->nslots + 1));
	IrValue *args, *res, iv;
	IrType *types;
	IrRegion *regs, *outer;
	IrOp *op;
	int n = 0, i;

	lower_assigned_vars(s, s->slot_base, slots, &n);
	args = xmalloc(sizeof *args * (size_t)(n + 3));
	args[0] = lower_expr(L, s->lo);
	args[1] = lower_expr(L, s->hi);
	if (s->step) {
		args[2] = lower_expr(L, s->step);
	} else {
		L->b.loc = s->loc;
		args[2] = const_i32(L, 1);
	}
	for (i = 0; i < n; i++)
		args[3 + i] = L->slots[slots[i]];
	types = lower_carried_types(L, slots, n);
	L->b.loc = s->loc;
	op = irb_region_op(&L->b, IR_FOR, 3 + n, args, n, types, &regs);
	op->imm = s->op == UNROLL_FULL ? -1 : s->op == UNROLL_COUNT ? s->unroll_n->cv.i : 0;
	res = op->res;
	region_args(L, &regs[0], ir_scalar(IR_I32), slots, n, &iv);
	L->k->vlocs[iv] = s->loc;
	L->slots[s->sym->slot] = iv;
	outer = L->b.r;
	L->b.r = &regs[0];
	lower_block(L, s->body);
	L->b.loc = s->loc;
	terminate(L, IR_YIELD, 0, slots, n);
	L->b.r = outer;
	for (i = 0; i < n; i++)
		L->slots[slots[i]] = res[i];
	free(types);
	free(args);
	free(slots);
}

static void
lower_while(Lower *L, Node *s)
{
	int *slots = xmalloc(sizeof(int) * (size_t)(L->info->nslots + 1));
	IrValue *init, *res, c, unused;
	IrType *types;
	IrRegion *regs, *outer;
	int n = 0, i;

	lower_assigned_vars(s, s->slot_base, slots, &n);
	init = carried_values(L, slots, n);
	types = lower_carried_types(L, slots, n);
	L->b.loc = s->loc;
	res = irb_region_op(&L->b, IR_WHILE, n, init, n, types, &regs)->res;
	outer = L->b.r;

	region_args(L, &regs[0], ir_scalar(IR_VOID), slots, n, &unused);
	L->b.r = &regs[0];
	c = lower_expr(L, s->cond);
	L->b.loc = s->loc;
	terminate(L, IR_CONDITION, c, slots, n);

	region_args(L, &regs[1], ir_scalar(IR_VOID), slots, n, &unused);
	L->b.r = &regs[1];
	lower_block(L, s->body);
	L->b.loc = s->loc;
	terminate(L, IR_YIELD, 0, slots, n);
	L->b.r = outer;
	for (i = 0; i < n; i++)
		L->slots[slots[i]] = res[i];
	free(types);
	free(init);
	free(slots);
}

static void
lower_assign(Lower *L, Node *s)
{
	Node *lhs = s->lhs;
	IrValue v, p, old;

	if (lhs->kind == N_NAME) {
		v = lower_expr(L, s->rhs);
		if (s->op != OP_NONE) {
			L->b.loc = s->loc;
			v = binop(L, s->op, L->slots[lhs->sym->slot], v);
		}
		L->slots[lhs->sym->slot] = v;
		return;
	}
	p = lower_elemptr(L, lhs);
	v = lower_expr(L, s->rhs);
	L->b.loc = s->loc;
	if (s->op != OP_NONE) {
		old = irb_imm(&L->b, IR_LOAD, lhs->ty, 0, 1, &p);
		v = binop(L, s->op, old, v);
	}
	irb_op2(&L->b, IR_STORE, ir_scalar(IR_VOID), p, v);
}

static void
lower_stmt(Lower *L, Node *s)
{
	switch (s->kind) {
	case N_LET:
	case N_VAR:
		L->slots[s->sym->slot] = lower_expr(L, s->init);
		break;
	case N_SHARED:
		break;
	case N_ASSIGN:
		lower_assign(L, s);
		break;
	case N_IF:
		lower_if(L, s);
		break;
	case N_FOR:
		lower_for(L, s);
		break;
	case N_WHILE:
		lower_while(L, s);
		break;
	case N_BLOCK:
		lower_block(L, s);
		break;
	case N_EXPRSTMT:
		lower_expr(L, s->lhs);
		break;
	default:
		if (!lower_hop_stmt(L, s))
			ICE("lower_stmt: node kind %d", s->kind);
	}
}

/* A block, or the `else if` statement that stands for one. */
void
lower_block(Lower *L, Node *b)
{
	Node *s;

	if (b->kind != N_BLOCK) {
		lower_stmt(L, b);
		return;
	}
	for (s = b->list.head; s; s = s->next)
		lower_stmt(L, s);
}

/* ---- kernels ---- */

static void
add_params(Lower *L, Node *kernel)
{
	IrKernel *k = L->k;
	const Node *pn;
	int i;

	for (pn = kernel->list.head; pn; pn = pn->next) {
		const Symbol *s = pn->sym;
		IrParam ip;

		memset(&ip, 0, sizeof ip);
		ip.name = arena_strdup(k->arena, pn->name);
		ip.loc = pn->loc;
		if (s->kind == SYM_SCALAR) {
			ip.kind = PARAM_SCALAR;
			ip.type = s->type;
			ip.access = ACC_IN;
		} else {
			ip.kind = PARAM_TENSOR;
			ip.type = ir_ptr(IR_GLOBAL, (IrBase)s->type.base);
			ip.access = s->access;
			ip.rank = s->rank;
			for (i = 0; i < s->rank; i++) {
				ip.dims[i].sym = s->dimsym[i] ? s->dimsym[i]->param : -1;
				ip.dims[i].size = s->dimsym[i] ? 0 : s->dims[i];
			}
		}
		ir_add_param(k, ip);
	}
	for (i = 0; i < L->info->nsyms; i++) {
		const Symbol *s = L->info->syms[i];
		IrParam ip;

		memset(&ip, 0, sizeof ip);
		ip.name = arena_strdup(k->arena, s->name);
		ip.kind = PARAM_SYM;
		ip.type = ir_scalar(IR_I32);
		ip.loc = s->loc;
		if (ir_add_param(k, ip) != s->param)
			ICE("shape symbol '%s' is parameter %d, expected %d", s->name, k->nparams - 1, s->param);
	}
}

static void
add_buffers(Lower *L)
{
	int i, j;

	for (i = 0; i < L->info->nshared; i++) {
		const Symbol *s = L->info->shared[i];
		IrBuffer b;

		memset(&b, 0, sizeof b);
		b.name = arena_strdup(L->k->arena, s->name);
		b.elem = (IrBase)s->type.base;
		b.rank = s->rank;
		b.count = 1;
		for (j = 0; j < s->rank; j++) {
			b.dims[j] = s->dims[j];
			b.count *= s->dims[j];
		}
		b.align = s->align;
		b.offset = -1;
		b.loc = s->loc;
		b.stages = s->stages > 0 ? s->stages : 1;
		b.pipeline = s->pipe ? s->pipe->index : -1;
		b.swizzle = s->swizzle;
		b.alias = s->alias ? s->alias->buf : -1;
		if (ir_add_buffer(L->k, b) != s->buf)
			ICE("shared array '%s' is buffer %d, expected %d", s->name, L->k->nbufs - 1, s->buf);
	}
}

IrKernel *
lower_kernel(Parser *p, Node *kernel, const KernelInfo *info, const char *path)
{
	Lower L;
	IrKernel *k = ir_kernel_new(kernel->name, p->file);
	int i;

	memset(&L, 0, sizeof L);
	L.k = k;
	L.info = info;
	k->source = arena_strdup(k->arena, path);
	k->targets = info->targets;
	for (i = 0; i < 3; i++) {
		k->threads[i] = info->threads[i];
		k->grid[i] = arena_strdup(k->arena, info->grid[i]);
	}
	add_params(&L, kernel);
	add_buffers(&L);
	L.slots = xcalloc((size_t)info->nslots + 1, sizeof *L.slots);
	L.b.k = k;
	L.b.r = &k->body;
	L.b.loc = kernel->body->loc;
	lower_hop_tables(&L);
	lower_hop_init(&L);
	lower_block(&L, kernel->body);
	L.b.loc = kernel->body->loc;
	irb_op(&L.b, IR_RET, ir_scalar(IR_VOID), 0, NULL);
	free(L.slots);
	return k;
}
