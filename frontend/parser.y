/* parser.y: the .cake grammar. Pure, with locations and detailed syntax errors (lookahead
 * correction keeps the "expecting" lists exact). Each action is one builder call from
 * ast.c carrying the location of the construct. Recovery: a broken statement is skipped up
 * to its ';' (or the block's '}'), a broken declaration up to the next 'kernel' or 'const',
 * so one run reports several syntax errors. */
%define api.pure full
%locations
%define parse.error detailed
%define parse.lac full
%expect 0

%code requires {
#include "ast.h"
#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif
}

%code {
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lexer.h"

#define L(at) loc_of(p, &(at))

static SrcLoc
loc_of(const Parser *p, const YYLTYPE *at)
{
	SrcLoc s = {p->file, at->first_line, at->first_column, 0};

	return s;
}

static void yyerror(YYLTYPE *loc, yyscan_t scanner, Parser *p, const char *msg);

/* The lexer, remembering the previous token and where it ended: a syntax error at the
 * start of a line right after what could end a statement is most likely a missing ';'. */
static int
lex(YYSTYPE *val, YYLTYPE *loc, yyscan_t scanner)
{
	Parser *p = yyget_extra(scanner);
	int t = yylex(val, loc, scanner);

	p->prev_tok = p->cur_tok;
	p->prev_end = p->cur_end;
	p->cur_tok = t;
	p->cur_end.file = p->file;
	p->cur_end.line = loc->last_line;
	p->cur_end.col = loc->last_column;
	return t;
}
#define yylex lex

/* The parser's stack grows only with nesting that the lexer does not count (prefix
 * operators); past this it reports "memory exhausted", which yyerror rewords. */
#define YYMAXDEPTH 4000
}

%param {yyscan_t scanner}
%parse-param {Parser *p}

%union {
	Node *node;
	NodeList list;
	const char *str;
	int64_t ival;
	double fval;
	int op;
}

%token <str> IDENT "identifier"
%token <str> STRING "string literal"
%token <ival> INT "integer literal"
%token <fval> FLOAT "float literal"
%token <op> OPASSIGN "compound assignment"
%token KERNEL "'kernel'" CONST "'const'" LET "'let'" VAR "'var'" SHARED "'shared'"
%token IF "'if'" ELSE "'else'" FOR "'for'" IN "'in'" WHILE "'while'"
%token TRUE "'true'" FALSE "'false'" BREAK "'break'" CONTINUE "'continue'" RETURN "'return'"
%token FN "'fn'" ARROW "'->'" IMPORT "'import'" PER_RANK "'per_rank'"
%token DOTDOT "'..'" EQ "'=='" NE "'!='" LE "'<='" GE "'>='" ANDAND "'&&'" OROR "'||'" SHL "'<<'" SHR "'>>'"

%type <list> decls params params_opt attrs stmts exprs
%type <node> decl const_decl kernel func param attr type type_opt ret_opt block stmt if_stmt
%type <node> instance tparam targ import
%type <list> tparams_opt tparams tdomain targs inst_attrs
%type <node> unroll_opt expr postfix primary
%type <list> sattrs dargs role_attrs args
%type <node> sattr darg arg

%right '?' ':'
%left OROR
%left ANDAND
%nonassoc EQ NE '<' '>' LE GE
%left '|'
%left '^'
%left '&'
%left SHL SHR
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%%

program:
	decls                           { ast_program(p, $1); }
	;

decls:
	%empty                          { $$ = ast_list_empty(); }
	| decls decl                    { $$ = ast_list_append($1, $2); }
	| decls error                   { $$ = $1; }
	;

decl:
	const_decl
	| kernel
	| func
	| instance
	| import
	;

/* import "file.cake";: the file's fn and const declarations join this file's (import.c) */
import:
	IMPORT STRING ';'               { $$ = ast_import(p, L(@2), $2); }
	;

/* generic parameters: <T: bf16 | f16, BN: i32 = 256> */
tparams_opt:
	%empty                          { $$ = ast_list_empty(); }
	| '<' tparams '>'               { $$ = $2; }
	;

tparams:
	tparam                          { $$ = ast_list_one($1); }
	| tparams ',' tparam            { $$ = ast_list_append($1, $3); }
	;

tparam:
	IDENT ':' tdomain               { $$ = ast_tparam(p, L(@1), $1, $3, NULL); }
	| IDENT ':' tdomain '=' targ    { $$ = ast_tparam(p, L(@1), $1, $3, $5); }
	;

tdomain:
	IDENT                           { $$ = ast_list_one(ast_name(p, L(@1), $1)); }
	| tdomain '|' IDENT             { $$ = ast_list_append($1, ast_name(p, L(@3), $3)); }
	;

/* instance gemm<bf16, f32> [as NAME] [when (COND)]; */
instance:
	IDENT IDENT '<' targs '>' inst_attrs ';'
					{ $$ = ast_instance(p, L(@1), $1, $2, L(@2), $4, $6); }
	;

targs:
	targ                            { $$ = ast_list_one($1); }
	| targs ',' targ                { $$ = ast_list_append($1, $3); }
	;

targ:
	IDENT                           { $$ = ast_name(p, L(@1), $1); }
	| INT                           { $$ = ast_int(p, L(@1), $1); }
	| '-' INT                       { $$ = ast_int(p, L(@1), -$2); }
	;

inst_attrs:
	%empty                          { $$ = ast_list_empty(); }
	| inst_attrs IDENT IDENT        { $$ = ast_list_append($1, ast_named(p, L(@2), $2, ast_name(p, L(@3), $3))); }
	| inst_attrs IDENT '(' expr ')' { $$ = ast_list_append($1, ast_named(p, L(@2), $2, $4)); }
	;

/* fn name(params) [-> type] { body }: inlined at every call */
func:
	FN IDENT tparams_opt '(' params_opt ')' ret_opt block
					{ $$ = ast_func(p, L(@2), $2, $5, $7, $8); $$->init = ast_generic(p, $3); }
	;

ret_opt:
	%empty                          { $$ = NULL; }
	| ARROW type                    { $$ = $2; }
	;

const_decl:
	CONST IDENT type_opt '=' expr ';'       { $$ = ast_const(p, L(@1), $2, $3, $5); }
	;

type_opt:
	%empty                          { $$ = NULL; }
	| ':' type                      { $$ = $2; }
	;

type:
	IDENT                           { $$ = ast_type(p, L(@1), $1, ast_list_empty()); }
	| IDENT '[' exprs ']'           { $$ = ast_type(p, L(@1), $1, $3); }
	;

kernel:
	KERNEL IDENT tparams_opt '(' params_opt ')' attrs block
					{ $$ = ast_kernel(p, L(@2), $2, $5, $7, $8); $$->init = ast_generic(p, $3); }
	;

params_opt:
	%empty                          { $$ = ast_list_empty(); }
	| params
	;

params:
	param                           { $$ = ast_list_one($1); }
	| params ',' param              { $$ = ast_list_append($1, $3); }
	;

param:
	IDENT ':' type                  { $$ = ast_param(p, L(@1), $1, NULL, L(@3), $3); }
	| IDENT ':' IN type             { $$ = ast_param(p, L(@1), $1, "in", L(@3), $4); }
	| IDENT ':' IDENT type          { $$ = ast_param(p, L(@1), $1, $3, L(@3), $4); }
	| IDENT ':' SHARED type         { $$ = ast_param(p, L(@1), $1, "shared", L(@3), $4); }
	| IDENT ':' IN type PER_RANK    { $$ = ast_param(p, L(@1), $1, "in", L(@3), $4); $$->ival = PARAM_PER_RANK; }
	| IDENT ':' IDENT type PER_RANK { $$ = ast_param(p, L(@1), $1, $3, L(@3), $4); $$->ival = PARAM_PER_RANK; }
	;

attrs:
	%empty                          { $$ = ast_list_empty(); }
	| attrs attr                    { $$ = ast_list_append($1, $2); }
	;

attr:
	IDENT '(' exprs ')'             { $$ = ast_clause(p, L(@1), $1, $3); }
	;

block:
	'{' stmts '}'                   { $$ = ast_block(p, L(@1), $2); }
	| '{' stmts error '}'           { $$ = ast_block(p, L(@1), $2); }
	;

stmts:
	%empty                          { $$ = ast_list_empty(); }
	| stmts stmt                    { $$ = ast_list_append($1, $2); }
	| stmts error ';'               { $$ = $1; }
	;

stmt:
	LET IDENT type_opt '=' expr ';' { $$ = ast_let(p, L(@1), 0, $2, $3, $5); }
	| VAR IDENT type_opt '=' expr ';'
					{ $$ = ast_let(p, L(@1), 1, $2, $3, $5); }
	| SHARED IDENT ':' type sattrs ';'
					{ $$ = ast_shared(p, L(@1), $2, $4, $5); }
	| IDENT IDENT ':' type sattrs ';'
					{ $$ = ast_tmem(p, L(@1), $1, $2, $4, $5); }
	| IDENT IDENT '=' expr ';'      { $$ = ast_decl_init(p, L(@1), $1, $2, L(@2), $4); }
	| IDENT IDENT '(' dargs ')' ';' { $$ = ast_decl_args(p, L(@1), $1, $2, L(@2), $4); }
	| IDENT IDENT '(' dargs ')' role_attrs block
					{ $$ = ast_role(p, L(@1), $1, $2, L(@2), $4, $6, $7); }
	| IDENT block                   { $$ = ast_word_block(p, L(@1), $1, $2); }
	| IDENT IDENT block             { $$ = ast_pipe_block(p, L(@1), $1, $2, L(@2), $3); }
	| expr '=' expr ';'             { $$ = ast_assign(p, L(@2), OP_NONE, $1, $3); }
	| expr OPASSIGN expr ';'        { $$ = ast_assign(p, L(@2), $2, $1, $3); }
	| expr ';'                      { $$ = ast_exprstmt(p, L(@1), $1); }
	| if_stmt
	| FOR '(' IDENT IN expr DOTDOT expr ')' unroll_opt block
					{ $$ = ast_for(p, L(@1), $3, $5, $7, NULL, L(@1), NULL, $9, $10); }
	| FOR '(' IDENT IN expr DOTDOT expr IDENT expr ')' unroll_opt block
					{ $$ = ast_for(p, L(@1), $3, $5, $7, $8, L(@8), $9, $11, $12); }
	| WHILE '(' expr ')' block      { $$ = ast_while(p, L(@1), $3, $5); }
	| block
	| BREAK ';'                     { $$ = ast_exit(p, L(@1), N_BREAK, NULL); }
	| CONTINUE ';'                  { $$ = ast_exit(p, L(@1), N_CONTINUE, NULL); }
	| RETURN ';'                    { $$ = ast_exit(p, L(@1), N_RETURN, NULL); }
	| RETURN expr ';'               { $$ = ast_exit(p, L(@1), N_RETURN, $2); }
	;

/* a shared array's attributes: in PIPELINE, align(N), swizzle(N), alias(NAME) */
sattrs:
	%empty                          { $$ = ast_list_empty(); }
	| sattrs sattr                  { $$ = ast_list_append($1, $2); }
	;

sattr:
	IN IDENT                        { $$ = ast_shared_attr(p, L(@1), "in", ast_name(p, L(@2), $2)); }
	| IDENT '(' expr ')'            { $$ = ast_shared_attr(p, L(@1), $1, $3); }
	| IDENT                         { $$ = ast_bare_attr(p, L(@1), $1); }
	;

/* the arguments of pipeline, mbarrier (name: value) and role (warps a .. b, leader) */
dargs:
	darg                            { $$ = ast_list_one($1); }
	| dargs ',' darg                { $$ = ast_list_append($1, $3); }
	;

darg:
	IDENT ':' expr                  { $$ = ast_named(p, L(@1), $1, $3); }
	| IDENT expr                    { $$ = ast_range(p, L(@1), $1, $2, NULL); }
	| IDENT expr DOTDOT expr        { $$ = ast_range(p, L(@1), $1, $2, $4); }
	| IDENT                         { $$ = ast_range(p, L(@1), $1, NULL, NULL); }
	;

role_attrs:
	%empty                          { $$ = ast_list_empty(); }
	| role_attrs IDENT '(' exprs ')'
					{ $$ = ast_list_append($1, ast_role_attr(p, L(@2), $2, $4)); }
	;

unroll_opt:
	%empty                          { $$ = NULL; }
	| IDENT                         { $$ = ast_unroll(p, L(@1), $1, NULL); }
	| IDENT '(' expr ')'            { $$ = ast_unroll(p, L(@1), $1, $3); }
	;

if_stmt:
	IF '(' expr ')' block           { $$ = ast_if(p, L(@1), $3, $5, NULL); }
	| IF '(' expr ')' block ELSE block
					{ $$ = ast_if(p, L(@1), $3, $5, $7); }
	| IF '(' expr ')' block ELSE if_stmt
					{ $$ = ast_if(p, L(@1), $3, $5, $7); }
	;

exprs:
	expr                            { $$ = ast_list_one($1); }
	| exprs ',' expr                { $$ = ast_list_append($1, $3); }
	;

/* call arguments: expressions, and named ones (tma_load(..., multicast: mask)) */
args:
	arg                             { $$ = ast_list_one($1); }
	| args ',' arg                  { $$ = ast_list_append($1, $3); }
	;

arg:
	expr
	| IDENT ':' expr                { $$ = ast_named(p, L(@1), $1, $3); }
	;

expr:
	expr '?' expr ':' expr          { $$ = ast_cond(p, L(@2), $1, $3, $5); }
	| expr OROR expr                { $$ = ast_binary(p, L(@2), OP_LOR, $1, $3); }
	| expr ANDAND expr              { $$ = ast_binary(p, L(@2), OP_LAND, $1, $3); }
	| expr EQ expr                  { $$ = ast_binary(p, L(@2), OP_EQ, $1, $3); }
	| expr NE expr                  { $$ = ast_binary(p, L(@2), OP_NE, $1, $3); }
	| expr '<' expr                 { $$ = ast_binary(p, L(@2), OP_LT, $1, $3); }
	| expr LE expr                  { $$ = ast_binary(p, L(@2), OP_LE, $1, $3); }
	| expr '>' expr                 { $$ = ast_binary(p, L(@2), OP_GT, $1, $3); }
	| expr GE expr                  { $$ = ast_binary(p, L(@2), OP_GE, $1, $3); }
	| expr '|' expr                 { $$ = ast_binary(p, L(@2), OP_OR, $1, $3); }
	| expr '^' expr                 { $$ = ast_binary(p, L(@2), OP_XOR, $1, $3); }
	| expr '&' expr                 { $$ = ast_binary(p, L(@2), OP_AND, $1, $3); }
	| expr SHL expr                 { $$ = ast_binary(p, L(@2), OP_SHL, $1, $3); }
	| expr SHR expr                 { $$ = ast_binary(p, L(@2), OP_SHR, $1, $3); }
	| expr '+' expr                 { $$ = ast_binary(p, L(@2), OP_ADD, $1, $3); }
	| expr '-' expr                 { $$ = ast_binary(p, L(@2), OP_SUB, $1, $3); }
	| expr '*' expr                 { $$ = ast_binary(p, L(@2), OP_MUL, $1, $3); }
	| expr '/' expr                 { $$ = ast_binary(p, L(@2), OP_DIV, $1, $3); }
	| expr '%' expr                 { $$ = ast_binary(p, L(@2), OP_REM, $1, $3); }
	| '-' expr %prec UNARY          { $$ = ast_unary(p, L(@1), OP_NEG, $2); }
	| '!' expr %prec UNARY          { $$ = ast_unary(p, L(@1), OP_NOT, $2); }
	| '~' expr %prec UNARY          { $$ = ast_unary(p, L(@1), OP_BITNOT, $2); }
	| postfix
	;

postfix:
	primary
	| postfix '[' exprs ']'         { $$ = ast_index(p, L(@2), $1, $3, NULL); }
	| postfix '[' exprs ':' expr ']'
					{ $$ = ast_index(p, L(@2), $1, $3, $5); }
	| postfix '.' IDENT             { $$ = ast_member(p, L(@3), $1, $3); }
	| postfix '.' IDENT '(' ')'     { $$ = ast_method(p, L(@3), $1, $3, ast_list_empty()); }
	| postfix '.' IDENT '(' args ')'
					{ $$ = ast_method(p, L(@3), $1, $3, $5); }
	;

primary:
	INT                             { $$ = ast_int(p, L(@1), $1); }
	| FLOAT                         { $$ = ast_float(p, L(@1), $1); }
	| TRUE                          { $$ = ast_bool(p, L(@1), 1); }
	| FALSE                         { $$ = ast_bool(p, L(@1), 0); }
	| IDENT                         { $$ = ast_name(p, L(@1), $1); }
	| IDENT '(' ')'                 { $$ = ast_call(p, L(@1), $1, ast_list_empty()); }
	| IDENT '(' args ')'            { $$ = ast_call(p, L(@1), $1, $3); }
	| '(' expr ')'                  { $$ = $2; }
	| '[' exprs ']'                 { $$ = ast_list_expr(p, L(@1), $2); }
	;

%%

/* Whether only an expression can follow token t (an operator, '=', an opening bracket
 * or a separator inside brackets). Bison lists no more than four expected tokens; this
 * says what the nine tokens that can start an expression mean. */
static int
expects_expr(int t)
{
	switch (t) {
	case '=': case OPASSIGN: case '(': case '[': case ',': case '?': case ':': case DOTDOT:
	case OROR: case ANDAND: case EQ: case NE: case '<': case LE: case '>': case GE:
	case '|': case '^': case '&': case SHL: case SHR: case '+': case '-': case '*': case '/':
	case '%': case '!': case '~':
		return 1;
	default:
		return 0;
	}
}

/* Bison's message, with the text of a name or number it found, and the stack-depth
 * failure said in the user's terms. */
static void
yyerror(YYLTYPE *loc, yyscan_t scanner, Parser *p, const char *msg)
{
	static const char *const kinds[] = {"identifier", "integer literal", "float literal",
					     "compound assignment"};
	const char *at;
	size_t i;

	(void)scanner;
	if (p->stop)
		return;
	if (strcmp(msg, "memory exhausted") == 0) {
		diag_error(L(*loc), "nesting is too deep (the parser's stack is full)");
		p->stop = 1;
		return;
	}
	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		char word[64];

		snprintf(word, sizeof word, "unexpected %s", kinds[i]);
		at = strstr(msg, word);
		if (at) {
			int n = (int)(at - msg) + (int)strlen(word);

			diag_error(L(*loc), "%.*s '%s'%s%s", n, msg, p->tok, msg + n,
				   expects_expr(p->prev_tok) && !strstr(msg, "expecting")
				   ? ", expecting an expression" : "");
			break;
		}
	}
	if (i == sizeof kinds / sizeof kinds[0])
		diag_error(L(*loc), "%s%s", msg, expects_expr(p->prev_tok) && !strstr(msg, "expecting")
			   ? ", expecting an expression" : "");
	switch (p->prev_tok) {
	case IDENT: case INT: case FLOAT: case TRUE: case FALSE: case ')': case ']':
		if (p->prev_end.line > 0 && p->prev_end.line < loc->first_line && !strstr(msg, "expecting"))
			diag_note(p->prev_end, "is a ';' missing here?");
		break;
	default:
		break;
	}
}

void
fe_parse(Parser *p, const char *text, size_t len)
{
	yyscan_t scanner;
	YY_BUFFER_STATE buf;

	if (len > INT_MAX / 2) {
		SrcLoc loc = {p->file, 0, 0, 0};

		diag_error(loc, "the file is too large (%zu bytes)", len);
		return;
	}
	p->line = 1;
	p->col = 1;
	if (yylex_init_extra(p, &scanner) != 0)
		ICE("cannot start the lexer");
	buf = yy_scan_bytes(text, (int)len, scanner);
	yyparse(scanner, p);
	yy_delete_buffer(buf, scanner);
	yylex_destroy(scanner);
}
