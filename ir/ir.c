/* ir.c: types, the opcode table, kernels and the builder. */
#include "ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const IrOpInfo ir_opinfo[IR_NOPCODES] = {
#define OP(id, name, nargs, nregions, flags, feat, meaning) {name, nargs, nregions, flags, feat, meaning},
#include "ops.def"
#undef OP
};

int
ir_opcode_from_name(const char *s, int n)
{
	int i;

	for (i = 0; i < IR_NOPCODES; i++)
		if ((int)strlen(ir_opinfo[i].name) == n && memcmp(ir_opinfo[i].name, s, (size_t)n) == 0)
			return i;
	return -1;
}

/* What kind of scalar each IrBase is; the type predicates below read it. */
enum { BK_NONE, BK_BOOL, BK_SIGNED, BK_UNSIGNED, BK_FP8, BK_FLOAT, BK_OTHER };

static const struct BaseInfo {
	const char *name;
	int bits;
	int kind;
} base_info[IR_NBASE] = {
	[IR_VOID] = {"void", 0, BK_NONE},
	[IR_I1] = {"i1", 1, BK_BOOL},
	[IR_I8] = {"i8", 8, BK_SIGNED},
	[IR_I16] = {"i16", 16, BK_SIGNED},
	[IR_I32] = {"i32", 32, BK_SIGNED},
	[IR_I64] = {"i64", 64, BK_SIGNED},
	[IR_U8] = {"u8", 8, BK_UNSIGNED},
	[IR_U16] = {"u16", 16, BK_UNSIGNED},
	[IR_U32] = {"u32", 32, BK_UNSIGNED},
	[IR_U64] = {"u64", 64, BK_UNSIGNED},
	[IR_E4M3] = {"e4m3", 8, BK_FP8},
	[IR_E5M2] = {"e5m2", 8, BK_FP8},
	[IR_F16] = {"f16", 16, BK_FLOAT},
	[IR_BF16] = {"bf16", 16, BK_FLOAT},
	[IR_F32] = {"f32", 32, BK_FLOAT},
	[IR_F64] = {"f64", 64, BK_FLOAT},
	[IR_PTR] = {"ptr", 64, BK_OTHER},
	[IR_TMAP] = {"tmap", 0, BK_OTHER},
};

/* The MMA operand kinds (ir.h): the element type shared memory holds and PTX's name. */
static const struct MmaKind {
	IrBase base;
	const char *ptx;
} mma_kinds[IR_MMA_NKINDS] = {
	[IR_MMA_BF16] = {IR_BF16, "bf16"},
	[IR_MMA_F16] = {IR_F16, "f16"},
	[IR_MMA_E4M3] = {IR_E4M3, "e4m3"},
	[IR_MMA_E5M2] = {IR_E5M2, "e5m2"},
	[IR_MMA_TF32] = {IR_F32, "tf32"},
};

int
ir_mma_kind(IrBase b)
{
	int i;

	for (i = 0; i < IR_MMA_NKINDS; i++)
		if (mma_kinds[i].base == b)
			return i;
	return -1;
}

IrBase
ir_mma_kind_base(int kind)
{
	return (unsigned)kind < IR_MMA_NKINDS ? mma_kinds[kind].base : IR_VOID;
}

const char *
ir_mma_kind_name(int kind)
{
	return (unsigned)kind < IR_MMA_NKINDS ? mma_kinds[kind].ptx : "?";
}

int
ir_mma_kind_k(int kind)
{
	return (unsigned)kind < IR_MMA_NKINDS ? 32 / ir_type_bytes(ir_scalar(mma_kinds[kind].base)) : 0;
}

const IrScope ir_scopes[IR_NSCOPES] = {
	[IR_SCOPE_CTA] = {"cta", "cta", "block"},
	[IR_SCOPE_CLUSTER] = {"cluster", "cluster", "cluster"},
	[IR_SCOPE_GPU] = {"gpu", "gpu", "device"},
	[IR_SCOPE_SYSTEM] = {"system", "sys", ""},
};

/* PTX ISA, wgmma's "Matrix Descriptor Format", which tcgen05 extends: leading byte offset
 * >> 4 in bits 16-29 (K-major: 1, unused when swizzled; N-major: the bytes from one panel
 * of a swizzle span's columns to the next), stride byte offset >> 4 in 32-45 (from one
 * group of 8 rows (K-major) or 8 K (N-major) to the next: 8 rows of the span either way),
 * base offset 0 (operands start on the swizzle pattern's alignment) and the layout in
 * 62-63 (128B 1, 64B 2, 32B 3: tcgen05's 3-bit codes 2, 4, 6 in 61-63 are the same bits). */
uint64_t
ir_matrix_desc_bits(int64_t imm, uint64_t version)
{
	int sw = IR_DESC_SWIZZLE(imm);
	uint64_t layout = sw == 128 ? 1 : sw == 64 ? 2 : 3, sbo = (uint64_t)sw * 8;
	uint64_t lbo = IR_DESC_LBO(imm) ? (uint64_t)IR_DESC_LBO(imm) >> 4 : 1;

	if (sw != 32 && sw != 64 && sw != 128)
		return 0;
	return (lbo << 16) | ((sbo >> 4) << 32) | (layout << 62) | version;
}

int64_t
ir_swizzle(int64_t addr, int span)
{
	if (span != 32 && span != 64 && span != 128)
		return addr;
	return addr ^ (((addr >> 7) & (span / 16 - 1)) << 4);
}

int64_t
ir_tile_shared_byte(int64_t imm, int64_t r, int64_t c, int64_t nrows, int64_t ncols, int eb)
{
	int64_t span = IR_TILE_SWIZZLE(imm), w, t;

	if (imm & IR_TILE_TRANSPOSED) {
		t = r, r = c, c = t;
		t = nrows, nrows = ncols, ncols = t;
	}
	if (!span)
		return (r * ncols + c) * eb;
	w = span / eb;
	return ((c / w) * nrows + r) * span + c % w * eb;
}

static int
base_kind(IrType t)
{
	return t.base < IR_NBASE ? base_info[t.base].kind : BK_NONE;
}

IrType
ir_scalar(IrBase b)
{
	IrType t = {(uint8_t)b, 1, 0, 0};

	return t;
}

IrType
ir_vector(IrBase b, int lanes)
{
	IrType t = {(uint8_t)b, (uint8_t)lanes, 0, 0};

	return t;
}

IrType
ir_ptr(IrSpace space, IrBase elem)
{
	IrType t = {IR_PTR, 1, (uint8_t)space, (uint8_t)elem};

	return t;
}

int
ir_type_eq(IrType a, IrType b)
{
	return a.base == b.base && a.lanes == b.lanes && a.space == b.space && a.elem == b.elem;
}

int
ir_is_int(IrType t)
{
	int k = base_kind(t);

	return k == BK_BOOL || k == BK_SIGNED || k == BK_UNSIGNED;
}

int
ir_is_signed(IrType t)
{
	return base_kind(t) == BK_SIGNED;
}

int
ir_is_unsigned(IrType t)
{
	return base_kind(t) == BK_UNSIGNED;
}

int
ir_is_float(IrType t)
{
	return base_kind(t) == BK_FLOAT;
}

int
ir_is_fp8(IrType t)
{
	return base_kind(t) == BK_FP8;
}

int
ir_const_is_float(IrType t)
{
	return ir_is_float(t) || ir_is_fp8(t);
}

int
ir_is_frag(IrType t)
{
	return t.base == IR_F32 && t.lanes >= IR_FRAG_MIN && t.lanes <= IR_FRAG_MAX && t.lanes % 4 == 0 &&
	       t.space == 0 && t.elem == 0;
}

int
ir_is_afrag(IrType t)
{
	return (t.base == IR_BF16 || t.base == IR_F16) && t.lanes >= IR_FRAG_MIN && t.lanes <= IR_FRAG_MAX &&
	       t.lanes % 8 == 0 && t.space == 0 && t.elem == 0;
}

int
ir_is_wgmma_op(int opc)
{
	return opc == IR_WGMMA || opc == IR_WGMMA_FENCE || opc == IR_WGMMA_COMMIT || opc == IR_WGMMA_WAIT;
}

int
ir_base_bits(IrBase b)
{
	return (unsigned)b < IR_NBASE ? base_info[b].bits : 0;
}

int
ir_type_bytes(IrType t)
{
	int bits = ir_base_bits((IrBase)t.base);

	if (t.base == IR_TMAP)
		return 128;
	return (bits < 8 ? 1 : bits / 8) * t.lanes;
}

const char *
ir_base_name(IrBase b)
{
	return (unsigned)b < IR_NBASE ? base_info[b].name : "?";
}

int
ir_base_from_name(const char *s, int n)
{
	int i;

	for (i = IR_I1; i <= IR_F64; i++)
		if ((int)strlen(base_info[i].name) == n && memcmp(base_info[i].name, s, (size_t)n) == 0)
			return i;
	return -1;
}

void
ir_type_str(IrType t, char *out, int size)
{
	if (t.base == IR_PTR)
		snprintf(out, (size_t)size, "ptr.%s.%s",
			 t.space == IR_SHARED ? "shared" : t.space == IR_CLUSTER ? "cluster" : "global",
			 ir_base_name((IrBase)t.elem));
	else if (t.lanes > 1)
		snprintf(out, (size_t)size, "%sx%d", ir_base_name((IrBase)t.base), t.lanes);
	else
		snprintf(out, (size_t)size, "%s", ir_base_name((IrBase)t.base));
}

static const char *const pipe_source_names[PIPE_SRC_COUNT] = {"tma", "thread", "warp", "warpgroup", "mma"};

const char *
ir_pipe_source_name(int src)
{
	return src >= 0 && src < PIPE_SRC_COUNT ? pipe_source_names[src] : "?";
}

int
ir_pipe_source_from_name(const char *s)
{
	int i;

	for (i = 0; i < PIPE_SRC_COUNT; i++)
		if (strcmp(s, pipe_source_names[i]) == 0)
			return i;
	return -1;
}

int
ir_pipe_source_count(int src, int mult)
{
	switch (src) {
	case PIPE_SRC_TMA: case PIPE_SRC_THREAD: case PIPE_SRC_MMA: return mult;
	case PIPE_SRC_WARP: return 32 * mult;
	case PIPE_SRC_WARPGROUP: return 128 * mult;
	default: return 0;
	}
}

static int
pair_ops(const IrRegion *r)
{
	int i, j;

	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i];

		if ((op->opc == IR_TMEM_ALLOC || op->opc == IR_TCGEN05_MMA) && (op->imm & IR_CTA_PAIR))
			return 1;
		for (j = 0; j < op->nregions; j++)
			if (pair_ops(&op->regions[j]))
				return 1;
	}
	return 0;
}

int
ir_cta_pair(const IrKernel *k)
{
	return pair_ops(&k->body);
}

int
ir_pair_pipeline(const IrPipeline *p, int pair)
{
	return pair && (p->full_src == PIPE_SRC_MMA || p->empty_src == PIPE_SRC_MMA);
}

int
ir_pipe_count(const IrKernel *k, const IrPipeline *p, int side, int pair)
{
	int n = ir_pipe_source_count(side ? p->empty_src : p->full_src, side ? p->empty_mult : p->full_mult);
	int ncta = k->cluster[0] * k->cluster[1] * k->cluster[2];

	if (!side || !p->empty_cluster)
		return n;
	if (p->empty_src == PIPE_SRC_WARP || p->empty_src == PIPE_SRC_WARPGROUP)
		n /= 32;        /* one lane of each warp arrives for it (expand-async) */
	return n * (ir_pair_pipeline(p, pair) ? ncta / 2 : ncta);
}

/* The op of region r (or of a region inside it) that defines v, or NULL. */
static const IrOp *
find_def(const IrRegion *r, IrValue v)
{
	int i, j, n;

	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i], *d;

		for (n = 0; n < op->nres; n++)
			if (op->res[n] == v)
				return op;
		for (j = 0; j < op->nregions; j++)
			if ((d = find_def(&op->regions[j], v)))
				return d;
	}
	return NULL;
}

const IrParam *
ir_tmap_param(const IrKernel *k, IrValue map)
{
	int i, depth;

	for (depth = 0; depth < IR_MAX_PARAMS; depth++) {
		const IrOp *d;

		for (i = 0; i < k->body.nargs && i < k->nparams; i++)
			if (k->body.args[i] == map)
				return k->params[i].kind == PARAM_TMAP ? &k->params[i] : NULL;
		d = find_def(&k->body, map);
		if (!d || d->opc != IR_SELECT || d->nargs != 3)
			return NULL;
		map = d->args[2];
	}
	return NULL;
}

int64_t
ir_tma_box_bytes(const IrKernel *k, IrValue map, const char **name)
{
	const IrParam *p = ir_tmap_param(k, map);
	int64_t n;
	int j;

	if (!p || p->tmap_tensor < 0 || p->tmap_tensor >= k->nparams)
		return -1;
	n = ir_type_bytes(ir_scalar((IrBase)k->params[p->tmap_tensor].type.elem));
	for (j = 0; j < p->rank && j < IR_MAX_RANK; j++)
		n *= p->dims[j].size;
	if (name)
		*name = p->name;
	return n;
}

int
ir_mask_ctas(int64_t mask)
{
	int n = 0, i;

	for (i = 0; i < 16; i++)
		n += (int)((mask >> i) & 1);
	return n;
}

int64_t
ir_tma_load_bytes(const IrKernel *k, const IrOp *op, int mask_ctas, const char **name)
{
	int64_t box = op->nargs >= 2 ? ir_tma_box_bytes(k, op->args[1], name) : -1;
	int n = op->opc != IR_TMA_LOAD_MC ? 1 : mask_ctas > 0 ? mask_ctas : k->cluster[0] * k->cluster[1] * k->cluster[2];

	if (box < 0 || (op->opc != IR_TMA_LOAD && op->opc != IR_TMA_LOAD_MC))
		return -1;
	return box * n * (op->imm & IR_TMA_PAIR ? 2 : 1);
}

IrKernel *
ir_kernel_new(const char *name, int file)
{
	IrKernel *k = xcalloc(1, sizeof *k);
	int i;

	k->arena = arena_new();
	k->name = arena_strdup(k->arena, name);
	k->file = file;
	for (i = 0; i < 3; i++) {
		k->threads[i] = 1;
		k->grid[i] = "1";
		k->cluster[i] = 1;
	}
	k->nvalues = 1;  /* id 0 is "no value" */
	k->capvalues = 64;
	k->vtypes = xcalloc((size_t)k->capvalues, sizeof *k->vtypes);
	k->vlocs = xcalloc((size_t)k->capvalues, sizeof *k->vlocs);
	return k;
}

void
ir_region_free(IrRegion *r)
{
	int i, j;

	for (i = 0; i < r->nops; i++)
		for (j = 0; j < r->ops[i].nregions; j++)
			ir_region_free(&r->ops[i].regions[j]);
	free(r->ops);
	r->ops = NULL;
	r->nops = r->capops = 0;
}

void
ir_kernel_free(IrKernel *k)
{
	if (!k)
		return;
	ir_region_free(&k->body);
	free(k->params);
	free(k->bufs);
	free(k->barriers);
	free(k->pipelines);
	free(k->tmems);
	free(k->vtypes);
	free(k->vlocs);
	arena_free(k->arena);
	free(k);
}

IrModule *
ir_module_new(void)
{
	return xcalloc(1, sizeof(IrModule));
}

void
ir_module_add(IrModule *m, IrKernel *k)
{
	PUSH(m->kernels, m->nkernels, m->capkernels, k);
}

void
ir_module_add_entry(IrModule *m, const char *name, int ninst, const char *const *insts,
		    const char *const *when, const char *const *when_text)
{
	IrEntry e;
	int i;

	e.name = xstrdup(name);
	e.ninst = ninst;
	e.insts = xmalloc(sizeof *e.insts * (size_t)(ninst + 1));
	e.when = xcalloc((size_t)ninst + 1, sizeof *e.when);
	e.when_text = xcalloc((size_t)ninst + 1, sizeof *e.when_text);
	for (i = 0; i < ninst; i++) {
		e.insts[i] = xstrdup(insts[i]);
		if (when && when[i])
			e.when[i] = xstrdup(when[i]);
		if (when_text && when_text[i])
			e.when_text[i] = xstrdup(when_text[i]);
	}
	PUSH(m->entries, m->nentries, m->capentries, e);
}

void
ir_entry_free(IrEntry *e)
{
	int j;

	for (j = 0; j < e->ninst; j++) {
		free(e->insts[j]);
		free(e->when[j]);
		free(e->when_text[j]);
	}
	free(e->insts);
	free(e->when);
	free(e->when_text);
	free(e->name);
}

void
ir_module_free(IrModule *m)
{
	int i;

	if (!m)
		return;
	for (i = 0; i < m->nkernels; i++)
		ir_kernel_free(m->kernels[i]);
	for (i = 0; i < m->nentries; i++)
		ir_entry_free(&m->entries[i]);
	free(m->entries);
	free(m->kernels);
	free(m);
}

IrValue
ir_new_value(IrKernel *k, IrType t)
{
	int cap = k->capvalues;

	if (k->nvalues + 1 > cap) {
		k->vtypes = grow(k->vtypes, &cap, k->nvalues + 1, sizeof *k->vtypes);
		cap = k->capvalues;
		k->vlocs = grow(k->vlocs, &cap, k->nvalues + 1, sizeof *k->vlocs);
		k->capvalues = cap;
	}
	k->vtypes[k->nvalues] = t;
	memset(&k->vlocs[k->nvalues], 0, sizeof(SrcLoc));
	return k->nvalues++;
}

IrType
ir_vtype(const IrKernel *k, IrValue v)
{
	if (v <= 0 || v >= k->nvalues)
		return ir_scalar(IR_VOID);
	return k->vtypes[v];
}

int
ir_add_param(IrKernel *k, IrParam p)
{
	IrValue v = ir_new_value(k, p.type);
	IrValue *args = arena_alloc(k->arena, sizeof(IrValue) * (size_t)(k->body.nargs + 1));

	k->vlocs[v] = p.loc;
	if (k->body.nargs)
		memcpy(args, k->body.args, sizeof(IrValue) * (size_t)k->body.nargs);
	args[k->body.nargs++] = v;
	k->body.args = args;
	PUSH(k->params, k->nparams, k->capparams, p);
	return k->nparams - 1;
}

int
ir_add_buffer(IrKernel *k, IrBuffer b)
{
	if (b.stages == 0) {
		b.stages = 1;
		b.pipeline = -1;
		b.alias = -1;
	}
	PUSH(k->bufs, k->nbufs, k->capbufs, b);
	return k->nbufs - 1;
}

int
ir_add_barrier(IrKernel *k, IrBarrier b)
{
	if (b.n == 0)
		b.n = 1;
	PUSH(k->barriers, k->nbarriers, k->capbarriers, b);
	return k->nbarriers - 1;
}

int
ir_add_pipeline(IrKernel *k, IrPipeline p)
{
	PUSH(k->pipelines, k->npipelines, k->cappipelines, p);
	return k->npipelines - 1;
}

int
ir_add_tmem(IrKernel *k, IrTmem t)
{
	PUSH(k->tmems, k->ntmems, k->captmems, t);
	return k->ntmems - 1;
}

int
ir_tmem_cols(const IrKernel *k)
{
	int i, used = 0, cols = 32;

	for (i = 0; i < k->ntmems; i++)
		used += k->tmems[i].cols * k->tmems[i].stages;
	while (cols < used)
		cols *= 2;
	return k->ntmems ? cols : 0;
}

IrOp *
ir_region_push(IrRegion *r, const IrOp *op)
{
	PUSH(r->ops, r->nops, r->capops, *op);
	return &r->ops[r->nops - 1];
}

void
ir_op_init(IrKernel *k, IrOp *op, int opc, int nargs, int nres, int nregions, SrcLoc loc)
{
	memset(op, 0, sizeof *op);
	op->opc = opc;
	op->nargs = nargs;
	op->args = nargs ? arena_alloc(k->arena, sizeof(IrValue) * (size_t)nargs) : NULL;
	op->nres = nres;
	op->res = nres ? arena_alloc(k->arena, sizeof(IrValue) * (size_t)nres) : NULL;
	op->nregions = nregions;
	op->regions = nregions ? arena_alloc(k->arena, sizeof(IrRegion) * (size_t)nregions) : NULL;
	op->loc = loc;
}

void
ir_region_set_args(IrKernel *k, IrRegion *r, int n, const IrValue *args)
{
	r->nargs = n;
	r->args = n ? arena_alloc(k->arena, sizeof(IrValue) * (size_t)n) : NULL;
	if (n)
		memcpy(r->args, args, sizeof(IrValue) * (size_t)n);
}

static IrOp *
build(IrBuilder *b, int opc, IrType t, int nargs, const IrValue *args, int nregions)
{
	IrOp op;
	int has_res = t.base != IR_VOID;

	ir_op_init(b->k, &op, opc, nargs, has_res, nregions, b->loc);
	if (nargs)
		memcpy(op.args, args, sizeof(IrValue) * (size_t)nargs);
	if (has_res) {
		op.res[0] = ir_new_value(b->k, t);
		b->k->vlocs[op.res[0]] = b->loc;
	}
	return ir_region_push(b->r, &op);
}

IrValue
irb_op(IrBuilder *b, int opc, IrType t, int nargs, const IrValue *args)
{
	IrOp *op = build(b, opc, t, nargs, args, 0);

	return op->nres ? op->res[0] : 0;
}

IrValue
irb_op1(IrBuilder *b, int opc, IrType t, IrValue a)
{
	return irb_op(b, opc, t, 1, &a);
}

IrValue
irb_op2(IrBuilder *b, int opc, IrType t, IrValue a, IrValue c)
{
	IrValue v[2] = {a, c};

	return irb_op(b, opc, t, 2, v);
}

IrValue
irb_op3(IrBuilder *b, int opc, IrType t, IrValue a, IrValue c, IrValue d)
{
	IrValue v[3] = {a, c, d};

	return irb_op(b, opc, t, 3, v);
}

IrValue
irb_const_int(IrBuilder *b, IrType t, int64_t v)
{
	IrOp *op = build(b, IR_CONST, t, 0, NULL, 0);

	op->imm = v;
	return op->res[0];
}

IrValue
irb_const_float(IrBuilder *b, IrType t, double v)
{
	IrOp *op = build(b, IR_CONST, t, 0, NULL, 0);

	op->fimm = v;
	return op->res[0];
}

IrValue
irb_imm(IrBuilder *b, int opc, IrType t, int64_t imm, int nargs, const IrValue *args)
{
	IrOp *op = build(b, opc, t, nargs, args, 0);

	op->imm = imm;
	return op->nres ? op->res[0] : 0;
}

IrOp *
irb_region_op(IrBuilder *b, int opc, int nargs, const IrValue *args, int nres,
	      const IrType *restypes, IrRegion **op_regions)
{
	IrOp op;
	int i;

	ir_op_init(b->k, &op, opc, nargs, nres, ir_opinfo[opc].nregions, b->loc);
	if (nargs)
		memcpy(op.args, args, sizeof(IrValue) * (size_t)nargs);
	for (i = 0; i < nres; i++) {
		op.res[i] = ir_new_value(b->k, restypes[i]);
		b->k->vlocs[op.res[i]] = b->loc;
	}
	if (op_regions)
		*op_regions = op.regions;
	return ir_region_push(b->r, &op);
}

void
ir_walk(IrRegion *r, void (*f)(IrOp *op, void *ctx), void *ctx)
{
	int i, j;

	for (i = 0; i < r->nops; i++) {
		IrOp *op = &r->ops[i];

		f(op, ctx);
		for (j = 0; j < op->nregions; j++)
			ir_walk(&op->regions[j], f, ctx);
	}
}
