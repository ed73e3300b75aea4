/* diag.c: diagnostics with the source line and a caret. */
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Source {
	const char *path, *text;
	size_t len;
	/* where the last shown line starts: diagnostics mostly come in line order, so the
	 * next one scans on from there, not from the top (thousands of warnings on a long
	 * file were quadratic) */
	int mark_line;
	size_t mark_off;
} Source;

/* An inline site: the call that code was inlined through (its own site chains on). */
typedef struct Site {
	SrcLoc call;
	const char *what;
} Site;

static Source *sources;
static int nsources, capsources;
static Site *sites;
static int nsites, capsites;
static int nerrors;
static int quiet;

/* For programs that compile many inputs in one process (the fuzz targets): forgets every
 * source, inline site and error, and with quiet set prints nothing and never stops the
 * process at DIAG_MAX_ERRORS. */
void
diag_reset(int be_quiet)
{
	int i;

	for (i = 0; i < nsources; i++)
		free((char *)sources[i].path);
	for (i = 0; i < nsites; i++)
		free((char *)sites[i].what);
	free(sources);
	free(sites);
	sources = NULL;
	sites = NULL;
	nsources = capsources = nsites = capsites = nerrors = 0;
	quiet = be_quiet;
}

int
diag_inline_site(SrcLoc call, const char *what)
{
	Site s = {call, xstrdup(what)};

	PUSH(sites, nsites, capsites, s);
	return nsites;
}

int
diag_add_source(const char *path, const char *text, size_t len)
{
	Source s = {xstrdup(path), text, len, 0, 0};

	PUSH(sources, nsources, capsources, s);
	return nsources - 1;
}

const char *
diag_source_path(int file)
{
	if (file < 0 || file >= nsources)
		return "<unknown>";
	return sources[file].path;
}

static void
show_line(SrcLoc loc)
{
	Source *s;
	const char *p, *end, *line;
	int n, i;

	if (loc.file < 0 || loc.file >= nsources || loc.line <= 0 || !sources[loc.file].text)
		return;
	s = &sources[loc.file];
	p = s->text;
	n = 1;
	if (s->mark_line > 0 && s->mark_line <= loc.line) {
		p = s->text + s->mark_off;
		n = s->mark_line;
	}
	end = s->text + s->len;
	for (; n < loc.line && p < end; p++)
		if (*p == '\n')
			n++;
	if (n != loc.line)
		return;
	s->mark_line = n;
	s->mark_off = (size_t)(p - s->text);
	line = p;
	while (p < end && *p != '\n')
		p++;
	fprintf(stderr, "%.*s\n", (int)(p - line), line);
	for (i = 1; i < loc.col && line + i - 1 < p; i++)
		fputc(line[i - 1] == '\t' ? '\t' : ' ', stderr);
	fputs("^\n", stderr);
}

static void
report(SrcLoc loc, const char *kind, const char *fmt, va_list ap)
{
	if (quiet)
		return;
	fflush(stdout);
	if (loc.line > 0)
		fprintf(stderr, "%s:%d:%d: %s: ", diag_source_path(loc.file), loc.line, loc.col, kind);
	else if (loc.file >= 0 && loc.file < nsources)
		fprintf(stderr, "%s: %s: ", diag_source_path(loc.file), kind);
	else
		fprintf(stderr, "cakec: %s: ", kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	show_line(loc);
}

/* The calls that the code at loc was inlined through, innermost first. */
static void
report_sites(SrcLoc loc)
{
	int site = quiet ? 0 : loc.site, depth = 0;

	while (site > 0 && site <= nsites && depth++ < 64) {
		const Site *s = &sites[site - 1];

		fprintf(stderr, "%s:%d:%d: note: in %s here\n", diag_source_path(s->call.file),
			s->call.line, s->call.col, s->what);
		show_line(s->call);
		site = s->call.site;
	}
}

void
diag_verror(SrcLoc loc, const char *fmt, va_list ap)
{
	report(loc, "error", fmt, ap);
	report_sites(loc);
	if (++nerrors >= DIAG_MAX_ERRORS && !quiet) {
		fprintf(stderr, "cakec: too many errors, stopping\n");
		exit(EXIT_USER);
	}
}

void
diag_error(SrcLoc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_verror(loc, fmt, ap);
	va_end(ap);
}

void
diag_warning(SrcLoc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(loc, "warning", fmt, ap);
	report_sites(loc);
	va_end(ap);
}

void
diag_note(SrcLoc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(loc, "note", fmt, ap);
	va_end(ap);
}

int
diag_errors(void)
{
	return nerrors;
}
