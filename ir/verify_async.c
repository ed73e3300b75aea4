/* verify_async.c: the verifier's rules for the async machinery (docs/ir.md, "Async ops and
 * the schedule rules"): operand and result types of the mbarrier, TMA, cluster and wgmma
 * ops; the header tables (barriers, pipelines, tensor maps, staged buffers, cluster dims);
 * and the whole-kernel rules: target gating, where role, elect, produce, consume and wgmma
 * may appear, and that every mbarrier is initialised (mbar.init, fence.mbar_init and a CTA
 * or cluster barrier) before it is used. The schedule rules that need more than one op are
 * passes/schedule_check.c's. Like verify.c it trusts no index. */
#include "verify.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* mbarrier limits (PTX ISA: arrival counts and tx-counts are 20-bit). */
#define MBAR_MAX_COUNT ((1 << 20) - 1)
#define MBAR_MAX_TX ((1 << 20) - 1)
#define TMA_MAX_RANK 5
#define TMA_MAX_BOX 256
#define MAX_CLUSTER 8

/* ---- types and constants ---- */

static IrType
vtype(const Verifier *v, IrValue x)
{
	return ir_vtype(v->k, x);
}

static int
is_i32(IrType t)
{
	return ir_type_eq(t, ir_scalar(IR_I32)) || ir_type_eq(t, ir_scalar(IR_U32));
}

static int
is_bar(IrType t)
{
	return ir_type_eq(t, ir_ptr(IR_SHARED, IR_I64));
}

static int
is_shared_ptr(IrType t)
{
	return vf_is_ptr(t) && t.space == IR_SHARED;
}

/* What wgmma.fence and wgmma.wait pass through: an f32 accumulator (a fragment, an f32x4
 * for wgmma n8, or any f32 value) or a register A fragment, whose registers the ISA also
 * forbids to change while a wgmma that reads them is in flight. */
static int
is_acc(IrType t)
{
	return (t.base == IR_F32 && t.space == 0 && t.elem == 0 &&
		(t.lanes == 1 || t.lanes == 2 || t.lanes == 4 || ir_is_frag(t))) || ir_is_afrag(t);
}

static void
want_i32(Verifier *v, const IrOp *op, int i, const char *what)
{
	IrType t = vtype(v, op->args[i]);

	if (!is_i32(t))
		vf_error(v, op->loc, "operand %d of %s (%s) has type %s, expected i32", i + 1, vf_opname(op),
			 what, vf_tname(t));
}

static int
want_bar(Verifier *v, const IrOp *op, int i)
{
	IrType t = vtype(v, op->args[i]);

	if (is_bar(t))
		return 1;
	vf_error(v, op->loc, "operand %d of %s (the mbarrier) has type %s, expected ptr.shared.i64", i + 1,
		 vf_opname(op), vf_tname(t));
	return 0;
}

static int
want_shared(Verifier *v, const IrOp *op, int i, const char *what)
{
	IrType t = vtype(v, op->args[i]);

	if (is_shared_ptr(t))
		return 1;
	vf_error(v, op->loc, "operand %d of %s (%s) has type %s, expected a shared pointer", i + 1,
		 vf_opname(op), what, vf_tname(t));
	return 0;
}

static void
want_result(Verifier *v, const IrOp *op, IrType t)
{
	if (vf_want_nres(v, op, 1) && !ir_type_eq(vtype(v, op->res[0]), t))
		vf_error(v, op->loc, "%s gives %s, expected %s", vf_opname(op), vf_tname(vtype(v, op->res[0])),
			 vf_tname(t));
}

/* A constant operand within [lo, hi] (checked only when it is a constant). */
static void
const_range(Verifier *v, const IrOp *op, int i, int64_t lo, int64_t hi, const char *what)
{
	int64_t c;

	if (vf_const_of(v, op->args[i], &c) && (c < lo || c > hi))
		vf_error(v, op->loc, "%s: %s is %" PRId64 ", expected %" PRId64 " to %" PRId64, vf_opname(op), what,
			 c, lo, hi);
}

static int
cluster_size(const IrKernel *k)
{
	return k->cluster[0] * k->cluster[1] * k->cluster[2];
}

/* Operand i of an op that reaches other CTAs of the cluster: a CTA rank, or a mask of ranks.
 * The kernel needs a cluster, and a constant rank or mask must name its CTAs. Rules a user
 * can break in .cake (remote(buf, rank), tma_load's multicast:). */
void
vf_cluster_arg(Verifier *v, const IrOp *op, int i, int mask)
{
	int n = cluster_size(v->k);
	int64_t c, hi = mask ? (1 << n) - 1 : n - 1;

	if (n == 1)
		vf_rule(v, op->loc, "%s reaches the CTAs of a cluster, but kernel '%s' has no cluster (a cluster of 1 CTA)",
			vf_opname(op), v->k->name);
	else if (vf_const_of(v, op->args[i], &c) && (c < mask || c > hi))
		vf_rule(v, op->loc, "%s: %s is %" PRId64 ", expected %d to %" PRId64, vf_opname(op),
			mask ? "the multicast mask (CTAs of the cluster)" : "the CTA rank in the cluster", c, mask, hi);
}

/* The tensor-map parameter a value is (ir_tmap_param), or NULL. */
static const IrParam *
tmap_param(const Verifier *v, IrValue x)
{
	return ir_tmap_param(v->k, x);
}

/* The element type of the tensor a map is over (IR_VOID if unknown). */
static IrBase
tmap_elem(const Verifier *v, const IrParam *p)
{
	if (!p || p->tmap_tensor < 0 || p->tmap_tensor >= v->k->nparams)
		return IR_VOID;
	return (IrBase)v->k->params[p->tmap_tensor].type.elem;
}

static int64_t
box_elems(const IrParam *p)
{
	int64_t n = 1;
	int i;

	for (i = 0; i < p->rank && i < IR_MAX_RANK; i++)
		n *= p->dims[i].size;
	return n;
}

/* The shared buffer a pointer is the base of (smem[b] or smem.stage[b]), or -1. */
static int
base_buffer(const Verifier *v, IrValue x)
{
	const IrOp *d = x > 0 && x < v->k->nvalues ? v->def[x] : NULL;

	if (d && (d->opc == IR_SMEM || d->opc == IR_SMEM_STAGE) && d->imm >= 0 && d->imm < v->k->nbufs)
		return (int)d->imm;
	return -1;
}

/* ---- per-op rules ---- */

/* tma.load[rank | IR_TMA_PAIR]: the load of one CTA of a pair, completing on the leader's
 * barrier (cta_group::2); tma.load.mc's: on the leader's barrier of each destination's pair. The pair is ranks 2k, 2k+1 along x, and only tcgen05 targets have
 * the cta_group operand. Rules, as tcgen05's cta_group::2 (verify_tmem.c). */
static void
check_tma_pair(Verifier *v, const IrOp *op)
{
	const IrKernel *k = v->k;
	unsigned have = ir_feature_targets(FEAT_TCGEN05), missing = k->targets & ~have;
	int t;

	if (k->cluster[0] % 2)
		vf_rule(v, op->loc, "%s[%" PRId64 "] with cta_group::2 (imm bit 8) needs clusters of CTA pairs "
			"(cluster x a multiple of 2), but kernel '%s' has cluster %d %d %d", vf_opname(op), op->imm,
			k->name, k->cluster[0], k->cluster[1], k->cluster[2]);
	for (t = 0; t < TARGET_COUNT && !(missing >> t & 1); t++)
		;
	if (missing)
		vf_rule(v, op->loc, "%s[%" PRId64 "] with cta_group::2 (imm bit 8) needs sm_100a or sm_103a (tcgen05); "
			"kernel '%s' also targets %s", vf_opname(op), op->imm, k->name, ir_target_name(t));
}

/* The rank in op's imm after checking the other bits (0 after an error): bit 8 only on
 * the loads, nothing else above the rank's byte. */
static int
tma_rank(Verifier *v, const IrOp *op)
{
	int load = op->opc != IR_TMA_STORE;
	int64_t rank = load ? IR_TMA_RANK(op->imm) : op->imm;

	if (!load && (op->imm & ~INT64_C(0xff)) == IR_TMA_PAIR) {
		vf_error(v, op->loc, "%s[%" PRId64 "]: bit 8 (cta_group::2, a CTA pair) is only for tma.load and tma.load.mc",
			 vf_opname(op), op->imm);
		return 0;
	}
	if (op->imm & ~(INT64_C(0xff) | IR_TMA_PAIR) || rank < 1 || rank > TMA_MAX_RANK) {
		vf_error(v, op->loc, "%s[%" PRId64 "]: the rank is 1 to %d%s", vf_opname(op), op->imm, TMA_MAX_RANK,
			 load ? ", | 256 for a CTA pair (cta_group::2); no other bits" : "");
		return 0;
	}
	if (op->imm & IR_TMA_PAIR)
		check_tma_pair(v, op);
	return (int)rank;
}

/* tma.load[rank] dst, map, bar, (mask,) coords...; tma.store[rank] map, src, coords... */
static void
check_tma(Verifier *v, const IrOp *op)
{
	int load = op->opc != IR_TMA_STORE, fixed = op->opc == IR_TMA_LOAD_MC ? 4 : load ? 3 : 2;
	int mi = load ? 1 : 0, si = load ? 0 : 1, i, b, rank;
	const IrParam *map;
	IrType st;

	vf_want_nres(v, op, 0);
	if (!(rank = tma_rank(v, op)))
		return;
	if (op->nargs != fixed + rank) {
		vf_error(v, op->loc, "%s[%" PRId64 "] has %d operands, expected %d (%s and %d coordinates)",
			 vf_opname(op), op->imm, op->nargs, fixed + rank,
			 op->opc == IR_TMA_LOAD_MC ? "dst, map, bar, mask" : load ? "dst, map, bar" : "map, src",
			 rank);
		return;
	}
	if (!vf_is_tmap(vtype(v, op->args[mi])))
		vf_error(v, op->loc, "operand %d of %s (the tensor map) has type %s, expected tmap", mi + 1,
			 vf_opname(op), vf_tname(vtype(v, op->args[mi])));
	want_shared(v, op, si, load ? "the destination" : "the source");
	if (load)
		want_bar(v, op, 2);
	if (op->opc == IR_TMA_LOAD_MC) {
		want_i32(v, op, 3, "the CTA mask");
		vf_cluster_arg(v, op, 3, 1);
	}
	for (i = fixed; i < op->nargs; i++)
		want_i32(v, op, i, "a coordinate");
	map = tmap_param(v, op->args[mi]);
	if (!map)
		return;
	if (map->rank != rank)
		vf_error(v, op->loc, "%s[%" PRId64 "] with tensor map '%s' of rank %d", vf_opname(op), op->imm,
			 map->name, map->rank);
	st = vtype(v, op->args[si]);
	if (is_shared_ptr(st) && tmap_elem(v, map) != IR_VOID && st.elem != tmap_elem(v, map))
		vf_error(v, op->loc, "%s: tensor map '%s' is over %s elements but the shared pointer is %s",
			 vf_opname(op), map->name, ir_base_name(tmap_elem(v, map)), vf_tname(st));
	if ((b = base_buffer(v, op->args[si])) >= 0) {
		const IrBuffer *buf = &v->k->bufs[b];
		int64_t esz = ir_type_bytes(ir_scalar(buf->elem));

		if (box_elems(map) * esz > buf->count * esz)
			vf_error(v, op->loc, "%s: the box of '%s' is %" PRId64 " bytes but shared buffer '%s' (a stage) holds %" PRId64,
				 vf_opname(op), map->name, box_elems(map) * esz, buf->name, buf->count * esz);
		if (buf->swizzle != map->swizzle)
			vf_error(v, op->loc, "%s: tensor map '%s' has swizzle %d but shared buffer '%s' has swizzle %d",
				 vf_opname(op), map->name, map->swizzle, buf->name, buf->swizzle);
	}
}

/* wgmma[N | kind << 16 | step << 20 | bt << 28] (kind: ir.h's MMA kinds; bt: B N-major, for
 * the 16-bit kinds, which have the ISA's imm-trans-b): operand 1 is the A
 * descriptor (SS form, step 0) or a register A fragment of a 16-bit kind whose k16 slice
 * `step` (lanes 8 step .. 8 step + 7) this wgmma reads (RS form). */
static void
check_wgmma(Verifier *v, const IrOp *op)
{
	int64_t n = op->imm & 0xffff, kind = (op->imm >> 16) & 0xf, step = op->imm >> 20 & 0xff;
	IrType acc = vtype(v, op->args[0]), a = vtype(v, op->args[1]);
	IrType want = n == 8 ? ir_vector(IR_F32, 4) : ir_vector(IR_F32, (int)(n / 2));

	/* bits 0..28 hold N, kind, step and bt */
	if (n < 8 || n > 256 || n % 8 || kind >= IR_MMA_NKINDS || op->imm < 0 || op->imm >> 29 ||
	    ((op->imm & IR_WGMMA_BT) && kind > IR_MMA_F16)) {
		vf_error(v, op->loc, "wgmma[%" PRId64 "]: the attribute is N | kind << 16 | step << 20 | bt << 28 with N a "
			 "multiple of 8 in 8..256, kind 0 (bf16), 1 (f16), 2 (e4m3), 3 (e5m2) or 4 (tf32), step "
			 "the k16 slice of a register A and bt (B N-major) for bf16 and f16 only", op->imm);
		return;
	}
	if (!ir_type_eq(acc, want))
		vf_error(v, op->loc, "wgmma m64n%" PRId64 "k%d: the accumulator has type %s, expected %s", n,
			 ir_mma_kind_k((int)kind), vf_tname(acc), vf_tname(want));
	if (ir_is_afrag(a)) {
		const IrOp *d = op->args[1] > 0 && op->args[1] < v->k->nvalues ? v->def[op->args[1]] : NULL;

		/* the ISA wants a wgmma.fence between the writes of A's registers and the wgmma */
		if (d && d->opc != IR_WGMMA_FENCE)
			vf_error(v, op->loc, "wgmma[%" PRId64 "]: the register A fragment %%%d comes from %s, not from a "
				 "wgmma.fence", op->imm, op->args[1], vf_opname(d));
		if (a.base != ir_mma_kind_base((int)kind))
			vf_error(v, op->loc, "wgmma[%" PRId64 "]: the register A fragment is %s but the attribute's kind is %s",
				 op->imm, vf_tname(a), ir_mma_kind_name((int)kind));
		else if (8 * (step + 1) > a.lanes)
			vf_error(v, op->loc, "wgmma[%" PRId64 "]: k16 slice %" PRId64 " is outside the register A fragment %s "
				 "(%d slices)", op->imm, step, vf_tname(a), a.lanes / 8);
	} else if (!ir_type_eq(a, ir_scalar(IR_I64)) && !ir_type_eq(a, ir_scalar(IR_U64))) {
		vf_error(v, op->loc, "operand 2 of wgmma (A) has type %s, expected an i64 descriptor or a register A "
			 "fragment (bf16x8 .. bf16x128, f16x8 .. f16x128)", vf_tname(a));
	} else if (step) {
		vf_error(v, op->loc, "wgmma[%" PRId64 "]: a k16 slice (step %" PRId64 ") needs a register A fragment, "
			 "not a descriptor", op->imm, step);
	}
	if (!ir_type_eq(vtype(v, op->args[2]), ir_scalar(IR_I64)) &&
	    !ir_type_eq(vtype(v, op->args[2]), ir_scalar(IR_U64)))
		vf_error(v, op->loc, "operand 3 of wgmma (the B descriptor) has type %s, expected i64",
			 vf_tname(vtype(v, op->args[2])));
	vf_want_arg(v, op, 3, ir_scalar(IR_I1));
	want_result(v, op, acc);
}

/* wgmma.fence and wgmma.wait pass their accumulators through. */
static void
check_acc_passthrough(Verifier *v, const IrOp *op)
{
	int i;

	if (op->opc == IR_WGMMA_WAIT && (op->imm < 0 || op->imm > 7))
		vf_error(v, op->loc, "wgmma.wait[%" PRId64 "]: at most 0 to 7 groups may stay pending", op->imm);
	if (op->nres != op->nargs) {
		vf_error(v, op->loc, "%s has %d operand%s and %d result%s, expected one result per accumulator",
			 vf_opname(op), op->nargs, op->nargs == 1 ? "" : "s", op->nres, op->nres == 1 ? "" : "s");
		return;
	}
	for (i = 0; i < op->nargs; i++) {
		IrType t = vtype(v, op->args[i]);

		if (!is_acc(t))
			vf_error(v, op->loc, "operand %d of %s has type %s, expected an f32 accumulator or a register A fragment", i + 1,
				 vf_opname(op), vf_tname(t));
		else if (!ir_type_eq(vtype(v, op->res[i]), t))
			vf_error(v, op->loc, "result %d of %s has type %s, expected %s (its operand's)", i + 1,
				 vf_opname(op), vf_tname(vtype(v, op->res[i])), vf_tname(t));
	}
}

static int
valid_regs(int64_t r)
{
	return r >= 24 && r <= 256 && r % 8 == 0;
}

static void
check_role(Verifier *v, const IrOp *op)
{
	const IrKernel *k = v->k;
	int64_t c[3];
	int i, nwarps = (int)(((int64_t)k->threads[0] * k->threads[1] * k->threads[2] + 31) / 32);
	static const char *const what[3] = {"lo (the first warp)", "hi (the last warp)", "regs (the register budget)"};

	for (i = 0; i < 3; i++) {
		if (!vf_const_of(v, op->args[i], &c[i])) {
			vf_error(v, op->loc, "operand %d of role, %s, is not a constant", i + 1, what[i]);
			return;
		}
		want_i32(v, op, i, what[i]);
	}
	if (op->imm != 0 && op->imm != 1)
		vf_error(v, op->loc, "role[%" PRId64 "]: the flag is 0, or 1 (the role runs in the leader CTA of each "
			 "CTA pair only)", op->imm);
	else if (op->imm && !ir_cta_pair(k))
		vf_rule(v, op->loc, "role[1] runs in the leader CTA of each CTA pair, but kernel '%s' has no pairs (no "
			"tmem.alloc or tcgen05.mma with cta_group::2)", k->name);
	if (c[0] < 0 || c[0] > c[1])
		vf_rule(v, op->loc, "role warps %" PRId64 " .. %" PRId64 ": expected 0 <= lo <= hi", c[0], c[1]);
	else if (c[1] >= nwarps)
		vf_rule(v, op->loc, "role warps %" PRId64 " .. %" PRId64 " go past the CTA's %d warp%s", c[0], c[1],
			 nwarps, nwarps == 1 ? "" : "s");
	if (c[2] != 0 && !valid_regs(c[2]))
		vf_rule(v, op->loc, "role register budget %" PRId64 ": setmaxnreg takes a multiple of 8 in 24..256 "
			 "(or 0 for none)", c[2]);
	else if (c[2] != 0 && c[0] <= c[1] && (c[0] % 4 || (c[1] - c[0] + 1) % 4))
		vf_rule(v, op->loc, "role register budget %" PRId64 " on warps %" PRId64 " .. %" PRId64 ", which is not "
			 "whole warpgroups (setmaxnreg applies to all 4 warps of a warpgroup)", c[2], c[0], c[1]);
}

void
vf_async_op(Verifier *v, const IrOp *op)
{
	const IrKernel *k = v->k;
	IrType t;

	switch (op->opc) {
	case IR_ROLE:
		if (op->nargs >= 3)
			check_role(v, op);
		break;
	case IR_PRODUCE: case IR_CONSUME:
		if (op->imm < 0 || op->imm >= k->npipelines)
			vf_error(v, op->loc, "%s names pipeline %" PRId64 ", but the kernel has %d pipeline%s",
				 vf_opname(op), op->imm, k->npipelines, k->npipelines == 1 ? "" : "s");
		want_i32(v, op, 0, "the stage");
		want_i32(v, op, 1, "the phase");
		if (op->imm >= 0 && op->imm < k->npipelines)
			const_range(v, op, 0, 0, k->pipelines[op->imm].stages - 1, "the stage");
		const_range(v, op, 1, 0, 1, "the phase");
		break;
	case IR_MBAR:
		if (op->imm < 0 || op->imm >= k->nbarriers) {
			vf_error(v, op->loc, "mbar names barrier %" PRId64 ", but the kernel has %d mbarrier%s", op->imm,
				 k->nbarriers, k->nbarriers == 1 ? "" : "s");
			break;
		}
		want_i32(v, op, 0, "the element");
		const_range(v, op, 0, 0, k->barriers[op->imm].n - 1, "the element");
		want_result(v, op, ir_ptr(IR_SHARED, IR_I64));
		break;
	case IR_SMEM_STAGE:
		if (op->imm < 0 || op->imm >= k->nbufs) {
			vf_error(v, op->loc, "smem.stage names buffer %" PRId64 ", but the kernel has %d shared buffer%s",
				 op->imm, k->nbufs, k->nbufs == 1 ? "" : "s");
			break;
		}
		want_i32(v, op, 0, "the stage");
		const_range(v, op, 0, 0, k->bufs[op->imm].stages - 1, "the stage");
		want_result(v, op, ir_ptr(IR_SHARED, k->bufs[op->imm].elem));
		break;
	case IR_MBAR_INIT:
		vf_want_nres(v, op, 0);
		want_bar(v, op, 0);
		if (op->imm < 1 || op->imm > MBAR_MAX_COUNT)
			vf_error(v, op->loc, "mbar.init[%" PRId64 "]: the arrival count is 1 to %d", op->imm,
				 MBAR_MAX_COUNT);
		break;
	case IR_MBAR_ARRIVE:
		vf_want_nres(v, op, 0);
		want_bar(v, op, 0);
		break;
	case IR_MBAR_ARRIVE_TX: case IR_MBAR_EXPECT_TX:
		vf_want_nres(v, op, 0);
		want_bar(v, op, 0);
		want_i32(v, op, 1, "the byte count");
		const_range(v, op, 1, 0, MBAR_MAX_TX, "the transaction byte count");
		break;
	case IR_MBAR_WAIT:
		vf_want_nres(v, op, 0);
		want_bar(v, op, 0);
		want_i32(v, op, 1, "the parity");
		const_range(v, op, 1, 0, 1, "the parity");
		break;
	case IR_MBAR_ARRIVE_REMOTE:
		vf_want_nres(v, op, 0);
		want_bar(v, op, 0);
		want_i32(v, op, 1, "the CTA rank");
		vf_cluster_arg(v, op, 1, 0);
		break;
	case IR_FENCE_MBAR_INIT: case IR_FENCE_PROXY_ASYNC: case IR_TMA_COMMIT: case IR_CLUSTER_SYNC:
	case IR_WGMMA_COMMIT:
		vf_want_nres(v, op, 0);
		break;
	case IR_TMA_WAIT:
		vf_want_nres(v, op, 0);
		if (op->imm < 0 || op->imm > 63)
			vf_error(v, op->loc, "tma.wait[%" PRId64 "]: the pending group count is 0 to 63", op->imm);
		break;
	case IR_TMA_LOAD: case IR_TMA_LOAD_MC: case IR_TMA_STORE:
		check_tma(v, op);
		break;
	case IR_ELECT_SYNC:
		want_result(v, op, ir_scalar(IR_I1));
		break;
	case IR_SETMAXNREG:
		vf_want_nres(v, op, 0);
		if (!valid_regs(op->imm < 0 ? -op->imm : op->imm))
			vf_error(v, op->loc, "setmaxnreg[%" PRId64 "]: the register count is a multiple of 8 in 24..256 "
				 "(negative to decrease)", op->imm);
		break;
	case IR_CLUSTER_RANK:
		if (vf_want_nres(v, op, 1) && !is_i32(vtype(v, op->res[0])))
			vf_error(v, op->loc, "cluster.rank gives %s, expected i32", vf_tname(vtype(v, op->res[0])));
		break;
	case IR_MAPA:
		if (!want_shared(v, op, 0, "the local address"))
			break;
		want_i32(v, op, 1, "the CTA rank");
		vf_cluster_arg(v, op, 1, 0);
		want_result(v, op, ir_ptr(IR_CLUSTER, (IrBase)vtype(v, op->args[0]).elem));
		break;
	case IR_WGMMA_DESC:
		want_shared(v, op, 0, "the operand's address");
		if ((IR_DESC_SWIZZLE(op->imm) != 32 && IR_DESC_SWIZZLE(op->imm) != 64 && IR_DESC_SWIZZLE(op->imm) != 128) ||
		    IR_DESC_LBO(op->imm) % 16 || IR_DESC_LBO(op->imm) >= (1 << 18))
			vf_error(v, op->loc, "wgmma.desc[%" PRId64 "]: the attribute is the swizzle (32, 64 or 128: operands "
				 "without swizzle are not supported) | the leading byte offset << 16 (a multiple of 16 below 2^18)", op->imm);
		t = op->nres == 1 ? vtype(v, op->res[0]) : ir_scalar(IR_VOID);
		if (vf_want_nres(v, op, 1) && !ir_type_eq(t, ir_scalar(IR_I64)) && !ir_type_eq(t, ir_scalar(IR_U64)))
			vf_error(v, op->loc, "wgmma.desc gives %s, expected i64", vf_tname(t));
		break;
	case IR_WGMMA:
		check_wgmma(v, op);
		break;
	case IR_WGMMA_FENCE: case IR_WGMMA_WAIT:
		check_acc_passthrough(v, op);
		break;
	default:
		break;
	}
}

/* ---- the header ---- */

static int
valid_swizzle(int s)
{
	return s == 0 || s == 32 || s == 64 || s == 128;
}

static void
check_tmap_param(Verifier *v, const IrParam *p)
{
	IrBase e = tmap_elem(v, p);
	int64_t inner;
	int i;

	if (p->rank < 1 || p->rank > TMA_MAX_RANK) {
		vf_error(v, p->loc, "tensor map '%s' has rank %d, expected 1 to %d", p->name, p->rank, TMA_MAX_RANK);
		return;
	}
	if (p->tmap_tensor >= 0 && p->tmap_tensor < v->k->nparams && v->k->params[p->tmap_tensor].rank != p->rank)
		vf_error(v, p->loc, "tensor map '%s' has a box of rank %d but tensor '%s' has rank %d", p->name,
			 p->rank, v->k->params[p->tmap_tensor].name, v->k->params[p->tmap_tensor].rank);
	for (i = 0; i < p->rank; i++)
		if (p->dims[i].sym >= 0 || p->dims[i].size < 1 || p->dims[i].size > TMA_MAX_BOX) {
			vf_error(v, p->loc, "box dimension %d of tensor map '%s' is %" PRId64 ", expected 1 to %d", i + 1,
				 p->name, p->dims[i].size, TMA_MAX_BOX);
			return;
		}
	if (!valid_swizzle(p->swizzle)) {
		vf_error(v, p->loc, "tensor map '%s' has swizzle %d, expected 0, 32, 64 or 128", p->name, p->swizzle);
		return;
	}
	if (p->oob_nan != 0 && p->oob_nan != 1)
		vf_error(v, p->loc, "tensor map '%s' has oob fill %d, expected 0 (zero) or 1 (nan)", p->name, p->oob_nan);
	if (e == IR_VOID)
		return;
	inner = p->dims[p->rank - 1].size * ir_type_bytes(ir_scalar(e));
	if (inner % 16)
		vf_error(v, p->loc, "TMA box inner dimension of '%s' is %" PRId64 " bytes, expected a multiple of 16",
			 p->name, inner);
	else if (p->swizzle && inner > p->swizzle)
		vf_error(v, p->loc, "TMA box inner dimension of '%s' is %" PRId64 " bytes but %dB swizzle allows at most %d",
			 p->name, inner, p->swizzle, p->swizzle);
}

static void
check_barriers(Verifier *v)
{
	const IrKernel *k = v->k;
	int i, j;

	for (i = 0; i < k->nbarriers; i++) {
		const IrBarrier *b = &k->barriers[i];
		const char *name = b->name ? b->name : "";

		if (!*name)
			vf_error(v, b->loc, "mbarrier %d has no name", i);
		for (j = 0; j < i; j++)
			if (k->barriers[j].name && strcmp(k->barriers[j].name, name) == 0)
				vf_error(v, b->loc, "mbarrier '%s' is declared twice", name);
		if (b->count < 1 || b->count > MBAR_MAX_COUNT)
			vf_error(v, b->loc, "mbarrier '%s' has arrival count %d, expected 1 to %d", name, b->count,
				 MBAR_MAX_COUNT);
		if (b->n < 1 || b->n > IR_MAX_STAGES)
			vf_error(v, b->loc, "mbarrier '%s' has %d elements, expected 1 to %d", name, b->n, IR_MAX_STAGES);
		if (b->offset < -1 || (b->offset >= 0 && b->offset % 8))
			vf_error(v, b->loc, "mbarrier '%s' has offset %" PRId64 ", expected -1 (not laid out) or a multiple of 8",
				 name, b->offset);
	}
}

static void
check_pipelines(Verifier *v)
{
	const IrKernel *k = v->k;
	int i, j, side, pair = ir_cta_pair(k);

	for (i = 0; i < k->npipelines; i++) {
		const IrPipeline *p = &k->pipelines[i];
		const char *name = p->name ? p->name : "";

		if (!*name)
			vf_error(v, p->loc, "pipeline %d has no name", i);
		for (j = 0; j < i; j++)
			if (k->pipelines[j].name && strcmp(k->pipelines[j].name, name) == 0)
				vf_error(v, p->loc, "pipeline '%s' is declared twice", name);
		if (p->stages < 1 || p->stages > IR_MAX_STAGES)
			vf_error(v, p->loc, "pipeline '%s' has %d stages, expected 1 to %d", name, p->stages, IR_MAX_STAGES);
		for (side = 0; side < 2; side++) {
			int b = side ? p->empty : p->full, src = side ? p->empty_src : p->full_src;
			int mult = side ? p->empty_mult : p->full_mult, want;
			const char *sname = side ? "empty" : "full";
			const IrBarrier *bar;

			if (src < 0 || src >= PIPE_SRC_COUNT || mult < 1) {
				vf_error(v, p->loc, "pipeline '%s' has %s source %d times %d (tma, thread, warp, warpgroup or mma, "
					 "times at least 1)", name, sname, src, mult);
				continue;
			}
			if (side && src == PIPE_SRC_TMA)
				vf_error(v, p->loc, "pipeline '%s': TMA completes the full barrier, not the empty one", name);
			if (src == PIPE_SRC_MMA && mult != 1)
				vf_error(v, p->loc, "pipeline '%s': an mma %s side counts 1 commit (per CTA, or per pair), found mma * %d",
					 name, sname, mult);
			if (b < 0 || b >= k->nbarriers) {
				vf_error(v, p->loc, "pipeline '%s' has %s barrier %d, but the kernel has %d mbarrier%s", name,
					 sname, b, k->nbarriers, k->nbarriers == 1 ? "" : "s");
				continue;
			}
			bar = &k->barriers[b];
			want = ir_pipe_count(k, p, side, pair);
			if (bar->n != p->stages)
				vf_error(v, p->loc, "pipeline '%s' has %d stages but its %s barrier '%s' has %d elements", name,
					 p->stages, sname, bar->name, bar->n);
			if (bar->count != want)
				vf_error(v, p->loc, "pipeline '%s': %s source %s * %d%s makes %d arrivals, but barrier '%s' "
					 "counts %d", name, sname, ir_pipe_source_name(src), mult,
					 side && p->empty_cluster ? " (a cluster release)" : "", want, bar->name, bar->count);
		}
		if (p->empty_cluster && cluster_size(k) == 1)
			vf_error(v, p->loc, "pipeline '%s' has a cluster release, but kernel '%s' has no cluster", name, k->name);
		if (p->empty_cluster && ir_pair_pipeline(p, pair) && p->empty_src != PIPE_SRC_MMA)
			vf_error(v, p->loc, "pipeline '%s': a pair pipeline's cluster release is its mma side's", name);
		if (p->full == p->empty && p->full >= 0)
			vf_error(v, p->loc, "pipeline '%s' uses barrier %d as both full and empty", name, p->full);
	}
}

static void
check_buffer_staging(Verifier *v)
{
	const IrKernel *k = v->k;
	int i;

	for (i = 0; i < k->nbufs; i++) {
		const IrBuffer *b = &k->bufs[i];
		const char *name = b->name ? b->name : "";

		if (b->stages < 1 || b->stages > IR_MAX_STAGES)
			vf_error(v, b->loc, "shared buffer '%s' has %d stages, expected 1 to %d", name, b->stages, IR_MAX_STAGES);
		if (b->pipeline < -1 || b->pipeline >= k->npipelines)
			vf_error(v, b->loc, "shared buffer '%s' is in pipeline %d, but the kernel has %d pipeline%s", name,
				 b->pipeline, k->npipelines, k->npipelines == 1 ? "" : "s");
		else if (b->pipeline >= 0 && k->pipelines[b->pipeline].stages != b->stages)
			vf_error(v, b->loc, "shared buffer '%s' has %d stages but its pipeline '%s' has %d", name,
				 b->stages, k->pipelines[b->pipeline].name, k->pipelines[b->pipeline].stages);
		if (!valid_swizzle(b->swizzle))
			vf_error(v, b->loc, "shared buffer '%s' has swizzle %d, expected 0, 32, 64 or 128", name, b->swizzle);
		else if (b->swizzle && b->align > 0 && b->align < b->swizzle * 8)
			vf_error(v, b->loc, "shared buffer '%s' has swizzle %d but alignment %d (at least %d)", name,
				 b->swizzle, b->align, b->swizzle * 8);
		if (b->alias < -1 || b->alias >= k->nbufs || b->alias == i)
			vf_error(v, b->loc, "shared buffer '%s' aliases buffer %d (another buffer of the kernel's %d, or -1)",
				 name, b->alias, k->nbufs);
		else if (b->alias >= 0 && k->bufs[b->alias].alias >= 0)
			vf_error(v, b->loc, "shared buffer '%s' aliases '%s', which is an alias itself", name,
				 k->bufs[b->alias].name);
		if (b->stage_stride < 0 || (b->stages > 1 && b->stage_stride > 0 &&
					    b->stage_stride < b->count * ir_type_bytes(ir_scalar(b->elem))))
			vf_error(v, b->loc, "shared buffer '%s' has stage stride %" PRId64 ", less than a stage's %" PRId64 " bytes",
				 name, b->stage_stride, b->count * ir_type_bytes(ir_scalar(b->elem)));
	}
}

void
vf_async_header(Verifier *v)
{
	const IrKernel *k = v->k;
	SrcLoc kloc = {k->file, 0, 0, 0};
	int i;

	for (i = 0; i < 3; i++)
		if (k->cluster[i] < 1) {
			vf_error(v, kloc, "cluster %d %d %d: each dimension must be at least 1", k->cluster[0],
				 k->cluster[1], k->cluster[2]);
			break;
		}
	if (i == 3 && cluster_size(k) > MAX_CLUSTER)
		vf_error(v, kloc, "cluster %d %d %d makes %d CTAs; the portable limit is %d", k->cluster[0],
			 k->cluster[1], k->cluster[2], cluster_size(k), MAX_CLUSTER);
	if (k->min_blocks < 0)
		vf_error(v, kloc, "min_blocks is %d, expected 0 or more", k->min_blocks);
	for (i = 0; i < k->nparams; i++)
		if (k->params[i].kind == PARAM_TMAP)
			check_tmap_param(v, &k->params[i]);
	check_barriers(v);
	check_pipelines(v);
	check_buffer_staging(v);
}

/* ---- whole-kernel rules ---- */

/* Barrier initialisation states, in the order the protocol reaches them. */
enum { INIT_NONE, INIT_DONE, INIT_FENCED, INIT_READY };

typedef struct Walk {
	Verifier *v;
	const IrOp *role;         /* the enclosing role, or NULL */
	const IrOp *inner;        /* the innermost enclosing role, elect, produce or consume */
	const IrOp *elect;        /* the enclosing elect */
	const IrOp *elect_wgmma;  /* the elect a wgmma inside it was reported for */
	SrcLoc gated;             /* where the last target-gating error was */
	int nasync;               /* enclosing produce/consume ops */
	const IrOp *async[16];
	unsigned char *reported_op;
	int check_init;
	unsigned char *reported_bar;
	const IrOp **roles;       /* every role op, for the disjointness check */
	int nroles, caproles;
} Walk;

static int
role_bounds(const Verifier *v, const IrOp *role, int64_t *lo, int64_t *hi)
{
	return role && role->nargs >= 2 && vf_const_of(v, role->args[0], lo) && vf_const_of(v, role->args[1], hi);
}

static void
gate_targets(Walk *w, const IrOp *op)
{
	const IrKernel *k = w->v->k;
	unsigned have = ir_op_targets(op->opc), missing = k->targets & ~have;
	char need[64];
	int t, n = 0;

	/* once per opcode, and once per source position: one wgmma() in .cake is five ops */
	if (!missing || (w->reported_op[op->opc] & 1) ||
	    (op->loc.line > 0 && op->loc.line == w->gated.line && op->loc.col == w->gated.col &&
	     op->loc.file == w->gated.file))
		return;
	w->reported_op[op->opc] |= 1;
	w->gated = op->loc;
	need[0] = 0;
	for (t = 0; t < TARGET_COUNT; t++)
		if (have & (1u << t))
			n += snprintf(need + n, sizeof need - (size_t)n, "%s%s", n ? " or " : "", ir_target_name(t));
	for (t = 0; t < TARGET_COUNT; t++)
		if (missing & (1u << t))
			break;
	vf_rule(w->v, op->loc, "%s needs %s; kernel '%s' also targets %s", vf_opname(op), need, k->name,
		 ir_target_name(t));
}

/* wgmma* are warpgroup-wide: the warps that run them must be whole warpgroups. */
static void
check_warpgroup(Walk *w, const IrOp *op)
{
	const IrKernel *k = w->v->k;
	int64_t lo, hi, n = (int64_t)k->threads[0] * k->threads[1] * k->threads[2];

	/* once per kernel for the family: one wgmma() in .cake is four ops at one line */
	if (w->reported_op[IR_WGMMA] & 2)
		return;
	if (w->role && role_bounds(w->v, w->role, &lo, &hi)) {
		if (lo % 4 == 0 && (hi - lo + 1) % 4 == 0)
			return;
		vf_rule(w->v, op->loc, "%s in a role of warps %" PRId64 " .. %" PRId64 ", which is not whole warpgroups "
			 "(it must start at a multiple of 4 warps and span a multiple of 4)", vf_opname(op), lo, hi);
	} else if (!w->role && n % 128) {
		vf_rule(w->v, op->loc, "%s outside any role in a CTA of %" PRId64 " threads, which is not whole warpgroups",
			 vf_opname(op), n);
	} else {
		return;
	}
	w->reported_op[IR_WGMMA] |= 2;
}

static void
check_nesting(Walk *w, const IrOp *op)
{
	const Verifier *v = w->v;
	int i;

	switch (op->opc) {
	case IR_ROLE:
		if (w->inner)
			vf_rule(w->v, op->loc, "role inside %s %s region: roles partition the CTA's warps at the top level",
				 w->inner->opc == IR_ELECT ? "an" : "a", vf_opname(w->inner));
		else
			PUSH(w->roles, w->nroles, w->caproles, op);
		break;
	case IR_ELECT:
		if (w->elect)
			vf_rule(w->v, op->loc, "elect inside an elect region: only one thread runs the outer region");
		break;
	case IR_PRODUCE: case IR_CONSUME:
		if (!w->role)
			vf_rule(w->v, op->loc, "%s of pipeline '%s' outside any role", vf_opname(op),
				 v->k->pipelines[op->imm].name);
		for (i = 0; i < w->nasync; i++)
			if (w->async[i]->imm == op->imm)
				vf_rule(w->v, op->loc, "%s of pipeline '%s' inside a %s of the same pipeline", vf_opname(op),
					 v->k->pipelines[op->imm].name, vf_opname(w->async[i]));
		break;
	case IR_TMA_LOAD: case IR_TMA_LOAD_MC:
		/* in a produce block the load completes the pipeline's full barrier */
		if (w->nasync && w->async[w->nasync - 1]->opc == IR_PRODUCE) {
			const IrPipeline *p = &v->k->pipelines[w->async[w->nasync - 1]->imm];

			if (p->full_src != PIPE_SRC_TMA)
				vf_rule(w->v, op->loc, "%s in a produce of pipeline '%s', whose full source is %s: TMA bytes "
					"complete only a 'full: tma' barrier", vf_opname(op), p->name,
					ir_pipe_source_name(p->full_src));
		}
		break;
	case IR_WGMMA: case IR_WGMMA_FENCE: case IR_WGMMA_COMMIT: case IR_WGMMA_WAIT:
		check_warpgroup(w, op);
		if (w->elect && w->elect_wgmma != w->elect) {
			vf_rule(w->v, op->loc, "%s inside an elect region: wgmma needs the whole warpgroup", vf_opname(op));
			w->elect_wgmma = w->elect;      /* once per elect region, for the same reason */
		}
		break;
	default:
		break;
	}
}

/* The barrier (index into k->barriers) that a ptr.shared.i64 operand addresses, if it is
 * an `mbar` op's result; -1 otherwise (then it cannot be tracked). */
static int
barrier_of(const Verifier *v, IrValue x)
{
	const IrOp *d = x > 0 && x < v->k->nvalues ? v->def[x] : NULL;

	if (d && d->opc == IR_MBAR && d->imm >= 0 && d->imm < v->k->nbarriers)
		return (int)d->imm;
	return -1;
}

static void
check_use_init(Walk *w, const IrOp *op, const unsigned char *st)
{
	const IrKernel *k = w->v->k;
	int b, arg = op->opc == IR_TMA_LOAD || op->opc == IR_TMA_LOAD_MC ? 2 : 0;
	const char *why;

	if (op->nargs <= arg || (b = barrier_of(w->v, op->args[arg])) < 0 || st[b] == INIT_READY ||
	    w->reported_bar[b])
		return;
	w->reported_bar[b] = 1;
	switch (st[b]) {
	case INIT_NONE: why = "no mbar.init of it comes first"; break;
	case INIT_DONE: why = "its mbar.init is not followed by fence.mbar_init"; break;
	default:
		why = cluster_size(k) > 1 ? "no cluster.sync follows its init fence (the kernel has a cluster)"
					  : "no CTA barrier (barrier or cluster.sync) follows its init fence";
		break;
	}
	vf_error(w->v, op->loc, "mbarrier '%s' is used by %s before it is initialised: %s", k->barriers[b].name,
		 vf_opname(op), why);
}

static void
track_init(Walk *w, const IrOp *op, unsigned char *st)
{
	const IrKernel *k = w->v->k;
	int b, i;

	switch (op->opc) {
	case IR_MBAR_INIT:
		if ((b = barrier_of(w->v, op->args[0])) >= 0 && st[b] < INIT_DONE)
			st[b] = INIT_DONE;
		break;
	case IR_FENCE_MBAR_INIT:
		for (i = 0; i < k->nbarriers; i++)
			if (st[i] == INIT_DONE)
				st[i] = INIT_FENCED;
		break;
	case IR_BARRIER: case IR_CLUSTER_SYNC:
		/* other CTAs of a cluster may arrive or multicast: they need the cluster barrier */
		if (op->opc == IR_BARRIER && cluster_size(k) > 1)
			break;
		for (i = 0; i < k->nbarriers; i++)
			if (st[i] == INIT_FENCED)
				st[i] = INIT_READY;
		break;
	case IR_MBAR_ARRIVE: case IR_MBAR_ARRIVE_TX: case IR_MBAR_EXPECT_TX: case IR_MBAR_WAIT:
	case IR_MBAR_ARRIVE_REMOTE: case IR_TMA_LOAD: case IR_TMA_LOAD_MC:
		check_use_init(w, op, st);
		break;
	default:
		break;
	}
}

/* Walks r in order. st is the barrier state on entry and is updated in place; states
 * reached in nested regions flow out (any path counts: one thread initialises, and a
 * barrier after the region publishes it to all). */
static void
walk(Walk *w, const IrRegion *r, unsigned char *st, int depth)
{
	int nb = w->v->k->nbarriers, i, j, m;

	if (depth > 1000)
		return;
	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i];
		const IrOp *saved_role = w->role, *saved_elect = w->elect, *saved_inner = w->inner;
		int saved_nasync = w->nasync;

		gate_targets(w, op);
		check_nesting(w, op);
		if (w->check_init)
			track_init(w, op, st);
		if (!op->nregions)
			continue;
		if (op->opc >= IR_ROLE && op->opc <= IR_CONSUME)
			w->inner = op;
		if (op->opc == IR_ROLE)
			w->role = op;
		else if (op->opc == IR_ELECT)
			w->elect = op;
		else if ((op->opc == IR_PRODUCE || op->opc == IR_CONSUME) && w->nasync < 16)
			w->async[w->nasync++] = op;
		for (j = 0; j < op->nregions; j++) {
			unsigned char *sub = xmalloc((size_t)nb + 1);

			memcpy(sub, st, (size_t)nb);
			walk(w, &op->regions[j], sub, depth + 1);
			for (m = 0; m < nb; m++)
				if (sub[m] > st[m])
					st[m] = sub[m];
			free(sub);
		}
		w->role = saved_role;
		w->elect = saved_elect;
		w->inner = saved_inner;
		w->nasync = saved_nasync;
	}
}

static int
count_ops(const IrRegion *r, int opc_lo, int opc_hi, int depth)
{
	int i, j, n = 0;

	if (depth > 1000)
		return 0;
	for (i = 0; i < r->nops; i++) {
		if (r->ops[i].opc >= opc_lo && r->ops[i].opc <= opc_hi)
			n++;
		for (j = 0; j < r->ops[i].nregions; j++)
			n += count_ops(&r->ops[i].regions[j], opc_lo, opc_hi, depth + 1);
	}
	return n;
}

static void
check_roles_disjoint(Walk *w)
{
	int i, j;

	for (i = 0; i < w->nroles; i++)
		for (j = 0; j < i; j++) {
			int64_t lo1, hi1, lo2, hi2;

			if (!role_bounds(w->v, w->roles[i], &lo1, &hi1) || !role_bounds(w->v, w->roles[j], &lo2, &hi2))
				continue;
			if (lo1 <= hi2 && lo2 <= hi1) {
				vf_rule(w->v, w->roles[i]->loc, "role of warps %" PRId64 " .. %" PRId64 " overlaps the role of "
					 "warps %" PRId64 " .. %" PRId64, lo1, hi1, lo2, hi2);
				diag_note(w->roles[j]->loc, "the other role is here");
			}
		}
}

void
vf_async_kernel(Verifier *v)
{
	const IrKernel *k = v->k;
	Walk w;
	unsigned char *st = xcalloc((size_t)k->nbarriers + 1, 1);

	memset(&w, 0, sizeof w);
	w.v = v;
	w.reported_op = xcalloc(IR_NOPCODES, 1);
	w.reported_bar = xcalloc((size_t)k->nbarriers + 1, 1);
	/* Until expand-async has run, the init code for the barriers may not exist yet: check
	 * once there is some (or nothing high-level is left to lower). */
	w.check_init = count_ops(&k->body, IR_MBAR_INIT, IR_MBAR_INIT, 0) > 0 ||
		       count_ops(&k->body, IR_ROLE, IR_CONSUME, 0) == 0;
	walk(&w, &k->body, st, 0);
	check_roles_disjoint(&w);
	free(w.roles);
	free(w.reported_op);
	free(w.reported_bar);
	free(st);
}
