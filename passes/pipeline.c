/* pipeline.c: the order the passes run in, with the verifier between them, and the check
 * of their contracts (passes.def): before anything runs, each pass's required properties
 * must hold, read off the input kernel or established by a pass before it. */
#include "passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
#define PROP(id, name, meaning) PROPNO_##id,
#define PASS(id, name, run, req, est, inv, meaning)
#include "passes.def"
#undef PROP
#undef PASS
	NPROPS
};

enum {
#define PROP(id, name, meaning) PROP_##id = 1u << PROPNO_##id,
#define PASS(id, name, run, req, est, inv, meaning)
#include "passes.def"
#undef PROP
#undef PASS
};

enum {
#define PROP(id, name, meaning)
#define PASS(id, name, run, req, est, inv, meaning) PASS_##id,
#include "passes.def"
#undef PROP
#undef PASS
	NPASSES
};

typedef struct Pass {
	const char *name;
	void (*run)(IrKernel *k, PassContext *cx);
	unsigned requires, establishes, invalidates;
} Pass;

static const Pass passes[] = {
#define PROP(id, name, meaning)
#define PASS(id, name, run, req, est, inv, meaning) {name, run, req, est, inv},
#include "passes.def"
#undef PROP
#undef PASS
};

static const char *const prop_names[] = {
#define PROP(id, name, meaning) name,
#define PASS(id, name, run, req, est, inv, meaning)
#include "passes.def"
#undef PROP
#undef PASS
};

const char *const pass_names[] = {
#define PROP(id, name, meaning)
#define PASS(id, name, run, req, est, inv, meaning) name,
#include "passes.def"
#undef PROP
#undef PASS
	NULL,
};

static const SrcLoc noloc = {-1, 0, 0, 0};

static int
has_high_ops(const IrRegion *r)
{
	int i, j;

	for (i = 0; i < r->nops; i++) {
		if (ir_opinfo[r->ops[i].opc].flags & OPF_HIGH)
			return 1;
		for (j = 0; j < r->ops[i].nregions; j++)
			if (has_high_ops(&r->ops[i].regions[j]))
				return 1;
	}
	return 0;
}

static int
laid_out(const IrKernel *k)
{
	int i;

	for (i = 0; i < k->nbufs; i++)
		if (k->bufs[i].offset < 0)
			return 0;
	for (i = 0; i < k->nbarriers; i++)
		if (k->barriers[i].offset < 0)
			return 0;
	return 1;
}

/* The properties that the kernel shows by itself; the others need a pass to say so. */
static unsigned
input_props(const IrKernel *k)
{
	return (has_high_ops(&k->body) ? 0 : PROP_ASYNC_EXPANDED) | (laid_out(k) ? PROP_LAID_OUT : 0);
}

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

/* The pass number, or -1. */
static int
find_pass(const char *name, size_t n)
{
	int i;

	for (i = 0; i < NPASSES; i++)
		if (strlen(passes[i].name) == n && memcmp(passes[i].name, name, n) == 0)
			return i;
	return -1;
}

/* The first pass that establishes property bit p: the one to suggest. */
static const char *
establisher(int p)
{
	int i;

	for (i = 0; i < NPASSES; i++)
		if (passes[i].establishes & (1u << p))
			return passes[i].name;
	ICE("no pass establishes property '%s'", prop_names[p]);
}

/* Checks each pass's requirements along the list, from the properties of the input.
 * Returns the number of errors: one for the first pass found wanting. No pass invalidates
 * what another requires, so a missing property is always one that no pass before
 * established. */
static int
check_order(const IrKernel *k, const int *list, int n)
{
	unsigned props = input_props(k), missing;
	int i, p;

	for (i = 0; i < n; i++) {
		const Pass *ps = &passes[list[i]];

		if ((missing = ps->requires & ~props) != 0) {
			for (p = 0; !(missing & (1u << p)); p++)
				;
			diag_error(noloc, "kernel '%s': pass '%s' requires '%s', which no earlier pass established (run '%s' first)",
				   k->name, ps->name, prop_names[p], establisher(p));
			return 1;
		}
		props = (props & ~ps->invalidates) | ps->establishes;
	}
	return 0;
}

/* Runs one pass, then the verifier and the --print-after output it asks for. Returns the
 * number of errors: the verifier's, or the user errors the pass found (smem-layout's
 * budget check), after which going on makes no sense either. */
static int
run_pass(IrKernel *k, PassContext *cx, int pass)
{
	const PassOptions *o = cx->opt;
	const Pass *p = &passes[pass];
	char when[64];
	int before = diag_errors(), nerr = 0;
	double t0 = clock_ms(), t1;

	p->run(k, cx);
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

/* Runs the passes of list in order, then smem-layout when the outputs need offsets that
 * the list left unset (it may not have run it, or staging-elision removed a buffer after
 * it). */
static int
run_list(IrKernel *k, const PassOptions *o, const int *list, int n)
{
	PassContext cx = {o};
	int i, nerr;

	if (check_order(k, list, n))
		return 1;
	for (i = 0; i < n; i++)
		if ((nerr = run_pass(k, &cx, list[i])) != 0)
			return nerr;
	if (o->need_layout && !laid_out(k))
		return run_pass(k, &cx, PASS_SMEM_LAYOUT);
	return 0;
}

/* --passes=LIST: checks every name first so that a typo runs nothing. */
static int
run_named(IrKernel *k, const PassOptions *o, const char *names)
{
	const char *s, *comma;
	int *list = NULL, n = 0, cap = 0, bad = 0, pass, nerr;

	for (s = names; *s; s = *comma ? comma + 1 : comma) {
		comma = strchr(s, ',');
		if (!comma)
			comma = s + strlen(s);
		if (comma == s)
			continue;
		if ((pass = find_pass(s, (size_t)(comma - s))) < 0) {
			report_unknown(s, (int)(comma - s), "--passes");
			bad++;
		}
		PUSH(list, n, cap, pass);
	}
	nerr = bad ? bad : run_list(k, o, list, n);
	free(list);
	return nerr;
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
	 * passes then clean up. contract is part of the language's arithmetic, not an
	 * optimization: it runs at every level (unless --fmad=false), first of the passes that
	 * change values. -O0 runs those four. staging-elision needs the addresses
	 * merged by cse (equal addresses are one value) and leaves dead address arithmetic
	 * for dce; it runs unless --no-staging-elision turned it off. narrow-carry, like
	 * staging-elision, leaves the ops it replaces for dce. */
	static const int o2[] = {
		PASS_SCHEDULE_CHECK, PASS_EXPAND_ASYNC, PASS_CONTRACT, PASS_CANONICALIZE, PASS_CSE,
		PASS_CANONICALIZE, PASS_CSE, PASS_STAGING_ELISION, PASS_NARROW_CARRY, PASS_DCE, PASS_SMEM_LAYOUT,
	};
	static const int o0[] = {PASS_SCHEDULE_CHECK, PASS_EXPAND_ASYNC, PASS_CONTRACT, PASS_SMEM_LAYOUT};
	const int *base;
	int list[sizeof o2 / sizeof o2[0]], n = 0, nbase, i;

	if (o->print_after && find_pass(o->print_after, strlen(o->print_after)) < 0) {
		report_unknown(o->print_after, (int)strlen(o->print_after), "--print-after");
		return 1;
	}
	if (o->only)
		return run_named(k, o, o->only);
	base = o->opt_level < 1 ? o0 : o2;
	nbase = o->opt_level < 1 ? (int)(sizeof o0 / sizeof o0[0]) : (int)(sizeof o2 / sizeof o2[0]);
	for (i = 0; i < nbase; i++)
		if (!(o->no_staging_elision && base[i] == PASS_STAGING_ELISION) &&
		    !(o->no_fmad && base[i] == PASS_CONTRACT))
			list[n++] = base[i];
	return run_list(k, o, list, n);
}
