/* frontend.c: fe_compile, the frontend's one entry point: parse, check, print the AST if
 * asked, lower each kernel to IR. The AST lives in one program arena, freed on return;
 * the IR copies what it keeps into each kernel's own arena. */
#include "ast.h"

#include <string.h>

/* Checking and lowering every instance of a generic kernel (function bodies copied per
 * call, loops unrolled) is most of the frontend's time; `cakec --kernel` wants one of
 * them, so the others are neither made nor checked. */
int
fe_wanted(const FeOptions *opt, const char *name)
{
	int i;

	for (i = 0; i < opt->nkernels; i++)
		if (strcmp(opt->kernels[i], name) == 0)
			return 1;
	return opt->nkernels == 0;
}

IrModule *
fe_compile(const char *path, const char *text, size_t len, const FeOptions *opt)
{
	static const FeOptions none;
	Parser p;
	IrModule *m = NULL;
	const Node *d;
	int errors = diag_errors();

	if (!opt)
		opt = &none;
	memset(&p, 0, sizeof p);
	p.arena = arena_new();
	p.file = diag_add_source(path, text, len);
	fe_parse(&p, text, len);
	if (p.program)
		import_resolve(&p, path, opt);
	if (diag_errors() == errors && p.program)
		sema_program(&p, p.program, opt);
	if (diag_errors() == errors && p.program) {
		if (opt->ast_out)
			ast_print(opt->ast_out, p.program);
		m = ir_module_new();
		for (d = p.program->list.head; d; d = d->next)
			if (d->kind == N_KERNEL && !d->init && fe_wanted(opt, d->name))
				ir_module_add(m, irgen_kernel(&p, (Node *)d, d->kinfo, path));
		for (d = p.program->list.head; d; d = d->next) {
			const char *names[256], *when[256], *when_text[256];
			int i, n = 0;

			/* an entry point missing instances --kernel left out is not made */
			if (d->kind != N_KERNEL || !d->init || !d->kinfo || !d->kinfo->nentry || d->kinfo->nleft_out)
				continue;
			for (i = 0; i < d->kinfo->nentry && n < 256; i++) {
				const Node *k = d->kinfo->entry[i]->body;

				when[n] = k->kinfo->when;
				when_text[n] = k->kinfo->when_text;
				names[n++] = k->name;
			}
			ir_module_add_entry(m, d->name, n, names, when, when_text);
		}
		/* irgen reports what only unrolling shows (a register array index out of bounds) */
		if (diag_errors() != errors) {
			ir_module_free(m);
			m = NULL;
		}
	}
	arena_free(p.arena);
	return m;
}
