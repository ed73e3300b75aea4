/* emit.c: writes a kernel's C99 launcher (<kernel>.h and <kernel>.c) and its manifest
 * entry.
 *
 * The launcher is mostly tables: a CakertKernel descriptor with the embedded images and
 * one CakertTensorSpec per tensor parameter, which the runtime's shared checks read (see
 * runtime/cakert.h). What is specific to a kernel is emitted as code: the typed argument
 * struct, the scalar range checks, the grid formulas translated to checked int64
 * arithmetic, and the kernel parameter array. Output depends only on the inputs (no
 * timestamps, no addresses), so regenerating a folder gives the same bytes. */
#include "host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names and literals ---- */

/* Names a struct field cannot take: C11's keywords, C++'s (the headers are usable from
 * C++), standard macros, and the GNU mode's predefined `linux` and `unix`. */
static const char *const c_reserved[] = {
	"auto", "break", "case", "char", "const", "continue", "default", "do", "double",
	"else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
	"register", "restrict", "return", "short", "signed", "sizeof", "static", "struct",
	"switch", "typedef", "union", "unsigned", "void", "volatile", "while", "_Alignas",
	"_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn",
	"_Static_assert", "_Thread_local",
	"alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "bool", "catch",
	"char8_t", "char16_t", "char32_t", "class", "co_await", "co_return", "co_yield",
	"compl", "concept", "const_cast", "consteval", "constexpr", "constinit", "decltype",
	"delete", "dynamic_cast", "explicit", "export", "false", "friend", "mutable",
	"namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq",
	"private", "protected", "public", "reinterpret_cast", "requires", "static_assert",
	"static_cast", "template", "this", "thread_local", "throw", "true", "try", "typeid",
	"typename", "using", "virtual", "wchar_t", "xor", "xor_eq",
	"NULL", "EOF", "errno", "assert", "offsetof", "stdin", "stdout", "stderr", "linux",
	"unix", NULL,
};

/* The C field name for a parameter: its own name, or with a '_' appended where the name
 * is reserved (a DSL parameter may be called `default` or `new`; the struct must still
 * compile as C and C++). */
static const char *
field_name(const IrKernel *k, const char *name)
{
	int i;

	for (i = 0; c_reserved[i]; i++)
		if (strcmp(name, c_reserved[i]) == 0)
			return arena_printf(k->arena, "%s_", name);
	return name;
}

/* The name of the per_rank table whose tensor r parameter p is: its parameters are named
 * table_r. */
static const char *
table_name(const IrKernel *k, const IrParam *p)
{
	const char *us = strrchr(p->name, '_');

	return arena_printf(k->arena, "%.*s", (int)(us ? us - p->name : (long)strlen(p->name)), p->name);
}

/* The field of tensor r of a per_rank table: an element of the args struct's array,
 * "table[r]". */
static const char *
table_field(const IrKernel *k, const IrParam *p)
{
	return arena_printf(k->arena, "%s[%d]", field_name(k, table_name(k, p)), p->rank_no);
}

/* Appends s as the body of a C string literal. */
static void
put_cstr(Buf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			buf_printf(b, "\\%c", ch);
		else if (ch == '\n')
			buf_puts(b, "\\n");
		else if (ch < 0x20 || ch >= 0x7f)
			buf_printf(b, "\\%03o", ch);
		else
			buf_putn(b, (const char *)&ch, 1);
	}
}

/* s as text inside a C string literal that is a printf format (% doubled). */
static void
put_cfmt(Buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '%')
			buf_puts(b, "%%");
		else
			put_cstr(b, (char[2]){*s, 0});
	}
}

/* Appends s as a JSON string, quotes included. */
static void
put_json(Buf *b, const char *s)
{
	buf_puts(b, "\"");
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			buf_printf(b, "\\%c", ch);
		else if (ch < 0x20)
			buf_printf(b, "\\u%04x", ch);
		else
			buf_putn(b, (const char *)&ch, 1);
	}
	buf_puts(b, "\"");
}

/* Appends n bytes as a C initializer list, 20 to a line. */
static void
put_bytes(Buf *b, const unsigned char *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	char line[20 * 5 + 4];
	size_t i;
	int len = 0;

	for (i = 0; i < n; i++) {
		if (len == 0)
			line[len++] = '\t';
		line[len++] = '0';
		line[len++] = 'x';
		line[len++] = hex[p[i] >> 4];
		line[len++] = hex[p[i] & 15];
		line[len++] = ',';
		if (i % 20 == 19 || i + 1 == n) {
			line[len++] = '\n';
			buf_putn(b, line, len);
			len = 0;
		}
	}
}

/* ---- types ---- */

/* The DLPack type of a tensor element: code (CAKE_DTYPE_*) and bits. */
static void
dlpack_dtype(IrBase b, const char **code, int *bits)
{
	*bits = ir_base_bits(b);
	switch (b) {
	case IR_I1: *code = "CAKE_DTYPE_BOOL"; *bits = 8; break;
	case IR_I8: case IR_I16: case IR_I32: case IR_I64: *code = "CAKE_DTYPE_INT"; break;
	case IR_U8: case IR_U16: case IR_U32: case IR_U64: *code = "CAKE_DTYPE_UINT"; break;
	case IR_E4M3: *code = "CAKE_DTYPE_FLOAT8_E4M3FN"; break;
	case IR_E5M2: *code = "CAKE_DTYPE_FLOAT8_E5M2"; break;
	case IR_BF16: *code = "CAKE_DTYPE_BFLOAT"; break;
	case IR_F16: case IR_F32: case IR_F64: *code = "CAKE_DTYPE_FLOAT"; break;
	default: ICE("tensor of element type %s has no DLPack type", ir_base_name(b));
	}
}

/* cuTensorMapEncodeTiled's element type for a tensor element type. TMA moves bytes and
 * interprets elements only for the out-of-bounds fill (zero for integers), so i8, i16, i1
 * (a byte) and fp8 travel as the unsigned types of their size (fp8 fills with zero bits,
 * +0; check_tmap refuses oob(nan) for it); f32 stays FLOAT32 (not TFLOAT32: the map must
 * not round what it copies). */
static const char *
tma_dtype(IrBase b)
{
	switch (b) {
	case IR_I1: case IR_I8: case IR_U8: case IR_E4M3: case IR_E5M2: return "CU_TENSOR_MAP_DATA_TYPE_UINT8";
	case IR_I16: case IR_U16: return "CU_TENSOR_MAP_DATA_TYPE_UINT16";
	case IR_I32: return "CU_TENSOR_MAP_DATA_TYPE_INT32";
	case IR_I64: return "CU_TENSOR_MAP_DATA_TYPE_INT64";
	case IR_U32: return "CU_TENSOR_MAP_DATA_TYPE_UINT32";
	case IR_U64: return "CU_TENSOR_MAP_DATA_TYPE_UINT64";
	case IR_F16: return "CU_TENSOR_MAP_DATA_TYPE_FLOAT16";
	case IR_BF16: return "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16";
	case IR_F32: return "CU_TENSOR_MAP_DATA_TYPE_FLOAT32";
	case IR_F64: return "CU_TENSOR_MAP_DATA_TYPE_FLOAT64";
	default: return NULL;
	}
}

/* How a scalar parameter travels: the field type users fill, the type the kernel
 * receives, and for integers the range checked between them. Integers up to 32 bits are
 * taken as int64_t so that an out-of-range value is caught instead of truncated. */
typedef struct ScalarABI {
	const char *field;
	const char *pass;
	int checked;
	const char *lo, *hi;
} ScalarABI;

/* The largest value of a shape symbol: the kernel's index width decides. */
static const char *
sym_max(const IrKernel *k)
{
	return k->index64 ? "INT64_MAX" : "INT32_MAX";
}

static ScalarABI
scalar_abi(IrBase b)
{
	ScalarABI a = {NULL, NULL, 0, NULL, NULL};

	switch (b) {
	case IR_I1: a = (ScalarABI){"int64_t", "uint8_t", 1, "0", "1"}; break;
	case IR_I8: a = (ScalarABI){"int64_t", "int8_t", 1, "INT8_MIN", "INT8_MAX"}; break;
	case IR_I16: a = (ScalarABI){"int64_t", "int16_t", 1, "INT16_MIN", "INT16_MAX"}; break;
	case IR_I32: a = (ScalarABI){"int64_t", "int32_t", 1, "INT32_MIN", "INT32_MAX"}; break;
	case IR_U8: a = (ScalarABI){"int64_t", "uint8_t", 1, "0", "UINT8_MAX"}; break;
	case IR_U16: a = (ScalarABI){"int64_t", "uint16_t", 1, "0", "UINT16_MAX"}; break;
	case IR_U32: a = (ScalarABI){"int64_t", "uint32_t", 1, "0", "INT64_C(4294967295)"}; break;
	case IR_I64: a = (ScalarABI){"int64_t", "int64_t", 0, NULL, NULL}; break;
	case IR_U64: a = (ScalarABI){"uint64_t", "uint64_t", 0, NULL, NULL}; break;
	/* half types travel as their bit patterns: C99 has no 16-bit float */
	case IR_F16: case IR_BF16: a = (ScalarABI){"uint16_t", "uint16_t", 0, NULL, NULL}; break;
	/* fp8 too (IR input only: the language has no fp8 scalar parameters) */
	case IR_E4M3: case IR_E5M2: a = (ScalarABI){"uint8_t", "uint8_t", 0, NULL, NULL}; break;
	case IR_F32: a = (ScalarABI){"float", "float", 0, NULL, NULL}; break;
	case IR_F64: a = (ScalarABI){"double", "double", 0, NULL, NULL}; break;
	default: ICE("scalar parameter of type %s has no host type", ir_base_name(b));
	}
	return a;
}

static const char *
access_name(int acc)
{
	return acc == ACC_OUT ? "out" : acc == ACC_INOUT ? "inout" : "in";
}

/* ---- grid formulas ---- */

/* A recursive-descent translator from the grid language (ir.h) to C: names become the
 * launcher's int64 locals v_<name>, operators become cakert's checked helpers. */
typedef struct Grid {
	const IrKernel *k;
	Arena *a;
	const char *src, *p;
	unsigned char *used;    /* param -> named in the formula (may be NULL) */
	Buf *err;
	int failed;
	int num_sms;            /* the formula names num_sms */
	const int64_t *vals;    /* evaluating (host_grid_eval): param -> value; each result
	                         * is then the decimal value instead of C code */
	int64_t num_sms_val;
	int logic;              /* a condition: comparisons, && || ! (see host_cond_check) */
	int json;               /* each result is the manifest's JSON form instead of C code */
	int isbool;             /* the last result is a condition (else an integer) */
	int skip;               /* evaluating the side of && or || that C would not: a
	                         * division by zero or overflow there gives 0, no error */
} Grid;

static char *grid_expr(Grid *g);
static char *grid_or(Grid *g);

static void
grid_fail(Grid *g, const char *fmt, const char *arg)
{
	if (!g->failed && g->err) {
		buf_printf(g->err, "%s \"%s\" at offset %d: ", g->logic ? "condition" : "grid formula",
			   g->src, (int)(g->p - g->src));
		buf_printf(g->err, fmt, arg);
	}
	g->failed = 1;
}

/* The value of fn ("gadd", "gcdiv", "gmin", ...) on the decimal values l and r, with the
 * runtime's rules (cakert_g*: int64, division by zero and overflow are errors). */
static char *
grid_eval_op(Grid *g, const char *fn, const char *l, const char *r)
{
	int64_t a = strtoll(l, NULL, 10), b = strtoll(r, NULL, 10), v = 0;
	int bad = 0;

	if (strcmp(fn, "gadd") == 0)
		bad = __builtin_add_overflow(a, b, &v);
	else if (strcmp(fn, "gsub") == 0)
		bad = __builtin_sub_overflow(a, b, &v);
	else if (strcmp(fn, "gmul") == 0)
		bad = __builtin_mul_overflow(a, b, &v);
	else if (strcmp(fn, "gmin") == 0 || strcmp(fn, "gmax") == 0)
		v = (strcmp(fn, "gmin") == 0) == (a < b) ? a : b;
	else if (b == 0 || (a == INT64_MIN && b == -1))
		bad = 1;
	else if (strcmp(fn, "gdiv") == 0)
		v = a / b;
	else if (strcmp(fn, "grem") == 0)
		v = a % b;
	else    /* gcdiv: C truncates toward zero; round up when the exact quotient is positive */
		v = a / b + (a % b != 0 && (a < 0) == (b < 0));
	if (bad && g->skip)
		v = 0;
	else if (bad) {
		grid_fail(g, "%s", "division by zero or int64 overflow");
		return NULL;
	}
	return arena_printf(g->a, "%lld", (long long)v);
}

/* fn applied to l and r: the launcher's C (cakert_<fn>), or its value when evaluating. */
static char *
grid_op(Grid *g, const char *fn, const char *l, const char *r)
{
	static const char *const json_op[][2] = {
		{"gadd", "+"}, {"gsub", "-"}, {"gmul", "*"}, {"gdiv", "/"}, {"grem", "%"},
		{"gcdiv", "cdiv"}, {"gmin", "min"}, {"gmax", "max"},
	};
	size_t i;

	if (!l || !r)
		return NULL;
	g->isbool = 0;
	if (g->vals)
		return grid_eval_op(g, fn, l, r);
	for (i = 0; g->json && i < sizeof json_op / sizeof json_op[0]; i++)
		if (strcmp(fn, json_op[i][0]) == 0)
			return arena_printf(g->a, "[\"%s\", %s, %s]", json_op[i][1], l, r);
	if (strcmp(fn, "gmin") == 0 || strcmp(fn, "gmax") == 0)
		return arena_printf(g->a, "cakert_%s(%s, %s)", fn, l, r);
	return arena_printf(g->a, "cakert_%s(%s, %s, &ok)", fn, l, r);
}

static void
grid_space(Grid *g)
{
	while (*g->p == ' ' || *g->p == '\t')
		g->p++;
}

static int
grid_accept(Grid *g, char ch)
{
	grid_space(g);
	if (*g->p != ch)
		return 0;
	g->p++;
	return 1;
}

static int
is_ident(int ch, int first)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' ||
	       (!first && ch >= '0' && ch <= '9');
}

/* The C expression for the parameter `name`, which starts at `at` in the formula. */
static char *
grid_name(Grid *g, const char *name, const char *at)
{
	int i;

	for (i = 0; i < g->k->nparams; i++) {
		const IrParam *pr = &g->k->params[i];

		if (strcmp(pr->name, name) != 0)
			continue;
		if (pr->kind == PARAM_TENSOR || pr->kind == PARAM_TMAP ||
		    (pr->kind == PARAM_SCALAR && !(ir_is_int(pr->type) && pr->type.lanes == 1))) {
			g->p = at;
			grid_fail(g, "'%s' is not a sym or integer scalar parameter", name);
			return NULL;
		}
		if (g->json)
			return arena_printf(g->a, "\"%s\"", name);
		if (g->vals) {
			if (g->vals[i] < 0 && pr->kind == PARAM_SCALAR && pr->type.base == IR_U64) {
				grid_fail(g, "'%s' does not fit in int64", name);
				return NULL;
			}
			return arena_printf(g->a, "%lld", (long long)g->vals[i]);
		}
		/* a u64 converts where it is used, so the formula that needs it reports it */
		if (pr->kind == PARAM_SCALAR && pr->type.base == IR_U64)
			return arena_printf(g->a, "cakert_gu64(args->%s, &ok)", field_name(g->k, name));
		if (g->used)
			g->used[i] = 1;
		return arena_printf(g->a, "v_%s", name);
	}
	/* the device's SM count, which the launcher queries (a parameter of that name would
	 * have been found above: parameters shadow it) */
	if (strcmp(name, "num_sms") == 0) {
		g->num_sms = 1;
		if (g->json)
			return "\"num_sms\"";
		return g->vals ? arena_printf(g->a, "%lld", (long long)g->num_sms_val) : "g_num_sms";
	}
	g->p = at;
	grid_fail(g, "'%s' is not a parameter (or num_sms)", name);
	return NULL;
}

/* v, which must be an integer (a condition is not one). */
static char *
grid_int(Grid *g, char *v)
{
	if (v && g->isbool) {
		grid_fail(g, "%s", "expected an integer, found a condition");
		return NULL;
	}
	return v;
}

static char *
grid_primary(Grid *g)
{
	char *l, *r, *name;
	const char *start;

	grid_space(g);
	g->isbool = 0;
	if (*g->p >= '0' && *g->p <= '9') {
		int64_t v = 0;

		for (; *g->p >= '0' && *g->p <= '9'; g->p++) {
			if (v > (INT64_MAX - (*g->p - '0')) / 10) {
				grid_fail(g, "%s", "integer literal overflows int64");
				return NULL;
			}
			v = v * 10 + (*g->p - '0');
		}
		if (v <= INT32_MAX || g->vals || g->json)
			return arena_printf(g->a, "%lld", (long long)v);
		return arena_printf(g->a, "INT64_C(%lld)", (long long)v);
	}
	if (grid_accept(g, '(')) {
		l = g->logic ? grid_or(g) : grid_expr(g);
		if (!l)
			return NULL;
		if (!grid_accept(g, ')')) {
			grid_fail(g, "%s", "expected ')'");
			return NULL;
		}
		return l;
	}
	if (!is_ident((unsigned char)*g->p, 1)) {
		grid_fail(g, "%s", *g->p ? "expected a number, a name or '('" : "unexpected end");
		return NULL;
	}
	start = g->p;
	while (is_ident((unsigned char)*g->p, 0))
		g->p++;
	name = arena_strndup(g->a, start, (size_t)(g->p - start));
	if (!grid_accept(g, '('))
		return grid_name(g, name, start);
	if (strcmp(name, "cdiv") != 0 && strcmp(name, "min") != 0 && strcmp(name, "max") != 0) {
		g->p = start;
		grid_fail(g, "unknown function '%s' (expected cdiv, min or max)", name);
		return NULL;
	}
	l = grid_int(g, grid_expr(g));
	if (!l)
		return NULL;
	if (!grid_accept(g, ',')) {
		grid_fail(g, "%s", "expected ',' between two arguments");
		return NULL;
	}
	r = grid_int(g, grid_expr(g));
	if (!r)
		return NULL;
	if (!grid_accept(g, ')')) {
		grid_fail(g, "%s", "expected ')' after two arguments");
		return NULL;
	}
	return grid_op(g, strcmp(name, "cdiv") == 0 ? "gcdiv" : strcmp(name, "min") == 0 ? "gmin" : "gmax", l, r);
}

static char *
grid_unary(Grid *g)
{
	char *v;

	grid_space(g);
	if (g->logic && g->p[0] == '!' && g->p[1] != '=') {
		g->p++;
		v = grid_unary(g);
		if (v && !g->isbool) {
			grid_fail(g, "%s", "'!' takes a condition, found an integer");
			return NULL;
		}
		if (!v)
			return NULL;
		g->isbool = 1;
		if (g->vals)
			return arena_printf(g->a, "%d", strtoll(v, NULL, 10) == 0);
		return arena_printf(g->a, g->json ? "[\"!\", %s]" : "(!%s)", v);
	}
	if (grid_accept(g, '-')) {
		v = grid_int(g, grid_unary(g));
		return grid_op(g, "gsub", "0", v);
	}
	if (grid_accept(g, '+'))
		return grid_int(g, grid_unary(g));
	return grid_primary(g);
}

static char *
grid_term(Grid *g)
{
	char *l = grid_unary(g), *r;
	const char *fn;

	while (l) {
		if (g->isbool) {
			grid_space(g);
			if (*g->p == '*' || *g->p == '/' || *g->p == '%')
				l = grid_int(g, l);
			break;
		}
		if (grid_accept(g, '*'))
			fn = "gmul";
		else if (grid_accept(g, '/'))
			fn = "gdiv";
		else if (grid_accept(g, '%'))
			fn = "grem";
		else
			break;
		r = grid_int(g, grid_unary(g));
		l = grid_op(g, fn, l, r);
	}
	return l;
}

static char *
grid_expr(Grid *g)
{
	char *l = grid_term(g), *r;
	const char *fn;

	while (l) {
		if (g->isbool) {
			grid_space(g);
			if (*g->p == '+' || *g->p == '-')
				l = grid_int(g, l);
			break;
		}
		if (grid_accept(g, '+'))
			fn = "gadd";
		else if (grid_accept(g, '-'))
			fn = "gsub";
		else
			break;
		r = grid_int(g, grid_term(g));
		l = grid_op(g, fn, l, r);
	}
	return l;
}

/* The two-character operator op, if it comes next. */
static int
grid_accept2(Grid *g, const char *op)
{
	grid_space(g);
	if (g->p[0] != op[0] || g->p[1] != op[1])
		return 0;
	g->p += 2;
	return 1;
}

/* op (a comparison, && or ||) on two evaluated values (conditions are 0 or 1). */
static int
logic_value(const char *op, long long l, long long r)
{
	switch (op[0]) {
	case '<': return op[1] ? l <= r : l < r;
	case '>': return op[1] ? l >= r : l > r;
	case '=': return l == r;
	case '!': return l != r;
	case '&': return l && r;
	default: return l || r;
	}
}

/* l OP r for a comparison, && or ||: C's operator (C's && and || evaluate the right side
 * only when needed, so a guard such as N > 0 && M / N > 4 never divides by zero; grid_join
 * does the same when evaluating), its value, or the JSON form. */
static char *
grid_logic_op(Grid *g, const char *op, const char *l, const char *r)
{
	if (!l || !r)
		return NULL;
	g->isbool = 1;
	if (g->vals)
		return arena_printf(g->a, "%d", logic_value(op, strtoll(l, NULL, 10), strtoll(r, NULL, 10)));
	if (g->json)
		return arena_printf(g->a, "[\"%s\", %s, %s]", op, l, r);
	return arena_printf(g->a, "(%s %s %s)", l, op, r);
}

/* a comparison (not chained), or a sum; == and != also compare two conditions */
static char *
grid_cmp(Grid *g)
{
	static const char *const ops[] = {"<=", ">=", "==", "!=", "<", ">"};
	char *l = grid_expr(g), *r;
	int lbool = g->isbool;
	size_t i;

	if (!l || !g->logic)
		return l;
	for (i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (ops[i][1] ? grid_accept2(g, ops[i]) : (g->p[0] == ops[i][0] && g->p[1] != '=' &&
							   (grid_accept(g, ops[i][0]))))
			break;
	if (i == sizeof ops / sizeof ops[0])
		return l;
	r = grid_expr(g);
	if (r && (lbool != g->isbool || (lbool && i < 2) || (lbool && i > 3))) {
		grid_fail(g, "'%s' compares two integers (== and != also two conditions)", ops[i]);
		return NULL;
	}
	return grid_logic_op(g, ops[i], l, r);
}

/* conditions joined by && (tighter) or || */
static char *
grid_join(Grid *g, const char *op)
{
	int and = strcmp(op, "&&") == 0, lbool, skip = g->skip;
	char *l = and ? grid_cmp(g) : grid_join(g, "&&"), *r;

	while (l && grid_accept2(g, op)) {
		lbool = g->isbool;
		/* evaluating, the right side decides nothing once the left side has */
		if (g->vals && (strtoll(l, NULL, 10) != 0) != and)
			g->skip = 1;
		r = and ? grid_cmp(g) : grid_join(g, "&&");
		g->skip = skip;
		if (r && (!lbool || !g->isbool)) {
			grid_fail(g, "'%s' takes two conditions, found an integer", op);
			return NULL;
		}
		l = grid_logic_op(g, op, l, r);
	}
	return l;
}

static char *
grid_or(Grid *g)
{
	return grid_join(g, "||");
}

/* Translates formula src to a C expression in arena a (or its JSON form); NULL with a
 * message in err. Sets *num_sms (when not NULL) if the formula names num_sms. A condition
 * (logic) must be one: a comparison, &&, || or !. */
static char *
grid_translate(const IrKernel *k, Arena *a, const char *src, unsigned char *used, Buf *err,
	       int *num_sms, const int64_t *vals, int64_t num_sms_val, int logic, int json)
{
	Grid g;
	char *e;

	memset(&g, 0, sizeof g);
	g.vals = vals;
	g.num_sms_val = num_sms_val;
	g.logic = logic;
	g.json = json;
	g.k = k;
	g.a = a;
	g.src = g.p = src ? src : "";
	g.used = used;
	g.err = err;
	e = logic ? grid_or(&g) : grid_expr(&g);
	grid_space(&g);
	if (e && *g.p) {
		grid_fail(&g, "%s", "unexpected text after the expression");
		e = NULL;
	}
	if (e && logic && !g.isbool) {
		g.p = g.src;
		grid_fail(&g, "%s", "expected a condition, found an integer");
		e = NULL;
	}
	if (num_sms && g.num_sms)
		*num_sms = 1;
	return g.failed ? NULL : e;
}

int
host_grid_check(const IrKernel *k, const char *expr, Buf *err)
{
	Arena *a = arena_new();
	char *e = grid_translate(k, a, expr, NULL, err, NULL, NULL, 0, 0, 0);

	arena_free(a);
	return e ? 0 : -1;
}

/* Evaluates a formula (logic: a condition) with the parameters' values: 0 with *out, or
 * -1 with a message in err. */
static int
formula_eval(const IrKernel *k, const char *expr, const int64_t *vals, int64_t num_sms,
	     int logic, int64_t *out, Buf *err)
{
	Arena *a = arena_new();
	char *e = grid_translate(k, a, expr, NULL, err, NULL, vals, num_sms, logic, 0);

	if (e)
		*out = strtoll(e, NULL, 10);
	arena_free(a);
	return e ? 0 : -1;
}

int
host_grid_eval(const IrKernel *k, const char *expr, const int64_t *vals, int64_t num_sms,
	       int64_t *out, Buf *err)
{
	return formula_eval(k, expr, vals, num_sms, 0, out, err);
}

int
host_cond_eval(const IrKernel *k, const char *expr, const int64_t *vals, int64_t num_sms,
	       int *holds, Buf *err)
{
	int64_t v = 0;
	int rc = formula_eval(k, expr, vals, num_sms, 1, &v, err);

	*holds = v != 0;
	return rc;
}

/* ---- the emitter ---- */

typedef struct Emit {
	const IrKernel *k;
	const char *name;       /* the kernel's name, the prefix of every generated name */
	const char **field;     /* param -> C field name */
	int *symno;             /* param -> symbol number (syms), tensor number (tensors) */
	int *bound;             /* sym number -> bound by a tensor shape */
	int *align;             /* tensor number -> required alignment */
	int nsyms, ntensors, ntmaps;
	int num_sms;            /* a grid formula names num_sms */
	char hash[17];
} Emit;

static void
emit_header(Emit *e, Buf *h)
{
	const IrKernel *k = e->k;
	char upper[256];
	int i, d, nfields = 0;

	for (i = 0; k->name[i] && i < (int)sizeof upper - 1; i++)
		upper[i] = (char)(k->name[i] >= 'a' && k->name[i] <= 'z' ? k->name[i] - 32 : k->name[i]);
	upper[i] = 0;
	buf_printf(h, "/* %s.h: launcher for the cakec kernel %s (generated by cakec; do not edit). */\n",
		   e->name, e->name);
	buf_printf(h, "#ifndef CAKE_KERNEL_%s_H\n#define CAKE_KERNEL_%s_H\n\n", upper, upper);
	buf_puts(h, "#include \"cakert.h\"\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");

	buf_printf(h, "/* The arguments of %s, in parameter order. Tensors are DLPack-layout views\n"
		   " * (row-major contiguous, on the current context's device); shape symbols are\n"
		   " * bound from the tensors' shapes.", e->name);
	if (e->ntmaps) {
		buf_puts(h, "\n * TMA tensor maps, which the launcher encodes from their tensors:");
		for (i = d = 0; i < k->nparams; i++)
			if (k->params[i].kind == PARAM_TMAP)
				buf_printf(h, "%s %s over %s", d++ ? "," : "", k->params[i].name,
					   k->params[k->params[i].tmap_tensor].name);
		buf_puts(h, ".");
	}
	buf_puts(h, " */\n");
	buf_printf(h, "typedef struct %s_args {\n", e->name);
	for (i = 0; i < k->nparams; i++) {
		const IrParam *p = &k->params[i];

		if (p->kind == PARAM_TENSOR && p->rank_no > 0)
			continue;       /* a later tensor of a per_rank table: the array has it */
		if (p->kind == PARAM_TENSOR) {
			if (p->ranks)
				buf_printf(h, "\tCakeTensor %.*s[%d];\t/* one per rank: %s %s [",
					   (int)(strchr(e->field[i], '[') - e->field[i]), e->field[i], p->ranks,
					   access_name(p->access), ir_base_name((IrBase)p->type.elem));
			else
				buf_printf(h, "\tCakeTensor %s;\t/* %s %s [", e->field[i], access_name(p->access),
					   ir_base_name((IrBase)p->type.elem));
			for (d = 0; d < p->rank; d++) {
				if (p->dims[d].sym >= 0)
					buf_printf(h, "%s%s", d ? ", " : "", k->params[p->dims[d].sym].name);
				else
					buf_printf(h, "%s%lld", d ? ", " : "", (long long)p->dims[d].size);
			}
			buf_puts(h, "] */\n");
			nfields++;
		} else if (p->kind == PARAM_SCALAR) {
			ScalarABI a = scalar_abi((IrBase)p->type.base);

			buf_printf(h, "\t%s %s;\t/* %s", a.field, e->field[i], ir_base_name((IrBase)p->type.base));
			if (a.checked)
				buf_puts(h, ", range-checked");
			if (p->type.base == IR_F16 || p->type.base == IR_BF16)
				buf_puts(h, " bit pattern");
			buf_puts(h, " */\n");
			nfields++;
		} else if (p->kind == PARAM_SYM && !e->bound[e->symno[i]]) {
			buf_printf(h, "\tint64_t %s;\t/* shape symbol no tensor binds: 0..%s */\n",
				   e->field[i], sym_max(k));
			nfields++;
		}
	}
	if (nfields == 0)
		buf_puts(h, "\tchar unused_;\t/* C has no empty structs */\n");
	buf_printf(h, "} %s_args;\n\n", e->name);

	buf_printf(h, "/* Validates args, computes the grid and launches %s on stream in the current\n"
		   " * CUDA context. Returns CAKE_OK (0) or a CakeStatus, with a message naming the\n"
		   " * parameter in err->msg (err may be NULL). An empty grid launches nothing. */\n",
		   e->name);
	buf_printf(h, "int %s_launch(const %s_args *args, CUstream stream, CakeError *err);\n\n",
		   e->name, e->name);
	buf_printf(h, "/* Validates args without touching the driver and computes the grid the launch\n"
		   " * would use (x, y, z). Returns CAKE_OK or a CakeStatus as %s_launch does. */\n",
		   e->name);
	buf_printf(h, "int %s_grid(const %s_args *args, int64_t grid[3], CakeError *err);\n\n",
		   e->name, e->name);
	buf_puts(h, "/* The kernel's descriptor: symbol, images, threads, shared memory, parameters. */\n");
	buf_printf(h, "extern const CakertKernel %s_kernel;\n\n", e->name);
	buf_printf(h, "#ifdef __cplusplus\n}\n#endif\n\n#endif\n");
}

/* A cluster dimension; a kernel built without the field set counts as 1. */
static int
cluster_dim(const IrKernel *k, int i)
{
	return k->cluster[i] > 0 ? k->cluster[i] : 1;
}

static void
emit_images(Emit *e, const HostImages *img, Buf *c, int *nimages)
{
	int t, n = 0;

	for (t = 0; t < TARGET_COUNT; t++) {
		size_t len;

		if (!img || !img->ptx[t])
			continue;
		len = strlen(img->ptx[t]);
		buf_printf(c, "/* PTX for %s: %zu bytes and a NUL. */\n", ir_target_name(t), len);
		buf_printf(c, "static const unsigned char %s_ptx_%s[%zu] = {\n", e->name,
			   ir_target_name(t), len + 1);
		put_bytes(c, (const unsigned char *)img->ptx[t], len + 1);
		buf_puts(c, "};\n\n");
		if (img->cubin[t] && img->cubin_len[t]) {
			buf_printf(c, "/* cubin for %s: %zu bytes. */\n", ir_target_name(t), img->cubin_len[t]);
			buf_printf(c, "static const unsigned char %s_cubin_%s[%zu] = {\n", e->name,
				   ir_target_name(t), img->cubin_len[t]);
			put_bytes(c, img->cubin[t], img->cubin_len[t]);
			buf_puts(c, "};\n\n");
		}
	}
	for (t = 0; t < TARGET_COUNT; t++) {
		if (!img || !img->ptx[t])
			continue;
		if (n++ == 0)
			buf_printf(c, "static const CakertImage %s_images[] = {\n", e->name);
		/* CAKERT_<ID>: the runtime's name for the target (ir/targets.def) */
		buf_printf(c, "\t{CAKERT_%s, (const char *)%s_ptx_%s, ", ir_targets[t].id, e->name,
			   ir_target_name(t));
		if (img->cubin[t] && img->cubin_len[t])
			buf_printf(c, "%s_cubin_%s, sizeof %s_cubin_%s},\n", e->name, ir_target_name(t),
				   e->name, ir_target_name(t));
		else
			buf_puts(c, "NULL, 0},\n");
	}
	if (n)
		buf_puts(c, "};\n\n");
	*nimages = n;
}

static void
emit_descriptor(Emit *e, const HostImages *img, const char *symbol, Buf *c)
{
	const IrKernel *k = e->k;
	int i, d, n, nimages;

	emit_images(e, img, c, &nimages);
	if (e->ntensors) {
		buf_puts(c, "/* name, dtype code and bits, access, alignment, rank, dims ({sym, 0} or\n"
			 " * {-1, size}) */\n");
		buf_printf(c, "static const CakertTensorSpec %s_tensors[%d] = {\n", e->name, e->ntensors);
		for (i = 0; i < k->nparams; i++) {
			const IrParam *p = &k->params[i];
			const char *code;
			int bits;

			if (p->kind != PARAM_TENSOR)
				continue;
			dlpack_dtype((IrBase)p->type.elem, &code, &bits);
			buf_puts(c, "\t{\"");
			put_cstr(c, p->ranks ? e->field[i] : p->name);     /* a table's: "a[2]" */
			buf_printf(c, "\", %s, %d, CAKERT_%s, %d, %d, {", code, bits,
				   p->access == ACC_OUT ? "OUT" : p->access == ACC_INOUT ? "INOUT" : "IN",
				   e->align[e->symno[i]], p->rank);
			for (d = 0; d < IR_MAX_RANK; d++) {
				if (d < p->rank && p->dims[d].sym >= 0)
					buf_printf(c, "%s{%d, 0}", d ? ", " : "", e->symno[p->dims[d].sym]);
				else
					buf_printf(c, "%s{-1, %lld}", d ? ", " : "",
						   d < p->rank ? (long long)p->dims[d].size : 0LL);
			}
			buf_puts(c, "}},\n");
		}
		buf_puts(c, "};\n\n");
	}
	if (e->nsyms) {
		buf_printf(c, "static const char *const %s_syms[%d] = {", e->name, e->nsyms);
		for (i = n = 0; i < k->nparams; i++) {
			if (k->params[i].kind != PARAM_SYM)
				continue;
			buf_puts(c, n++ ? ", \"" : "\"");
			put_cstr(c, k->params[i].name);
			buf_puts(c, "\"");
		}
		buf_puts(c, "};\n\n");
	}
	if (e->ntmaps) {
		buf_puts(c, "/* name, parameter, tensor, element type, rank, box (row-major), swizzle bytes,\n"
			 " * out-of-bounds NaN */\n");
		buf_printf(c, "static const CakertTmapSpec %s_tmaps[%d] = {\n", e->name, e->ntmaps);
		for (i = 0; i < k->nparams; i++) {
			const IrParam *p = &k->params[i];

			if (p->kind != PARAM_TMAP)
				continue;
			buf_puts(c, "\t{\"");
			put_cstr(c, p->name);
			buf_printf(c, "\", %d, %d, %s, %d, {", i, e->symno[p->tmap_tensor],
				   tma_dtype((IrBase)k->params[p->tmap_tensor].type.elem), p->rank);
			for (d = 0; d < 5; d++)
				buf_printf(c, "%s%lld", d ? ", " : "", d < p->rank ? (long long)p->dims[d].size : 0LL);
			buf_printf(c, "}, %d, %d},\n", p->swizzle, p->oob_nan);
		}
		buf_puts(c, "};\n\n");
	}
	buf_printf(c, "const CakertKernel %s_kernel = {\n\t\"%s\",\n\t\"", e->name, e->name);
	put_cstr(c, symbol);
	buf_printf(c, "\",\n\t\"%s\",\n", e->hash);
	buf_printf(c, "\t{%d, %d, %d},\t/* threads */\n", k->threads[0], k->threads[1], k->threads[2]);
	buf_printf(c, "\t{%d, %d, %d},\t/* cluster */\n", cluster_dim(k, 0), cluster_dim(k, 1),
		   cluster_dim(k, 2));
	buf_printf(c, "\t%lld,\t/* dynamic shared memory bytes */\n", (long long)k->smem_bytes);
	buf_puts(c, "\t{");
	for (i = 0; i < 3; i++) {
		buf_puts(c, i ? ", \"" : "\"");
		put_cstr(c, k->grid[i] ? k->grid[i] : "1");
		buf_puts(c, "\"");
	}
	buf_puts(c, "},\n");
	if (nimages)
		buf_printf(c, "\t%d, %s_images,\n", nimages, e->name);
	else
		buf_puts(c, "\t0, NULL,\n");
	if (e->ntensors)
		buf_printf(c, "\t%d, %s_tensors,\n", e->ntensors, e->name);
	else
		buf_puts(c, "\t0, NULL,\n");
	if (e->nsyms)
		buf_printf(c, "\t%d, %s_syms,\n", e->nsyms, e->name);
	else
		buf_puts(c, "\t0, NULL,\n");
	if (e->ntmaps)
		buf_printf(c, "\t%d, %s_tmaps,\n", e->ntmaps, e->name);
	else
		buf_puts(c, "\t0, NULL,\n");
	buf_printf(c, "\t%d,\t/* launch(dependent) */\n", k->dependent);
	buf_puts(c, "};\n\n");
}

/* Points t[] at args' tensors and checks them (binding sym[]), the tensor maps (with_tmaps)
 * and the scalars: what every use of the arguments does first (_prepare, an entry point's
 * conditions). A condition does not check the maps: it speaks of shapes, and an instance
 * whose maps some shapes cannot make (TMA's 16-byte row pitch) says so in its condition,
 * so that the entry passes over it; the chosen instance's launch checks its maps. */
static void
emit_checks(const Emit *e, int with_tmaps, Buf *c)
{
	const IrKernel *k = e->k;
	int i;

	for (i = 0; i < k->nparams; i++)
		if (k->params[i].kind == PARAM_TENSOR)
			buf_printf(c, "\tt[%d] = &args->%s;\n", e->symno[i], e->field[i]);
	/* index(i64) lifts the i32 limits on shapes */
	buf_printf(c, "\tif ((rc = cakert_check_tensors%s(&%s_kernel, t, sym, err)) != CAKE_OK)\n"
		   "\t\treturn rc;\n", k->index64 ? "_i64" : "", e->name);
	if (e->ntmaps && with_tmaps)
		buf_printf(c, "\tif ((rc = cakert_check_tmaps(&%s_kernel, t, err)) != CAKE_OK)\n"
			   "\t\treturn rc;\n", e->name);
	for (i = 0; i < k->nparams; i++) {
		const IrParam *p = &k->params[i];

		if (p->kind == PARAM_SCALAR) {
			ScalarABI sa = scalar_abi((IrBase)p->type.base);

			if (!sa.checked)
				continue;
			buf_printf(c, "\tif ((rc = cakert_check_int(&%s_kernel, \"", e->name);
			put_cstr(c, p->name);
			buf_printf(c, "\", args->%s, %s, %s, \"%s\", err)) != CAKE_OK)\n\t\treturn rc;\n",
				   e->field[i], sa.lo, sa.hi, ir_base_name((IrBase)p->type.base));
		} else if (p->kind == PARAM_SYM && !e->bound[e->symno[i]]) {
			buf_printf(c, "\tif ((rc = cakert_check_int(&%s_kernel, \"", e->name);
			put_cstr(c, p->name);
			buf_printf(c, "\", args->%s, 0, %s, \"sym\", err)) != CAKE_OK)\n\t\treturn rc;\n"
				   "\tsym[%d] = args->%s;\n", e->field[i], sym_max(k), e->symno[i], e->field[i]);
		}
	}
}

/* The int64 locals a formula's C reads (v_<name> for each parameter in used, g_num_sms
 * where e->num_sms), declared at the top of a block after emit_checks; g_num_sms is set by
 * emit_num_sms. */
static void
emit_values(const Emit *e, const unsigned char *used, Buf *c)
{
	const IrKernel *k = e->k;
	int i;

	for (i = 0; i < k->nparams; i++) {
		const IrParam *p = &k->params[i];

		if (!used[i])
			continue;
		if (p->kind == PARAM_SYM)
			buf_printf(c, "\t\tconst int64_t v_%s = sym[%d];\n", p->name, e->symno[i]);
		else
			buf_printf(c, "\t\tconst int64_t v_%s = args->%s;\n", p->name, e->field[i]);
	}
	if (e->num_sms)
		buf_puts(c, "\t\tint64_t g_num_sms;\t/* the device's SM count */\n");
}

/* The query of g_num_sms (where e->num_sms): after the checks of the arguments that do not
 * read it, so that bad arguments are reported without a GPU. */
static void
emit_num_sms(const Emit *e, Buf *c)
{
	if (e->num_sms)
		buf_printf(c, "\n\t\tif ((rc = cakert_num_sms(&%s_kernel, &g_num_sms, err)) != CAKE_OK)\n"
			   "\t\t\treturn rc;\n", e->name);
}

/* Whether s is one parenthesized whole, "(a && (b))" (1), not "(a) && (b)" (0). */
static int
wrapped(const char *s)
{
	size_t i, n = strlen(s);
	int depth = 0;

	if (n < 2 || s[0] != '(' || s[n - 1] != ')')
		return 0;
	for (i = 0; i < n - 1; i++) {
		depth += s[i] == '(';
		depth -= s[i] == ')';
		if (depth == 0)
			return 0;
	}
	return 1;
}

/* The refusal of arguments that break the kernel's requires(...): expr is the translated
 * condition, used the parameters it names (their values, in the message). A condition
 * that divides by zero or overflows does not hold either. */
static void
emit_requires(const Emit *e, const char *expr, const unsigned char *used, Buf *c)
{
	const IrKernel *k = e->k;
	int i, n = 0;
	Buf t = {0};
	const char *text;

	/* the formula wraps each operation in parentheses: drop the outermost pair */
	buf_printf(&t, "%.*s", (int)(strlen(k->requires) - 2 * wrapped(k->requires)),
		   k->requires + wrapped(k->requires));
	text = t.s;

	buf_printf(c, "\n\t\t/* requires(%s) */\n\t\tif (!(%s)%s)\n", text, expr,
		   strstr(expr, "&ok") ? " || !ok" : "");
	buf_printf(c, "\t\t\treturn cakert_fail(err, CAKE_ERR_SHAPE, \"%s: the arguments break requires(",
		   e->name);
	put_cfmt(c, text);
	buf_puts(c, "): ");
	for (i = 0; i < k->nparams; i++)
		if (used[i])
			buf_printf(c, "%s%s = %%lld", n++ ? ", " : "", k->params[i].name);
	if (e->num_sms && strstr(expr, "g_num_sms"))
		buf_printf(c, "%snum_sms = %%lld", n++ ? ", " : "");
	buf_puts(c, "\"");
	for (i = 0; i < k->nparams; i++)
		if (used[i])
			buf_printf(c, ",\n\t\t\t    (long long)v_%s", k->params[i].name);
	if (e->num_sms && strstr(expr, "g_num_sms"))
		buf_puts(c, ",\n\t\t\t    (long long)g_num_sms");
	buf_puts(c, ");\n");
	buf_free(&t);
}

/* The validation and grid code shared by _grid and _launch; expr holds the translated
 * grid formulas and the requires(...) condition (NULL: none), used the parameters they
 * name and rused those the condition names. */
static void
emit_prepare(Emit *e, char *const *expr, const unsigned char *used, const unsigned char *rused,
	     Buf *c)
{
	const IrKernel *k = e->k;
	int i, sms_first;

	buf_puts(c, "/* Checks args (no driver needed), binds the shape symbols and computes the grid. */\n");
	buf_printf(c, "static int\n%s_prepare(const %s_args *args, const CakeTensor **t, int64_t *sym,\n"
		   "\t\tint64_t grid[3], CakeError *err)\n{\n", e->name, e->name);
	if (strstr(expr[0], "&ok") || strstr(expr[1], "&ok") || strstr(expr[2], "&ok") ||
	    (expr[3] && strstr(expr[3], "&ok")))
		buf_puts(c, "\tint ok = 1;\n");
	buf_puts(c, "\tint rc;\n\n");
	buf_printf(c, "\tif (!args)\n\t\treturn cakert_fail(err, CAKE_ERR_NULL, \"%s: args is NULL\");\n",
		   e->name);
	emit_checks(e, 1, c);
	buf_puts(c, "\t{\n");
	emit_values(e, used, c);
	/* the condition before the SM count's query, unless it reads it */
	sms_first = expr[3] && strstr(expr[3], "g_num_sms");
	if (expr[3] && !sms_first)
		emit_requires(e, expr[3], rused, c);
	emit_num_sms(e, c);
	if (sms_first)
		emit_requires(e, expr[3], rused, c);
	for (i = 0; i < 3; i++) {
		/* a formula that parsed cannot contain a comment delimiter */
		buf_printf(c, "\n\t\t/* %c: %s */\n\t\tgrid[%d] = %s;\n", "xyz"[i],
			   k->grid[i] ? k->grid[i] : "1", i, expr[i]);
		if (strstr(expr[i], "&ok"))
			buf_printf(c, "\t\tif (!ok)\n\t\t\treturn cakert_grid_error(&%s_kernel, %d, err);\n",
				   e->name, i);
	}
	buf_puts(c, "\t}\n");
	buf_printf(c, "\treturn cakert_check_grid(&%s_kernel, grid, err);\n}\n\n", e->name);
}

static void
emit_entry_points(Emit *e, Buf *c)
{
	const IrKernel *k = e->k;
	int i, nt = e->ntensors ? e->ntensors : 1, ns = e->nsyms ? e->nsyms : 1;
	int np = k->nparams ? k->nparams : 1;

	/* sym[] starts unbound (-1); t[] is filled by _prepare */
	buf_printf(c, "int\n%s_grid(const %s_args *args, int64_t grid[3], CakeError *err)\n{\n",
		   e->name, e->name);
	buf_printf(c, "\tconst CakeTensor *t[%d] = {NULL};\n\tint64_t sym[%d] = {", nt, ns);
	for (i = 0; i < ns; i++)
		buf_puts(c, i ? ", -1" : "-1");
	buf_printf(c, "};\n\n\tcakert_clear(err);\n\treturn %s_prepare(args, t, sym, grid, err);\n}\n\n",
		   e->name);

	buf_printf(c, "int\n%s_launch(const %s_args *args, CUstream stream, CakeError *err)\n{\n",
		   e->name, e->name);
	buf_printf(c, "\tconst CakeTensor *t[%d] = {NULL};\n\tint64_t sym[%d] = {", nt, ns);
	for (i = 0; i < ns; i++)
		buf_puts(c, i ? ", -1" : "-1");
	buf_puts(c, "};\n\tint64_t grid[3];\n");
	for (i = 0; i < k->nparams; i++) {
		const IrParam *p = &k->params[i];

		if (p->kind == PARAM_TENSOR)
			buf_printf(c, "\tCUdeviceptr p_%s;\n", p->name);
		else if (p->kind == PARAM_SYM)
			buf_printf(c, "\t%s p_%s;\n", k->index64 ? "int64_t" : "int32_t", p->name);
		else if (p->kind == PARAM_SCALAR)
			buf_printf(c, "\t%s p_%s;\n", scalar_abi((IrBase)p->type.base).pass, p->name);
	}
	if (e->ntmaps)
		buf_printf(c, "\t/* the tensor maps, which cakert_launch encodes; 128-byte aligned by hand\n"
			   "\t * (cuTensorMapEncodeTiled needs 64, C11's CUtensorMap has 128, C99 has no\n"
			   "\t * alignas) */\n"
			   "\tunsigned char tmap_bytes[%d * sizeof(CUtensorMap) + 128];\n"
			   "\tCUtensorMap *tmaps = (CUtensorMap *)(void *)(tmap_bytes +\n"
			   "\t\t(128 - (uintptr_t)tmap_bytes %% 128) %% 128);\n", e->ntmaps);
	buf_printf(c, "\tvoid *params[%d];\n\tint rc;\n\n", np);
	buf_printf(c, "\tcakert_clear(err);\n"
		   "\tif ((rc = %s_prepare(args, t, sym, grid, err)) != CAKE_OK)\n\t\treturn rc;\n"
		   "\tif (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)\n"
		   "\t\treturn CAKE_OK;\t/* an empty grid: nothing to do */\n", e->name);
	for (i = 0; i < k->nparams; i++) {
		const IrParam *p = &k->params[i];

		if (p->kind == PARAM_TENSOR)
			buf_printf(c, "\tp_%s = cakert_tensor_ptr(&args->%s);\n", p->name, e->field[i]);
		else if (p->kind == PARAM_SYM)
			buf_printf(c, k->index64 ? "\tp_%s = sym[%d];\n" : "\tp_%s = (int32_t)sym[%d];\n",
				   p->name, e->symno[i]);
		else if (p->kind == PARAM_SCALAR)
			buf_printf(c, "\tp_%s = (%s)args->%s;\n", p->name,
				   scalar_abi((IrBase)p->type.base).pass, e->field[i]);
	}
	if (k->nparams == 0)
		buf_puts(c, "\tparams[0] = NULL;\n");
	for (i = 0; i < k->nparams; i++) {
		if (k->params[i].kind == PARAM_TMAP)
			buf_printf(c, "\tparams[%d] = &tmaps[%d];\t/* %s */\n", i, e->symno[i],
				   k->params[i].name);
		else
			buf_printf(c, "\tparams[%d] = &p_%s;\n", i, k->params[i].name);
	}
	buf_printf(c, "\treturn cakert_launch(&%s_kernel, t, grid, stream, params, err);\n}\n",
		   e->name);
}

/* The entry is indented to sit inside the driver's top-level array. */
static void
emit_manifest(Emit *e, const HostImages *img, const char *symbol, Buf *m)
{
	const IrKernel *k = e->k;
	int i, d, t, n;

	buf_puts(m, "{\n    \"kernel\": ");
	put_json(m, k->name);
	buf_puts(m, ",\n    \"symbol\": ");
	put_json(m, symbol);
	buf_printf(m, ",\n    \"hash\": \"%s\",\n", e->hash);
	if (k->source) {
		buf_puts(m, "    \"source\": ");
		put_json(m, k->source);
		buf_puts(m, ",\n");
	}
	buf_puts(m, "    \"targets\": [");
	for (t = n = 0; t < TARGET_COUNT; t++)
		if (img && img->ptx[t])
			buf_printf(m, "%s\"%s\"", n++ ? ", " : "", ir_target_name(t));
	buf_puts(m, "],\n    \"cubins\": [");
	for (t = n = 0; t < TARGET_COUNT; t++)
		if (img && img->ptx[t] && img->cubin[t] && img->cubin_len[t])
			buf_printf(m, "%s\"%s\"", n++ ? ", " : "", ir_target_name(t));
	buf_printf(m, "],\n    \"threads\": [%d, %d, %d],\n", k->threads[0], k->threads[1], k->threads[2]);
	buf_printf(m, "    \"cluster\": [%d, %d, %d],\n    \"grid\": [", cluster_dim(k, 0),
		   cluster_dim(k, 1), cluster_dim(k, 2));
	for (i = 0; i < 3; i++) {
		if (i)
			buf_puts(m, ", ");
		put_json(m, k->grid[i] ? k->grid[i] : "1");
	}
	buf_printf(m, "],\n    \"smem_bytes\": %lld,\n", (long long)k->smem_bytes);
	if (k->dependent)
		buf_puts(m, "    \"launch\": \"dependent\",\n");
	if (k->requires) {
		buf_puts(m, "    \"requires\": ");
		put_json(m, k->requires);
		buf_puts(m, ",\n");
	}
	buf_puts(m, "    \"params\": [");
	for (i = 0; i < k->nparams; i++) {
		const IrParam *p = &k->params[i];

		buf_puts(m, i ? ",\n      {\"name\": " : "\n      {\"name\": ");
		put_json(m, p->name);
		if (p->kind == PARAM_TENSOR) {
			buf_printf(m, ", \"kind\": \"tensor\", \"dtype\": \"%s\", \"access\": \"%s\", \"shape\": [",
				   ir_base_name((IrBase)p->type.elem), access_name(p->access));
			for (d = 0; d < p->rank; d++) {
				if (d)
					buf_puts(m, ", ");
				if (p->dims[d].sym >= 0)
					put_json(m, k->params[p->dims[d].sym].name);
				else
					buf_printf(m, "%lld", (long long)p->dims[d].size);
			}
			buf_printf(m, "], \"align\": %d", e->align[e->symno[i]]);
			if (p->ranks) {     /* a per_rank table's tensor: the args struct's array element */
				buf_puts(m, ", \"table\": ");
				put_json(m, table_name(k, p));
				buf_printf(m, ", \"field\": \"%s\", \"rank\": %d, \"ranks\": %d", e->field[i], p->rank_no,
					   p->ranks);
			}
			buf_puts(m, "}");
		} else if (p->kind == PARAM_TMAP) {
			buf_puts(m, ", \"kind\": \"tmap\", \"tensor\": ");
			put_json(m, k->params[p->tmap_tensor].name);
			buf_puts(m, ", \"box\": [");
			for (d = 0; d < p->rank; d++)
				buf_printf(m, "%s%lld", d ? ", " : "", (long long)p->dims[d].size);
			buf_printf(m, "], \"swizzle\": %d, \"oob\": \"%s\"}", p->swizzle,
				   p->oob_nan ? "nan" : "zero");
		} else {
			buf_printf(m, ", \"kind\": \"%s\", \"dtype\": \"%s\"}",
				   p->kind == PARAM_SYM ? "sym" : "scalar",
				   ir_base_name((IrBase)p->type.base));
		}
	}
	buf_puts(m, k->nparams ? "\n    ]\n  }" : "]\n  }");
}

/* Reports what cuTensorMapEncodeTiled would refuse about tensor map p whatever the
 * tensor's extents and the verifier does not check (it checks the box: rank, dims, inner
 * bytes, swizzle): a fixed inner extent whose rows are not a multiple of 16 bytes, and a
 * NaN fill of integers. Returns the number of errors. */
static int
check_tmap(const IrKernel *k, const IrParam *p)
{
	const IrParam *t;
	int bytes, n = 0;
	int64_t row;

	if (p->tmap_tensor < 0 || p->tmap_tensor >= k->nparams ||
	    k->params[p->tmap_tensor].kind != PARAM_TENSOR)
		ICE("kernel %s: tensor map '%s' names parameter %d, which is not a tensor", k->name,
		    p->name, p->tmap_tensor);
	t = &k->params[p->tmap_tensor];
	if (p->rank != t->rank || p->rank < 1 || p->rank > 5 || !tma_dtype((IrBase)t->type.elem))
		ICE("kernel %s: tensor map '%s' has rank %d over the %d-D %s tensor '%s'", k->name,
		    p->name, p->rank, t->rank, ir_base_name((IrBase)t->type.elem), t->name);
	bytes = ir_type_bytes(ir_scalar((IrBase)t->type.elem));
	if (p->oob_nan && !ir_is_float(ir_scalar((IrBase)t->type.elem))) {
		diag_error(p->loc, "tensor map '%s' fills out-of-bounds elements with NaN, but '%s' holds %s; NaN fill needs a float type",
			   p->name, t->name, ir_base_name((IrBase)t->type.elem));
		n++;
	}
	row = t->dims[t->rank - 1].size * bytes;
	if (t->rank > 1 && t->dims[t->rank - 1].sym < 0 && row % 16 != 0) {
		diag_error(p->loc, "row stride of %s is %lld bytes; TMA needs a multiple of 16: shape[%d] = %lld must be a multiple of %d for %s (tensor map '%s')",
			   t->name, (long long)row, t->rank - 1, (long long)t->dims[t->rank - 1].size,
			   16 / bytes, ir_base_name((IrBase)t->type.elem), p->name);
		n++;
	}
	return n;
}

/* e's facts about k's parameters: field names, symbol and tensor numbers, which symbols a
 * tensor binds (in k's arena). */
static void
emit_init(Emit *e, const IrKernel *k)
{
	int i, d;

	memset(e, 0, sizeof *e);
	e->k = k;
	e->name = k->name;
	e->field = arena_alloc(k->arena, sizeof *e->field * (size_t)(k->nparams + 1));
	e->symno = arena_alloc(k->arena, sizeof *e->symno * (size_t)(k->nparams + 1));
	e->bound = arena_alloc(k->arena, sizeof *e->bound * (size_t)(k->nparams + 1));
	e->align = arena_alloc(k->arena, sizeof *e->align * (size_t)(k->nparams + 1));
	for (i = 0; i < k->nparams; i++) {
		const IrParam *p = &k->params[i];

		e->field[i] = field_name(k, p->name);
		if (p->kind == PARAM_TENSOR && p->ranks)
			e->field[i] = table_field(k, p);
		if (p->kind == PARAM_SYM)
			e->symno[i] = e->nsyms++;
		else if (p->kind == PARAM_TENSOR)
			e->symno[i] = e->ntensors++;
		else if (p->kind == PARAM_TMAP)
			e->symno[i] = e->ntmaps++;
	}
	for (i = 0; i < k->nparams; i++)
		for (d = 0; k->params[i].kind == PARAM_TENSOR && d < k->params[i].rank; d++) {
			int s = k->params[i].dims[d].sym;

			if (s >= 0 && (s >= k->nparams || k->params[s].kind != PARAM_SYM))
				ICE("kernel %s: tensor '%s' dim %d names parameter %d, which is not a sym",
				    k->name, k->params[i].name, d, s);
			if (s >= 0)
				e->bound[e->symno[s]] = 1;
		}
}

void
host_emit(const IrKernel *k, const char *symbol, uint64_t hash, const HostImages *img,
	  Buf *h, Buf *c, Buf *manifest)
{
	Emit e;
	Arena *a;
	int *pal;
	unsigned char *used, *rused;
	char *expr[4];
	Buf err = {0};
	int i, num_sms = 0, bad = 0;

	for (i = 0; i < k->nparams; i++)
		if (k->params[i].kind == PARAM_TMAP)
			bad += check_tmap(k, &k->params[i]);
	if (bad)
		return;
	/* A formula naming something that is not a sym or integer scalar is the user's
	 * error (the verifier does not parse formulas): report it and emit nothing. */
	a = arena_new();
	used = arena_alloc(a, (size_t)k->nparams + 1);
	rused = arena_alloc(a, (size_t)k->nparams + 1);
	expr[3] = NULL;
	for (i = 0; i < 4; i++) {
		if (i < 3)
			expr[i] = grid_translate(k, a, k->grid[i] ? k->grid[i] : "1", used, &err, &num_sms,
						 NULL, 0, 0, 0);
		else if (k->requires)
			expr[i] = grid_translate(k, a, k->requires, rused, &err, &num_sms, NULL, 0, 1, 0);
		else
			break;
		if (!expr[i]) {
			SrcLoc loc = {k->file, 0, 0, 0};

			diag_error(loc, "kernel %s: %s", k->name, err.s);
			buf_free(&err);
			arena_free(a);
			return;
		}
	}

	emit_init(&e, k);
	e.num_sms = num_sms;
	snprintf(e.hash, sizeof e.hash, "%016llx", (unsigned long long)hash);

	pal = arena_alloc(a, sizeof *pal * (size_t)(k->nparams + 1));
	ir_tensor_aligns(k, pal);
	for (i = 0; i < k->nparams; i++)
		if (k->params[i].kind == PARAM_TENSOR)
			e.align[e.symno[i]] = pal[i];

	emit_header(&e, h);

	buf_printf(c, "/* %s.c: launcher for the cakec kernel %s (generated by cakec; do not edit).\n",
		   e.name, e.name);
	if (k->source) {
		buf_puts(c, " * Source: ");
		put_cstr(c, k->source);
		buf_puts(c, "\n");
	}
	buf_puts(c, " * Device symbol: ");
	put_cstr(c, symbol);
	buf_printf(c, "; content hash: %s. */\n", e.hash);
	buf_printf(c, "#include \"%s.h\"\n\n", e.name);
	buf_puts(c, "#include <stddef.h>\n#include <stdint.h>\n\n");
	buf_puts(c, "#if CAKERT_ABI_VERSION != 2\n#error \"generated for cakert ABI version 2\"\n#endif\n\n");
	emit_descriptor(&e, img, symbol, c);
	for (i = 0; i < k->nparams; i++)
		used[i] |= rused[i];
	emit_prepare(&e, expr, used, rused, c);
	emit_entry_points(&e, c);
	emit_manifest(&e, img, symbol, manifest);
	arena_free(a);
}

/* ---- entry points ---- */

/* Whether the entry point chooses by dimension d of tensor parameter i: it is a constant
 * in some instance and, in another, a shape symbol or another constant. */
static int
entry_dim_chooses(const IrEntry *e, IrKernel *const *insts, int i, int d)
{
	const IrDim *first = &insts[0]->params[i].dims[d];
	int j;

	for (j = 1; j < e->ninst; j++) {
		const IrDim *o = &insts[j]->params[i].dims[d];

		if ((first->sym < 0 || o->sym < 0) && (first->sym >= 0 || o->sym >= 0 || first->size != o->size))
			return 1;
	}
	return 0;
}

/* Whether the entry point chooses by any dimension. */
static int
entry_by_dims(const IrEntry *e, IrKernel *const *insts)
{
	int i, d;

	for (i = 0; i < insts[0]->nparams; i++)
		for (d = 0; insts[0]->params[i].kind == PARAM_TENSOR && d < insts[0]->params[i].rank; d++)
			if (entry_dim_chooses(e, insts, i, d))
				return 1;
	return 0;
}

/* The condition that args' tensors have instance j's element types and the constant
 * dimensions the entry point chooses by. A tensor of another rank, or without a shape,
 * passes here: the instance's launcher refuses it with its own error. */
static void
entry_match(const IrEntry *e, IrKernel *const *insts, int j, int types_only, Buf *c)
{
	const IrKernel *k = insts[j];
	int i, d, n = 0;

	for (i = 0; i < k->nparams; i++) {
		const IrParam *p = &k->params[i];
		const char *code, *f = field_name(k, p->name);
		int bits;

		if (p->kind != PARAM_TENSOR)
			continue;
		dlpack_dtype((IrBase)p->type.elem, &code, &bits);
		buf_printf(c, "%s\n\t    args->%s.dtype.code == %s && args->%s.dtype.bits == %d",
			   n++ ? " &&" : "", f, code, f, bits);
		for (d = 0; !types_only && d < p->rank; d++)
			if (p->dims[d].sym < 0 && entry_dim_chooses(e, insts, i, d))
				buf_printf(c, " &&\n\t    (args->%s.ndim != %d || !args->%s.shape || args->%s.shape[%d] == %lld)",
					   f, p->rank, f, f, d, (long long)p->dims[d].size);
	}
	if (!n)
		buf_puts(c, " 1");
}

/* The first dimension the entry point chooses by that is the same as dimension d of
 * parameter i in every instance (gdp's T is dimension 1 of q, k, v, g, beta and o: q's):
 * into *ri, *rd. Only that one is named in messages. */
static void
entry_dim_rep(const IrEntry *e, IrKernel *const *insts, int i, int d, int *ri, int *rd)
{
	int i2, d2, j;

	for (i2 = 0; i2 <= i; i2++)
		for (d2 = 0; insts[0]->params[i2].kind == PARAM_TENSOR && d2 < insts[0]->params[i2].rank &&
		     (i2 < i || d2 < d); d2++) {
			if (!entry_dim_chooses(e, insts, i2, d2))
				continue;
			for (j = 0; j < e->ninst; j++) {
				const IrDim *x = &insts[j]->params[i].dims[d], *y = &insts[j]->params[i2].dims[d2];

				if ((x->sym < 0) != (y->sym < 0) || (x->sym < 0 && x->size != y->size))
					break;
			}
			if (j == e->ninst) {
				*ri = i2;
				*rd = d2;
				return;
			}
		}
	*ri = i;
	*rd = d;
}

/* Whether dimension d of parameter i is one the entry point chooses by and names. */
static int
entry_dim_named(const IrEntry *e, IrKernel *const *insts, int i, int d)
{
	int ri, rd;

	if (!entry_dim_chooses(e, insts, i, d))
		return 0;
	entry_dim_rep(e, insts, i, d, &ri, &rd);
	return ri == i && rd == d;
}

/* The dimensions the entry's messages name, "x.shape[1]" or "(q.shape[1], k.shape[2])";
 * with k, instance k's values instead, "2" or "(2, 1)" (a shape symbol's name where it
 * has one). */
static void
entry_dims(const IrEntry *e, IrKernel *const *insts, const IrKernel *k, Buf *c)
{
	const IrKernel *first = insts[0];
	int i, d, n = 0;
	Buf b = {0};

	for (i = 0; i < first->nparams; i++)
		for (d = 0; first->params[i].kind == PARAM_TENSOR && d < first->params[i].rank; d++) {
			const IrDim *x = k ? &k->params[i].dims[d] : NULL;

			if (!entry_dim_named(e, insts, i, d))
				continue;
			if (!k)
				buf_printf(&b, "%s%s.shape[%d]", n++ ? ", " : "", first->params[i].name, d);
			else if (x->sym >= 0)
				buf_printf(&b, "%s%s", n++ ? ", " : "", k->params[x->sym].name);
			else
				buf_printf(&b, "%s%lld", n++ ? ", " : "", (long long)x->size);
		}
	buf_printf(c, n > 1 ? "(%s)" : "%s", b.s ? b.s : "");
	buf_free(&b);
}

/* "a: bf16, b: bf16, c: f32": instance k's tensor element types, for messages. */
static void
entry_types(const IrKernel *k, Buf *c)
{
	int i, n = 0;

	for (i = 0; i < k->nparams; i++)
		if (k->params[i].kind == PARAM_TENSOR)
			buf_printf(c, "%s%s: %s", n++ ? ", " : "", k->params[i].name,
				   ir_base_name((IrBase)k->params[i].type.elem));
}

/* " a: f32, b: f32; a: bf16, b: bf16": the element types the entry's instances take,
 * each combination once, in order. */
static void
entry_types_once(const IrEntry *e, IrKernel *const *insts, Buf *c)
{
	Buf *t = xcalloc((size_t)e->ninst, sizeof *t);
	int i, j, n = 0;

	for (j = 0; j < e->ninst; j++) {
		entry_types(insts[j], &t[j]);
		for (i = 0; i < j && strcmp(t[i].s ? t[i].s : "", t[j].s ? t[j].s : "") != 0; i++)
			;
		if (i == j)
			buf_printf(c, "%s%s", n++ ? "; " : " ", t[j].s ? t[j].s : "");
	}
	for (j = 0; j < e->ninst; j++)
		buf_free(&t[j]);
	free(t);
}


/* <inst>_when(args, &holds, err), for instance j of entry en, which has a condition:
 * checks the arguments and binds the shape symbols as the instance's launcher does (the
 * same checks, the same errors), then evaluates the condition in int64; division by zero
 * or overflow is CAKE_ERR_GRID, naming the values. Returns 0 after reporting a condition
 * that does not translate (sema checked it: a compiler bug). */
static int
entry_when(const IrEntry *en, int j, const IrKernel *k, Buf *c)
{
	Emit e;
	Arena *a = arena_new();
	unsigned char *used = arena_alloc(a, (size_t)k->nparams + 1);
	Buf err = {0};
	int i, n = 0, num_sms = 0;
	char *expr = grid_translate(k, a, en->when[j], used, &err, &num_sms, NULL, 0, 1, 0);

	if (!expr) {
		SrcLoc loc = {k->file, 0, 0, 0};

		diag_error(loc, "entry point %s, instance %s: %s", en->name, k->name, err.s);
		buf_free(&err);
		arena_free(a);
		return 0;
	}
	emit_init(&e, k);
	e.num_sms = num_sms;
	buf_printf(c, "/* Whether the condition of %s holds:\n *   %s\n"
		   " * after checking args as its launcher does, but for tensor maps; CAKE_ERR_GRID\n"
		   " * if the condition divides by zero or overflows int64. */\n",
		   k->name, en->when_text[j] ? en->when_text[j] : en->when[j]);
	buf_printf(c, "static int\n%s_when(const %s_args *args, int *holds, CakeError *err)\n{\n",
		   k->name, en->name);
	buf_printf(c, "\tconst CakeTensor *t[%d] = {NULL};\n\tint64_t sym[%d] = {",
		   e.ntensors ? e.ntensors : 1, e.nsyms ? e.nsyms : 1);
	for (i = 0; i < (e.nsyms ? e.nsyms : 1); i++)
		buf_puts(c, i ? ", -1" : "-1");
	buf_puts(c, "};\n");
	if (strstr(expr, "&ok"))
		buf_puts(c, "\tint ok = 1;\n");
	buf_puts(c, "\tint rc;\n\n");
	emit_checks(&e, 0, c);
	buf_puts(c, "\t{\n");
	emit_values(&e, used, c);
	emit_num_sms(&e, c);
	buf_printf(c, "\n\t\t*holds = %s;\n", expr);
	if (strstr(expr, "&ok")) {
		buf_printf(c, "\t\tif (!ok)\n\t\t\treturn cakert_fail(err, CAKE_ERR_GRID, \"%s: the condition of %s, ",
			   en->name, k->name);
		put_cfmt(c, en->when_text[j] ? en->when_text[j] : en->when[j]);
		buf_puts(c, ", divides by zero or overflows int64 (");
		for (i = 0; i < k->nparams; i++)
			if (used[i])
				buf_printf(c, "%s%s = %%lld", n++ ? ", " : "", k->params[i].name);
		if (num_sms)
			buf_printf(c, "%snum_sms = %%lld", n++ ? ", " : "");
		buf_puts(c, ")\"");
		for (i = 0; i < k->nparams; i++)
			if (used[i])
				buf_printf(c, ",\n\t\t\t    (long long)v_%s", k->params[i].name);
		if (num_sms)
			buf_puts(c, ",\n\t\t\t    (long long)g_num_sms");
		buf_puts(c, ");\n");
	}
	buf_puts(c, "\t}\n\treturn CAKE_OK;\n}\n\n");
	buf_free(&err);
	arena_free(a);
	return 1;
}

/* "(match 0) || (match 1) ...": that some instance matches args (by element types alone,
 * or with the dimensions the entry chooses by), each distinct condition once. */
static void
entry_any_match(const IrEntry *e, IrKernel *const *insts, int types_only, Buf *c)
{
	Buf *seen = xcalloc((size_t)e->ninst, sizeof *seen);
	int i, j, n = 0;

	for (j = 0; j < e->ninst; j++) {
		entry_match(e, insts, j, types_only, &seen[j]);
		for (i = 0; i < j && strcmp(seen[i].s, seen[j].s) != 0; i++)
			;
		if (i == j)     /* else the same condition as instance i's */
			buf_printf(c, "%s(%s)", n++ ? "\n\t    || " : "", seen[j].s);
	}
	for (j = 0; j < e->ninst; j++)
		buf_free(&seen[j]);
	free(seen);
}

/* Dimensions that are equal in every instance but not in the arguments: CAKE_ERR_SHAPE
 * naming both, before the refusal that names one of them. */
static void
entry_refuse_unequal(const IrEntry *e, IrKernel *const *insts, Buf *c)
{
	const IrKernel *k = insts[0];
	int i, d, ri, rd;

	for (i = 0; i < k->nparams; i++)
		for (d = 0; k->params[i].kind == PARAM_TENSOR && d < k->params[i].rank; d++) {
			const char *f, *rf;

			if (!entry_dim_chooses(e, insts, i, d) || entry_dim_named(e, insts, i, d))
				continue;
			entry_dim_rep(e, insts, i, d, &ri, &rd);
			f = field_name(k, k->params[i].name);
			rf = field_name(k, k->params[ri].name);
			buf_printf(c, "\t\tif (args->%s.ndim > %d && args->%s.shape && args->%s.ndim > %d && args->%s.shape &&\n"
				   "\t\t    args->%s.shape[%d] != args->%s.shape[%d])\n", f, d, f, rf, rd, rf, f, d, rf, rd);
			buf_printf(c, "\t\t\treturn cakert_fail(err, CAKE_ERR_SHAPE, \"%s: %s.shape[%d] = %%lld but %s.shape[%d] = %%lld: every instance takes them equal\",\n"
				   "\t\t\t    (long long)args->%s.shape[%d], (long long)args->%s.shape[%d]);\n",
				   e->name, k->params[i].name, d, k->params[ri].name, rd, f, d, rf, rd);
		}
}

/* Arguments of the element types of some instance but none of the dimensions: refused
 * with CAKE_ERR_SHAPE, naming the dimensions the entry point chooses by and what each
 * instance takes. */
static void
entry_refuse_dims(const IrEntry *e, IrKernel *const *insts, Buf *c)
{
	const IrKernel *k = insts[0];
	Buf vals = {0};
	int i, d, j, n = 0;

	buf_puts(c, "\tif (");
	entry_any_match(e, insts, 1, c);
	buf_puts(c, ") {\n");
	entry_refuse_unequal(e, insts, c);
	buf_printf(c, "\t\treturn cakert_fail(err, CAKE_ERR_SHAPE, \"%s: no instance takes these dimensions (", e->name);
	for (i = 0; i < k->nparams; i++)
		for (d = 0; k->params[i].kind == PARAM_TENSOR && d < k->params[i].rank; d++) {
			const char *f = field_name(k, k->params[i].name);

			if (!entry_dim_named(e, insts, i, d))
				continue;
			buf_printf(c, "%s%s.shape[%d] = %%lld", n++ ? ", " : "", k->params[i].name, d);
			buf_printf(&vals, ",\n\t\t    args->%s.ndim > %d && args->%s.shape ? (long long)args->%s.shape[%d] : -1LL",
				   f, d, f, f, d);
		}
	buf_puts(c, "); the instances take ");
	entry_dims(e, insts, NULL, c);
	buf_puts(c, " =");
	for (j = 0; j < e->ninst; j++) {
		buf_puts(c, j ? ", " : " ");
		entry_dims(e, insts, insts[j], c);
	}
	buf_printf(c, "\"%s);\n\t}\n", vals.s ? vals.s : "");
	buf_free(&vals);
}

/* The targets some instance of the entry is built for. */
static unsigned
entry_targets(const IrEntry *e, IrKernel *const *insts)
{
	unsigned t = 0;
	int j;

	for (j = 0; j < e->ninst; j++)
		t |= insts[j]->targets;
	return t;
}

/* Whether instance j is built for fewer targets than the entry point: it is tried only
 * on a device it is built for (the entry asks the driver). */
static int
entry_asks_device(const IrEntry *e, IrKernel *const *insts, int j)
{
	return insts[j]->targets != entry_targets(e, insts);
}

/* Whether the entry asks the driver for any instance: its instances' targets differ. */
static int
entry_by_device(const IrEntry *e, IrKernel *const *insts)
{
	int j;

	for (j = 0; j < e->ninst; j++)
		if (entry_asks_device(e, insts, j))
			return 1;
	return 0;
}

/* Instance j's try, after its match: on a device it is built for (where the entry asks),
 * when its condition holds (where it has one), launch it (or give its grid). Errors
 * asking the driver or evaluating the condition stop the choice. */
static void
entry_try(const IrEntry *e, IrKernel *const *insts, int j, const char *fn, const char *call, Buf *c)
{
	const char *name = insts[j]->name;
	int depth = 2, d;

	if (entry_asks_device(e, insts, j)) {
		buf_printf(c, "\t\tif ((rc = cakert_built_for_device(&%s_kernel, &built, err)) != CAKE_OK)\n"
			   "\t\t\treturn rc;\n\t\tif (built) {\n", name);
		depth++;
	}
	if (e->when[j]) {
		buf_printf(c, "%.*sif ((rc = %s_when(args, &holds, err)) != CAKE_OK)\n%.*sreturn rc;\n"
			   "%.*sif (holds) {\n", depth, "\t\t\t\t\t", name, depth + 1, "\t\t\t\t\t\t",
			   depth, "\t\t\t\t\t");
		depth++;
	}
	if (!call)      /* <name>_choose: the instance, unlaunched */
		buf_printf(c, "%.*s*kernel = &%s_kernel;\n%.*sreturn CAKE_OK;\n", depth, "\t\t\t\t\t", name,
			   depth, "\t\t\t\t\t");
	else
		buf_printf(c, "%.*s%s_args inst;\n\n%.*smemcpy(&inst, args, sizeof inst);\n"
			   "%.*sreturn %s_%s(&inst, %s, err);\n", depth, "\t\t\t\t\t", name, depth,
			   "\t\t\t\t\t", depth, "\t\t\t\t\t", name, fn, call);
	for (d = depth - 1; d >= 1; d--)
		buf_printf(c, "%.*s}\n", d, "\t\t\t\t\t");
}

/* Arguments that some instance takes, on a device none of them is built for:
 * CAKE_ERR_ARCH, naming each instance's targets. */
static void
entry_refuse_device(const IrEntry *e, IrKernel *const *insts, Buf *c)
{
	int j, t, n;

	buf_puts(c, "\tif (");
	entry_any_match(e, insts, 0, c);
	buf_printf(c, ")\n\t\treturn cakert_fail(err, CAKE_ERR_ARCH, \"%s: no instance that takes these arguments is built for the current device (the instances' targets:", e->name);
	for (j = 0; j < e->ninst; j++) {
		buf_printf(c, "%s %s ", j ? ";" : "", insts[j]->name);
		for (t = n = 0; t < TARGET_COUNT; t++)
			if (insts[j]->targets & (1u << t))
				buf_printf(c, "%s%s", n++ ? ", " : "", ir_target_name(t));
	}
	buf_puts(c, ")\");\n");
}

/* <name>_launch, <name>_grid or <name>_choose (call NULL: it names the instance): the first
 * instance that matches, else CAKE_ERR_ARCH (where the instances' targets differ),
 * CAKE_ERR_SHAPE (element types that some instance takes, dimensions that none does) or
 * CAKE_ERR_DTYPE. */
static void
entry_function(const IrEntry *e, IrKernel *const *insts, const char *fn, const char *sig,
	       const char *call, Buf *c)
{
	int j, i, n = 0, asks = entry_by_device(e, insts);

	buf_printf(c, "int\n%s_%s(const %s_args *args, %s, CakeError *err)\n{\n", e->name, fn,
		   e->name, sig);
	for (j = 0; j < e->ninst; j++)
		n += e->when[j] != NULL;
	if (n || asks)
		buf_printf(c, "\tint %s%src;\n\n", n ? "holds, " : "", asks ? "built, " : "");
	n = 0;
	buf_puts(c, "\tif (!args)\n\t\treturn cakert_fail(err, CAKE_ERR_NULL, \"");
	buf_printf(c, "%s: args is NULL\");\n", e->name);
	if (!call)
		buf_printf(c, "\tif (!kernel)\n\t\treturn cakert_fail(err, CAKE_ERR_NULL, \"%s: kernel is NULL\");\n"
			   "\t*kernel = NULL;\n", e->name);
	for (j = 0; j < e->ninst; j++) {
		buf_puts(c, "\tif (");
		entry_match(e, insts, j, 0, c);
		buf_puts(c, ") {\n");
		entry_try(e, insts, j, fn, call, c);
	}
	if (asks)
		entry_refuse_device(e, insts, c);
	if (entry_by_dims(e, insts))
		entry_refuse_dims(e, insts, c);
	buf_printf(c, "\treturn cakert_fail(err, CAKE_ERR_DTYPE, \"%s: no instance takes these element types (", e->name);
	for (i = 0; i < insts[0]->nparams; i++)
		if (insts[0]->params[i].kind == PARAM_TENSOR)
			buf_printf(c, "%s%s: DLPack code %%d bits %%d", n++ ? ", " : "", insts[0]->params[i].name);
	buf_puts(c, "); the instances take");
	entry_types_once(e, insts, c);
	buf_puts(c, "\"");
	for (i = 0; i < insts[0]->nparams; i++)
		if (insts[0]->params[i].kind == PARAM_TENSOR)
			buf_printf(c, ",\n\t    args->%s.dtype.code, args->%s.dtype.bits",
				   field_name(insts[0], insts[0]->params[i].name),
				   field_name(insts[0], insts[0]->params[i].name));
	buf_puts(c, ");\n}\n");
}

void
host_emit_entry(const IrEntry *e, IrKernel *const *insts, Buf *h, Buf *c)
{
	char upper[256];
	int i, j, by_dims, asks;

	for (i = 0; e->name[i] && i < (int)sizeof upper - 1; i++)
		upper[i] = (char)(e->name[i] >= 'a' && e->name[i] <= 'z' ? e->name[i] - 32 : e->name[i]);
	upper[i] = 0;
	by_dims = entry_by_dims(e, insts);
	buf_printf(h, "/* %s.h: the entry point %s (generated by cakec; do not edit): launches the\n"
		   " * first of the instances of the generic kernel %s whose tensor element types\n"
		   " * %smatch the arguments (and whose condition holds):", e->name, e->name, e->name,
		   by_dims ? "and constant dimensions " : "");
	for (j = 0; j < e->ninst; j++) {
		buf_printf(h, "%s\n *   %s (", j ? ";" : "", insts[j]->name);
		entry_types(insts[j], h);
		if (by_dims) {
			buf_puts(h, "; ");
			entry_dims(e, insts, NULL, h);
			buf_puts(h, " = ");
			entry_dims(e, insts, insts[j], h);
		}
		buf_puts(h, ")");
		if (e->when[j])
			buf_printf(h, " when %s", e->when_text[j] ? e->when_text[j] : e->when[j]);
	}
	buf_printf(h, ". */\n#ifndef CAKE_ENTRY_%s_H\n#define CAKE_ENTRY_%s_H\n\n", upper, upper);
	for (j = 0; j < e->ninst; j++)
		buf_printf(h, "#include \"%s.h\"\n", insts[j]->name);
	buf_puts(h, "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
	buf_printf(h, "/* The instances' arguments are the same but for the tensors' element types%s. */\n"
		   "typedef %s_args %s_args;\n\n", by_dims ? "\n * and constant dimensions" : "", insts[0]->name, e->name);
	for (j = 0; j < e->ninst && !e->when[j]; j++)
		;
	asks = entry_by_device(e, insts);
	buf_printf(h, "/* Picks the instance and launches it as its launcher does; CAKE_ERR_DTYPE when\n"
		   " * no instance takes the tensors' element types%s%s%s */\n"
		   "int %s_launch(const %s_args *args, CUstream stream, CakeError *err);\n\n",
		   by_dims ? ", CAKE_ERR_SHAPE when none of\n * those that do takes their constant dimensions" : "",
		   asks ? ", CAKE_ERR_ARCH when none that\n * takes the arguments is built for the current context's device" : "",
		   j < e->ninst ? ". A condition is evaluated after\n * the checks its instance's launcher makes, and stops the choice with their error,\n * or CAKE_ERR_GRID if it divides by zero or overflows int64." : ".",
		   e->name, e->name);
	buf_printf(h, "/* The grid the chosen instance would use, without the driver%s. */\n"
		   "int %s_grid(const %s_args *args, int64_t grid[3], CakeError *err);\n\n",
		   asks ? " (but to learn the\n * device's architecture, and where a condition or the grid names num_sms); the\n * same choice, the same errors"
		   : j < e->ninst ? " (but where a\n * condition or the grid names num_sms); the same choice, the same errors" : "",
		   e->name, e->name);
	buf_printf(h, "/* The instance %s_launch would launch, named by its descriptor (kernel->name is\n"
		   " * the instance's name): the same choice and its errors, without the driver (but\n"
		   " * where the instances' targets differ or a condition names num_sms). Only what the\n"
		   " * choice reads is checked; the instance's _grid checks the rest. */\n"
		   "int %s_choose(const %s_args *args, const CakertKernel **kernel, CakeError *err);\n\n",
		   e->name, e->name, e->name);
	buf_puts(h, "#ifdef __cplusplus\n}\n#endif\n\n#endif\n");

	buf_printf(c, "/* %s.c: the entry point %s (generated by cakec; do not edit). */\n"
		   "#include \"%s.h\"\n\n#include <string.h>\n\n", e->name, e->name, e->name);
	buf_puts(c, "/* every instance's arguments have the first one's layout */\n");
	for (j = 1; j < e->ninst; j++)
		buf_printf(c, "typedef char %s_same_args_%d[sizeof(%s_args) == sizeof(%s_args) ? 1 : -1];\n",
			   e->name, j, insts[j]->name, e->name);
	buf_puts(c, "\n");
	for (j = 0; j < e->ninst; j++)
		if (e->when[j] && !entry_when(e, j, insts[j], c))
			return;
	entry_function(e, insts, "launch", "CUstream stream", "stream", c);
	buf_puts(c, "\n");
	entry_function(e, insts, "grid", "int64_t grid[3]", "grid", c);
	buf_puts(c, "\n");
	entry_function(e, insts, "choose", "const CakertKernel **kernel", NULL, c);
}

void
host_entry_manifest(const IrEntry *e, IrKernel *const *insts, Buf *m)
{
	int j, asks;

	buf_puts(m, "{\n    \"entry\": ");
	put_json(m, e->name);
	asks = entry_by_device(e, insts);
	buf_printf(m, ",\n    \"rule\": \"the first instance, in this order, whose tensor element types %smatch the arguments%s and whose condition (when, null: none) holds\",\n"
		   "    \"instances\": [", entry_by_dims(e, insts) ? "and constant dimensions " : "",
		   asks ? ", that is built for the device," : "");
	for (j = 0; j < e->ninst; j++) {
		if (j)
			buf_puts(m, ", ");
		put_json(m, e->insts[j]);
	}
	/* each condition as written and as a tree: ["op", operand, ...] with names as
	 * strings and integers as numbers */
	buf_puts(m, "],\n    \"when\": [");
	for (j = 0; j < e->ninst; j++) {
		Arena *a = arena_new();
		char *tree = NULL;

		buf_puts(m, j ? ",\n      " : "\n      ");
		if (e->when[j])
			tree = grid_translate(insts[j], a, e->when[j], NULL, NULL, NULL, NULL, 0, 1, 1);
		if (!tree) {
			buf_puts(m, "null");
		} else {
			buf_puts(m, "{\"text\": ");
			put_json(m, e->when_text[j] ? e->when_text[j] : e->when[j]);
			buf_printf(m, ", \"expr\": %s}", tree);
		}
		arena_free(a);
	}
	buf_puts(m, "\n    ]\n  }");
}
