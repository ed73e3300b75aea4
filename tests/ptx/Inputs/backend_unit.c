/* Unit checks of the backend's interface that the command line cannot reach: errors come
 * back through err (never a crash), output buffers are optional, emission is
 * deterministic, and the ptxas runner reports failures and cleans up. Used by
 * ../backend-unit.test. */
#define _POSIX_C_SOURCE 200809L
#include "backend_ptx/backend.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* out[i] = smem[0][i] with the given buffer offset: the smallest kernel using a buffer. */
static IrKernel *
smem_kernel(int64_t offset)
{
	IrKernel *k = ir_kernel_new("unit", -1);
	IrParam p = {0};
	IrBuffer b = {0};
	IrBuilder B;
	IrValue tid, s, sp, v, op;

	k->threads[0] = 32;
	k->targets = 7;
	p.name = "o";
	p.kind = PARAM_TENSOR;
	p.type = ir_ptr(IR_GLOBAL, IR_F32);
	p.access = ACC_OUT;
	p.rank = 1;
	p.dims[0].sym = -1;
	p.dims[0].size = 32;
	ir_add_param(k, p);
	b.name = "buf";
	b.elem = IR_F32;
	b.rank = 1;
	b.dims[0] = b.count = 32;
	b.align = 16;
	b.offset = offset;
	ir_add_buffer(k, b);
	B.k = k;
	B.r = &k->body;
	B.loc.line = 0;
	tid = irb_op(&B, IR_TID_X, ir_scalar(IR_I32), 0, NULL);
	s = irb_imm(&B, IR_SMEM, ir_ptr(IR_SHARED, IR_F32), 0, 0, NULL);
	sp = irb_op2(&B, IR_ELEMPTR, ir_ptr(IR_SHARED, IR_F32), s, tid);
	v = irb_imm(&B, IR_LOAD, ir_scalar(IR_F32), 0, 1, &sp);
	op = irb_op2(&B, IR_ELEMPTR, ir_ptr(IR_GLOBAL, IR_F32), k->body.args[0], tid);
	irb_op2(&B, IR_STORE, ir_scalar(IR_VOID), op, v);
	irb_op(&B, IR_RET, ir_scalar(IR_VOID), 0, NULL);
	return k;
}

static void
emit(const char *what, IrKernel *k, int target, Buf *ll, Buf *ptx)
{
	Buf err = {0};
	int rc = ptx_emit(k, target, "unit_sym", 2, ll, ptx, &err);

	printf("%s: rc=%d err=%s\n", what, rc, err.s ? err.s : "");
	buf_free(&err);
}

int
main(int argc, char **argv)
{
	IrKernel *k;
	Buf a = {0}, b = {0}, ll = {0}, cubin = {0}, log = {0};
	const char *tmp = argc > 1 ? argv[1] : "/tmp";
	int t, n = 0;
	DIR *d;
	struct dirent *e;

	/* an unlaid-out buffer is an internal error, reported, not a crash */
	k = smem_kernel(-1);
	emit("no-offset", k, 0, &ll, &a);
	ir_kernel_free(k);
	buf_free(&a);
	buf_free(&ll);

	/* a use before its definition (what a buggy pass could leave) */
	k = smem_kernel(0);
	k->body.ops[2].args[1] = k->body.ops[3].res[0];
	emit("use-before-def", k, 0, NULL, &a);
	ir_kernel_free(k);
	buf_free(&a);

	/* IR the verifier would reject, caught by LLVM's verifier: an if yielding an i32 for
	 * an f32 result (the phi's operand types differ) */
	k = smem_kernel(0);
	{
		IrBuilder B = {k, &k->body, {0, 0, 0}};
		IrRegion *rg, *r;
		IrType f = ir_scalar(IR_F32);
		IrValue c, tid = k->body.ops[0].res[0];

		k->body.nops--;  /* drop ret, append the if, then ret again */
		c = irb_op2(&B, IR_CMP_EQ, ir_scalar(IR_I1), tid, tid);
		irb_region_op(&B, IR_IF, 1, &c, 1, &f, &rg);
		r = &rg[0];
		B.r = r;
		irb_op(&B, IR_YIELD, ir_scalar(IR_VOID), 1, &tid);
		B.r = &rg[1];
		irb_op(&B, IR_YIELD, ir_scalar(IR_VOID), 1, &tid);
		B.r = &k->body;
		irb_op(&B, IR_RET, ir_scalar(IR_VOID), 0, NULL);
	}
	emit("bad-phi", k, 0, NULL, &a);
	ir_kernel_free(k);
	buf_free(&a);

	/* min blocks per SM: .minnctapersm next to .reqntid */
	k = smem_kernel(0);
	k->min_blocks = 3;
	emit("min-blocks", k, 1, NULL, &a);
	printf("min-blocks: %d %d\n", strstr(a.s, ".reqntid 32, 1, 1\n.minnctapersm 3\n") != NULL,
	       strstr(a.s, ".maxntid") != NULL);
	ir_kernel_free(k);
	buf_free(&a);

	/* an unknown target */
	k = smem_kernel(0);
	emit("bad-target", k, 7, NULL, &a);
	buf_free(&a);

	/* both outputs optional; every target; deterministic */
	emit("no-outputs", k, 0, NULL, NULL);
	for (t = 0; t < TARGET_COUNT; t++) {
		emit(ir_target_name(t), k, t, &ll, &a);
		emit(ir_target_name(t), k, t, NULL, &b);
		printf("%s: same=%d entry=%d\n", ir_target_name(t), a.len == b.len && memcmp(a.s, b.s, (size_t)a.len) == 0,
		       strstr(a.s, ".visible .entry unit_sym(") != NULL);
		if (t == TARGET_SM_103A) {
			printf("assemble: rc=%d", ptx_assemble(a.s, (size_t)a.len, t, &cubin, &log));
			printf(" elf=%d\n", cubin.len > 4 && memcmp(cubin.s, "\177ELF", 4) == 0);
		}
		buf_free(&a);
		buf_free(&b);
		buf_free(&ll);
	}
	ir_kernel_free(k);

	/* ptxas errors come back in the log */
	printf("bad-ptx: rc=%d\n", ptx_assemble("not ptx", 7, 0, &cubin, &log));
	printf("log: %s\n", log.s ? log.s : "");
	buf_free(&cubin);
	buf_free(&log);

	/* the private temporary folders are gone */
	d = opendir(tmp);
	while (d && (e = readdir(d)))
		n += strncmp(e->d_name, "cakec-ptxas-", 12) == 0;
	if (d)
		closedir(d);
	printf("leftover temp dirs: %d\n", n);

	/* $CAKEC_PTXAS wins, and a missing one is not silently replaced */
	setenv("CAKEC_PTXAS", "/nonexistent/ptxas", 1);
	printf("find missing: %s\n", ptx_find_ptxas() ? ptx_find_ptxas() : "(none)");
	printf("assemble without ptxas: rc=%d\n", ptx_assemble("x", 1, 0, &cubin, &log));
	buf_free(&cubin);
	buf_free(&log);
	return 0;
}
