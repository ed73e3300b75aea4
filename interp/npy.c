/* npy.c: NumPy's .npy format (versions 1.0 to 3.0): the magic, a little-endian header
 * length, a Python dict literal with 'descr', 'fortran_order' and 'shape', then the
 * elements. Only C order and little-endian (or byte-sized) element types are taken. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"

static const struct {
	IrBase base;
	const char *descr;
} npy_types[] = {
	{IR_I1, "|b1"}, {IR_I8, "|i1"}, {IR_I16, "<i2"}, {IR_I32, "<i4"}, {IR_I64, "<i8"},
	{IR_U32, "<u4"}, {IR_U64, "<u8"}, {IR_F16, "<f2"}, {IR_BF16, "<u2"}, {IR_F32, "<f4"},
	{IR_F64, "<f8"}, {IR_E4M3, "|u1"}, {IR_E5M2, "|u1"},   /* fp8: the byte patterns */
};

const char *
npy_descr_of(IrBase b)
{
	size_t i;

	for (i = 0; i < sizeof npy_types / sizeof npy_types[0]; i++)
		if (npy_types[i].base == b)
			return npy_types[i].descr;
	return NULL;
}

int
npy_descr_fits(const char *d, IrBase b)
{
	const char *want = npy_descr_of(b);

	if (want && strcmp(d, want) == 0)
		return 1;
	if (b == IR_BF16)
		return strcmp(d, "<i2") == 0 || strcmp(d, "|V2") == 0 || strcmp(d, "<V2") == 0;
	return b == IR_I8 && strcmp(d, "|u1") == 0;
}

/* The value of 'key' in the header dict: a pointer just past "'key':" and spaces. */
static const char *
dict_value(const char *h, const char *key)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof pat, "'%s'", key);
	if (!(p = strstr(h, pat)))
		return NULL;
	p += strlen(pat);
	while (*p == ' ' || *p == ':')
		p++;
	return p;
}

static int
elem_bytes(const char *d)
{
	int n = atoi(d + 2);

	return (d[0] == '<' || d[0] == '|' || d[0] == '=') && strchr("bfiuV", d[1]) && n > 0 && n <= 16 ? n : -1;
}

static int
parse_header(const char *h, NpyArray *a, Buf *err)
{
	const char *p, *end;

	if (!(p = dict_value(h, "descr")) || *p != '\'' || !(end = strchr(p + 1, '\'')) ||
	    end - p - 1 >= (long)sizeof a->descr) {
		buf_printf(err, "no readable 'descr' in the header");
		return -1;
	}
	memcpy(a->descr, p + 1, (size_t)(end - p - 1));
	a->descr[end - p - 1] = 0;
	if ((a->elem_bytes = elem_bytes(a->descr)) < 0) {
		buf_printf(err, "element type '%s' is not little-endian numbers", a->descr);
		return -1;
	}
	if (!(p = dict_value(h, "fortran_order")) || strncmp(p, "False", 5) != 0) {
		buf_printf(err, "only C order ('fortran_order': False) is supported");
		return -1;
	}
	if (!(p = dict_value(h, "shape")) || *p != '(') {
		buf_printf(err, "no readable 'shape' in the header");
		return -1;
	}
	a->rank = 0;
	a->count = 1;
	for (p++;;) {
		char *q;
		long long v;

		while (*p == ' ' || *p == ',')
			p++;
		if (*p == ')')
			break;
		v = strtoll(p, &q, 10);
		if (q == p || v < 0 || a->rank >= IR_MAX_RANK) {
			buf_printf(err, "bad 'shape' in the header");
			return -1;
		}
		a->shape[a->rank++] = v;
		a->count *= v;
		p = q;
	}
	return 0;
}

int
npy_read(const char *path, NpyArray *a, Buf *err)
{
	size_t len, hlen, off;
	char *text = read_file(path, &len), *h;
	const unsigned char *u = (const unsigned char *)text;

	memset(a, 0, sizeof *a);
	if (!text) {
		buf_printf(err, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	if (len < 10 || memcmp(text, "\x93NUMPY", 6) != 0 || u[6] < 1 || u[6] > 3) {
		buf_printf(err, "'%s' is not a .npy file", path);
		free(text);
		return -1;
	}
	if (u[6] == 1) {
		hlen = (size_t)u[8] | (size_t)u[9] << 8;
		off = 10;
	} else {
		hlen = len < 12 ? 0 : (size_t)u[8] | (size_t)u[9] << 8 | (size_t)u[10] << 16 | (size_t)u[11] << 24;
		off = 12;
	}
	if (off + hlen > len) {
		buf_printf(err, "'%s': truncated header", path);
		free(text);
		return -1;
	}
	h = xmalloc(hlen + 1);
	memcpy(h, text + off, hlen);
	h[hlen] = 0;
	if (parse_header(h, a, err) != 0) {
		free(h);
		free(text);
		buf_printf(err, " ('%s')", path);
		return -1;
	}
	free(h);
	off += hlen;
	if (len - off < (size_t)a->count * (size_t)a->elem_bytes) {
		buf_printf(err, "'%s': %lld elements expected, the file is shorter", path, (long long)a->count);
		free(text);
		return -1;
	}
	a->data = xmalloc((size_t)a->count * (size_t)a->elem_bytes + 1);
	memcpy(a->data, text + off, (size_t)a->count * (size_t)a->elem_bytes);
	free(text);
	return 0;
}

int
npy_write(const char *path, const NpyArray *a, Buf *err)
{
	Buf h = {0}, out = {0};
	int i, pad;

	buf_printf(&h, "{'descr': '%s', 'fortran_order': False, 'shape': (", a->descr);
	for (i = 0; i < a->rank; i++)
		buf_printf(&h, "%lld,%s", (long long)a->shape[i], i + 1 < a->rank ? " " : "");
	buf_puts(&h, "), }");
	/* the header (with the 10 bytes before it) is padded with spaces to 64 bytes */
	pad = 64 - (10 + h.len + 1) % 64;
	for (i = 0; i < pad % 64; i++)
		buf_puts(&h, " ");
	buf_puts(&h, "\n");
	buf_putn(&out, "\x93NUMPY\x01\x00", 8);
	buf_putn(&out, (const char[]){(char)(h.len & 0xff), (char)(h.len >> 8)}, 2);
	buf_putn(&out, h.s, h.len);
	buf_putn(&out, a->data, (int)(a->count * a->elem_bytes));
	if (write_file_atomic(path, out.s, (size_t)out.len) != 0) {
		buf_printf(err, "cannot write '%s': %s", path, strerror(errno));
		buf_free(&h);
		buf_free(&out);
		return -1;
	}
	buf_free(&h);
	buf_free(&out);
	return 0;
}
