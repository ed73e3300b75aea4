/* views.h: what the entry-point check programs (entry*_checks.c) share: a tensor view for
 * the grid path, which checks views but never dereferences them, and the line each
 * _grid call prints. Include after the entry point's header. */
#ifndef CAKE_TEST_VIEWS_H
#define CAKE_TEST_VIEWS_H

#include <stdint.h>
#include <stdio.h>

/* A row-major view at address data (never dereferenced) of the given DLPack type. */
static CakeTensor
view_at(uintptr_t data, int code, int bits, int ndim, const int64_t *shape)
{
	CakeTensor t;

	t.data = (void *)data;
	t.device.device_type = CAKE_DEVICE_CUDA;
	t.device.device_id = 0;
	t.ndim = ndim;
	t.dtype.code = (uint8_t)code;
	t.dtype.bits = (uint8_t)bits;
	t.dtype.lanes = 1;
	t.shape = shape;
	t.strides = NULL;
	t.byte_offset = 0;
	return t;
}

/* "label: CAKE_OK grid 4", or "label: CAKE_ERR_SHAPE <message>". */
static void
report_grid(const char *label, int rc, const int64_t grid[3], const CakeError *err)
{
	if (rc == CAKE_OK)
		printf("%s: CAKE_OK grid %lld\n", label, (long long)grid[0]);
	else
		printf("%s: %s %s\n", label, cakert_status_name(rc), err->msg);
}

#endif
