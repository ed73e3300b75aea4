/* print.c: the textual IR printer. The format is specified at the top of ir.h; parse.c reads
 * it back. The printer is deterministic and prints invalid IR too (the verifier's job is to
 * complain, the printer's is to show what is there), so every index is bounds-checked. */
#include "ir.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

static int
is_ident(const char *s)
{
	const char *p;

	if (!s || !*s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return 0;
	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '_'))
			return 0;
	return 1;
}

static void
print_string(Buf *b, const char *s)
{
	const unsigned char *p;

	buf_puts(b, "\"");
	for (p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == '"' || *p == '\\')
			buf_printf(b, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			buf_printf(b, "\\x%02x", *p);
		else
			buf_putn(b, (const char *)p, 1);
	}
	buf_puts(b, "\"");
}

/* Names are bare when they are C identifiers and quoted otherwise, so any name survives. */
static void
print_name(Buf *b, const char *s)
{
	if (is_ident(s))
		buf_puts(b, s);
	else
		print_string(b, s);
}

static void
print_type(Buf *b, IrType t)
{
	char s[64];

	ir_type_str(t, s, sizeof s);
	buf_puts(b, s);
}

/* %a round-trips every finite double bit for bit; infinities and NaNs get spellings of
 * their own, NaNs with their whole bit pattern unless it is the default quiet NaN. */
static void
print_float(Buf *b, double d)
{
	uint64_t bits;

	memcpy(&bits, &d, sizeof bits);
	if (isnan(d)) {
		if (bits == UINT64_C(0x7ff8000000000000))
			buf_puts(b, "nan");
		else if (bits == UINT64_C(0xfff8000000000000))
			buf_puts(b, "-nan");
		else
			buf_printf(b, "nan(0x%016" PRIx64 ")", bits);
	} else if (isinf(d)) {
		buf_puts(b, d < 0 ? "-inf" : "inf");
	} else {
		buf_printf(b, "%a", d);
	}
}

/* Only locations in the kernel's own source are part of the IR; the parser gives unlocated
 * ops their position in the IR text (another file) so that diagnostics point somewhere. */
static void
print_loc(Buf *b, const IrKernel *k, SrcLoc loc)
{
	if (loc.line > 0 && loc.file == k->file) {
		buf_puts(b, " !");
		buf_putint(b, loc.line);
		buf_puts(b, ":");
		buf_putint(b, loc.col);
	}
}

static void
print_value(Buf *b, IrValue v)
{
	buf_puts(b, "%");
	buf_putint(b, v);
}

static void
indent(Buf *b, int depth)
{
	int i;

	for (i = 0; i < depth; i++)
		buf_puts(b, "  ");
}

static void print_region(Buf *b, const IrKernel *k, const IrRegion *r, int depth);

static void
print_op(Buf *b, const IrKernel *k, const IrOp *op, int depth)
{
	const IrOpInfo *info = op->opc >= 0 && op->opc < IR_NOPCODES ? &ir_opinfo[op->opc] : NULL;
	int i;

	indent(b, depth);
	for (i = 0; i < op->nres; i++) {
		buf_puts(b, i ? ", " : "");
		print_value(b, op->res[i]);
	}
	if (op->nres)
		buf_puts(b, " = ");
	if (info)
		buf_puts(b, info->name);
	else
		buf_printf(b, "<opcode %d>", op->opc);
	if (info && ((info->flags & OPF_IMM) || ((info->flags & (OPF_NSW | OPF_FLAG)) && op->imm))) {
		buf_puts(b, "[");
		buf_putint(b, op->imm);
		buf_puts(b, "]");
	}
	if (op->opc == IR_CONST) {
		buf_puts(b, " ");
		if (op->nres && ir_const_is_float(ir_vtype(k, op->res[0])))
			print_float(b, op->fimm);
		else
			buf_putint(b, op->imm);
	}
	for (i = 0; i < op->nargs; i++) {
		buf_puts(b, i ? ", " : " ");
		print_value(b, op->args[i]);
	}
	for (i = 0; i < op->nres; i++) {
		buf_puts(b, i ? ", " : " : ");
		print_type(b, ir_vtype(k, op->res[i]));
	}
	for (i = 0; i < op->nregions; i++) {
		if (i > 0 && op->opc == IR_IF)
			buf_puts(b, " else");
		else if (i > 0 && op->opc == IR_WHILE)
			buf_puts(b, " do");
		buf_puts(b, " ");
		print_region(b, k, &op->regions[i], depth);
	}
	print_loc(b, k, op->loc);
	buf_puts(b, "\n");
}

static void
print_region_args(Buf *b, const IrKernel *k, const IrRegion *r)
{
	int i;

	buf_puts(b, "(");
	for (i = 0; i < r->nargs; i++) {
		buf_puts(b, i ? ", " : "");
		print_value(b, r->args[i]);
		buf_puts(b, ": ");
		print_type(b, ir_vtype(k, r->args[i]));
	}
	buf_puts(b, ")");
}

/* `(args) {`, the ops one level deeper, and `}` at the op's own depth. */
static void
print_region(Buf *b, const IrKernel *k, const IrRegion *r, int depth)
{
	int i;

	if (r->nargs) {
		print_region_args(b, k, r);
		buf_puts(b, " ");
	}
	buf_puts(b, "{\n");
	for (i = 0; i < r->nops; i++)
		print_op(b, k, &r->ops[i], depth + 1);
	indent(b, depth);
	buf_puts(b, "}");
}

static const char *const access_names[] = {"in", "out", "inout"};

static void
print_param(Buf *b, const IrKernel *k, const IrParam *p)
{
	int i;

	buf_puts(b, "  param ");
	print_name(b, p->name);
	buf_puts(b, " : ");
	switch (p->kind) {
	case PARAM_TENSOR:
		buf_printf(b, "tensor %s %s [",
			   p->access >= 0 && p->access <= ACC_INOUT ? access_names[p->access] : "?",
			   ir_base_name((IrBase)p->type.elem));
		for (i = 0; i < p->rank && i < IR_MAX_RANK; i++) {
			const IrDim *d = &p->dims[i];

			buf_puts(b, i ? ", " : "");
			if (d->sym < 0)
				buf_printf(b, "%" PRId64, d->size);
			else if (d->sym < k->nparams)
				print_name(b, k->params[d->sym].name);
			else
				buf_printf(b, "<param %d>", d->sym);
		}
		buf_puts(b, "]");
		if (p->ranks)
			buf_printf(b, " rank %d of %d", p->rank_no, p->ranks);
		break;
	case PARAM_SYM:
		buf_puts(b, "sym");
		/* syms are i32 (i64 under `index i64`); the type is spelled out when not i32 */
		if (!ir_type_eq(p->type, ir_scalar(IR_I32))) {
			buf_puts(b, " ");
			print_type(b, p->type);
		}
		break;
	case PARAM_SCALAR:
		buf_puts(b, "scalar ");
		print_type(b, p->type);
		break;
	case PARAM_TMAP:
		buf_puts(b, "tmap ");
		if (p->tmap_tensor >= 0 && p->tmap_tensor < k->nparams)
			print_name(b, k->params[p->tmap_tensor].name);
		else
			buf_printf(b, "<param %d>", p->tmap_tensor);
		buf_puts(b, " box [");
		for (i = 0; i < p->rank && i < IR_MAX_RANK; i++)
			buf_printf(b, "%s%" PRId64, i ? ", " : "", p->dims[i].size);
		buf_printf(b, "] swizzle %d oob %s", p->swizzle, p->oob_nan ? "nan" : "zero");
		break;
	default:
		buf_printf(b, "<kind %d>", p->kind);
		break;
	}
	print_loc(b, k, p->loc);
	buf_puts(b, "\n");
}

static void
print_buffer(Buf *b, const IrKernel *k, const IrBuffer *s)
{
	int i;

	buf_puts(b, "  shared ");
	print_name(b, s->name);
	buf_printf(b, " : %s [", ir_base_name(s->elem));
	for (i = 0; i < s->rank && i < IR_MAX_RANK; i++)
		buf_printf(b, "%s%" PRId64, i ? ", " : "", s->dims[i]);
	buf_printf(b, "] align %d", s->align);
	if (s->stages != 1)
		buf_printf(b, " stages %d", s->stages);
	if (s->pipeline >= 0 && s->pipeline < k->npipelines) {
		buf_puts(b, " pipeline ");
		print_name(b, k->pipelines[s->pipeline].name);
	} else if (s->pipeline != -1) {
		buf_printf(b, " pipeline <pipeline %d>", s->pipeline);
	}
	if (s->swizzle)
		buf_printf(b, " swizzle %d", s->swizzle);
	if (s->alias >= 0 && s->alias < k->nbufs) {
		buf_puts(b, " alias ");
		print_name(b, k->bufs[s->alias].name);
	} else if (s->alias != -1) {
		buf_printf(b, " alias <buffer %d>", s->alias);
	}
	if (s->stage_stride)
		buf_printf(b, " stage_stride %" PRId64, s->stage_stride);
	if (s->offset >= 0)
		buf_printf(b, " offset %" PRId64, s->offset);
	print_loc(b, k, s->loc);
	buf_puts(b, "\n");
}

static void
print_barrier(Buf *b, const IrKernel *k, const IrBarrier *r)
{
	buf_puts(b, "  mbarrier ");
	print_name(b, r->name);
	buf_printf(b, " count %d", r->count);
	if (r->n != 1)
		buf_printf(b, " n %d", r->n);
	if (r->offset >= 0)
		buf_printf(b, " offset %" PRId64, r->offset);
	print_loc(b, k, r->loc);
	buf_puts(b, "\n");
}

static void
print_barrier_ref(Buf *b, const IrKernel *k, int i)
{
	if (i >= 0 && i < k->nbarriers)
		print_name(b, k->barriers[i].name);
	else
		buf_printf(b, "<mbarrier %d>", i);
}

static void
print_pipeline(Buf *b, const IrKernel *k, const IrPipeline *p)
{
	buf_puts(b, "  pipeline ");
	print_name(b, p->name);
	buf_printf(b, " stages %d full ", p->stages);
	print_barrier_ref(b, k, p->full);
	buf_printf(b, " %s %d empty ", ir_pipe_source_name(p->full_src), p->full_mult);
	print_barrier_ref(b, k, p->empty);
	buf_printf(b, " %s %d%s", ir_pipe_source_name(p->empty_src), p->empty_mult, p->empty_cluster ? " cluster" : "");
	print_loc(b, k, p->loc);
	buf_puts(b, "\n");
}

static void
print_tmem(Buf *b, const IrKernel *k, const IrTmem *t)
{
	buf_puts(b, "  tmem ");
	print_name(b, t->name);
	if (t->elem == IR_F16 || t->elem == IR_BF16)   /* f32, the default, is not written */
		buf_puts(b, t->elem == IR_F16 ? " f16" : " bf16");
	if (t->packed)
		buf_puts(b, " packed");
	buf_printf(b, " columns %d stages %d at %d", t->cols, t->stages, t->col);
	if (t->pipeline) {
		buf_puts(b, " pipeline ");
		print_name(b, t->pipeline);
	}
	if (t->writer) {
		buf_puts(b, " write ");
		print_name(b, t->writer);
	}
	if (t->reader) {
		buf_puts(b, " read ");
		print_name(b, t->reader);
	}
	print_loc(b, k, t->loc);
	buf_puts(b, "\n");
}

void
ir_print_kernel(Buf *out, const IrKernel *k)
{
	int i;

	buf_puts(out, "kernel @");
	print_name(out, k->name);
	buf_puts(out, " {\n");
	if (k->source) {
		buf_puts(out, "  source ");
		print_string(out, k->source);
		buf_puts(out, "\n");
	}
	if (k->targets) {
		buf_puts(out, "  targets");
		for (i = 0; i < TARGET_COUNT; i++)
			if (k->targets & (1u << i))
				buf_printf(out, " %s", ir_target_name(i));
		buf_puts(out, "\n");
	}
	buf_printf(out, "  threads %d %d %d\n", k->threads[0], k->threads[1], k->threads[2]);
	buf_puts(out, "  grid");
	for (i = 0; i < 3; i++) {
		buf_puts(out, " ");
		print_string(out, k->grid[i]);
	}
	buf_puts(out, "\n");
	if (k->cluster[0] != 1 || k->cluster[1] != 1 || k->cluster[2] != 1)
		buf_printf(out, "  cluster %d %d %d\n", k->cluster[0], k->cluster[1], k->cluster[2]);
	if (k->min_blocks)
		buf_printf(out, "  min_blocks %d\n", k->min_blocks);
	if (k->index64)
		buf_puts(out, "  index i64\n");
	if (k->dependent)
		buf_puts(out, "  launch dependent\n");
	if (k->requires) {
		buf_puts(out, "  requires ");
		print_string(out, k->requires);
		buf_puts(out, "\n");
	}
	if (k->smem_bytes)
		buf_printf(out, "  smem_bytes %" PRId64 "\n", k->smem_bytes);
	for (i = 0; i < k->nparams; i++)
		print_param(out, k, &k->params[i]);
	for (i = 0; i < k->nbarriers; i++)
		print_barrier(out, k, &k->barriers[i]);
	for (i = 0; i < k->npipelines; i++)
		print_pipeline(out, k, &k->pipelines[i]);
	for (i = 0; i < k->nbufs; i++)
		print_buffer(out, k, &k->bufs[i]);
	for (i = 0; i < k->ntmems; i++)
		print_tmem(out, k, &k->tmems[i]);
	buf_puts(out, "  body");
	print_region_args(out, k, &k->body);
	buf_puts(out, " {\n");
	for (i = 0; i < k->body.nops; i++)
		print_op(out, k, &k->body.ops[i], 2);
	buf_puts(out, "  }\n}\n");
}

void
ir_print_module(Buf *out, const IrModule *m)
{
	int i;

	for (i = 0; i < m->nkernels; i++) {
		if (i)
			buf_puts(out, "\n");
		ir_print_kernel(out, m->kernels[i]);
	}
}

uint64_t
ir_symbol_hash(const char *text, size_t len)
{
	const char *src = text ? strstr(text, "\n  source \"") : NULL, *eol;

	if (!text)
		return hash_fnv1a("", 0, HASH_INIT);
	if (!src || src >= text + len || !(eol = memchr(src + 1, '\n', (size_t)(text + len - src - 1))))
		return hash_fnv1a(text, len, HASH_INIT);
	return hash_fnv1a(eol, (size_t)(text + len - eol), hash_fnv1a(text, (size_t)(src - text), HASH_INIT));
}
