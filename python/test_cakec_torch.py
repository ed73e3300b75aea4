"""Tests of cakec_torch (python/cakec_torch.py).

    python3 python/test_cakec_torch.py --gen build/gen/elementwise [--gen ...]
        [--cc CC] [--cuda-include DIR]

Everywhere (no torch or GPU needed): builds each folder's library into a fresh cache folder
(and finds it cached the second time), checks the C layout of every args struct against
the manifest (done by load), computes grids and checks that validation errors and a
launch without a driver raise CakeError with the launcher's message; stand-in tensors
(duck-typed like torch's) carry made-up device addresses, never dereferenced.

With torch and a CUDA device: also launches every known kernel on random CUDA tensors on
torch's current stream and compares with torch (docs/testing.md has the thresholds).
"""

import argparse
import ctypes
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean
if not os.environ.get("CAKEC_TEST_INSTALLED"):  # else test the pip-installed module
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cakec_torch  # noqa: E402

failures = []


def check(cond, what):
    print("%s %s" % ("PASS" if cond else "FAIL", what))
    if not cond:
        failures.append(what)


class FakeDType(object):
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return "torch." + self.name


class FakeDevice(object):
    def __init__(self, type_, index):
        self.type = type_
        self.index = index


class FakeTensor(object):
    """Duck-typed like a contiguous torch tensor, at a made-up device address."""

    def __init__(self, addr, shape, dtype, device=("cuda", 0), stride=None):
        self.shape = tuple(shape)
        self.dtype = FakeDType(dtype)
        self.device = FakeDevice(*device)
        self._addr = addr
        st, acc = [], 1
        for s in reversed(self.shape):
            st.append(acc)
            acc *= s
        self._stride = tuple(reversed(st)) if stride is None else tuple(stride)

    def data_ptr(self):
        return self._addr

    def stride(self):
        return self._stride


def expect_error(fn, status_name, text, what):
    try:
        fn()
    except cakec_torch.CakeError as e:
        ok = e.status_name == status_name and text in e.message
        check(ok, "%s: %s: %s" % (what, e.status_name, e.message))
        return
    except TypeError as e:
        check(status_name == "TypeError" and text in str(e), "%s: TypeError: %s" % (what, e))
        return
    check(False, "%s: expected %s, no error raised" % (what, status_name))


def driver_present():
    try:
        ctypes.CDLL("libcuda.so.1")
        return True
    except OSError:
        return False


def test_without_gpu(lib, has_driver):
    base = 0x7F0000000000
    if "axpby" in lib.kernels:
        n = 1000003
        x = FakeTensor(base, [n], "float32")
        y = FakeTensor(base + 0x10000000, [n], "float32")
        check(lib.axpby.grid(x=x, y=y, a=2.0, b=0.5) == ((n + 1023) // 1024, 1, 1),
              "axpby.grid n=%d" % n)
        expect_error(lambda: lib.axpby.grid(x=x, y=FakeTensor(base + 0x10000000, [n], "bfloat16"),
                                            a=1.0, b=1.0),
                     "CAKE_ERR_DTYPE", "axpby: parameter 'y': expected dtype f32", "axpby dtype")
        expect_error(lambda: lib.axpby(x=x, y=FakeTensor(base + 0x10000000, [n - 1], "float32"),
                                       a=1.0, b=1.0),
                     "CAKE_ERR_SHAPE", "parameter 'y': expected shape[0] = n = %d" % n,
                     "axpby shape")
        expect_error(lambda: lib.axpby(x=x, y=FakeTensor(base + 4, [n], "float32"), a=1.0, b=1.0),
                     "CAKE_ERR_ALIGN", "aligned to 16 bytes", "axpby alignment")
        expect_error(lambda: lib.axpby(x=x, y=x, a=1.0, b=1.0),
                     "CAKE_ERR_OVERLAP", "overlaps parameter 'x'", "axpby overlap")
        expect_error(lambda: lib.axpby(x=FakeTensor(base, [n], "float32", ("cpu", None)), y=y,
                                       a=1.0, b=1.0),
                     "CAKE_ERR_DEVICE", "expected a CUDA tensor", "axpby cpu tensor")
        expect_error(lambda: lib.axpby(x=FakeTensor(0, [n], "float32"), y=y, a=1.0, b=1.0),
                     "CAKE_ERR_NULL", "parameter 'x': data is NULL", "axpby NULL data")
        expect_error(lambda: lib.axpby(x=FakeTensor(base, [n], "float32", stride=[2]), y=y,
                                       a=1.0, b=1.0),
                     "CAKE_ERR_STRIDE", "parameter 'x': expected row-major contiguous strides [1]",
                     "axpby strided")
        expect_error(lambda: lib.axpby(x=5, y=y, a=1.0, b=1.0), "TypeError",
                     "parameter 'x': expected a tensor, found int", "axpby not a tensor")
        expect_error(lambda: lib.axpby(x=x, y=y, a=1.0), "TypeError", "missing parameter(s) b",
                     "axpby missing scalar")
        expect_error(lambda: lib.axpby(x=x, y=y, a=1.0, b=1.0, c=3), "TypeError",
                     "unknown parameter(s) c", "axpby unknown parameter")
        expect_error(lambda: lib.axpby.choose(x=x, y=y, a=1.0, b=1.0), "TypeError",
                     "a kernel, not an entry point", "axpby.choose")
        if not has_driver:
            expect_error(lambda: lib.axpby(x=x, y=y, a=2.0, b=0.5),
                         "CAKE_ERR_NO_DRIVER", "axpby: no CUDA driver (libcuda.so.1 not found)",
                         "axpby launch without a driver")
    if "silu_mul" in lib.kernels:
        n = 4099
        g = FakeTensor(base, [n], "bfloat16")
        u = FakeTensor(base + 0x100000, [n], "bfloat16")
        o = FakeTensor(base + 0x200000, [n], "bfloat16")
        check(lib.silu_mul.grid(gate=g, up=u, out=o) == (5, 1, 1), "silu_mul.grid n=%d" % n)
        expect_error(lambda: lib.silu_mul.grid(gate=g, up=u, out=FakeTensor(base + 0x200000, [n], "float16")),
                     "CAKE_ERR_DTYPE", "parameter 'out': expected dtype bf16", "silu_mul dtype")
        if not has_driver:
            expect_error(lambda: lib.silu_mul(gate=g, up=u, out=o),
                         "CAKE_ERR_NO_DRIVER", "no CUDA driver", "silu_mul launch without a driver")
    if "rmsnorm" in lib.kernels:
        x = FakeTensor(base, [7, 1027], "bfloat16")
        w = FakeTensor(base + 0x100000, [1027], "bfloat16")
        y = FakeTensor(base + 0x200000, [7, 1027], "bfloat16")
        check(lib.rmsnorm.grid(x=x, w=w, y=y, eps=1e-5) == (7, 1, 1), "rmsnorm.grid")
        expect_error(lambda: lib.rmsnorm.grid(x=x, w=FakeTensor(base + 0x100000, [1026], "bfloat16"),
                                              y=y, eps=1e-5),
                     "CAKE_ERR_SHAPE", "parameter 'w'", "rmsnorm shape")
    if "softmax" in lib.kernels:
        x = FakeTensor(base, [9, 100], "float32")
        y = FakeTensor(base + 0x100000, [9, 100], "float32")
        check(lib.softmax.grid(x=x, y=y) == (9, 1, 1), "softmax.grid")
    if "rmsnorm_rows" in lib.kernels:
        x = FakeTensor(base, [17, 100], "bfloat16")
        w = FakeTensor(base + 0x100000, [100], "bfloat16")
        y = FakeTensor(base + 0x200000, [17, 100], "bfloat16")
        check(lib.rmsnorm_rows.grid(x=x, w=w, y=y, eps=1e-5) == (3, 1, 1), "rmsnorm_rows.grid")
    if "softmax_rows" in lib.kernels:
        x = FakeTensor(base, [16, 100], "float32")
        y = FakeTensor(base + 0x100000, [16, 100], "float32")
        check(lib.softmax_rows.grid(x=x, y=y) == (2, 1, 1), "softmax_rows.grid")
    if "sgemm_tiled" in lib.kernels:
        a = FakeTensor(base, [130, 33], "float32")
        b = FakeTensor(base + 0x100000, [33, 65], "float32")
        c = FakeTensor(base + 0x200000, [130, 65], "float32")
        check(lib.sgemm_tiled.grid(A=a, B=b, C=c) == (2, 3, 1), "sgemm_tiled.grid")
        expect_error(lambda: lib.sgemm_tiled.grid(A=FakeTensor(base, [130, 33], "float32", stride=[1, 130]),
                                                  B=b, C=c),
                     "CAKE_ERR_STRIDE", "expected row-major contiguous strides [33, 1] (elements), found [1, 130]",
                     "sgemm_tiled column-major A")
    if "from8" in lib.kernels:   # tests/gpu/checks/fp8.cake: fp8 tensors and their dtypes
        n = 256
        t = [FakeTensor(base + i * 0x10000, [n], d) for i, d in enumerate(
            ["float8_e4m3fn", "float8_e5m2", "float32", "float32", "float16", "float16",
             "bfloat16", "bfloat16"])]
        names = ["a", "b", "fa", "fb", "ha", "hb", "wa", "wb"]
        check(lib.from8.grid(**dict(zip(names, t))) == (1, 1, 1), "from8.grid")
        t[1] = FakeTensor(base + 0x10000, [n], "float8_e4m3fn")
        expect_error(lambda: lib.from8.grid(**dict(zip(names, t))), "CAKE_ERR_DTYPE",
                     "parameter 'b': expected dtype e5m2 (code 12, bits 8, lanes 1), found e4m3 (code 10",
                     "from8 fp8 dtype")
    if "small" in lib.kernels:   # u8/u16 tensors, a u8 scalar
        n = 64
        d = ["float32", "int32", "uint8", "uint16", "uint8", "uint16", "float32", "float32",
             "uint8", "uint16"]
        names = ["x", "k", "xu", "xv", "ku", "kv", "fu", "fv", "ar", "av"]
        args = dict(zip(names, [FakeTensor(base + i * 0x10000, [n], t) for i, t in enumerate(d)]))
        check(lib.small.grid(s=7, **args) == (1, 1, 1), "small.grid")
        expect_error(lambda: lib.small.grid(s=256, **args), "CAKE_ERR_RANGE",
                     "parameter 's': expected a value in u8 range [0, 255], found 256", "small u8 range")


    if "vsa" in lib.kernels:     # an entry point's choice, by name, without a driver
        def vsa_args(s, blk, dtype="bfloat16", d=128):
            nq = (s + blk - 1) // blk
            t = [FakeTensor(base + i * 0x1000000, [1, 2, s, d], dtype) for i in range(3)]
            return dict(q=t[0], k=t[1], v=t[2], kv_num=FakeTensor(base + 0x4000000, [1, 2, nq], "int32"),
                        kv_idx=FakeTensor(base + 0x5000000, [1, 2, nq, 3], "int32"),
                        o=FakeTensor(base + 0x6000000, [1, 2, s, d], dtype),
                        lse=FakeTensor(base + 0x7000000, [1, 2, s], "float32"),
                        work=FakeTensor(base + 0x8000000, [2], "int32"), scale=0.125, causal=0)
        for s, blk, dtype, d, want in ((200, 64, "bfloat16", 128, "vsa_bf16_d128_b64_short"),
                                       (200, 128, "bfloat16", 128, "vsa_bf16_d128_b128"),
                                       (300, 64, "float16", 64, "vsa_f16_d64_b64")):
            got = lib.vsa.choose(**vsa_args(s, blk, dtype, d))
            check(got == want, "vsa.choose S=%d BLK=%d %s D=%d: %s (expected %s)" % (s, blk, dtype, d, got, want))
        expect_error(lambda: lib.vsa.choose(**vsa_args(200, 64, "float32")), "CAKE_ERR_DTYPE",
                     "no instance takes these element types", "vsa.choose f32")
    if "all_gather_matmul_w2" in lib.kernels:     # per_rank tables: a list per table
        k = lib.all_gather_matmul_w2
        m, n, kk = 80, 200, 128
        a = [FakeTensor(base + r * 0x100000, [m, kk], "bfloat16") for r in range(2)]
        fl = [FakeTensor(base + 0x400000 + r * 0x1000, [2], "uint32") for r in range(2)]
        rest = dict(b=FakeTensor(base + 0x800000, [n, kk], "bfloat16"),
                    c=FakeTensor(base + 0xC00000, [2, m, n], "bfloat16"),
                    epoch=FakeTensor(base + 0xF00000, [2], "uint32"),
                    status=FakeTensor(base + 0xF01000, [1], "int32"),
                    rank=1, timeout_ns=10 ** 9, max_ctas=64)
        check(k.params() == ["a", "b", "c", "flags", "epoch", "status", "rank", "timeout_ns",
                             "max_ctas"], "all_gather_matmul_w2.params(): %s" % k.params())
        # past the checks of every table tensor the grid asks the driver for num_sms: no
        # driver, or no current context (this test makes none), or the grid
        try:
            check(k.grid(a=a, flags=fl, **rest)[0] >= 1, "all_gather_matmul_w2.grid with tables")
        except cakec_torch.CakeError as e:
            check(e.status_name in ("CAKE_ERR_NO_DRIVER", "CAKE_ERR_CONTEXT") and
                  "the grid uses num_sms" in e.message,
                  "all_gather_matmul_w2.grid with tables: %s: %s" % (e.status_name, e.message))
        bad = [a[0], FakeTensor(base + 0x100000, [m + 1, kk], "bfloat16")]
        expect_error(lambda: k.grid(a=bad, flags=fl, **rest), "CAKE_ERR_SHAPE", "parameter 'a[1]'",
                     "all_gather_matmul_w2 table tensor shape")
        expect_error(lambda: k.grid(a=a[:1], flags=fl, **rest), "TypeError",
                     "'a' is a per_rank table: expected a list of 2 tensors (one per rank), "
                     "found a list of 1", "all_gather_matmul_w2 short table")
        expect_error(lambda: k.grid(a=a[0], flags=fl, **rest), "TypeError",
                     "expected a list of 2 tensors (one per rank), found FakeTensor",
                     "all_gather_matmul_w2 table given a tensor")
        expect_error(lambda: k.grid(a_0=a[0], a_1=a[1], flags=fl, **rest), "TypeError",
                     "unknown parameter(s) a_0, a_1", "all_gather_matmul_w2 tensor names")


def test_conversions():
    check(cakec_torch._bits_bf16(1.0) == 0x3F80, "bf16 bits of 1.0")
    check(cakec_torch._bits_bf16(-2.5) == 0xC020, "bf16 bits of -2.5")
    # 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: ties to even gives 1
    check(cakec_torch._bits_bf16(1.0 + 2.0 ** -8) == 0x3F80, "bf16 rounds halfway to even")
    check(cakec_torch._bits_f16(1.0) == 0x3C00, "f16 bits of 1.0")


def _rand(n, lo, hi, seed):
    import random
    r = random.Random(seed)
    return [r.uniform(lo, hi) for _ in range(n)]


def _bf16_value(bits):
    return ctypes.c_float.from_buffer_copy(ctypes.c_uint32(bits << 16)).value


def _max_rel(got, ref, floor):
    return max(abs(g - r) / max(abs(r), floor) for g, r in zip(got, ref))


def test_emulated(libs):
    """Against tests/gpu/emu_libcuda.c (found through LD_LIBRARY_PATH): its device memory
    is host memory, so real data goes through the Python wrapper, the launcher and the
    emulated kernels and comes back to be checked."""
    import math
    import threading
    cu = ctypes.CDLL("libcuda.so.1")
    cu.cuMemAlloc_v2.argtypes = [ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t]
    cu.cuDevicePrimaryCtxRetain.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int]
    cu.cuCtxSetCurrent.argtypes = [ctypes.c_void_p]
    cu.cuStreamCreate.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_uint]
    ctx = ctypes.c_void_p()
    check(cu.cuInit(0) == 0 and cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), 0) == 0 and
          cu.cuCtxSetCurrent(ctx) == 0, "emulated driver: primary context current")

    def alloc(values, ctype):
        n = max(len(values), 1)
        p = ctypes.c_uint64()
        assert cu.cuMemAlloc_v2(ctypes.byref(p), ctypes.sizeof(ctype) * n) == 0
        ctypes.memmove(p.value, (ctype * n)(*values), ctypes.sizeof(ctype) * n)
        return p.value

    def read(addr, n, ctype):
        # the emulated streams run their work when waited for, as a GPU's do
        assert cu.cuCtxSynchronize() == 0
        return list((ctype * n).from_address(addr))

    for lib in libs:
        k = lib.kernels
        if "axpby" in k:
            n = 1003
            xs, ys = _rand(n, -1, 1, 1), _rand(n, -1, 1, 2)
            px, py = alloc(xs, ctypes.c_float), alloc(ys, ctypes.c_float)
            xs, ys = read(px, n, ctypes.c_float), read(py, n, ctypes.c_float)   # as f32
            stream = ctypes.c_void_p()
            cu.cuStreamCreate(ctypes.byref(stream), 0)
            lib.axpby(x=FakeTensor(px, [n], "float32"), y=FakeTensor(py, [n], "float32"),
                      a=1.5, b=-0.5, stream=stream.value)
            err = _max_rel(read(py, n, ctypes.c_float),
                           [1.5 * x - 0.5 * y for x, y in zip(xs, ys)], 1.0)
            check(err <= 1e-6, "emulated axpby n=%d on a given stream: max_rel_err %.3g" % (n, err))
            # a thread with no current context: the shim makes the primary one current
            result = []
            t = threading.Thread(target=lambda: result.append(
                lib.axpby(x=FakeTensor(px, [n], "float32"), y=FakeTensor(py, [n], "float32"),
                          a=0.0, b=2.0)))
            t.start()
            t.join()
            err = _max_rel(read(py, n, ctypes.c_float),
                           [2.0 * (1.5 * x - 0.5 * y) for x, y in zip(xs, ys)], 1.0)
            check(result == [None] and err <= 1e-6,
                  "emulated axpby from a thread without a context: max_rel_err %.3g" % err)
        if "silu_mul" in k:
            n = 517
            g = [cakec_torch._bits_bf16(v) for v in _rand(n, -6, 6, 3)]
            u = [cakec_torch._bits_bf16(v) for v in _rand(n, -2, 2, 4)]
            pg, pu, po = (alloc(g, ctypes.c_uint16), alloc(u, ctypes.c_uint16),
                          alloc([0xFFFF] * n, ctypes.c_uint16))
            lib.silu_mul(gate=FakeTensor(pg, [n], "bfloat16"), up=FakeTensor(pu, [n], "bfloat16"),
                         out=FakeTensor(po, [n], "bfloat16"))
            ref = []
            for gb, ub in zip(g, u):
                gv, uv = _bf16_value(gb), _bf16_value(ub)
                ref.append(gv / (1 + math.exp(-gv)) * uv)
            err = _max_rel([_bf16_value(b) for b in read(po, n, ctypes.c_uint16)], ref, 1e-6)
            check(err <= 1e-2, "emulated silu_mul n=%d: max_rel_err %.3g" % (n, err))
        for name in ("rmsnorm", "rmsnorm_rows"):
            if name not in k:
                continue
            m, n = 11, 101
            x = [cakec_torch._bits_bf16(v) for v in _rand(m * n, -2, 2, 5)]
            w = [cakec_torch._bits_bf16(v) for v in _rand(n, 0.5, 1.5, 6)]
            px, pw, py = (alloc(x, ctypes.c_uint16), alloc(w, ctypes.c_uint16),
                          alloc([0xFFFF] * (m * n), ctypes.c_uint16))
            k[name](x=FakeTensor(px, [m, n], "bfloat16"), w=FakeTensor(pw, [n], "bfloat16"),
                    y=FakeTensor(py, [m, n], "bfloat16"), eps=1e-5)
            xv, wv = [_bf16_value(b) for b in x], [_bf16_value(b) for b in w]
            ref = []
            for i in range(m):
                row = xv[i * n:(i + 1) * n]
                inv = 1 / math.sqrt(sum(v * v for v in row) / n + 1e-5)
                ref += [v * inv * wj for v, wj in zip(row, wv)]
            err = _max_rel([_bf16_value(b) for b in read(py, m * n, ctypes.c_uint16)], ref, 1e-6)
            check(err <= 1e-2, "emulated %s M=%d N=%d: max_rel_err %.3g" % (name, m, n, err))
        for name in ("softmax", "softmax_rows"):
            if name not in k:
                continue
            m, n = 9, 33
            x = _rand(m * n, -8, 8, 7)
            px, py = alloc(x, ctypes.c_float), alloc([0.0] * (m * n), ctypes.c_float)
            k[name](x=FakeTensor(px, [m, n], "float32"), y=FakeTensor(py, [m, n], "float32"))
            xf = read(px, m * n, ctypes.c_float)
            ref = []
            for i in range(m):
                row = xf[i * n:(i + 1) * n]
                e = [math.exp(v - max(row)) for v in row]
                ref += [v / sum(e) for v in e]
            err = _max_rel(read(py, m * n, ctypes.c_float), ref, 1e-15)
            check(err <= 2e-5, "emulated %s M=%d N=%d: max_rel_err %.3g" % (name, m, n, err))
        if "sgemm_tiled" in k:
            m, n, kk = 5, 7, 9
            a, b = _rand(m * kk, -1, 1, 8), _rand(kk * n, -1, 1, 9)
            pa, pb, pc = (alloc(a, ctypes.c_float), alloc(b, ctypes.c_float),
                          alloc([0.0] * (m * n), ctypes.c_float))
            lib.sgemm_tiled(A=FakeTensor(pa, [m, kk], "float32"), B=FakeTensor(pb, [kk, n], "float32"),
                            C=FakeTensor(pc, [m, n], "float32"))
            af, bf = read(pa, m * kk, ctypes.c_float), read(pb, kk * n, ctypes.c_float)
            ref = [sum(af[i * kk + p] * bf[p * n + j] for p in range(kk))
                   for i in range(m) for j in range(n)]
            err = _max_rel(read(pc, m * n, ctypes.c_float), ref, kk ** 0.5)
            check(err <= 1e-6 * kk ** 0.5, "emulated sgemm_tiled M=%d N=%d K=%d: max_rel_err %.3g"
                  % (m, n, kk, err))


def test_with_torch(libs):
    import torch
    torch.manual_seed(1234)
    dev = torch.device("cuda", 0)
    s = torch.cuda.Stream(dev)
    for lib in libs:
        k = lib.kernels
        if "axpby" in k:
            for n in (1, 5, 1023, 1000003):
                x = torch.rand(n, device=dev) * 2 - 1
                y = torch.rand(n, device=dev) * 2 - 1
                ref = 1.25 * x.double() - 0.75 * y.double()
                s.wait_stream(torch.cuda.current_stream())     # x and y are written there
                with torch.cuda.stream(s):
                    lib.axpby(x=x, y=y, a=1.25, b=-0.75)
                s.synchronize()
                err = ((y.double() - ref).abs() / ref.abs().clamp(min=1.0)).max().item()
                check(err <= 1e-6, "torch axpby n=%d: max_rel_err %.3g <= 1e-06" % (n, err))
        if "silu_mul" in k:
            for n in (1, 7, 4099, 1 << 20):
                g = (torch.rand(n, device=dev) * 12 - 6).bfloat16()
                u = (torch.rand(n, device=dev) * 4 - 2).bfloat16()
                o = torch.full((n,), float("nan"), device=dev, dtype=torch.bfloat16)
                lib.silu_mul(gate=g, up=u, out=o)
                torch.cuda.synchronize()
                ref = torch.nn.functional.silu(g.double()) * u.double()
                err = ((o.double() - ref).abs() / ref.abs().clamp(min=1e-6)).max().item()
                check(err <= 1e-2, "torch silu_mul n=%d: max_rel_err %.3g <= 0.01" % (n, err))
        for name in ("rmsnorm", "rmsnorm_rows"):
            if name not in k:
                continue
            for m, n in ((1, 1), (7, 1027), (64, 4096), (1000, 1024)):
                x = (torch.rand(m, n, device=dev) * 4 - 2).bfloat16()
                w = (torch.rand(n, device=dev) + 0.5).bfloat16()
                y = torch.full((m, n), float("nan"), device=dev, dtype=torch.bfloat16)
                k[name](x=x, w=w, y=y, eps=1e-5)
                torch.cuda.synchronize()
                xd = x.double()
                ref = xd * torch.rsqrt(xd.pow(2).mean(-1, keepdim=True) + 1e-5) * w.double()
                err = ((y.double() - ref).abs() / ref.abs().clamp(min=1e-6)).max().item()
                check(err <= 1e-2, "torch %s M=%d N=%d: max_rel_err %.3g <= 0.01" % (name, m, n, err))
        for name in ("softmax", "softmax_rows"):
            if name not in k:
                continue
            for m, n in ((1, 1), (5, 1000), (16, 2049), (1000, 1024)):
                x = torch.rand(m, n, device=dev) * 16 - 8
                y = torch.full((m, n), float("nan"), device=dev)
                k[name](x=x, y=y)
                torch.cuda.synchronize()
                ref = torch.softmax(x.double(), -1)
                err = ((y.double() - ref).abs() / ref.abs().clamp(min=1e-15)).max().item()
                check(err <= 2e-5, "torch %s M=%d N=%d: max_rel_err %.3g <= 2e-05" % (name, m, n, err))
        if "sgemm_tiled" in k:
            for m, n, kk in ((1, 1, 1), (65, 67, 33), (256, 300, 512)):
                a = torch.rand(m, kk, device=dev) * 2 - 1
                b = torch.rand(kk, n, device=dev) * 2 - 1
                c = torch.full((m, n), float("nan"), device=dev)
                lib.sgemm_tiled(A=a, B=b, C=c)
                torch.cuda.synchronize()
                ref = a.double() @ b.double()
                sk = kk ** 0.5
                err = ((c.double() - ref).abs() / ref.abs().clamp(min=sk)).max().item()
                check(err <= 1e-6 * sk, "torch sgemm_tiled M=%d N=%d K=%d: max_rel_err %.3g <= %.3g"
                      % (m, n, kk, err, 1e-6 * sk))
        if "all_gather_matmul_w2" in k:
            test_all_gather_matmul_torch(lib.all_gather_matmul_w2, dev)
        # a strided (non-contiguous) view is refused with the launcher's message
        if "softmax" in k:
            x = torch.rand(8, 16, device=dev)
            y = torch.empty(16, 8, device=dev).t()
            expect_error(lambda: lib.softmax(x=x, y=y), "CAKE_ERR_STRIDE",
                         "expected row-major contiguous strides", "torch softmax strided output")


def test_all_gather_matmul_torch(kern, dev):
    """Two ranks simulated on one device, each on its own stream and SMs, taking their tables
    as lists of torch tensors: three calls in a row (epoch flags, no reset), ragged M, N, K."""
    import torch
    w, m, n, kk = 2, 300, 1000, 520
    sms = torch.cuda.get_device_properties(dev).multi_processor_count
    a = [(torch.rand(m, kk, device=dev) * 2 - 1).bfloat16() for _ in range(w)]
    b = (torch.rand(n, kk, device=dev) * 2 - 1).bfloat16()
    pads = [torch.zeros(w, device=dev, dtype=torch.int32).view(torch.uint32) for _ in range(w)]
    epochs = [torch.zeros(2, device=dev, dtype=torch.int32) for _ in range(w)]
    status = [torch.full((1,), 7, device=dev, dtype=torch.int32) for _ in range(w)]
    streams = [torch.cuda.Stream(dev) for _ in range(w)]
    ref = torch.cat(a).double() @ b.double().t()
    floor = kk ** 0.5 / 4
    for call in (1, 2, 3):
        cs = [torch.full((w, m, n), float("nan"), device=dev, dtype=torch.bfloat16) for _ in range(w)]
        for r in range(w):
            status[r].zero_()
        torch.cuda.synchronize()
        for r in range(w):
            kern(a=a, b=b, c=cs[r], flags=pads, epoch=epochs[r].view(torch.uint32), status=status[r],
                 rank=r, timeout_ns=2 * 10 ** 9, max_ctas=max(sms // w, 1), stream=streams[r])
        torch.cuda.synchronize()
        for r in range(w):
            err = ((cs[r].reshape(w * m, n).double() - ref).abs() / ref.abs().clamp(min=floor)).max().item()
            st, ep = int(status[r].item()), epochs[r].tolist()
            check(err <= 1e-2 and st == 0 and ep == [call, 0],
                  "torch all_gather_matmul_w2 rank %d call %d M=%d N=%d K=%d: max_rel_err %.3g <= 0.01, "
                  "status %d, epoch %s" % (r, call, m, n, kk, err, st, ep))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", action="append", required=True)
    ap.add_argument("--cc")
    ap.add_argument("--cuda-include")
    ap.add_argument("--prebuilt", action="store_true",
                    help="load the library cakec_torch finds or builds by default (e.g. the one "
                         "prebuilt in the folder) instead of building a fresh one")
    ap.add_argument("--emulated", action="store_true",
                    help="libcuda.so.1 is tests/gpu/emu_libcuda.c: run real data through it")
    a = ap.parse_args()

    has_driver = driver_present()
    if a.emulated and not has_driver:
        check(False, "--emulated: libcuda.so.1 not found (set LD_LIBRARY_PATH)")
    test_conversions()
    libs = []
    with tempfile.TemporaryDirectory(prefix="cakec_torch-test-") as cache:
        for gen in a.gen:
            if a.prebuilt:
                lib = cakec_torch.load(gen, cc=a.cc, cuda_include=a.cuda_include)
                check(True, "%s: loaded %s" % (gen, lib.path))
            else:
                path = cakec_torch.build(gen, cache_dir=cache, cc=a.cc, cuda_include=a.cuda_include)
                mtime = os.stat(path).st_mtime_ns
                again = cakec_torch.build(gen, cache_dir=cache, cc=a.cc, cuda_include=a.cuda_include)
                check(again == path and os.stat(path).st_mtime_ns == mtime,
                      "%s: built once, then found in the cache (%s)" % (gen, os.path.basename(path)))
                lib = cakec_torch.load(gen, cache_dir=cache)
            check(sorted(lib.kernels) == sorted(e["kernel"] for e in lib.manifest),
                  "%s: kernels %s, args layouts match the manifest" % (gen, ", ".join(sorted(lib.kernels))))
            try:
                lib.no_such_kernel
                check(False, "unknown kernel raises AttributeError")
            except AttributeError:
                check(True, "unknown kernel raises AttributeError")
            test_without_gpu(lib, has_driver)
            libs.append(lib)

        if a.emulated:
            test_emulated(libs)
        gpu = False
        try:
            import torch
            gpu = torch.cuda.is_available()
        except ImportError:
            pass
        if gpu:
            test_with_torch(libs)
        else:
            print("note: no torch with CUDA here: the launches on real tensors were not run")
    print("cakec_torch: %d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
