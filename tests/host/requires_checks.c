/* requires_checks.c: the requires(...) clauses of tests/host/requires.cake through the
 * launchers' and the entry point's _grid functions (no driver needed): the arguments
 * that meet them get a grid, the others CAKE_ERR_SHAPE with the condition and values. */
#include "ratio.h"
#include "rows.h"
#include "rows_128.h"
#include "rows_64.h"
#include "spread.h"
#include "views.h"

#include <string.h>

/* x and y of shape [3, k] for any of the rows launchers (their args are alike). */
static void
rows_views(CakeTensor *x, CakeTensor *y, int64_t *shape, int64_t k)
{
	shape[0] = 3;
	shape[1] = k;
	*x = view_at(0x10000000u, CAKE_DTYPE_FLOAT, 32, 2, shape);
	*y = view_at(0x20000000u, CAKE_DTYPE_FLOAT, 32, 2, shape);
}

static void
run_rows(const char *label, int which, int64_t k)
{
	int64_t shape[2], grid[3] = {0, 0, 0};
	CakeError err;
	int rc;

	memset(&err, 0, sizeof err);
	if (which == 64) {
		rows_64_args a;

		rows_views(&a.x, &a.y, shape, k);
		rc = rows_64_grid(&a, grid, &err);
	} else if (which == 128) {
		rows_128_args a;

		rows_views(&a.x, &a.y, shape, k);
		rc = rows_128_grid(&a, grid, &err);
	} else {
		rows_args a;

		rows_views(&a.x, &a.y, shape, k);
		rc = rows_grid(&a, grid, &err);
	}
	report_grid(label, rc, grid, &err);
}

static void
run_ratio(const char *label, int64_t n, int32_t d)
{
	int64_t shape[1] = {n}, grid[3] = {0, 0, 0};
	ratio_args a;
	CakeError err;

	a.x = view_at(0x10000000u, CAKE_DTYPE_FLOAT, 32, 1, shape);
	a.y = view_at(0x20000000u, CAKE_DTYPE_FLOAT, 32, 1, shape);
	a.d = d;
	report_grid(label, ratio_grid(&a, grid, &err), grid, &err);
}

/* spread's grid needs the device's SM count: a bad N is refused before the launcher asks
 * for it; a good one gets that far (no context here: some error other than the shape's). */
static void
run_spread(const char *label, int64_t n)
{
	int64_t shape[1] = {n}, grid[3] = {0, 0, 0};
	spread_args a;
	CakeError err;
	int rc;

	memset(&err, 0, sizeof err);
	a.x = view_at(0x10000000u, CAKE_DTYPE_FLOAT, 32, 1, shape);
	a.y = view_at(0x20000000u, CAKE_DTYPE_FLOAT, 32, 1, shape);
	rc = spread_grid(&a, grid, &err);
	if (rc == CAKE_ERR_SHAPE)
		report_grid(label, rc, grid, &err);
	else
		printf("%s: past requires (asks the device for num_sms)\n", label);
}

int
main(void)
{
	run_rows("rows_64 K=64", 64, 64);
	run_rows("rows_64 K=68", 64, 68);
	run_rows("rows_64 K=62", 64, 62);
	run_rows("rows_128 K=100", 128, 100);
	run_rows("rows_128 K=132", 128, 132);
	run_rows("entry K=100", 0, 100);
	run_rows("entry K=200", 0, 200);
	run_ratio("ratio N=10 d=5", 10, 5);
	run_ratio("ratio N=10 d=6", 10, 6);
	run_ratio("ratio N=10 d=0", 10, 0);
	run_spread("spread N=10", 10);
	run_spread("spread N=12", 12);
	return 0;
}
