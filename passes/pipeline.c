/* pipeline.c: the order the passes run in, with the verifier between them. */
#include "passes.h"

#include <stdio.h>
#include <string.h>

typedef struct Pass {
	const char *name;
	void (*run)(IrKernel *k);
} Pass;

/* Keep in the order of pass_names. */
static const Pass passes[] = {
	{"schedule-check", pass_schedule_check},
	{"expand-async", pass_expand_async},
	{"canonicalize", pass_canonicalize},
	{"cse", pass_cse},
	{"dce", pass_dce},
	{"staging-elision", pass_staging_elision},
	{"smem-layout", pass_smem_layout},
};
#define NPASSES ((int)(sizeof passes / sizeof passes[0]))

const char *const pass_names[NPASSES + 1] = {
	"schedule-check", "expand-async", "canonicalize", "cse", "dce", "staging-elision",
	"smem-layout", NULL,
};

static const SrcLoc noloc = {-1, 0, 0};

static void
report_unknown(const char *name, int n, const char *option)
{
	Buf known = {0};
	int i;

	for (i = 0; pass_names[i]; i++)
		buf_printf(&known, "%s%s", i ? ", " : "", pass_names[i]);
	diag_error(noloc, "unknown pass '%.*s' in %s (known passes: %s)", n, name, option, known.s);
	buf_free(&known);
}

static const Pass *
find_pass(const char *name, size_t n)
{
	int i;

	for (i = 0; i < NPASSES; i++)
		if (strlen(passes[i].name) == n && memcmp(passes[i].name, name, n) == 0)
			return &passes[i];
	return NULL;
}

/* Runs one pass, then the verifier and the --print-after output it asks for. Returns the
 * number of errors: the verifier's, or the user errors the pass found (smem-layout's
 * budget check), after which going on makes no sense either. */
static int
run_pass(IrKernel *k, const PassOptions *o, const Pass *p)
{
	char when[64];
	int before = diag_errors(), nerr = 0;

	if (!p)
		ICE("the pipeline names a pass that does not exist");
	double t0 = clock_ms(), t1;

	if (p->run == pass_staging_elision && o->staging_report)
		pass_staging_elision_report(k, o->staging_report);
	else
		p->run(k);
	t1 = clock_ms();
	time_add(p->name, t1 - t0);
	if (o->verify) {
		snprintf(when, sizeof when, "after pass %s", p->name);
		nerr = ir_verify(k, when);
		time_add("verify", clock_ms() - t1);
	}
	if (diag_errors() - before > nerr)
		nerr = diag_errors() - before;
	if (o->print_out && (o->print_after_all || (o->print_after && strcmp(o->print_after, p->name) == 0))) {
		buf_printf(o->print_out, "// -----// IR after %s //-----\n", p->name);
		ir_print_kernel(o->print_out, k);
	}
	return nerr;
}

/* --passes=LIST: checks every name first so that a typo runs nothing. */
static int
run_list(IrKernel *k, const PassOptions *o, const char *list)
{
	const char *s, *comma;
	int bad = 0, nerr;

	for (s = list; *s; s = *comma ? comma + 1 : comma) {
		comma = strchr(s, ',');
		if (!comma)
			comma = s + strlen(s);
		if (comma > s && !find_pass(s, (size_t)(comma - s))) {
			report_unknown(s, (int)(comma - s), "--passes");
			bad++;
		}
	}
	if (bad)
		return bad;
	for (s = list; *s; s = *comma ? comma + 1 : comma) {
		comma = strchr(s, ',');
		if (!comma)
			comma = s + strlen(s);
		if (comma > s && (nerr = run_pass(k, o, find_pass(s, (size_t)(comma - s)))) != 0)
			return nerr;
	}
	return 0;
}

int
pass_pipeline(IrKernel *k, const PassOptions *o)
{
	/* -O2: canonicalize first so that constants are folded and commutative operands are in
	 * one order; cse then merges what canonicalize made equal; the second canonicalize
	 * folds what cse exposed (x - x once both sides are one value, selects of one value);
	 * the second cse merges ops that inlined `if` bodies brought next to their twins;
	 * dce runs once at the end because every earlier pass leaves dead ops behind and none
	 * of them needs the dead ops gone to do its work. smem-layout is last: it is needed for
	 * correctness (the backend needs offsets) and reads only the buffers and barriers.
	 * Before all of them, schedule-check judges the high-level async ops (roles, pipelines,
	 * TMA issue) while they still say what the user wrote, and expand-async turns them into
	 * ifs, mbarrier waits/arrives and wgmma waits, which the backend needs and the -O2
	 * passes then clean up. -O0 runs those three. staging-elision needs the addresses
	 * merged by cse (equal addresses are one value) and leaves dead address arithmetic
	 * for dce; it runs unless --no-staging-elision turned it off. */
	static const char *const o2[] = {
		"schedule-check", "expand-async", "canonicalize", "cse", "canonicalize", "cse",
		"staging-elision", "dce", "smem-layout",
	};
	static const char *const o0[] = {
		"schedule-check", "expand-async", "smem-layout",
	};
	const char *const *list = o->opt_level >= 1 ? o2 : o0;
	int n = o->opt_level >= 1 ? (int)(sizeof o2 / sizeof o2[0]) : (int)(sizeof o0 / sizeof o0[0]);
	int i, nerr;

	if (o->print_after && !find_pass(o->print_after, strlen(o->print_after))) {
		report_unknown(o->print_after, (int)strlen(o->print_after), "--print-after");
		return 1;
	}
	if (o->only)
		return run_list(k, o, o->only);
	for (i = 0; i < n; i++) {
		if (o->no_staging_elision && strcmp(list[i], "staging-elision") == 0)
			continue;
		if ((nerr = run_pass(k, o, find_pass(list[i], strlen(list[i])))) != 0)
			return nerr;
	}
	return 0;
}
