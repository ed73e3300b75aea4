/* cakert.c: the runtime behind cakec's generated launchers (see cakert.h).
 *
 * Three parts: checks that need no GPU (tensor views, scalars, the grid), the driver
 * loader (dlopen once, entry points by version), and the per-context module cache with
 * the launch itself. Nothing here aborts or prints: every failure becomes a status code
 * and a message in the caller's CakeError. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "cakert.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A kernel without index(i64) indexes in i32: every dimension and element count must stay
 * below this. One with index(i64) takes any shape whose bytes fit in int64. */
#define I32_LIMIT ((int64_t)1 << 31)
/* Dynamic shared memory beyond this needs the per-function opt-in. */
#define SMEM_DEFAULT_LIMIT (48 * 1024)
/* CUDA 13.4's oversized shared-memory mode, by value: cakert builds against older cuda.h
 * files, which do not name them (CU_DEVICE_ATTRIBUTE_MAX_OVERSIZED_SHARED_MEMORY_PER_BLOCK,
 * CU_FUNC_ATTRIBUTE_SHARED_MEMORY_MODE, CU_SHARED_MEMORY_MODE_ALLOW_OVERSIZED_SHARED_MEMORY). */
#define ATTR_MAX_OVERSIZED_SMEM ((CUdevice_attribute)150)
#define FUNC_ATTR_SMEM_MODE ((CUfunction_attribute)17)
#define SMEM_MODE_ALLOW_OVERSIZED 3
/* cakert's driver prototypes are those of CUDA 12.0; ask cuGetProcAddress for them. */
#define DRIVER_ABI 12000

static const char *const status_names[CAKE_STATUS_COUNT] = {
	"CAKE_OK", "CAKE_ERR_NULL", "CAKE_ERR_DTYPE", "CAKE_ERR_NDIM", "CAKE_ERR_SHAPE",
	"CAKE_ERR_STRIDE", "CAKE_ERR_ALIGN", "CAKE_ERR_LIMIT", "CAKE_ERR_RANGE",
	"CAKE_ERR_DEVICE", "CAKE_ERR_OVERLAP", "CAKE_ERR_GRID", "CAKE_ERR_NO_DRIVER",
	"CAKE_ERR_DRIVER", "CAKE_ERR_CONTEXT", "CAKE_ERR_ARCH", "CAKE_ERR_SMEM",
	"CAKE_ERR_NOMEM",
};

/* @cakec:target-names (cakec writes target_names[] here, by CAKERT_<ID>, from ir/targets.def) */

const char *
cakert_status_name(int status)
{
	if (status < 0 || status >= CAKE_STATUS_COUNT)
		return "CAKE_ERR_?";
	return status_names[status];
}

void
cakert_clear(CakeError *err)
{
	if (err) {
		err->status = CAKE_OK;
		err->msg[0] = 0;
	}
}

int
cakert_fail(CakeError *err, int status, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->status = status;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof err->msg, fmt, ap);
		va_end(ap);
	}
	return status;
}

/* ---- checks that need no GPU ---- */

static const char *
dtype_name(int code, int bits)
{
	switch (code) {
	case CAKE_DTYPE_INT:
		return bits == 8 ? "i8" : bits == 16 ? "i16" : bits == 32 ? "i32" : bits == 64 ? "i64" : NULL;
	case CAKE_DTYPE_UINT:
		return bits == 8 ? "u8" : bits == 16 ? "u16" : bits == 32 ? "u32" : bits == 64 ? "u64" : NULL;
	case CAKE_DTYPE_FLOAT:
		return bits == 16 ? "f16" : bits == 32 ? "f32" : bits == 64 ? "f64" : NULL;
	case CAKE_DTYPE_BFLOAT:
		return bits == 16 ? "bf16" : NULL;
	case CAKE_DTYPE_BOOL:
		return bits == 8 ? "bool" : NULL;
	case CAKE_DTYPE_FLOAT8_E4M3FN:
		return bits == 8 ? "e4m3" : NULL;
	case CAKE_DTYPE_FLOAT8_E5M2:
		return bits == 8 ? "e5m2" : NULL;
	default:
		return NULL;
	}
}

static const char *
access_name(int access)
{
	return access == CAKERT_OUT ? "out" : access == CAKERT_INOUT ? "inout" : "in";
}

/* Writes "[a, b, c]" of n values into out. */
static void
format_dims(char *out, size_t size, const int64_t *v, int n)
{
	size_t len = 0;
	int i;

	out[0] = 0;
	for (i = 0; i < n && len < size; i++) {
		int w = snprintf(out + len, size - len, "%s%" PRId64, i ? ", " : "[", v[i]);

		if (w < 0)
			return;
		len += (size_t)w;
	}
	if (len < size)
		snprintf(out + len, size - len, n ? "]" : "[]");
}

/* Where symbol s was first bound: the first tensor dimension that names it. */
static void
sym_binder(const CakertKernel *k, int s, const char **tensor, int *dim)
{
	int i, d;

	for (i = 0; i < k->ntensors; i++)
		for (d = 0; d < k->tensors[i].rank; d++)
			if (k->tensors[i].dims[d].sym == s) {
				*tensor = k->tensors[i].name;
				*dim = d;
				return;
			}
	*tensor = "?";
	*dim = 0;
}

/* The element count of t, or cap when it is cap or more; -1 for a negative extent. */
static int64_t
numel_capped(const CakeTensor *t, int64_t cap)
{
	int64_t n = 1;
	int i;

	for (i = 0; i < t->ndim; i++)
		if (t->shape[i] < 0)
			return -1;
	for (i = 0; i < t->ndim; i++)
		if (t->shape[i] == 0)
			return 0;
	for (i = 0; i < t->ndim; i++) {
		if (t->shape[i] > cap / n)
			return cap;
		n *= t->shape[i];
	}
	return n < cap ? n : cap;
}

/* Element count of t once its shape has passed the limits. */
static int64_t
numel_of(const CakeTensor *t)
{
	int64_t n = 1;
	int i;

	for (i = 0; i < t->ndim; i++)
		n *= t->shape[i];
	return n;
}

/* The first tensor map over the tensor of spec s, or NULL: TMA is why such a tensor needs
 * 16-byte alignment, and the message should say so. */
static const char *
tmap_over(const CakertKernel *k, const CakertTensorSpec *s)
{
	int i;

	for (i = 0; i < k->ntmaps; i++)
		if (&k->tensors[k->tmaps[i].tensor] == s)
			return k->tmaps[i].name;
	return NULL;
}

/* Reports tensor t past the limits of k's index width: dimension dim, or (dim < 0) the
 * element count. Under i32 the message names the fix. */
static int
limit_fail(const CakertKernel *k, const CakertTensorSpec *s, const CakeTensor *t, int index64,
	   int dim, CakeError *err)
{
	char shape[160], count[48], what[320];
	int64_t n = numel_capped(t, INT64_MAX);

	format_dims(shape, sizeof shape, t->shape, t->ndim);
	if (n < 0)
		snprintf(count, sizeof count, "?");
	else if (n == INT64_MAX)
		snprintf(count, sizeof count, "2^63 or more");
	else
		snprintf(count, sizeof count, "%" PRId64, n);
	if (dim >= 0)
		snprintf(what, sizeof what, "shape[%d] = %" PRId64 " (shape %s, %s elements)", dim,
			 t->shape[dim], shape, count);
	else
		snprintf(what, sizeof what, "%s elements (shape %s)", count, shape);
	if (index64)
		return cakert_fail(err, CAKE_ERR_LIMIT,
				   "%s: parameter '%s': %s: too large (the tensor's bytes must fit in int64)",
				   k->name, s->name, what);
	return cakert_fail(err, CAKE_ERR_LIMIT,
			   "%s: parameter '%s': %s is not below 2^31, but kernel '%s' indexes in i32: declare index(i64) on kernel '%s' (or dispatch to a variant that has it)",
			   k->name, s->name, what, k->name, k->name);
}

static int
check_tensor(const CakertKernel *k, const CakertTensorSpec *s, const CakeTensor *t,
	     int index64, int64_t *sym, CakeError *err)
{
	/* under index(i64), the byte size (and so every stride in bytes) fits in int64 */
	int64_t limit = index64 ? INT64_MAX / (s->bits / 8) : I32_LIMIT;
	char want[160], found[160];
	const char *tname;
	int64_t numel, expect;
	uint64_t addr;
	int i;

	if (!t)
		return cakert_fail(err, CAKE_ERR_NULL, "%s: parameter '%s': tensor view is NULL",
				   k->name, s->name);
	if (t->device.device_type != CAKE_DEVICE_CUDA)
		return cakert_fail(err, CAKE_ERR_DEVICE,
				   "%s: parameter '%s': expected a CUDA tensor (device type %d), found device type %d",
				   k->name, s->name, CAKE_DEVICE_CUDA, (int)t->device.device_type);
	if (t->dtype.code != s->code || t->dtype.bits != s->bits || t->dtype.lanes != 1) {
		tname = dtype_name(t->dtype.code, t->dtype.bits);
		return cakert_fail(err, CAKE_ERR_DTYPE,
				   "%s: parameter '%s': expected dtype %s (code %d, bits %d, lanes 1), found %s (code %d, bits %d, lanes %d)",
				   k->name, s->name, dtype_name(s->code, s->bits), s->code, s->bits,
				   tname ? tname : "unknown", (int)t->dtype.code, (int)t->dtype.bits,
				   (int)t->dtype.lanes);
	}
	if (t->ndim != s->rank)
		return cakert_fail(err, CAKE_ERR_NDIM,
				   "%s: parameter '%s': expected ndim %d, found %d",
				   k->name, s->name, s->rank, (int)t->ndim);
	if (s->rank > 0 && !t->shape)
		return cakert_fail(err, CAKE_ERR_NULL, "%s: parameter '%s': shape is NULL",
				   k->name, s->name);
	for (i = 0; i < s->rank; i++) {
		const CakertDim *d = &s->dims[i];
		int64_t v = t->shape[i];

		if (v < 0)
			return cakert_fail(err, CAKE_ERR_SHAPE,
					   "%s: parameter '%s': shape[%d] is negative (%" PRId64 ")",
					   k->name, s->name, i, v);
		if (v >= limit)
			return limit_fail(k, s, t, index64, i, err);
		if (d->sym < 0) {
			if (v != d->size)
				return cakert_fail(err, CAKE_ERR_SHAPE,
						   "%s: parameter '%s': expected shape[%d] = %" PRId64 ", found %" PRId64,
						   k->name, s->name, i, d->size, v);
		} else if (sym[d->sym] < 0) {
			sym[d->sym] = v;
		} else if (sym[d->sym] != v) {
			const char *by;
			int bydim;

			sym_binder(k, d->sym, &by, &bydim);
			return cakert_fail(err, CAKE_ERR_SHAPE,
					   "%s: parameter '%s': expected shape[%d] = %s = %" PRId64 " (bound by '%s' shape[%d]), found %" PRId64,
					   k->name, s->name, i, k->syms[d->sym], sym[d->sym], by, bydim, v);
		}
	}
	numel = numel_capped(t, limit);
	if (numel >= limit)
		return limit_fail(k, s, t, index64, -1, err);
	if (!t->data && numel > 0)
		return cakert_fail(err, CAKE_ERR_NULL, "%s: parameter '%s': data is NULL",
				   k->name, s->name);
	/* An empty tensor is never read, whatever its strides. */
	if (t->strides && numel > 0) {
		int64_t want_strides[CAKERT_MAX_RANK];

		expect = 1;
		for (i = s->rank - 1; i >= 0; i--) {
			want_strides[i] = expect;
			expect *= t->shape[i];
		}
		for (i = 0; i < s->rank; i++) {
			/* A dimension of extent 1 is never stepped over, so its stride is free
			 * (frameworks report such strides inconsistently). */
			if (t->shape[i] != 1 && t->strides[i] != want_strides[i]) {
				format_dims(want, sizeof want, want_strides, s->rank);
				format_dims(found, sizeof found, t->strides, s->rank);
				return cakert_fail(err, CAKE_ERR_STRIDE,
						   "%s: parameter '%s': expected row-major contiguous strides %s (elements), found %s",
						   k->name, s->name, want, found);
			}
		}
	}
	addr = (uint64_t)(uintptr_t)t->data + t->byte_offset;
	if (numel > 0 && s->align > 1 && addr % (uint64_t)s->align != 0) {
		const char *map = tmap_over(k, s);

		if (map)
			snprintf(want, sizeof want, "TMA: tensor map '%s' covers it", map);
		else
			snprintf(want, sizeof want, "%s", s->align > s->bits / 8 ?
				 "the kernel uses vector loads/stores on it" : "the element size");
		return cakert_fail(err, CAKE_ERR_ALIGN,
				   "%s: parameter '%s': expected data + byte_offset aligned to %d bytes (%s), found address 0x%" PRIx64,
				   k->name, s->name, s->align, want, addr);
	}
	return CAKE_OK;
}

/* The byte range [lo, hi) a tensor covers; empty when it has no elements. */
static void
tensor_range(const CakertTensorSpec *s, const CakeTensor *t, uint64_t *lo, uint64_t *hi)
{
	*lo = (uint64_t)(uintptr_t)t->data + t->byte_offset;
	*hi = *lo + (uint64_t)numel_of(t) * (uint64_t)(s->bits / 8);
}

static int
check_overlap(const CakertKernel *k, const CakeTensor *const *t, CakeError *err)
{
	uint64_t alo, ahi, blo, bhi;
	int i, j;

	for (i = 0; i < k->ntensors; i++) {
		const CakertTensorSpec *a = &k->tensors[i];

		if (a->access == CAKERT_IN)
			continue;
		tensor_range(a, t[i], &alo, &ahi);
		if (alo == ahi)
			continue;
		for (j = 0; j < k->ntensors; j++) {
			const CakertTensorSpec *b = &k->tensors[j];

			if (j == i)
				continue;
			tensor_range(b, t[j], &blo, &bhi);
			if (blo == bhi || ahi <= blo || bhi <= alo)
				continue;
			return cakert_fail(err, CAKE_ERR_OVERLAP,
					   "%s: parameter '%s' (%s, bytes 0x%" PRIx64 "..0x%" PRIx64 ") overlaps parameter '%s' (%s, bytes 0x%" PRIx64 "..0x%" PRIx64 "); expected disjoint tensors (the kernel assumes they do not alias)",
					   k->name, a->name, access_name(a->access), alo, ahi,
					   b->name, access_name(b->access), blo, bhi);
		}
	}
	return CAKE_OK;
}

static int
check_tensors(const CakertKernel *k, const CakeTensor *const *t, int index64, int64_t *sym,
	      CakeError *err)
{
	int i, rc;

	for (i = 0; i < k->ntensors; i++)
		if ((rc = check_tensor(k, &k->tensors[i], t[i], index64, sym, err)) != CAKE_OK)
			return rc;
	return check_overlap(k, t, err);
}

int
cakert_check_tensors(const CakertKernel *k, const CakeTensor *const *t, int64_t *sym,
		     CakeError *err)
{
	return check_tensors(k, t, 0, sym, err);
}

int
cakert_check_tensors_i64(const CakertKernel *k, const CakeTensor *const *t, int64_t *sym,
			 CakeError *err)
{
	return check_tensors(k, t, 1, sym, err);
}

/* TMA limits (cuTensorMapEncodeTiled): extents up to 2^32, byte strides multiples of 16
 * below 2^40. */
#define TMA_DIM_LIMIT ((uint64_t)1 << 32)
#define TMA_STRIDE_LIMIT ((uint64_t)1 << 40)

/* Byte stride of dimension d of a contiguous row-major tensor: the bytes of one step
 * along d. Shapes passed the limits (bytes below 2^63), so this cannot overflow. */
static uint64_t
stride_bytes(const CakeTensor *t, int bits, int d)
{
	uint64_t b = (uint64_t)(bits / 8);
	int i;

	for (i = d + 1; i < t->ndim; i++)
		b *= (uint64_t)t->shape[i];
	return b;
}

int
cakert_check_tmaps(const CakertKernel *k, const CakeTensor *const *t, CakeError *err)
{
	int i, d;

	for (i = 0; i < k->ntmaps; i++) {
		const CakertTmapSpec *m = &k->tmaps[i];
		const CakertTensorSpec *s = &k->tensors[m->tensor];
		const CakeTensor *x = t[m->tensor];
		const char *ty = dtype_name(s->code, s->bits);

		/* an empty tensor gets no map (cakert_launch passes zeros): nothing to check */
		if (numel_of(x) == 0)
			continue;
		for (d = 0; d < x->ndim; d++)
			if ((uint64_t)x->shape[d] > TMA_DIM_LIMIT)
				return cakert_fail(err, CAKE_ERR_LIMIT,
						   "%s: parameter '%s': shape[%d] = %" PRId64 " is over TMA's limit of 2^32 (tensor map '%s')",
						   k->name, s->name, d, x->shape[d], m->name);
		for (d = x->ndim - 2; d >= 0; d--) {
			uint64_t b = stride_bytes(x, s->bits, d);
			const CakertDim *inner = &s->dims[x->ndim - 1];
			char name[64];

			if (b % 16 != 0 && d == x->ndim - 2) {
				/* the row is the only stride that can fail: the outer ones are
				 * multiples of it */
				if (inner->sym >= 0)
					snprintf(name, sizeof name, "%s", k->syms[inner->sym]);
				else
					snprintf(name, sizeof name, "shape[%d]", x->ndim - 1);
				return cakert_fail(err, CAKE_ERR_STRIDE,
						   "%s: parameter '%s': row stride of %s is %" PRIu64 " bytes; TMA needs a multiple of 16: %s must be a multiple of %d for %s (tensor map '%s')",
						   k->name, s->name, s->name, b, name, 16 / (s->bits / 8 ? s->bits / 8 : 1),
						   ty ? ty : "this type", m->name);
			}
			if (b % 16 != 0)
				return cakert_fail(err, CAKE_ERR_STRIDE,
						   "%s: parameter '%s': stride of dimension %d of %s is %" PRIu64 " bytes; TMA needs a multiple of 16 (tensor map '%s')",
						   k->name, s->name, d, s->name, b, m->name);
			if (b >= TMA_STRIDE_LIMIT)
				return cakert_fail(err, CAKE_ERR_LIMIT,
						   "%s: parameter '%s': stride of dimension %d of %s is %" PRIu64 " bytes; TMA needs less than 2^40 (tensor map '%s')",
						   k->name, s->name, d, s->name, b, m->name);
		}
	}
	return CAKE_OK;
}

int
cakert_check_int(const CakertKernel *k, const char *param, int64_t v, int64_t lo, int64_t hi,
		 const char *type, CakeError *err)
{
	if (v < lo || v > hi)
		return cakert_fail(err, CAKE_ERR_RANGE,
				   "%s: parameter '%s': expected a value in %s range [%" PRId64 ", %" PRId64 "], found %" PRId64,
				   k->name, param, type, lo, hi, v);
	return CAKE_OK;
}

int
cakert_check_grid(const CakertKernel *k, const int64_t grid[3], CakeError *err)
{
	static const int64_t limit[3] = {((int64_t)1 << 31) - 1, 65535, 65535};
	int i;

	for (i = 0; i < 3; i++) {
		if (grid[i] < 0 || grid[i] > limit[i])
			return cakert_fail(err, CAKE_ERR_GRID,
					   "%s: grid %c = %s = %" PRId64 ": expected 0..%" PRId64,
					   k->name, "xyz"[i], k->grid[i], grid[i], limit[i]);
		if (k->cluster[i] > 1 && grid[i] % k->cluster[i] != 0)
			return cakert_fail(err, CAKE_ERR_GRID,
					   "%s: grid %c = %s = %" PRId64 ": expected a multiple of the cluster's %c = %u (cluster %ux%ux%u)",
					   k->name, "xyz"[i], k->grid[i], grid[i], "xyz"[i], k->cluster[i],
					   k->cluster[0], k->cluster[1], k->cluster[2]);
	}
	return CAKE_OK;
}

int
cakert_grid_error(const CakertKernel *k, int axis, CakeError *err)
{
	return cakert_fail(err, CAKE_ERR_GRID,
			   "%s: grid %c = %s: expected an int64 value, found division by zero or overflow",
			   k->name, "xyz"[axis % 3], k->grid[axis % 3]);
}

int64_t
cakert_gadd(int64_t a, int64_t b, int *ok)
{
	if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) {
		*ok = 0;
		return 0;
	}
	return a + b;
}

int64_t
cakert_gsub(int64_t a, int64_t b, int *ok)
{
	if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b)) {
		*ok = 0;
		return 0;
	}
	return a - b;
}

int64_t
cakert_gmul(int64_t a, int64_t b, int *ok)
{
	int bad;

	if (a > 0)
		bad = b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a;
	else if (a < 0)
		bad = b > 0 ? a < INT64_MIN / b : b != 0 && b < INT64_MAX / a;
	else
		bad = 0;
	if (bad) {
		*ok = 0;
		return 0;
	}
	return a * b;
}

int64_t
cakert_gdiv(int64_t a, int64_t b, int *ok)
{
	if (b == 0 || (a == INT64_MIN && b == -1)) {
		*ok = 0;
		return 0;
	}
	return a / b;
}

int64_t
cakert_grem(int64_t a, int64_t b, int *ok)
{
	if (b == 0 || (a == INT64_MIN && b == -1)) {
		*ok = 0;
		return 0;
	}
	return a % b;
}

int64_t
cakert_gcdiv(int64_t a, int64_t b, int *ok)
{
	int64_t q;

	if (b == 0 || (a == INT64_MIN && b == -1)) {
		*ok = 0;
		return 0;
	}
	q = a / b;
	/* C truncates toward zero; round up when the exact quotient is positive. */
	if (a % b != 0 && (a < 0) == (b < 0))
		q++;
	return q;
}

int64_t
cakert_gmin(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

int64_t
cakert_gmax(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

int64_t
cakert_gu64(uint64_t a, int *ok)
{
	if (a > (uint64_t)INT64_MAX) {
		*ok = 0;
		return 0;
	}
	return (int64_t)a;
}

CUdeviceptr
cakert_tensor_ptr(const CakeTensor *t)
{
	return (CUdeviceptr)((uintptr_t)t->data + t->byte_offset);
}

/* ---- the driver ---- */

typedef CUresult (*GetProcAddressFn)(const char *symbol, void **pfn, int version,
				     cuuint64_t flags, CUdriverProcAddressQueryResult *status);

/* Each entry point: its name for cuGetProcAddress, the versioned library symbol for
 * dlsym (older drivers), and where it goes in the table. */
static const struct {
	const char *name, *versioned;
	size_t offset;
	int optional;
} driver_syms[] = {
	{"cuInit", "cuInit", offsetof(CakertDriver, init), 0},
	{"cuDriverGetVersion", "cuDriverGetVersion", offsetof(CakertDriver, driver_get_version), 0},
	{"cuGetErrorString", "cuGetErrorString", offsetof(CakertDriver, get_error_string), 0},
	{"cuGetErrorName", "cuGetErrorName", offsetof(CakertDriver, get_error_name), 0},
	{"cuDeviceGet", "cuDeviceGet", offsetof(CakertDriver, device_get), 0},
	{"cuDeviceGetCount", "cuDeviceGetCount", offsetof(CakertDriver, device_get_count), 0},
	{"cuDeviceGetAttribute", "cuDeviceGetAttribute", offsetof(CakertDriver, device_get_attribute), 0},
	{"cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRetain", offsetof(CakertDriver, device_primary_ctx_retain), 0},
	{"cuDevicePrimaryCtxRelease", "cuDevicePrimaryCtxRelease_v2", offsetof(CakertDriver, device_primary_ctx_release), 0},
	{"cuCtxGetCurrent", "cuCtxGetCurrent", offsetof(CakertDriver, ctx_get_current), 0},
	{"cuCtxSetCurrent", "cuCtxSetCurrent", offsetof(CakertDriver, ctx_set_current), 0},
	{"cuCtxGetDevice", "cuCtxGetDevice", offsetof(CakertDriver, ctx_get_device), 0},
	{"cuCtxSynchronize", "cuCtxSynchronize", offsetof(CakertDriver, ctx_synchronize), 0},
	{"cuModuleLoadDataEx", "cuModuleLoadDataEx", offsetof(CakertDriver, module_load_data_ex), 0},
	{"cuModuleUnload", "cuModuleUnload", offsetof(CakertDriver, module_unload), 0},
	{"cuModuleGetFunction", "cuModuleGetFunction", offsetof(CakertDriver, module_get_function), 0},
	{"cuFuncGetAttribute", "cuFuncGetAttribute", offsetof(CakertDriver, func_get_attribute), 0},
	{"cuFuncSetAttribute", "cuFuncSetAttribute", offsetof(CakertDriver, func_set_attribute), 0},
	{"cuLaunchKernelEx", "cuLaunchKernelEx", offsetof(CakertDriver, launch_kernel_ex), 0},
	{"cuMemAlloc", "cuMemAlloc_v2", offsetof(CakertDriver, mem_alloc), 0},
	{"cuMemFree", "cuMemFree_v2", offsetof(CakertDriver, mem_free), 0},
	{"cuMemcpyHtoD", "cuMemcpyHtoD_v2", offsetof(CakertDriver, memcpy_htod), 0},
	{"cuMemcpyDtoH", "cuMemcpyDtoH_v2", offsetof(CakertDriver, memcpy_dtoh), 0},
	{"cuMemsetD8", "cuMemsetD8_v2", offsetof(CakertDriver, memset_d8), 0},
	{"cuStreamCreate", "cuStreamCreate", offsetof(CakertDriver, stream_create), 0},
	{"cuStreamDestroy", "cuStreamDestroy_v2", offsetof(CakertDriver, stream_destroy), 0},
	{"cuStreamSynchronize", "cuStreamSynchronize", offsetof(CakertDriver, stream_synchronize), 0},
	{"cuTensorMapEncodeTiled", "cuTensorMapEncodeTiled", offsetof(CakertDriver, tensor_map_encode_tiled), 1},
	/* for test programs and tools (see cakert.h): optional */
	{"cuMemcpyHtoDAsync", "cuMemcpyHtoDAsync_v2", offsetof(CakertDriver, memcpy_htod_async), 1},
	{"cuMemcpyDtoHAsync", "cuMemcpyDtoHAsync_v2", offsetof(CakertDriver, memcpy_dtoh_async), 1},
	{"cuMemcpyDtoD", "cuMemcpyDtoD_v2", offsetof(CakertDriver, memcpy_dtod), 1},
	{"cuMemcpyDtoDAsync", "cuMemcpyDtoDAsync_v2", offsetof(CakertDriver, memcpy_dtod_async), 1},
	{"cuMemsetD8Async", "cuMemsetD8Async", offsetof(CakertDriver, memset_d8_async), 1},
	{"cuEventCreate", "cuEventCreate", offsetof(CakertDriver, event_create), 1},
	{"cuEventDestroy", "cuEventDestroy_v2", offsetof(CakertDriver, event_destroy), 1},
	{"cuEventRecord", "cuEventRecord", offsetof(CakertDriver, event_record), 1},
	{"cuEventSynchronize", "cuEventSynchronize", offsetof(CakertDriver, event_synchronize), 1},
	{"cuEventElapsedTime", "cuEventElapsedTime", offsetof(CakertDriver, event_elapsed_time), 1},
	{"cuStreamBeginCapture", "cuStreamBeginCapture_v2", offsetof(CakertDriver, stream_begin_capture), 1},
	{"cuStreamEndCapture", "cuStreamEndCapture", offsetof(CakertDriver, stream_end_capture), 1},
	{"cuGraphInstantiateWithFlags", "cuGraphInstantiateWithFlags", offsetof(CakertDriver, graph_instantiate), 1},
	{"cuGraphLaunch", "cuGraphLaunch", offsetof(CakertDriver, graph_launch), 1},
	{"cuGraphExecDestroy", "cuGraphExecDestroy", offsetof(CakertDriver, graph_exec_destroy), 1},
	{"cuGraphDestroy", "cuGraphDestroy", offsetof(CakertDriver, graph_destroy), 1},
};

static pthread_once_t driver_once = PTHREAD_ONCE_INIT;
static CakertDriver driver;
static int driver_status = CAKE_ERR_NO_DRIVER;
static char driver_msg[CAKE_ERROR_MSG_SIZE];

/* ISO C has no conversion between object and function pointers; dlsym and
 * cuGetProcAddress hand back a void * that POSIX guarantees holds one, so copy the bits. */
static void
set_entry(size_t offset, void *p)
{
	memcpy((char *)&driver + offset, &p, sizeof p);
}

static void
driver_load(void)
{
	GetProcAddressFn get_proc = NULL;
	void *lib, *p;
	CUresult r;
	size_t i;

	lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		driver_status = CAKE_ERR_NO_DRIVER;
		snprintf(driver_msg, sizeof driver_msg, "no CUDA driver (libcuda.so.1 not found)");
		return;
	}
	p = dlsym(lib, "cuGetProcAddress_v2");
	if (p)
		memcpy(&get_proc, &p, sizeof p);
	for (i = 0; i < sizeof driver_syms / sizeof driver_syms[0]; i++) {
		CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;

		p = NULL;
		if (get_proc && (get_proc(driver_syms[i].name, &p, DRIVER_ABI,
					  CU_GET_PROC_ADDRESS_LEGACY_STREAM, &found) != CUDA_SUCCESS ||
				 found != CU_GET_PROC_ADDRESS_SUCCESS))
			p = NULL;
		if (!p)
			p = dlsym(lib, driver_syms[i].versioned);
		if (!p && !driver_syms[i].optional) {
			driver_status = CAKE_ERR_DRIVER;
			snprintf(driver_msg, sizeof driver_msg,
				 "the CUDA driver lacks %s (cakert needs a CUDA 12.0 or newer driver)",
				 driver_syms[i].versioned);
			return;
		}
		set_entry(driver_syms[i].offset, p);
	}
	if (driver.driver_get_version(&driver.version) != CUDA_SUCCESS || driver.version < DRIVER_ABI) {
		driver_status = CAKE_ERR_DRIVER;
		snprintf(driver_msg, sizeof driver_msg,
			 "the CUDA driver is version %d.%d; cakert needs 12.0 or newer",
			 driver.version / 1000, driver.version % 1000 / 10);
		return;
	}
	r = driver.init(0);
	if (r != CUDA_SUCCESS) {
		char why[256];

		driver_status = CAKE_ERR_DRIVER;
		cakert_result_string(r, why, sizeof why);
		snprintf(driver_msg, sizeof driver_msg, "cuInit failed: %s", why);
		return;
	}
	/* The library stays loaded for the life of the process: the table points into it. */
	driver_status = CAKE_OK;
}

const CakertDriver *
cakert_driver(void)
{
	pthread_once(&driver_once, driver_load);
	return driver_status == CAKE_OK ? &driver : NULL;
}

int
cakert_driver_status(CakeError *err)
{
	pthread_once(&driver_once, driver_load);
	if (driver_status != CAKE_OK)
		return cakert_fail(err, driver_status, "%s", driver_msg);
	return CAKE_OK;
}

void
cakert_result_string(CUresult r, char *out, size_t size)
{
	const char *name = NULL, *text = NULL;

	if (driver.get_error_name)
		driver.get_error_name(r, &name);
	if (driver.get_error_string)
		driver.get_error_string(r, &text);
	if (name && text)
		snprintf(out, size, "%s: %s", name, text);
	else
		snprintf(out, size, "CUresult %d", (int)r);
}

static int
driver_fail(CakeError *err, const CakertKernel *k, const char *call, CUresult r)
{
	char why[256];

	cakert_result_string(r, why, sizeof why);
	return cakert_fail(err, CAKE_ERR_DRIVER, "%s: %s failed: %s", k->name, call, why);
}

/* ---- the module cache and the launch ---- */

/* One loaded kernel: modules are per context, so the key is (context, kernel). */
typedef struct CacheEntry {
	CUcontext ctx;
	const CakertKernel *k;
	CUmodule module;
	CUfunction fn;
	int target;             /* CAKERT_<ID> of the image loaded */
	int cubin;              /* 1: the cubin loaded, 0: the PTX */
	CUresult cubin_refused; /* why the driver refused the cubin (CUDA_SUCCESS: it did not) */
} CacheEntry;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static CacheEntry *cache;
static size_t cache_len, cache_cap;

/* num_sms per context, under cache_lock. A process has few contexts; past the table's
 * size the count is queried every time (still correct, only slower). */
#define SMS_CACHE_SIZE 64
static struct {
	CUcontext ctx;
	int sms;
} sms_cache[SMS_CACHE_SIZE];
static size_t sms_len;

static int
target_of(int major, int minor)
{
	/* @cakec:target-of (cakec writes one compute-capability test per row of ir/targets.def) */
	return -1;
}

static int
arch_error(const CakertKernel *k, CUdevice dev, int major, int minor, CakeError *err)
{
	char built[64];
	size_t len = 0;
	int i;

	built[0] = 0;
	for (i = 0; i < k->nimages && len < sizeof built; i++) {
		int w = snprintf(built + len, sizeof built - len, "%s%s", i ? ", " : "",
				 target_names[k->images[i].target]);

		if (w < 0)
			break;
		len += (size_t)w;
	}
	return cakert_fail(err, CAKE_ERR_ARCH,
			   "%s: device %d is sm_%d%d (compute capability %d.%d); expected one of the targets built: %s",
			   k->name, (int)dev, major, minor, major, minor, k->nimages ? built : "none");
}

/* cuModuleLoadDataEx of one image, with the driver's error log (NUL-terminated) in log. */
static CUresult
load_image(CUmodule *module, const void *image, char *log, size_t size)
{
	CUjit_option opt[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
	void *optval[2];
	CUresult r;

	log[0] = 0;
	optval[0] = log;
	optval[1] = (void *)(uintptr_t)size;
	r = driver.module_load_data_ex(module, image, 2, opt, optval);
	log[size - 1] = 0;
	return r;
}

/* Loads k's image for the device into e->module: the cubin of the device's exact
 * architecture (machine code: no JIT), else, or when the driver refuses the cubin (one
 * from a newer ptxas than the driver knows, say), the PTX, which the driver JIT-compiles.
 * Only the device's own target's PTX can stand in: every target is arch-specific (sm_90a,
 * sm_100a, ...), and arch-specific PTX JIT-compiles for that architecture only, so no
 * older target's PTX would load either. */
static int
load_module(const CakertKernel *k, CUdevice dev, int major, int minor, CacheEntry *e, CakeError *err)
{
	const CakertImage *img = NULL;
	const char *kind = "cubin";
	char log[1024], why[256], cubin_why[256];
	int target = target_of(major, minor), i;
	CUresult r = CUDA_SUCCESS;

	for (i = 0; i < k->nimages; i++)
		if (k->images[i].target == target)
			img = &k->images[i];
	if (!img)
		return arch_error(k, dev, major, minor, err);
	e->target = target;
	e->cubin_refused = CUDA_SUCCESS;
	e->cubin = 0;
	if (img->cubin) {
		r = load_image(&e->module, img->cubin, log, sizeof log);
		e->cubin = r == CUDA_SUCCESS;
		e->cubin_refused = r;
	}
	if (!e->cubin && img->ptx) {
		kind = "PTX";
		r = load_image(&e->module, img->ptx, log, sizeof log);
	}
	if (r == CUDA_SUCCESS)
		return CAKE_OK;
	cakert_result_string(r, why, sizeof why);
	cubin_why[0] = 0;
	if (e->cubin_refused != CUDA_SUCCESS && img->ptx) {
		char name[128];

		cakert_result_string(e->cubin_refused, name, sizeof name);
		snprintf(cubin_why, sizeof cubin_why, " (after the cubin failed: %s)", name);
	}
	return cakert_fail(err, CAKE_ERR_DRIVER, "%s: cuModuleLoadDataEx (%s for %s) failed: %s%s%s%s",
			   k->name, kind, target_names[target], why, log[0] ? ": " : "", log, cubin_why);
}

/* The compute capability of device dev, for k's messages. */
static int
compute_capability(const CakertKernel *k, CUdevice dev, int *major, int *minor, CakeError *err)
{
	CUresult r;

	*major = *minor = 0;
	r = driver.device_get_attribute(major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
	if (r == CUDA_SUCCESS)
		r = driver.device_get_attribute(minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
	if (r != CUDA_SUCCESS)
		return driver_fail(err, k, "cuDeviceGetAttribute(compute capability)", r);
	return CAKE_OK;
}

static int
smem_fail(CakeError *err, const CakertKernel *k, CUdevice dev, int static_smem, int optin, int oversized)
{
	char mode[96];

	if (oversized > 0)
		snprintf(mode, sizeof mode, ", %d in its oversized shared-memory mode", oversized);
	else
		snprintf(mode, sizeof mode, " (its driver reports no oversized shared-memory mode)");
	return cakert_fail(err, CAKE_ERR_SMEM,
			   "%s: needs %zu bytes of dynamic shared memory (plus %d static) per block; device %d allows at most %d%s",
			   k->name, k->smem_bytes, static_smem, (int)dev, optin, mode);
}

/* Gives fn the dynamic shared memory k needs on dev, or says why the device cannot.
 * Past the device's opt-in ceiling, a driver with CUDA 13.4's oversized mode (L1 shrunk
 * to 8 KiB) reports that mode's ceiling as a device attribute; the mode is then set on
 * the function, as the driver wants it for oversized launches. An older driver rejects
 * the attribute, which means it has no such mode. */
static int
opt_in_smem(const CakertKernel *k, CUdevice dev, CUfunction fn, CakeError *err)
{
	int optin = 0, static_smem = 0, oversized = 0;
	size_t need;
	CUresult r;

	r = driver.device_get_attribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev);
	if (r == CUDA_SUCCESS)
		r = driver.func_get_attribute(&static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn);
	if (r != CUDA_SUCCESS)
		return driver_fail(err, k, "shared memory query", r);
	need = k->smem_bytes + (size_t)static_smem;
	if (need > (size_t)optin) {
		if (driver.device_get_attribute(&oversized, ATTR_MAX_OVERSIZED_SMEM, dev) != CUDA_SUCCESS)
			oversized = 0;
		if (need > (size_t)oversized)
			return smem_fail(err, k, dev, static_smem, optin, oversized);
		r = driver.func_set_attribute(fn, FUNC_ATTR_SMEM_MODE, SMEM_MODE_ALLOW_OVERSIZED);
		if (r != CUDA_SUCCESS)
			return driver_fail(err, k, "cuFuncSetAttribute(SHARED_MEMORY_MODE oversized)", r);
		return CAKE_OK;
	}
	if (need > SMEM_DEFAULT_LIMIT) {
		r = driver.func_set_attribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
					      (int)k->smem_bytes);
		if (r != CUDA_SUCCESS)
			return driver_fail(err, k, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", r);
	}
	return CAKE_OK;
}

/* Loads k's module into the current context ctx and prepares its function. Called with
 * cache_lock held, so each (context, kernel) loads once. */
static int
load_function(const CakertKernel *k, CUcontext ctx, CUdevice dev, CacheEntry *e, CakeError *err)
{
	int major, minor, rc;
	CUresult r;

	if ((rc = compute_capability(k, dev, &major, &minor, err)) != CAKE_OK)
		return rc;
	if ((rc = load_module(k, dev, major, minor, e, err)) != CAKE_OK)
		return rc;
	r = driver.module_get_function(&e->fn, e->module, k->symbol);
	if (r != CUDA_SUCCESS) {
		driver.module_unload(e->module);
		return driver_fail(err, k, "cuModuleGetFunction", r);
	}
	if (k->smem_bytes > 0 && (rc = opt_in_smem(k, dev, e->fn, err)) != CAKE_OK) {
		driver.module_unload(e->module);
		return rc;
	}
	e->ctx = ctx;
	e->k = k;
	return CAKE_OK;
}

static int
get_function(const CakertKernel *k, CUcontext ctx, CUdevice dev, CUfunction *fn, CakeError *err)
{
	CacheEntry e;
	size_t i;
	int rc = CAKE_OK;

	pthread_mutex_lock(&cache_lock);
	for (i = 0; i < cache_len; i++)
		if (cache[i].ctx == ctx && cache[i].k == k) {
			*fn = cache[i].fn;
			pthread_mutex_unlock(&cache_lock);
			return CAKE_OK;
		}
	if (cache_len == cache_cap) {
		size_t cap = cache_cap ? cache_cap * 2 : 16;
		CacheEntry *p = realloc(cache, cap * sizeof *p);

		if (!p) {
			pthread_mutex_unlock(&cache_lock);
			return cakert_fail(err, CAKE_ERR_NOMEM, "%s: out of host memory", k->name);
		}
		cache = p;
		cache_cap = cap;
	}
	rc = load_function(k, ctx, dev, &e, err);
	if (rc == CAKE_OK) {
		cache[cache_len++] = e;
		*fn = e.fn;
	}
	pthread_mutex_unlock(&cache_lock);
	return rc;
}

int
cakert_loaded_image(const CakertKernel *k, CUcontext ctx, char *buf, size_t size)
{
	size_t i;
	int found = 0;

	if (size)
		buf[0] = 0;
	pthread_mutex_lock(&cache_lock);
	for (i = 0; i < cache_len && !found; i++) {
		const CacheEntry *e = &cache[i];
		const char *name = NULL;

		if (e->ctx != ctx || e->k != k)
			continue;
		found = 1;
		if (e->cubin_refused != CUDA_SUCCESS && driver.get_error_name)
			driver.get_error_name(e->cubin_refused, &name);
		if (size && e->cubin_refused != CUDA_SUCCESS)
			snprintf(buf, size, "PTX %s (cubin refused: %s)", target_names[e->target],
				 name ? name : "?");
		else if (size)
			snprintf(buf, size, "%s %s", e->cubin ? "cubin" : "PTX", target_names[e->target]);
	}
	pthread_mutex_unlock(&cache_lock);
	return found;
}

void
cakert_forget_context(CUcontext ctx)
{
	size_t i, j = 0;

	if (!cakert_driver())
		return;
	pthread_mutex_lock(&cache_lock);
	for (i = 0; i < cache_len; i++) {
		if (cache[i].ctx == ctx)
			driver.module_unload(cache[i].module);
		else
			cache[j++] = cache[i];
	}
	cache_len = j;
	for (i = j = 0; i < sms_len; i++)
		if (sms_cache[i].ctx != ctx)
			sms_cache[j++] = sms_cache[i];
	sms_len = j;
	pthread_mutex_unlock(&cache_lock);
}

/* The current context (and its device), or a failure naming why there is none; `what`
 * says what needed it. */
static int
current_context(const CakertKernel *k, const char *what, CUcontext *ctx, CUdevice *dev,
		CakeError *err)
{
	CUresult r;

	pthread_once(&driver_once, driver_load);
	if (driver_status != CAKE_OK)
		return cakert_fail(err, driver_status, "%s: %s%s", k->name, what, driver_msg);
	*ctx = NULL;
	r = driver.ctx_get_current(ctx);
	if (r != CUDA_SUCCESS)
		return driver_fail(err, k, "cuCtxGetCurrent", r);
	if (!*ctx)
		return cakert_fail(err, CAKE_ERR_CONTEXT,
				   "%s: %sexpected a current CUDA context, found none (make one current first, e.g. the device's primary context)",
				   k->name, what);
	r = driver.ctx_get_device(dev);
	if (r != CUDA_SUCCESS)
		return driver_fail(err, k, "cuCtxGetDevice", r);
	return CAKE_OK;
}

int
cakert_built_for_device(const CakertKernel *k, int *built, CakeError *err)
{
	CUcontext ctx;
	CUdevice dev;
	int major, minor, target, i, rc;

	*built = 0;
	if ((rc = current_context(k, "the entry point chooses by the device's architecture: ", &ctx, &dev, err)) != CAKE_OK)
		return rc;
	if ((rc = compute_capability(k, dev, &major, &minor, err)) != CAKE_OK)
		return rc;
	target = target_of(major, minor);
	for (i = 0; i < k->nimages; i++)
		if (k->images[i].target == target)
			*built = 1;
	return CAKE_OK;
}

int
cakert_num_sms(const CakertKernel *k, int64_t *num_sms, CakeError *err)
{
	CUcontext ctx;
	CUdevice dev;
	CUresult r;
	size_t i;
	int n = 0, rc;

	if ((rc = current_context(k, "the grid uses num_sms: ", &ctx, &dev, err)) != CAKE_OK)
		return rc;
	pthread_mutex_lock(&cache_lock);
	for (i = 0; i < sms_len; i++)
		if (sms_cache[i].ctx == ctx) {
			*num_sms = sms_cache[i].sms;
			pthread_mutex_unlock(&cache_lock);
			return CAKE_OK;
		}
	r = driver.device_get_attribute(&n, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
	if (r != CUDA_SUCCESS) {
		pthread_mutex_unlock(&cache_lock);
		return driver_fail(err, k, "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)", r);
	}
	if (sms_len < SMS_CACHE_SIZE) {
		sms_cache[sms_len].ctx = ctx;
		sms_cache[sms_len].sms = n;
		sms_len++;
	}
	pthread_mutex_unlock(&cache_lock);
	*num_sms = n;
	return CAKE_OK;
}

/* The element types cakec's launchers encode (the emitter picks one per tensor type). */
static int
tmap_dtype_ok(int dtype)
{
	return dtype >= CU_TENSOR_MAP_DATA_TYPE_UINT8 && dtype <= CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
}

/* "bf16 [256, 8192], box [128, 64], swizzle 128B, oob zero" for messages. */
static void
describe_tmap(const CakertTmapSpec *m, const CakertTensorSpec *s, const CakeTensor *t,
	      char *out, size_t size)
{
	char shape[160], box[96];
	int64_t b[CAKERT_TMA_MAX_RANK];
	const char *ty = dtype_name(s->code, s->bits);
	int i;

	for (i = 0; i < m->rank && i < CAKERT_TMA_MAX_RANK; i++)
		b[i] = m->box[i];
	format_dims(shape, sizeof shape, t->shape, t->ndim);
	format_dims(box, sizeof box, b, i);
	if (m->swizzle)
		snprintf(out, size, "%s %s, box %s, swizzle %dB, oob %s", ty ? ty : "?", shape, box,
			 m->swizzle, m->oob_nan ? "nan" : "zero");
	else
		snprintf(out, size, "%s %s, box %s, no swizzle, oob %s", ty ? ty : "?", shape, box,
			 m->oob_nan ? "nan" : "zero");
}

/* Encodes tensor map m over t into map (128-byte aligned). TMA lists dimensions
 * innermost first, so the row-major shape and box are reversed; the strides are the
 * byte strides of dimensions 1.. of that order (dimension 0 is the contiguous one). */
static int
encode_tmap(const CakertKernel *k, const CakertTmapSpec *m, const CakeTensor *t,
	    CUtensorMap *map, CakeError *err)
{
	const CakertTensorSpec *s = &k->tensors[m->tensor];
	cuuint64_t dims[CAKERT_TMA_MAX_RANK], strides[CAKERT_TMA_MAX_RANK];
	cuuint32_t box[CAKERT_TMA_MAX_RANK], estr[CAKERT_TMA_MAX_RANK];
	CUtensorMapSwizzle swz;
	char what[384], why[256];
	CUresult r;
	int i, n = m->rank;

	if (n < 1 || n > CAKERT_TMA_MAX_RANK || n != t->ndim || !tmap_dtype_ok(m->dtype))
		return cakert_fail(err, CAKE_ERR_DRIVER,
				   "%s: tensor map '%s': rank %d or element type %d is not one TMA takes",
				   k->name, m->name, n, m->dtype);
	if ((uintptr_t)(void *)map % 128 != 0)
		return cakert_fail(err, CAKE_ERR_ALIGN,
				   "%s: tensor map '%s': expected storage aligned to 128 bytes, found %p",
				   k->name, m->name, (void *)map);
	/* Nothing can be read from an empty tensor and TMA refuses zero extents: the kernel
	 * gets an all-zero map, which it must not use (its loops over the empty extent run
	 * zero times). */
	if (numel_of(t) == 0) {
		memset(map, 0, sizeof *map);
		return CAKE_OK;
	}
	if (!driver.tensor_map_encode_tiled)
		return cakert_fail(err, CAKE_ERR_DRIVER,
				   "%s: tensor map '%s': the CUDA driver lacks cuTensorMapEncodeTiled",
				   k->name, m->name);
	for (i = 0; i < n; i++) {
		dims[i] = (cuuint64_t)t->shape[n - 1 - i];
		box[i] = m->box[n - 1 - i];
		estr[i] = 1;
		if (i > 0)
			strides[i - 1] = stride_bytes(t, s->bits, n - 1 - i);
	}
	switch (m->swizzle) {
	case 32: swz = CU_TENSOR_MAP_SWIZZLE_32B; break;
	case 64: swz = CU_TENSOR_MAP_SWIZZLE_64B; break;
	case 128: swz = CU_TENSOR_MAP_SWIZZLE_128B; break;
	default: swz = CU_TENSOR_MAP_SWIZZLE_NONE; break;
	}
	/* L2 promotion 128B: the L2 fills from DRAM in 128-byte requests, the width of a
	 * 128B-swizzled box row, so each fill is bytes the box uses; 256B would also fetch
	 * the neighbouring box's row (a prefetch that helps K-loops but over-fetches at
	 * ragged edges and for narrow boxes). */
	r = driver.tensor_map_encode_tiled(map, (CUtensorMapDataType)m->dtype, (cuuint32_t)n,
					   (void *)(uintptr_t)cakert_tensor_ptr(t), dims, strides,
					   box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE, swz,
					   CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
					   m->oob_nan ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
						      : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	if (r != CUDA_SUCCESS) {
		describe_tmap(m, s, t, what, sizeof what);
		cakert_result_string(r, why, sizeof why);
		return cakert_fail(err, CAKE_ERR_DRIVER,
				   "%s: cuTensorMapEncodeTiled for tensor map '%s' of parameter '%s' (%s) failed: %s",
				   k->name, m->name, s->name, what, why);
	}
	return CAKE_OK;
}

int
cakert_launch(const CakertKernel *k, const CakeTensor *const *t, const int64_t grid[3],
	      CUstream stream, void **params, CakeError *err)
{
	CUlaunchConfig cfg;
	CUlaunchAttribute attr[2];
	CUcontext ctx = NULL;
	CUdevice dev;
	CUfunction fn = NULL;
	CUresult r;
	int i, rc;

	if ((rc = current_context(k, "", &ctx, &dev, err)) != CAKE_OK)
		return rc;
	for (i = 0; i < k->ntensors; i++)
		if (t[i]->device.device_id != (int32_t)dev)
			return cakert_fail(err, CAKE_ERR_DEVICE,
					   "%s: parameter '%s': expected a tensor on CUDA device %d (the current context's), found device %d",
					   k->name, k->tensors[i].name, (int)dev, (int)t[i]->device.device_id);
	for (i = 0; i < k->ntmaps; i++) {
		const CakertTmapSpec *m = &k->tmaps[i];

		rc = encode_tmap(k, m, t[m->tensor], (CUtensorMap *)params[m->param], err);
		if (rc != CAKE_OK)
			return rc;
	}
	if ((rc = get_function(k, ctx, dev, &fn, err)) != CAKE_OK)
		return rc;

	memset(&cfg, 0, sizeof cfg);
	cfg.gridDimX = (unsigned int)grid[0];
	cfg.gridDimY = (unsigned int)grid[1];
	cfg.gridDimZ = (unsigned int)grid[2];
	cfg.blockDimX = k->threads[0];
	cfg.blockDimY = k->threads[1];
	cfg.blockDimZ = k->threads[2];
	cfg.sharedMemBytes = (unsigned int)k->smem_bytes;
	cfg.hStream = stream;
	memset(attr, 0, sizeof attr);
	cfg.attrs = attr;
	if (k->cluster[0] * k->cluster[1] * k->cluster[2] > 1) {
		attr[cfg.numAttrs].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
		attr[cfg.numAttrs].value.clusterDim.x = k->cluster[0];
		attr[cfg.numAttrs].value.clusterDim.y = k->cluster[1];
		attr[cfg.numAttrs].value.clusterDim.z = k->cluster[2];
		cfg.numAttrs++;
	}
	/* launch(dependent): the kernel may start while the one ahead of it on the stream
	 * finishes; its code waits for that one's memory first (griddepcontrol.wait) */
	if (k->dependent) {
		attr[cfg.numAttrs].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
		attr[cfg.numAttrs].value.programmaticStreamSerializationAllowed = 1;
		cfg.numAttrs++;
	}
	r = driver.launch_kernel_ex(&cfg, fn, params, NULL);
	if (r != CUDA_SUCCESS)
		return driver_fail(err, k, "cuLaunchKernelEx", r);
	return CAKE_OK;
}
