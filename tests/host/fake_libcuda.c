/* fake_libcuda.c: a stand-in libcuda.so.1 for testing cakert's driver side on machines
 * without a GPU. It implements the entry points cakert resolves with a pretend machine of
 * four devices (compute capability 9.0, 10.3, 10.0 and 8.9; 132, 148, 148 and 128 SMs),
 * checks what a real driver would reject (no current context, dynamic shared memory over
 * 48 KiB without the opt-in, a function from another context's module, tensor maps
 * against cuTensorMapEncodeTiled's documented rules), and records what it was asked so
 * the test program can check it through fake_get/fake_set and fake_enc (found with dlsym
 * on the same library).
 *
 * Environment: FAKE_VERSION (cuDriverGetVersion, default 12080), FAKE_INIT_ERROR (a
 * CUresult for cuInit), FAKE_NO_GETPROC (cuGetProcAddress finds nothing, so cakert falls
 * back to dlsym). Device 0 has CUDA 13.4's oversized shared-memory mode while the test sets
 * "oversized0" to that mode's ceiling (0: the attribute is refused, as older drivers do). */
#include <cuda.h>

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NDEV 4
#define MAXMOD 64

static const int cc[NDEV][2] = {{9, 0}, {10, 3}, {10, 0}, {8, 9}};
static int optin[NDEV] = {232448, 232448, 232448, 101376};
static const int sms[NDEV] = {132, 148, 148, 128};

/* A context is the address of ctxs[dev]; a module or function the address of a slot. */
static char ctxs[NDEV];
static __thread CUcontext current;

static struct {
	CUcontext ctx;
	int live;
	int is_cubin;
	char target[16];
	char fn_name[128];
	int max_dyn;    /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
	int oversized;  /* CUDA 13.4's SHARED_MEMORY_MODE (17) set to ALLOW_OVERSIZED (3) */
} mods[MAXMOD];
static int nmods;

/* Counters and settings, by name. */
static struct {
	const char *name;
	long value;
} vars[] = {
	{"getproc", 0}, {"load", 0}, {"unload", 0}, {"setattr", 0}, {"launch", 0},
	{"load_error", 0}, {"launch_error", 0}, {"static_smem", 0},
	{"grid_x", 0}, {"grid_y", 0}, {"grid_z", 0}, {"block_x", 0}, {"block_y", 0},
	{"block_z", 0}, {"smem", 0}, {"stream", 0}, {"nattrs", 0}, {"last_cubin", 0},
	{"cubin_load_error", 0},
	{"last_setattr", 0}, {"optin0", 0}, {"cluster_x", 0}, {"cluster_y", 0},
	{"cluster_z", 0}, {"sms_queries", 0}, {"encode", 0}, {"encode_error", 0},
	{"dependent", 0}, {"oversized0", 0}, {"smem_mode", 0},
	{NULL, 0},
};
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void (*on_launch)(void **params);
static char last_target[16], last_symbol[128];

static long *
var(const char *name)
{
	int i;

	for (i = 0; vars[i].name; i++)
		if (strcmp(vars[i].name, name) == 0)
			return &vars[i].value;
	abort();
}

/* The arguments of each cuTensorMapEncodeTiled call since "encode" was last set to 0. */
#define MAXENC 16
static struct {
	long dtype, rank, addr, interleave, swizzle, l2, oob, map_mod64;
	long dims[5], strides[5], box[5], estr[5];
} encs[MAXENC];

long fake_get(const char *name);
void fake_set(const char *name, long value);
long fake_enc(int i, const char *field);
void fake_on_launch(void (*fn)(void **params));
const char *fake_str(const char *name);

long
fake_get(const char *name)
{
	return *var(name);
}

void
fake_set(const char *name, long value)
{
	if (strcmp(name, "optin0") == 0)
		optin[0] = (int)value;
	*var(name) = value;
}

/* The kernel arguments live in the launcher's frame only during the call: a test
 * inspects them from this callback. */
void
fake_on_launch(void (*fn)(void **params))
{
	on_launch = fn;
}

/* Field `field` of encode call i: dtype, rank, addr, interleave, swizzle, l2, oob,
 * map_mod64 (the map's address modulo 64), or dimN, strideN, boxN, estrN. */
long
fake_enc(int i, const char *field)
{
	int n = (int)strlen(field), d = field[n - 1] - '0';

	if (i < 0 || i >= MAXENC)
		abort();
	if (strcmp(field, "dtype") == 0) return encs[i].dtype;
	if (strcmp(field, "rank") == 0) return encs[i].rank;
	if (strcmp(field, "addr") == 0) return encs[i].addr;
	if (strcmp(field, "interleave") == 0) return encs[i].interleave;
	if (strcmp(field, "swizzle") == 0) return encs[i].swizzle;
	if (strcmp(field, "l2") == 0) return encs[i].l2;
	if (strcmp(field, "oob") == 0) return encs[i].oob;
	if (strcmp(field, "map_mod64") == 0) return encs[i].map_mod64;
	if (d < 0 || d > 4)
		abort();
	if (strncmp(field, "dim", 3) == 0) return encs[i].dims[d];
	if (strncmp(field, "stride", 6) == 0) return encs[i].strides[d];
	if (strncmp(field, "box", 3) == 0) return encs[i].box[d];
	if (strncmp(field, "estr", 4) == 0) return encs[i].estr[d];
	abort();
}

const char *
fake_str(const char *name)
{
	return strcmp(name, "target") == 0 ? last_target : last_symbol;
}

static int
dev_of(CUcontext ctx)
{
	return (int)((char *)ctx - ctxs);
}

CUresult
cuInit(unsigned int flags)
{
	const char *e = getenv("FAKE_INIT_ERROR");

	(void)flags;
	return e ? (CUresult)atoi(e) : CUDA_SUCCESS;
}

CUresult
cuDriverGetVersion(int *v)
{
	const char *e = getenv("FAKE_VERSION");

	*v = e ? atoi(e) : 12080;
	return CUDA_SUCCESS;
}

CUresult
cuGetErrorString(CUresult r, const char **s)
{
	switch (r) {
	case CUDA_ERROR_INVALID_VALUE: *s = "invalid argument"; break;
	case CUDA_ERROR_NO_DEVICE: *s = "no CUDA-capable device is detected"; break;
	case CUDA_ERROR_INVALID_PTX: *s = "a PTX JIT compilation failed"; break;
	case CUDA_ERROR_NO_BINARY_FOR_GPU: *s = "no kernel image is available for execution on the device"; break;
	case CUDA_ERROR_INVALID_HANDLE: *s = "invalid resource handle"; break;
	default: *s = "unknown error"; break;
	}
	return CUDA_SUCCESS;
}

CUresult
cuGetErrorName(CUresult r, const char **s)
{
	switch (r) {
	case CUDA_ERROR_INVALID_VALUE: *s = "CUDA_ERROR_INVALID_VALUE"; break;
	case CUDA_ERROR_NO_DEVICE: *s = "CUDA_ERROR_NO_DEVICE"; break;
	case CUDA_ERROR_INVALID_PTX: *s = "CUDA_ERROR_INVALID_PTX"; break;
	case CUDA_ERROR_NO_BINARY_FOR_GPU: *s = "CUDA_ERROR_NO_BINARY_FOR_GPU"; break;
	case CUDA_ERROR_INVALID_HANDLE: *s = "CUDA_ERROR_INVALID_HANDLE"; break;
	default: *s = "CUDA_ERROR_UNKNOWN"; break;
	}
	return CUDA_SUCCESS;
}

CUresult
cuDeviceGet(CUdevice *d, int ordinal)
{
	if (ordinal < 0 || ordinal >= NDEV)
		return CUDA_ERROR_INVALID_DEVICE;
	*d = ordinal;
	return CUDA_SUCCESS;
}

CUresult
cuDeviceGetCount(int *n)
{
	*n = NDEV;
	return CUDA_SUCCESS;
}

CUresult
cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
	if (d < 0 || d >= NDEV)
		return CUDA_ERROR_INVALID_DEVICE;
	if ((int)a == 150) { /* CUDA 13.4's MAX_OVERSIZED_SHARED_MEMORY_PER_BLOCK */
		if (d != 0 || !*var("oversized0"))
			return CUDA_ERROR_INVALID_VALUE; /* what a driver without the mode says */
		*v = (int)*var("oversized0");
		return CUDA_SUCCESS;
	}
	switch (a) {
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = cc[d][0]; break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = cc[d][1]; break;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *v = optin[d]; break;
	case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
		*v = sms[d];
		*var("sms_queries") += 1;
		break;
	default: return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

CUresult
cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
{
	*c = (CUcontext)(void *)&ctxs[d];
	return CUDA_SUCCESS;
}

CUresult
cuDevicePrimaryCtxRelease_v2(CUdevice d)
{
	(void)d;
	return CUDA_SUCCESS;
}

CUresult
cuCtxGetCurrent(CUcontext *c)
{
	*c = current;
	return CUDA_SUCCESS;
}

CUresult
cuCtxSetCurrent(CUcontext c)
{
	current = c;
	return CUDA_SUCCESS;
}

CUresult
cuCtxGetDevice(CUdevice *d)
{
	if (!current)
		return CUDA_ERROR_INVALID_CONTEXT;
	*d = dev_of(current);
	return CUDA_SUCCESS;
}

CUresult
cuCtxSynchronize(void)
{
	return CUDA_SUCCESS;
}

CUresult
cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned int nopt, CUjit_option *opt,
		   void **val)
{
	const char *s = image, *t;
	unsigned int i;
	int k;

	if (!current)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (*var("cubin_load_error") && memcmp(s, "\177ELF", 4) == 0)
		return (CUresult)*var("cubin_load_error");
	if (*var("load_error")) {
		for (i = 0; i < nopt; i++)
			if (opt[i] == CU_JIT_ERROR_LOG_BUFFER)
				strcpy((char *)val[i], "ptxas fatal: fake failure");
		return (CUresult)*var("load_error");
	}
	if (nmods == MAXMOD)
		return CUDA_ERROR_OUT_OF_MEMORY;
	k = nmods++;
	mods[k].ctx = current;
	mods[k].live = 1;
	mods[k].max_dyn = 0;
	mods[k].oversized = 0;
	mods[k].is_cubin = memcmp(s, "\177ELF", 4) == 0;
	/* PTX names its target in a .target line; a cubin's ELF header has it in e_flags, but
	 * the fake only needs to know which image cakert picked, so it looks for the name. */
	strcpy(mods[k].target, "?");
	if (!mods[k].is_cubin && (t = strstr(s, ".target ")) != NULL) {
		for (i = 0; i < sizeof mods[k].target - 1 && t[8 + i] > ' '; i++)
			mods[k].target[i] = t[8 + i];
		mods[k].target[i] = 0;
	}
	*var("load") += 1;
	*var("last_cubin") = mods[k].is_cubin;
	strcpy(last_target, mods[k].target);
	*m = (CUmodule)(void *)&mods[k];
	return CUDA_SUCCESS;
}

CUresult
cuModuleUnload(CUmodule m)
{
	int k = (int)(((char *)m - (char *)mods) / sizeof mods[0]);

	mods[k].live = 0;
	*var("unload") += 1;
	return CUDA_SUCCESS;
}

CUresult
cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
	int k = (int)(((char *)m - (char *)mods) / sizeof mods[0]);

	strncpy(mods[k].fn_name, name, sizeof mods[k].fn_name - 1);
	strncpy(last_symbol, name, sizeof last_symbol - 1);
	*f = (CUfunction)(void *)&mods[k];
	return CUDA_SUCCESS;
}

CUresult
cuFuncGetAttribute(int *v, CUfunction_attribute a, CUfunction f)
{
	(void)f;
	if (a != CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
		return CUDA_ERROR_INVALID_VALUE;
	*v = (int)*var("static_smem");
	return CUDA_SUCCESS;
}

CUresult
cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v)
{
	int k = (int)(((char *)f - (char *)mods) / sizeof mods[0]);

	if (a == (CUfunction_attribute)17 && v == 3 && *var("oversized0")) {
		mods[k].oversized = 1;
		*var("smem_mode") = v;
		return CUDA_SUCCESS;
	}
	if (a != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
		return CUDA_ERROR_INVALID_VALUE;
	if (v + *var("static_smem") > optin[dev_of(mods[k].ctx)])
		return CUDA_ERROR_INVALID_VALUE;
	mods[k].max_dyn = v;
	*var("setattr") += 1;
	*var("last_setattr") = v;
	return CUDA_SUCCESS;
}

CUresult
cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **params, void **extra)
{
	int k = (int)(((char *)f - (char *)mods) / sizeof mods[0]);
	CUresult r = CUDA_SUCCESS;
	unsigned int i;

	pthread_mutex_lock(&lock);
	if (*var("launch_error"))
		r = (CUresult)*var("launch_error");
	else if (!current || mods[k].ctx != current || !mods[k].live || extra)
		r = CUDA_ERROR_INVALID_HANDLE;
	else if (c->sharedMemBytes > 48 * 1024 && (int)c->sharedMemBytes > mods[k].max_dyn &&
		 !(mods[k].oversized && (long)c->sharedMemBytes <= *var("oversized0")))
		r = CUDA_ERROR_INVALID_VALUE;
	if (r != CUDA_SUCCESS) {
		pthread_mutex_unlock(&lock);
		return r;
	}
	*var("launch") += 1;
	*var("grid_x") = c->gridDimX;
	*var("grid_y") = c->gridDimY;
	*var("grid_z") = c->gridDimZ;
	*var("block_x") = c->blockDimX;
	*var("block_y") = c->blockDimY;
	*var("block_z") = c->blockDimZ;
	*var("smem") = c->sharedMemBytes;
	*var("stream") = (long)(intptr_t)c->hStream;
	*var("nattrs") = c->numAttrs;
	*var("cluster_x") = c->numAttrs && c->attrs[0].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION ?
			    (long)c->attrs[0].value.clusterDim.x : 0;
	*var("cluster_y") = c->numAttrs && c->attrs[0].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION ?
			    (long)c->attrs[0].value.clusterDim.y : 0;
	*var("cluster_z") = c->numAttrs && c->attrs[0].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION ?
			    (long)c->attrs[0].value.clusterDim.z : 0;
	*var("dependent") = 0;
	for (i = 0; i < c->numAttrs; i++)
		if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
			*var("dependent") = c->attrs[i].value.programmaticStreamSerializationAllowed;
	if (on_launch)
		on_launch(params);
	pthread_mutex_unlock(&lock);
	return CUDA_SUCCESS;
}

CUresult
cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
	*p = (CUdeviceptr)(uintptr_t)malloc(n);
	return CUDA_SUCCESS;
}

CUresult
cuMemFree_v2(CUdeviceptr p)
{
	free((void *)(uintptr_t)p);
	return CUDA_SUCCESS;
}

CUresult
cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n)
{
	memcpy((void *)(uintptr_t)d, s, n);
	return CUDA_SUCCESS;
}

CUresult
cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n)
{
	memcpy(d, (void *)(uintptr_t)s, n);
	return CUDA_SUCCESS;
}

CUresult
cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n)
{
	memset((void *)(uintptr_t)d, v, n);
	return CUDA_SUCCESS;
}

CUresult
cuStreamCreate(CUstream *s, unsigned int flags)
{
	(void)flags;
	*s = (CUstream)(void *)malloc(1);
	return CUDA_SUCCESS;
}

CUresult
cuStreamDestroy_v2(CUstream s)
{
	free(s);
	return CUDA_SUCCESS;
}

CUresult
cuStreamSynchronize(CUstream s)
{
	(void)s;
	return CUDA_SUCCESS;
}

static int
elem_bytes(CUtensorMapDataType t)
{
	switch (t) {
	case CU_TENSOR_MAP_DATA_TYPE_UINT8: return 1;
	case CU_TENSOR_MAP_DATA_TYPE_UINT16: case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
	case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16: return 2;
	case CU_TENSOR_MAP_DATA_TYPE_UINT64: case CU_TENSOR_MAP_DATA_TYPE_INT64:
	case CU_TENSOR_MAP_DATA_TYPE_FLOAT64: return 8;
	default: return 4;
	}
}

/* Records the call, applies cuTensorMapEncodeTiled's documented rules (non-packed types,
 * no interleave), and writes a recognisable map: a magic word, the address, the innermost
 * dim and box, so the test can find it among the kernel's arguments. */
CUresult
cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType dtype, cuuint32_t rank, void *addr,
		       const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
		       const cuuint32_t *estr, CUtensorMapInterleave il, CUtensorMapSwizzle swz,
		       CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob)
{
	static const int span[] = {0, 32, 64, 128};
	uintptr_t a = (uintptr_t)addr;
	cuuint32_t i;
	int n;

	pthread_mutex_lock(&lock);
	n = (int)*var("encode");
	if (n < MAXENC) {
		memset(&encs[n], 0, sizeof encs[n]);
		encs[n].dtype = dtype;
		encs[n].rank = rank;
		encs[n].addr = (long)a;
		encs[n].interleave = il;
		encs[n].swizzle = swz;
		encs[n].l2 = l2;
		encs[n].oob = oob;
		encs[n].map_mod64 = (long)((uintptr_t)map % 64);
		for (i = 0; i < rank && i < 5; i++) {
			encs[n].dims[i] = (long)dims[i];
			encs[n].box[i] = (long)box[i];
			encs[n].estr[i] = (long)estr[i];
			if (i + 1 < rank)
				encs[n].strides[i] = (long)strides[i];
		}
	}
	*var("encode") += 1;
	pthread_mutex_unlock(&lock);
	if (*var("encode_error"))
		return (CUresult)*var("encode_error");
	if ((uintptr_t)map % 64 || rank < 1 || rank > 5 || a % 16 || il != CU_TENSOR_MAP_INTERLEAVE_NONE ||
	    swz > CU_TENSOR_MAP_SWIZZLE_128B || dtype > CU_TENSOR_MAP_DATA_TYPE_BFLOAT16)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < rank; i++) {
		if (dims[i] == 0 || dims[i] > ((cuuint64_t)1 << 32) || box[i] == 0 || box[i] > 256 ||
		    estr[i] == 0 || estr[i] > 8)
			return CUDA_ERROR_INVALID_VALUE;
		if (i + 1 < rank && (strides[i] % 16 || strides[i] >= ((cuuint64_t)1 << 40)))
			return CUDA_ERROR_INVALID_VALUE;
	}
	if (box[0] * (cuuint32_t)elem_bytes(dtype) % 16 ||
	    (swz && box[0] * (cuuint32_t)elem_bytes(dtype) > (cuuint32_t)span[swz]))
		return CUDA_ERROR_INVALID_VALUE;
	if (oob == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA &&
	    dtype < CU_TENSOR_MAP_DATA_TYPE_FLOAT16)
		return CUDA_ERROR_INVALID_VALUE;
	memset(map, 0, sizeof *map);
	map->opaque[0] = 0x7e45a0a5u;
	map->opaque[1] = (cuuint64_t)a;
	map->opaque[2] = dims[0];
	map->opaque[3] = box[0];
	return CUDA_SUCCESS;
}

/* What cuGetProcAddress hands out: base names to this library's ABI versions. */
static const struct {
	const char *name;
	void (*fn)(void);
} procs[] = {
	{"cuInit", (void (*)(void))cuInit},
	{"cuDriverGetVersion", (void (*)(void))cuDriverGetVersion},
	{"cuGetErrorString", (void (*)(void))cuGetErrorString},
	{"cuGetErrorName", (void (*)(void))cuGetErrorName},
	{"cuDeviceGet", (void (*)(void))cuDeviceGet},
	{"cuDeviceGetCount", (void (*)(void))cuDeviceGetCount},
	{"cuDeviceGetAttribute", (void (*)(void))cuDeviceGetAttribute},
	{"cuDevicePrimaryCtxRetain", (void (*)(void))cuDevicePrimaryCtxRetain},
	{"cuDevicePrimaryCtxRelease", (void (*)(void))cuDevicePrimaryCtxRelease_v2},
	{"cuCtxGetCurrent", (void (*)(void))cuCtxGetCurrent},
	{"cuCtxSetCurrent", (void (*)(void))cuCtxSetCurrent},
	{"cuCtxGetDevice", (void (*)(void))cuCtxGetDevice},
	{"cuCtxSynchronize", (void (*)(void))cuCtxSynchronize},
	{"cuModuleLoadDataEx", (void (*)(void))cuModuleLoadDataEx},
	{"cuModuleUnload", (void (*)(void))cuModuleUnload},
	{"cuModuleGetFunction", (void (*)(void))cuModuleGetFunction},
	{"cuFuncGetAttribute", (void (*)(void))cuFuncGetAttribute},
	{"cuFuncSetAttribute", (void (*)(void))cuFuncSetAttribute},
	{"cuLaunchKernelEx", (void (*)(void))cuLaunchKernelEx},
	{"cuMemAlloc", (void (*)(void))cuMemAlloc_v2},
	{"cuMemFree", (void (*)(void))cuMemFree_v2},
	{"cuMemcpyHtoD", (void (*)(void))cuMemcpyHtoD_v2},
	{"cuMemcpyDtoH", (void (*)(void))cuMemcpyDtoH_v2},
	{"cuMemsetD8", (void (*)(void))cuMemsetD8_v2},
	{"cuStreamCreate", (void (*)(void))cuStreamCreate},
	{"cuStreamDestroy", (void (*)(void))cuStreamDestroy_v2},
	{"cuStreamSynchronize", (void (*)(void))cuStreamSynchronize},
	{"cuTensorMapEncodeTiled", (void (*)(void))cuTensorMapEncodeTiled},
	{NULL, NULL},
};

CUresult
cuGetProcAddress_v2(const char *symbol, void **pfn, int version, cuuint64_t flags,
		    CUdriverProcAddressQueryResult *status)
{
	int i;

	*pfn = NULL;
	*status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	if (getenv("FAKE_NO_GETPROC"))
		return CUDA_ERROR_NOT_FOUND;
	/* cakert asks for the 12.0 ABI on the legacy default stream */
	if (version != 12000 || flags != CU_GET_PROC_ADDRESS_LEGACY_STREAM)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; procs[i].name; i++)
		if (strcmp(procs[i].name, symbol) == 0) {
			memcpy(pfn, &procs[i].fn, sizeof *pfn);
			*status = CU_GET_PROC_ADDRESS_SUCCESS;
			*var("getproc") += 1;
			return CUDA_SUCCESS;
		}
	return CUDA_ERROR_NOT_FOUND;
}
