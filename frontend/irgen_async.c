/* irgen_async.c: the async constructs -> IR (docs/language.md, "The async
 * machinery"; the ops are docs/ir.md's and ir/ops.def's async ones). The tables (tensor
 * map parameters, barriers, pipelines) come from the declarations; thread 0 initialises
 * every barrier at kernel entry; roles, elect, produce and consume become the high-level
 * region ops that passes/expand_async.c expands, with each role's hidden stage and phase per
 * pipeline carried like any mutable local and advanced after each produce/consume; the
 * calls become the low-level ops (wgmma and store are irgen_wgmma.c's). */
#include "ast.h"

#include <stdlib.h>
#include <string.h>

/* ---- tables and barrier initialisation ---- */

/* A pipeline and its full and empty barriers (b: the fields they share). In a CTA pair a
 * pipeline with an mma side counts on the leader's barrier the arrivals of both CTAs, so a
 * source other than mma or tma counts twice (ir_pair_pipeline). */
static void
add_pipeline(IrKernel *k, const Symbol *s, int pair, IrBarrier *b)
{
	IrPipeline p;
	int side, *mult[2] = {&p.full_mult, &p.empty_mult}, src[2];

	memset(&p, 0, sizeof p);
	p.name = arena_strdup(k->arena, s->name);
	p.stages = s->stages;
	p.full = s->bar[0];
	p.empty = s->bar[1];
	p.full_src = src[0] = s->src[0];
	p.full_mult = s->mult[0];
	p.empty_src = src[1] = s->src[1];
	p.empty_mult = s->mult[1];
	/* multicast loads fill other CTAs' stages: a stage is released in every CTA */
	p.empty_cluster = s->multicast;
	p.loc = s->loc;
	for (side = 0; side < 2; side++) {
		if (ir_pair_pipeline(&p, pair) && src[side] != PIPE_SRC_MMA && src[side] != PIPE_SRC_TMA)
			*mult[side] *= 2;
		b->name = arena_printf(k->arena, "%s.%s", s->name, side ? "empty" : "full");
		b->count = ir_pipe_count(k, &p, side, pair);
		b->n = s->stages;
		if (ir_add_barrier(k, *b) != s->bar[side])
			ICE("barrier '%s' is %d, expected %d", b->name, k->nbarriers - 1, s->bar[side]);
	}
	if (ir_add_pipeline(k, p) != s->index)
		ICE("pipeline '%s' is %d, expected %d", s->name, k->npipelines - 1, s->index);
}

void
irgen_async_tables(IrGen *G)
{
	IrKernel *k = G->k;
	const KernelInfo *info = G->info;
	int i, j;

	k->min_blocks = info->min_blocks;
	for (i = 0; i < 3; i++)
		k->cluster[i] = info->cluster[i];
	for (i = 0; i < info->ntmaps; i++) {
		const Symbol *s = info->tmaps[i];
		int first = s->ranks > 0, r;
		IrParam ip;

		memset(&ip, 0, sizeof ip);
		ip.name = arena_strdup(k->arena, s->name);
		ip.kind = PARAM_TMAP;
		ip.type = ir_scalar(IR_TMAP);
		ip.access = ACC_IN;
		ip.rank = s->rank - first;
		for (j = first; j < s->rank; j++) {
			ip.dims[j - first].sym = -1;
			ip.dims[j - first].size = s->dims[j];
		}
		ip.loc = s->loc;
		ip.swizzle = s->swizzle;
		ip.oob_nan = s->oob_nan;
		/* over a per_rank table: a map per rank's tensor, named map_r */
		for (r = 0; r < (s->ranks ? s->ranks : 1); r++) {
			if (s->ranks)
				ip.name = arena_printf(k->arena, "%s_%d", s->name, r);
			ip.tmap_tensor = s->tensor->param + r;
			if (ir_add_param(k, ip) != s->param + r)
				ICE("tensor map '%s' is parameter %d, expected %d", s->name, k->nparams - 1, s->param + r);
		}
	}
	for (i = 0; i < info->nhobjs; i++) {
		const Symbol *s = info->hobjs[i];
		IrBarrier b;

		memset(&b, 0, sizeof b);
		b.offset = -1;
		b.loc = s->loc;
		if (s->kind == SYM_MBARRIER) {
			b.name = arena_strdup(k->arena, s->name);
			b.count = s->count;
			b.n = 1;
			if (ir_add_barrier(k, b) != s->index)
				ICE("mbarrier '%s' is barrier %d, expected %d", s->name, k->nbarriers - 1, s->index);
			continue;
		}
		add_pipeline(k, s, info->cta_group == 2, &b);
	}
}

/* At the kernel's end, a cluster barrier when a pipeline has a cluster release (its
 * consumers arrive on the other CTAs' barriers, its multicast loads land in them): no CTA
 * may exit while another still reaches its shared memory. Reported at the pipeline. */
void
irgen_async_end(IrGen *G)
{
	const KernelInfo *info = G->info;
	int i;

	for (i = 0; i < info->nhobjs; i++)
		if (info->hobjs[i]->kind == SYM_PIPELINE && info->hobjs[i]->multicast) {
			G->b.loc = info->hobjs[i]->loc;
			irb_op(&G->b, IR_CLUSTER_SYNC, ir_scalar(IR_VOID), 0, NULL);
			return;
		}
}

/* Thread 0 initialises every mbarrier object with its arrival count, makes the inits
 * visible to the async proxy and the cluster, and a CTA (or cluster) barrier publishes
 * them before any thread uses one. */
void
irgen_async_init(IrGen *G)
{
	IrKernel *k = G->k;
	static const int tid[3] = {IR_TID_X, IR_TID_Y, IR_TID_Z};
	IrValue c = 0, zero;
	IrRegion *regs, *outer = G->b.r;
	int i, e;

	if (!k->nbarriers)
		return;
	zero = irgen_c32(G, 0);
	for (i = 0; i < 3; i++) {
		IrValue t;

		if (i > 0 && k->threads[i] == 1)
			continue;
		t = irb_op(&G->b, tid[i], ir_scalar(IR_I32), 0, NULL);
		t = irb_op2(&G->b, IR_CMP_EQ, ir_scalar(IR_I1), t, zero);
		c = c ? irb_op2(&G->b, IR_AND, ir_scalar(IR_I1), c, t) : t;
	}
	irb_region_op(&G->b, IR_IF, 1, &c, 0, NULL, &regs);
	G->b.r = &regs[0];
	for (i = 0; i < k->nbarriers; i++)
		for (e = 0; e < k->barriers[i].n; e++) {
			IrValue idx = irgen_c32(G, e);
			IrValue p = irb_imm(&G->b, IR_MBAR, ir_ptr(IR_SHARED, IR_I64), i, 1, &idx);

			irb_imm(&G->b, IR_MBAR_INIT, ir_scalar(IR_VOID), k->barriers[i].count, 1, &p);
		}
	irb_op(&G->b, IR_FENCE_MBAR_INIT, ir_scalar(IR_VOID), 0, NULL);
	irb_op(&G->b, IR_YIELD, ir_scalar(IR_VOID), 0, NULL);
	G->b.r = &regs[1];
	irb_op(&G->b, IR_YIELD, ir_scalar(IR_VOID), 0, NULL);
	G->b.r = outer;
	irb_op(&G->b, k->cluster[0] * k->cluster[1] * k->cluster[2] > 1 ? IR_CLUSTER_SYNC : IR_BARRIER,
	       ir_scalar(IR_VOID), 0, NULL);
}

/* ---- roles, elect, produce, consume ---- */

/* A region op whose body is s->body and whose results are the outer variables the body
 * assigns (with their current values as the initial ones when `inits`). The role's hidden
 * stages and phases start at 0 inside it. Returns the op's results. */
static void
ig_region(IrGen *G, Node *s, int opc, int nfixed, const IrValue *fixed, int inits, int64_t imm)
{
	int nslots = G->info->nslots;
	int *slots = xmalloc(sizeof(int) * (size_t)(nslots + 1));
	IrValue *saved = xmalloc(sizeof(IrValue) * (size_t)(nslots + 1));
	IrValue *args, *res;
	IrType *types;
	IrRegion *regs, *outer;
	IrOp *op;
	int n = 0, i;

	irgen_assigned_vars(s->body, s->slot_base, slots, &n);
	args = xmalloc(sizeof *args * (size_t)(nfixed + n + 1));
	for (i = 0; i < nfixed; i++)
		args[i] = fixed[i];
	for (i = 0; i < n && inits; i++)
		args[nfixed + i] = G->slots[slots[i]];
	types = irgen_carried_types(G, slots, n);
	G->b.loc = s->loc;
	op = irb_region_op(&G->b, opc, nfixed + (inits ? n : 0), args, n, types, &regs);
	op->imm = imm;
	res = op->res;
	memcpy(saved, G->slots, sizeof(IrValue) * (size_t)nslots);
	if (s->kind == N_ROLE) {
		outer = G->b.r;
		G->b.r = &regs[0];
		for (i = 0; i < 2 * (int)s->ival; i++)
			G->slots[s->hslot + i] = irgen_c32(G, 0);
		irgen_turn_start(G, s);
		G->b.r = outer;
		G->role = s;
	}
	irgen_into(G, &regs[0], s->body, NULL, slots, n, s->loc);
	if (s->kind == N_ROLE)
		G->role = NULL;
	memcpy(G->slots, saved, sizeof(IrValue) * (size_t)nslots);
	for (i = 0; i < n; i++)
		G->slots[slots[i]] = res[i];
	free(types);
	free(args);
	free(saved);
	free(slots);
}

static void
ig_async_block(IrGen *G, Node *s)
{
	const Symbol *p = s->sym;
	IrValue st[2];

	st[0] = G->slots[s->hslot];
	st[1] = G->slots[s->hslot + 1];
	if (G->nasync == FE_MAX_ASYNC)
		ICE("produce/consume nesting past %d", FE_MAX_ASYNC);
	G->async_pipe[G->nasync] = p->index;
	G->async_stage[G->nasync] = st[0];
	G->nasync++;
	G->nconsume += s->kind == N_CONSUME;
	ig_region(G, s, s->kind == N_PRODUCE ? IR_PRODUCE : IR_CONSUME, 2, st, 0, p->index);
	G->nconsume -= s->kind == N_CONSUME;
	G->nasync--;
	irgen_stage_advance(G, s);
}

void
irgen_stage_advance(IrGen *G, Node *s)
{
	const Symbol *p = s->sym;
	IrValue st[2], one, s1, wrap, ph;

	st[0] = G->slots[s->hslot];
	st[1] = G->slots[s->hslot + 1];
	/* stage' = stage + 1 == N ? 0 : stage + 1; phase flips when the stage wraps */
	G->b.loc = s->loc;
	one = irgen_c32(G, 1);
	s1 = irgen_op2(G, IR_ADD, st[0], one);
	wrap = irb_op2(&G->b, IR_CMP_EQ, ir_scalar(IR_I1), s1, irgen_c32(G, p->stages));
	G->slots[s->hslot] = irb_op3(&G->b, IR_SELECT, ir_scalar(IR_I32), wrap, irgen_c32(G, 0), s1);
	ph = irgen_op2(G, IR_XOR, st[1], one);
	G->slots[s->hslot + 1] = irb_op3(&G->b, IR_SELECT, ir_scalar(IR_I32), wrap, ph, st[1]);
}

int
irgen_async_stmt(IrGen *G, Node *s)
{
	IrValue fixed[3];

	switch (s->kind) {
	case N_TENSORMAP: case N_PIPELINE: case N_MBARRIER: case N_TMEM:
		return 1;   /* tables, made by irgen_async_tables */
	case N_ROLE:
		G->b.loc = s->loc;
		fixed[0] = irgen_c32(G, s->wlo);
		fixed[1] = irgen_c32(G, s->whi);
		fixed[2] = irgen_c32(G, s->regs);
		ig_region(G, s, IR_ROLE, 3, fixed, 1, s->leader);
		return 1;
	case N_ELECT:
		ig_region(G, s, IR_ELECT, 0, NULL, 1, 0);
		return 1;
	case N_PRODUCE: case N_CONSUME:
		ig_async_block(G, s);
		return 1;
	default:
		return 0;
	}
}

/* ---- calls ---- */

static IrValue
bar_of(IrGen *G, int index, IrValue elem)
{
	return irb_imm(&G->b, IR_MBAR, ir_ptr(IR_SHARED, IR_I64), index, 1, &elem);
}

/* The positional arguments of a call, and its named ones: named[i] is the one called
 * names[i] (NULL-terminated list) or NULL. Sema checked them. */
static int
call_args(Node *e, Node **pos, int max, const char *const *names, Node **named)
{
	Node *a;
	int n = 0, i;

	for (i = 0; names[i]; i++)
		named[i] = NULL;
	for (a = e->list.head; a; a = a->next)
		if (a->kind != N_NAMED) {
			if (n < max)
				pos[n++] = a;
		} else {
			for (i = 0; names[i] && strcmp(a->name, names[i]) != 0; i++)
				;
			if (!names[i])
				ICE("%s with the named argument '%s:' reached lowering", e->name, a->name);
			named[i] = a;
		}
	return n;
}

static const char *const tma_load_named[] = {"multicast", "part", NULL};
static const char *const tma_store_named[] = {"part", NULL};

/* The buffer pointer of tma_load's or tma_store's part p: p boxes of map into buf. */
static IrValue
part_ptr(IrGen *G, const Symbol *buf, const Symbol *map, Node *part)
{
	IrValue p = irgen_buffer(G, buf), v;
	int64_t box = 1;
	int i;

	if (!part)
		return p;
	for (i = 0; i < map->rank; i++)
		box *= map->dims[i];
	v = irgen_op2(G, IR_MUL, irgen_expr(G, part->lhs), irgen_c32(G, box));
	return irb_op2(&G->b, IR_ELEMPTR, ir_vtype(G->k, p), p, v);
}

/* The tensor map value of a tma_load or tma_store and its first coordinate: over a
 * per_rank table the first coordinate picks the rank's map (and is no coordinate of it). */
static IrValue
map_value(IrGen *G, const Symbol *map, Node **coord, SrcLoc loc)
{
	IrValue r;

	if (!map->ranks)
		return G->k->body.args[map->param];
	r = irgen_expr(G, *coord);
	*coord = (*coord)->next;
	return irgen_rank_pick(G, map->param, map->ranks, r, loc);
}

/* tma_load(buf, map, [coords], (bar,) multicast: mask, part: p): with part, the box lands
 * p boxes into the stage. */
static void
ig_tma_load(IrGen *G, Node *e)
{
	Node *args[4] = {0}, *named[2], *c;
	const Symbol *buf, *map;
	IrValue ops[4 + 5], v;
	int n = call_args(e, args, 4, tma_load_named, named), k = 0;

	if (n < 3)
		ICE("tma_load with %d arguments reached lowering", n);

	buf = args[0]->sym;
	map = args[1]->sym;
	c = args[2]->list.head;
	G->b.loc = e->loc;
	ops[k++] = part_ptr(G, buf, map, named[1]);
	ops[k++] = map_value(G, map, &c, e->loc);
	G->b.loc = e->loc;
	if (n == 4) {
		ops[k++] = bar_of(G, args[3]->sym->index, irgen_c32(G, 0));
	} else {
		v = irgen_stage(G, buf->pipe->index);
		ops[k++] = bar_of(G, buf->pipe->bar[0], v);
	}
	if (named[0])
		ops[k++] = irgen_expr(G, named[0]->lhs);
	for (; c; c = c->next)
		ops[k++] = irgen_expr(G, c);
	G->b.loc = e->loc;
	irb_imm(&G->b, named[0] ? IR_TMA_LOAD_MC : IR_TMA_LOAD, ir_scalar(IR_VOID), map->rank - (map->ranks > 0), k, ops);
}

static void
ig_tma_store(IrGen *G, Node *e)
{
	Node *args[3] = {0}, *named[1] = {0}, *c;
	const Symbol *map, *buf;
	IrValue ops[2 + 5];
	int k = 0;

	if (call_args(e, args, 3, tma_store_named, named) != 3)
		ICE("tma_store with %d arguments reached lowering", e->list.n);
	map = args[0]->sym;
	buf = args[2]->sym;
	c = args[1]->list.head;
	G->b.loc = e->loc;
	ops[k++] = map_value(G, map, &c, e->loc);
	G->b.loc = e->loc;
	ops[k++] = part_ptr(G, buf, map, named[0]);
	for (; c; c = c->next)
		ops[k++] = irgen_expr(G, c);
	G->b.loc = e->loc;
	irb_imm(&G->b, IR_TMA_STORE, ir_scalar(IR_VOID), map->rank - (map->ranks > 0), k, ops);
	irb_op(&G->b, IR_TMA_COMMIT, ir_scalar(IR_VOID), 0, NULL);
}

int
irgen_async_call(IrGen *G, Node *e, IrValue *v)
{
	Node *a;

	*v = 0;
	if (e->kind == N_NAME) {
		G->b.loc = e->loc;
		if (e->builtin == BI_WARPGROUP) {
			*v = irgen_warpgroup(G);
			return 1;
		}
		return 0;
	}
	switch (e->builtin) {
	case BI_TMA_LOAD: ig_tma_load(G, e); return 1;
	case BI_TMA_STORE: ig_tma_store(G, e); return 1;
	case BI_WGMMA: *v = irgen_wgmma(G, e); return 1;
	case BI_STORE: irgen_wgmma_store(G, e); return 1;
	case BI_FRAGMENT: *v = irgen_wgmma_fragment(G, e); return 1;
	case BI_ROW_MAX: case BI_ROW_SUM: case BI_BY_ROW: case BI_MASK_COLS: case BI_MASK_ABOVE:
		*v = irgen_frag_rows(G, e);
		return 1;
	case BI_STORE_ROWS: irgen_store_rows(G, e); return 1;
	case BI_BF16A: case BI_F16A: case BI_F32ACC: *v = irgen_wgmma_afrag(G, e); return 1;
	case BI_TCGEN05_MMA: irgen_tcgen05_mma(G, e); return 1;
	case BI_TMEM_STORE: irgen_tmem_store(G, e); return 1;
	case BI_TAKE_TURN: case BI_PASS_TURN: irgen_turn_call(G, e); return 1;
	case BI_TMA_STORE_WAIT: case BI_CLUSTER_SYNC:
		G->b.loc = e->loc;
		irb_op(&G->b, irgen_builtins[e->builtin].opcode, ir_scalar(IR_VOID), 0, NULL);
		return 1;
	case BI_FENCE_PROXY_ASYNC:
		G->b.loc = e->loc;
		irb_imm(&G->b, IR_FENCE_PROXY_ASYNC, ir_scalar(IR_VOID), e->ival, 0, NULL);
		return 1;
	case BI_MBAR_ARRIVE: case BI_MBAR_EXPECT_TX: case BI_MBAR_WAIT: {
		IrValue ops[2];

		a = e->list.head;
		if (a->next)
			ops[1] = irgen_expr(G, a->next);
		G->b.loc = e->loc;
		ops[0] = bar_of(G, a->sym->index, irgen_c32(G, 0));
		irb_op(&G->b, irgen_builtins[e->builtin].opcode, ir_scalar(IR_VOID), a->next ? 2 : 1, ops);
		return 1;
	}
	default:
		return 0;
	}
}
