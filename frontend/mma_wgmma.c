/* mma_wgmma.c: sema of Hopper's warpgroup MMA (docs/language.md, "wgmma and accumulator
 * fragments"): f32acc[64, N] fragment types, acc = wgmma(acc, a, b) with its shared
 * operands, and store(tensor, acc, [row, col]). A later MMA family (tcgen05) gets a
 * sibling file; async.c holds what they share. */
#include "async.h"

#include <stdio.h>
#include <string.h>

int
asy_frag_name(const char *name)
{
	return strcmp(name, "f32acc") == 0 || strcmp(name, "bf16a") == 0 || strcmp(name, "f16a") == 0;
}

int
asy_is_acc(IrType t)
{
	return ir_is_frag(t) || ir_type_eq(t, ir_vector(IR_F32, 4));
}

/* bf16a[64, K] / f16a[64, K]: wgmma's register operand A, K / 2 lanes per thread. */
static int
afrag_type(Node *type, int64_t k, IrType *t)
{
	if (k < 16 || k > 256 || k % 16) {
		diag_error(type->list.head->next->loc, "the columns (K) of %s must be a multiple of 16 from 16 to 256 (one k16 step each), found %lld",
			   type->name, (long long)k);
		return 0;
	}
	*t = ir_vector(strcmp(type->name, "f16a") == 0 ? IR_F16 : IR_BF16, (int)(k / 2));
	return 1;
}

/* f32acc[64, N], bf16a[64, K] and f16a[64, K]: the IrType of a fragment declaration. */
int
asy_frag_type(Sema *S, Node *type, IrType *t)
{
	int acc = strcmp(type->name, "f32acc") == 0;
	int64_t m, n;

	if (type->list.n != 2) {
		diag_error(type->loc, "%s is %s[64, %s], found %d dimension%s",
			   acc ? "an accumulator fragment" : "a register A fragment", type->name, acc ? "N" : "K",
			   type->list.n, type->list.n == 1 ? "" : "s");
		return 0;
	}
	if (!sema_const_int(S, type->list.head, acc ? "the rows of f32acc" : "the rows of a register A fragment", &m) ||
	    !sema_const_int(S, type->list.head->next, acc ? "the columns of f32acc" : "the columns of a register A fragment", &n))
		return 0;
	if (m != 64) {
		diag_error(type->list.head->loc, "%s has 64 rows (one wgmma m64 tile per warpgroup), found %lld",
			   acc ? "an accumulator fragment" : "a register A fragment", (long long)m);
		return 0;
	}
	if (!acc)
		return afrag_type(type, n, t);
	if (n < 8 || n > 256 || n % 8) {
		diag_error(type->list.head->next->loc, "the columns of f32acc must be a multiple of 8 from 8 to 256, found %lld",
			   (long long)n);
		return 0;
	}
	/* N = 8 gives 4 lanes: the ordinary f32x4 (IR fragments start at 8 lanes) */
	*t = ir_vector(IR_F32, (int)(n / 2));
	return 1;
}

/* The fragment store runs in whole warpgroups. For wgmma itself the verifier owns this rule
 * (and target gating) on the wgmma ops; the store becomes plain per-thread stores in the IR,
 * which cannot show that they need a warpgroup, so its copy of the rule stays here. */
static int
whole_warpgroups(Sema *S, Node *e)
{
	AsyncSema *h = S->asy;
	Node *r = h->role;

	if (h->in_elect) {
		diag_error(e->loc, "%s inside an elect block: it needs all 128 threads of the warpgroup", e->name);
		return 0;
	}
	if (r && (r->wlo % 4 || (r->whi - r->wlo + 1) % 4)) {
		diag_error(e->loc, "%s in role '%s' of warps %d .. %d, which is not whole warpgroups (a role that stores a fragment starts at a multiple of 4 warps and spans a multiple of 4)",
			   e->name, r->name, r->wlo, r->whi);
		return 0;
	}
	if (!r && h->threads % 128) {
		diag_error(e->loc, "%s outside any role needs whole warpgroups, but the CTA has %d threads",
			   e->name, h->threads);
		return 0;
	}
	return 1;
}

/* An accumulator fragment value; its N (columns), or 0 after an error. */
static int
frag_arg(Sema *S, Node *e, Node *a)
{
	if (!sema_value(S, a))
		return 0;
	if (asy_is_acc(a->ty))
		return a->ty.lanes * 2;
	diag_error(a->loc, "%s takes an accumulator fragment (f32acc[64, N]) here, found %s", e->name,
		   fe_tname(a->ty));
	return 0;
}

/* A wgmma operand: K-major (K = the inner dimension), swizzled, of an MMA kind (bf16, f16,
 * e4m3, e5m2, or f32 read as tf32), K a multiple of the kind's instruction K. */
static int
wgmma_operand(Node *e, Node *a, Symbol *b, const char *which)
{
	int64_t k = b->rank == 2 ? b->dims[1] : 0, span;
	int kind = ir_mma_kind(b->type.base), kk = ir_mma_kind_k(kind);

	if (b->rank != 2) {
		diag_error(a->loc, "wgmma operand %s '%s' must have 2 dimensions (rows, K), found %d", which,
			   b->name, b->rank);
		return 0;
	}
	if (kind < 0) {
		diag_error(a->loc, "wgmma operand %s '%s' holds %s; wgmma takes bf16, f16, e4m3, e5m2 or f32 (as tf32)",
			   which, b->name, fe_tname(b->type));
		return 0;
	}
	if (!b->swizzle) {
		diag_error(a->loc, "wgmma operand %s '%s' is not swizzled: declare it swizzle(32), swizzle(64) or swizzle(128)",
			   which, b->name);
		return 0;
	}
	if (k % kk) {
		diag_error(a->loc, "wgmma operand %s '%s' has K = %lld, expected a multiple of %d (one k%d step of %s each)",
			   which, b->name, (long long)k, kk, kk, ir_mma_kind_name(kind));
		return 0;
	}
	span = k * asy_elem_bytes(b->type);
	if (span != b->swizzle) {
		diag_error(a->loc, "wgmma operand %s '%s' has rows of %lld bytes (K = %lld), but its swizzle(%d) needs rows of %d bytes",
			   which, b->name, (long long)span, (long long)k, b->swizzle, b->swizzle);
		return 0;
	}
	(void)e;
	return 1;
}

/* Operand B of wgmma (the last argument), which must match operand A (of type base, K
 * columns, described by adesc for messages) and the accumulator's N. */
static int
wgmma_b(Sema *S, Node *e, Node *b, int base, int64_t k, const char *adesc, int cols)
{
	Symbol *bb;

	if (b->kind == N_CALL && b->lhs) {
		diag_error(b->loc, "wgmma operand B is a whole shared array of N rows; only operand A takes buf.rows(start, 64)");
		return 0;
	}
	if (!(bb = asy_buffer_arg(S, b, "wgmma")) || !wgmma_operand(e, b, bb, "B"))
		return 0;
	if (base != bb->type.base) {
		diag_error(e->loc, "wgmma operands must have one type: A %s is %s but B '%s' is %s", adesc,
			   fe_tname(ir_scalar((IrBase)base)), bb->name, fe_tname(bb->type));
		return 0;
	}
	if (k != bb->dims[1]) {
		diag_error(e->loc, "wgmma operands must share K: A %s has K = %lld but B '%s' has K = %lld",
			   adesc, (long long)k, bb->name, (long long)bb->dims[1]);
		return 0;
	}
	if (bb->dims[0] != cols) {
		diag_error(b->loc, "wgmma operand B '%s' has %lld rows but the accumulator has N = %d columns",
			   bb->name, (long long)bb->dims[0], cols);
		return 0;
	}
	return 1;
}

/* Whether operand A of wgmma is a value (the RS form, A from registers) rather than a
 * shared array or buf.rows(...) (the SS form): anything but a name of something other
 * than a local, or a method call. */
static int
register_a(Sema *S, Node *a)
{
	Symbol *s;

	if (a->kind == N_CALL)
		return !a->lhs;
	if (a->kind != N_NAME)
		return 1;
	s = sema_lookup(S, a->name);
	return s && (s->kind == SYM_VAR || s->kind == SYM_LET);
}

/* acc = wgmma(acc, a, b) with a a register A fragment (bf16a/f16a[64, K]). */
static void
wgmma_rs(Sema *S, Node *e, Node **args, int cols)
{
	Node *a = args[1];
	char desc[64];

	if (!sema_value(S, a))
		return;
	if (!ir_is_afrag(a->ty)) {
		diag_error(a->loc, "wgmma operand A is a shared array (buf or buf.rows(start, 64)) or a register fragment (bf16a[64, K] or f16a[64, K]), found %s",
			   fe_tname(a->ty));
		return;
	}
	snprintf(desc, sizeof desc, "(%s)", fe_tname(a->ty));
	if (!wgmma_b(S, e, args[2], a->ty.base, a->ty.lanes * 2, desc, cols))
		return;
	e->ty = args[0]->ty;
}

void
asy_wgmma(Sema *S, Node *e)
{
	Node *args[3], *a;
	Symbol *ba;
	int n = asy_split_args(e, args, 3, NULL, NULL), cols;
	int64_t rows, start;
	char desc[64];

	if (n < 0 || !asy_want_nargs(e, n, 3, 3, "an accumulator, operand A and operand B: acc = wgmma(acc, a, b)"))
		return;
	if (!(cols = frag_arg(S, e, args[0])))
		return;
	a = args[1];
	if (register_a(S, a)) {
		wgmma_rs(S, e, args, cols);
		return;
	}
	if (a->kind == N_CALL && a->lhs && strcmp(a->name, "rows") == 0) {
		Node *ra[2];
		int m = asy_split_args(a, ra, 2, NULL, NULL);

		a->builtin = BI_ROWS;
		a->ty = fe_ty(TY_NONVALUE);
		if (m < 0 || !asy_want_nargs(a, m, 2, 2, "a first row and a count: buf.rows(start, 64)"))
			return;
		if (!(ba = asy_buffer_arg(S, a->lhs, "wgmma")))
			return;
		a->sym = ba;
		if (!asy_i32_value(S, ra[0], "the first row of rows(...)") ||
		    !sema_const_int(S, ra[1], "the row count of rows(...)", &rows))
			return;
		if (rows != 64) {
			diag_error(ra[1]->loc, "wgmma operand A has 64 rows (m64), found rows(..., %lld)", (long long)rows);
			return;
		}
		if (ra[0]->isconst && ((start = ra[0]->cv.i) % 8 || start < 0 || start + 64 > ba->dims[0])) {
			diag_error(ra[0]->loc, "rows(%lld, 64) of '%s': the first row must be a multiple of 8 (a swizzle atom) and the rows inside its %lld",
				   (long long)start, ba->name, (long long)ba->dims[0]);
			return;
		}
	} else {
		if (!(ba = asy_buffer_arg(S, a, "wgmma")))
			return;
		if (ba->rank == 2 && ba->dims[0] != 64) {
			diag_error(a->loc, "wgmma operand A '%s' has %lld rows; it takes 64 (m64): pass %s.rows(start, 64)",
				   ba->name, (long long)ba->dims[0], ba->name);
			return;
		}
	}
	if (!wgmma_operand(e, a->lhs && a->kind == N_CALL ? a->lhs : a, ba, "A"))
		return;
	snprintf(desc, sizeof desc, "'%s'", ba->name);
	if (!wgmma_b(S, e, args[2], ba->type.base, ba->dims[1], desc, cols))
		return;
	e->ty = args[0]->ty;
}

/* bf16a(acc), f16a(acc): an m64nN accumulator as wgmma's register operand A of 64 x N
 * (K = N), each f32 rounded to bf16/f16 (to nearest even). The m64nN accumulator layout
 * (thread t of the warpgroup, lane 4 j + 2 i + e: row 16 (t / 32) + (t % 32) / 4 + 8 i,
 * column 8 j + 2 (t % 4) + e) and the ISA's m64k16 register A layout (element 4 h + 2 i + e
 * of the k16 slice s: row 16 (t / 32) + (t % 32) / 4 + 8 i, column 16 s + 8 h + 2 (t % 4) +
 * e) agree once lane 8 s + 4 h + 2 i + e is element 4 h + 2 i + e of slice s: every thread
 * already holds the A elements it needs, in order, so the conversion is a cast lane by
 * lane with no data moving between threads (and a pair of lanes is one bf16x2 register). */
void
asy_wgmma_afrag(Sema *S, Node *e)
{
	Node *args[1];
	int n = asy_split_args(e, args, 1, NULL, NULL), cols;

	if (n < 0 || !asy_want_nargs(e, n, 1, 1, e->builtin == BI_F16A ? "an accumulator: f16a(acc)" : "an accumulator: bf16a(acc)"))
		return;
	if (!(cols = frag_arg(S, e, args[0])))
		return;
	if (cols % 16) {
		diag_error(args[0]->loc, "%s(acc) makes wgmma's operand A (64 x K, K a multiple of 16) of an accumulator's N columns, but it is f32acc[64, %d]",
			   e->name, cols);
		return;
	}
	e->ty = ir_vector(e->builtin == BI_F16A ? IR_F16 : IR_BF16, cols / 2);
}

/* store(tensor, acc, [row0, col0]): the fragment's elements at their (row, col); or
 * store(tensor, r, [row, col0]) of a register array r: r[j] at (row, col0 + j). Both skip
 * the elements outside the tensor. */
void
asy_wgmma_store(Sema *S, Node *e)
{
	Node *args[3];
	Symbol *t, *regs = NULL;
	int n = asy_split_args(e, args, 3, NULL, NULL);

	if (n < 0 || !asy_want_nargs(e, n, 3, 3, "a tensor, an accumulator or a register array, and [row, col]: store(c, acc, [r, c])"))
		return;
	if (!(t = asy_name_of(S, args[0], SYM_TENSOR, "store", "a tensor first")))
		return;
	if (args[1]->kind == N_NAME && (regs = sema_lookup(S, args[1]->name)) && regs->kind != SYM_REGS)
		regs = NULL;
	if (regs ? !ra_row_arg(S, args[1], regs) : !sema_value(S, args[1]))
		return;
	if (!regs && !asy_is_acc(args[1]->ty)) {
		diag_error(args[1]->loc, "store writes an accumulator fragment (f32acc[64, N]) or a register array (var r: f32[N]), found %s",
			   fe_tname(args[1]->ty));
		return;
	}
	if (t->rank != 2) {
		diag_error(args[0]->loc, "store writes a 2-dimensional tensor, but '%s' has %d dimension%s",
			   t->name, t->rank, t->rank == 1 ? "" : "s");
		return;
	}
	if (t->access == ACC_IN) {
		diag_error(args[0]->loc, "cannot write to '%s': it is an 'in' tensor (declare it 'out' or 'inout')",
			   t->name);
		return;
	}
	if (t->type.base != IR_F32 && t->type.base != IR_BF16 && t->type.base != IR_F16) {
		diag_error(args[0]->loc, "store converts its values to f32, bf16 or f16, but '%s' holds %s",
			   t->name, fe_tname(t->type));
		return;
	}
	if (!asy_coords_arg(S, args[2], 2, "store", "a row and a column"))
		return;
	if (!regs)
		whole_warpgroups(S, e);
}

/* fragment(t, [row0, col0], N): the 64 x N tile of the 2-dimensional tensor t at (row0,
 * col0) as an accumulator fragment f32acc[64, N], each element in the lane store() would
 * write it from, converted to f32, 0 outside t; fragment(v, [col0], N) of a 1-dimensional
 * v: v[col0 ..] in every row (a bias). An epilogue adds or multiplies it lane by lane. */
void
asy_wgmma_fragment(Sema *S, Node *e)
{
	Node *args[3];
	Symbol *t;
	int64_t n;
	int nargs = asy_split_args(e, args, 3, NULL, NULL);

	if (nargs < 0 || !asy_want_nargs(e, nargs, 3, 3, "a tensor, [row, col] (or [col] of a 1-dimensional tensor) and N: fragment(c, [r, c], 256)"))
		return;
	if (!(t = asy_name_of(S, args[0], SYM_TENSOR, "fragment", "a tensor first")))
		return;
	if (t->rank != 1 && t->rank != 2) {
		diag_error(args[0]->loc, "fragment reads a 2-dimensional tensor (a tile) or a 1-dimensional one (a row for every row), but '%s' has %d dimensions",
			   t->name, t->rank);
		return;
	}
	if (t->access == ACC_OUT) {
		diag_error(args[0]->loc, "cannot read '%s': it is an 'out' tensor (declare it 'inout' to read and write it)",
			   t->name);
		return;
	}
	if (t->type.base != IR_F32 && t->type.base != IR_BF16 && t->type.base != IR_F16) {
		diag_error(args[0]->loc, "fragment converts f32, bf16 or f16 to f32, but '%s' holds %s", t->name,
			   fe_tname(t->type));
		return;
	}
	if (!asy_coords_arg(S, args[1], t->rank, "fragment", t->rank == 2 ? "a row and a column" : "a column") ||
	    !sema_const_int(S, args[2], "the column count N of fragment(...)", &n))
		return;
	if (n < 8 || n > 256 || n % 8) {
		diag_error(args[2]->loc, "fragment makes an f32acc[64, N] with N a multiple of 8 from 8 to 256, found %lld",
			   (long long)n);
		return;
	}
	if (!whole_warpgroups(S, e))
		return;
	/* N = 8 gives 4 lanes: the ordinary f32x4 */
	e->ty = ir_vector(IR_F32, (int)(n / 2));
}
