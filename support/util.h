/* support: arenas, the growable-array helper, diagnostics and fatal errors.
 * Everything else in cakec builds on this header; it has no dependencies. */
#ifndef CAKE_UTIL_H
#define CAKE_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* ---- util.c ---- */

/* Exit codes of the cakec command. */
enum { EXIT_OK = 0, EXIT_USER = 1, EXIT_USAGE = 2, EXIT_ICE = 70 };

/* An internal compiler error: prints where in cakec it happened and exits 70. */
#define ICE(...) cake_ice(__FILE__, __LINE__, __VA_ARGS__)
_Noreturn void cake_ice(const char *file, int line, const char *fmt, ...);

void *xmalloc(size_t n);          /* never returns NULL: out of memory is an ICE */
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Arenas are named after the lifetime of what they hold (program, kernel) and are freed
 * as a whole. Allocations are zeroed and 16-byte aligned. */
typedef struct Arena Arena;
Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t n);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
char *arena_printf(Arena *a, const char *fmt, ...);

/* The one growable-array helper: makes room for `need` elements of `size` bytes in the
 * malloc'd array `p` whose capacity is *cap, and returns the (possibly moved) array. */
void *grow(void *p, int *cap, int need, size_t size);
#define PUSH(arr, len, cap, val) \
	((arr) = grow((arr), &(cap), (len) + 1, sizeof *(arr)), (arr)[(len)++] = (val))

/* A growable string buffer, for printers and emitters. */
typedef struct Buf {
	char *s;
	int len, cap;
} Buf;
void buf_printf(Buf *b, const char *fmt, ...);
void buf_vprintf(Buf *b, const char *fmt, va_list ap);
void buf_puts(Buf *b, const char *s);
void buf_putn(Buf *b, const char *s, int n);
void buf_putint(Buf *b, int64_t v);     /* decimal, as "%lld" */
void buf_free(Buf *b);

/* Reads a whole file; NULL (errno set) on failure. */
char *read_file(const char *path, size_t *len);
/* Writes a file whole or not at all (temporary file, then rename). 0 on success. */
int write_file_atomic(const char *path, const char *data, size_t len);

uint64_t hash_fnv1a(const void *data, size_t len, uint64_t h);
#define HASH_INIT 0xcbf29ce484222325ull

/* Phase timing for `cakec --time-report`: clock_ms is a monotonic clock in milliseconds;
 * time_add (thread-safe) accumulates a phase's time under its (static) name, in first-seen
 * order (with targets compiled on threads, a phase's time is the sum over them);
 * time_report prints the table, each phase's share of total_ms and what no phase took. */
double clock_ms(void);
void time_add(const char *phase, double ms);
void time_report(Buf *out, double total_ms);

/* ---- diag.c ---- */

/* A source location: file index into the source table, 1-based line and column.
 * line == 0 means "no location". `site` is 0, or the inline site (diag_inline_site) the
 * code at this location was inlined through: a function body's code inlined at a call
 * carries the call's site, so a diagnostic there also names the call. */
typedef struct SrcLoc {
	int file, line, col;
	int site;
} SrcLoc;

/* Registers a source text (kept for printing the offending line); returns its file index. */
int diag_add_source(const char *path, const char *text, size_t len);
const char *diag_source_path(int file);

/* `file:line:col: error: message`, the source line and a caret.
 * Every error is counted; callers check diag_errors() to decide the exit status. */
void diag_error(SrcLoc loc, const char *fmt, ...);
void diag_verror(SrcLoc loc, const char *fmt, va_list ap);
void diag_warning(SrcLoc loc, const char *fmt, ...);
void diag_note(SrcLoc loc, const char *fmt, ...);
int diag_errors(void);
/* Registers that code is inlined at `call`, which `what` names ("the call of 'f'", "the
 * instance 'gemm<bf16, f32>'"; copied); call.site is the call's own site when it was itself
 * inlined. Returns the new site (>= 1): errors and warnings at locations carrying it are
 * followed by a note "in WHAT here" per site. */
int diag_inline_site(SrcLoc call, const char *what);
/* Forgets every source, site and error; quiet: print nothing and never stop at
 * DIAG_MAX_ERRORS (for programs that compile many inputs in one process, e.g. fuzzers). */
void diag_reset(int quiet);
/* After this many errors the compile stops (prints "too many errors"). */
#define DIAG_MAX_ERRORS 20

#endif
