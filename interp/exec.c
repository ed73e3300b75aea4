/* exec.c: the op evaluator. One warp executes an op for all lanes of an active mask at
 * once; structured control flow narrows the mask: an `if` runs its then-region for the
 * lanes whose condition holds and its else-region for the others (a region whose mask is
 * empty does not run), a loop runs until no lane continues, each lane leaving with its own
 * values. Collectives (shuffles, votes, ballot, elect.sync, barrier) need every lane of
 * the warp and report a partial mask as a divergent collective.
 *
 * The semantics live in one table (exec_rows): a row per opcode with its handler and, for
 * elementwise float arithmetic, its f32 and f64 functions. A new op is one row; an opcode
 * without a row is reported before the run as "not yet supported by the interpreter".
 * Integer arithmetic, compares and int casts go through the IR's shared evaluator
 * (ir_eval_int_op), so the interpreter computes what constant folding computes; results the
 * GPU leaves undefined there (x / 0, shifts by the width) read as 0. f32 arithmetic is done
 * in C float (correctly rounded, as the GPU's .rn ops), f64 in double, f16/bf16 in double
 * rounded once into the format. The approximate ops (exp2, log2, rsqrt: ex2.approx,
 * lg2.approx, rsqrt.approx on the GPU) are computed accurately in double and rounded: they
 * may differ from the GPU's in the last bits (docs/interpreter.md), as do the math library's
 * .approx forms; its accurate f32 functions are the GPU's expansions (interp/math.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "mathlib.h"

typedef float (*F32Fn)(const float *a);
typedef double (*F64Fn)(const double *a);

typedef struct ExecRow {
	int opc;
	ExecFn fn;
	F32Fn f32;      /* elementwise float ops: the f32 function (in float) */
	F64Fn f64;      /* and the f64 one (also f16/bf16, rounded into the format) */
} ExecRow;

static const IrOp *exec_region(Warp *w, const IrRegion *r, uint32_t mask);

static IrType
vt(const Warp *w, IrValue v)
{
	return ir_vtype(w->it->k, v);
}

/* ---- float functions of the arithmetic rows ---- */

static float f32_add(const float *a) { return a[0] + a[1]; }
static double f64_add(const double *a) { return a[0] + a[1]; }
static float f32_sub(const float *a) { return a[0] - a[1]; }
static double f64_sub(const double *a) { return a[0] - a[1]; }
static float f32_mul(const float *a) { return a[0] * a[1]; }
static double f64_mul(const double *a) { return a[0] * a[1]; }
static float f32_div(const float *a) { return a[0] / a[1]; }
static double f64_div(const double *a) { return a[0] / a[1]; }
/* min.f32/max.f32 (llvm.minnum/maxnum): a NaN operand yields the other one */
static float f32_min(const float *a) { return fminf(a[0], a[1]); }
static double f64_min(const double *a) { return fmin(a[0], a[1]); }
static float f32_max(const float *a) { return fmaxf(a[0], a[1]); }
static double f64_max(const double *a) { return fmax(a[0], a[1]); }
static float f32_neg(const float *a) { return -a[0]; }
static double f64_neg(const double *a) { return -a[0]; }
static float f32_abs(const float *a) { return fabsf(a[0]); }
static double f64_abs(const double *a) { return fabs(a[0]); }
/* ex2.approx.ftz: a result below 2^-126 is 0 (backend_ptx/llvm_ops.c says why .ftz) */
static float ftz_pos(double r) { return r < 0x1p-126 ? 0.0f : (float)r; }
static float f32_exp2(const float *a) { return ftz_pos(exp2((double)a[0])); }
static double f64_exp2(const double *a) { return exp2(a[0]); }
static float f32_log2(const float *a) { return (float)log2((double)a[0]); }
static double f64_log2(const double *a) { return log2(a[0]); }
static float f32_rsqrt(const float *a) { return (float)(1.0 / sqrt((double)a[0])); }
static double f64_rsqrt(const double *a) { return 1.0 / sqrt(a[0]); }
static float f32_sqrt(const float *a) { return sqrtf(a[0]); }
static double f64_sqrt(const double *a) { return sqrt(a[0]); }
static float f32_fma(const float *a) { return fmaf(a[0], a[1], a[2]); }
static double f64_fma(const double *a) { return fma(a[0], a[1], a[2]); }

/* The math library: the accurate f32 functions are the GPU's expansions (interp/math.c), bit
 * for bit; the .approx forms mirror the PTX sequence (exp.approx: ex2.approx of the float
 * product x log2(e); log.approx: lg2.approx times ln 2) with the approximate instruction
 * computed accurately in double: their last bits may differ from the GPU's. */
static float f32_exp(const float *a) { return im_exp(a[0]); }
static float f32_log(const float *a) { return im_log(a[0]); }
static float f32_sin(const float *a) { return im_sin(a[0]); }
static float f32_cos(const float *a) { return im_cos(a[0]); }
static float f32_tanh(const float *a) { return im_tanh(a[0]); }
static float f32_erf(const float *a) { return im_erf(a[0]); }
static float f32_pow(const float *a) { return im_pow(a[0], a[1]); }
static float f32_exp_approx(const float *a) { return ftz_pos(exp2((double)(a[0] * 0x1.715476p+0f))); }
static float f32_log_approx(const float *a) { return (float)log2((double)a[0]) * 0x1.62e430p-1f; }
static float f32_sin_approx(const float *a) { return (float)sin((double)a[0]); }
static float f32_cos_approx(const float *a) { return (float)cos((double)a[0]); }
static float f32_tanh_approx(const float *a) { return (float)tanh((double)a[0]); }
/* exact in any format: the C library's functions are the PTX instructions' */
static float f32_floor(const float *a) { return floorf(a[0]); }
static double f64_floor(const double *a) { return floor(a[0]); }
static float f32_ceil(const float *a) { return ceilf(a[0]); }
static double f64_ceil(const double *a) { return ceil(a[0]); }
static float f32_trunc(const float *a) { return truncf(a[0]); }
static double f64_trunc(const double *a) { return trunc(a[0]); }
static float f32_round(const float *a) { return roundf(a[0]); }
static double f64_round(const double *a) { return round(a[0]); }
static float f32_rint(const float *a) { return rintf(a[0]); }
static double f64_rint(const double *a) { return rint(a[0]); }
static float f32_copysign(const float *a) { return copysignf(a[0], a[1]); }
static double f64_copysign(const double *a) { return copysign(a[0], a[1]); }

/* ---- value moves ---- */

static void
copy_value(Warp *w, IrValue dst, IrValue src, uint32_t mask)
{
	int e, n = w->it->width[dst], l;

	exec_acc_copy(w, dst, src);
	for (e = 0; e < n; e++) {
		uint64_t *d = reg(w, dst, e), *s = reg(w, src, e);

		if (mask == ALL_LANES)
			memcpy(d, s, WARP * sizeof *d);
		else
			LANES(l, mask) d[l] = s[l];
	}
}

/* dst[i] = src[i] for the lanes of mask, as one parallel assignment (a loop's yield may
 * swap its carried values). */
static void
transfer(Warp *w, const IrValue *dst, const IrValue *src, int n, uint32_t mask)
{
	int i, j, e, alias = 0, total = 0, at;
	uint64_t *tmp;
	uint32_t *tg;
	const IrOp **to;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			alias |= i != j && src[i] == dst[j];
	if (!alias) {
		for (i = 0; i < n; i++)
			if (dst[i] != src[i])
				copy_value(w, dst[i], src[i], mask);
		return;
	}
	for (i = 0; i < n; i++)
		total += w->it->width[src[i]];
	tmp = xmalloc((size_t)total * WARP * sizeof *tmp);
	tg = xmalloc((size_t)n * sizeof *tg);
	to = xmalloc((size_t)n * sizeof *to);
	for (i = 0, at = 0; i < n; i++) {
		tg[i] = w->acc_group[src[i]];
		to[i] = w->acc_op[src[i]];
		for (e = 0; e < w->it->width[src[i]]; e++, at++)
			memcpy(tmp + at * WARP, reg(w, src[i], e), WARP * sizeof *tmp);
	}
	for (i = 0; i < n; i++) {
		w->acc_group[dst[i]] = tg[i];
		w->acc_op[dst[i]] = to[i];
	}
	free(tg);
	free(to);
	for (i = 0, at = 0; i < n; i++)
		for (e = 0; e < w->it->width[dst[i]]; e++, at++) {
			uint64_t *d = reg(w, dst[i], e);
			int l;

			LANES(l, mask) d[l] = tmp[at * WARP + l];
		}
	free(tmp);
}

/* ---- constants and special registers ---- */

static void
ex_const(Warp *w, const IrOp *op, uint32_t mask)
{
	IrType t = vt(w, op->res[0]);
	uint64_t bits = ir_is_float(t) ? num_from_double((IrBase)t.base, op->fimm)
				       : (uint64_t)ir_int_norm(ir_scalar((IrBase)t.base), op->imm);
	int e, l;

	for (e = 0; e < t.lanes; e++) {
		uint64_t *d = reg(w, op->res[0], e);

		LANES(l, mask) d[l] = bits;
	}
}

static void
ex_special(Warp *w, const IrOp *op, uint32_t mask)
{
	const Interp *it = w->it;
	const int *nt = it->k->threads;
	uint64_t *d = reg(w, op->res[0], 0);
	int l;

	LANES(l, mask) {
		int64_t t = (int64_t)w->id * WARP + l, v;

		switch (op->opc) {
		case IR_TID_X: v = t % nt[0]; break;
		case IR_TID_Y: v = t / nt[0] % nt[1]; break;
		case IR_TID_Z: v = t / ((int64_t)nt[0] * nt[1]); break;
		case IR_NTID_X: case IR_NTID_Y: case IR_NTID_Z: v = nt[op->opc - IR_NTID_X]; break;
		case IR_CTAID_X: case IR_CTAID_Y: case IR_CTAID_Z: v = w->b->id[op->opc - IR_CTAID_X]; break;
		case IR_NCTAID_X: case IR_NCTAID_Y: case IR_NCTAID_Z: v = it->grid[op->opc - IR_NCTAID_X]; break;
		case IR_LANEID: v = l; break;
		default: v = w->id; break;   /* IR_WARPID */
		}
		d[l] = (uint64_t)ir_int_norm(vt(w, op->res[0]), v);
	}
}

/* ---- arithmetic, compares, select, conversions, vectors ---- */

static const ExecRow *row_of(int opc);

static void
ex_arith(Warp *w, const IrOp *op, uint32_t mask)
{
	IrType t = vt(w, op->res[0]), st = ir_scalar((IrBase)t.base);
	const ExecRow *row = row_of(op->opc);
	int e, i, l, n = op->nargs;

	if (ir_is_float(t) && (!row->f32 || (t.base != IR_F32 && !row->f64))) {
		interp_fail(w, op, 0, "'%s' on %s", ir_opinfo[op->opc].name, ir_base_name((IrBase)t.base));
		return;
	}
	for (e = 0; e < t.lanes; e++) {
		const uint64_t *a[3];
		uint64_t *d = reg(w, op->res[0], e);

		for (i = 0; i < n; i++)
			a[i] = reg(w, op->args[i], e);
		if (t.base == IR_F32) {
			float x[3];

			LANES(l, mask) {
				for (i = 0; i < n; i++)
					x[i] = num_f32(a[i][l]);
				float r = row->f32(x);

				d[l] = r == r ? num_f32_bits(r) : NUM_F32_NAN;
			}
		} else if (ir_is_float(t)) {
			double x[3];

			LANES(l, mask) {
				for (i = 0; i < n; i++)
					x[i] = num_to_double((IrBase)t.base, a[i][l]);
				d[l] = num_from_double((IrBase)t.base, row->f64(x));
			}
		} else {
			int64_t x[3], r;

			LANES(l, mask) {
				for (i = 0; i < n; i++)
					x[i] = (int64_t)a[i][l];
				d[l] = ir_eval_int_op(op->opc, st, st, n, x, &r) ? (uint64_t)r : 0;
			}
		}
	}
}

static int
float_compare(int opc, double a, double b)
{
	switch (opc) {
	case IR_CMP_EQ: return a == b;
	case IR_CMP_NE: return !(a == b);     /* unordered: true for NaN */
	case IR_CMP_LT: return a < b;
	case IR_CMP_LE: return a <= b;
	case IR_CMP_GT: return a > b;
	default: return a >= b;
	}
}

static void
ex_cmp(Warp *w, const IrOp *op, uint32_t mask)
{
	IrType at = vt(w, op->args[0]), sat = ir_scalar((IrBase)at.base);
	int e, l;

	if (at.base == IR_PTR) {
		interp_fail(w, op, 0, "comparing pointers");
		return;
	}
	for (e = 0; e < at.lanes; e++) {
		const uint64_t *a = reg(w, op->args[0], e), *b = reg(w, op->args[1], e);
		uint64_t *d = reg(w, op->res[0], e);

		LANES(l, mask) {
			if (ir_is_float(at)) {
				d[l] = (uint64_t)float_compare(op->opc, num_to_double((IrBase)at.base, a[l]),
							       num_to_double((IrBase)at.base, b[l]));
			} else {
				int64_t x[2] = {(int64_t)a[l], (int64_t)b[l]}, r = 0;

				ir_eval_int_op(op->opc, ir_scalar(IR_I1), sat, 2, x, &r);
				d[l] = (uint64_t)r;
			}
		}
	}
}

/* isnan, isinf: an i1 per element of a float operand */
static void
ex_fclass(Warp *w, const IrOp *op, uint32_t mask)
{
	IrType at = vt(w, op->args[0]);
	int e, l;

	for (e = 0; e < at.lanes; e++) {
		const uint64_t *a = reg(w, op->args[0], e);
		uint64_t *d = reg(w, op->res[0], e);

		LANES(l, mask) {
			double x = num_to_double((IrBase)at.base, a[l]);

			d[l] = (uint64_t)(op->opc == IR_ISNAN ? isnan(x) != 0 : isinf(x) != 0);
		}
	}
}

static void
ex_select(Warp *w, const IrOp *op, uint32_t mask)
{
	IrType ct = vt(w, op->args[0]);
	int e, l, n = w->it->width[op->res[0]];

	for (e = 0; e < n; e++) {
		const uint64_t *c = reg(w, op->args[0], ct.lanes > 1 ? e : 0);
		const uint64_t *a = reg(w, op->args[1], e), *b = reg(w, op->args[2], e);
		uint64_t *d = reg(w, op->res[0], e);

		LANES(l, mask) d[l] = c[l] & 1 ? a[l] : b[l];
	}
}

static void
ex_cast(Warp *w, const IrOp *op, uint32_t mask)
{
	IrType from = vt(w, op->args[0]), to = vt(w, op->res[0]);
	int e, l;

	if (from.base == IR_PTR || to.base == IR_PTR) {
		if (from.base == to.base && from.space == to.space) {
			copy_value(w, op->res[0], op->args[0], mask);
			return;
		}
		interp_fail(w, op, 0, "not yet supported by the interpreter: cast of a pointer");
		return;
	}
	for (e = 0; e < to.lanes; e++) {
		const uint64_t *a = reg(w, op->args[0], e);
		uint64_t *d = reg(w, op->res[0], e);

		LANES(l, mask) d[l] = num_convert((IrBase)from.base, (IrBase)to.base, a[l]);
	}
}

/* The elements' bits packed little-endian (as the GPU's registers hold a vector), then
 * read back as the result's elements. */
static void
ex_bitcast(Warp *w, const IrOp *op, uint32_t mask)
{
	IrType from = vt(w, op->args[0]), to = vt(w, op->res[0]);
	int fb = ir_base_bits((IrBase)from.base), tb = ir_base_bits((IrBase)to.base), e, l;

	if (from.base == IR_PTR && to.base == IR_PTR) {
		/* a pointer's bits are its byte address, whatever it points to */
		copy_value(w, op->res[0], op->args[0], mask);
		return;
	}
	if (from.base == IR_PTR || to.base == IR_PTR) {
		interp_fail(w, op, 0, "not yet supported by the interpreter: bitcast between a pointer and an integer");
		return;
	}
	LANES(l, mask) {
		unsigned char bytes[IR_FRAG_MAX * 8];

		memset(bytes, 0, sizeof bytes);
		for (e = 0; e < from.lanes; e++) {
			uint64_t v = reg(w, op->args[0], e)[l];

			memcpy(bytes + e * (fb / 8), &v, (size_t)(fb / 8));   /* little-endian host */
		}
		for (e = 0; e < to.lanes; e++) {
			uint64_t v = 0;

			memcpy(&v, bytes + e * (tb / 8), (size_t)(tb / 8));
			reg(w, op->res[0], e)[l] = ir_is_int(to) ? (uint64_t)ir_int_norm(ir_scalar((IrBase)to.base), (int64_t)v) : v;
		}
	}
}

static void
ex_vec(Warp *w, const IrOp *op, uint32_t mask)
{
	int i;

	for (i = 0; i < op->nargs; i++) {
		uint64_t *d = reg(w, op->res[0], i), *s = reg(w, op->args[i], 0);
		int l;

		LANES(l, mask) d[l] = s[l];
	}
}

static void
ex_extract(Warp *w, const IrOp *op, uint32_t mask)
{
	uint64_t *d = reg(w, op->res[0], 0), *s = reg(w, op->args[0], (int)op->imm);
	int l;

	LANES(l, mask) d[l] = s[l];
}

/* ---- memory ---- */

static void
ex_elemptr(Warp *w, const IrOp *op, uint32_t mask)
{
	IrType pt = vt(w, op->args[0]);
	int64_t size = ir_type_bytes(ir_scalar((IrBase)pt.elem));
	const uint64_t *p = reg(w, op->args[0], 0), *i = reg(w, op->args[1], 0);
	uint64_t *d = reg(w, op->res[0], 0);
	int l;

	LANES(l, mask) d[l] = mem_ptr_add(p[l], (int64_t)((uint64_t)(int64_t)i[l] * (uint64_t)size));
}

static void
ex_smem(Warp *w, const IrOp *op, uint32_t mask)
{
	uint64_t *d = reg(w, op->res[0], 0), p = mem_ptr_make(w->it->shared_obj0 + (int)op->imm, 0);
	int l;

	LANES(l, mask) d[l] = p;
}

static void
ex_smem_stage(Warp *w, const IrOp *op, uint32_t mask)
{
	const IrBuffer *b = &w->it->k->bufs[op->imm];
	const uint64_t *s = reg(w, op->args[0], 0);
	uint64_t *d = reg(w, op->res[0], 0);
	int l;

	LANES(l, mask) d[l] = mem_ptr_make(w->it->shared_obj0 + (int)op->imm, (int64_t)s[l] * b->stage_stride);
}

/* The alignment a vector access of n bytes needs: its whole size (the backend aligns
 * vector accesses so), for the sizes PTX has as one access. */
static int
access_align(int n, int elem)
{
	return n <= 16 && (n & (n - 1)) == 0 ? n : elem;
}

static uint64_t
read_elem(const unsigned char *p, IrBase b)
{
	uint64_t v = 0;
	int n = ir_type_bytes(ir_scalar(b));

	memcpy(&v, p, (size_t)n);
	return ir_is_int(ir_scalar(b)) ? (uint64_t)ir_int_norm(ir_scalar(b), (int64_t)v) : v;
}

static void
write_elem(unsigned char *p, IrBase b, uint64_t v)
{
	memcpy(p, &v, (size_t)ir_type_bytes(ir_scalar(b)));
}

static void
ex_load(Warp *w, const IrOp *op, uint32_t mask)
{
	IrType t = vt(w, op->res[0]);
	int eb = ir_type_bytes(ir_scalar((IrBase)t.base)), n = eb * t.lanes, e, l;
	const uint64_t *p = reg(w, op->args[0], 0);

	LANES(l, mask) {
		unsigned char *m = mem_access(w, op, l, p[l], n, access_align(n, eb), 0);

		if (!m)
			return;
		for (e = 0; e < t.lanes; e++)
			reg(w, op->res[0], e)[l] = read_elem(m + e * eb, (IrBase)t.base);
	}
}

/* The bytes lane l of store op stores, in out; their count. */
static int
store_bytes(Warp *w, const IrOp *op, int l, unsigned char *out)
{
	IrType t = vt(w, op->args[1]);
	int eb = ir_type_bytes(ir_scalar((IrBase)t.base)), e;

	for (e = 0; e < t.lanes; e++)
		write_elem(out + e * eb, (IrBase)t.base, reg(w, op->args[1], e)[l]);
	return eb * t.lanes;
}

/* Two lanes of one store op that write different values to overlapping bytes: which lane's
 * value lands is undefined on the GPU (a write by one lane and a read by another in one op
 * is fine: one instruction). The lanes' pointers sorted (insertion sort: they usually come
 * sorted), each range is compared with the next; equal bytes are no conflict. 0, or -1
 * after reporting. */
static int
lane_conflicts(Warp *w, const IrOp *op, uint32_t mask, const uint64_t *p, int n)
{
	int lane[WARP], cnt = 0, i, j, l;

	LANES(l, mask) {
		for (j = cnt; j > 0 && p[lane[j - 1]] > p[l]; j--)
			lane[j] = lane[j - 1];
		lane[j] = l;
		cnt++;
	}
	for (i = 0; i + 1 < cnt; i++) {
		int a = lane[i], b = lane[i + 1];
		int64_t gap = (int64_t)(p[b] - p[a]);
		unsigned char va[IR_FRAG_MAX * 8], vb[IR_FRAG_MAX * 8];

		if (gap >= n)
			continue;
		if (store_bytes(w, op, a, va) == n && store_bytes(w, op, b, vb) == n &&
		    memcmp(va + gap, vb, (size_t)(n - gap)) == 0)
			continue;
		interp_fail(w, op, 1u << a | 1u << b,
			    "lanes %d and %d of the warp store different values to the same bytes in one store (%s): which one lands is undefined",
			    a, b, mem_where(w->it, p[b]));
		return -1;
	}
	return 0;
}

static void
ex_store(Warp *w, const IrOp *op, uint32_t mask)
{
	IrValue v = op->args[1];
	IrType t = vt(w, v);
	int eb = ir_type_bytes(ir_scalar((IrBase)t.base)), n = eb * t.lanes, e, l;
	const uint64_t *p = reg(w, op->args[0], 0);

	if (op->opc == IR_STORE_IF) {
		const uint64_t *c = reg(w, op->args[2], 0);
		uint32_t keep = 0;

		LANES(l, mask) if (c[l] & 1) keep |= 1u << l;
		mask = keep;
	}
	if (op->opc == IR_STORE_REL)
		w->nrel++;      /* the accesses before it have smaller numbers (memory.c) */
	LANES(l, mask) {
		unsigned char *m = mem_access(w, op, l, p[l], n, access_align(n, eb), 1);

		if (!m)
			return;
		for (e = 0; e < t.lanes; e++)
			write_elem(m + e * eb, (IrBase)t.base, reg(w, v, e)[l]);
	}
	if (mask & (mask - 1))
		lane_conflicts(w, op, mask, p, n);
}

/* The row of fragment row i (0, 1) of lane l in warp w (thread t = 32 (w % 4) + l of the
 * warpgroup), and the first column of its elements, as wgmma.store and wgmma.load lay
 * them out (attribute imm): ir_frag_row, column 2 (l % 4); element 4 j + 2 i + e is in
 * row i and column 8 j + e from there. */
static int
frag_row(const Warp *w, int64_t imm, int l, int i)
{
	return ir_frag_row(imm, 32 * (w->id & 3) + l, i);
}

static int
frag_col(int l)
{
	return 2 * (l % 4);
}

/* The pointer to element (r, c) of a tile of nrows x ncols at p: in a tensor row-major,
 * or of a transposed tile (IR_TILE_TRANSPOSED: the matrix holds ncols rows of nrows); in
 * shared memory ir_tile_shared_byte, swizzled as the attribute says. */
static uint64_t
tile_elem(Warp *w, const IrOp *op, uint64_t p, int64_t r, int64_t c, int64_t nrows, int64_t ncols, int size)
{
	int64_t imm = op->imm;

	if (vt(w, op->args[0]).space == IR_SHARED)
		return mem_ptr_swizzle(w->it, mem_ptr_add(p, ir_tile_shared_byte(imm, r, c, nrows, ncols, size)),
				       IR_TILE_SWIZZLE(imm));
	return mem_ptr_add(p, (imm & IR_TILE_TRANSPOSED ? c * nrows + r : r * ncols + c) * size);
}

/* A swizzled shared tile starts at a multiple of 8 rows of its span (the buffer's
 * alignment; rows(start, n) at multiples of 8): there an element's swizzled address is the
 * start plus the swizzle of its offset, which the backend computes once per thread. */
static int
tile_start_ok(Warp *w, const IrOp *op, int l, uint64_t p)
{
	int span = IR_TILE_SWIZZLE(op->imm);
	int64_t at = mem_shared_addr(w->it, p);

	if (!span || at < 0 || at % (8 * span) == 0)
		return 1;
	interp_fail(w, op, 1u << l, "%s of a %d-byte swizzled shared tile starting at shared byte %lld, not a multiple of %d (8 rows of the swizzle)",
		    ir_opinfo[op->opc].name, span, (long long)at, 8 * span);
	return 0;
}

/* wgmma.load: wgmma.store's layout read back (docs/ir.md), 0 outside the tensor; with
 * broadcast every row is row0. */
static void
ex_wgmma_load(Warp *w, const IrOp *op, uint32_t mask)
{
	IrType pt = vt(w, op->args[0]), rt = vt(w, op->res[0]);
	IrBase eb = (IrBase)pt.elem;
	int size = ir_type_bytes(ir_scalar(eb)), bcast = (int)(op->imm >> 16 & 1), shared = pt.space == IR_SHARED, l, x;
	const uint64_t *p = reg(w, op->args[0], 0);

	LANES(l, mask) {
		int64_t nrows = (int64_t)reg(w, op->args[1], 0)[l], ncols = (int64_t)reg(w, op->args[2], 0)[l];
		int64_t r0 = (int64_t)reg(w, op->args[3], 0)[l];
		int64_t c0 = (int64_t)reg(w, op->args[4], 0)[l] + frag_col(l);

		if (shared && !tile_start_ok(w, op, l, p[l]))
			return;
		for (x = 0; x < rt.lanes; x++) {
			int64_t r = r0 + (bcast ? 0 : frag_row(w, op->imm, l, x / 2 % 2)), c = c0 + 8 * (x / 4) + x % 2;
			uint64_t v = num_f32_bits(0.0f);
			unsigned char *m;

			if (shared || (r >= 0 && r < nrows && c >= 0 && c < ncols)) {
				m = mem_access(w, op, l, tile_elem(w, op, p[l], r, c, nrows, ncols, size), size, size, 0);
				if (!m)
					return;
				v = num_convert(eb, IR_F32, read_elem(m, eb));
			}
			reg(w, op->res[0], x)[l] = v;
		}
	}
}

/* wgmma.store (ir/ops.def): each lane's elements of the m64nN fragment that lie inside
 * the tensor, converted to its element type, one element at a time. */
static void
ex_wgmma_store(Warp *w, const IrOp *op, uint32_t mask)
{
	IrType pt = vt(w, op->args[0]), at = vt(w, op->args[1]);
	IrBase eb = (IrBase)pt.elem;
	int size = ir_type_bytes(ir_scalar(eb)), n = at.lanes * 2, shared = pt.space == IR_SHARED, l, i, j, e;
	const uint64_t *p = reg(w, op->args[0], 0);

	LANES(l, mask) {
		int64_t nrows = (int64_t)reg(w, op->args[2], 0)[l], ncols = (int64_t)reg(w, op->args[3], 0)[l];
		int64_t r0 = (int64_t)reg(w, op->args[4], 0)[l];
		int64_t c0 = (int64_t)reg(w, op->args[5], 0)[l] + frag_col(l);

		if (shared && !tile_start_ok(w, op, l, p[l]))
			return;
		for (i = 0; i < 2; i++)
			for (j = 0; j < n / 8; j++)
				for (e = 0; e < 2; e++) {
					int64_t r = r0 + frag_row(w, op->imm, l, i), c = c0 + 8 * j + e;
					unsigned char *m;

					if (!shared && (r >= nrows || c >= ncols))
						continue;
					m = mem_access(w, op, l, tile_elem(w, op, p[l], r, c, nrows, ncols, size), size, size, 1);
					if (!m)
						return;
					write_elem(m, eb, num_convert(IR_F32, eb, reg(w, op->args[1], j * 4 + i * 2 + e)[l]));
				}
	}
}

/* store.row ptr, nrows, ncols, row, col, v0 .. vN-1: value j at (row, col + j) where that
 * is inside the tensor, converted to its element type. */
static void
ex_store_row(Warp *w, const IrOp *op, uint32_t mask)
{
	IrBase eb = (IrBase)vt(w, op->args[0]).elem, vb = (IrBase)vt(w, op->args[5]).base;
	int size = ir_type_bytes(ir_scalar(eb)), n = op->nargs - 5, l, j;
	const uint64_t *p = reg(w, op->args[0], 0);

	LANES(l, mask) {
		int64_t nrows = (int64_t)reg(w, op->args[1], 0)[l], ncols = (int64_t)reg(w, op->args[2], 0)[l];
		int64_t r = (int64_t)reg(w, op->args[3], 0)[l], c0 = (int64_t)reg(w, op->args[4], 0)[l];

		for (j = 0; j < n && r < nrows; j++) {
			unsigned char *m;

			if (c0 + j >= ncols)
				break;
			m = mem_access(w, op, l, mem_ptr_add(p[l], (r * ncols + c0 + j) * size), size, size, 1);
			if (!m)
				return;
			write_elem(m, eb, num_convert(vb, eb, reg(w, op->args[5 + j], 0)[l]));
		}
	}
}

/* The new value of an atomic read-modify-write of old with b (and c for cas). */
static uint64_t
atom_new(int opc, IrType t, uint64_t old, uint64_t b, uint64_t c)
{
	static const int int_op[] = {IR_ADD, IR_MIN, IR_MAX, IR_AND, IR_OR};
	int64_t x[2] = {(int64_t)old, (int64_t)b}, r = 0;

	if (opc == IR_ATOM_XCHG)
		return b;
	if (opc == IR_ATOM_CAS)
		return old == b ? c : old;
	if (ir_is_float(t)) {
		double a = num_to_double((IrBase)t.base, old), y = num_to_double((IrBase)t.base, b);

		if (t.base == IR_F32)   /* in float: the f32 add rounds once */
			return num_f32_bits(opc == IR_ATOM_ADD ? num_f32(old) + num_f32(b)
					    : opc == IR_ATOM_MIN ? fminf(num_f32(old), num_f32(b)) : fmaxf(num_f32(old), num_f32(b)));
		return num_from_double((IrBase)t.base, opc == IR_ATOM_ADD ? a + y : opc == IR_ATOM_MIN ? fmin(a, y) : fmax(a, y));
	}
	ir_eval_int_op(int_op[opc - IR_ATOM_ADD], t, t, 2, x, &r);
	return (uint64_t)r;
}

/* Atomics: lanes in lane order, warps one at a time, so each is trivially atomic. */
static void
ex_atom(Warp *w, const IrOp *op, uint32_t mask)
{
	IrType t = vt(w, op->args[1]);
	int n = ir_type_bytes(t), l;
	const uint64_t *p = reg(w, op->args[0], 0), *b = reg(w, op->args[1], 0);
	const uint64_t *c = op->nargs > 2 ? reg(w, op->args[2], 0) : NULL;
	uint64_t *d = reg(w, op->res[0], 0);

	if (ir_is_float(t) && (op->opc == IR_ATOM_AND || op->opc == IR_ATOM_OR)) {
		interp_fail(w, op, 0, "'%s' on floats", ir_opinfo[op->opc].name);
		return;
	}
	LANES(l, mask) {
		unsigned char *m = mem_access(w, op, l, p[l], n, n, 0);
		uint64_t old;

		if (!m || !mem_access(w, op, l, p[l], n, n, 1))
			return;
		old = read_elem(m, (IrBase)t.base);
		write_elem(m, (IrBase)t.base, atom_new(op->opc, t, old, b[l], c ? c[l] : 0));
		d[l] = old;
	}
}

/* wait.ge: each lane reads its flag (an atomic access: flags do not race) until the value
 * minus b is >= 0 as a signed number of the flag's width; the lanes that have not seen it
 * block the warp (sched_poll) until their time runs out, when they give 0. */
static void
ex_wait_ge(Warp *w, const IrOp *op, uint32_t mask)
{
	IrType t = vt(w, op->args[1]);
	int n = ir_type_bytes(t), l;
	const uint64_t *p = reg(w, op->args[0], 0), *b = reg(w, op->args[1], 0);
	uint64_t *d = reg(w, op->res[0], 0);
	uint32_t want = mask;

	for (;;) {
		LANES(l, want) {
			unsigned char *m = mem_access(w, op, l, p[l], n, n, 0);
			uint64_t diff;

			if (!m)
				return;
			diff = read_elem(m, (IrBase)t.base) - b[l];
			if (n == 4 ? (int32_t)(uint32_t)diff >= 0 : (int64_t)diff >= 0) {
				d[l] = 1;
				want &= ~(1u << l);
			}
		}
		if (!want) {
			w->it->poll_round = 0;
			return;
		}
		if (w->poll_timeout) {
			LANES(l, want) d[l] = 0;
			w->poll_timeout = 0;
			return;
		}
		sched_poll(w, op);
		if (w->it->failed)
			return;
	}
}

/* fence.acq_rel: at gpu or system scope, a release point for the race check (the warp's
 * relaxed atomic writes after it publish what it wrote before it) and the acquire of the
 * releases its relaxed atomics read since the last fence (memory.c). A cta or cluster
 * fence orders nothing between blocks that the check would follow. */
static void
ex_fence(Warp *w, const IrOp *op, uint32_t mask)
{
	int i;

	(void)mask;
	if (op->imm < IR_SCOPE_GPU)
		return;
	w->nrel++;
	w->fenced = 1;
	for (i = 0; i < w->npend && i < MAX_PENDING; i++)
		mem_acquire(w, &w->pend[i]);
	w->npend = 0;
}

static void
ex_nothing(Warp *w, const IrOp *op, uint32_t mask)
{
	(void)w;
	(void)op;
	(void)mask;
}

/* ---- collectives ---- */

int
exec_full_warp(Warp *w, const IrOp *op, uint32_t mask)
{
	char in[128], out[128];

	if (mask == w->exists)
		return 1;
	lanes_str(in, sizeof in, mask);
	lanes_str(out, sizeof out, w->exists & ~mask);
	interp_fail(w, op, mask, "divergent %s: executed by %s of the warp while %s do not take part (it needs the whole warp)",
		    op->opc == IR_BARRIER ? "barrier" : ir_opinfo[op->opc].name, in, out);
	return 0;
}

static void
ex_barrier(Warp *w, const IrOp *op, uint32_t mask)
{
	if (exec_full_warp(w, op, mask))
		sched_barrier(w, op, W_BARRIER);
}

/* bar.sync / bar.arrive id, count: whole warps (.aligned) */
static void
ex_bar_named(Warp *w, const IrOp *op, uint32_t mask)
{
	int64_t id, n;

	if (!exec_full_warp(w, op, mask))
		return;
	id = (int32_t)reg(w, op->args[0], 0)[__builtin_ctz(mask)];
	n = (int32_t)reg(w, op->args[1], 0)[__builtin_ctz(mask)];
	if (id < 1 || id > 15 || n < WARP || n % WARP) {
		interp_fail(w, op, mask, "%s %lld, %lld: the id is 1 to 15 and the count a multiple of 32", ir_opinfo[op->opc].name,
			    (long long)id, (long long)n);
		return;
	}
	sched_named(w, op, (int)id, (int)n, op->opc == IR_BAR_SYNC);
}

/* warp.sync: the warp's lanes run in step here; only a diverged warp is a finding */
static void
ex_warp_sync(Warp *w, const IrOp *op, uint32_t mask)
{
	exec_full_warp(w, op, mask);
}

static void
ex_shfl(Warp *w, const IrOp *op, uint32_t mask)
{
	const uint64_t *b = reg(w, op->args[1], 0);
	int e, l, n = w->it->width[op->res[0]], src[WARP];

	if (!exec_full_warp(w, op, mask))
		return;
	LANES(l, mask) {
		int j = (int)(b[l] & 31);

		switch (op->opc) {
		case IR_SHFL_XOR: j ^= l; break;
		case IR_SHFL_DOWN: j = l + j > 31 ? l : l + j; break;
		case IR_SHFL_UP: j = l - j < 0 ? l : l - j; break;
		default: break;   /* IR_SHFL_IDX */
		}
		/* a lane past the block's last thread has no value: the own one */
		src[l] = w->exists >> j & 1 ? j : l;
	}
	for (e = 0; e < n; e++) {
		const uint64_t *a = reg(w, op->args[0], e);
		uint64_t *d = reg(w, op->res[0], e);

		LANES(l, mask) d[l] = a[src[l]];
	}
}

static void
ex_vote(Warp *w, const IrOp *op, uint32_t mask)
{
	const uint64_t *p = op->nargs ? reg(w, op->args[0], 0) : NULL;
	uint64_t *d = reg(w, op->res[0], 0), v;
	uint32_t ballot = 0;
	int l;

	if (!exec_full_warp(w, op, mask))
		return;
	if (p)
		LANES(l, mask) if (p[l] & 1) ballot |= 1u << l;
	switch (op->opc) {
	case IR_VOTE_ANY: v = ballot != 0; break;
	case IR_VOTE_ALL: v = ballot == mask; break;
	case IR_BALLOT: v = ballot; break;
	default: v = 0; break;    /* IR_ELECT_SYNC: per lane below */
	}
	LANES(l, mask) d[l] = op->opc == IR_ELECT_SYNC ? (uint64_t)(l == __builtin_ctz(mask)) : v;
}

/* ---- wgmma accumulators in flight ---- */

void
exec_acc_tag(Warp *w, IrValue v, const IrOp *op)
{
	w->acc_group[v] = w->wgmma_groups + 1;
	w->acc_op[v] = op;
	if (w->acc_hi < w->wgmma_groups + 1)
		w->acc_hi = w->wgmma_groups + 1;
}

/* An op that reads a wgmma's accumulator (or A fragment) before wgmma.wait retired its
 * group: the registers are the asynchronous wgmma's until then (PTX: undefined). Passing
 * the value on is no read: the chained wgmmas of the group (accumulator and A operands),
 * wgmma.fence and wgmma.wait, a loop's carried values, a yield (not an op here). 0, or -1
 * after reporting. */
static int
acc_check(Warp *w, const IrOp *op, uint32_t mask)
{
	int i, from = 0, to = op->nargs;

	switch (op->opc) {
	case IR_WGMMA_FENCE: case IR_WGMMA_WAIT: case IR_WHILE: return 0;
	case IR_WGMMA: from = 2; break;
	case IR_FOR: to = to < 3 ? to : 3; break;
	default: break;
	}
	for (i = from; i < to; i++) {
		IrValue v = op->args[i];
		const IrOp *mma = w->acc_op[v];

		if (w->tc.ld_tag && w->tc.ld_tag[v] > w->tc.done[TC_LD] && op->opc != IR_TCGEN05_WAIT_LD) {
			mma = w->tc.ld_op[v];
			interp_fail(w, op, mask == w->exists ? 0 : mask,
				    "%s reads the result of the tcgen05.ld at line %d:%d before tcgen05.wait.ld (the registers are undefined until then): read it through tcgen05.wait.ld's results",
				    ir_opinfo[op->opc].name, mma->loc.line, mma->loc.col);
			return -1;
		}
		if (w->acc_group[v] && w->acc_group[v] - 1 >= w->wgmma_retired) {
			interp_fail(w, op, mask == w->exists ? 0 : mask,
				    "%s reads the %s of the wgmma at line %d:%d before wgmma.wait retired its group (the registers belong to the asynchronous wgmma until then): wait for it first",
				    ir_opinfo[op->opc].name, ir_vtype(w->it->k, v).base == IR_F32 ? "accumulator" : "A fragment",
				    mma->loc.line, mma->loc.col);
			return -1;
		}
	}
	return 0;
}

/* ---- structured control flow ---- */

/* Runs region r for the lanes of mask; its terminator, or NULL after a finding. */
static const IrOp *
exec_region(Warp *w, const IrRegion *r, uint32_t mask)
{
	static ExecFn fns[IR_NOPCODES];
	int i;

	if (!fns[IR_CONST])
		for (i = 0; i < IR_NOPCODES; i++)
			fns[i] = exec_handler(i);
	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i];

		if (ir_opinfo[op->opc].flags & OPF_TERM)
			return op;
		if ((w->acc_hi > w->wgmma_retired || w->tc.ld_hi > w->tc.done[TC_LD]) && acc_check(w, op, mask) != 0)
			return NULL;
		fns[op->opc](w, op, mask);
		if (w->it->failed)
			return NULL;
		if (++w->it->steps > w->it->max_steps) {
			interp_fail(w, op, mask, "the block ran more than %llu warp-steps without finishing: a loop that never ends, or a wait for another block (blocks run one at a time)",
				    (unsigned long long)w->it->max_steps);
			return NULL;
		}
	}
	return NULL;
}

static void
ex_if(Warp *w, const IrOp *op, uint32_t mask)
{
	const uint64_t *c = reg(w, op->args[0], 0);
	uint32_t then = 0, m[2];
	const IrOp *term;
	int l, i;

	LANES(l, mask) if (c[l] & 1) then |= 1u << l;
	m[0] = then;
	m[1] = mask & ~then;
	for (i = 0; i < 2; i++) {
		if (!m[i])
			continue;
		if (i == 0 && w->it->trace)     /* a role's if: its span */
			trace_if(w, op, 1);
		if (!(term = exec_region(w, &op->regions[i], m[i])))
			return;
		if (i == 0 && w->it->trace)
			trace_if(w, op, 0);
		transfer(w, op->res, term->args, op->nres, m[i]);
	}
}

static int
int_less(IrType t, uint64_t a, uint64_t b)
{
	return ir_is_signed(t) ? (int64_t)a < (int64_t)b : a < b;
}

/* for iv = lo; iv < hi; iv += step: each lane with its own bounds, until none continues. */
static void
ex_for(Warp *w, const IrOp *op, uint32_t mask)
{
	const IrRegion *body = &op->regions[0];
	IrValue iv = body->args[0];
	IrType t = vt(w, iv);
	const uint64_t *hi = reg(w, op->args[1], 0), *step = reg(w, op->args[2], 0);
	uint64_t *ivr = reg(w, iv, 0);
	uint32_t active = mask;
	const IrOp *term;
	int l;

	copy_value(w, iv, op->args[0], mask);
	transfer(w, body->args + 1, op->args + 3, op->nres, mask);
	for (;;) {
		uint32_t live = 0;

		LANES(l, active) if (int_less(t, ivr[l], hi[l])) live |= 1u << l;
		if (active & ~live)
			transfer(w, op->res, body->args + 1, op->nres, active & ~live);
		if (!(active = live))
			return;
		if (!(term = exec_region(w, body, active)))
			return;
		transfer(w, body->args + 1, term->args, op->nres, active);
		LANES(l, active) ivr[l] = (uint64_t)ir_int_norm(t, (int64_t)(ivr[l] + step[l]));
	}
}

/* while: the before region decides per lane (condition %c, values...); lanes that stop
 * leave with the values, the others run the after region, whose yield feeds the next
 * round. */
static void
ex_while(Warp *w, const IrOp *op, uint32_t mask)
{
	const IrRegion *before = &op->regions[0], *after = &op->regions[1];
	uint32_t active = mask;
	const IrOp *term;
	int l;

	transfer(w, before->args, op->args, op->nargs, mask);
	for (;;) {
		uint32_t live = 0;
		const uint64_t *c;

		if (!(term = exec_region(w, before, active)))
			return;
		c = reg(w, term->args[0], 0);
		LANES(l, active) if (c[l] & 1) live |= 1u << l;
		if (active & ~live)
			transfer(w, op->res, term->args + 1, op->nres, active & ~live);
		if (!(active = live))
			return;
		transfer(w, after->args, term->args + 1, after->nargs, active);
		if (!(term = exec_region(w, after, active)))
			return;
		transfer(w, before->args, term->args, before->nargs, active);
	}
}

/* ---- the table ---- */

static const ExecRow exec_rows[] = {
	{IR_CONST, ex_const, NULL, NULL},
	{IR_TID_X, ex_special, NULL, NULL}, {IR_TID_Y, ex_special, NULL, NULL}, {IR_TID_Z, ex_special, NULL, NULL},
	{IR_NTID_X, ex_special, NULL, NULL}, {IR_NTID_Y, ex_special, NULL, NULL}, {IR_NTID_Z, ex_special, NULL, NULL},
	{IR_CTAID_X, ex_special, NULL, NULL}, {IR_CTAID_Y, ex_special, NULL, NULL}, {IR_CTAID_Z, ex_special, NULL, NULL},
	{IR_NCTAID_X, ex_special, NULL, NULL}, {IR_NCTAID_Y, ex_special, NULL, NULL}, {IR_NCTAID_Z, ex_special, NULL, NULL},
	{IR_LANEID, ex_special, NULL, NULL}, {IR_WARPID, ex_special, NULL, NULL},

	{IR_ADD, ex_arith, f32_add, f64_add},
	{IR_SUB, ex_arith, f32_sub, f64_sub},
	{IR_MUL, ex_arith, f32_mul, f64_mul},
	{IR_DIV, ex_arith, f32_div, f64_div},
	{IR_REM, ex_arith, NULL, NULL},
	{IR_AND, ex_arith, NULL, NULL},
	{IR_OR, ex_arith, NULL, NULL},
	{IR_XOR, ex_arith, NULL, NULL},
	{IR_SHL, ex_arith, NULL, NULL},
	{IR_SHR, ex_arith, NULL, NULL},
	{IR_MIN, ex_arith, f32_min, f64_min},
	{IR_MAX, ex_arith, f32_max, f64_max},
	{IR_NEG, ex_arith, f32_neg, f64_neg},
	{IR_NOT, ex_arith, NULL, NULL},
	{IR_ABS, ex_arith, f32_abs, f64_abs},
	{IR_EXP2, ex_arith, f32_exp2, f64_exp2},
	{IR_LOG2, ex_arith, f32_log2, f64_log2},
	{IR_RSQRT, ex_arith, f32_rsqrt, f64_rsqrt},
	{IR_SQRT, ex_arith, f32_sqrt, f64_sqrt},
	{IR_FMA, ex_arith, f32_fma, f64_fma},
	{IR_EXP, ex_arith, f32_exp, NULL},
	{IR_LOG, ex_arith, f32_log, NULL},
	{IR_SIN, ex_arith, f32_sin, NULL},
	{IR_COS, ex_arith, f32_cos, NULL},
	{IR_TANH, ex_arith, f32_tanh, NULL},
	{IR_ERF, ex_arith, f32_erf, NULL},
	{IR_POW, ex_arith, f32_pow, NULL},
	{IR_EXP_APPROX, ex_arith, f32_exp_approx, NULL},
	{IR_LOG_APPROX, ex_arith, f32_log_approx, NULL},
	{IR_SIN_APPROX, ex_arith, f32_sin_approx, NULL},
	{IR_COS_APPROX, ex_arith, f32_cos_approx, NULL},
	{IR_TANH_APPROX, ex_arith, f32_tanh_approx, NULL},
	{IR_FLOOR, ex_arith, f32_floor, f64_floor},
	{IR_CEIL, ex_arith, f32_ceil, f64_ceil},
	{IR_TRUNC, ex_arith, f32_trunc, f64_trunc},
	{IR_ROUND, ex_arith, f32_round, f64_round},
	{IR_RINT, ex_arith, f32_rint, f64_rint},
	{IR_COPYSIGN, ex_arith, f32_copysign, f64_copysign},
	{IR_ISNAN, ex_fclass, NULL, NULL},
	{IR_ISINF, ex_fclass, NULL, NULL},

	{IR_CMP_EQ, ex_cmp, NULL, NULL}, {IR_CMP_NE, ex_cmp, NULL, NULL}, {IR_CMP_LT, ex_cmp, NULL, NULL},
	{IR_CMP_LE, ex_cmp, NULL, NULL}, {IR_CMP_GT, ex_cmp, NULL, NULL}, {IR_CMP_GE, ex_cmp, NULL, NULL},

	{IR_SELECT, ex_select, NULL, NULL},
	{IR_CAST, ex_cast, NULL, NULL},
	{IR_BITCAST, ex_bitcast, NULL, NULL},
	{IR_VEC, ex_vec, NULL, NULL},
	{IR_EXTRACT, ex_extract, NULL, NULL},

	{IR_ELEMPTR, ex_elemptr, NULL, NULL},
	{IR_SMEM, ex_smem, NULL, NULL},
	{IR_SMEM_STAGE, ex_smem_stage, NULL, NULL},
	{IR_LOAD, ex_load, NULL, NULL},
	{IR_STORE, ex_store, NULL, NULL},
	{IR_STORE_IF, ex_store, NULL, NULL},
	{IR_WGMMA_STORE, ex_wgmma_store, NULL, NULL},
	{IR_WGMMA_LOAD, ex_wgmma_load, NULL, NULL},
	{IR_STORE_ROW, ex_store_row, NULL, NULL},
	{IR_ATOM_ADD, ex_atom, NULL, NULL}, {IR_ATOM_MIN, ex_atom, NULL, NULL}, {IR_ATOM_MAX, ex_atom, NULL, NULL},
	{IR_ATOM_AND, ex_atom, NULL, NULL}, {IR_ATOM_OR, ex_atom, NULL, NULL}, {IR_ATOM_XCHG, ex_atom, NULL, NULL},
	{IR_ATOM_CAS, ex_atom, NULL, NULL},
	{IR_LOAD_ACQ, ex_load, NULL, NULL}, {IR_STORE_REL, ex_store, NULL, NULL},
	{IR_FENCE, ex_fence, NULL, NULL}, {IR_WAIT_GE, ex_wait_ge, NULL, NULL},

	{IR_BARRIER, ex_barrier, NULL, NULL},
	{IR_BAR_SYNC, ex_bar_named, NULL, NULL},
	{IR_BAR_ARRIVE, ex_bar_named, NULL, NULL},
	{IR_WARP_SYNC, ex_warp_sync, NULL, NULL},
	{IR_SHFL_XOR, ex_shfl, NULL, NULL}, {IR_SHFL_DOWN, ex_shfl, NULL, NULL},
	{IR_SHFL_UP, ex_shfl, NULL, NULL}, {IR_SHFL_IDX, ex_shfl, NULL, NULL},
	{IR_VOTE_ANY, ex_vote, NULL, NULL}, {IR_VOTE_ALL, ex_vote, NULL, NULL}, {IR_BALLOT, ex_vote, NULL, NULL},
	{IR_ELECT_SYNC, ex_vote, NULL, NULL},

	{IR_IF, ex_if, NULL, NULL},
	{IR_FOR, ex_for, NULL, NULL},
	{IR_WHILE, ex_while, NULL, NULL},

	{IR_MBAR, ex_mbar, NULL, NULL},
	{IR_MBAR_INIT, ex_mbar_init, NULL, NULL},
	{IR_MBAR_ARRIVE, ex_mbar_arrive, NULL, NULL},
	{IR_MBAR_ARRIVE_TX, ex_mbar_arrive, NULL, NULL},
	{IR_MBAR_EXPECT_TX, ex_mbar_arrive, NULL, NULL},
	{IR_MBAR_WAIT, ex_mbar_wait, NULL, NULL},
	{IR_FENCE_MBAR_INIT, ex_nothing, NULL, NULL},
	{IR_FENCE_PROXY_ASYNC, ex_fence_proxy_async, NULL, NULL},
	{IR_TMA_LOAD, ex_tma_load, NULL, NULL},
	{IR_TMA_LOAD_MC, ex_tma_load_mc, NULL, NULL},
	{IR_MBAR_ARRIVE_REMOTE, ex_mbar_arrive, NULL, NULL},
	{IR_CLUSTER_RANK, ex_cluster, NULL, NULL},
	{IR_MAPA, ex_cluster, NULL, NULL},
	{IR_CLUSTER_SYNC, ex_cluster_sync, NULL, NULL},
	{IR_WGMMA_DESC, ex_wgmma_desc, NULL, NULL},
	{IR_WGMMA, ex_wgmma, NULL, NULL},
	{IR_WGMMA_FENCE, ex_wgmma_pass, NULL, NULL},
	{IR_WGMMA_COMMIT, ex_wgmma_commit, NULL, NULL},
	{IR_WGMMA_WAIT, ex_wgmma_wait, NULL, NULL},
	{IR_SETMAXNREG, ex_setmaxnreg, NULL, NULL},

	{IR_TMEM_ALLOC, ex_tmem_alloc, NULL, NULL},
	{IR_TMEM_DEALLOC, ex_tmem_dealloc, NULL, NULL},
	{IR_TMEM_RELINQUISH, ex_tmem_relinquish, NULL, NULL},
	{IR_TCGEN05_DESC, ex_wgmma_desc, NULL, NULL},
	{IR_TCGEN05_MMA, ex_tcgen05_mma, NULL, NULL},
	{IR_TCGEN05_COMMIT, ex_tcgen05_commit, NULL, NULL},
	{IR_TCGEN05_LD, ex_tcgen05_ld, NULL, NULL},
	{IR_TCGEN05_ST, ex_tcgen05_st, NULL, NULL},
	{IR_TCGEN05_WAIT_LD, ex_tcgen05_wait, NULL, NULL},
	{IR_TCGEN05_WAIT_ST, ex_tcgen05_wait, NULL, NULL},
	{IR_TCGEN05_FENCE_BEFORE, ex_tcgen05_fence, NULL, NULL},
	{IR_TCGEN05_FENCE_AFTER, ex_tcgen05_fence, NULL, NULL},

	{IR_TMA_STORE, ex_tma_store, NULL, NULL},
	{IR_TMA_COMMIT, ex_async_commit, NULL, NULL},
	{IR_TMA_WAIT, ex_async_wait, NULL, NULL},

	{IR_CP_ASYNC, ex_cp_async, NULL, NULL},
	{IR_CP_ASYNC_COMMIT, ex_async_commit, NULL, NULL},
	{IR_CP_ASYNC_WAIT, ex_async_wait, NULL, NULL},
};

static const ExecRow *
row_of(int opc)
{
	static const ExecRow *by_opc[IR_NOPCODES];
	static int built;
	size_t i;

	if (!built) {
		for (i = 0; i < sizeof exec_rows / sizeof exec_rows[0]; i++)
			by_opc[exec_rows[i].opc] = &exec_rows[i];
		built = 1;
	}
	return opc >= 0 && opc < IR_NOPCODES ? by_opc[opc] : NULL;
}

ExecFn
exec_handler(int opc)
{
	const ExecRow *r = row_of(opc);

	return r ? r->fn : NULL;
}

void
exec_body(Warp *w)
{
	const Interp *it = w->it;
	const IrKernel *k = it->k;
	int i, l;

	if (!w->acc_group) {    /* freed with the warp (sched.c) */
		w->acc_group = xcalloc((size_t)k->nvalues + 1, sizeof *w->acc_group);
		w->acc_op = xcalloc((size_t)k->nvalues + 1, sizeof *w->acc_op);
		w->tc.ld_tag = xcalloc((size_t)k->nvalues + 1, sizeof *w->tc.ld_tag);
		w->tc.ld_op = xcalloc((size_t)k->nvalues + 1, sizeof *w->tc.ld_op);
	}
	for (i = 0; i < k->nparams; i++) {
		const IrParam *p = &k->params[i];
		const InterpArg *a = &it->args[i];
		uint64_t v;

		if (p->kind == PARAM_TENSOR)
			v = mem_ptr_make(i + 1, 0);
		else if (p->kind == PARAM_TMAP)
			v = (uint64_t)i;        /* a tensor map is its parameter's index */
		else if (ir_is_float(p->type))
			v = num_from_double((IrBase)p->type.base, a->f);
		else
			v = (uint64_t)ir_int_norm(p->type, a->i);
		LANES(l, w->exists) reg(w, k->body.args[i], 0)[l] = v;
	}
	exec_region(w, &k->body, w->exists);
}
