/* cakert.h: being written */
