/* frontend: the .cake language. Lexer (lexer.l) and parser (parser.y) build the AST
 * (ast.c), sema.c checks names, types, constants and targets, irgen.c turns the checked
 * AST into IR. The full language is described in docs/language.md. */
#ifndef CAKE_FRONTEND_H
#define CAKE_FRONTEND_H

#include "../ir/ir.h"

/* A -D NAME=VALUE override of a compile-time constant. */
typedef struct FeDefine {
	const char *name;
	const char *value;
} FeDefine;

typedef struct FeOptions {
	const FeDefine *defines;
	int ndefines;
	Buf *ast_out;   /* if set, the AST is printed here (--emit=ast) */
	/* where `import "x.cake";` looks after the importing file's directory (-I), in order */
	const char *const *import_dirs;
	int nimport_dirs;
	/* if set, called with the path of each file read for an import (--depfile) */
	void (*imported)(void *ctx, const char *path);
	void *imported_ctx;
	/* if nkernels > 0, only these kernels are checked and lowered to IR (--kernel): the
	 * other instances of a generic kernel are not made, and an entry point missing some
	 * of its instances is not either (the constants, functions and generic parameter
	 * lists of the file are checked as always) */
	const char *const *kernels;
	int nkernels;
} FeOptions;

/* Compiles one .cake source. Diagnostics go through diag (file:line:col, source line,
 * caret; several per run where the parser can recover). Returns NULL if any error was
 * reported, otherwise one IrKernel per kernel in the file. */
IrModule *fe_compile(const char *path, const char *text, size_t len, const FeOptions *opt);

#endif
