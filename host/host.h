/* host: the C99 launcher emitter. For each kernel it writes a .h and .c that validate
 * arguments, compute the grid and launch through the runtime (runtime/cakert.h), plus a
 * manifest entry. */
#ifndef CAKE_HOST_H
#define CAKE_HOST_H

#include "../ir/ir.h"

/* The compiled images of one kernel, one per target (NULL where not built). */
typedef struct HostImages {
	const char *ptx[TARGET_COUNT];
	const unsigned char *cubin[TARGET_COUNT];
	size_t cubin_len[TARGET_COUNT];
} HostImages;

/* Writes the launcher header and source for k, whose device symbol is `symbol`, and its
 * manifest entry (a JSON object, no trailing newline). A grid formula that does not parse
 * or names something other than a sym or integer scalar is reported through diag_error
 * and nothing is written. */
void host_emit(const IrKernel *k, const char *symbol, uint64_t hash, const HostImages *img,
	       Buf *h, Buf *c, Buf *manifest);

/* Writes the entry point e's header and source: <name>_args (the instances' arguments),
 * <name>_launch and <name>_grid, which pick the first instance in insts[] (e's kernels, in
 * order) whose tensor element types match the arguments and whose condition holds, and
 * call its launcher. A condition (e->when) is the grid formula language with comparisons
 * (< <= == != > >=, not chained; == and != also compare two conditions), && || and !, at
 * C's precedence, evaluated as grid formulas are (int64, division by zero and overflow are
 * errors: CAKE_ERR_GRID), && and || from the left and only as far as needed. One that
 * does not translate is reported through diag_error and the source is left unfinished. */
void host_emit_entry(const IrEntry *e, IrKernel *const *insts, Buf *h, Buf *c);
/* The manifest's object for entry point e: {"entry", "rule", "instances", "when"} (no
 * newline); "when" has, per instance, null or {"text", "expr"}: the condition as written
 * and as a JSON tree (["&&", ["<=", "M", 64], ["==", ["%", "N", 8], 0]]). */
void host_entry_manifest(const IrEntry *e, IrKernel *const *insts, Buf *m);

/* Checks a grid formula (IrKernel.grid's language) against k's parameters: returns 0, or
 * -1 with a message in err ("grid formula \"cdiv(x, 4)\" at offset 6: 'x' is not a
 * parameter"). Front ends can call it to report a bad formula at the user's line. */
int host_grid_check(const IrKernel *k, const char *expr, Buf *err);
/* Evaluates a grid formula as the launcher does (int64; division by zero and overflow are
 * errors): vals[i] is parameter i's value (syms and integer scalars; others unused),
 * num_sms the device's SM count. Returns 0 with *out, or -1 with a message in err. The
 * interpreter (interp/) computes its launch grid with it. */
int host_grid_eval(const IrKernel *k, const char *expr, const int64_t *vals, int64_t num_sms,
		   int64_t *out, Buf *err);
/* The same for a condition (an entry point's when, a kernel's requires): *holds is 1 or
 * 0. Division by zero and overflow are errors, as in the launcher. */
int host_cond_eval(const IrKernel *k, const char *expr, const int64_t *vals, int64_t num_sms,
		   int *holds, Buf *err);

/* The runtime files the output folder needs beside the launchers (name, contents),
 * NULL-terminated. */
typedef struct HostFile {
	const char *name;
	const char *text;
} HostFile;
extern const HostFile host_runtime_files[];

/* ---- runtime.c ---- */
/* The text of runtime file f as it goes into an output folder: its marker lines replaced
 * with the target facts of ir/targets.def. */
void host_runtime_text(const HostFile *f, Buf *out);

#endif
