/* import.c: `import "x.cake";` at file scope. The named file is looked up relative to the
 * importing file's directory, then in each -I directory in order; it is read into a
 * diag source of its own (so its nodes' SrcLocs name it), parsed into the program arena,
 * its own imports resolved the same way, and its fn, const and generic kernel declarations
 * take the import's place in the importing file's declaration list (its plain kernels and
 * its instances are compiled with it, not with its importers). Sema then sees one program:
 * a name defined twice is the usual redefinition error (but for a constant of the same type
 * and value in two files, sema.c's check_const) and -D reaches every constant.
 *
 * Each file is read once per compile however often it is imported (identity: device and
 * inode, so that two spellings of one path are one file); a file that imports itself,
 * directly or through others, is an error naming the chain. Paths are kept as written
 * (joined to the importer's directory as written), never made absolute, so that nothing
 * about the build machine reaches the diagnostics. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* stat's dev_t and ino_t */
#endif
#include "ast.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Imports nested deeper than this are an error (each level is a C stack frame here). */
#define IMPORT_MAX_DEPTH 64

typedef struct ImportFile {
	dev_t dev;
	ino_t ino;
	const char *path;     /* as resolved (arena) */
} ImportFile;

typedef struct Importer {
	Parser *p;            /* the main file's: its arena holds every file's AST */
	const FeOptions *opt;
	ImportFile *seen;     /* every file read (the main file first) */
	int nseen, capseen;
	ImportFile *chain;    /* the files being read, the main file first */
	int nchain, capchain;
} Importer;

static NodeList expand(Importer *im, NodeList decls, const char *path);

static int
same_file(const ImportFile *a, const struct stat *st)
{
	return a->dev == st->st_dev && a->ino == st->st_ino;
}

/* dir(importer) + name, the directory as the importer's path spells it ("" for none). */
static char *
join(Parser *p, const char *dir, size_t ndir, const char *name)
{
	size_t n = strlen(name);
	char *s = arena_alloc(p->arena, ndir + n + 2);

	memcpy(s, dir, ndir);
	if (ndir && dir[ndir - 1] != '/')
		s[ndir++] = '/';
	memcpy(s + ndir, name, n + 1);
	return s;
}

/* Finds the file an import names: the importer's directory first, then each -I directory.
 * Returns its path (arena) and stat, or NULL with errno from the first place tried. */
static const char *
locate(Importer *im, const char *from, const char *name, struct stat *st)
{
	const char *slash = strrchr(from, '/');
	const char *first;
	int err, i;

	if (name[0] == '/')
		return stat(name, st) == 0 ? name : NULL;
	first = join(im->p, from, slash && strcmp(from, "-") != 0 ? (size_t)(slash - from + 1) : 0, name);
	if (stat(first, st) == 0)
		return first;
	err = errno;
	for (i = 0; i < im->opt->nimport_dirs; i++) {
		const char *d = im->opt->import_dirs[i];
		const char *path = join(im->p, d, strlen(d), name);

		if (stat(path, st) == 0)
			return path;
	}
	errno = err;
	return NULL;
}

static void
cycle_error(Importer *im, const Node *imp, const struct stat *st)
{
	Buf b = {0};
	int i, start = 0;

	for (i = 0; i < im->nchain; i++)
		if (same_file(&im->chain[i], st))
			start = i;
	for (i = start; i < im->nchain; i++)
		buf_printf(&b, "'%s' imports ", im->chain[i].path);
	buf_printf(&b, "'%s'", im->chain[start].path);
	diag_error(imp->loc, "import cycle: %s", b.s);
	buf_free(&b);
}

/* The declarations the import imp (in the file `from`) contributes: none when the file was
 * read before or on an error. */
static NodeList
import_one(Importer *im, const Node *imp, const char *from)
{
	NodeList out = ast_list_empty(), decls;
	ImportFile f;
	struct stat st;
	Parser sub;
	const char *path;
	char *text;
	size_t len;
	Node *d, *next;
	int i;

	if (!(path = locate(im, from, imp->name, &st))) {
		diag_error(imp->loc, "cannot open imported file '%s': %s", imp->name, strerror(errno));
		return out;
	}
	for (i = 0; i < im->nchain; i++)
		if (same_file(&im->chain[i], &st)) {
			cycle_error(im, imp, &st);
			return out;
		}
	for (i = 0; i < im->nseen; i++)
		if (same_file(&im->seen[i], &st))
			return out;
	if (im->nchain >= IMPORT_MAX_DEPTH) {
		diag_error(imp->loc, "imports nest too deep (more than %d files)", IMPORT_MAX_DEPTH);
		return out;
	}
	/* a folder, a device or a pipe is no source (and /dev/zero would never end) */
	if (!S_ISREG(st.st_mode) || !(text = read_file(path, &len))) {
		diag_error(imp->loc, "cannot open imported file '%s': %s", imp->name,
			   S_ISREG(st.st_mode) ? strerror(errno) : "not a regular file");
		return out;
	}
	f.dev = st.st_dev;
	f.ino = st.st_ino;
	f.path = path;
	PUSH(im->seen, im->nseen, im->capseen, f);
	if (im->opt->imported)
		im->opt->imported(im->opt->imported_ctx, path);
	/* the text stays alive with its diag source: later passes report at its lines */
	memset(&sub, 0, sizeof sub);
	sub.arena = im->p->arena;
	sub.file = diag_add_source(path, text, len);
	if (memchr(text, 0, len)) {
		SrcLoc loc = {sub.file, 0, 0, 0};

		diag_error(loc, "input contains a NUL byte; expected .cake text");
		return out;
	}
	fe_parse(&sub, text, len);
	if (!sub.program)
		return out;
	PUSH(im->chain, im->nchain, im->capchain, f);
	decls = expand(im, sub.program->list, path);
	im->nchain--;
	for (d = decls.head; d; d = next) {
		next = d->next;
		/* what the file compiles of its own (its plain kernels, its instances and so its
		 * entry points) stays its own; a generic kernel is a design the importer may
		 * instantiate, into an entry point of its own */
		if ((d->kind == N_KERNEL && !d->init) || d->kind == N_INSTANCE)
			continue;
		out = ast_list_append(out, d);
	}
	return out;
}

/* decls (of the file `path`) with each import replaced by what it brings. */
static NodeList
expand(Importer *im, NodeList decls, const char *path)
{
	NodeList out = ast_list_empty(), got;
	Node *d, *next, *e, *enext;

	for (d = decls.head; d; d = next) {
		next = d->next;
		if (d->kind != N_IMPORT) {
			out = ast_list_append(out, d);
			continue;
		}
		got = import_one(im, d, path);
		for (e = got.head; e; e = enext) {
			enext = e->next;
			out = ast_list_append(out, e);
		}
	}
	return out;
}

void
import_resolve(Parser *p, const char *path, const FeOptions *opt)
{
	Importer im;
	Node *d;
	struct stat st;

	for (d = p->program->list.head; d && d->kind != N_IMPORT; d = d->next)
		;
	if (!d)
		return;
	memset(&im, 0, sizeof im);
	im.p = p;
	im.opt = opt;
	if (strcmp(path, "-") != 0 && stat(path, &st) == 0) {
		ImportFile f = {st.st_dev, st.st_ino, path};

		PUSH(im.seen, im.nseen, im.capseen, f);
		PUSH(im.chain, im.nchain, im.capchain, f);
	}
	p->program->list = expand(&im, p->program->list, path);
	free(im.seen);
	free(im.chain);
}
