/* schedule_check.c: being written (see passes.h). */
#include "passes.h"

void
pass_schedule_check(IrKernel *k)
{
	(void)k;
}
