/* frontend/ast.c: being written */
typedef int cake_unused_ast;
