/* ir_unit.c: the IR printer, parser and verifier through their C interface (api.test).
 * Builds kernels with the builder, round-trips them through text and checks the float
 * constants bit for bit; then hands the verifier broken IR that the text cannot express
 * (a value defined twice, wrong region counts, bad opcodes, inconsistent buffers). */
#include "ir/ir.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static IrKernel *
new_kernel(const char *name, int file)
{
	IrKernel *k = ir_kernel_new(name, file);

	k->targets = 1u << TARGET_SM_90A;
	k->threads[0] = 32;
	return k;
}

static void
add_scalar(IrKernel *k, const char *name, IrBase b)
{
	IrParam p;

	memset(&p, 0, sizeof p);
	p.name = name;
	p.kind = PARAM_SCALAR;
	p.type = ir_scalar(b);
	ir_add_param(k, p);
}

/* print -> parse -> print, and the float constants' bits */
static void
roundtrip(void)
{
	static const uint64_t bits[] = {
		0x0000000000000000ull, 0x8000000000000000ull, 0x3fd5555555555555ull,
		0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
		0xfff8000000000000ull, 0x7ff0000000000001ull, 0xfff4000000000abcull,
		0x0000000000000001ull, 0x7fefffffffffffffull, 0x3ff0000000000001ull,
	};
	int n = (int)(sizeof bits / sizeof bits[0]);
	int file = diag_add_source("unit.cake", NULL, 0);
	IrKernel *k = new_kernel("odd \"name\"\n", file);
	IrBuilder b = {k, &k->body, {file, 3, 4}};
	IrModule *m;
	Buf t1 = {0}, t2 = {0};
	int i, same = 1;

	k->source = "dir/unit \\ \x01.cake";
	for (i = 0; i < n; i++) {
		double d;

		memcpy(&d, &bits[i], sizeof d);
		irb_const_float(&b, ir_scalar(IR_F64), d);
	}
	irb_const_int(&b, ir_scalar(IR_U64), -1);
	b.loc.line = 0;
	irb_op(&b, IR_RET, ir_scalar(IR_VOID), 0, NULL);
	printf("verify built: %d\n", ir_verify(k, "unit"));
	ir_print_kernel(&t1, k);
	m = ir_parse("unit.ir", t1.s, (size_t)t1.len);
	if (!m) {
		printf("parse failed\n");
		return;
	}
	ir_print_module(&t2, m);
	printf("round trip: %s\n", strcmp(t1.s, t2.s) == 0 ? "same" : "DIFFERENT");
	for (i = 0; i < n; i++) {
		uint64_t got;

		memcpy(&got, &m->kernels[0]->body.ops[i].fimm, sizeof got);
		same &= got == bits[i];
	}
	printf("float bits: %s\n", same ? "same" : "DIFFERENT");
	printf("u64 -1: %lld\n", (long long)m->kernels[0]->body.ops[n].imm);
	printf("verify parsed: %d\n", ir_verify(m->kernels[0], "unit"));
	fputs(t1.s, stdout);
	ir_module_free(m);
	ir_kernel_free(k);
	buf_free(&t1);
	buf_free(&t2);
}

/* IR only a buggy pass can make: the verifier reports it and does not crash */
static void
broken(void)
{
	int file = diag_add_source("broken.cake", NULL, 0);
	IrKernel *k = new_kernel("broken", file);
	IrBuilder b = {k, &k->body, {file, 10, 1}};
	IrBuffer buf;
	IrValue x, y;
	IrOp *op;

	add_scalar(k, "x", IR_I32);
	memset(&buf, 0, sizeof buf);
	buf.name = "s";
	buf.elem = IR_F32;
	buf.rank = 1;
	buf.dims[0] = 64;
	buf.count = 32;   /* not the product of the dims */
	buf.align = 16;
	buf.offset = -1;
	buf.loc = (SrcLoc){file, 2, 1, 0};
	ir_add_buffer(k, buf);
	x = k->body.args[0];
	y = irb_op2(&b, IR_ADD, ir_scalar(IR_I32), x, x);
	b.loc.line = 11;
	op = &k->body.ops[k->body.nops - 1];
	op = ir_region_push(&k->body, op);   /* the same op twice: %2 defined twice */
	b.loc.line = 12;
	op = ir_region_push(&k->body, &k->body.ops[0]);
	op->opc = 999;                       /* not an opcode */
	b.loc.line = 13;
	irb_op2(&b, IR_MUL, ir_scalar(IR_I32), y, 77);  /* %77 is no value */
	b.loc.line = 14;
	irb_op1(&b, IR_IF, ir_scalar(IR_VOID), y);      /* if without its regions */
	b.loc.line = 15;
	irb_op(&b, IR_RET, ir_scalar(IR_VOID), 0, NULL);
	printf("verify broken: %d\n", ir_verify(k, "after pass unit"));
	ir_kernel_free(k);
}

/* inputs that are not IR text at all */
static void
garbage(void)
{
	static const char nul[] = "kernel @k {\0}";
	const char *inputs[] = {"", "# only a comment\n", "kernel", "kernel @k { body() { ret } } }"};
	int i;

	for (i = 0; i < 4; i++)
		printf("garbage %d: %s\n", i,
		       ir_parse("garbage.ir", inputs[i], strlen(inputs[i])) ? "parsed" : "rejected");
	printf("nul: %s\n", ir_parse("nul.ir", nul, sizeof nul - 1) ? "parsed" : "rejected");
}

int
main(void)
{
	roundtrip();
	broken();
	garbage();
	printf("errors: %d\n", diag_errors());
	return 0;
}
