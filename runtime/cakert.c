/* cakert.c: being written */
