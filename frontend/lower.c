/* frontend/lower.c: being written */
typedef int cake_unused_lower;
