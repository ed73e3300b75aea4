/* ir/verify.h: the verifier's state and its ground-floor helpers (verify_util.c), shared by
 * verify.c (the core rules) and verify_async.c (the async machinery). Private to ir/. */
#ifndef CAKE_VERIFY_H
#define CAKE_VERIFY_H

#include "ir.h"

typedef struct Verifier {
	const IrKernel *k;
	const char *when;
	const char *rule_when;   /* the prefix of rule violations (vf_rule) */
	int nerr;                /* every error, rule violations included */
	int nrule;               /* the rule violations among them */
	unsigned char *state;    /* per value */
	unsigned char *defined;  /* per value: defined somewhere in the kernel */
	const IrOp **def;        /* per value: its defining op (NULL for region arguments) */
	IrValue *scope;          /* values defined in open regions, innermost last */
	int nscope, capscope;
	int depth;
} Verifier;

/* ---- verify_util.c: the ground floor both rule files use ---- */
/* One diagnostic at loc (the kernel when loc has no line), prefixed with `when`: an invariant
 * of the IR, which only a compiler bug breaks on IR the frontend made. */
void vf_error(Verifier *v, SrcLoc loc, const char *fmt, ...);
/* The same for a rule a user can break in .cake (roles, regs, where wgmma, elect, produce and
 * consume may run, target gating): prefixed with `rule_when`, counted in nrule too. The
 * verifier is these rules' one implementation; the driver reports them as user errors. */
void vf_rule(Verifier *v, SrcLoc loc, const char *fmt, ...);
const char *vf_tname(IrType t);    /* for messages; a few rotating buffers */
const char *vf_opname(const IrOp *op);
int vf_is_data(IrType t);          /* scalar, 2/4-lane vector or f32 fragment */
int vf_is_ptr(IrType t);           /* a pointer into global, shared or cluster memory */
int vf_is_tmap(IrType t);
void vf_want_arg(Verifier *v, const IrOp *op, int i, IrType want);
int vf_want_nres(Verifier *v, const IrOp *op, int n);
/* The value of x when a `const` of an integer type defines it (1), else 0. */
int vf_const_of(const Verifier *v, IrValue x, int64_t *out);

/* ---- verify_async.c ---- */
/* Operand and result rules of the low-level async ops (mbar .. wgmma.wait) and the
 * operands of role, produce and consume. */
void vf_async_op(Verifier *v, const IrOp *op);
/* Barriers, pipelines, tensor maps, buffer staging fields, cluster dims. */
void vf_async_header(Verifier *v);
/* Whole-kernel rules, after the per-op walk: target gating, where role, elect, produce,
 * consume and wgmma may appear, and barriers initialised before use. */
void vf_async_kernel(Verifier *v);
/* Operand i of op reaches other CTAs of the cluster: a CTA rank (mask 0) or a mask of ranks
 * (mask 1). The kernel needs a cluster, and a constant must name its CTAs (vf_rule). */
void vf_cluster_arg(Verifier *v, const IrOp *op, int i, int mask);

/* ---- verify_tmem.c ---- */
/* Operand, result and attribute rules of the tensor-memory and tcgen05 ops (tmem.alloc ..
 * tcgen05.fence.after). */
void vf_tmem_op(Verifier *v, const IrOp *op);
/* Whole-kernel tensor-memory rules (docs/ir.md, "tcgen05 and tensor memory"). */
void vf_tmem_kernel(Verifier *v);

#endif
