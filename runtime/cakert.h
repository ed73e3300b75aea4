/* cakert.h: the runtime behind cakec's generated launchers.
 *
 * cakec copies this file and cakert.c beside the launchers it writes (<kernel>.h/.c), so an
 * output folder builds on its own: a C99 compiler, cuda.h for the types, and -ldl -lpthread
 * to link. The CUDA driver (libcuda.so.1) is loaded with dlopen on first use, never linked,
 * so a program using the launchers starts and reports CAKE_ERR_NO_DRIVER on machines
 * without one.
 *
 * Contents: tensor views laid out like DLPack's DLTensor, status codes and the error
 * record, the resolved driver entry points (cakert_driver), and the kernel descriptors and
 * checks that the generated launchers call. docs/launcher.md describes it all.
 *
 * Keep one copy of cakert.c per program: the runtime is the same for every kernel, so the
 * files written by different cakec runs (of one version) are interchangeable. */
#ifndef CAKERT_H
#define CAKERT_H

#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Generated launchers refuse to compile against a runtime of another ABI version. */
#define CAKERT_ABI_VERSION 2

#if defined(__GNUC__)
#define CAKERT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CAKERT_PRINTF(f, a)
#endif

/* ---- tensor views: DLPack's DLDevice, DLDataType and DLTensor, field for field ---- */

/* Device types (DLDeviceType values). Launchers accept CAKE_DEVICE_CUDA only. */
enum { CAKE_DEVICE_CPU = 1, CAKE_DEVICE_CUDA = 2 };

/* Type codes (DLDataTypeCode values). */
enum {
	CAKE_DTYPE_INT = 0,
	CAKE_DTYPE_UINT = 1,
	CAKE_DTYPE_FLOAT = 2,
	CAKE_DTYPE_BFLOAT = 4,
	CAKE_DTYPE_BOOL = 6,
	CAKE_DTYPE_FLOAT8_E4M3FN = 10,  /* OCP fp8 E4M3, no infinities (torch.float8_e4m3fn) */
	CAKE_DTYPE_FLOAT8_E5M2 = 12     /* OCP fp8 E5M2 (torch.float8_e5m2) */
};

typedef struct CakeDevice {
	int32_t device_type;    /* CAKE_DEVICE_*; DLPack's enum is int-sized */
	int32_t device_id;      /* the CUDA device ordinal */
} CakeDevice;

typedef struct CakeDType {
	uint8_t code;           /* CAKE_DTYPE_* */
	uint8_t bits;           /* 8, 16, 32, 64 */
	uint16_t lanes;         /* 1: launchers take scalar element types only */
} CakeDType;

/* A tensor view. A DLTensor (or DLManagedTensor's dl_tensor) can be passed by copying it
 * or by casting its address: the layout is the same. Shapes and strides count elements;
 * strides may be NULL (row-major contiguous). The kernel reads data + byte_offset. */
typedef struct CakeTensor {
	void *data;
	CakeDevice device;
	int32_t ndim;
	CakeDType dtype;
	const int64_t *shape;
	const int64_t *strides;
	uint64_t byte_offset;
} CakeTensor;

/* C99 has no static assertions; a negative array size stops the build instead. */
typedef char cakert_tensor_layout_check[
	(sizeof(CakeDevice) == 8 && sizeof(CakeDType) == 4 &&
	 offsetof(CakeTensor, device) == sizeof(void *) &&
	 offsetof(CakeTensor, ndim) == sizeof(void *) + 8 &&
	 offsetof(CakeTensor, dtype) == sizeof(void *) + 12 &&
	 offsetof(CakeTensor, byte_offset) == 3 * sizeof(void *) + 16) ? 1 : -1];

/* ---- status codes and the error record ---- */

typedef enum CakeStatus {
	CAKE_OK = 0,
	CAKE_ERR_NULL,          /* a NULL args, tensor data or shape pointer */
	CAKE_ERR_DTYPE,         /* element type code, bits or lanes */
	CAKE_ERR_NDIM,          /* number of dimensions */
	CAKE_ERR_SHAPE,         /* a dimension differs from the kernel's constant or symbol */
	CAKE_ERR_STRIDE,        /* strides that are not row-major contiguous, or that TMA cannot use */
	CAKE_ERR_ALIGN,         /* data + byte_offset not aligned as the kernel (or TMA) needs */
	CAKE_ERR_LIMIT,         /* a dimension or element count not below 2^31 */
	CAKE_ERR_RANGE,         /* a scalar outside its type's range */
	CAKE_ERR_DEVICE,        /* not a CUDA tensor, or on another device than the context's */
	CAKE_ERR_OVERLAP,       /* an out/inout tensor overlaps another tensor */
	CAKE_ERR_GRID,          /* the grid formula failed or gave dimensions out of range */
	CAKE_ERR_NO_DRIVER,     /* libcuda.so.1 could not be loaded */
	CAKE_ERR_DRIVER,        /* the driver is unusable, or a driver call failed */
	CAKE_ERR_CONTEXT,       /* no current CUDA context */
	CAKE_ERR_ARCH,          /* no image for the device's architecture */
	CAKE_ERR_SMEM,          /* the kernel needs more shared memory than the device allows */
	CAKE_ERR_NOMEM,         /* host memory ran out */
	CAKE_STATUS_COUNT
} CakeStatus;

#define CAKE_ERROR_MSG_SIZE 512

/* Filled by a failing call: the status again and a message naming the kernel, the
 * parameter and what was expected against what was found. Calls take a NULL CakeError. */
typedef struct CakeError {
	int status;
	char msg[CAKE_ERROR_MSG_SIZE];
} CakeError;

/* "CAKE_ERR_SHAPE"; "CAKE_ERR_?" for unknown codes. */
const char *cakert_status_name(int status);

/* ---- the driver: loaded once, entry points resolved by version ---- */

/* The driver entry points cakert resolves (the CUDA 12.0 ABI of each: cuMemAlloc is
 * cuMemAlloc_v2, and so on). Test programs and tools use them to allocate, copy and
 * synchronize through the same driver the launchers use. tensor_map_encode_tiled may be
 * NULL on drivers without it; every other entry is present when the table is returned. */
typedef struct CakertDriver {
	int version;            /* cuDriverGetVersion, e.g. 12080 */
	CUresult (*init)(unsigned int flags);
	CUresult (*driver_get_version)(int *version);
	CUresult (*get_error_string)(CUresult error, const char **str);
	CUresult (*get_error_name)(CUresult error, const char **str);
	CUresult (*device_get)(CUdevice *device, int ordinal);
	CUresult (*device_get_count)(int *count);
	CUresult (*device_get_attribute)(int *value, CUdevice_attribute attrib, CUdevice dev);
	CUresult (*device_primary_ctx_retain)(CUcontext *ctx, CUdevice dev);
	CUresult (*device_primary_ctx_release)(CUdevice dev);
	CUresult (*ctx_get_current)(CUcontext *ctx);
	CUresult (*ctx_set_current)(CUcontext ctx);
	CUresult (*ctx_get_device)(CUdevice *device);
	CUresult (*ctx_synchronize)(void);
	CUresult (*module_load_data_ex)(CUmodule *module, const void *image,
					unsigned int num_options, CUjit_option *options,
					void **option_values);
	CUresult (*module_unload)(CUmodule module);
	CUresult (*module_get_function)(CUfunction *fn, CUmodule module, const char *name);
	CUresult (*func_get_attribute)(int *value, CUfunction_attribute attrib, CUfunction fn);
	CUresult (*func_set_attribute)(CUfunction fn, CUfunction_attribute attrib, int value);
	CUresult (*launch_kernel_ex)(const CUlaunchConfig *config, CUfunction fn,
				     void **params, void **extra);
	CUresult (*mem_alloc)(CUdeviceptr *ptr, size_t bytes);
	CUresult (*mem_free)(CUdeviceptr ptr);
	CUresult (*memcpy_htod)(CUdeviceptr dst, const void *src, size_t bytes);
	CUresult (*memcpy_dtoh)(void *dst, CUdeviceptr src, size_t bytes);
	CUresult (*memset_d8)(CUdeviceptr dst, unsigned char value, size_t n);
	CUresult (*stream_create)(CUstream *stream, unsigned int flags);
	CUresult (*stream_destroy)(CUstream stream);
	CUresult (*stream_synchronize)(CUstream stream);
	CUresult (*tensor_map_encode_tiled)(CUtensorMap *map, CUtensorMapDataType dtype,
					    cuuint32_t rank, void *global,
					    const cuuint64_t *dims, const cuuint64_t *strides,
					    const cuuint32_t *box, const cuuint32_t *elem_strides,
					    CUtensorMapInterleave interleave,
					    CUtensorMapSwizzle swizzle,
					    CUtensorMapL2promotion l2,
					    CUtensorMapFloatOOBfill oob);
	/* Asynchronous copies, events and CUDA graphs, for test programs and tools. The
	 * launchers never use them, so they are optional: NULL on a driver that lacks one
	 * (every 12.0 or newer driver has them all). stream_begin_capture is the _v2 entry
	 * (with a capture mode); graph_instantiate is cuGraphInstantiateWithFlags. */
	CUresult (*memcpy_htod_async)(CUdeviceptr dst, const void *src, size_t bytes,
				      CUstream stream);
	CUresult (*memcpy_dtoh_async)(void *dst, CUdeviceptr src, size_t bytes, CUstream stream);
	CUresult (*memcpy_dtod)(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
	CUresult (*memcpy_dtod_async)(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
				      CUstream stream);
	CUresult (*memset_d8_async)(CUdeviceptr dst, unsigned char value, size_t n,
				    CUstream stream);
	CUresult (*event_create)(CUevent *event, unsigned int flags);
	CUresult (*event_destroy)(CUevent event);
	CUresult (*event_record)(CUevent event, CUstream stream);
	CUresult (*event_synchronize)(CUevent event);
	CUresult (*event_elapsed_time)(float *ms, CUevent start, CUevent end);
	CUresult (*stream_begin_capture)(CUstream stream, CUstreamCaptureMode mode);
	CUresult (*stream_end_capture)(CUstream stream, CUgraph *graph);
	CUresult (*graph_instantiate)(CUgraphExec *exec, CUgraph graph, unsigned long long flags);
	CUresult (*graph_launch)(CUgraphExec exec, CUstream stream);
	CUresult (*graph_exec_destroy)(CUgraphExec exec);
	CUresult (*graph_destroy)(CUgraph graph);
} CakertDriver;

/* Loads the driver on first call (thread-safe) and returns its table, or NULL when there
 * is no usable driver; cakert_driver_status says why. */
const CakertDriver *cakert_driver(void);
/* CAKE_OK, or CAKE_ERR_NO_DRIVER ("no CUDA driver (libcuda.so.1 not found)") or
 * CAKE_ERR_DRIVER (too old, an entry point missing, cuInit failed) with the message. */
int cakert_driver_status(CakeError *err);
/* "CUDA_ERROR_INVALID_VALUE: invalid argument", through cuGetErrorName/String. */
void cakert_result_string(CUresult r, char *out, size_t size);

/* Drops the modules cached for ctx (unloading them: call with ctx current). Call it before
 * destroying a context that launched cakec kernels, or a later context at the same address
 * would find stale modules. */
void cakert_forget_context(CUcontext ctx);

/* ---- kernel descriptors: written by the generated launchers ---- */

#define CAKERT_MAX_RANK 8

/* @cakec:target-enum (cakec writes the CAKERT_<ID> enum here from ir/targets.def) */
enum { CAKERT_IN, CAKERT_OUT, CAKERT_INOUT };

/* One compiled image: PTX text (NUL-terminated) and, when ptxas ran, the cubin. */
typedef struct CakertImage {
	int target;                     /* CAKERT_SM_* */
	const char *ptx;
	const unsigned char *cubin;     /* NULL when not built */
	size_t cubin_size;
} CakertImage;

/* A tensor dimension: symbol number sym (index into CakertKernel.syms), or a fixed size
 * when sym < 0. */
typedef struct CakertDim {
	int sym;
	int64_t size;
} CakertDim;

typedef struct CakertTensorSpec {
	const char *name;
	int code, bits;         /* the expected CakeDType (lanes 1) */
	int access;             /* CAKERT_IN, _OUT, _INOUT */
	int align;              /* bytes data + byte_offset must be a multiple of */
	int rank;
	CakertDim dims[CAKERT_MAX_RANK];
} CakertTensorSpec;

/* A TMA tensor map parameter: the launcher encodes it over tensor `tensor` with
 * cuTensorMapEncodeTiled at each launch and passes the 128-byte map by value. */
#define CAKERT_TMA_MAX_RANK 5

typedef struct CakertTmapSpec {
	const char *name;
	int param;              /* its index in the kernel's parameters (and params[]) */
	int tensor;             /* the tensor it maps: an index into CakertKernel.tensors */
	int dtype;              /* CUtensorMapDataType of the tensor's elements */
	int rank;               /* the tensor's rank, 1..CAKERT_TMA_MAX_RANK */
	unsigned int box[CAKERT_TMA_MAX_RANK];  /* box dims in elements, row-major like the tensor */
	int swizzle;            /* bytes: 0 (none), 32, 64, 128 */
	int oob_nan;            /* out-of-bounds elements read as NaN (else zero) */
} CakertTmapSpec;

typedef struct CakertKernel {
	const char *name;
	const char *symbol;             /* the device entry point */
	const char *hash;               /* content hash, hex */
	unsigned int threads[3];
	unsigned int cluster[3];
	size_t smem_bytes;              /* dynamic shared memory per block */
	const char *grid[3];            /* the grid formulas, for messages */
	int nimages;
	const CakertImage *images;
	int ntensors;                   /* tensor parameters, in parameter order */
	const CakertTensorSpec *tensors;
	int nsyms;                      /* shape symbols, in parameter order */
	const char *const *syms;
	int ntmaps;                     /* TMA tensor map parameters, in parameter order */
	const CakertTmapSpec *tmaps;
	int dependent;                  /* launch(dependent): programmatic stream serialization */
} CakertKernel;

/* ---- checks and launch: called by the generated launchers ---- */

/* Resets err to CAKE_OK and an empty message. */
void cakert_clear(CakeError *err);
/* Records status and the formatted message in err; returns status. */
int cakert_fail(CakeError *err, int status, const char *fmt, ...) CAKERT_PRINTF(3, 4);

/* Checks the tensors t[0..k->ntensors) against k's specs, in order: device type, dtype,
 * ndim, shape (binding sym[i] on first use, where sym[i] < 0 means unbound), dimension
 * and element-count limits, data, strides, alignment; then that no out/inout tensor
 * overlaps another. Needs no driver. */
int cakert_check_tensors(const CakertKernel *k, const CakeTensor *const *t, int64_t *sym,
			 CakeError *err);
/* The same for a kernel with index(i64): dimensions and element counts may pass 2^31 (the
 * bytes of each tensor must fit in int64). */
int cakert_check_tensors_i64(const CakertKernel *k, const CakeTensor *const *t, int64_t *sym,
			     CakeError *err);
/* Checks what TMA needs of each tensor a map of k covers, after cakert_check_tensors
 * passed: every byte stride a multiple of 16 and below 2^40, every extent at most 2^32
 * (the 16-byte base alignment is in the tensor's spec). Tensors without elements pass.
 * Needs no driver. */
int cakert_check_tmaps(const CakertKernel *k, const CakeTensor *const *t, CakeError *err);
/* The multiprocessor count of the current context's device, for grid formulas that name
 * num_sms: queried once per context and cached (cakert_forget_context drops it). Fails
 * without a driver (CAKE_ERR_NO_DRIVER, CAKE_ERR_DRIVER) or a current context
 * (CAKE_ERR_CONTEXT). */
int cakert_num_sms(const CakertKernel *k, int64_t *num_sms, CakeError *err);
/* Whether k has an image for the current context's device's architecture (*built 1 or
 * 0): an entry point asks before trying an instance built for fewer targets than the
 * others. Fails as cakert_num_sms does. */
int cakert_built_for_device(const CakertKernel *k, int *built, CakeError *err);
/* Checks lo <= v <= hi for the scalar (or unbound symbol) named param. */
int cakert_check_int(const CakertKernel *k, const char *param, int64_t v, int64_t lo,
		     int64_t hi, const char *type, CakeError *err);
/* Checks the grid: no negative dimension, x < 2^31, y and z < 2^16, and each dimension a
 * multiple of the cluster's. A zero dimension passes (the launch does nothing). */
int cakert_check_grid(const CakertKernel *k, const int64_t grid[3], CakeError *err);
/* Reports that grid formula `axis` (0..2) divided by zero or overflowed int64. */
int cakert_grid_error(const CakertKernel *k, int axis, CakeError *err);

/* Grid arithmetic in int64: each clears *ok on division by zero or overflow (and then
 * returns 0). cdiv rounds the quotient up. */
int64_t cakert_gadd(int64_t a, int64_t b, int *ok);
int64_t cakert_gsub(int64_t a, int64_t b, int *ok);
int64_t cakert_gmul(int64_t a, int64_t b, int *ok);
int64_t cakert_gdiv(int64_t a, int64_t b, int *ok);
int64_t cakert_grem(int64_t a, int64_t b, int *ok);
int64_t cakert_gcdiv(int64_t a, int64_t b, int *ok);
int64_t cakert_gmin(int64_t a, int64_t b);
int64_t cakert_gmax(int64_t a, int64_t b);
int64_t cakert_gu64(uint64_t a, int *ok);

/* The device address a kernel receives for t: data + byte_offset. */
CUdeviceptr cakert_tensor_ptr(const CakeTensor *t);

/* Launches k on stream in the current context: loads the driver, checks that every tensor
 * is on the context's device, encodes each tensor map (k->tmaps) into the storage its
 * params[] entry points at (sizeof(CUtensorMap) bytes, 128-byte aligned), finds or loads
 * the module for this context (choosing the image by compute capability), opts into the
 * dynamic shared memory once per function, and calls cuLaunchKernelEx with params
 * (pointers to each kernel argument, in order) and, for a cluster shape other than 1x1x1,
 * the cluster-dimension attribute. */
int cakert_launch(const CakertKernel *k, const CakeTensor *const *t, const int64_t grid[3],
		  CUstream stream, void **params, CakeError *err);
/* Which image of k the context ctx loaded, for tools that report cold starts: writes
 * "cubin sm_90a", "PTX sm_90a", or "PTX sm_90a (cubin refused: CUDA_ERROR_...)" into buf
 * and returns 1; returns 0 (buf empty) when k was not loaded in ctx. */
int cakert_loaded_image(const CakertKernel *k, CUcontext ctx, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
