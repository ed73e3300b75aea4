/* frontend/sema.c: being written */
typedef int cake_unused_sema;
