"""cakec_torch: call the launchers that cakec generated, from PyTorch.

    import cakec_torch
    lib = cakec_torch.load("build/gen/elementwise")
    lib.axpby(x=x, y=y, a=2.0, b=0.5)                # on torch's current stream
    lib.silu_mul(gate=g, up=u, out=o, stream=s)      # or on a given stream
    lib.axpby.grid(x=x, y=y, a=2.0, b=0.5)           # validate only: the grid, no driver

load() builds one shared library from the folder's launchers (<kernel>.c) and runtime
(cakert.c), plus a small shim of its own, with the system C compiler ($CC or cc, -std=c99),
and caches it by a hash of the sources and flags: first in <folder>/.cakec_torch/ (where
the build prebuilds it, so a machine without a compiler or cuda.h can still load it), else
in $CAKEC_TORCH_CACHE or ~/.cache/cakec_torch. manifest.json names each kernel's
parameters; every kernel becomes a method taking them by keyword:

- tensors: torch tensors (anything with data_ptr(), shape, stride(), dtype and device),
  passed as DLPack-layout CakeTensor views (data_ptr() already includes the storage
  offset, so byte_offset is 0); the launcher checks dtype, shape, strides, alignment,
  device and overlap and raises CakeError with its message;
- scalars: Python numbers (f16/bf16 scalars are converted to their bit patterns);
- shape symbols that no tensor binds: Python ints;
- stream: None (torch.cuda.current_stream() of the tensors' device), a torch.cuda.Stream,
  or a raw CUstream handle (int).

Before launching, the shim makes the tensors' device's primary context current on the
calling thread when no context of that device is (PyTorch uses primary contexts too).
Failures raise CakeError, whose status_name is the launcher's CakeStatus (CAKE_ERR_SHAPE,
CAKE_ERR_NO_DRIVER, ...) and whose message is the launcher's.

As a script: `python3 cakec_torch.py build [--cc CC] [--cuda-include DIR] [--stamp FILE]
DIR...` prebuilds the library into each DIR/.cakec_torch/.
"""

import ctypes
import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile

__all__ = ["CakeError", "Library", "load", "build"]

# Bump when the shim or the way the library is built changes: part of the cache key.
_BUILD_VERSION = "cakec_torch 1"
_CFLAGS = ["-std=c99", "-O2", "-fPIC", "-shared", "-Wall"]
_LIBS = ["-ldl", "-lpthread"]

_STATUS_NAMES = [
    "CAKE_OK", "CAKE_ERR_NULL", "CAKE_ERR_DTYPE", "CAKE_ERR_NDIM", "CAKE_ERR_SHAPE",
    "CAKE_ERR_STRIDE", "CAKE_ERR_ALIGN", "CAKE_ERR_LIMIT", "CAKE_ERR_RANGE",
    "CAKE_ERR_DEVICE", "CAKE_ERR_OVERLAP", "CAKE_ERR_GRID", "CAKE_ERR_NO_DRIVER",
    "CAKE_ERR_DRIVER", "CAKE_ERR_CONTEXT", "CAKE_ERR_ARCH", "CAKE_ERR_SMEM",
    "CAKE_ERR_NOMEM",
]
CAKE_ERR_NO_DRIVER = 12
CAKE_ERR_DRIVER = 13

# The C field names host/emit.c avoids: a parameter with one of these names gets a '_'.
_C_RESERVED = set("""auto break case char const continue default do double else enum extern
float for goto if inline int long register restrict return short signed sizeof static
struct switch typedef union unsigned void volatile while _Bool _Complex _Imaginary bool true
false NULL errno assert offsetof stdin stdout stderr""".split())


class CakeError(RuntimeError):
    """A launcher (or the shim) failed: status is the CakeStatus, message its text."""

    def __init__(self, status, message, kernel=None):
        self.status = status
        self.status_name = (_STATUS_NAMES[status] if 0 <= status < len(_STATUS_NAMES)
                            else "CAKE_ERR_?")
        self.message = message
        self.kernel = kernel
        RuntimeError.__init__(self, "%s: %s" % (self.status_name, message))


# ---- the C structures (runtime/cakert.h) ----

class _CakeDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _CakeDType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _CakeTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", _CakeDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", _CakeDType),
        # int64_t *shape, *strides: addresses into one array a call keeps (_put_tensor)
        ("shape", ctypes.c_void_p),
        ("strides", ctypes.c_void_p),
        ("byte_offset", ctypes.c_uint64),
    ]


class _CakeErrorStruct(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("msg", ctypes.c_char * 512)]


_DEVICE_CPU, _DEVICE_CUDA = 1, 2
_INT, _UINT, _FLOAT, _BFLOAT, _BOOL = 0, 1, 2, 4, 6
_FLOAT8_E4M3FN, _FLOAT8_E5M2 = 10, 12

# torch dtype (its str() without "torch.") -> (DLPack code, bits)
_TORCH_DTYPES = {
    "float32": (_FLOAT, 32), "float": (_FLOAT, 32),
    "float16": (_FLOAT, 16), "half": (_FLOAT, 16),
    "float64": (_FLOAT, 64), "double": (_FLOAT, 64),
    "bfloat16": (_BFLOAT, 16),
    "int8": (_INT, 8), "int16": (_INT, 16), "short": (_INT, 16),
    "int32": (_INT, 32), "int": (_INT, 32), "int64": (_INT, 64), "long": (_INT, 64),
    "uint8": (_UINT, 8), "uint16": (_UINT, 16), "uint32": (_UINT, 32), "uint64": (_UINT, 64),
    "bool": (_BOOL, 8),
    "float8_e4m3fn": (_FLOAT8_E4M3FN, 8), "float8_e5m2": (_FLOAT8_E5M2, 8),
}

# manifest scalar dtype -> (ctypes field type, converter); see host/emit.c's scalar_abi
def _bits_f16(v):
    return struct.unpack("<H", struct.pack("<e", float(v)))[0]


def _bits_bf16(v):
    u = struct.unpack("<I", struct.pack("<f", float(v)))[0]
    if (u & 0x7FFFFFFF) > 0x7F800000:
        return (u >> 16) | 0x40
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF


_SCALARS = {
    "i1": (ctypes.c_int64, int), "i8": (ctypes.c_int64, int), "i16": (ctypes.c_int64, int),
    "i32": (ctypes.c_int64, int), "u8": (ctypes.c_int64, int), "u16": (ctypes.c_int64, int),
    "u32": (ctypes.c_int64, int), "i64": (ctypes.c_int64, int),
    "u64": (ctypes.c_uint64, int),
    "f16": (ctypes.c_uint16, _bits_f16), "bf16": (ctypes.c_uint16, _bits_bf16),
    "f32": (ctypes.c_float, float), "f64": (ctypes.c_double, float),
}


def _field_name(name):
    return name + "_" if name in _C_RESERVED else name


# ---- building the library ----

def _read_manifest(gen_dir):
    path = os.path.join(gen_dir, "manifest.json")
    with open(path) as f:
        kernels = json.load(f)
    if not isinstance(kernels, list):
        raise ValueError("%s: expected a JSON array of kernels" % path)
    # entry points ({"entry", "instances", "when"}) become kernels named as the entry,
    # with the first instance's parameters: every instance has them, but for the tensor
    # dtypes and constant dimensions, and the entry's C launcher picks the instance (by
    # those and each instance's `when` condition, so a call chooses exactly as a C
    # caller's would)
    by_name = dict((k["kernel"], k) for k in kernels if "kernel" in k)
    out = [k for k in kernels if "kernel" in k]
    for e in kernels:
        if "entry" in e and e["instances"] and e["instances"][0] in by_name:
            k = dict(by_name[e["instances"][0]])
            k["kernel"] = e["entry"]
            k["entry_instances"] = list(e["instances"])
            k["entry_when"] = list(e.get("when") or [None] * len(e["instances"]))
            out.append(k)
    return out


def _table(p):
    """The per_rank table a field belongs to (None for other parameters)."""
    if "ranks" not in p:
        return None
    return p.get("table") or p["name"].rsplit("_", 1)[0]


def peer_buffers(handle, shape, dtype, storage_offset=0):
    """Every rank's view of a symmetric buffer, in rank order: the list a per_rank
    parameter takes. handle is what torch.distributed._symmetric_memory.rendezvous
    returned for the buffer (its get_buffer maps each peer's memory into this process);
    shape, dtype and storage_offset (in elements) pick the same view on every rank."""
    return [handle.get_buffer(r, tuple(shape), dtype, storage_offset)
            for r in range(_world_size(handle))]


def peer_signal_pads(handle, shape, dtype=None, storage_offset=0):
    """Every rank's view of the signal pad of a symmetric buffer, in rank order (a list for
    a per_rank table of flags). torch's own barriers and signals use the pad's first words
    (a channel is world_size words); a storage_offset past the channels torch's calls use
    keeps the two apart."""
    if dtype is None:
        import torch
        dtype = torch.uint32
    return [handle.get_signal_pad(r, tuple(shape), dtype=dtype, storage_offset=storage_offset)
            for r in range(_world_size(handle))]


def _world_size(handle):
    w = getattr(handle, "world_size", None)
    return int(w) if w is not None else len(handle.buffer_ptrs)


def _fields(kernel):
    """The args struct's members in order: (param, kind) for tensors, scalars and the
    shape symbols no tensor binds (host/emit.c's order)."""
    params = kernel["params"]
    bound = set()
    for p in params:
        if p["kind"] == "tensor":
            bound.update(d for d in p["shape"] if isinstance(d, str))
    out = []
    for p in params:
        if p["kind"] in ("tensor", "scalar"):
            out.append(p)
        elif p["kind"] == "sym" and p["name"] not in bound:
            out.append(p)
    return out


def _shim_source(kernels):
    """C source of the shim: the current-context helper and, per kernel, the args struct's
    size and member offsets as the C compiler lays them out (checked against ctypes)."""
    lines = [
        "/* cakec_torch shim (generated by python/cakec_torch.py) */",
        "#define _POSIX_C_SOURCE 200809L",
        "#include <pthread.h>",
        "#include <stddef.h>",
        "#include <stdio.h>",
        '#include "cakert.h"',
    ]
    for k in kernels:
        lines.append('#include "%s.h"' % k["kernel"])
    lines += [
        "",
        "#define MAXDEV 64",
        "static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;",
        "static CUcontext primary[MAXDEV];",
        "",
        "/* Makes a context of device dev current on this thread: the current one when it",
        " * is on dev, else dev's primary context (retained once per process). */",
        "int",
        "cakec_torch_use_device(int dev, char *msg, size_t size)",
        "{",
        "\tconst CakertDriver *cu = cakert_driver();",
        "\tCUcontext cur = NULL, ctx;",
        "\tCUdevice d = -1;",
        "\tCUresult r;",
        "\tCakeError err;",
        "",
        "\tif (!cu) {",
        "\t\tcakert_driver_status(&err);",
        '\t\tsnprintf(msg, size, "%s", err.msg);',
        "\t\treturn err.status;",
        "\t}",
        "\tif (cu->ctx_get_current(&cur) == CUDA_SUCCESS && cur &&",
        "\t    cu->ctx_get_device(&d) == CUDA_SUCCESS && (int)d == dev)",
        "\t\treturn CAKE_OK;",
        "\tif (dev < 0 || dev >= MAXDEV) {",
        '\t\tsnprintf(msg, size, "device %d out of range", dev);',
        "\t\treturn CAKE_ERR_DEVICE;",
        "\t}",
        "\tpthread_mutex_lock(&lock);",
        "\tr = CUDA_SUCCESS;",
        "\tif (!primary[dev]) {",
        "\t\tr = cu->device_get(&d, dev);",
        "\t\tif (r == CUDA_SUCCESS)",
        "\t\t\tr = cu->device_primary_ctx_retain(&primary[dev], d);",
        "\t}",
        "\tctx = primary[dev];",
        "\tpthread_mutex_unlock(&lock);",
        "\tif (r == CUDA_SUCCESS)",
        "\t\tr = cu->ctx_set_current(ctx);",
        "\tif (r != CUDA_SUCCESS) {",
        "\t\tchar why[256];",
        "",
        "\t\tcakert_result_string(r, why, sizeof why);",
        '\t\tsnprintf(msg, size, "making device %d\'s primary context current: %s", dev, why);',
        "\t\treturn CAKE_ERR_DRIVER;",
        "\t}",
        "\treturn CAKE_OK;",
        "}",
    ]
    for k in kernels:
        name = k["kernel"]
        fields = _fields(k)
        lines += ["", "size_t", "cakec_torch_layout_%s(size_t *off)" % name, "{"]
        for i, p in enumerate(fields):
            # a per_rank table's tensors are elements of one array (p["field"]: "a[1]")
            lines.append("\toff[%d] = offsetof(%s_args, %s);" % (i, name, p.get("field") or _field_name(p["name"])))
        if not fields:
            lines.append("\t(void)off;")
        lines += ["\treturn sizeof(%s_args);" % name, "}"]
    return "\n".join(lines) + "\n"


def _sources(gen_dir, kernels):
    names = sorted(set(["cakert.c", "cakert.h"] +
                       [k["kernel"] + ".c" for k in kernels] +
                       [k["kernel"] + ".h" for k in kernels]))
    return [(n, os.path.join(gen_dir, n)) for n in names]


def _cache_key(gen_dir, kernels, shim):
    h = hashlib.sha256()
    h.update(_BUILD_VERSION.encode())
    h.update(" ".join(_CFLAGS + _LIBS).encode())
    h.update(shim.encode())
    for name, path in _sources(gen_dir, kernels):
        with open(path, "rb") as f:
            data = f.read()
        h.update(b"\0%s\0%d\0" % (name.encode(), len(data)))
        h.update(data)
    return h.hexdigest()[:20]


def _cuda_include_candidates():
    for var in ("CAKEC_CUDA_INCLUDE",):
        if os.environ.get(var):
            yield os.environ[var]
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            yield os.path.join(os.environ[var], "include")
    yield "/usr/local/cuda/include"
    yield "/usr/include"
    # Python packages that ship cuda.h (Triton's launcher headers, NVIDIA's wheels)
    for mod, sub in (("triton", ("backends", "nvidia", "include")),
                     ("nvidia.cuda_runtime", ("include",))):
        try:
            import importlib.util
            spec = importlib.util.find_spec(mod)
        except (ImportError, ValueError):
            spec = None
        if spec and spec.submodule_search_locations:
            for loc in spec.submodule_search_locations:
                yield os.path.join(loc, *sub)


def _find_cuda_include(explicit=None):
    cands = [explicit] if explicit else list(_cuda_include_candidates())
    for d in cands:
        if d and os.path.isfile(os.path.join(d, "cuda.h")):
            return d
    raise RuntimeError("cakec_torch: cuda.h not found (looked in %s); pass cuda_include= or "
                       "set CAKEC_CUDA_INCLUDE or CUDA_HOME" % ", ".join(str(c) for c in cands))


def _writable_dir(d):
    try:
        os.makedirs(d, exist_ok=True)
    except OSError:
        return False
    return os.access(d, os.W_OK)


def _compile(gen_dir, kernels, shim, out, cc, cuda_include):
    cc = cc or os.environ.get("CC") or "cc"
    inc = _find_cuda_include(cuda_include)
    with tempfile.TemporaryDirectory(prefix="cakec_torch-") as tmp:
        shim_path = os.path.join(tmp, "cakec_torch_shim.c")
        with open(shim_path, "w") as f:
            f.write(shim)
        srcs = [p for n, p in _sources(gen_dir, kernels) if n.endswith(".c")] + [shim_path]
        tmp_out = os.path.join(tmp, "lib.so")
        cmd = ([cc] + _CFLAGS + ["-I", gen_dir, "-I", inc] + srcs + ["-o", tmp_out] + _LIBS)
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if proc.returncode != 0:
            raise RuntimeError("cakec_torch: compiling %s failed:\n$ %s\n%s" %
                               (gen_dir, " ".join(cmd), proc.stdout.decode(errors="replace")))
        # rename into place: concurrent builds of the same key leave one whole file
        os.makedirs(os.path.dirname(out), exist_ok=True)
        fd, staged = tempfile.mkstemp(dir=os.path.dirname(out), suffix=".tmp")
        os.close(fd)
        with open(tmp_out, "rb") as src, open(staged, "wb") as dst:
            dst.write(src.read())
        os.chmod(staged, 0o755)
        os.replace(staged, out)


def build(gen_dir, cache_dir=None, cc=None, cuda_include=None):
    """Returns the path of the shared library for gen_dir, compiling it if no cached copy
    exists."""
    gen_dir = os.path.abspath(gen_dir)
    kernels = _read_manifest(gen_dir)
    shim = _shim_source(kernels)
    name = "cakec_torch-%s.so" % _cache_key(gen_dir, kernels, shim)
    if cache_dir:
        dirs = [cache_dir]
    else:
        dirs = [os.path.join(gen_dir, ".cakec_torch")]
        if os.environ.get("CAKEC_TORCH_CACHE"):
            dirs.insert(0, os.environ["CAKEC_TORCH_CACHE"])
        dirs.append(os.path.join(os.path.expanduser("~"), ".cache", "cakec_torch"))
    for d in dirs:
        path = os.path.join(d, name)
        if os.path.isfile(path):
            return path
    for d in dirs:
        if _writable_dir(d):
            path = os.path.join(d, name)
            _compile(gen_dir, kernels, shim, path, cc, cuda_include)
            return path
    raise RuntimeError("cakec_torch: no writable cache folder among %s" % ", ".join(dirs))


# ---- calling kernels ----

# A call's cost in Python is mostly its tensors (13 of them for ssd): each is written
# straight into the args struct as CakeTensor's bytes (one pack_into), with its shape and
# strides in one int64 array that the call keeps alive, and its element type's codes cached
# per dtype; ctypes objects a field took 15 us a tensor, this about 3.
_TENSOR_BYTES = struct.Struct("=Q2iiBBHQQQ")   # data, device, ndim, dtype, shape, strides, byte_offset
_DTYPE_CODES = {}
_DIMS_TYPES = {}


def _check_tensor_bytes():
    f = _CakeTensor
    want = (0, 8, 16, 20, 24, 32, 40, ctypes.sizeof(f))
    have = (f.data.offset, f.device.offset, f.ndim.offset, f.dtype.offset, f.shape.offset,
            f.strides.offset, f.byte_offset.offset, _TENSOR_BYTES.size)
    if want != have:
        raise RuntimeError("cakec_torch: CakeTensor's layout %s is not the packed one %s" % (have, want))


_check_tensor_bytes()


def _dtype_codes(dtype):
    codes = _DTYPE_CODES.get(dtype)
    if codes is None:
        name = str(dtype)
        if name.startswith("torch."):
            name = name[len("torch."):]
        codes = _TORCH_DTYPES.get(name, (255, 0))
        if len(_DTYPE_CODES) < 64:      # torch's dtypes are a few singletons; other
            _DTYPE_CODES[dtype] = codes  # duck-typed dtype objects must not grow it forever
    return codes


def _put_tensor(t, pname, kname, args, offset, keep):
    """Writes tensor t as the CakeTensor at offset of args; returns its CUDA device index,
    or None for a tensor elsewhere."""
    try:
        dtype = t.dtype
        shape = t.shape
        strides = t.stride()
        data = t.data_ptr()
        dev = t.device
    except AttributeError:
        raise TypeError("%s: parameter '%s': expected a tensor, found %s" %
                        (kname, pname, type(t).__name__))
    n = len(shape)
    dims_type = _DIMS_TYPES.get(n)
    if dims_type is None:
        dims_type = _DIMS_TYPES[n] = ctypes.c_int64 * max(2 * n, 1)
    dims = dims_type(*shape, *strides)
    keep.append(dims)
    at = ctypes.addressof(dims)
    cuda = getattr(dev, "type", "cpu") == "cuda"
    index = getattr(dev, "index", None) or 0
    code, bits = _dtype_codes(dtype)
    _TENSOR_BYTES.pack_into(args, offset, data or 0, _DEVICE_CUDA if cuda else _DEVICE_CPU, index,
                            n, code, bits, 1, at, at + 8 * n, 0)
    return index if cuda else None


def _stream_handle(stream, device):
    if stream is None:
        if device is None:
            return None
        try:
            import torch
        except ImportError:
            return None     # no torch: the legacy default stream
        return torch.cuda.current_stream(device).cuda_stream or None
    if hasattr(stream, "cuda_stream"):
        return stream.cuda_stream or None
    if isinstance(stream, ctypes.c_void_p):
        return stream.value
    return int(stream) or None


class Kernel(object):
    """One kernel of a Library: call it with its parameters by keyword."""

    def __init__(self, dll, entry):
        self.name = entry["kernel"]
        self.entry = entry
        self.fields = _fields(entry)
        self._dll = dll
        members = []
        for p in self.fields:
            if p["kind"] == "tensor":
                members.append((p["name"], _CakeTensor))
            elif p["kind"] == "scalar":
                if p["dtype"] not in _SCALARS:
                    raise RuntimeError("cakec_torch: %s: scalar '%s' of type %s is not supported"
                                       % (self.name, p["name"], p["dtype"]))
                members.append((p["name"], _SCALARS[p["dtype"]][0]))
            else:
                members.append((p["name"], ctypes.c_int64))
        if not members:
            members.append(("unused_", ctypes.c_char))
        self._args_type = type("%s_args" % self.name, (ctypes.Structure,), {"_fields_": members})
        # what _args does for each field, worked out once: the field, its member's offset,
        # its name in messages, and its converter (None for a tensor)
        self._names = self.params()
        self._name_set = frozenset(self._names)
        self._plan = [(p, getattr(self._args_type, p["name"]).offset, p.get("field") or p["name"],
                       None if p["kind"] == "tensor" else
                       _SCALARS[p["dtype"]][1] if p["kind"] == "scalar" else int)
                      for p in self.fields]
        self._check_layout()
        self._launch = getattr(dll, "%s_launch" % self.name)
        self._launch.restype = ctypes.c_int
        self._launch.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        self._grid = getattr(dll, "%s_grid" % self.name)
        self._grid.restype = ctypes.c_int
        self._grid.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        self._choose = None
        if entry.get("entry_instances"):    # an entry point: which instance a call takes
            # (absent from folders an older cakec generated)
            self._choose = getattr(dll, "%s_choose" % self.name, None)
            if self._choose is not None:
                self._choose.restype = ctypes.c_int
                self._choose.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
        self._use_device = dll.cakec_torch_use_device
        self._use_device.restype = ctypes.c_int
        self._use_device.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]

    def _check_layout(self):
        fn = getattr(self._dll, "cakec_torch_layout_%s" % self.name)
        fn.restype = ctypes.c_size_t
        off = (ctypes.c_size_t * max(len(self.fields), 1))()
        size = fn(off)
        mine = [getattr(self._args_type, p["name"]).offset for p in self.fields]
        if size != ctypes.sizeof(self._args_type) or list(off)[:len(self.fields)] != mine:
            raise RuntimeError("cakec_torch: %s_args: the C layout (size %d, offsets %s) differs "
                               "from manifest.json's (size %d, offsets %s)" %
                               (self.name, size, list(off)[:len(self.fields)],
                                ctypes.sizeof(self._args_type), mine))

    def params(self):
        """The call's keyword parameters: a per_rank table is one, taking a list of its
        tensors in rank order."""
        out = []
        for p in self.fields:
            name = _table(p) or p["name"]
            if name not in out:
                out.append(name)
        return out

    def _value(self, p, kwargs):
        """The argument for field p: a table's field takes element p["rank"] of its list."""
        table = _table(p)
        if not table:
            return kwargs[p["name"]]
        v = kwargs[table]
        if not isinstance(v, (list, tuple)) or len(v) != p["ranks"]:
            raise TypeError("%s: parameter '%s' is a per_rank table: expected a list of %d "
                            "tensors (one per rank), found %s" %
                            (self.name, table, p["ranks"], "a list of %d" % len(v)
                             if isinstance(v, (list, tuple)) else type(v).__name__))
        return v[p["rank"]]

    def _args(self, kwargs):
        if len(kwargs) != len(self._names) or not self._name_set.issuperset(kwargs):
            names = self._names
            unknown = sorted(set(kwargs) - self._name_set)
            missing = [n for n in names if n not in kwargs]
            raise TypeError("%s(%s): %s" % (self.name, ", ".join(names), "; ".join(
                (["unknown parameter(s) " + ", ".join(unknown)] if unknown else []) +
                (["missing parameter(s) " + ", ".join(missing)] if missing else []))))
        args = self._args_type()
        keep = []
        device = None
        for p, offset, label, convert in self._plan:
            v = self._value(p, kwargs)
            if convert is None:
                index = _put_tensor(v, label, self.name, args, offset, keep)
                if device is None:
                    device = index
            else:
                setattr(args, p["name"], convert(v))
        return args, keep, device

    def grid(self, **kwargs):
        """Validates the arguments without the driver; returns the launch grid (x, y, z)."""
        args, keep, _ = self._args(kwargs)
        grid = (ctypes.c_int64 * 3)()
        err = _CakeErrorStruct()
        rc = self._grid(ctypes.byref(args), grid, ctypes.byref(err))
        del keep
        if rc != 0:
            raise CakeError(rc, err.msg.decode(errors="replace"), self.name)
        return tuple(grid)

    def choose(self, **kwargs):
        """An entry point's choice for these arguments: the name of the instance a call
        would launch (the same choice and errors, nothing launched)."""
        if self._choose is None:
            why = ("an entry point generated by an older cakec (no %s_choose)" % self.name
                   if self.entry.get("entry_instances") else "a kernel, not an entry point: it chooses nothing")
            raise TypeError("%s: %s" % (self.name, why))
        args, keep, _ = self._args(kwargs)
        kern = ctypes.c_void_p()
        err = _CakeErrorStruct()
        rc = self._choose(ctypes.byref(args), ctypes.byref(kern), ctypes.byref(err))
        del keep
        if rc != 0:
            raise CakeError(rc, err.msg.decode(errors="replace"), self.name)
        # CakertKernel's first member is the instance's name
        return ctypes.cast(kern, ctypes.POINTER(ctypes.c_char_p))[0].decode()

    def __call__(self, stream=None, **kwargs):
        args, keep, device = self._args(kwargs)
        err = _CakeErrorStruct()
        if device is not None:
            msg = ctypes.create_string_buffer(512)
            rc = self._use_device(device, msg, 512)
            # without a usable driver the launcher itself says so, with the kernel's name
            if rc not in (0, CAKE_ERR_NO_DRIVER, CAKE_ERR_DRIVER):
                raise CakeError(rc, "%s: %s" % (self.name, msg.value.decode(errors="replace")),
                                self.name)
            if rc == 0:
                stream = _stream_handle(stream, device)
            else:
                stream = None if stream is None else _stream_handle(stream, device)
        else:
            stream = None if stream is None else _stream_handle(stream, None)
        rc = self._launch(ctypes.byref(args), stream, ctypes.byref(err))
        del keep
        if rc != 0:
            raise CakeError(rc, err.msg.decode(errors="replace"), self.name)

    def __repr__(self):
        return "<cakec kernel %s(%s)>" % (self.name, ", ".join(self.params()))


class Library(object):
    """The kernels of one generated folder; each is an attribute (a Kernel)."""

    def __init__(self, path, manifest, gen_dir):
        self.path = path
        self.gen_dir = gen_dir
        self.manifest = manifest
        self._dll = ctypes.CDLL(path)
        self.kernels = {}
        for entry in manifest:
            self.kernels[entry["kernel"]] = Kernel(self._dll, entry)

    def __getattr__(self, name):
        kernels = self.__dict__.get("kernels", {})
        if name in kernels:
            return kernels[name]
        raise AttributeError("%s: no kernel '%s' in %s (kernels: %s)" %
                             (type(self).__name__, name, self.__dict__.get("gen_dir"),
                              ", ".join(sorted(kernels))))

    def __dir__(self):
        return sorted(set(object.__dir__(self)) | set(self.kernels))


def load(gen_dir, cache_dir=None, cc=None, cuda_include=None):
    """Builds (or finds cached) and loads the library of the generated folder gen_dir."""
    path = build(gen_dir, cache_dir=cache_dir, cc=cc, cuda_include=cuda_include)
    return Library(path, _read_manifest(os.path.abspath(gen_dir)), os.path.abspath(gen_dir))


def targets(gen_dir):
    """The targets some kernel of the generated folder gen_dir was built for ("sm_90a", ...),
    in the manifest's order: what a device must be for the folder's launchers to run."""
    seen = []
    for k in _read_manifest(gen_dir):
        for t in k.get("targets", []):
            if t not in seen:
                seen.append(t)
    return seen


def _main(argv):
    import argparse
    ap = argparse.ArgumentParser(description="Prebuild cakec_torch libraries.")
    ap.add_argument("command", choices=["build"])
    ap.add_argument("dirs", nargs="+", help="generated folders (cakec -o DIR --emit=host)")
    ap.add_argument("--cc", help="C compiler (default: $CC or cc)")
    ap.add_argument("--cuda-include", help="folder holding cuda.h")
    ap.add_argument("--stamp", help="file to touch when done (for build systems)")
    a = ap.parse_args(argv)
    for d in a.dirs:
        path = build(d, cache_dir=os.path.join(os.path.abspath(d), ".cakec_torch"), cc=a.cc,
                     cuda_include=a.cuda_include)
        print("cakec_torch: %s" % path)
    if a.stamp:
        os.makedirs(os.path.dirname(os.path.abspath(a.stamp)), exist_ok=True)
        with open(a.stamp, "w") as f:
            f.write("built\n")
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
