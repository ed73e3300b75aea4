/* mma_tcgen05.c: sema of tensor memory and the tcgen05 MMA (docs/language.md, "Blackwell:
 * tensor memory and tcgen05"): `tmem` declarations (their columns in the CTA's one
 * allocation; f32 or f16 accumulators, or `packed` bf16/f16 A operands, two elements per
 * 32-bit cell), tcgen05_mma(D, A, B, accumulate:
 * E) with A in shared or tensor memory, tmem_load(D, lane0, col0) as a
 * register array's initializer and the statement tmem_store(D, lane0, col0, r), with the
 * rules that need the language's view: where each may run (the MMA in one thread and, for
 * a staged accumulator, inside its pipeline's produce block; loads and stores by whole
 * warps inside its consume block, stores only into a staged one), and the write-after-read
 * hazard of an unstaged accumulator shared by two roles. The lane-quarter rule is
 * schedule-check's (it evaluates lane0 per thread); target gating and shapes the verifier
 * re-checks on the IR. */
#include "async.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *
role_name(const Node *r)
{
	return r ? r->name : "(no role)";
}

/* The innermost produce or consume block of pipeline p around the call, or NULL. */
static Node *
block_of(const AsyncSema *h, const Symbol *p)
{
	int i;

	for (i = h->nasync - 1; i >= 0; i--)
		if (h->async[i]->sym == p)
			return h->async[i];
	return NULL;
}

/* ---- tmem NAME: f32[128, COLS] [in PIPELINE]; (or f16; bf16/f16 ... packed: an A operand) ---- */

/* A packed tmem (bf16 or f16) holds an MMA's A operand, two elements per 32-bit column;
 * any other is an accumulator (f32, or f16 one per column). */
static int
tmem_dims(Sema *S, Node *s, Symbol *sym)
{
	Node *d = s->type->list.head;
	int64_t v;

	if (s->type->list.n != 2) {
		diag_error(s->type->loc, "tensor memory '%s' has 2 dimensions, lanes and columns: f32[128, COLS]",
			   s->name);
		return 0;
	}
	if (!sema_const_int(S, d, "the lanes of tensor memory", &v))
		return 0;
	if (v != TMEM_LANES) {
		diag_error(d->loc, "tensor memory '%s' has %d lanes (one per row of a 128-row MMA tile), found %lld",
			   s->name, TMEM_LANES, (long long)v);
		return 0;
	}
	sym->dims[0] = v;
	d = d->next;
	if (!sema_const_int(S, d, "the columns of tensor memory", &v))
		return 0;
	if (v < 8 || v > 256 || v % 8) {
		diag_error(d->loc, "tensor memory '%s' has %lld columns; %s has 8 to 256, a multiple of 8 (%s)", s->name,
			   (long long)v, sym->packed ? "a packed A operand" : "an accumulator",
			   sym->packed ? "K / 2: 8 per MMA's 16 elements of K" : "the MMA's N");
		return 0;
	}
	sym->dims[1] = v;
	sym->rank = 2;
	return 1;
}

void
asy_tmem(Sema *S, Node *s)
{
	AsyncSema *h = S->asy;
	Symbol *sym;
	Node *a;
	IrType t;
	int ok = asy_top_level(S, s, "tensor memory");

	sym = sema_declare(S, SYM_TMEM, s->name, s->loc, s);
	s->sym = sym;
	sym->type = fe_ty(TY_ERROR);
	sym->stages = 1;
	if (!fe_type_from_name(s->type->name, &t)) {
		diag_error(s->type->loc, "unknown type '%s'", s->type->name);
		return;
	}
	/* An f16 D takes a whole 32-bit cell per element (its low half: PTX ISA, tcgen05 "Packing
	 * format for matrix D in Tensor Memory"), so both types count COLS columns; a packed A
	 * operand two 16-bit elements per cell. */
	for (a = s->attrs.head; a; a = a->next) {
		if (a->lhs)
			continue;
		if (strcmp(a->name, "packed") != 0 || sym->packed) {
			diag_error(a->loc, "tensor memory takes the attributes 'in PIPELINE' and 'packed' (an MMA operand A), found '%s'%s",
				   a->name, sym->packed ? " twice" : "");
			ok = 0;
			continue;
		}
		sym->packed = 1;
	}
	if (sym->packed && ((t.base != IR_BF16 && t.base != IR_F16) || t.lanes != 1)) {
		diag_error(s->type->loc, "tensor memory '%s' is packed (an MMA operand A, two 16-bit elements per column): its type is bf16 or f16, found %s",
			   s->name, s->type->name);
		ok = 0;
	} else if (!sym->packed && ((t.base != IR_F32 && t.base != IR_F16) || t.lanes != 1)) {
		diag_error(s->type->loc, "tensor memory '%s' holds f32 or f16 accumulators, found %s%s", s->name,
			   s->type->name, t.base == IR_BF16 && t.lanes == 1 ? " (a tmem that holds an MMA operand A is declared 'packed')" : "");
		ok = 0;
	}
	ok &= tmem_dims(S, s, sym);
	for (a = s->attrs.head; a; a = a->next) {
		Symbol *p;

		if (!a->lhs)
			continue;
		if (strcmp(a->name, "in") != 0 || sym->pipe) {
			diag_error(a->loc, "tensor memory takes the attributes 'in PIPELINE' (once) and 'packed', found '%s'", a->name);
			ok = 0;
			continue;
		}
		p = asy_name_of(S, a->lhs, SYM_PIPELINE, "'in'", "a pipeline");
		if (!p) {
			ok = 0;
			continue;
		}
		if (p->src[0] != PIPE_SRC_MMA) {
			diag_error(a->lhs->loc, "tensor memory '%s' is in pipeline '%s', whose full source is %s; its stages are filled by MMAs: declare the pipeline with 'full: mma'",
				   s->name, p->name, ir_pipe_source_name(p->src[0]));
			ok = 0;
			continue;
		}
		sym->pipe = p;
		sym->stages = p->stages;
	}
	if (!ok)
		return;
	if (h->tmem_used + sym->dims[1] * sym->stages > TMEM_COLS) {
		diag_error(s->loc, "tensor memory '%s' needs %lld columns (%lld x %d stages), but only %d of the CTA's %d are left",
			   s->name, (long long)(sym->dims[1] * sym->stages), (long long)sym->dims[1], sym->stages,
			   TMEM_COLS - h->tmem_used, TMEM_COLS);
		return;
	}
	sym->col = h->tmem_used;
	h->tmem_used += (int)(sym->dims[1] * sym->stages);
	sym->type = t;
	sym->index = h->ntmems;
	PUSH(h->tmems, h->ntmems, h->captmems, sym);
}

/* ---- tcgen05_mma(D, A, B, accumulate: E) ---- */

/* An MMA operand in shared memory: rows x K, K-major, bf16, f16, e4m3 or e5m2, one
 * 128-byte swizzle span per row (the descriptor form the expansion builds). */
static int
mma_operand(Node *a, const Symbol *b, const char *which)
{
	int64_t k = b->dims[1];

	if (b->rank != 2) {
		diag_error(a->loc, "tcgen05_mma operand %s '%s' must have 2 dimensions (rows, K), found %d", which,
			   b->name, b->rank);
		return 0;
	}
	if (b->type.base != IR_BF16 && b->type.base != IR_F16 && b->type.base != IR_E4M3 &&
	    b->type.base != IR_E5M2) {
		diag_error(a->loc, "tcgen05_mma operand %s '%s' holds %s; tcgen05_mma takes bf16, f16, e4m3 or e5m2",
			   which, b->name, fe_tname(b->type));
		return 0;
	}
	if (b->swizzle != 128 || k * asy_elem_bytes(b->type) != 128) {
		diag_error(a->loc, "tcgen05_mma operand %s '%s' must be K-major with rows of one 128-byte swizzle span: %s[rows, %d] swizzle(128)",
			   which, b->name, fe_tname(b->type), (int)(128 / asy_elem_bytes(b->type)));
		return 0;
	}
	return 1;
}

/* The accumulator's write rules: one thread, inside its pipeline's produce block. */
static int
mma_place(Sema *S, Node *e, Symbol *d)
{
	AsyncSema *h = S->asy;
	Node *blk;

	if (!h->in_elect) {
		diag_error(e->loc, "tcgen05_mma is issued by one thread: write it inside elect { ... }");
		return 0;
	}
	if (d->pipe && !d->wrole) {
		d->wrole = h->role;
		d->wloc = e->loc;
	}
	if (d->pipe) {
		blk = block_of(h, d->pipe);
		if (!blk || blk->kind != N_PRODUCE) {
			diag_error(e->loc, "tcgen05_mma writes tensor memory '%s' of pipeline '%s' only inside 'produce %s', which selects the stage and commits it to the readers",
				   d->name, d->pipe->name, d->pipe->name);
			return 0;
		}
		return 1;
	}
	if (!d->wrole) {
		d->wrole = h->role;
		d->wloc = e->loc;
		if (!d->rrole || d->rrole == h->role)
			return 1;
	} else if (!d->rrole || d->rrole == h->role) {
		return 1;
	}
	diag_error(e->loc, "tcgen05_mma writes tensor memory '%s' in role '%s' while role '%s' reads it with tmem_load: the next MMA may overwrite columns not yet read; declare it 'in PIPELINE' (full: mma) so that the reader releases each stage",
		   d->name, role_name(h->role), role_name(d->rrole));
	diag_note(d->rloc, "the tmem_load is here");
	return 0;
}

/* A from tensor memory (the .kind::f16 "A in tensor memory" form): a bf16 or f16 tmem, row
 * i of A in lane i, elements 2j and 2j + 1 of a row in column j (low, high half), so its
 * COLS columns hold K = 2 x COLS, B's element type and K. The ordering is the
 * accumulator's: staged, and read inside produce of its pipeline, whose wait follows the
 * release of the consume that stored it (tcgen05.wait.st, fence.before, the arrive) and
 * whose commit tells the next consume that the MMAs have read it. */
static int
mma_tmem_a(Sema *S, Node *an, Symbol *a, const Symbol *b)
{
	Node *blk;

	if (!a->packed) {
		diag_error(an->loc, "tcgen05_mma takes A from packed tensor memory (bf16 or f16, two elements per column), but '%s' is an accumulator (%s, one element per column): declare A's tmem 'packed'",
			   a->name, fe_tname(a->type));
		diag_note(a->loc, "'%s' is declared here", a->name);
		return 0;
	}
	if (S->asy->ki->cta_group == 2) {
		diag_error(an->loc, "tcgen05_mma with A from tensor memory '%s' is not supported with cta_group(2) (each CTA would store its 128 rows of A and the leader's MMA wait for both)",
			   a->name);
		return 0;
	}
	if (a->type.base != b->type.base || 2 * a->dims[1] != b->dims[1]) {
		diag_error(an->loc, "tcgen05_mma operands A '%s' (%s, K = %lld in %lld columns) and B '%s' (%s, K = %lld) differ",
			   a->name, fe_tname(a->type), (long long)(2 * a->dims[1]), (long long)a->dims[1], b->name,
			   fe_tname(b->type), (long long)b->dims[1]);
		return 0;
	}
	if (!a->pipe) {
		diag_error(an->loc, "tcgen05_mma reads A from tensor memory '%s', which is in no pipeline: nothing would order the tmem_store of A before the MMA; declare it 'in PIPELINE' (full: mma) and store it inside 'consume PIPELINE'",
			   a->name);
		return 0;
	}
	if (!a->rrole) {        /* --report=tmem: an A operand is read by the MMA's role */
		a->rrole = S->asy->role;
		a->rloc = an->loc;
	}
	blk = block_of(S->asy, a->pipe);
	if (!blk || blk->kind != N_PRODUCE) {
		diag_error(an->loc, "tcgen05_mma reads A from tensor memory '%s' of pipeline '%s' only inside 'produce %s', which waits for the release of the consume block that stored it",
			   a->name, a->pipe->name, a->pipe->name);
		return 0;
	}
	return 1;
}

/* Operand A: tensor memory, or else a shared array. */
static Symbol *
mma_a_arg(Sema *S, Node *an)
{
	Symbol *s = an->kind == N_NAME ? sema_lookup(S, an->name) : NULL;

	if (s && s->kind == SYM_TMEM)
		return asy_name_of(S, an, SYM_TMEM, "tcgen05_mma", "tensor memory");
	return asy_buffer_arg(S, an, "tcgen05_mma");
}

/* A shared A of 128 rows with B's element type and K. */
static int
mma_smem_a(Node **pos, const Symbol *a, const Symbol *b)
{
	if (a->dims[0] != TMEM_LANES) {
		diag_error(pos[1]->loc, "tcgen05_mma operand A '%s' has %lld rows; it takes %d (M = 128, one per TMEM lane)",
			   a->name, (long long)a->dims[0], TMEM_LANES);
		return 0;
	}
	if (a->type.base != b->type.base || a->dims[1] != b->dims[1]) {
		diag_error(pos[2]->loc, "tcgen05_mma operands A '%s' (%s, K = %lld) and B '%s' (%s, K = %lld) differ",
			   a->name, fe_tname(a->type), (long long)a->dims[1], b->name, fe_tname(b->type),
			   (long long)b->dims[1]);
		return 0;
	}
	return 1;
}

void
asy_tcgen05_mma(Sema *S, Node *e)
{
	Node *pos[3], *acc;
	Symbol *d, *a, *b;
	int n = asy_split_args(e, pos, 3, ASY_NAMES("accumulate"), &acc);

	e->ty = ir_scalar(IR_VOID);
	if (n < 0 || !asy_want_nargs(e, n, 3, 3, "tensor memory, operands A and B and accumulate: E"))
		return;
	if (!acc) {
		diag_error(e->loc, "tcgen05_mma needs 'accumulate: E' last: false overwrites the accumulator (the first K block of a tile), true adds to it");
		return;
	}
	d = asy_name_of(S, pos[0], SYM_TMEM, "tcgen05_mma", "tensor memory first (the accumulator)");
	a = mma_a_arg(S, pos[1]);
	b = asy_buffer_arg(S, pos[2], "tcgen05_mma");
	if (!sema_value(S, acc->lhs) || !fe_convert(acc->lhs, ir_scalar(IR_I1), "'accumulate:'"))
		return;
	if (!d || !a || !b || (a->kind != SYM_TMEM && !mma_operand(pos[1], a, "A")) || !mma_operand(pos[2], b, "B"))
		return;
	if (a->kind == SYM_TMEM ? !mma_tmem_a(S, pos[1], a, b) : !mma_smem_a(pos, a, b))
		return;
	if (d->packed) {
		diag_error(pos[0]->loc, "tcgen05_mma accumulates into tensor memory '%s', which is packed (an MMA operand A, two %s per column): an accumulator is declared without 'packed'",
			   d->name, fe_tname(d->type));
		diag_note(d->loc, "'%s' is declared here", d->name);
		return;
	}
	if (S->asy->ki->cta_group == 2 && (b->dims[0] < 8 || b->dims[0] > 128 || b->dims[0] % 8 ||
					   2 * b->dims[0] > d->dims[1])) {
		diag_error(pos[2]->loc, "tcgen05_mma operand B '%s' has %lld rows, this CTA's half of the pair's N (cta_group(2)); N is 16 to 256, a multiple of 16, at most the %lld columns of '%s'",
			   b->name, (long long)b->dims[0], (long long)d->dims[1], d->name);
		return;
	}
	if (b->dims[0] < 8 || b->dims[0] > 256 || b->dims[0] % 8 || b->dims[0] > d->dims[1]) {
		diag_error(pos[2]->loc, "tcgen05_mma operand B '%s' has %lld rows (N); N is 8 to 256, a multiple of 8, at most the %lld columns of '%s'",
			   b->name, (long long)b->dims[0], (long long)d->dims[1], d->name);
		return;
	}
	if (d->type.base == IR_F16 && a->type.base == IR_BF16) {
		diag_error(pos[0]->loc, "tcgen05_mma into tensor memory '%s' (f16) with bf16 operands: bf16 accumulates into f32 only (PTX kind::f16); an f16 accumulator takes f16, e4m3 or e5m2",
			   d->name);
		diag_note(d->loc, "'%s' is declared here", d->name);
		return;
	}
	mma_place(S, e, d);
}

/* ---- tmem_load(D, lane0, col0) and tmem_store(D, lane0, col0, r) ---- */

/* How the two calls word their rules: the load reads D into the register array, the store
 * writes the array into D. */
typedef struct TmemCall {
	const char *name;
	const char *fills;      /* what it does with the register array */
	const char *moves;      /* what it does with D's columns: "read", "written" */
	const char *verb;       /* "reads", "writes" */
	const char *consume;    /* why inside the consume block */
} TmemCall;

static const TmemCall tm_load = {"tmem_load", "fills", "read", "reads", "which waits for the commit of its MMAs"};
static const TmemCall tm_store = {"tmem_store", "stores", "written", "writes",
				  "whose release orders the store before the next MMAs into the stage"};

/* Both are warp-collective, and a staged D is accessed only inside 'consume' of its
 * pipeline: the consumer owns the stage from the wait for the MMAs' commit to its release
 * (fence.before and the arrive that the next MMAs into the stage wait for). */
static int
tmem_place(Sema *S, Node *e, const Symbol *d, const TmemCall *c)
{
	AsyncSema *h = S->asy;
	Node *blk;

	if (h->in_elect) {
		diag_error(e->loc, "%s is warp-collective (each thread %s its lane): it cannot run inside elect", c->name,
			   c->verb);
		return 0;
	}
	if (!d->pipe)
		return 1;
	blk = block_of(h, d->pipe);
	if (blk && blk->kind == N_CONSUME)
		return 1;
	diag_error(e->loc, "%s %s tensor memory '%s' of pipeline '%s' only inside 'consume %s', %s", c->name, c->verb,
		   d->name, d->pipe->name, d->pipe->name, c->consume);
	return 0;
}

/* The operands both take: tensor memory D, the first lane and column (i32), and the
 * register array sym of element type t, of D's type: for an accumulator one element per
 * column, f32[N], N a power of two from 1 to 128 (tcgen05's .32x32b.xN), or for an f16 D
 * f16[N], N from 8 to 128 (two cells' low halves per register: .x<N/2>.pack::16b,
 * .unpack::16b); for the store of a packed A operand two per column, bf16 or f16[2 x N]
 * (pairs packed into 32-bit words: .x<N>); within D's columns when col0 is constant. pos
 * holds D, lane0, col0. D, or NULL after an error. */
static Symbol *
tmem_operands(Sema *S, Node *e, Node **pos, const Symbol *sym, IrType t, const TmemCall *c)
{
	Symbol *d = asy_name_of(S, pos[0], SYM_TMEM, c->name, "tensor memory first");
	char lane[48], col[48];
	int64_t c0, epc, ncol;

	snprintf(lane, sizeof lane, "the first lane of %s", c->name);
	snprintf(col, sizeof col, "the first column of %s", c->name);
	if (!asy_i32_value(S, pos[1], lane) || !asy_i32_value(S, pos[2], col) || !d || fe_is_error(d->type))
		return NULL;
	if (d->packed && c == &tm_load) {
		diag_error(pos[0]->loc, "tmem_load reads accumulators, but '%s' is packed (an MMA operand A: written by tmem_store, read by tcgen05_mma)",
			   d->name);
		diag_note(d->loc, "'%s' is declared here", d->name);
		return NULL;
	}
	epc = d->packed ? 2 : 1;
	ncol = sym->count / epc;
	if (!d->packed && (t.base == IR_F32 || t.base == IR_F16) && t.base != d->type.base) {
		diag_error(e->loc, "%s %s register array '%s' (%s[%d]) %s tensor memory '%s', which holds %s: declare the array %s[%d]",
			   c->name, c->fills, sym->name, fe_tname(t), (int)sym->dims[0], c == &tm_load ? "from" : "into",
			   d->name, fe_tname(d->type), fe_tname(d->type), (int)sym->dims[0]);
		diag_note(d->loc, "'%s' is declared here", d->name);
		return NULL;
	}
	if (t.base != d->type.base || t.lanes != 1 || sym->rank != 1 || sym->count % epc || ncol > TMEM_LD_MAX ||
	    ncol & (ncol - 1) || (!d->packed && t.base == IR_F16 && sym->count < 8)) {
		diag_error(e->loc, "%s %s a register array %s[%s], N a power of two from %d to %d (the columns %s), but '%s' is %s[%d%s]",
			   c->name, c->fills, fe_tname(d->type), epc == 2 ? "2 x N" : "N",
			   !d->packed && d->type.base == IR_F16 ? 8 : 1, TMEM_LD_MAX, c->moves, sym->name, fe_tname(t),
			   (int)sym->dims[0], sym->rank == 1 ? "" : ", ...");
		return NULL;
	}
	if (pos[2]->isconst && (pos[2]->cv.i < 0 || pos[2]->cv.i + ncol > d->dims[1])) {
		c0 = pos[2]->cv.i;
		diag_error(pos[2]->loc, "%s %s columns %lld .. %lld of tensor memory '%s', which has %lld", c->name,
			   c->verb, (long long)c0, (long long)(c0 + ncol - 1), d->name, (long long)d->dims[1]);
		return NULL;
	}
	e->sym = d;
	return d;
}

/* An unstaged D read in another role than the one its MMAs run in: nothing stops the next
 * MMA from overwriting columns not read yet. */
static int
load_roles(Sema *S, Node *e, Symbol *d)
{
	AsyncSema *h = S->asy;

	if (!d->rrole) {
		d->rrole = h->role;
		d->rloc = e->loc;
	}
	if (d->pipe || !d->wrole || d->wrole == h->role)
		return 1;
	diag_error(e->loc, "tmem_load reads tensor memory '%s' in role '%s' while role '%s' writes it with tcgen05_mma: the next MMA may overwrite columns not yet read; declare it 'in PIPELINE' (full: mma) so that the reader releases each stage",
		   d->name, role_name(h->role), role_name(d->wrole));
	diag_note(d->wloc, "the tcgen05_mma is here");
	return 0;
}

int
asy_tmem_load(Sema *S, Node *e, const Symbol *sym, IrType t)
{
	Node *pos[3];
	Symbol *d;
	int n = asy_split_args(e, pos, 3, NULL, NULL);

	e->builtin = BI_TMEM_LOAD;
	e->ty = fe_ty(TY_NONVALUE);
	if (!S->asy) {
		diag_error(e->loc, "'tmem_load' is only available in a kernel body");
		return 0;
	}
	if (n < 0 || !asy_want_nargs(e, n, 3, 3, "tensor memory, the first lane and the first column"))
		return 0;
	if (!(d = tmem_operands(S, e, pos, sym, t, &tm_load)))
		return 0;
	return tmem_place(S, e, d, &tm_load) && load_roles(S, e, d);
}

/* The register array r that tmem_store writes, named by argument a; NULL after an error. */
static Symbol *
store_array(Sema *S, Node *a)
{
	Symbol *r = a->kind == N_NAME ? sema_lookup(S, a->name) : NULL;

	if (!r || r->kind != SYM_REGS) {
		diag_error(a->loc, "tmem_store writes a register array (var r: f32[N]) into tensor memory: name one as its last argument");
		return NULL;
	}
	a->sym = r;
	a->ty = fe_ty(TY_NONVALUE);
	return fe_is_error(r->type) ? NULL : r;
}

/* tmem_store(D, lane0, col0, r): only a staged D, whose consume block orders the store
 * before the MMAs that read it; an unstaged D has no release that could. */
void
asy_tmem_store(Sema *S, Node *e)
{
	Node *pos[4];
	Symbol *d, *r;
	int n = asy_split_args(e, pos, 4, NULL, NULL);

	e->ty = ir_scalar(IR_VOID);
	if (n < 0 || !asy_want_nargs(e, n, 4, 4, "tensor memory, the first lane, the first column and a register array"))
		return;
	if (!(r = store_array(S, pos[3])) || !(d = tmem_operands(S, e, pos, r, r->type, &tm_store)))
		return;
	if (!d->pipe) {
		diag_error(pos[0]->loc, "tmem_store writes tensor memory '%s', which is in no pipeline: nothing would order the store before the MMAs that read it; declare it 'in PIPELINE' (full: mma) and store inside 'consume PIPELINE'",
			   d->name);
		return;
	}
	if (d->packed && !d->wrole) {     /* --report=tmem: A's writer */
		d->wrole = S->asy->role;
		d->wloc = e->loc;
	}
	tmem_place(S, e, d, &tm_store);
}

/* The kernel's tmems, for irgen's table (ir_tmem_cols rounds their columns up to what
 * tcgen05.alloc takes). */
void
asy_tmem_end(Sema *S, KernelInfo *ki)
{
	AsyncSema *h = S->asy;

	if (ki->cta_group == 2 && !h->ntmems)
		diag_error(h->kernel->loc, "kernel '%s' has cta_group(2) but no tensor memory: CTA pairs share tcgen05 MMAs into tmem accumulators",
			   h->kernel->name);
	else if (ki->cta_group == 2 && ki->cluster[0] % 2)
		diag_error(h->kernel->loc, "kernel '%s' has cta_group(2): a pair is the CTAs of cluster ranks 2k and 2k + 1, so the cluster's x size must be even (cluster(2), cluster(4), ...), found cluster(%d, %d, %d)",
			   h->kernel->name, ki->cluster[0], ki->cluster[1], ki->cluster[2]);
	ki->ntmems = h->ntmems;
	ki->tmems = arena_alloc(S->p->arena, sizeof(Symbol *) * (size_t)(h->ntmems + 1));
	if (h->ntmems)
		memcpy(ki->tmems, h->tmems, sizeof(Symbol *) * (size_t)h->ntmems);
	free(h->tmems);
}

int
asy_kernel_return(Sema *S, Node *s)
{
	AsyncSema *h = S->asy;

	if (!h || !h->ntmems)
		return 1;
	diag_error(s->loc, "kernel '%s' has tensor memory: it may not return early (every thread meets before its columns are freed at the end)",
		   h->kernel->name);
	return 0;
}
