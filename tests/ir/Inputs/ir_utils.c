/* ir_utils.c: the shared IR utilities and the target table through their C interface
 * (utils.test): integer evaluation at the edges of each type, the evaluator through def
 * maps with a leaf callback, the rewriter's chains and region rebuild, and the facts the
 * target table derives (which targets an op exists on, entry register budgets, limits).
 * Every line prints a computed value; utils.test holds the expected ones. */
#include "ir/ir.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void
eval(const char *what, int opc, IrBase t, IrBase at, int n, int64_t a, int64_t b, int64_t c)
{
	int64_t args[3] = {a, b, c}, r = 0;
	int ok = ir_eval_int_op(opc, ir_scalar(t), ir_scalar(at), n, args, &r);

	if (ok)
		printf("%s = %" PRId64 "\n", what, r);
	else
		printf("%s: undefined\n", what);
}

static void
ops(void)
{
	eval("i32 max + 1", IR_ADD, IR_I32, IR_I32, 2, INT32_MAX, 1, 0);
	eval("u32 0 - 1", IR_SUB, IR_U32, IR_U32, 2, 0, 1, 0);
	eval("i8 -128 / -1", IR_DIV, IR_I8, IR_I8, 2, -128, -1, 0);
	eval("i32 7 % 0", IR_REM, IR_I32, IR_I32, 2, 7, 0, 0);
	eval("i32 -7 / 2", IR_DIV, IR_I32, IR_I32, 2, -7, 2, 0);
	eval("u32 max / 2", IR_DIV, IR_U32, IR_U32, 2, UINT32_MAX, 2, 0);
	eval("i32 1 << 32", IR_SHL, IR_I32, IR_I32, 2, 1, 32, 0);
	eval("i32 1 << 31", IR_SHL, IR_I32, IR_I32, 2, 1, 31, 0);
	eval("i32 -8 >> 1", IR_SHR, IR_I32, IR_I32, 2, -8, 1, 0);
	eval("u32 max >> 28", IR_SHR, IR_U32, IR_U32, 2, UINT32_MAX, 28, 0);
	eval("i32 abs(min)", IR_ABS, IR_I32, IR_I32, 1, INT32_MIN, 0, 0);
	eval("u32 max < 1", IR_CMP_LT, IR_I1, IR_U32, 2, UINT32_MAX, 1, 0);
	eval("i32 -1 < 1", IR_CMP_LT, IR_I1, IR_I32, 2, -1, 1, 0);
	eval("select 0 ? 5 : 9", IR_SELECT, IR_I32, IR_I1, 3, 0, 5, 9);
	eval("i32 -1 to u32", IR_CAST, IR_U32, IR_I32, 1, -1, 0, 0);
	eval("u8 255 + 1", IR_ADD, IR_U8, IR_U8, 2, 255, 1, 0);
	eval("u8 200 / 3", IR_DIV, IR_U8, IR_U8, 2, 200, 3, 0);
	eval("u8 255 > 1", IR_CMP_GT, IR_I1, IR_U8, 2, 255, 1, 0);
	eval("u16 65535 >> 15", IR_SHR, IR_U16, IR_U16, 2, 65535, 15, 0);
	eval("i32 -1 to u16", IR_CAST, IR_U16, IR_I32, 1, -1, 0, 0);
	eval("u16 65535 to i32", IR_CAST, IR_I32, IR_U16, 1, 65535, 0, 0);
	eval("f32 add", IR_ADD, IR_F32, IR_F32, 2, 1, 2, 0);
}

/* The software fp8 conversion (ir/fp8.c) at its edges: ties to even, saturation, the
 * subnormals, zeros and NaN; the GPU check (tests/gpu/checks/fp8.cake) sweeps the rest. */
static void
fp8(void)
{
	static const double xs[] = {1.0, 1.3, 17.0, 19.0, 448.0, 464.0, 1e9, -INFINITY, 0x1p-9,
				    0x1p-10, 0x1.8p-10, -0.0, 57344.0, 61439.0, 0x1p-16, NAN};
	size_t i;

	for (i = 0; i < sizeof xs / sizeof xs[0]; i++)
		printf("fp8 %a: e4m3 0x%02x e5m2 0x%02x\n", xs[i], ir_fp8_encode(IR_E4M3, xs[i]),
		       ir_fp8_encode(IR_E5M2, xs[i]));
	printf("fp8 decode: e4m3 0x7e %g 0x7f nan %d 0x01 %a; e5m2 0x7b %g 0x7c %g 0xfd nan %d\n",
	       ir_fp8_decode(IR_E4M3, 0x7e), isnan(ir_fp8_decode(IR_E4M3, 0x7f)) != 0,
	       ir_fp8_decode(IR_E4M3, 1), ir_fp8_decode(IR_E5M2, 0x7b), ir_fp8_decode(IR_E5M2, 0x7c),
	       isnan(ir_fp8_decode(IR_E5M2, 0xfd)) != 0);
	printf("fp8 values: -inf e5m2 %d e4m3 %d; 0.1 %d; bits of -inf e5m2 0x%02x\n",
	       ir_fp8_is_value(IR_E5M2, -INFINITY), ir_fp8_is_value(IR_E4M3, -INFINITY),
	       ir_fp8_is_value(IR_E4M3, 0.1), ir_fp8_bits(IR_E5M2, -INFINITY));
}

/* leaf: tid.x is 5 */
static int
leaf(IrEval *e, const IrOp *d, IrValue v, int64_t *out)
{
	(void)e;
	(void)v;
	if (!d || d->opc != IR_TID_X)
		return 0;
	*out = 5;
	return 1;
}

static int
drop_consts(IrRegion *out, IrOp *op, void *ctx)
{
	(void)out;
	(void)ctx;
	return op->opc != IR_CONST;
}

static void
values(void)
{
	IrKernel *k = ir_kernel_new("utils", -1);
	IrBuilder b = {k, &k->body, {-1, 0, 0}};
	IrType i32 = ir_scalar(IR_I32);
	IrValue t, c3, x, y, z;
	IrEval e = {0};
	IrRewriter rw;
	int64_t r = 0;
	int ok;

	t = irb_op(&b, IR_TID_X, i32, 0, NULL);
	c3 = irb_const_int(&b, i32, 3);
	x = irb_op2(&b, IR_MUL, i32, t, c3);        /* 15 */
	y = irb_op2(&b, IR_ADD, i32, x, c3);        /* 18 */
	z = irb_op2(&b, IR_SHL, i32, y, x);         /* 18 << 15 */
	e.k = k;
	e.defs = ir_def_map(k);
	e.leaf = leaf;
	e.max_steps = 1000;
	ok = ir_eval_value(&e, y, &r);
	printf("eval y: %d %" PRId64 "\n", ok, r);
	ok = ir_eval_value(&e, z, &r);
	printf("eval z: %d %" PRId64 "\n", ok, r);
	e.leaf = NULL;
	printf("eval y without leaf: %d\n", ir_eval_value(&e, y, &r));
	free((void *)e.defs);

	ir_rw_init(&rw, k);
	ir_rw_set(&rw, z, y);
	ir_rw_set(&rw, y, x);
	printf("rewriter: %%%d -> %%%d\n", z, ir_rw_get(&rw, z));
	ir_rw_free(&rw);
	ir_region_rebuild(&k->body, drop_consts, NULL);
	printf("rebuild: %d ops\n", k->body.nops);
	ir_kernel_free(k);
}

static void
targets(void)
{
	IrKernel *k = ir_kernel_new("t", -1);
	Buf list = {0};
	int t;

	for (t = 0; t < TARGET_COUNT; t++)
		printf("target %s: cpu %s ptx %d cc %d.%d features %x\n", ir_target_name(t),
		       ir_targets[t].llvm_cpu, ir_targets[t].ptx_version, ir_targets[t].cc_major,
		       ir_targets[t].cc_minor, ir_targets[t].features);
	ir_target_list(&list, ir_op_targets(IR_WGMMA), " or ");
	printf("wgmma on: %s\n", list.s);
	list.len = 0;
	ir_target_list(&list, ir_feature_targets(FEAT_TMEM), " or ");
	printf("tmem on: %s\n", list.s);
	list.len = 0;
	ir_target_list(&list, ir_op_targets(IR_ADD), " or ");
	printf("add on: %s\n", list.s);
	buf_free(&list);
	printf("unknown target: %d\n", ir_target_from_name("sm_89"));

	k->targets = IR_ALL_TARGETS;
	k->min_blocks = 1;
	k->threads[1] = k->threads[2] = 1;
	k->threads[0] = 128;
	printf("entry regs 128 threads: %d\n", ir_entry_regs(k));   /* 512 capped */
	k->threads[0] = 384;
	printf("entry regs 384 threads: %d\n", ir_entry_regs(k));   /* 170 -> 168 */
	k->min_blocks = 2;
	printf("entry regs 384 threads x2: %d\n", ir_entry_regs(k)); /* 85 -> 80 */
	printf("regfile %d smem %" PRId64 "\n", ir_kernel_regfile(k), ir_kernel_smem_limit(k));
	ir_kernel_free(k);
}

int
main(void)
{
	ops();
	values();
	targets();
	fp8();
	return 0;
}
