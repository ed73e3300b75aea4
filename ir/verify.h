/* ir/verify.h: the verifier's state and its ground-floor helpers (verify_util.c), shared by
 * verify.c (the core rules) and verify_async.c (the async machinery). Private to ir/. */
#ifndef CAKE_VERIFY_H
#define CAKE_VERIFY_H

#include "ir.h"

typedef struct Verifier {
	const IrKernel *k;
	const char *when;
	int nerr;
	unsigned char *state;    /* per value */
	unsigned char *defined;  /* per value: defined somewhere in the kernel */
	const IrOp **def;        /* per value: its defining op (NULL for region arguments) */
	IrValue *scope;          /* values defined in open regions, innermost last */
	int nscope, capscope;
	int depth;
} Verifier;

/* ---- verify_util.c: the ground floor both rule files use ---- */
/* One diagnostic at loc (the kernel when loc has no line), prefixed with `when`. */
void vf_error(Verifier *v, SrcLoc loc, const char *fmt, ...);
const char *vf_tname(IrType t);    /* for messages; a few rotating buffers */
const char *vf_opname(const IrOp *op);
int vf_is_data(IrType t);          /* scalar, 2/4-lane vector or f32 fragment */
int vf_is_ptr(IrType t);           /* a pointer into global, shared or cluster memory */
int vf_is_tmap(IrType t);
void vf_want_arg(Verifier *v, const IrOp *op, int i, IrType want);
int vf_want_nres(Verifier *v, const IrOp *op, int n);

/* ---- verify_async.c ---- */
/* Operand and result rules of the low-level async ops (mbar .. wgmma.wait) and the
 * operands of role, produce and consume. */
void vf_async_op(Verifier *v, const IrOp *op);
/* Barriers, pipelines, tensor maps, buffer staging fields, cluster dims. */
void vf_async_header(Verifier *v);
/* Whole-kernel rules, after the per-op walk: target gating, where role, elect, produce,
 * consume and wgmma may appear, and barriers initialised before use. */
void vf_async_kernel(Verifier *v);

#endif
