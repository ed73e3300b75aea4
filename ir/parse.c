/* parse.c: reads the textual IR (format at the top of ir.h) back into IrModule.
 *
 * A hand-written lexer and recursive-descent parser. The first error is reported through
 * diag with the position in the IR text and the parse stops (longjmp back to ir_parse,
 * which frees everything built so far): one precise message beats a cascade.
 * Value ids are taken as written, so print -> parse -> print is the identity. The parser
 * checks what it must to build well-formed structures (operand counts of fixed-arity ops,
 * region counts, ids defined once and somewhere); typing, dominance and terminators are
 * the verifier's. */
#include "ir.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Nested regions deeper than this are refused (the parser, verifier and printer recurse). */
#define MAX_DEPTH 128
/* Value ids are indices into per-kernel tables, so they bound memory: cap them per kernel
 * and in total so that a short input cannot ask for gigabytes. */
#define MAX_VALUE_ID ((1 << 20) - 1)
#define MAX_MODULE_VALUES (1 << 22)

enum { T_EOF, T_IDENT, T_VALUE, T_NUMBER, T_STRING, T_PUNCT };

typedef struct Token {
	int kind;
	const char *s;  /* the token's text */
	int n;
	int line, col;
	int64_t id;     /* T_VALUE */
} Token;

typedef struct Use {
	IrValue v;
	int line, col;
} Use;

/* A tensor dimension written as a name, resolved once every parameter is known. */
typedef struct DimRef {
	int param, dim;
	const char *name;
	int line, col;
} DimRef;

/* A reference by name from a header item to a param, buffer, barrier or pipeline, resolved
 * once the whole header is read (the header items come in any order). */
enum { REF_TMAP_TENSOR, REF_BUF_PIPELINE, REF_BUF_ALIAS, REF_PIPE_FULL, REF_PIPE_EMPTY };

typedef struct NameRef {
	int kind, index;
	const char *name;
	int line, col;
} NameRef;

typedef struct Parser {
	const char *text;
	size_t len, pos;
	int line, col;          /* of text[pos] */
	int file;               /* diag index of the IR text */
	Token tok;              /* the lookahead */
	int prev_line;          /* line of the token before tok */
	jmp_buf fail;

	IrModule *mod;
	IrKernel *k;            /* the kernel being parsed, not yet in mod */
	int depth;
	int saw_loc;            /* an explicit `!L:C` was read in this kernel */
	long module_values;

	int *defline;           /* per value id: line of its definition in the text, 0 if none */
	int capdefline;
	Use *uses;
	int nuses, capuses;
	DimRef *dimrefs;
	int ndimrefs, capdimrefs;
	NameRef *namerefs;
	int nnamerefs, capnamerefs;
	IrType *types;          /* the result types of the op being parsed */
	int captypes;
	IrValue *vstack;        /* results and operands of the ops being parsed */
	int nvstack, capvstack;
	char *sbuf;             /* the last unescaped string */
	int slen, scap;
} Parser;

static _Noreturn void
fail_at(Parser *p, int line, int col, const char *fmt, ...)
{
	SrcLoc loc = {p->file, line, col, 0};
	va_list ap;

	va_start(ap, fmt);
	diag_verror(loc, fmt, ap);
	va_end(ap);
	longjmp(p->fail, 1);
}

#define fail_tok(p, ...) fail_at((p), (p)->tok.line, (p)->tok.col, __VA_ARGS__)

/* ---- the lexer ---- */

static int
peekc(const Parser *p, size_t ahead)
{
	return p->pos + ahead < p->len ? (unsigned char)p->text[p->pos + ahead] : -1;
}

static void
advance(Parser *p)
{
	if (p->text[p->pos] == '\n') {
		p->line++;
		p->col = 1;
	} else {
		p->col++;
	}
	p->pos++;
}

static int
is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int
is_word(int c)
{
	return is_alpha(c) || is_digit(c) || c == '.';
}

/* Reads "(...)" right after "nan" so that `nan(0x...)` is one token. */
static void
lex_nan_payload(Parser *p, Token *t)
{
	int n = (int)(p->text + p->pos - t->s);
	int sign = t->s[0] == '-' || t->s[0] == '+';

	if (n == 3 + sign && memcmp(t->s + sign, "nan", 3) == 0 && peekc(p, 0) == '(') {
		while (peekc(p, 0) >= 0 && peekc(p, 0) != ')' && peekc(p, 0) != '\n')
			advance(p);
		if (peekc(p, 0) != ')')
			fail_at(p, t->line, t->col, "unterminated nan(...) payload");
		advance(p);
		t->n = (int)(p->text + p->pos - t->s);
	}
}

static void
describe_char(char *out, size_t size, int c)
{
	if (c > 0x20 && c < 0x7f)
		snprintf(out, size, "'%c'", c);
	else
		snprintf(out, size, "byte 0x%02x", (unsigned)c);
}

static void
next(Parser *p)
{
	Token *t = &p->tok;
	int end_line = p->line, end_col = p->col;
	int c;

	p->prev_line = t->line;
	for (;;) {
		c = peekc(p, 0);
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
			advance(p);
		} else if (c == '#') {
			while (peekc(p, 0) >= 0 && peekc(p, 0) != '\n')
				advance(p);
		} else {
			break;
		}
	}
	t->s = p->text + p->pos;
	t->n = 0;
	t->line = p->line;
	t->col = p->col;
	if (c < 0) {
		/* where the text stops, not on a line past it, so the caret has a line to sit on */
		t->line = end_line;
		t->col = end_col;
		t->kind = T_EOF;
		return;
	}
	if (c == '%') {
		int64_t id = 0;

		advance(p);
		if (!is_digit(peekc(p, 0)))
			fail_at(p, t->line, t->col, "expected a value number after '%%'");
		while (is_digit(peekc(p, 0))) {
			id = id * 10 + (peekc(p, 0) - '0');
			if (id > MAX_VALUE_ID)
				fail_at(p, t->line, t->col, "value id is too large (at most %d)", MAX_VALUE_ID);
			advance(p);
		}
		if (is_word(peekc(p, 0)))
			fail_at(p, t->line, t->col, "value names are numbers: %%N");
		t->kind = T_VALUE;
		t->id = id;
	} else if (c == '"') {
		advance(p);
		for (;;) {
			c = peekc(p, 0);
			if (c < 0 || c == '\n')
				fail_at(p, t->line, t->col, "unterminated string");
			advance(p);
			if (c == '"')
				break;
			if (c == '\\' && peekc(p, 0) >= 0 && peekc(p, 0) != '\n')
				advance(p);
		}
		t->kind = T_STRING;
	} else if (is_alpha(c)) {
		while (is_word(peekc(p, 0)))
			advance(p);
		t->kind = T_IDENT;
		t->n = (int)(p->text + p->pos - t->s);
		lex_nan_payload(p, t);
	} else if (is_digit(c) || ((c == '-' || c == '+') && (is_word(peekc(p, 1))))) {
		advance(p);
		for (;;) {
			int d = peekc(p, 0), prev = p->text[p->pos - 1];
			int exp_sign = (d == '+' || d == '-') &&
				       (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P');

			if (!is_word(d) && !exp_sign)
				break;
			advance(p);
		}
		t->kind = T_NUMBER;
		t->n = (int)(p->text + p->pos - t->s);
		lex_nan_payload(p, t);
	} else if (c && strchr("{}()[],:=!@", c)) {
		advance(p);
		t->kind = T_PUNCT;
	} else {
		char what[32];

		describe_char(what, sizeof what, c);
		fail_at(p, t->line, t->col, "unexpected %s", what);
	}
	t->n = (int)(p->text + p->pos - t->s);
}

/* ---- token helpers ---- */

static int
is_punct(const Parser *p, char c)
{
	return p->tok.kind == T_PUNCT && p->tok.s[0] == c;
}

static int
is_kw(const Parser *p, const char *kw)
{
	return p->tok.kind == T_IDENT && (int)strlen(kw) == p->tok.n && memcmp(p->tok.s, kw, (size_t)p->tok.n) == 0;
}

/* A short quotation of the current token for messages. */
static const char *
tok_text(const Parser *p)
{
	static char s[48];

	if (p->tok.kind == T_EOF)
		return "end of input";
	if (p->tok.n > 24)
		snprintf(s, sizeof s, "'%.24s...'", p->tok.s);
	else
		snprintf(s, sizeof s, "'%.*s'", p->tok.n, p->tok.s);
	return s;
}

static void
expect_punct(Parser *p, char c, const char *where)
{
	if (!is_punct(p, c))
		fail_tok(p, "expected '%c' %s, found %s", c, where, tok_text(p));
	next(p);
}

static void
expect_kw(Parser *p, const char *kw, const char *where)
{
	if (!is_kw(p, kw))
		fail_tok(p, "expected '%s' %s, found %s", kw, where, tok_text(p));
	next(p);
}

/* A decimal integer in [lo, hi]. */
static int64_t
parse_int(Parser *p, int64_t lo, int64_t hi, const char *what)
{
	const char *s = p->tok.s, *end = s + p->tok.n;
	int neg = 0;
	uint64_t mag = 0, limit;

	if (p->tok.kind != T_NUMBER)
		fail_tok(p, "expected %s, found %s", what, tok_text(p));
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (s == end)
		fail_tok(p, "expected %s, found %s", what, tok_text(p));
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; s < end; s++) {
		if (!is_digit(*s))
			fail_tok(p, "expected %s (a decimal integer), found %s", what, tok_text(p));
		if (mag > (limit - (uint64_t)(*s - '0')) / 10)
			fail_tok(p, "%s %s is out of range", what, tok_text(p));
		mag = mag * 10 + (uint64_t)(*s - '0');
	}
	{
		int64_t v = neg ? (mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;

		if (v < lo || v > hi)
			fail_tok(p, "%s %s is out of range (%" PRId64 " to %" PRId64 ")", what, tok_text(p), lo, hi);
		next(p);
		return v;
	}
}

/* The current T_STRING unescaped into p->sbuf (NUL-terminated; p->slen bytes). */
static void
unescape_string(Parser *p)
{
	const char *s = p->tok.s + 1, *end = p->tok.s + p->tok.n - 1;

	p->slen = 0;
	while (s < end) {
		int c = (unsigned char)*s++;

		if (c == '\\') {
			c = (unsigned char)*s++;
			if (c == 'n') {
				c = '\n';
			} else if (c == 't') {
				c = '\t';
			} else if (c == 'x') {
				int i, v = 0;

				for (i = 0; i < 2; i++, s++) {
					int h = s < end ? *s : 0;

					if (is_digit(h))
						v = v * 16 + h - '0';
					else if (h >= 'a' && h <= 'f')
						v = v * 16 + h - 'a' + 10;
					else if (h >= 'A' && h <= 'F')
						v = v * 16 + h - 'A' + 10;
					else
						fail_tok(p, "bad \\x escape in string (two hex digits expected)");
				}
				if (v == 0)
					fail_tok(p, "strings cannot contain NUL");
				c = v;
			} else if (c != '"' && c != '\\') {
				fail_tok(p, "unknown escape '\\%c' in string", c);
			}
		}
		p->sbuf = grow(p->sbuf, &p->scap, p->slen + 2, 1);
		p->sbuf[p->slen++] = (char)c;
	}
	p->sbuf = grow(p->sbuf, &p->scap, p->slen + 1, 1);
	p->sbuf[p->slen] = 0;
}

static const char *
parse_string(Parser *p, const char *what)
{
	const char *s;

	if (p->tok.kind != T_STRING)
		fail_tok(p, "expected %s (a quoted string), found %s", what, tok_text(p));
	unescape_string(p);
	s = arena_strndup(p->k->arena, p->sbuf, (size_t)p->slen);
	next(p);
	return s;
}

/* A name: an identifier or a quoted string. Leaves it in p->sbuf. */
static void
parse_name_buf(Parser *p, const char *what)
{
	if (p->tok.kind == T_STRING) {
		unescape_string(p);
	} else if (p->tok.kind == T_IDENT) {
		p->sbuf = grow(p->sbuf, &p->scap, p->tok.n + 1, 1);
		memcpy(p->sbuf, p->tok.s, (size_t)p->tok.n);
		p->slen = p->tok.n;
		p->sbuf[p->slen] = 0;
	} else {
		fail_tok(p, "expected %s, found %s", what, tok_text(p));
	}
	next(p);
}

static const char *
parse_name(Parser *p, const char *what)
{
	parse_name_buf(p, what);
	return arena_strndup(p->k->arena, p->sbuf, (size_t)p->slen);
}


/* The base of a fragment type's name: f32 (f32x8..), bf16 or f16 (bf16x8..), followed by
 * 'x' and a first digit other than 0; 0 for other names. */
static int
frag_base(const char *s, int n)
{
	static const IrBase bases[] = {IR_F32, IR_BF16, IR_F16};
	int i, l;

	for (i = 0; i < 3; i++) {
		l = (int)strlen(ir_base_name(bases[i]));
		if (n > l + 1 && memcmp(s, ir_base_name(bases[i]), (size_t)l) == 0 && s[l] == 'x' &&
		    is_digit(s[l + 1]) && s[l + 1] != '0')
			return bases[i];
	}
	return 0;
}

static IrType
parse_type(Parser *p)
{
	const char *s = p->tok.s;
	int n = p->tok.n, b;
	IrType t;

	if (p->tok.kind != T_IDENT)
		fail_tok(p, "expected a type, found %s", tok_text(p));
	if (n > 4 && memcmp(s, "ptr.", 4) == 0) {
		int space = 0;

		if (n > 11 && memcmp(s + 4, "global.", 7) == 0)
			space = IR_GLOBAL, s += 11, n -= 11;
		else if (n > 11 && memcmp(s + 4, "shared.", 7) == 0)
			space = IR_SHARED, s += 11, n -= 11;
		else if (n > 12 && memcmp(s + 4, "cluster.", 8) == 0)
			space = IR_CLUSTER, s += 12, n -= 12;
		b = space ? ir_base_from_name(s, n) : -1;
		if (b < 0)
			fail_tok(p, "unknown type %s (pointers are ptr.global.T, ptr.shared.T or ptr.cluster.T)",
				 tok_text(p));
		t = ir_ptr((IrSpace)space, (IrBase)b);
	} else if (n > 2 && s[n - 2] == 'x' && (s[n - 1] == '2' || s[n - 1] == '4') &&
		   (b = ir_base_from_name(s, n - 2)) >= 0) {
		t = ir_vector((IrBase)b, s[n - 1] - '0');
	} else if ((b = frag_base(s, n)) > 0) {
		int pre = (int)strlen(ir_base_name((IrBase)b)) + 1, lanes = 0, i;

		for (i = pre; i < n; i++) {
			if (!is_digit(s[i]) || i - pre > 2)
				fail_tok(p, "unknown type %s", tok_text(p));
			lanes = lanes * 10 + s[i] - '0';
		}
		t = ir_vector((IrBase)b, lanes);
		if (b == IR_F32 && !ir_is_frag(t))
			fail_tok(p, "unknown type %s (f32 vectors have 2 or 4 lanes, accumulator fragments "
				 "%d to %d, a multiple of 4)", tok_text(p), IR_FRAG_MIN, IR_FRAG_MAX);
		if (b != IR_F32 && !ir_is_afrag(t))
			fail_tok(p, "unknown type %s (%s vectors have 2 or 4 lanes, wgmma A fragments "
				 "%d to %d, a multiple of 8)", tok_text(p), ir_base_name((IrBase)b), IR_FRAG_MIN,
				 IR_FRAG_MAX);
	} else if (n == 4 && memcmp(s, "tmap", 4) == 0) {
		t = ir_scalar(IR_TMAP);
	} else if ((b = ir_base_from_name(s, n)) >= 0) {
		t = ir_scalar((IrBase)b);
	} else {
		fail_tok(p, "unknown type %s", tok_text(p));
	}
	next(p);
	return t;
}

/* ---- values ---- */

static void
vpush(Parser *p, IrValue v)
{
	PUSH(p->vstack, p->nvstack, p->capvstack, v);
}

/* Makes id a slot of the kernel's value table (slots never defined stay void). */
static void
ensure_value(Parser *p, IrValue id)
{
	IrKernel *k = p->k;

	while (k->nvalues <= id) {
		if (++p->module_values > MAX_MODULE_VALUES)
			fail_tok(p, "too many values in one module (more than %d)", MAX_MODULE_VALUES);
		ir_new_value(k, ir_scalar(IR_VOID));
	}
	if (p->capdefline <= id) {
		int old = p->capdefline;

		p->defline = grow(p->defline, &p->capdefline, id + 1, sizeof *p->defline);
		memset(p->defline + old, 0, sizeof *p->defline * (size_t)(p->capdefline - old));
	}
}

/* Reads a %N that the text defines here. */
static IrValue
parse_def(Parser *p)
{
	IrValue id;

	if (p->tok.kind != T_VALUE)
		fail_tok(p, "expected a value (%%N), found %s", tok_text(p));
	id = (IrValue)p->tok.id;
	if (id == 0)
		fail_tok(p, "%%0 is not a value (ids start at 1)");
	ensure_value(p, id);
	if (p->defline[id])
		fail_tok(p, "value %%%d is already defined on line %d", id, p->defline[id]);
	p->defline[id] = p->tok.line;
	next(p);
	return id;
}

static void
set_vtype(Parser *p, IrValue v, IrType t, SrcLoc loc)
{
	p->k->vtypes[v] = t;
	p->k->vlocs[v] = loc;
}

/* Reads a %N that the text uses here; checked against the definitions at the kernel's end
 * so that the verifier, not the parser, reports uses that come too early. */
static IrValue
parse_use(Parser *p)
{
	Use u;

	if (p->tok.kind != T_VALUE)
		fail_tok(p, "expected a value (%%N), found %s", tok_text(p));
	u.v = (IrValue)p->tok.id;
	u.line = p->tok.line;
	u.col = p->tok.col;
	PUSH(p->uses, p->nuses, p->capuses, u);
	next(p);
	return u.v;
}

/* `(%a: T, %b: U)`: region arguments; types set, locations left to the caller. */
static void
parse_region_args(Parser *p, IrRegion *r)
{
	int base = p->nvstack, n;

	expect_punct(p, '(', "to open the region arguments");
	while (!is_punct(p, ')')) {
		SrcLoc here = {p->file, p->tok.line, p->tok.col, 0};
		IrValue v;

		if (p->nvstack > base)
			expect_punct(p, ',', "between region arguments");
		v = parse_def(p);
		expect_punct(p, ':', "after a region argument");
		set_vtype(p, v, parse_type(p), here);
		vpush(p, v);
	}
	next(p);
	n = p->nvstack - base;
	ir_region_set_args(p->k, r, n, n ? p->vstack + base : NULL);
	p->nvstack = base;
}

/* ---- ops ---- */

static void parse_region_body(Parser *p, IrRegion *r);

/* The value of `const`, interpreted once the result type is known. */
static void
parse_const_value(Parser *p, const Token *vt, IrType t, IrOp *op)
{
	char s[128];
	const char *body;
	int neg;

	if (vt->n >= (int)sizeof s)
		fail_at(p, vt->line, vt->col, "constant is too long");
	memcpy(s, vt->s, (size_t)vt->n);
	s[vt->n] = 0;
	neg = s[0] == '-';
	body = s + (s[0] == '-' || s[0] == '+');
	if (ir_const_is_float(t)) {
		if (strcmp(body, "inf") == 0) {
			op->fimm = neg ? -INFINITY : INFINITY;
		} else if (strcmp(body, "nan") == 0 || strncmp(body, "nan(", 4) == 0) {
			uint64_t bits = neg ? UINT64_C(0xfff8000000000000) : UINT64_C(0x7ff8000000000000);

			if (body[3] == '(') {
				char *end;

				errno = 0;
				if (neg || strncmp(body + 4, "0x", 2) != 0)
					goto bad;
				bits = strtoull(body + 4, &end, 16);
				if (errno || strcmp(end, ")") != 0)
					goto bad;
			}
			memcpy(&op->fimm, &bits, sizeof bits);
			if (!isnan(op->fimm))
				fail_at(p, vt->line, vt->col, "nan(0x%016" PRIx64 ") is not a NaN bit pattern", bits);
		} else {
			char *end;

			if (!is_digit(body[0]) && body[0] != '.')
				goto bad;
			errno = 0;
			op->fimm = strtod(s, &end);
			if (*end)
				goto bad;
			if (errno == ERANGE && isinf(op->fimm))
				fail_at(p, vt->line, vt->col, "float constant %s is out of range", s);
		}
	} else if (ir_is_int(t)) {
		const char *q;
		uint64_t mag = 0;
		int big = 0;

		if (!*body)
			goto bad;
		for (q = body; *q; q++) {
			if (!is_digit(*q))
				goto bad;
			if (mag > (UINT64_MAX - (uint64_t)(*q - '0')) / 10)
				big = 1;
			mag = mag * 10 + (uint64_t)(*q - '0');
		}
		/* int64 range, plus the upper half of u64 spelled as unsigned */
		if (big || (neg && mag > (uint64_t)INT64_MAX + 1) ||
		    (!neg && mag > (uint64_t)INT64_MAX && t.base != IR_U64))
			fail_at(p, vt->line, vt->col, "integer constant %s is out of range for %s", s,
				ir_base_name((IrBase)t.base));
		op->imm = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	} else {
		char ts[64];

		ir_type_str(t, ts, sizeof ts);
		fail_at(p, vt->line, vt->col, "const cannot have type %s (integer or float types only)", ts);
	}
	return;
bad:
	fail_at(p, vt->line, vt->col, "bad %s constant '%s'", ir_const_is_float(t) ? "float" : "integer", s);
}

/* `!LINE:COL` after an op, param or buffer; returns the kernel-source location. */
static int
parse_loc(Parser *p, SrcLoc *loc)
{
	if (!is_punct(p, '!'))
		return 0;
	next(p);
	loc->file = p->k->file;
	loc->line = (int)parse_int(p, 1, INT_MAX, "a line number");
	expect_punct(p, ':', "between line and column");
	loc->col = (int)parse_int(p, 0, INT_MAX, "a column number");
	p->saw_loc = 1;
	return 1;
}

static void
parse_op(Parser *p, IrRegion *r)
{
	IrKernel *k = p->k;
	const IrOpInfo *info;
	Token name, cval;
	SrcLoc loc = {p->file, p->tok.line, p->tok.col, 0};
	int base = p->nvstack, nres, nargs, ntypes = 0, opc, idx, i;
	int64_t imm = 0;
	IrOp op, *o;

	if (p->tok.kind == T_VALUE) {
		for (;;) {
			vpush(p, parse_def(p));
			if (!is_punct(p, ','))
				break;
			next(p);
		}
		expect_punct(p, '=', "after the results of an op");
	}
	nres = p->nvstack - base;
	if (p->tok.kind != T_IDENT)
		fail_tok(p, "expected an op, found %s", tok_text(p));
	name = p->tok;
	opc = ir_opcode_from_name(name.s, name.n);
	if (opc < 0)
		fail_tok(p, "unknown op %s", tok_text(p));
	info = &ir_opinfo[opc];
	next(p);
	if (is_punct(p, '[')) {
		if (!(info->flags & (OPF_IMM | OPF_NSW | OPF_FLAG)))
			fail_tok(p, "%s takes no [imm]", info->name);
		next(p);
		imm = parse_int(p, INT64_MIN, INT64_MAX, "an integer attribute");
		expect_punct(p, ']', "after the attribute");
	}
	memset(&cval, 0, sizeof cval);
	if (opc == IR_CONST) {
		if ((p->tok.kind != T_NUMBER && p->tok.kind != T_IDENT) || p->tok.line != p->prev_line)
			fail_tok(p, "expected the constant's value after const, found %s", tok_text(p));
		cval = p->tok;
		next(p);
	}
	/* Operands start on the op's line: a following op may begin with a value too. */
	if (p->tok.kind == T_VALUE && p->tok.line == p->prev_line) {
		for (;;) {
			vpush(p, parse_use(p));
			if (!is_punct(p, ','))
				break;
			next(p);
		}
	}
	nargs = p->nvstack - base - nres;
	if (info->nargs >= 0 && nargs != info->nargs)
		fail_at(p, name.line, name.col, "%s expects %d operand%s, got %d", info->name, info->nargs,
			info->nargs == 1 ? "" : "s", nargs);
	if (is_punct(p, ':')) {
		next(p);
		for (;;) {
			IrType t = parse_type(p);

			PUSH(p->types, ntypes, p->captypes, t);
			if (!is_punct(p, ','))
				break;
			next(p);
		}
	}
	if (nres && !ntypes)
		fail_tok(p, "expected ':' and the result type%s of %s, found %s", nres == 1 ? "" : "s",
			 info->name, tok_text(p));
	if (ntypes != nres)
		fail_at(p, name.line, name.col, "%s has %d result%s but %d type%s", info->name, nres,
			nres == 1 ? "" : "s", ntypes, ntypes == 1 ? "" : "s");

	ir_op_init(k, &op, opc, nargs, nres, info->nregions, loc);
	if (nres)
		memcpy(op.res, p->vstack + base, sizeof(IrValue) * (size_t)nres);
	if (nargs)
		memcpy(op.args, p->vstack + base + nres, sizeof(IrValue) * (size_t)nargs);
	p->nvstack = base;
	op.imm = imm;
	for (i = 0; i < nres; i++)
		set_vtype(p, op.res[i], p->types[i], loc);
	if (opc == IR_CONST) {
		if (nres != 1)
			fail_at(p, name.line, name.col, "const has %d results, expected 1", nres);
		parse_const_value(p, &cval, p->types[0], &op);
	}
	/* In the region first, so the nested op arrays are reachable if parsing fails. */
	idx = r->nops;
	o = ir_region_push(r, &op);
	for (i = 0; i < o->nregions; i++) {
		IrRegion *sub = &o->regions[i];

		if (i > 0 && opc == IR_IF)
			expect_kw(p, "else", "between the regions of if");
		else if (i > 0 && opc == IR_WHILE)
			expect_kw(p, "do", "between the regions of while");
		if (is_punct(p, '('))
			parse_region_args(p, sub);
		if (!is_punct(p, '{'))
			fail_tok(p, "expected region %d of %s ('{'), found %s", i + 1, info->name, tok_text(p));
		parse_region_body(p, sub);
	}
	if (is_punct(p, '{'))
		fail_tok(p, "unexpected '{': %s has %d region%s", info->name, info->nregions,
			 info->nregions == 1 ? "" : "s");
	o = &r->ops[idx];
	if (parse_loc(p, &o->loc)) {
		/* results and region arguments were made where the op is */
		for (i = 0; i < o->nres; i++)
			k->vlocs[o->res[i]] = o->loc;
		for (i = 0; i < o->nregions; i++) {
			int j;

			for (j = 0; j < o->regions[i].nargs; j++)
				k->vlocs[o->regions[i].args[j]] = o->loc;
		}
	}
}

/* `{ op* }` */
static void
parse_region_body(Parser *p, IrRegion *r)
{
	int line = p->tok.line, col = p->tok.col;

	if (++p->depth > MAX_DEPTH)
		fail_tok(p, "regions are nested too deeply (more than %d levels)", MAX_DEPTH);
	expect_punct(p, '{', "to open a region");
	while (!is_punct(p, '}')) {
		if (p->tok.kind == T_EOF)
			fail_at(p, line, col, "unexpected end of input: region opened here is not closed");
		parse_op(p, r);
	}
	next(p);
	p->depth--;
}

/* ---- kernels ---- */

static const char *const access_names[] = {"in", "out", "inout"};

/* Reads a name that refers to another header item of the given kind. */
static void
add_nameref(Parser *p, int kind, int index, const char *what)
{
	NameRef r;

	r.kind = kind;
	r.index = index;
	r.line = p->tok.line;
	r.col = p->tok.col;
	r.name = parse_name(p, what);
	PUSH(p->namerefs, p->nnamerefs, p->capnamerefs, r);
}

static void
parse_param(Parser *p)
{
	IrKernel *k = p->k;
	IrParam prm;
	int i;

	memset(&prm, 0, sizeof prm);
	prm.loc.file = p->file;
	prm.loc.line = p->tok.line;
	prm.loc.col = p->tok.col;
	prm.name = parse_name(p, "a parameter name");
	for (i = 0; i < k->nparams; i++)
		if (strcmp(k->params[i].name, prm.name) == 0)
			fail_at(p, prm.loc.line, prm.loc.col, "parameter '%s' is already declared", prm.name);
	expect_punct(p, ':', "after the parameter name");
	if (is_kw(p, "tensor")) {
		int b;

		next(p);
		prm.kind = PARAM_TENSOR;
		for (i = 0; i < 3; i++)
			if (is_kw(p, access_names[i]))
				break;
		if (i == 3)
			fail_tok(p, "expected in, out or inout, found %s", tok_text(p));
		prm.access = i;
		next(p);
		b = p->tok.kind == T_IDENT ? ir_base_from_name(p->tok.s, p->tok.n) : -1;
		if (b < 0)
			fail_tok(p, "expected the tensor's element type, found %s", tok_text(p));
		prm.type = ir_ptr(IR_GLOBAL, (IrBase)b);
		next(p);
		expect_punct(p, '[', "to open the tensor's dimensions");
		while (!is_punct(p, ']')) {
			IrDim *d;

			if (prm.rank)
				expect_punct(p, ',', "between dimensions");
			if (prm.rank == IR_MAX_RANK)
				fail_tok(p, "a tensor has at most %d dimensions", IR_MAX_RANK);
			d = &prm.dims[prm.rank];
			if (p->tok.kind == T_NUMBER) {
				d->sym = -1;
				d->size = parse_int(p, 0, INT64_MAX, "a dimension");
			} else {
				DimRef dr;

				dr.param = k->nparams;
				dr.dim = prm.rank;
				dr.line = p->tok.line;
				dr.col = p->tok.col;
				dr.name = parse_name(p, "a dimension (a sym parameter or an integer)");
				PUSH(p->dimrefs, p->ndimrefs, p->capdimrefs, dr);
			}
			prm.rank++;
		}
		next(p);
		if (is_kw(p, "rank")) {
			/* rank R of W: tensor R of a per_rank table of W */
			next(p);
			prm.rank_no = (int)parse_int(p, 0, IR_MAX_PARAMS - 1, "the tensor's rank in its table");
			expect_kw(p, "of", "after the tensor's rank");
			prm.ranks = (int)parse_int(p, prm.rank_no + 1, IR_MAX_PARAMS, "the tensors of the table");
		}
	} else if (is_kw(p, "scalar")) {
		next(p);
		prm.kind = PARAM_SCALAR;
		prm.type = parse_type(p);
	} else if (is_kw(p, "tmap")) {
		next(p);
		prm.kind = PARAM_TMAP;
		prm.type = ir_scalar(IR_TMAP);
		prm.tmap_tensor = -1;
		add_nameref(p, REF_TMAP_TENSOR, k->nparams, "the tensor parameter of the map");
		expect_kw(p, "box", "after the map's tensor");
		expect_punct(p, '[', "to open the box dimensions");
		while (!is_punct(p, ']')) {
			if (prm.rank)
				expect_punct(p, ',', "between box dimensions");
			if (prm.rank == IR_MAX_RANK)
				fail_tok(p, "a box has at most %d dimensions", IR_MAX_RANK);
			prm.dims[prm.rank].sym = -1;
			prm.dims[prm.rank].size = parse_int(p, 0, INT64_MAX, "a box dimension");
			prm.rank++;
		}
		next(p);
		if (is_kw(p, "swizzle")) {
			next(p);
			prm.swizzle = (int)parse_int(p, 0, INT_MAX, "a swizzle");
		}
		if (is_kw(p, "oob")) {
			next(p);
			if (is_kw(p, "nan"))
				prm.oob_nan = 1;
			else if (!is_kw(p, "zero"))
				fail_tok(p, "expected zero or nan after oob, found %s", tok_text(p));
			next(p);
		}
	} else if (is_kw(p, "sym")) {
		next(p);
		prm.kind = PARAM_SYM;
		prm.type = ir_scalar(IR_I32);
		if (p->tok.kind == T_IDENT && p->tok.line == p->prev_line)
			prm.type = parse_type(p);
	} else {
		fail_tok(p, "expected tensor, tmap, scalar or sym, found %s", tok_text(p));
	}
	parse_loc(p, &prm.loc);
	PUSH(k->params, k->nparams, k->capparams, prm);
}

static void
parse_buffer(Parser *p)
{
	IrKernel *k = p->k;
	IrBuffer buf;
	int b, i;

	memset(&buf, 0, sizeof buf);
	buf.loc.file = p->file;
	buf.loc.line = p->tok.line;
	buf.loc.col = p->tok.col;
	buf.offset = -1;
	buf.name = parse_name(p, "a buffer name");
	for (i = 0; i < k->nbufs; i++)
		if (strcmp(k->bufs[i].name, buf.name) == 0)
			fail_at(p, buf.loc.line, buf.loc.col, "shared buffer '%s' is already declared", buf.name);
	expect_punct(p, ':', "after the buffer name");
	b = p->tok.kind == T_IDENT ? ir_base_from_name(p->tok.s, p->tok.n) : -1;
	if (b < 0)
		fail_tok(p, "expected the buffer's element type, found %s", tok_text(p));
	buf.elem = (IrBase)b;
	next(p);
	expect_punct(p, '[', "to open the buffer's dimensions");
	buf.count = 1;
	while (!is_punct(p, ']')) {
		int64_t d;

		if (buf.rank)
			expect_punct(p, ',', "between dimensions");
		if (buf.rank == IR_MAX_RANK)
			fail_tok(p, "a buffer has at most %d dimensions", IR_MAX_RANK);
		d = parse_int(p, 0, INT64_MAX, "a dimension");
		if (d && buf.count > INT64_MAX / d)
			fail_at(p, buf.loc.line, buf.loc.col, "shared buffer '%s' has more than 2^63 elements", buf.name);
		buf.count *= d;
		buf.dims[buf.rank++] = d;
	}
	next(p);
	buf.stages = 1;
	buf.pipeline = -1;
	buf.alias = -1;
	if (is_kw(p, "align")) {
		next(p);
		buf.align = (int)parse_int(p, 0, INT_MAX, "an alignment");
	}
	if (is_kw(p, "stages")) {
		next(p);
		buf.stages = (int)parse_int(p, INT_MIN, INT_MAX, "a stage count");
	}
	if (is_kw(p, "pipeline")) {
		next(p);
		add_nameref(p, REF_BUF_PIPELINE, k->nbufs, "a pipeline name");
	}
	if (is_kw(p, "swizzle")) {
		next(p);
		buf.swizzle = (int)parse_int(p, INT_MIN, INT_MAX, "a swizzle");
	}
	if (is_kw(p, "alias")) {
		next(p);
		add_nameref(p, REF_BUF_ALIAS, k->nbufs, "a buffer name");
	}
	if (is_kw(p, "stage_stride")) {
		next(p);
		buf.stage_stride = parse_int(p, INT64_MIN, INT64_MAX, "a stage stride");
	}
	if (is_kw(p, "offset")) {
		next(p);
		buf.offset = parse_int(p, 0, INT64_MAX, "an offset");
	}
	parse_loc(p, &buf.loc);
	PUSH(k->bufs, k->nbufs, k->capbufs, buf);
}

static void
parse_barrier(Parser *p)
{
	IrKernel *k = p->k;
	IrBarrier bar;
	int i;

	memset(&bar, 0, sizeof bar);
	bar.loc.file = p->file;
	bar.loc.line = p->tok.line;
	bar.loc.col = p->tok.col;
	bar.offset = -1;
	bar.n = 1;
	bar.name = parse_name(p, "a barrier name");
	for (i = 0; i < k->nbarriers; i++)
		if (strcmp(k->barriers[i].name, bar.name) == 0)
			fail_at(p, bar.loc.line, bar.loc.col, "mbarrier '%s' is already declared", bar.name);
	expect_kw(p, "count", "after the barrier name");
	bar.count = (int)parse_int(p, INT_MIN, INT_MAX, "an arrival count");
	if (is_kw(p, "n")) {
		next(p);
		bar.n = (int)parse_int(p, INT_MIN, INT_MAX, "an array length");
	}
	if (is_kw(p, "offset")) {
		next(p);
		bar.offset = parse_int(p, 0, INT64_MAX, "an offset");
	}
	parse_loc(p, &bar.loc);
	PUSH(k->barriers, k->nbarriers, k->capbarriers, bar);
}

/* `tma 1`: an arrival source and its multiplier. */
static void
parse_source(Parser *p, int *src, int *mult)
{
	char s[16];

	if (p->tok.kind != T_IDENT || p->tok.n >= (int)sizeof s)
		fail_tok(p, "expected tma, thread, warp, warpgroup or mma, found %s", tok_text(p));
	snprintf(s, sizeof s, "%.*s", p->tok.n, p->tok.s);
	if ((*src = ir_pipe_source_from_name(s)) < 0)
		fail_tok(p, "expected tma, thread, warp, warpgroup or mma, found %s", tok_text(p));
	next(p);
	*mult = (int)parse_int(p, INT_MIN, INT_MAX, "a multiplier");
}

static void
parse_pipeline(Parser *p)
{
	IrKernel *k = p->k;
	IrPipeline pl;
	int i;

	memset(&pl, 0, sizeof pl);
	pl.loc.file = p->file;
	pl.loc.line = p->tok.line;
	pl.loc.col = p->tok.col;
	pl.full = pl.empty = -1;
	pl.name = parse_name(p, "a pipeline name");
	for (i = 0; i < k->npipelines; i++)
		if (strcmp(k->pipelines[i].name, pl.name) == 0)
			fail_at(p, pl.loc.line, pl.loc.col, "pipeline '%s' is already declared", pl.name);
	expect_kw(p, "stages", "after the pipeline name");
	pl.stages = (int)parse_int(p, INT_MIN, INT_MAX, "a stage count");
	expect_kw(p, "full", "after the stage count");
	add_nameref(p, REF_PIPE_FULL, k->npipelines, "the full barrier's name");
	parse_source(p, &pl.full_src, &pl.full_mult);
	expect_kw(p, "empty", "after the full barrier");
	add_nameref(p, REF_PIPE_EMPTY, k->npipelines, "the empty barrier's name");
	parse_source(p, &pl.empty_src, &pl.empty_mult);
	if (is_kw(p, "cluster")) {
		pl.empty_cluster = 1;
		next(p);
	}
	parse_loc(p, &pl.loc);
	PUSH(k->pipelines, k->npipelines, k->cappipelines, pl);
}

/* `tmem NAME columns C stages S at A [pipeline P] [write ROLE] [read ROLE]` */
static void
parse_tmem(Parser *p)
{
	IrKernel *k = p->k;
	IrTmem t;
	int i;

	memset(&t, 0, sizeof t);
	t.loc.file = p->file;
	t.loc.line = p->tok.line;
	t.loc.col = p->tok.col;
	t.name = parse_name(p, "a tmem name");
	for (i = 0; i < k->ntmems; i++)
		if (strcmp(k->tmems[i].name, t.name) == 0)
			fail_at(p, t.loc.line, t.loc.col, "tmem '%s' is already declared", t.name);
	t.elem = IR_F32;
	if (is_kw(p, "f16") || is_kw(p, "bf16")) {
		t.elem = is_kw(p, "f16") ? IR_F16 : IR_BF16;
		next(p);
	}
	if (is_kw(p, "packed")) {
		next(p);
		t.packed = 1;
	}
	if (t.elem == IR_BF16 && !t.packed)
		fail_at(p, t.loc.line, t.loc.col, "tmem '%s' of bf16 is not packed: a bf16 tmem holds an MMA operand A ('bf16 packed')", t.name);
	if (t.packed && t.elem == IR_F32)
		fail_at(p, t.loc.line, t.loc.col, "tmem '%s' is packed but has no 16-bit type ('f16 packed' or 'bf16 packed')", t.name);
	expect_kw(p, "columns", "after the tmem name (and its type, f16 or bf16 packed; f32 if none)");
	t.cols = (int)parse_int(p, 1, 512, "a column count");
	expect_kw(p, "stages", "after the columns");
	t.stages = (int)parse_int(p, 1, 512, "a stage count");
	expect_kw(p, "at", "after the stages");
	t.col = (int)parse_int(p, 0, 511, "the first column");
	if (is_kw(p, "pipeline")) {
		next(p);
		t.pipeline = parse_name(p, "a pipeline name");
	}
	if (is_kw(p, "write")) {
		next(p);
		t.writer = parse_name(p, "a role name");
	}
	if (is_kw(p, "read")) {
		next(p);
		t.reader = parse_name(p, "a role name");
	}
	parse_loc(p, &t.loc);
	ir_add_tmem(k, t);
}

/* Names of other header items, all known by now. */
static void
resolve_names(Parser *p)
{
	IrKernel *k = p->k;
	int i, j;

	for (i = 0; i < p->nnamerefs; i++) {
		const NameRef *r = &p->namerefs[i];

		switch (r->kind) {
		case REF_TMAP_TENSOR:
			for (j = 0; j < k->nparams; j++)
				if (strcmp(k->params[j].name, r->name) == 0)
					break;
			if (j == k->nparams)
				fail_at(p, r->line, r->col, "no parameter named '%s'", r->name);
			if (k->params[j].kind != PARAM_TENSOR)
				fail_at(p, r->line, r->col, "tensor map over '%s', which is not a tensor parameter", r->name);
			k->params[r->index].tmap_tensor = j;
			break;
		case REF_BUF_PIPELINE:
			for (j = 0; j < k->npipelines; j++)
				if (strcmp(k->pipelines[j].name, r->name) == 0)
					break;
			if (j == k->npipelines)
				fail_at(p, r->line, r->col, "no pipeline named '%s'", r->name);
			k->bufs[r->index].pipeline = j;
			break;
		case REF_BUF_ALIAS:
			for (j = 0; j < k->nbufs; j++)
				if (strcmp(k->bufs[j].name, r->name) == 0)
					break;
			if (j == k->nbufs)
				fail_at(p, r->line, r->col, "no shared buffer named '%s'", r->name);
			k->bufs[r->index].alias = j;
			break;
		default:
			for (j = 0; j < k->nbarriers; j++)
				if (strcmp(k->barriers[j].name, r->name) == 0)
					break;
			if (j == k->nbarriers)
				fail_at(p, r->line, r->col, "no mbarrier named '%s'", r->name);
			if (r->kind == REF_PIPE_FULL)
				k->pipelines[r->index].full = j;
			else
				k->pipelines[r->index].empty = j;
			break;
		}
	}
	p->nnamerefs = 0;
}

/* Tensor dimensions named by a parameter: every parameter is known by now. */
static void
resolve_dims(Parser *p)
{
	IrKernel *k = p->k;
	int i, j;

	for (i = 0; i < p->ndimrefs; i++) {
		const DimRef *dr = &p->dimrefs[i];

		for (j = 0; j < k->nparams; j++)
			if (strcmp(k->params[j].name, dr->name) == 0)
				break;
		if (j == k->nparams)
			fail_at(p, dr->line, dr->col, "no parameter named '%s'", dr->name);
		if (k->params[j].kind != PARAM_SYM)
			fail_at(p, dr->line, dr->col, "dimension '%s' names a %s parameter, expected a sym",
				dr->name, k->params[j].kind == PARAM_TENSOR ? "tensor" : "scalar");
		k->params[dr->param].dims[dr->dim].sym = j;
		k->params[dr->param].dims[dr->dim].size = 0;
	}
	p->ndimrefs = 0;
}

static void
parse_body(Parser *p)
{
	IrKernel *k = p->k;
	int i;

	resolve_dims(p);
	resolve_names(p);
	if (is_punct(p, '('))
		parse_region_args(p, &k->body);
	for (i = 0; i < k->body.nargs; i++)
		if (i < k->nparams)
			k->vlocs[k->body.args[i]] = k->params[i].loc;
	parse_region_body(p, &k->body);
}

/* Every use names a value that the kernel defines somewhere. */
static void
check_uses(Parser *p)
{
	int i;

	for (i = 0; i < p->nuses; i++) {
		const Use *u = &p->uses[i];

		if (u->v >= p->capdefline || !p->defline[u->v])
			fail_at(p, u->line, u->col, "use of undefined value %%%d", u->v);
	}
	p->nuses = 0;
}

enum {
	SEEN_SOURCE = 1 << 0, SEEN_TARGETS = 1 << 1, SEEN_THREADS = 1 << 2, SEEN_GRID = 1 << 3,
	SEEN_SMEM = 1 << 4, SEEN_CLUSTER = 1 << 5, SEEN_MIN_BLOCKS = 1 << 6,
	SEEN_INDEX = 1 << 7, SEEN_LAUNCH = 1 << 8, SEEN_REQUIRES = 1 << 9,
};

static void
once(Parser *p, unsigned *seen, unsigned bit)
{
	if (*seen & bit)
		fail_tok(p, "%s is given twice", tok_text(p));
	*seen |= bit;
	next(p);
}

static void
parse_kernel(Parser *p)
{
	IrKernel *k;
	int line = p->tok.line, col = p->tok.col, i;
	unsigned seen = 0;

	if (p->mod->nkernels >= IR_MAX_KERNELS)
		fail_at(p, line, col, "more than %d kernels in one file: split the file", IR_MAX_KERNELS);
	expect_kw(p, "kernel", "at the start of a kernel");
	expect_punct(p, '@', "before the kernel name");
	parse_name_buf(p, "a kernel name");
	p->k = k = ir_kernel_new(p->sbuf, -1);
	p->saw_loc = 0;
	if (p->capdefline)
		memset(p->defline, 0, sizeof *p->defline * (size_t)p->capdefline);
	for (i = 0; i < p->mod->nkernels; i++)
		if (strcmp(p->mod->kernels[i]->name, k->name) == 0)
			fail_at(p, line, col, "kernel @%s is already defined", k->name);
	expect_punct(p, '{', "to open the kernel");
	for (;;) {
		if (is_kw(p, "source")) {
			if (p->saw_loc)
				fail_tok(p, "source must come before the first !LINE:COL location");
			once(p, &seen, SEEN_SOURCE);
			k->source = parse_string(p, "the source path");
			k->file = diag_add_source(k->source, NULL, 0);
		} else if (is_kw(p, "targets")) {
			once(p, &seen, SEEN_TARGETS);
			while (p->tok.kind == T_IDENT && p->tok.line == p->prev_line) {
				char s[32];
				int t;

				snprintf(s, sizeof s, "%.*s", p->tok.n < 31 ? p->tok.n : 31, p->tok.s);
				t = ir_target_from_name(s);
				if (t < 0 || p->tok.n > 31)
					fail_tok(p, "unknown target %s (expected %s)", tok_text(p),
						 ir_all_target_names(" or "));
				k->targets |= 1u << t;
				next(p);
			}
		} else if (is_kw(p, "threads")) {
			once(p, &seen, SEEN_THREADS);
			for (i = 0; i < 3; i++)
				k->threads[i] = (int)parse_int(p, 1, 1024, "a thread count");
		} else if (is_kw(p, "grid")) {
			once(p, &seen, SEEN_GRID);
			for (i = 0; i < 3; i++)
				k->grid[i] = parse_string(p, "a grid expression");
		} else if (is_kw(p, "cluster")) {
			once(p, &seen, SEEN_CLUSTER);
			for (i = 0; i < 3; i++)
				k->cluster[i] = (int)parse_int(p, 0, INT_MAX, "a cluster dimension");
		} else if (is_kw(p, "min_blocks")) {
			once(p, &seen, SEEN_MIN_BLOCKS);
			k->min_blocks = (int)parse_int(p, 0, INT_MAX, "a block count");
		} else if (is_kw(p, "index")) {
			once(p, &seen, SEEN_INDEX);
			if (!is_kw(p, "i32") && !is_kw(p, "i64"))
				fail_tok(p, "expected the index width i32 or i64, found %s", tok_text(p));
			k->index64 = is_kw(p, "i64");
			next(p);
		} else if (is_kw(p, "launch")) {
			once(p, &seen, SEEN_LAUNCH);
			if (!is_kw(p, "dependent"))
				fail_tok(p, "expected the launch mode dependent, found %s", tok_text(p));
			k->dependent = 1;
			next(p);
		} else if (is_kw(p, "requires")) {
			once(p, &seen, SEEN_REQUIRES);
			k->requires = parse_string(p, "a condition");
		} else if (is_kw(p, "mbarrier")) {
			next(p);
			parse_barrier(p);
		} else if (is_kw(p, "pipeline")) {
			next(p);
			parse_pipeline(p);
		} else if (is_kw(p, "smem_bytes")) {
			once(p, &seen, SEEN_SMEM);
			k->smem_bytes = parse_int(p, 0, INT64_MAX, "a byte count");
		} else if (is_kw(p, "param")) {
			if (k->nparams >= IR_MAX_PARAMS)
				fail_tok(p, "kernel @%s has more than %d parameters (sym parameters included)", k->name,
					 IR_MAX_PARAMS);
			next(p);
			parse_param(p);
		} else if (is_kw(p, "shared")) {
			next(p);
			parse_buffer(p);
		} else if (is_kw(p, "tmem")) {
			next(p);
			parse_tmem(p);
		} else if (is_kw(p, "body")) {
			next(p);
			parse_body(p);
			break;
		} else {
			fail_tok(p, "expected source, targets, threads, grid, cluster, min_blocks, index, launch, smem_bytes, param, "
				 "mbarrier, pipeline, shared, tmem or body, found %s",
				 tok_text(p));
		}
	}
	expect_punct(p, '}', "to close the kernel after its body");
	check_uses(p);
	ir_module_add(p->mod, k);
	p->k = NULL;
}

static void
parser_free(Parser *p)
{
	free(p->defline);
	free(p->uses);
	free(p->dimrefs);
	free(p->namerefs);
	free(p->vstack);
	free(p->types);
	free(p->sbuf);
}

IrModule *
ir_parse(const char *path, const char *text, size_t len)
{
	Parser *p = xcalloc(1, sizeof *p);
	IrModule *m;

	p->text = text;
	p->len = len;
	p->line = p->col = 1;
	p->file = diag_add_source(path, text, len);
	p->mod = ir_module_new();
	if (setjmp(p->fail)) {
		ir_kernel_free(p->k);
		ir_module_free(p->mod);
		parser_free(p);
		free(p);
		return NULL;
	}
	next(p);
	if (p->tok.kind == T_EOF)
		fail_tok(p, "expected a kernel, found end of input");
	while (p->tok.kind != T_EOF)
		parse_kernel(p);
	m = p->mod;
	parser_free(p);
	free(p);
	return m;
}
