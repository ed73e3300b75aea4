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

/* A shared operand of wgmma: a whole array, or buf.rows(start, n) (start a multiple of 8,
 * a swizzle atom; n the operand's rows: 64 for A, the accumulator's N for B). The array,
 * or NULL after an error. */
static Symbol *
operand_rows(Sema *S, Node *a, int64_t want, const char *which)
{
	Node *ra[2];
	Symbol *ba;
	int64_t rows, start;
	int m;

	if (!(a->kind == N_CALL && a->lhs && strcmp(a->name, "rows") == 0)) {
		if (!(ba = asy_buffer_arg(S, a, "wgmma")))
			return NULL;
		if (ba->rank == 2 && ba->dims[0] != want) {
			diag_error(a->loc, "wgmma operand %s '%s' has %lld rows; it takes %lld (%s): pass %s.rows(start, %lld)",
				   which, ba->name, (long long)ba->dims[0], (long long)want,
				   *which == 'A' ? "m64" : "the accumulator's N", ba->name, (long long)want);
			return NULL;
		}
		return ba;
	}
	m = asy_split_args(a, ra, 2, NULL, NULL);
	a->builtin = BI_ROWS;
	a->ty = fe_ty(TY_NONVALUE);
	if (m < 0 || !asy_want_nargs(a, m, 2, 2, "a first row and a count: buf.rows(start, 64)"))
		return NULL;
	if (!(ba = asy_buffer_arg(S, a->lhs, "wgmma")))
		return NULL;
	a->sym = ba;
	if (!asy_i32_value(S, ra[0], "the first row of rows(...)") ||
	    !sema_const_int(S, ra[1], "the row count of rows(...)", &rows))
		return NULL;
	if (rows != want) {
		diag_error(ra[1]->loc, "wgmma operand %s has %lld rows (%s), found rows(..., %lld)", which, (long long)want,
			   *which == 'A' ? "m64" : "the accumulator's N", (long long)rows);
		return NULL;
	}
	if (ba->rank == 2 && ra[0]->isconst && ((start = ra[0]->cv.i) % 8 || start < 0 || start + want > ba->dims[0])) {
		diag_error(ra[0]->loc, "rows(%lld, %lld) of '%s': the first row must be a multiple of 8 (a swizzle atom) and the rows inside its %lld",
			   (long long)start, (long long)want, ba->name, (long long)ba->dims[0]);
		return NULL;
	}
	return ba;
}

/* Operand B of wgmma given N-major, `buf.T`: buf holds B^T (K x N) as panels of W columns
 * (W the elements of one swizzle span), each K rows, stacked along its rows, the layout TMA
 * writes with one box of W columns per panel (`part:`); wgmma reads it with imm-trans-b,
 * which the ISA has for bf16 and f16 only. */
static int
wgmma_bt(Sema *S, Node *e, Node *b, int base, int64_t k, const char *adesc, int cols)
{
	Symbol *bb;
	int64_t w;

	if (!(bb = asy_buffer_arg(S, b->lhs, "wgmma")))
		return 0;
	b->sym = bb;
	b->ty = fe_ty(TY_NONVALUE);
	if (bb->rank != 2 || (bb->type.base != IR_BF16 && bb->type.base != IR_F16) || !bb->swizzle) {
		diag_error(b->loc, "wgmma operand B '%s.T' (N-major) must be a swizzled 2-dimensional array of bf16 or f16, found %s%s",
			   bb->name, fe_tname(bb->type), bb->swizzle ? "" : " without swizzle");
		return 0;
	}
	if (base != bb->type.base) {
		diag_error(e->loc, "wgmma operands must have one type: A %s is %s but B '%s' is %s", adesc,
			   fe_tname(ir_scalar((IrBase)base)), bb->name, fe_tname(bb->type));
		return 0;
	}
	w = bb->swizzle / 2;
	if (bb->dims[1] != w || cols % w || bb->dims[0] != cols / w * k) {
		diag_error(b->loc, "wgmma operand B '%s.T' holds B^T (K = %lld rows, N = %d columns) in panels of %lld columns (its swizzle(%d) span), each K rows, stacked: expected %s[%lld, %lld], found [%lld, %lld]",
			   bb->name, (long long)k, cols, (long long)w, bb->swizzle, fe_tname(bb->type),
			   (long long)(cols % w ? 0 : cols / w * k), (long long)w, (long long)bb->dims[0],
			   (long long)bb->dims[1]);
		return 0;
	}
	(void)S;
	return 1;
}

/* Operand B of wgmma (the last argument), which must match operand A (of type base, K
 * columns, described by adesc for messages) and the accumulator's N. */
static int
wgmma_b(Sema *S, Node *e, Node *b, int base, int64_t k, const char *adesc, int cols)
{
	Symbol *bb;

	if (b->kind == N_MEMBER && strcmp(b->name, "T") == 0)
		return wgmma_bt(S, e, b, base, k, adesc, cols);

	if (!(bb = operand_rows(S, b, cols, "B")) || !wgmma_operand(e, b->kind == N_CALL ? b->lhs : b, bb, "B"))
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
		return !a->lhs || strcmp(a->name, "cols") == 0;
	if (a->kind != N_NAME)
		return 1;
	s = sema_lookup(S, a->name);
	return s && (s->kind == SYM_VAR || s->kind == SYM_LET);
}

/* a.cols(c0, k) of a register A fragment of K columns: its columns c0 .. c0 + k - 1 as
 * operand A, whole k16 steps inside it; k a constant, c0 one or known once loops are
 * unrolled (an unroll loop's index: a->ival is then -1 and irgen finds c0 in each copy,
 * checking it there). */
static int
fragment_cols(Sema *S, Node *a, int64_t kall, int64_t *c0, int64_t *k)
{
	Node *ca[2];
	int m = asy_split_args(a, ca, 2, NULL, NULL);

	a->builtin = BI_COLS;
	if (m < 0 || !asy_want_nargs(a, m, 2, 2, "a first column and a count: a.cols(start, 64)") ||
	    !sema_const_int(S, ca[1], "the column count of cols(...)", k))
		return 0;
	if (*k <= 0 || *k % 16 || *k > kall) {
		diag_error(ca[1]->loc, "cols(..., %lld) of a register A fragment of K = %lld: the count must be a multiple of 16 (k16 steps) up to K",
			   (long long)*k, (long long)kall);
		return 0;
	}
	sema_expr(S, ca[0]);
	if (fe_is_error(ca[0]->ty))
		return 0;
	if (!fe_intnum(ca[0]->ty) || !ra_known(ca[0])) {
		diag_error(ca[0]->loc, "the first column of cols(...) must be known at compile time once loops are unrolled (constants, indices of 'unroll' loops with constant bounds, 'let's and arithmetic of those)");
		return 0;
	}
	if (!ca[0]->isconst) {
		if (!fe_convert(ca[0], ir_scalar(IR_I32), "the first column of cols(...)"))
			return 0;
		ra_mark_loops(ca[0]);
		*c0 = -1;
		return 1;
	}
	*c0 = ca[0]->cv.i;
	if (*c0 % 16 || *c0 < 0 || *c0 + *k > kall) {
		diag_error(a->loc, "cols(%lld, %lld) of a register A fragment of K = %lld: the first column must be a multiple of 16 (a k16 step) and the columns inside it",
			   (long long)*c0, (long long)*k, (long long)kall);
		return 0;
	}
	if (ca[0]->ty.base == TY_UNTYPED_INT)
		fe_convert_untyped(ca[0], ir_scalar(IR_I32));
	return 1;
}

/* acc = wgmma(acc, a, b) with a a register A fragment (bf16a/f16a[64, K]). */
static void
wgmma_rs(Sema *S, Node *e, Node **args, int cols)
{
	Node *a = args[1], *f = a;
	char desc[64];
	int64_t c0 = 0, k;

	if (a->kind == N_CALL && a->lhs)
		f = a->lhs;
	if (!sema_value(S, f))
		return;
	if (!ir_is_afrag(f->ty)) {
		diag_error(f->loc, "wgmma operand A is a shared array (buf or buf.rows(start, 64)) or a register fragment (bf16a[64, K] or f16a[64, K]), found %s",
			   fe_tname(f->ty));
		return;
	}
	k = f->ty.lanes * 2;
	if (f != a && !fragment_cols(S, a, k, &c0, &k))
		return;
	if (f != a) {
		a->ty = ir_vector((IrBase)f->ty.base, (int)(k / 2));
		a->ival = c0;
	}
	snprintf(desc, sizeof desc, "(%s)", fe_tname(a->ty));
	if (!wgmma_b(S, e, args[2], a->ty.base, k, desc, cols))
		return;
	e->ty = args[0]->ty;
}

/* Marks the `unroll` loops with constant bounds around a wgmma inside its consume block
 * for irgen to unroll (as a register array's index does): a loop left in the IR is a
 * region, and the wgmma_wait pass retires every group before a region's iteration ends,
 * so the K steps of `for (k in 0 .. 2) unroll { acc = wgmma(acc, a.rows(64 * k, 64), ...) }`
 * would each wait, and nothing after the loop would overlap them. */
static void
unroll_around(Sema *S)
{
	int i;

	for (i = S->nxs - 1; i >= 0 && S->xs[i].kind == XC_LOOP; i--) {
		Node *l = S->xs[i].node;

		if (l->kind == N_FOR && l->sym && l->sym->ucon)
			l->ival = 1;
	}
}

void
asy_wgmma(Sema *S, Node *e)
{
	Node *args[3], *a;
	Symbol *ba;
	int n = asy_split_args(e, args, 3, NULL, NULL), cols;
	char desc[64];

	unroll_around(S);
	if (n < 0 || !asy_want_nargs(e, n, 3, 3, "an accumulator, operand A and operand B: acc = wgmma(acc, a, b)"))
		return;
	if (!(cols = frag_arg(S, e, args[0])))
		return;
	a = args[1];
	if (register_a(S, a)) {
		wgmma_rs(S, e, args, cols);
		return;
	}
	if (!(ba = operand_rows(S, a, 64, "A")))
		return;
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
 * lane with no data moving between threads (and a pair of lanes is one bf16x2 register).
 * f32acc(a) is the way back, exact: with it a kernel splits an f32 accumulator into a
 * rounded part and the rest, bf16a(acc) and bf16a(acc - f32acc(bf16a(acc))). */
void
asy_wgmma_afrag(Sema *S, Node *e)
{
	Node *args[1];
	int n = asy_split_args(e, args, 1, NULL, NULL), cols;

	if (e->builtin == BI_F32ACC) {
		if (n < 0 || !asy_want_nargs(e, n, 1, 1, "a register A fragment: f32acc(a)") || !sema_value(S, args[0]))
			return;
		if (!ir_is_afrag(args[0]->ty)) {
			diag_error(args[0]->loc, "f32acc(a) widens a register A fragment (bf16a[64, K] or f16a[64, K]), found %s",
				   fe_tname(args[0]->ty));
			return;
		}
		e->ty = ir_vector(IR_F32, args[0]->ty.lanes);
		return;
	}
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

/* Whether tile argument a (without its `.T`) names a shared array: `buf` or
 * `buf.rows(start, n)`. */
static int
shared_tile(Sema *S, Node *a)
{
	Symbol *s;

	if (a->kind == N_CALL && a->lhs && strcmp(a->name, "rows") == 0)
		return 1;
	return a->kind == N_NAME && (s = sema_lookup(S, a->name)) && s->kind == SYM_SHARED;
}

/* The shared tile argument of store and fragment: `buf` (rank 1 or 2), `buf.rows(start,
 * n)` (n rows, the panel height of a swizzled array: its columns past one swizzle span
 * continue n rows further down, as wgmma's K-major panels do) and either 2-dimensional form
 * with `.T`. The array, of f32, bf16 or f16, each row one swizzle span when swizzled; the
 * rows call gets ival = n. NULL after an error. */
static Symbol *
shared_tile_arg(Sema *S, Node *a, Node *base, const char *call, int *rank)
{
	Node *ra[2];
	Symbol *b;
	int64_t n, start;
	int m, rows = base->kind == N_CALL;

	if (!(b = asy_buffer_arg(S, rows ? base->lhs : base, call)))
		return NULL;
	a->sym = base->sym = b;
	a->ty = base->ty = fe_ty(TY_NONVALUE);
	if (b->type.base != IR_F32 && b->type.base != IR_BF16 && b->type.base != IR_F16) {
		diag_error(a->loc, "%s moves f32, bf16 or f16 between a fragment and shared memory, but '%s' holds %s", call,
			   b->name, fe_tname(b->type));
		return NULL;
	}
	*rank = b->rank;
	if ((a != base || rows) && b->rank != 2) {
		diag_error(a->loc, "%s: '%s' has %d dimension%s; a tile of shared memory is a 2-dimensional array (a 1-dimensional one only in fragment(v, [col], N))",
			   call, b->name, b->rank, b->rank == 1 ? "" : "s");
		return NULL;
	}
	if (b->swizzle && b->rank == 1) {
		diag_error(a->loc, "%s: '%s' is a swizzled 1-dimensional array; fragment(v, [col], N) reads a plain one",
			   call, b->name);
		return NULL;
	}
	if (b->swizzle && b->rank == 2 && b->dims[1] * asy_elem_bytes(b->type) != b->swizzle) {
		diag_error(a->loc, "%s: the rows of the swizzled array '%s' are %lld bytes, but its swizzle(%d) lays out rows of %d bytes",
			   call, b->name, (long long)(b->dims[1] * asy_elem_bytes(b->type)), b->swizzle, b->swizzle);
		return NULL;
	}
	base->ival = b->rank == 2 ? b->dims[0] : 1;
	if (!rows)
		return b;
	m = asy_split_args(base, ra, 2, NULL, NULL);
	base->builtin = BI_ROWS;
	if (m < 0 || !asy_want_nargs(base, m, 2, 2, "a first row and a count: buf.rows(start, 64)"))
		return NULL;
	if (!asy_i32_value(S, ra[0], "the first row of rows(...)") ||
	    !sema_const_int(S, ra[1], "the row count of rows(...)", &n))
		return NULL;
	start = ra[0]->isconst ? ra[0]->cv.i : 0;
	if (n < 1 || (b->swizzle && (n % 8 || start % 8)) || start < 0 || start + n > b->dims[0]) {
		diag_error(base->loc, "rows(%lld, %lld) of '%s': the rows must lie inside its %lld rows%s", (long long)start,
			   (long long)n, b->name, (long long)b->dims[0],
			   b->swizzle ? ", start and count multiples of 8 (a swizzle atom)" : "");
		return NULL;
	}
	base->ival = n;
	return b;
}

/* The tile argument of store and fragment: a tensor `t`, a matrix of a higher-rank one
 * with its leading indices fixed, `t[i, j]` (all but the last keep = 2), and either with
 * `.T`, the transposed matrix (the tile's rows are the tensor's columns); store_rows's
 * vector (keep = 1: all but the last index, no `.T`). The tensor, or NULL after an error;
 * irgen_wgmma.c's tile_place reads the same forms. */
static Symbol *
tile_arg(Sema *S, Node *a, const char *call, int keep, int *rank)
{
	Node *base = a, *ix;
	Symbol *t;
	int n = 0;

	if (a->kind == N_MEMBER) {
		if (strcmp(a->name, "T") != 0 || keep == 1) {
			diag_error(a->loc, keep == 1 ? "%s takes a tensor or a vector of one (t[i, ...]), found '.%s'"
				   : "%s takes a tensor, a matrix of one (t[i, j]) or its transpose (t.T), found '.%s'",
				   call, a->name);
			return NULL;
		}
		base = a->lhs;
	}
	if (keep == 2 && shared_tile(S, base))
		return shared_tile_arg(S, a, base, call, rank);
	ix = base->kind == N_INDEX ? base : NULL;
	if (ix)
		base = ix->lhs;
	if (!(t = asy_name_of(S, base, SYM_TENSOR, call, "a tensor first")))
		return NULL;
	if (t->ranks) {
		diag_error(base->loc, "%s of per_rank tensor '%s': a table of tensors is read and written element by element or through a tensor map",
			   call, t->name);
		return NULL;
	}
	a->sym = t;
	a->ty = fe_ty(TY_NONVALUE);
	if (ix) {
		Node *i;

		ix->sym = t;
		ix->ty = fe_ty(TY_NONVALUE);
		if (ix->width) {
			diag_error(ix->loc, "%s takes a matrix of '%s' (its leading indices), not a vector access", call,
				   t->name);
			return NULL;
		}
		for (i = ix->list.head; i; i = i->next, n++)
			if (!asy_i32_value(S, i, "a leading index of the tile's tensor"))
				return NULL;
		if (n != t->rank - keep) {
			diag_error(ix->loc, "%s takes a %s: '%s' has %d dimensions, so give its first %d index%s (found %d)",
				   call, keep == 2 ? "matrix" : "vector", t->name, t->rank, t->rank - keep,
				   t->rank - keep == 1 ? "" : "es", n);
			return NULL;
		}
		*rank = keep;
		return t;
	}
	*rank = t->rank;
	if (a != base && t->rank != 2) {
		diag_error(a->loc, "%s: '.T' transposes a matrix, but '%s' has %d dimension%s", call, t->name, t->rank,
			   t->rank == 1 ? "" : "s");
		return NULL;
	}
	return t;
}

/* A 64 x N fragment (N x 64 of the matrix when transposed) at constant coordinates cn of
 * shared tile a must lie inside its matrix: nothing is skipped there (ops.def). */
static int
shared_tile_fits(Node *a, Node *cn, int64_t n)
{
	Node *base = a->kind == N_MEMBER ? a->lhs : a, *r = cn->list.head, *c = r->next, *start = base->list.head;
	const Symbol *b = a->sym;
	int tr = a->kind == N_MEMBER;
	int64_t rows = base->ival, cols = b->dims[1], mr = tr ? n : 64, mc = tr ? 64 : n, r0, c0;

	if (b->rank != 2 || !r->isconst || !c->isconst)
		return 1;
	if (b->swizzle)         /* the panels below the first row, each `rows` high */
		cols *= (b->dims[0] - (base->kind == N_CALL && start->isconst ? start->cv.i : 0)) / rows;
	r0 = tr ? c->cv.i : r->cv.i;
	c0 = tr ? r->cv.i : c->cv.i;
	if (r0 >= 0 && c0 >= 0 && r0 + mr <= rows && c0 + mc <= cols)
		return 1;
	diag_error(cn->loc, "the fragment's %lld x %lld elements at row %lld, column %lld of the matrix of '%s' do not fit its %lld x %lld%s",
		   (long long)mr, (long long)mc, (long long)r0, (long long)c0, b->name, (long long)rows, (long long)cols,
		   b->swizzle ? " (a swizzled array's columns past its span continue in panels further down)" : "");
	return 0;
}

/* `paired: c` (named, possibly NULL) of store and fragment on tile argument a: c a
 * constant i1; true pairs the fragment's rows (IR_TILE_PAIRED, irgen_wgmma.c's tile_paired
 * reads it again), which only a transposed tile takes (of a tensor or a shared array): there
 * a thread's two elements of a column are adjacent in memory. 0 after an error. */
static int
paired_arg(Sema *S, Node *named, Node *a)
{
	Node *c = named ? named->lhs : NULL;

	if (!c)
		return 1;
	if (!sema_value(S, c))
		return 0;
	if (c->ty.base != IR_I1 || c->ty.lanes != 1) {
		diag_error(c->loc, "'paired:' takes true or false, found %s", fe_tname(c->ty));
		return 0;
	}
	if (!c->isconst) {
		diag_error(c->loc, "'paired:' takes a constant (true, false or a condition on generic parameters), not a value known only at run time");
		return 0;
	}
	if (c->cv.i && a->kind != N_MEMBER) {
		diag_error(named->loc, "'paired: true' is for a transposed tile (t.T, buf.T), whose two elements of a column a thread holds are adjacent; '%s' is not transposed",
			   a->sym->name);
		return 0;
	}
	return 1;
}

/* The tensor a store call writes (argument a): out or inout, of f32, bf16 or f16. */
static int
float_out(Node *a, const Symbol *t, const char *call)
{
	if (t->access == ACC_IN) {
		diag_error(a->loc, "cannot write to '%s': it is an 'in' tensor (declare it 'out' or 'inout')", t->name);
		return 0;
	}
	if (t->type.base != IR_F32 && t->type.base != IR_BF16 && t->type.base != IR_F16) {
		diag_error(a->loc, "%s converts its values to f32, bf16 or f16, but '%s' holds %s", call, t->name,
			   fe_tname(t->type));
		return 0;
	}
	return 1;
}

/* store(tensor, acc, [row0, col0]): the fragment's elements at their (row, col); or
 * store(tensor, r, [row, col0]) of a register array r: r[j] at (row, col0 + j). Both skip
 * the elements outside the tensor. */
void
asy_wgmma_store(Sema *S, Node *e)
{
	Node *args[3], *named[1];
	Symbol *t, *regs = NULL;
	int n = asy_split_args(e, args, 3, ASY_NAMES("paired"), named), rank;

	if (n < 0 || !asy_want_nargs(e, n, 3, 3, "a tensor, an accumulator or a register array, and [row, col]: store(c, acc, [r, c])"))
		return;
	if (!(t = tile_arg(S, args[0], "store", 2, &rank)))
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
	if (rank != 2) {
		diag_error(args[0]->loc, "store writes a 2-dimensional tensor (or a matrix of a larger one, t[i, ...]), but '%s' has %d dimension%s",
			   t->name, t->rank, t->rank == 1 ? "" : "s");
		return;
	}
	if (regs && args[0]->kind == N_MEMBER) {
		diag_error(args[0]->loc, "store of a register array writes part of one row; '.T' (a transposed tile) is for accumulator fragments");
		return;
	}
	if (regs && t->kind == SYM_SHARED) {
		diag_error(args[0]->loc, "store of a register array writes a tensor; into shared memory, assign the elements");
		return;
	}
	if (t->kind == SYM_TENSOR && !float_out(args[0], t, "store"))
		return;
	if (!asy_coords_arg(S, args[2], 2, "store", "a row and a column"))
		return;
	if (t->kind == SYM_SHARED && !shared_tile_fits(args[0], args[2], args[1]->ty.lanes * 2))
		return;
	if (!paired_arg(S, named[0], args[0]))
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
	Node *args[3], *named[1];
	Symbol *t;
	int64_t n;
	int nargs = asy_split_args(e, args, 3, ASY_NAMES("paired"), named), rank;

	if (nargs < 0 || !asy_want_nargs(e, nargs, 3, 3, "a tensor, [row, col] (or [col] of a 1-dimensional tensor) and N: fragment(c, [r, c], 256)"))
		return;
	if (!(t = tile_arg(S, args[0], "fragment", 2, &rank)))
		return;
	if (rank != 1 && rank != 2) {
		diag_error(args[0]->loc, "fragment reads a 2-dimensional tensor (a tile; or a matrix of a larger one, t[i, ...]) or a 1-dimensional one (a row for every row), but '%s' has %d dimensions",
			   t->name, t->rank);
		return;
	}
	if (t->kind == SYM_TENSOR && t->access == ACC_OUT) {
		diag_error(args[0]->loc, "cannot read '%s': it is an 'out' tensor (declare it 'inout' to read and write it)",
			   t->name);
		return;
	}
	if (t->type.base != IR_F32 && t->type.base != IR_BF16 && t->type.base != IR_F16) {
		diag_error(args[0]->loc, "fragment converts f32, bf16 or f16 to f32, but '%s' holds %s", t->name,
			   fe_tname(t->type));
		return;
	}
	if (!asy_coords_arg(S, args[1], rank, "fragment", rank == 2 ? "a row and a column" : "a column") ||
	    !sema_const_int(S, args[2], "the column count N of fragment(...)", &n))
		return;
	if (n < 8 || n > 256 || n % 8) {
		diag_error(args[2]->loc, "fragment makes an f32acc[64, N] with N a multiple of 8 from 8 to 256, found %lld",
			   (long long)n);
		return;
	}
	if (t->kind == SYM_SHARED && !(rank == 1 ? 1 : shared_tile_fits(args[0], args[1], n)))
		return;
	if (!paired_arg(S, named[0], args[0]) || !whole_warpgroups(S, e))
		return;
	/* N = 8 gives 4 lanes: the ordinary f32x4 */
	e->ty = ir_vector(IR_F32, (int)(n / 2));
}

/* ---- rows of a fragment ----
 * Thread t of the warpgroup holds, of an m64nN fragment, rows 16 (t / 32) + (t % 32) / 4
 * and 8 more, so its share of a column vector (one value per row) is an f32x2: lane i is
 * the row with 8 i added. The four threads of a quad hold the same rows. */

/* A row vector argument: f32x2. */
static int
rowvec_arg(Sema *S, Node *e, Node *a)
{
	if (!sema_value(S, a))
		return 0;
	if (ir_type_eq(a->ty, ir_vector(IR_F32, 2)))
		return 1;
	diag_error(a->loc, "%s takes a row vector (f32x2, the values of the thread's two rows, as row_max gives), found %s",
		   e->name, fe_tname(a->ty));
	return 0;
}

/* An f32 scalar argument (an untyped constant becomes f32). */
static int
f32_arg(Sema *S, Node *e, Node *a, const char *what)
{
	if (!sema_value(S, a))
		return 0;
	if (fe_untyped(a->ty) && !fe_convert(a, ir_scalar(IR_F32), what))
		return 0;
	if (ir_type_eq(a->ty, ir_scalar(IR_F32)))
		return 1;
	diag_error(a->loc, "%s of %s must be f32, found %s", what, e->name, fe_tname(a->ty));
	return 0;
}

/* row_max(acc), row_sum(acc): an f32x2; by_row(v, N): an f32acc[64, N]; mask_cols(acc, n
 * [, v]) and mask_above(acc, d [, v]): acc with some elements replaced by v (-inf). */
void
asy_frag_rows(Sema *S, Node *e)
{
	Node *args[3];
	int n = asy_split_args(e, args, 3, NULL, NULL);
	int64_t cols;

	fe_set_error(e);
	if (n < 0)
		return;
	if (e->builtin == BI_ROW_MAX || e->builtin == BI_ROW_SUM) {
		if (asy_want_nargs(e, n, 1, 1, "an accumulator fragment: row_max(acc)") && frag_arg(S, e, args[0]) &&
		    whole_warpgroups(S, e))
			e->ty = ir_vector(IR_F32, 2);
		return;
	}
	if (e->builtin == BI_BY_ROW) {
		if (!asy_want_nargs(e, n, 2, 2, "a row vector and the column count: by_row(m, 128)") ||
		    !rowvec_arg(S, e, args[0]) || !sema_const_int(S, args[1], "the column count N of by_row(...)", &cols))
			return;
		if (cols < 8 || cols > 256 || cols % 8) {
			diag_error(args[1]->loc, "by_row makes an f32acc[64, N] with N a multiple of 8 from 8 to 256, found %lld",
				   (long long)cols);
			return;
		}
		e->ty = ir_vector(IR_F32, (int)(cols / 2));
		return;
	}
	if (!asy_want_nargs(e, n, 2, 3, e->builtin == BI_MASK_COLS ?
			    "a fragment, the first masked column and optionally the value (-inf): mask_cols(s, n)" :
			    "a fragment, the diagonal and optionally the value (-inf): mask_above(s, d)") ||
	    !frag_arg(S, e, args[0]) ||
	    !asy_i32_value(S, args[1], e->builtin == BI_MASK_COLS ? "the first masked column" : "the diagonal") ||
	    (n == 3 && !f32_arg(S, e, args[2], "the value")) || !whole_warpgroups(S, e))
		return;
	e->ty = args[0]->ty;
}

/* store_rows(v, rv, [row0]): the row vector rv into the 1-dimensional tensor v (or a vector
 * of a larger one, v[i, ...]) at row0 + the fragment row, skipping rows past its end. */
void
asy_store_rows(Sema *S, Node *e)
{
	Node *args[3];
	Symbol *t;
	int n = asy_split_args(e, args, 3, NULL, NULL), rank;

	if (n < 0 || !asy_want_nargs(e, n, 3, 3, "a tensor, a row vector and [row]: store_rows(lse[b, h], m, [q0])") ||
	    !(t = tile_arg(S, args[0], "store_rows", 1, &rank)) || !rowvec_arg(S, e, args[1]))
		return;
	if (rank != 1) {
		diag_error(args[0]->loc, "store_rows writes a 1-dimensional tensor (or a vector of a larger one, t[i, ...]), but '%s' has %d dimensions",
			   t->name, t->rank);
		return;
	}
	if (float_out(args[0], t, "store_rows") && asy_coords_arg(S, args[2], 1, "store_rows", "a row"))
		whole_warpgroups(S, e);
}
