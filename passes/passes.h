/* passes: IR transformations. One pass per file with one entry point; each says what it
 * requires, guarantees and invalidates. passes.def lists them with those contracts as
 * property bits, which pipeline.c checks; pipeline.c also has the -O0/-O2 orders. */
#ifndef CAKE_PASSES_H
#define CAKE_PASSES_H

#include "../ir/ir.h"

typedef struct PassOptions {
	int opt_level;          /* 0, 2 or 3 (cakec's passes are the same at 2 and 3) */
	int verify;             /* run ir_verify after every pass */
	const char *only;       /* comma list: run exactly these passes in order (--passes) */
	const char *print_after;/* print the IR after this pass */
	int print_after_all;
	Buf *print_out;         /* where --print-after output goes */
	int no_staging_elision; /* --no-staging-elision: leave staging-elision out of -O2 */
	int no_fmad;            /* --fmad=false: leave contract out (a * b + c rounds twice) */
	Buf *staging_report;    /* --report=staging: staging-elision's decisions go here */
	int need_layout;        /* the outputs need offsets: smem-layout runs last if the
	                         * passes left the kernel without them */
} PassOptions;

/* What every pass gets besides the kernel. */
typedef struct PassContext {
	const PassOptions *opt;
} PassContext;

/* Runs the pipeline on k. Returns 0, or the number of errors: the verifier's, or user errors
 * a pass reports (smem-layout's budget); the pipeline stops at the first pass with any. An
 * unknown pass name in `only`, or a pass there that needs a property (passes.def) no pass
 * before it established, is reported through diag with a non-zero return, and nothing
 * runs. */
int pass_pipeline(IrKernel *k, const PassOptions *o);
/* The names of all passes, NULL-terminated, for --help and --print-after checks. */
extern const char *const pass_names[];

/* ---- contract.c ---- */
/* Floating-point contraction: f32/f64 a * b + c, a * b - c, c - a * b become one fma. */
void pass_contract(IrKernel *k, PassContext *cx);
/* ---- canonicalize.c ---- */
void pass_canonicalize(IrKernel *k, PassContext *cx);
/* x rounded to the float type b (f16, bf16, f32; others unchanged), ties to even, as the
 * GPU would hold it: a constant of type b holds x exactly when this returns x. */
double pass_round_float(IrBase b, double x);
/* ---- narrow_carry.c ---- */
/* A value a loop loads one iteration ahead in a narrow float type and carries converted
 * is carried as loaded and converted where the loop uses it (the file says which). */
void pass_narrow_carry(IrKernel *k, PassContext *cx);
/* ---- cse.c ---- */
void pass_cse(IrKernel *k, PassContext *cx);
/* ---- dce.c ---- */
void pass_dce(IrKernel *k, PassContext *cx);
/* ---- smem_layout.c ---- */
void pass_smem_layout(IrKernel *k, PassContext *cx);
/* The layout table of a laid-out kernel (barriers, buffers, total against the limit), as
 * `cakec --report=smem` prints it and the over-the-limit error shows it. */
void pass_smem_report(Buf *out, const IrKernel *k);
/* `cakec --report=tmem`: each tmem's columns, stages, pipeline and the roles writing
 * (tcgen05_mma) and reading (tmem_load) it. */
void pass_tmem_report(Buf *out, const IrKernel *k);
/* ---- schedule_check.c ---- */
/* The schedule rules of the high-level IR (roles, pipelines, TMA issue, expect-tx bytes,
 * register budgets, aliases); reports each violation through diag. */
void pass_schedule_check(IrKernel *k, PassContext *cx);
/* ---- staging_elision.c (with staging_rewrite.c, staging_disjoint.c) ---- */
/* Replaces shared-memory staging that every thread reads back only for itself with direct
 * global loads, and drops the buffer; see the file for the rules. With cx->opt->staging_report
 * set, one line per decision (buffer, barrier) and the shared memory per block before and
 * after go there. */
void pass_staging_elision(IrKernel *k, PassContext *cx);
/* ---- expand_async.c ---- */
/* Expands role, elect, produce and consume into ifs, mbarrier waits/arrives and wgmma waits. */
void pass_expand_async(IrKernel *k, PassContext *cx);
/* wgmma_wait.c: after the consume blocks are spliced, a wgmma.wait for each group they left
 * in flight, as late as the ops after it allow (the file says where). */
void expand_wgmma_waits(IrKernel *k);

#endif
