/* verify_tmem.c: the verifier's rules for tensor memory and tcgen05 (FEAT_TMEM, FEAT_TCGEN05:
 * sm_100a, sm_103a; docs/ir.md, "tcgen05 and tensor memory"): the operand, result and
 * attribute rules of tmem.alloc .. tcgen05.fence.after, and the whole-kernel rules: the
 * column budget, one cta_group per kernel, cta_group::2 only in clusters of CTA pairs,
 * warp-collective ops not in one elected thread, tcgen05.ld results read only through
 * tcgen05.wait.ld, every alloc freed by the same warp and followed by a relinquish before
 * the kernel exits, and the fences that order tcgen05 ops with mbarrier waits and arrivals.
 * Rules a .cake user can break (columns, MMA shapes, elect, clusters) are vf_rule; the
 * rest only a compiler bug breaks (vf_error). Target gating is verify_async.c's, from the
 * ops.def rows. Like the rest of the verifier it trusts no index. */
#include "verify.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TMEM_COLS 512              /* columns of tensor memory per SM (128 lanes each) */
#define TMEM_LD_MAX 128            /* tcgen05.ld/st .32x32b: at most .x128 */
#define WALK_BUDGET 4000000        /* op visits of the fence walk (loops are walked twice) */

/* ---- types and attributes ---- */

static IrType
vt(const Verifier *v, IrValue x)
{
	return ir_vtype(v->k, x);
}

static int
is_i32(IrType t)
{
	return ir_type_eq(t, ir_scalar(IR_I32)) || ir_type_eq(t, ir_scalar(IR_U32));
}

static int
is_i64(IrType t)
{
	return ir_type_eq(t, ir_scalar(IR_I64)) || ir_type_eq(t, ir_scalar(IR_U64));
}

static int
is_cg2(const IrOp *op)
{
	return (op->imm & IR_CTA_PAIR) != 0;
}

static int
valid_cols(int64_t n)
{
	return n >= 32 && n <= TMEM_COLS && (n & (n - 1)) == 0;
}

static void
want_arg(Verifier *v, const IrOp *op, int i, int ok, const char *what, const char *want)
{
	if (!ok)
		vf_error(v, op->loc, "operand %d of %s (%s) has type %s, expected %s", i + 1, vf_opname(op), what,
			 vf_tname(vt(v, op->args[i])), want);
}

/* An attribute with no bits outside `allowed`. */
static int
want_imm(Verifier *v, const IrOp *op, int64_t allowed, const char *layout)
{
	if (op->imm >= 0 && (op->imm & ~allowed) == 0)
		return 1;
	vf_error(v, op->loc, "%s[%" PRId64 "]: the attribute is %s", vf_opname(op), op->imm, layout);
	return 0;
}

/* The register type of tcgen05.ld/st of n columns: one 32-bit word per column, f32 (f32,
 * f32x2 .. f32x128) or, where the IR has the vector type, i32/u32 (up to 4 lanes); or the
 * low halves of the cells of an f16 accumulator, f16x8 .. f16x128 (the IR's 16-bit vectors
 * of 8 lanes and more), two per register: .x<n/2>.pack::16b (.unpack::16b). */
static int
ld_type_ok(IrType t, int64_t n)
{
	return t.space == 0 && t.elem == 0 && t.lanes == n &&
	       (t.base == IR_F32 || ((t.base == IR_I32 || t.base == IR_U32) && n <= 4) ||
		(t.base == IR_F16 && n >= 8));
}

static int
valid_num(int64_t n)
{
	return n >= 1 && n <= TMEM_LD_MAX && (n & (n - 1)) == 0;
}

static void
check_alloc(Verifier *v, const IrOp *op)
{
	int64_t n = op->imm & 0xffff;

	vf_want_nres(v, op, 0);
	if (op->opc == IR_TMEM_ALLOC)
		want_arg(v, op, 0, ir_type_eq(vt(v, op->args[0]), ir_ptr(IR_SHARED, IR_I32)) ||
			 ir_type_eq(vt(v, op->args[0]), ir_ptr(IR_SHARED, IR_U32)), "the address slot", "ptr.shared.i32");
	else
		want_arg(v, op, 0, is_i32(vt(v, op->args[0])), "the TMEM address", "i32");
	if (!want_imm(v, op, IR_CTA_PAIR | 0xffff, "columns | cta_group::2 << 16"))
		return;
	/* the column count comes from the .cake tmem declarations */
	if (!valid_cols(n))
		vf_rule(v, op->loc, "%s of %" PRId64 " columns: tensor memory is allocated in a power of two of "
			"32 to %d columns", vf_opname(op), n, TMEM_COLS);
}

/* tcgen05.mma[N | M / 64 << 9 | kind << 12 | cta_group::2 << 16 | f16 D << 17] d, a, b, e:
 * the dense shapes of kinds f16 and f8f6f4 (PTX ISA, tcgen05 "Matrix shape"). */
static void
check_mma(Verifier *v, const IrOp *op)
{
	int64_t n = op->imm & 0x1ff, m = ((op->imm >> 9) & 7) * 64, kind = (op->imm >> 12) & 0xf;
	IrType a = vt(v, op->args[1]);

	vf_want_nres(v, op, 0);
	want_arg(v, op, 0, is_i32(vt(v, op->args[0])), "D, a TMEM address", "i32");
	want_arg(v, op, 1, is_i64(a) || is_i32(a), "A", "an i64 descriptor or an i32 TMEM address");
	want_arg(v, op, 2, is_i64(vt(v, op->args[2])), "the B descriptor", "i64");
	want_arg(v, op, 3, ir_type_eq(vt(v, op->args[3]), ir_scalar(IR_I1)), "enable-input-d", "i1");
	if (!want_imm(v, op, 0x3ffff, "N | M / 64 << 9 | kind << 12 | cta_group::2 << 16 | f16 D << 17"))
		return;
	if (kind > 3) {
		vf_error(v, op->loc, "tcgen05.mma[%" PRId64 "]: kind %" PRId64 ", expected 0 (bf16), 1 (f16), 2 (e4m3) "
			 "or 3 (e5m2)", op->imm, kind);
		return;
	}
	if (kind == 0 && op->imm >> 17 & 1)
		vf_error(v, op->loc, "tcgen05.mma[%" PRId64 "]: an f16 D with bf16 operands; kind::f16 accumulates "
			 "bf16 into f32 only (f16 D: f16, e4m3 or e5m2 operands)", op->imm);
	if (!is_cg2(op) && !((m == 64 || m == 128) && n >= 8 && n <= 256 && n % 8 == 0))
		vf_rule(v, op->loc, "tcgen05.mma m%" PRId64 "n%" PRId64 " with cta_group::1: M is 64 or 128 and N a "
			"multiple of 8 in 8..256", m, n);
	else if (is_cg2(op) && !((m == 128 || m == 256) && n >= 16 && n <= 256 && n % 16 == 0))
		vf_rule(v, op->loc, "tcgen05.mma m%" PRId64 "n%" PRId64 " with cta_group::2: M (of the CTA pair) is 128 "
			"or 256 and N a multiple of 16 in 16..256", m, n);
}

static void
check_commit(Verifier *v, const IrOp *op)
{
	vf_want_nres(v, op, 0);
	if (op->nargs != 1 && op->nargs != 2) {
		vf_error(v, op->loc, "tcgen05.commit has %d operands, expected 1 (the mbarrier) or 2 (and the i16 "
			 "multicast mask)", op->nargs);
		return;
	}
	want_arg(v, op, 0, ir_type_eq(vt(v, op->args[0]), ir_ptr(IR_SHARED, IR_I64)), "the mbarrier",
		 "ptr.shared.i64");
	want_imm(v, op, IR_CTA_PAIR, "0 or cta_group::2 << 16");
	if (op->nargs == 2) {
		IrType m = vt(v, op->args[1]);

		if (ir_type_eq(m, ir_scalar(IR_I16)) || ir_type_eq(m, ir_scalar(IR_U16)))
			vf_cluster_arg(v, op, 1, 1);
		else
			want_arg(v, op, 1, 0, "the multicast mask", "i16");
	}
}

static void
check_ld_st(Verifier *v, const IrOp *op)
{
	int64_t n = op->imm & 0xffff;
	IrType t;

	want_arg(v, op, 0, is_i32(vt(v, op->args[0])), "the TMEM address", "i32");
	/* bit 16 may be set (the kernel's cta_group): ld and st have none of their own */
	if (!want_imm(v, op, IR_CTA_PAIR | 0xffff, "the number of columns (1, 2, 4 .. 128)"))
		return;
	if (!valid_num(n)) {
		vf_error(v, op->loc, "%s[%" PRId64 "]: .32x32b takes 1, 2, 4, 8, 16, 32, 64 or 128 columns",
			 vf_opname(op), n);
		return;
	}
	if (op->opc == IR_TCGEN05_ST) {
		vf_want_nres(v, op, 0);
		t = vt(v, op->args[1]);
	} else {
		if (!vf_want_nres(v, op, 1))
			return;
		t = vt(v, op->res[0]);
	}
	if (!ld_type_ok(t, n))
		vf_error(v, op->loc, "%s[%" PRId64 "] %s %s, expected %s%s%s (one 32-bit word per column)%s%s%s",
			 vf_opname(op), n, op->opc == IR_TCGEN05_ST ? "stores" : "gives", vf_tname(t),
			 vf_tname(ir_vector(IR_F32, (int)n)), n <= 4 ? " or " : "",
			 n <= 4 ? vf_tname(ir_vector(IR_I32, (int)n)) : "", n >= 8 ? " or " : "",
			 n >= 8 ? vf_tname(ir_vector(IR_F16, (int)n)) : "", n >= 8 ? " (an f16 accumulator's low halves)" : "");
}

/* tcgen05.wait.ld passes tcgen05.ld results through (as wgmma.wait passes accumulators):
 * the backend ties them through the wait so that nothing reads them before it. */
static void
check_wait_ld(Verifier *v, const IrOp *op)
{
	int i;

	if (op->nres != op->nargs) {
		vf_error(v, op->loc, "tcgen05.wait.ld has %d operand%s and %d result%s, expected one result per "
			 "tcgen05.ld result", op->nargs, op->nargs == 1 ? "" : "s", op->nres, op->nres == 1 ? "" : "s");
		return;
	}
	for (i = 0; i < op->nargs; i++) {
		IrValue x = op->args[i];
		const IrOp *d = x > 0 && x < v->k->nvalues ? v->def[x] : NULL;

		if (!d || d->opc != IR_TCGEN05_LD)
			vf_error(v, op->loc, "operand %d of tcgen05.wait.ld (%%%d) is not a tcgen05.ld result", i + 1, x);
		else if (!ir_type_eq(vt(v, op->res[i]), vt(v, x)))
			vf_error(v, op->loc, "result %d of tcgen05.wait.ld has type %s, expected %s (its operand's)", i + 1,
				 vf_tname(vt(v, op->res[i])), vf_tname(vt(v, x)));
	}
}

void
vf_tmem_op(Verifier *v, const IrOp *op)
{
	switch (op->opc) {
	case IR_TMEM_ALLOC: case IR_TMEM_DEALLOC:
		check_alloc(v, op);
		break;
	case IR_TMEM_RELINQUISH:
		vf_want_nres(v, op, 0);
		want_imm(v, op, IR_CTA_PAIR, "0 or cta_group::2 << 16");
		break;
	case IR_TCGEN05_DESC:
		want_arg(v, op, 0, vf_is_ptr(vt(v, op->args[0])) && vt(v, op->args[0]).space == IR_SHARED,
			 "the operand's address", "a shared pointer");
		if (op->imm != 32 && op->imm != 64 && op->imm != 128)
			vf_error(v, op->loc, "tcgen05.desc[%" PRId64 "]: the swizzle is 32, 64 or 128 (K-major operands "
				 "without swizzle are not supported)", op->imm);
		if (vf_want_nres(v, op, 1) && !is_i64(vt(v, op->res[0])))
			vf_error(v, op->loc, "tcgen05.desc gives %s, expected i64", vf_tname(vt(v, op->res[0])));
		break;
	case IR_TCGEN05_MMA:
		check_mma(v, op);
		break;
	case IR_TCGEN05_COMMIT:
		check_commit(v, op);
		break;
	case IR_TCGEN05_LD: case IR_TCGEN05_ST:
		check_ld_st(v, op);
		break;
	case IR_TCGEN05_WAIT_LD:
		check_wait_ld(v, op);
		break;
	case IR_TCGEN05_WAIT_ST: case IR_TCGEN05_FENCE_BEFORE: case IR_TCGEN05_FENCE_AFTER:
		vf_want_nres(v, op, 0);
		break;
	default:
		break;
	}
}

/* ---- whole-kernel rules ---- */

/* One enclosing region: op's region `branch`. The threads that run an op are told apart by
 * the chain of regions it is in; two chains name the same threads when each link is the
 * same region, or an `if` branch on an equal condition (the frontend guards the alloc and
 * the dealloc of warp 0 by two ifs on `warpid == 0`), or a role of the same warps. */
typedef struct Guard {
	const IrOp *op;
	int branch;
} Guard;

#define MAX_GUARDS 32

typedef struct Site {
	const IrOp *op;
	int ng;
	Guard g[MAX_GUARDS];
	int freed, relinquished;
} Site;

/* The fence rules' state for one thread at one point: the last mbar.wait not yet followed
 * by tcgen05.fence.after, and the last tcgen05.ld and tcgen05.st (FK_LD, FK_ST) with how
 * far each is released (REL_ISSUED; REL_WAITED: its tcgen05.wait.ld or wait.st came,
 * fence.before not yet). */
enum { REL_NONE, REL_WAITED, REL_ISSUED };
enum { FK_LD, FK_ST, FK_KINDS };

typedef struct Fence {
	const IrOp *wait;
	const IrOp *acc[FK_KINDS];
	int state[FK_KINDS];
} Fence;

typedef struct TmWalk {
	Verifier *v;
	Guard g[MAX_GUARDS];
	int ng, deep;              /* deep: nested past MAX_GUARDS (no pairing there) */
	int elect;                 /* inside an elect region or an `if elect.sync` */
	Site *allocs, *rels;
	int nallocs, capallocs, nrels, caprels;
	const IrOp *cg_op;         /* the first op with a cta_group */
	int cg_reported, pair_reported, elect_reported;
	int64_t cols;
	const IrOp **reported;     /* ops the fence walk reported (loops are walked twice) */
	int nreported, capreported;
	long budget;
} TmWalk;

/* Whether x and y are the same value: one id, or pure ops of one opcode, attribute and type
 * on operands that are the same (a few levels deep). */
static int
same_value(const Verifier *v, IrValue x, IrValue y, int depth)
{
	const IrOp *a, *b;
	int i;

	if (x == y)
		return 1;
	if (depth <= 0 || x <= 0 || y <= 0 || x >= v->k->nvalues || y >= v->k->nvalues)
		return 0;
	a = v->def[x];
	b = v->def[y];
	if (!a || !b || a->opc != b->opc || !(ir_opinfo[a->opc].flags & OPF_PURE) || a->nres != 1 ||
	    b->nres != 1 || a->nargs != b->nargs || a->imm != b->imm || a->fimm != b->fimm ||
	    !ir_type_eq(vt(v, x), vt(v, y)))
		return 0;
	for (i = 0; i < a->nargs; i++)
		if (!same_value(v, a->args[i], b->args[i], depth - 1))
			return 0;
	return 1;
}

static int
same_link(const Verifier *v, const Guard *a, const Guard *b)
{
	int64_t l1, h1, l2, h2;

	if (a->op == b->op)
		return a->branch == b->branch;
	if (a->op->opc != b->op->opc || a->branch != b->branch)
		return 0;
	switch (a->op->opc) {
	case IR_IF:
		return a->op->nargs == 1 && b->op->nargs == 1 && same_value(v, a->op->args[0], b->op->args[0], 6);
	case IR_ROLE:
		return a->op->nargs >= 2 && b->op->nargs >= 2 && vf_const_of(v, a->op->args[0], &l1) &&
		       vf_const_of(v, a->op->args[1], &h1) && vf_const_of(v, b->op->args[0], &l2) &&
		       vf_const_of(v, b->op->args[1], &h2) && l1 == l2 && h1 == h2;
	default:
		return 0;
	}
}

static int
same_threads(const TmWalk *w, const Site *s)
{
	int i;

	if (s->ng != w->ng)
		return 0;
	for (i = 0; i < s->ng; i++)
		if (!same_link(w->v, &s->g[i], &w->g[i]))
			return 0;
	return 1;
}

static Site *
add_site(TmWalk *w, Site **arr, int *n, int *cap, const IrOp *op)
{
	Site s;

	memset(&s, 0, sizeof s);
	s.op = op;
	s.ng = w->ng;
	memcpy(s.g, w->g, sizeof(Guard) * (size_t)w->ng);
	PUSH(*arr, *n, *cap, s);
	return &(*arr)[*n - 1];
}

static int
line_of(const IrOp *op)
{
	return op->loc.line;
}

static int
is_collective(int opc)
{
	return opc == IR_TMEM_ALLOC || opc == IR_TMEM_DEALLOC || opc == IR_TMEM_RELINQUISH ||
	       opc == IR_TCGEN05_LD || opc == IR_TCGEN05_ST || opc == IR_TCGEN05_WAIT_LD ||
	       opc == IR_TCGEN05_WAIT_ST;
}

static int
has_cta_group(int opc)
{
	return opc == IR_TMEM_ALLOC || opc == IR_TMEM_DEALLOC || opc == IR_TMEM_RELINQUISH ||
	       opc == IR_TCGEN05_MMA || opc == IR_TCGEN05_COMMIT;
}

/* alloc, dealloc and relinquish: paired by the threads that run them. */
static void
pair_alloc(TmWalk *w, const IrOp *op)
{
	Verifier *v = w->v;
	int64_t n = op->imm & 0xffff;
	int i;

	if (w->deep)
		return;
	switch (op->opc) {
	case IR_TMEM_ALLOC:
		if (valid_cols(n))
			w->cols += n;
		for (i = 0; i < w->nrels; i++)
			if (same_threads(w, &w->rels[i])) {
				vf_error(v, op->loc, "tmem.alloc after the tmem.relinquish at line %d of the same warp: the "
					 "warp gave up the right to allocate", line_of(w->rels[i].op));
				break;
			}
		add_site(w, &w->allocs, &w->nallocs, &w->capallocs, op)->relinquished = i < w->nrels;
		break;
	case IR_TMEM_DEALLOC:
		for (i = 0; i < w->nallocs; i++) {
			Site *s = &w->allocs[i];

			if (!s->freed && s->op->imm == op->imm && same_threads(w, s)) {
				s->freed = 1;
				return;
			}
		}
		vf_error(v, op->loc, "tmem.dealloc of %" PRId64 " columns frees nothing: no tmem.alloc[%" PRId64 "] of the "
			 "same warp (under the same conditions) is live here", n, op->imm);
		break;
	default:
		add_site(w, &w->rels, &w->nrels, &w->caprels, op);
		for (i = 0; i < w->nallocs; i++)
			if (same_threads(w, &w->allocs[i]))
				w->allocs[i].relinquished = 1;
		break;
	}
}

static void
check_struct_op(TmWalk *w, const IrOp *op)
{
	Verifier *v = w->v;
	const IrKernel *k = v->k;
	int i;

	for (i = 0; i < op->nargs; i++) {
		IrValue x = op->args[i];
		const IrOp *d = x > 0 && x < k->nvalues ? v->def[x] : NULL;

		if (d && d->opc == IR_TCGEN05_LD && op->opc != IR_TCGEN05_WAIT_LD) {
			vf_error(v, op->loc, "%s reads %%%d, a tcgen05.ld result: those are read only through "
				 "tcgen05.wait.ld's results", vf_opname(op), x);
			break;
		}
	}
	if (w->elect && is_collective(op->opc) && !w->elect_reported) {
		vf_rule(v, op->loc, "%s inside an elect region: it is warp-collective (every thread of the warp "
			"runs it)", vf_opname(op));
		w->elect_reported = 1;
	}
	if (has_cta_group(op->opc)) {
		if (!w->cg_op) {
			w->cg_op = op;
		} else if (is_cg2(op) != is_cg2(w->cg_op) && !w->cg_reported) {
			vf_error(v, op->loc, "%s uses cta_group::%d but the %s at line %d uses cta_group::%d: a kernel uses one",
				 vf_opname(op), is_cg2(op) ? 2 : 1, vf_opname(w->cg_op), line_of(w->cg_op),
				 is_cg2(w->cg_op) ? 2 : 1);
			w->cg_reported = 1;
		}
		if (is_cg2(op) && k->cluster[0] % 2 && !w->pair_reported) {
			vf_rule(v, op->loc, "%s with cta_group::2 needs clusters of CTA pairs (cluster x a multiple of 2), "
				"but kernel '%s' has cluster %d %d %d", vf_opname(op), k->name, k->cluster[0], k->cluster[1],
				k->cluster[2]);
			w->pair_reported = 1;
		}
	}
	if (op->opc == IR_TMEM_ALLOC || op->opc == IR_TMEM_DEALLOC || op->opc == IR_TMEM_RELINQUISH)
		pair_alloc(w, op);
}

static int
is_elect_cond(const Verifier *v, const IrOp *op)
{
	IrValue c = op->nargs == 1 ? op->args[0] : 0;

	return op->opc == IR_IF && c > 0 && c < v->k->nvalues && v->def[c] && v->def[c]->opc == IR_ELECT_SYNC;
}

static void
walk_struct(TmWalk *w, const IrRegion *r, int depth)
{
	int i, j;

	if (depth > 1000)
		return;
	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i];

		check_struct_op(w, op);
		for (j = 0; j < op->nregions; j++) {
			int elect = op->opc == IR_ELECT || (j == 0 && is_elect_cond(w->v, op));

			if (w->ng < MAX_GUARDS) {
				w->g[w->ng].op = op;
				w->g[w->ng].branch = j;
				w->ng++;
			} else {
				w->deep++;
			}
			w->elect += elect;
			walk_struct(w, &op->regions[j], depth + 1);
			w->elect -= elect;
			if (w->deep)
				w->deep--;
			else
				w->ng--;
		}
	}
}

/* ---- the fences ---- */

static void
fence_report(TmWalk *w, const IrOp *op, const IrOp *since)
{
	int i;

	for (i = 0; i < w->nreported; i++)
		if (w->reported[i] == op)
			return;
	PUSH(w->reported, w->nreported, w->capreported, op);
	if (since->opc == IR_MBAR_WAIT)
		vf_error(w->v, op->loc, "%s follows the mbar.wait at line %d with no tcgen05.fence.after between them: "
			 "the wait does not order this thread's tcgen05 ops after it", vf_opname(op), line_of(since));
	else if (since->opc == IR_TCGEN05_LD)
		vf_error(w->v, op->loc, "%s follows the tcgen05.ld at line %d with no tcgen05.wait.ld and "
			 "tcgen05.fence.before between them: the arrival may let another thread overwrite the columns "
			 "before the load completed", vf_opname(op), line_of(since));
	else
		vf_error(w->v, op->loc, "%s follows the tcgen05.st at line %d with no tcgen05.wait.st and "
			 "tcgen05.fence.before between them: the arrival may let another thread read or overwrite the "
			 "columns before the store completed", vf_opname(op), line_of(since));
}

static void
fence_join(Fence *a, const Fence *b)
{
	int k;

	if (!a->wait)
		a->wait = b->wait;
	for (k = 0; k < FK_KINDS; k++)
		if (b->state[k] > a->state[k]) {
			a->state[k] = b->state[k];
			a->acc[k] = b->acc[k];
		}
}

static void walk_fences(TmWalk *w, const IrRegion *r, Fence *st, int depth);

static void
fence_regions(TmWalk *w, const IrOp *op, Fence *st, int depth)
{
	Fence out = *st, s;
	int j, pass;

	if (op->opc == IR_FOR || op->opc == IR_WHILE) {
		/* twice: the second time with what the first iteration leaves for the next */
		s = *st;
		for (pass = 0; pass < 2; pass++) {
			for (j = 0; j < op->nregions; j++)
				walk_fences(w, &op->regions[j], &s, depth + 1);
			fence_join(&s, st);
		}
		fence_join(&out, &s);
	} else {
		for (j = 0; j < op->nregions; j++) {
			s = *st;
			walk_fences(w, &op->regions[j], &s, depth + 1);
			fence_join(&out, &s);
		}
	}
	*st = out;
}

static void
walk_fences(TmWalk *w, const IrRegion *r, Fence *st, int depth)
{
	int i, k;

	if (depth > 1000)
		return;
	for (i = 0; i < r->nops && w->budget > 0; i++, w->budget--) {
		const IrOp *op = &r->ops[i];

		switch (op->opc) {
		case IR_MBAR_WAIT: st->wait = op; break;
		case IR_TCGEN05_FENCE_AFTER: st->wait = NULL; break;
		case IR_TCGEN05_MMA: case IR_TCGEN05_LD: case IR_TCGEN05_ST: case IR_TMEM_DEALLOC:
			if (st->wait)
				fence_report(w, op, st->wait);
			if (op->opc == IR_TCGEN05_LD || op->opc == IR_TCGEN05_ST) {
				k = op->opc == IR_TCGEN05_LD ? FK_LD : FK_ST;
				st->state[k] = REL_ISSUED;
				st->acc[k] = op;
			}
			break;
		case IR_TCGEN05_WAIT_LD: case IR_TCGEN05_WAIT_ST:
			k = op->opc == IR_TCGEN05_WAIT_LD ? FK_LD : FK_ST;
			if (st->state[k] == REL_ISSUED)
				st->state[k] = REL_WAITED;
			break;
		case IR_TCGEN05_FENCE_BEFORE:
			for (k = 0; k < FK_KINDS; k++)
				if (st->state[k] == REL_WAITED)
					st->state[k] = REL_NONE;
			break;
		case IR_MBAR_ARRIVE: case IR_MBAR_ARRIVE_TX: case IR_MBAR_ARRIVE_REMOTE:
			for (k = 0; k < FK_KINDS; k++)
				if (st->state[k] != REL_NONE) {
					fence_report(w, op, st->acc[k]);
					break;
				}
			break;
		default:
			break;
		}
		if (op->nregions)
			fence_regions(w, op, st, depth);
	}
}

void
vf_tmem_kernel(Verifier *v)
{
	const IrKernel *k = v->k;
	TmWalk w;
	Fence st;
	int i, per_sm = k->min_blocks > 1 ? k->min_blocks : 1;

	memset(&w, 0, sizeof w);
	memset(&st, 0, sizeof st);
	w.v = v;
	w.budget = WALK_BUDGET;
	walk_struct(&w, &k->body, 0);
	for (i = 0; i < w.nallocs; i++) {
		const Site *s = &w.allocs[i];

		if (!s->freed)
			vf_error(v, s->op->loc, "tmem.alloc of %" PRId64 " columns is not freed by a tmem.dealloc of the same "
				 "warp on every path to the kernel's end", s->op->imm & 0xffff);
		else if (!s->relinquished)
			vf_error(v, s->op->loc, "tmem.alloc: the warp runs no tmem.relinquish before the kernel's end "
				 "(other CTAs' allocations on the SM may wait for the permit)");
	}
	/* the CTAs that share an SM share its 512 columns */
	if (w.nallocs && w.cols * per_sm > TMEM_COLS)
		vf_rule(v, w.allocs[0].op->loc, "tensor memory: the kernel allocates %" PRId64 " columns, and %d CTA%s "
			"per SM (min_blocks) need %" PRId64 " of the SM's %d", w.cols, per_sm, per_sm == 1 ? "" : "s",
			w.cols * per_sm, TMEM_COLS);
	walk_fences(&w, &k->body, &st, 0);
	free(w.allocs);
	free(w.rels);
	free(w.reported);
}
