/* util.c: memory, arenas, the growable array, string buffers, files. */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

_Noreturn void
cake_ice(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "cakec: internal compiler error at %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	/* _exit, not exit: an internal error may come from one of the backend's threads (an
	 * LLVM fatal error) while others are still in LLVM, whose static destructors exit()
	 * would run under them. Nothing of cakec's needs exit's clean-up: outputs are only
	 * written after the last point that can fail, and stdout is flushed above. */
	_exit(EXIT_ICE);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		ICE("out of memory (%zu bytes)", n);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		ICE("out of memory (%zu bytes)", n * size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		ICE("out of memory (%zu bytes)", n);
	return p;
}

char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

typedef struct Chunk Chunk;
struct Chunk {
	Chunk *next;
	size_t used, size;
	_Alignas(16) unsigned char data[];
};

struct Arena {
	Chunk *head;
};

Arena *
arena_new(void)
{
	return xcalloc(1, sizeof(Arena));
}

void
arena_free(Arena *a)
{
	Chunk *c, *next;

	if (!a)
		return;
	for (c = a->head; c; c = next) {
		next = c->next;
		free(c);
	}
	free(a);
}

void *
arena_alloc(Arena *a, size_t n)
{
	Chunk *c = a->head;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->size - c->used < n) {
		size_t size = n > 65536 ? n : 65536;

		c = xmalloc(sizeof(Chunk) + size);
		c->used = 0;
		c->size = size;
		c->next = a->head;
		a->head = c;
	}
	p = c->data + c->used;
	c->used += n;
	return memset(p, 0, n);
}

char *
arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *
arena_strdup(Arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *
arena_printf(Arena *a, const char *fmt, ...)
{
	Buf b = {0};
	va_list ap;
	char *s;

	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	s = arena_strndup(a, b.s ? b.s : "", b.len);
	buf_free(&b);
	return s;
}

void *
grow(void *p, int *cap, int need, size_t size)
{
	int n;

	if (need <= *cap)
		return p;
	n = *cap ? *cap : 8;
	while (n < need)
		n *= 2;
	p = xrealloc(p, (size_t)n * size);
	*cap = n;
	return p;
}

/* One vsnprintf into the room the buffer has (at least 128 bytes); a second, after
 * growing, only when the text did not fit. */
void
buf_vprintf(Buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	b->s = grow(b->s, &b->cap, b->len + 128, 1);
	va_copy(ap2, ap);
	n = vsnprintf(b->s + b->len, (size_t)(b->cap - b->len), fmt, ap2);
	va_end(ap2);
	if (n < 0)
		ICE("bad format string");
	if (n >= b->cap - b->len) {
		b->s = grow(b->s, &b->cap, b->len + n + 1, 1);
		vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += n;
}

void
buf_putint(Buf *b, int64_t v)
{
	char tmp[24];
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	int n = 0;

	do
		tmp[sizeof tmp - 1 - n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		tmp[sizeof tmp - 1 - n++] = '-';
	buf_putn(b, tmp + sizeof tmp - n, n);
}

void
buf_printf(Buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void
buf_putn(Buf *b, const char *s, int n)
{
	b->s = grow(b->s, &b->cap, b->len + n + 1, 1);
	memcpy(b->s + b->len, s, (size_t)n);
	b->len += n;
	b->s[b->len] = 0;
}

void
buf_puts(Buf *b, const char *s)
{
	buf_putn(b, s, (int)strlen(s));
}

void
buf_free(Buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

char *
read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *s = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	for (;;) {
		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 8192;
			s = xrealloc(s, cap + 1);
		}
		got = fread(s + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		free(s);
		errno = e;
		return NULL;
	}
	fclose(f);
	s[n] = 0;
	if (len)
		*len = n;
	return s;
}

int
write_file_atomic(const char *path, const char *data, size_t len)
{
	size_t n = strlen(path) + 32;
	char *tmp = xmalloc(n);
	FILE *f;
	int ok;

	snprintf(tmp, n, "%s.tmp%ld", path, (long)getpid());
	f = fopen(tmp, "wb");
	if (!f) {
		free(tmp);
		return -1;
	}
	ok = fwrite(data, 1, len, f) == len;
	ok &= fclose(f) == 0;
	if (!ok || rename(tmp, path) != 0) {
		int e = errno;

		remove(tmp);
		free(tmp);
		errno = e;
		return -1;
	}
	free(tmp);
	return 0;
}

uint64_t
hash_fnv1a(const void *data, size_t len, uint64_t h)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* ---- timing (cakec --time-report) ---- */

#define MAX_PHASES 32

static struct {
	const char *name;
	double ms;
	int count;
} phases[MAX_PHASES];
static int nphases;
static pthread_mutex_t phase_lock = PTHREAD_MUTEX_INITIALIZER;

double
clock_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void
time_add(const char *phase, double ms)
{
	int i;

	pthread_mutex_lock(&phase_lock);
	for (i = 0; i < nphases; i++)
		if (strcmp(phases[i].name, phase) == 0)
			break;
	if (i == nphases && nphases < MAX_PHASES)
		phases[nphases++].name = phase;
	if (i < nphases) {
		phases[i].ms += ms;
		phases[i].count++;
	}
	pthread_mutex_unlock(&phase_lock);
}

void
time_report(Buf *out, double total_ms)
{
	double sum = 0;
	int i;

	buf_printf(out, "%-28s %10s %6s %7s\n", "phase", "ms", "calls", "share");
	for (i = 0; i < nphases; i++) {
		buf_printf(out, "%-28s %10.2f %6d %6.1f%%\n", phases[i].name, phases[i].ms,
			   phases[i].count, total_ms > 0 ? 100 * phases[i].ms / total_ms : 0.0);
		sum += phases[i].ms;
	}
	if (sum <= total_ms)
		buf_printf(out, "%-28s %10.2f %6s %6.1f%%\n", "(other)", total_ms - sum, "",
			   total_ms > 0 ? 100 * (total_ms - sum) / total_ms : 0.0);
	else
		buf_printf(out, "(the backend ran on threads at the same time: phase times overlap)\n");
	buf_printf(out, "%-28s %10.2f\n", "total", total_ms);
}
