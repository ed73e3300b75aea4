/* lower_async.c: being written (see passes.h). */
#include "passes.h"

void
pass_lower_async(IrKernel *k)
{
	(void)k;
}
