/* frontend-internal interfaces: the AST (ast.c), the parser state shared by the lexer and
 * the grammar, semantic analysis (sema.c) and IR generation (irgen.c). Nothing outside
 * frontend/ includes this; the public entry point is frontend.h. */
#ifndef CAKE_AST_H
#define CAKE_AST_H

#include "frontend.h"

/* Deeper expression or statement nesting than this is an error, so that the recursive
 * walks in sema, lowering and the printer never come near the C stack's limit. */
#define FE_MAX_DEPTH 256

/* How deep produce and consume blocks may nest (sema reports more; irgen keeps a stack). */
#define FE_MAX_ASYNC 16

/* The most elements a shared array may have: its row-major index is an i32. */
#define FE_MAX_SHARED_ELEMS ((int64_t)INT32_MAX)

typedef enum NodeKind {
	/* expressions */
	N_INT,        /* ival */
	N_FLOAT,      /* fval */
	N_BOOL,       /* ival 0 or 1 */
	N_NAME,       /* name */
	N_UNARY,      /* op lhs */
	N_BINARY,     /* lhs op rhs */
	N_COND,       /* cond ? lhs : rhs */
	N_CALL,       /* name(list) */
	N_INDEX,      /* lhs[list] or lhs[list : width] */
	N_MEMBER,     /* lhs.name */
	N_LIST,       /* [list]: TMA coordinates */
	N_NAMED,      /* name: lhs, a named call or declaration argument */
	/* statements */
	N_LET,        /* let name [: type] = init */
	N_VAR,        /* var name [: type] = init */
	N_SHARED,     /* shared name: type [align(lhs)] */
	N_TMEM,       /* tmem name: type [in PIPELINE] (attrs: N_SATTR) */
	N_ASSIGN,     /* lhs op= rhs (op 0 for plain =) */
	N_IF,         /* if (cond) body [else els] */
	N_FOR,        /* for (name in lo .. hi [step step]) [unroll[(unroll_n)] | round_robin]
			 body (ival 1: irgen unrolls it, its index names register-array
			 elements) */
	N_WHILE,      /* while (cond) body */
	N_BLOCK,      /* { list } */
	N_EXPRSTMT,   /* lhs; */
	N_BREAK,      /* break; (xslot: the loop's break flag) */
	N_CONTINUE,   /* continue; (xslot: the loop's continue flag) */
	N_RETURN,     /* return [lhs]; (xslot: the function's return flag, then its value) */
	/* declarations */
	N_PROGRAM,    /* list of N_CONST and N_KERNEL */
	N_CONST,      /* const name [: type] = init */
	N_KERNEL,     /* kernel name<init>(list) attrs body: init the N_LIST of N_TPARAMs of a
			 generic kernel, else NULL (xslot[0]: the return flag, or -1) */
	N_TPARAM,     /* a generic parameter name: list (the types it takes, N_NAMEs) [= init] */
	N_INSTANCE,   /* instance name<list> attrs (N_NAMED: as NAME); set by sema: lhs the
			 generic kernel, body the instance's kernel */
	N_FUNC,       /* fn name<init>(list) [-> type] body: init as N_KERNEL's (ival: FN_*
			 flags, set by sema) */
	N_IMPORT,     /* import "name": replaced by the imported declarations (import.c) */
	N_PARAM,      /* name: [access] type */
	N_TARGETS,    /* targets(list of N_NAME) */
	N_THREADS,    /* threads(list) */
	N_GRID,       /* grid(list) */
	N_TYPE,       /* name[list] (list empty for a scalar or vector type) */
	N_UNROLL,     /* unroll, unroll(lhs) or round_robin (op: the loop mode), only while
			 parsing a for */
	/* the async constructs (async.c, irgen_async.c) */
	N_TENSORMAP,  /* tensormap name = init (a call of tma) */
	N_PIPELINE,   /* pipeline name(list of N_NAMED) */
	N_MBARRIER,   /* mbarrier name(list of N_NAMED) */
	N_ROLE,       /* role name(list: one N_RANGE) attrs (N_REGS) body */
	N_RANGE,      /* name lo [.. hi]: a role's warps */
	N_REGS,       /* regs(list) after a role's warps */
	N_ELECT,      /* elect body */
	N_PRODUCE,    /* produce lhs (N_NAME of the pipeline) body */
	N_CONSUME,    /* consume lhs body */
	N_SATTR,      /* a shared array's attribute: name (in, align, swizzle, alias) and lhs */
	N_MIN_BLOCKS, /* min_blocks(list) */
	N_CLUSTER,    /* cluster(list) */
	N_CTA_GROUP,  /* cta_group(list): CTA pairs for tcgen05 */
	N_INDEXW,     /* index(list): the index width clause, i32 or i64 */
	N_LAUNCH,     /* launch(list): how the kernel is launched (dependent) */
	N_REQUIRES,   /* requires(list): a condition the arguments must meet */
	N_WHEN,       /* when (lhs): an instance's condition, made a clause of the instance's
			 kernel by generic.c (name: the generic kernel) */
	N_NKINDS
} NodeKind;

/* Operators, shared by unary, binary and compound-assignment nodes. */
typedef enum AstOp {
	OP_NONE,
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_REM,
	OP_AND, OP_OR, OP_XOR, OP_SHL, OP_SHR,
	OP_LAND, OP_LOR,
	OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
	OP_NEG, OP_NOT, OP_BITNOT,
	OP_COUNT
} AstOp;

/* Parameter access qualifiers (N_PARAM.op): scalars have none; a function's shared-array
 * parameter is ACCESS_SHARED. */
enum { ACCESS_NONE = -1, ACCESS_SHARED = -2 };

/* N_PARAM.ival: a tensor parameter declared `per_rank` (one tensor per rank). */
enum { PARAM_PER_RANK = 1 };

/* N_FUNC.ival: the function was called; a call's copy of its body had errors. */
enum { FN_CALLED = 1, FN_FAILED = 2, FN_NAMED = 4 };

/* The early exits a statement may take out of itself (Node.exits): a return, or a break or
 * continue of the innermost loop around it. */
enum { EXIT_RETURN = 1, EXIT_BREAK = 2, EXIT_CONTINUE = 4 };

typedef struct Node Node;
typedef struct Symbol Symbol;
typedef struct KernelInfo KernelInfo;

/* A singly linked list of nodes through Node.next, built by appending. */
typedef struct NodeList {
	Node *head, *tail;
	int n;
} NodeList;

/* A compile-time value: integers (any width, unsigned ones as their bits) in i, floats
 * in f. The type that goes with it says which. */
typedef struct ConstVal {
	int64_t i;
	double f;
} ConstVal;

/* Frontend-only type bases beyond IrBase: untyped literals (which take the type their
 * context needs), and names that are not values. */
enum {
	TY_UNTYPED_INT = IR_NBASE + 1,
	TY_UNTYPED_FLOAT,
	TY_NONVALUE,   /* a tensor, shared array, builtin namespace or function */
	TY_ERROR,      /* an expression that already has an error: checks stay quiet */
};

/* One AST node. A single struct for every kind keeps the builders and walks simple; the
 * comment on each NodeKind says which fields it uses. Allocated from the program arena. */
struct Node {
	NodeKind kind;
	SrcLoc loc;
	Node *next;
	int depth;            /* 1 + the deepest child, for the nesting limit */
	int op;               /* AstOp; the access of an N_PARAM; unroll mode of an N_FOR */
	const char *name;
	int64_t ival;
	double fval;
	Node *lhs, *rhs, *cond;
	Node *type, *init;
	Node *body, *els;
	Node *lo, *hi, *step, *width, *unroll_n;
	NodeList list;
	NodeList attrs;

	/* filled in by sema */
	IrType ty;            /* the value's type (base may be a TY_* value) */
	int isconst;          /* ty with cv is a compile-time value */
	ConstVal cv;
	Symbol *sym;          /* names, declarations */
	int slot_base;        /* statements: first local slot declared inside */
	int lane;             /* N_INDEX/N_MEMBER on a vector: the lane (-1: known once unrolled) */
	int builtin;          /* N_CALL/N_MEMBER: which builtin (builtins.def) */
	int indexkind;        /* N_INDEX: IDX_* below */
	int lazy;             /* N_BINARY && ||: the right side, N_COND: the arms, run only when
				 the value needs them (they touch memory: fe_touches_memory) */
	KernelInfo *kinfo;    /* N_KERNEL */
	/* async constructs, filled in by sema (async.c) */
	int hslot;            /* N_ROLE: first hidden slot (a stage and a phase per pipeline);
				 N_PRODUCE/N_CONSUME: the pipeline's stage slot (phase: +1) */
	int wlo, whi, regs;   /* N_ROLE: warps wlo..whi, register budget (0: none) */
	int leader;           /* N_ROLE: runs in the leader CTA of each CTA pair only */
	int nturns;           /* N_ROLE: its take_turn()/pass_turn() calls (turns.c) */
	int turn_base;        /* N_ROLE: the named barrier of its first warpgroup's turn, 0:
				 none (no calls, or one warpgroup) */
	/* early exits and functions (sema.c, func.c) */
	int exits;            /* statements: the EXIT_* bits it may leave itself by */
	int xslot[2];         /* hidden local slots: N_FOR/N_WHILE the break and continue flags,
				 N_KERNEL and N_RETURN the return flag and value, N_BREAK and
				 N_CONTINUE their loop's flag; -1 when none */
	struct FnCall *call;  /* N_CALL of a user function: its inlined body */
};

/* A call of a user function, checked and inlined at the call (func.c): the function's
 * body cloned for this call, its parameters bound to the arguments. */
typedef struct FnCall {
	Node *fn;             /* the N_FUNC */
	Node *body;           /* this call's copy of the body */
	Symbol **params;      /* per parameter: its symbol in the copy (value params: a 'let') */
	int nparams;
	int ret_slot;         /* the return flag's slot, -1 when the body has no return */
	int val_slot;         /* the return value's slot, -1 for a function without a value */
} FnCall;

/* What an N_INDEX reads or writes. */
enum { IDX_TENSOR = 1, IDX_SHARED, IDX_LANE, IDX_REMOTE, IDX_REGS };

/* Modes of an N_FOR (Node.op): how it is unrolled, or LOOP_ROUND_ROBIN: its iterations are
 * dealt to the warpgroups of its role in turn (round_robin.c). */
enum { UNROLL_NONE, UNROLL_FULL, UNROLL_COUNT, LOOP_ROUND_ROBIN };

typedef enum SymKind {
	SYM_CONST,     /* file-level compile-time constant */
	SYM_TENSOR,    /* tensor parameter */
	SYM_SCALAR,    /* scalar parameter */
	SYM_SHAPE,     /* shape symbol (an i32 parameter bound from tensor shapes) */
	SYM_LET,       /* immutable local */
	SYM_VAR,       /* mutable local */
	SYM_ITER,      /* for-loop index */
	SYM_SHARED,    /* shared array */
	SYM_BUILTIN,   /* lane, warp, thread, block, ... and the builtin functions */
	SYM_TMAP,      /* tensormap: a TMA tensor map parameter */
	SYM_PIPELINE,  /* pipeline */
	SYM_MBARRIER,  /* raw mbarrier */
	SYM_FUNC,      /* user function (decl: its N_FUNC) */
	SYM_REGS,      /* register array (regarray.c): count elements from slot on */
	SYM_TMEM,      /* tensor memory (mma_tcgen05.c): lanes x columns, per stage */
} SymKind;

struct Symbol {
	SymKind kind;
	const char *name;
	SrcLoc loc;
	IrType type;          /* value type; the element type of tensors and shared arrays */
	ConstVal val;         /* SYM_CONST */
	int param;            /* SYM_TENSOR/SCALAR/SHAPE: the IR parameter index (per_rank: of
	                       * the first rank's tensor; rank r's is param + r) */
	int ranks;            /* SYM_TENSOR per_rank: the tensors (its first dimension), else 0 */
	int access;           /* SYM_TENSOR: IrAccess */
	int rank;             /* SYM_TENSOR, SYM_SHARED */
	Symbol *dimsym[IR_MAX_RANK];   /* SYM_TENSOR: the shape symbol of each dim, or NULL */
	int64_t dims[IR_MAX_RANK];     /* fixed dims (tensors when dimsym is NULL; shared) */
	int slot;             /* locals: index into the lowering's value table */
	int buf;              /* SYM_SHARED: the IR buffer number */
	int align;            /* SYM_SHARED */
	int builtin;          /* SYM_BUILTIN */
	/* async objects (async.c) */
	int stages;           /* SYM_SHARED: 1 unless in a pipeline; SYM_PIPELINE */
	Symbol *pipe;         /* SYM_SHARED: its pipeline, or NULL */
	int swizzle;          /* SYM_SHARED, SYM_TMAP: 0, 32, 64 or 128 */
	int packed;           /* SYM_TMEM: declared `packed`, an MMA operand A (two 16-bit elements per cell) */
	Symbol *alias;        /* SYM_SHARED: the buffer whose storage it shares, or NULL */
	Symbol *tensor;       /* SYM_TMAP: the tensor parameter */
	int oob_nan;          /* SYM_TMAP */
	int index;            /* SYM_PIPELINE: pipeline index; SYM_MBARRIER: barrier index */
	int bar[2];           /* SYM_PIPELINE: full and empty barrier indices */
	int src[2], mult[2];  /* SYM_PIPELINE: full and empty sources (IrPipeSource), times */
	int multicast;        /* SYM_PIPELINE: a produce block of it multicasts a TMA load */
	int count;            /* SYM_MBARRIER: arrival count; SYM_REGS: elements */
	int ucon;             /* SYM_ITER, SYM_LET: an i32 known once loops are unrolled
				   (regarray.c) */
	int constlet;         /* SYM_LET: its initializer is a compile-time scalar (val): every
				   use of the name is that constant */
	int ra_marked;        /* SYM_LET: ra_mark_loops walked its initializer (once: lets
				   that use a let twice would make the walk exponential) */
	/* tensor memory (mma_tcgen05.c; stages and pipe as for shared arrays, dims lanes and
	 * columns of one stage) */
	int col;              /* SYM_TMEM: its first column in the CTA's allocation */
	Node *wrole, *rrole;  /* SYM_TMEM: the roles of its first tcgen05_mma and tmem_load */
	SrcLoc wloc, rloc;    /* SYM_TMEM: those calls */
	Node *decl;
};

/* The state shared by the lexer and the parser of one file (flex's yyextra). */
typedef struct Parser {
	Arena *arena;         /* the program arena: the AST and its strings */
	int file;             /* diag file index */
	Node *program;
	int too_deep;         /* the nesting error was reported once */
	int stop;             /* the input was abandoned: no further syntax errors */
	int nest;             /* open ( [ { in the lexer */
	int64_t nclones;      /* nodes ast_clone made (func.c counts those of inlining) */
	SrcLoc comment_loc;   /* where an open block comment started */
	int line, col;        /* the lexer's position */
	char tok[48];         /* the text of the last token, for syntax errors */
	int prev_tok;         /* the token before the lookahead, and where it ended */
	SrcLoc prev_end;
	int cur_tok;
	SrcLoc cur_end;
} Parser;

/* ---- frontend.c ---- */
/* Whether the kernel named name is compiled: every kernel, unless opt names the ones wanted
 * (--kernel). Sema checks and irgen lowers only those. */
int fe_wanted(const FeOptions *opt, const char *name);

/* ---- parser.y ---- */
/* Parses text into p->program; syntax errors go through diag. */
void fe_parse(Parser *p, const char *text, size_t len);

/* ---- import.c ---- */
/* Replaces each `import "x.cake";` of the program (parsed from path) by the fn and const
 * declarations of the file it names, recursively, each file once; errors go through diag. */
void import_resolve(Parser *p, const char *path, const FeOptions *opt);

/* ---- ast.c: builders (one per grammar action) and the printer ---- */
Node *ast_node(Parser *p, NodeKind kind, SrcLoc loc);
NodeList ast_list_empty(void);
NodeList ast_list_one(Node *n);
NodeList ast_list_append(NodeList l, Node *n);
Node *ast_program(Parser *p, NodeList decls);
Node *ast_int(Parser *p, SrcLoc loc, int64_t v);
Node *ast_float(Parser *p, SrcLoc loc, double v);
Node *ast_bool(Parser *p, SrcLoc loc, int v);
Node *ast_name(Parser *p, SrcLoc loc, const char *name);
Node *ast_unary(Parser *p, SrcLoc loc, AstOp op, Node *a);
Node *ast_binary(Parser *p, SrcLoc loc, AstOp op, Node *a, Node *b);
Node *ast_cond(Parser *p, SrcLoc loc, Node *c, Node *a, Node *b);
Node *ast_call(Parser *p, SrcLoc loc, const char *name, NodeList args);
Node *ast_index(Parser *p, SrcLoc loc, Node *base, NodeList idx, Node *width);
Node *ast_member(Parser *p, SrcLoc loc, Node *base, const char *name);
Node *ast_type(Parser *p, SrcLoc loc, const char *name, NodeList dims);
Node *ast_let(Parser *p, SrcLoc loc, int mutable_, const char *name, Node *type, Node *init);
Node *ast_shared(Parser *p, SrcLoc loc, const char *name, Node *type, NodeList attrs);
Node *ast_shared_attr(Parser *p, SrcLoc loc, const char *word, Node *arg);
/* a bare word after a declaration's type (a tmem's `packed`): an N_SATTR without lhs */
Node *ast_bare_attr(Parser *p, SrcLoc loc, const char *word);
/* `tmem NAME: T[128, COLS] [in PIPELINE];` (word must be tmem) */
Node *ast_tmem(Parser *p, SrcLoc loc, const char *word, const char *name, Node *type, NodeList attrs);
Node *ast_assign(Parser *p, SrcLoc loc, AstOp op, Node *lhs, Node *rhs);
Node *ast_if(Parser *p, SrcLoc loc, Node *cond, Node *then, Node *els);
Node *ast_for(Parser *p, SrcLoc loc, const char *iv, Node *lo, Node *hi, const char *word,
	      SrcLoc wloc, Node *step, Node *unroll, Node *body);
Node *ast_unroll(Parser *p, SrcLoc loc, const char *word, Node *count);
Node *ast_while(Parser *p, SrcLoc loc, Node *cond, Node *body);
Node *ast_block(Parser *p, SrcLoc loc, NodeList stmts);
Node *ast_exprstmt(Parser *p, SrcLoc loc, Node *e);
Node *ast_exit(Parser *p, SrcLoc loc, NodeKind kind, Node *value);
Node *ast_func(Parser *p, SrcLoc loc, const char *name, NodeList params, Node *ret, Node *body);
Node *ast_import(Parser *p, SrcLoc loc, const char *path);
Node *ast_generic(Parser *p, NodeList tparams);
/* What a copy replaces: each name in names[] becomes, as a type name (a type, or the name
 * of a conversion call), types[i] (a type's name, or NULL), and as a value ints[i]. */
typedef struct AstSubst {
	int n;
	const char **names;
	const char **types;
	const int64_t *ints;
} AstSubst;
/* A copy of the syntax of n (what sema fills in left blank), each location at inline site
 * `site`, with subst's names replaced (subst may be NULL). */
Node *ast_clone(Parser *p, const Node *n, int site, const AstSubst *subst);
NodeList ast_clone_list(Parser *p, NodeList l, int site, const AstSubst *subst);
Node *ast_tparam(Parser *p, SrcLoc loc, const char *name, NodeList domain, Node *dflt);
Node *ast_instance(Parser *p, SrcLoc loc, const char *word, const char *name, SrcLoc nloc,
		   NodeList args, NodeList attrs);
Node *ast_const(Parser *p, SrcLoc loc, const char *name, Node *type, Node *init);
Node *ast_kernel(Parser *p, SrcLoc loc, const char *name, NodeList params, NodeList attrs,
		 Node *body);
Node *ast_param(Parser *p, SrcLoc loc, const char *name, const char *access, SrcLoc aloc,
		Node *type);
Node *ast_clause(Parser *p, SrcLoc loc, const char *name, NodeList args);
/* Hopper constructs: the statements start with a contextual word (tensormap, pipeline,
 * mbarrier, role, elect, produce, consume) that the builder checks. */
Node *ast_list_expr(Parser *p, SrcLoc loc, NodeList items);
Node *ast_named(Parser *p, SrcLoc loc, const char *name, Node *value);
Node *ast_method(Parser *p, SrcLoc loc, Node *recv, const char *name, NodeList args);
Node *ast_decl_init(Parser *p, SrcLoc loc, const char *word, const char *name, SrcLoc nloc,
		    Node *init);
Node *ast_decl_args(Parser *p, SrcLoc loc, const char *word, const char *name, SrcLoc nloc,
		    NodeList args);
Node *ast_role(Parser *p, SrcLoc loc, const char *word, const char *name, SrcLoc nloc,
	       NodeList args, NodeList attrs, Node *body);
Node *ast_range(Parser *p, SrcLoc loc, const char *word, Node *lo, Node *hi);
Node *ast_role_attr(Parser *p, SrcLoc loc, const char *word, NodeList args);
Node *ast_word_block(Parser *p, SrcLoc loc, const char *word, Node *body);
Node *ast_pipe_block(Parser *p, SrcLoc loc, const char *word, const char *name, SrcLoc nloc,
		     Node *body);

const char *ast_op_text(AstOp op);
/* Expression e as source text, with only the parentheses its operators need
 * ("M <= 64 && N % 8 == 0"), for messages and the manifest. */
void ast_expr_text(const Node *e, Buf *out);
void ast_print(Buf *out, const Node *program);
/* The printable name of a type, including the frontend-only bases ("untyped int"). */
void fe_type_str(IrType t, char *out, int size);
/* The shortest decimal spelling of v that reads back exactly, with a '.' or exponent. */
void fe_double_str(char *out, size_t size, double v);

/* ---- sema.c ---- */
/* Checks the program and annotates the AST (types, constants, symbols, slots). Applies the
 * -D overrides. Reports through diag; returns the number of errors. */
int sema_program(Parser *p, Node *program, const FeOptions *opt);

/* The checker's state, shared by sema.c, scope.c, expr.c and the async checks. */
#define SEMA_BUCKETS 1024

typedef struct Sema {
	Parser *p;
	const FeOptions *opt;
	/* Visible names: a stack (scopes pop from its top) and, to find them fast, a hash of
	 * chains through `chain`: the top entry is always the head of its chain. */
	Symbol **scope;
	int nscope, capscope;
	int *chain;
	int capchain;
	int heads[SEMA_BUCKETS];
	int *marks;
	int nmarks, capmarks;
	/* the kernel being checked */
	Node *kernel;
	int nparams;            /* its declared parameters; shape symbols come after */
	Symbol **syms;
	int nsyms, capsyms;
	Symbol **shared;
	int nshared, capshared;
	int nslots;
	int depth;              /* block nesting: 1 is the kernel body */
	struct AsyncSema *asy;  /* the async constructs' state (async.c) */
	/* functions and early exits (func.c, sema.c) */
	int file_top;           /* scope entries below it are the file's (builtins, constants,
				   functions) */
	int hide_lo, hide_hi;   /* scope entries in [hide_lo, hide_hi) are out of sight: the
				   caller's names while a function body is checked at a call */
	struct ExitCtx *xs;     /* what break, continue and return leave, innermost last */
	int nxs, capxs;
	FnCall **inl;           /* the calls being checked, innermost last (recursion) */
	int ninl, capinl;
	int64_t inl_nodes;      /* AST nodes the current kernel's calls copied (FE_MAX_INLINED) */
	int left_out;           /* kernels or instances --kernel left unchecked */
} Sema;

/* A construct that an early exit leaves or may not leave (sema.c). */
typedef struct ExitCtx {
	int kind;               /* XC_* */
	Node *node;             /* the loop, kernel, or async block */
	FnCall *call;           /* XC_FUNC */
	IrType ret;             /* XC_FUNC: the return type (void for none) */
} ExitCtx;

enum { XC_LOOP, XC_KERNEL, XC_FUNC, XC_BLOCK };

/* How deep calls may nest when inlined (a chain longer than this is an error). */
#define FE_MAX_INLINE 64
/* The most AST nodes a kernel's calls may copy when inlined, all calls of all depths
 * together: a function that calls another twice, which calls another twice, ... doubles
 * per level, so the depth limit alone lets 30 levels make 2^30 copies (minutes and
 * gigabytes). Reported at the call that crosses it. */
#define FE_MAX_INLINED (1 << 18)
/* The tensors of a per_rank parameter: a launcher takes one per rank (GPUs of an NVLink
 * domain), and an element access picks among them by a chain of selects. */
#define FE_MAX_RANKS 16

void sema_check_block(Sema *S, Node *b);
int sema_new_slot(Sema *S);
/* Allocates the hidden slots of the early exits a body takes (the return flag and value,
 * ret's type void for none) and checks the body as that of a kernel or function. */
void sema_check_body(Sema *S, Node *body, int kind, FnCall *call, IrType ret, int *slots);

/* ---- regarray.c: register arrays ---- */
/* The most elements of a register array. */
#define FE_MAX_REGS 1024
/* The most iterations a loop marked `unroll` (fully) may have: past it the unrolled body
 * would only make the compile slow (LLVM's unroller takes minutes at 10^5). The IR's
 * limit: sema reports it at the loop, before irgen unrolls register-array loops itself. */
#define FE_MAX_FULL_UNROLL IR_MAX_FULL_UNROLL
/* `var r: T[dims] = init;`: declares the array (s->sym). */
void ra_declare(Sema *S, Node *s);
/* r[i, ...] (e->lhs names the SYM_REGS s): checks the indices, types e. */
int ra_element(Sema *S, Node *e, Symbol *s);
/* Whether the checked i32 expression e is known once loops are unrolled (constants,
 * indices of fully unrolled loops with constant bounds, lets of such, arithmetic). */
int ra_known(const Node *e);
/* store(tensor, r, [row, col]) with register array s as argument a: checks it, types a. */
int ra_row_arg(Sema *S, Node *a, Symbol *s);
void ra_mark_loops(const Node *e);

/* ---- generic.c: generic kernels and their instances ---- */
/* Checks a generic kernel's parameters (not its body: that is checked per instance). */
void gen_check_generic(Sema *S, Node *k);
/* An instance declaration: the copy of its generic kernel with the parameters replaced by
 * the instance's arguments, named (unchecked), or NULL after an error or for an instance
 * --kernel leaves out (counted in its kernel's KernelInfo.nleft_out, no copy made). */
Node *gen_instance(Sema *S, Node *inst, Node *program);
/* The generic kernel whose entry point instance `inst` joins (`entry NAME`, else its own
 * kernel), or NULL after an error. */
Node *gen_entry_of(Node *inst, Node *program);
/* After the instances: every type a generic kernel's type parameter lists must be taken by
 * an instance, or its entry point could select nothing for it. */
void gen_check_entries(Sema *S, Node *program);

/* ---- func.c: user functions ---- */
/* Declares every function of the program (after the constants). */
void fn_declare_all(Sema *S, Node *program);
/* Checks a call of the function s: the arguments here, then a copy of the body with the
 * parameters bound, as if written at the call. Sets e->call and e->ty. */
void fn_check_call(Sema *S, Node *e, Symbol *s);
/* Warns about functions no kernel calls (their bodies are checked only at calls). */
void fn_report_unused(Sema *S, Node *program);

/* ---- scope.c ---- */
void sema_scope_push(Sema *S);
void sema_scope_pop(Sema *S);    /* forgets the names declared since the matching push */
Symbol *sema_lookup(Sema *S, const char *name);
void sema_push_name(Sema *S, Symbol *s);
/* Declares name in the innermost scope (no shadowing, no type or builtin names). */
Symbol *sema_declare(Sema *S, SymKind kind, const char *name, SrcLoc loc, Node *decl);
const char *sema_sym_what(const Symbol *s);   /* "tensor parameter", "'let' binding" */

/* ---- expr.c ---- */
void sema_add_builtins(Sema *S);
void sema_expr(Sema *S, Node *e);
/* sema_expr, then insists on a value (not a tensor, namespace, function or void call);
 * returns 0 after an error. */
int sema_value(Sema *S, Node *e);
/* A compile-time integer; returns 0 after an error naming `what`. */
int sema_const_int(Sema *S, Node *e, const char *what, int64_t *v);
/* The tensor or shared array an N_INDEX's base names, or NULL. */
Symbol *sema_element_base(Sema *S, Node *e);
/* Checks an element access of s (indices, width, access rights) and types it. */
int sema_element(Sema *S, Node *e, Symbol *s, int read, int write);

/* ---- types.c ---- */
static inline IrType
fe_ty(int base)
{
	IrType t = {(uint8_t)base, 1, 0, 0};

	return t;
}

static inline int fe_untyped(IrType t) { return t.base == TY_UNTYPED_INT || t.base == TY_UNTYPED_FLOAT; }
static inline int fe_is_error(IrType t) { return t.base == TY_ERROR; }
static inline int fe_scalar(IrType t) { return t.lanes == 1 && t.base >= IR_I1 && t.base <= IR_F64; }
static inline int fe_vector(IrType t) { return t.lanes > 1; }
static inline int fe_unsigned(IrType t) { return ir_is_unsigned(t); }
/* An integer type other than i1, scalar or vector, or an untyped integer. */
static inline int fe_intnum(IrType t) { return t.base == TY_UNTYPED_INT || (t.base > IR_I1 && t.base <= IR_U64); }
static inline int fe_floatnum(IrType t) { return t.base == TY_UNTYPED_FLOAT || (t.base >= IR_F16 && t.base <= IR_F64); }
static inline int fe_is_compare(AstOp op) { return op >= OP_EQ && op <= OP_GE; }

/* A scalar ("f32") or a 2- or 4-wide vector of a non-i1 scalar ("bf16x4"); 0 if none. */
int fe_type_from_name(const char *s, IrType *t);
const char *fe_tname(IrType t);    /* for messages; a few rotating buffers */
double fe_float_max(int base);
/* " (convert e4m3 to f16, bf16 or f32 first)" for an fp8 type, "" otherwise: the advice
 * that ends a "does not apply to T" message. */
const char *fe_fp8_advice(IrType t);
/* Whether T(x) may convert from to to (fp8 only to and from f16, bf16, f32); reports at e. */
int fe_conversion_ok(Node *e, IrType from, IrType to);
int fe_int_fits(int base, int64_t v);
void fe_const_str(char *out, size_t size, IrType t, ConstVal v);
double fe_round_float(int base, double v);
void fe_set_const(Node *e, IrType t, ConstVal v);
void fe_set_error(Node *e);
/* Gives the untyped constant e the type t if its value fits (else reports). */
int fe_convert_untyped(Node *e, IrType t);
/* Makes the checked e a value of type want (untyped constants convert, anything else
 * must match); `what` names the context. Returns 0 after an error. */
int fe_convert(Node *e, IrType want, const char *what);
int fe_default_type(Node *e);      /* untyped: i32 or f32 */
ConstVal fe_cast_const(IrType from, IrType to, ConstVal v);
int fe_fold_int(Node *e, AstOp op, IrType t, int64_t a, int64_t b, int64_t *r);
int fe_fold_binary(Node *e, AstOp op, IrType t, ConstVal a, ConstVal b);
int fe_binary_ok(AstOp op, IrType t);
int fe_unify(Node *e, Node *a, Node *b, const char *what);
int fe_touches_memory(const Node *n);   /* memory is read or written in n (expr.c) */
int fe_tparam_is_const(const Node *tp);

/* Builtins referenced by Node.builtin after sema (builtins.def). */
typedef enum Builtin {
	BI_NONE,
#define BUILTIN(id, name, nargs, check, opcode, meaning) BI_##id,
#include "builtins.def"
#undef BUILTIN
	BI_COUNT
} Builtin;

/* How sema checks a builtin (builtins.def describes each). */
typedef enum BuiltinCheck {
	CHK_NONE,
	CHK_VALUE, CHK_DIM, CHK_MATH_F32, CHK_MATH_FLOAT, CHK_FMA, CHK_BINARY, CHK_ABS, CHK_VOID,
	CHK_SHUFFLE, CHK_VOTE, CHK_ATOMIC, CHK_ORDERED, CHK_CP_ASYNC, CHK_CP_WAIT, CHK_ASYNC, CHK_METHOD,
	CHK_CONV, CHK_MATH_F32V, CHK_MATH_FLOATV, CHK_MATH2_F32, CHK_MATH2_FLOAT, CHK_CLASSIFY
} BuiltinCheck;

/* The per-kernel facts sema gathers for lowering. */
struct KernelInfo {
	/* a generic kernel (generic.c): its instances, in declaration order, and the
	 * instances of its entry point (its own, unless they name another entry, and those
	 * of other kernels that name it: `instance K<...> entry NAME`) */
	int ninst;
	Node **insts;             /* program arena */
	int nentry;
	Node **entry;             /* program arena */
	int nleft_out;            /* instances --kernel leaves out (not made, not checked) */
	/* an instance's kernel: its `when` condition (NULL: none, or always true) in the host
	 * formula language and as source text, and the clause (sema.c's check_when) */
	const char *when, *when_text;
	const Node *when_at;
	unsigned targets;
	int threads[3];
	const char *grid[3];      /* program arena */
	int nsyms;                /* shape symbols, in first-appearance order */
	Symbol **syms;            /* program arena */
	int nshared;
	Symbol **shared;          /* program arena */
	int nslots;               /* locals */
	/* async constructs (async.c) */
	int min_blocks;           /* 0: no clause */
	int cluster[3];
	int cta_group;            /* 1, or 2: tcgen05 on CTA pairs (cta_group(2)) */
	int index64;              /* index(i64): tensor indexing and shape symbols in i64 */
	int dependent;            /* launch(dependent): programmatic dependent launch */
	/* requires(COND): the condition in the host formula language (NULL: none, or always
	 * true) */
	const char *requires;
	int ntmaps;               /* tensor maps, parameters after the shape symbols */
	Symbol **tmaps;           /* program arena */
	int nhobjs;               /* pipelines and mbarriers in declaration order */
	Symbol **hobjs;           /* program arena */
	int ntmems;               /* tensor memory declarations, in order (mma_tcgen05.c) */
	Symbol **tmems;           /* program arena */
};

/* ---- async.c, async_decl.c, async_call.c, mma_wgmma.c: sema of the async constructs
 * (docs/language.md, "The async machinery") ---- */
void asy_kernel_begin(Sema *S, Node *k, KernelInfo *ki);
/* min_blocks(...) and cluster(...); returns 0 if n is not one of them. */
int asy_clause(Sema *S, Node *n, KernelInfo *ki);
/* Ends a kernel's async state; fills ki's tensor maps and barrier objects. */
void asy_kernel_end(Sema *S, Node *k, KernelInfo *ki);
/* The async statements; returns 0 if s is not one of them. */
int asy_stmt(Sema *S, Node *s);
/* Before and after the body of round_robin loop s (round_robin.c). */
void asy_round_robin_enter(Sema *S, Node *s);
void asy_round_robin_leave(Sema *S, Node *s);
/* The async calls and values (e->builtin set); returns 0 if e is not one of them. */
int asy_call(Sema *S, Node *e);
/* A return that leaves the kernel (not a function): 0 after reporting one it may not have. */
int asy_kernel_return(Sema *S, Node *s);
/* tmem_load(D, lane0, col0) as the initializer of register array sym of element type t
 * (mma_tcgen05.c); 0 after an error. */
int asy_tmem_load(Sema *S, Node *e, const Symbol *sym, IrType t);
/* The attributes of a shared array (in PIPE, swizzle, alias) after check_shared made sym. */
void asy_shared(Sema *S, Node *s, Symbol *sym);
/* Records a use of a shared array (a staged one needs its pipeline's block); 0 on error. */
int asy_buffer_use(Sema *S, Symbol *buf, SrcLoc loc);
/* remote(buf, rank)[i, ...]: the N_INDEX e whose base is that call. */
int asy_remote_element(Sema *S, Node *e, int read, int write);
/* f32acc[64, N] in a declaration: the fragment type, or 0 after an error. */
int asy_frag_type(Sema *S, Node *type, IrType *t);
/* Whether a type name is a fragment's: f32acc, bf16a or f16a. */
int asy_frag_name(const char *name);

/* ---- irgen.c ---- */
/* Builds the IR of one checked kernel (N_KERNEL with Node.sym->decl info from sema). */
IrKernel *irgen_kernel(Parser *p, Node *kernel, const KernelInfo *info, const char *path);

/* IR generation's state, shared by irgen.c, irgen_util.c and irgen_async.c. */
typedef struct IrGen {
	IrKernel *k;
	const KernelInfo *info;
	IrBuilder b;
	IrValue *slots;     /* the current value of each local */
	/* the produce/consume blocks being lowered, innermost last: pipeline index, stage */
	int nasync;
	int async_pipe[FE_MAX_ASYNC];
	IrValue async_stage[FE_MAX_ASYNC];
	int nconsume;       /* enclosing consume blocks (their lowering waits for wgmma) */
	/* early exits: the flag slots of the innermost body and loop (-1: none) */
	int ret_slot, brk_slot, cont_slot;
	const Node *oob;    /* the register array index last reported out of bounds */
	int64_t *known;     /* per slot: the value of an index known once loops are unrolled
			       (regarray.c), for the loops irgen unrolls */
	IrValue tmem_base;  /* the TMEM address of the kernel's allocation (0: no tmem) */
	const Node *role;   /* the role being lowered, or NULL */
} IrGen;

IrValue irgen_expr(IrGen *G, Node *e);
void irgen_block(IrGen *G, Node *b);

/* ---- irgen_util.c: what irgen.c and irgen_async.c share ---- */
/* Each builtin's IR op and check kind (builtins.def). */
typedef struct IrGenBuiltin {
	int opcode;       /* IrOpcode, 0 for none */
	int check;        /* BuiltinCheck */
} IrGenBuiltin;
extern const IrGenBuiltin irgen_builtins[BI_COUNT];

/* The variables declared before slot `base` that s assigns (sorted, once each). */
void irgen_assigned_vars(const Node *s, int base, int *out, int *n);
IrType *irgen_carried_types(IrGen *G, const int *slots, int n);
/* Ends the builder's region with opc (yield, condition) passing cond and the carried slots. */
void irgen_terminate(IrGen *G, int opc, IrValue cond, const int *slots, int n);
/* Lowers a statement into the builder's region: irgen_block, or another walk of it. */
typedef void (*IrgenLower)(IrGen *G, Node *body);
/* Lowers body into region r by `lower` (NULL: irgen_block), then yields the carried slots. */
void irgen_into(IrGen *G, IrRegion *r, Node *body, IrgenLower lower, const int *slots, int n, SrcLoc end);
/* irgen.c: an `if` op on the i1 c with imm `flag` carrying the n slots (at loc): region
 * 0 lowers `then` by lt, region 1 `els` by le (NULL: irgen_block). */
void irgen_if(IrGen *G, const int *slots, int n, SrcLoc loc, IrValue c, Node *then, IrgenLower lt,
	      Node *els, IrgenLower le, int64_t flag);
/* The same, carrying the variables declared before scope's slot_base that scope assigns. */
void irgen_assigned_if(IrGen *G, Node *scope, IrValue c, Node *then, IrgenLower lt, Node *els,
		       IrgenLower le, int64_t flag);
/* The stage of pipeline `pipe` in the innermost produce/consume block of it. */
IrValue irgen_stage(IrGen *G, int pipe);
/* The base pointer of shared buffer s here: smem, or smem.stage of the current stage. */
IrValue irgen_buffer(IrGen *G, const Symbol *s);
IrValue irgen_elemptr(IrGen *G, Node *e);                        /* irgen.c: an element's pointer */
IrValue irgen_rank_pick(IrGen *G, int first, int n, IrValue r, SrcLoc loc); /* irgen.c: one of a per_rank table's parameters */
int irgen_known(IrGen *G, const Node *e, int64_t *out);          /* irgen.c: a value ra_known found */
IrValue irgen_c32(IrGen *G, int64_t v);                        /* an i32 constant */
IrValue irgen_warpgroup(IrGen *G);                             /* warpid / 4 */
IrValue irgen_op2(IrGen *G, int opc, IrValue a, IrValue b);    /* result typed as a */

/* ---- irgen_async.c ---- */
/* Tensor-map params, barriers, pipelines, staging of buffers, cluster, min_blocks. */
void irgen_async_tables(IrGen *G);
/* Barrier initialisation at kernel entry (thread 0, fence, CTA or cluster barrier). */
void irgen_async_init(IrGen *G);
/* The async statements; 0 if s is not one. */
int irgen_async_stmt(IrGen *G, Node *s);
/* The async calls and values: *v gets the result (0 for none); 0 if e is not one. */
int irgen_async_call(IrGen *G, Node *e, IrValue *v);

/* ---- irgen_wgmma.c ---- */
/* acc = wgmma(acc, A, B): the new accumulator. */
IrValue irgen_wgmma(IrGen *G, Node *e);
IrValue irgen_wgmma_afrag(IrGen *G, Node *e);   /* bf16a(acc), f16a(acc) */
/* store(tensor, acc, [row0, col0]) of an m64nN f32 accumulator. */
void irgen_wgmma_store(IrGen *G, Node *e);
IrValue irgen_wgmma_fragment(IrGen *G, Node *e);
IrValue irgen_frag_rows(IrGen *G, Node *e);
void irgen_store_rows(IrGen *G, Node *e);

/* ---- round_robin.c ---- */
/* The body of round_robin loop s at index iv (lo, step: its bounds' values). */
void irgen_round_robin_body(IrGen *G, Node *s, IrValue iv, IrValue lo, IrValue step);
/* irgen_async.c: the stage and phase of produce/consume block s's pipeline move on. */
void irgen_stage_advance(IrGen *G, Node *s);

/* ---- turns.c ---- */
void irgen_turn_call(IrGen *G, Node *e);        /* take_turn(), pass_turn() */
void irgen_turn_start(IrGen *G, const Node *r); /* the first turn, at role r's entry */

/* ---- irgen_tcgen05.c ---- */
/* With tensor memory: the address slot (a shared buffer), warp 0's allocation and the
 * fenced broadcast of its address at entry; the fenced free at the end. */
void irgen_tmem_begin(IrGen *G);
void irgen_tmem_end(IrGen *G);
void irgen_async_end(IrGen *G);       /* the cluster barrier of a cluster release */
void irgen_tcgen05_mma(IrGen *G, Node *e);
/* var r: f32[N] = tmem_load(D, lane0, col0): out gets the N element values. */
void irgen_tmem_load(IrGen *G, Node *e, int n, IrValue *out);
/* tmem_store(D, lane0, col0, r): r's elements into D, waited for. */
void irgen_tmem_store(IrGen *G, Node *e);

#endif
