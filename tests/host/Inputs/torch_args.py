"""Drives cakec_torch's argument marshalling without torch or a GPU: stand-in tensors
(shape, stride(), dtype, data_ptr(), device) go through Kernel.grid, whose C side runs the
launcher's argument checks, so what it answers shows the shapes, strides, element types
and devices the launcher received. Usage: torch_args.py GEN_DIR CUDA_INCLUDE"""
import sys

import cakec_torch


class Device(object):
    def __init__(self, kind="cuda", index=0):
        self.type, self.index = kind, index


class Tensor(object):
    def __init__(self, shape, dtype="torch.float32", strides=None, ptr=1 << 20, device=None):
        self.shape, self.dtype, self._ptr = tuple(shape), dtype, ptr
        self.device = device or Device()
        if strides is None:
            strides, step = [], 1
            for d in reversed(shape):
                strides.insert(0, step)
                step *= max(d, 1)
        self._strides = tuple(strides)

    def stride(self):
        return self._strides

    def data_ptr(self):
        return self._ptr


def attempt(what, kernel, **kw):
    try:
        print("%s: grid %s" % (what, kernel.grid(**kw)))
    except (cakec_torch.CakeError, TypeError) as e:
        print("%s: %s: %s" % (what, type(e).__name__, e))


def main():
    lib = cakec_torch.load(sys.argv[1], cuda_include=sys.argv[2])
    k = lib.pick

    def args(**over):
        kw = dict(x=Tensor((3, 5)), y=Tensor((5, 2), "torch.bfloat16", ptr=1 << 21), s=1.5, n=6)
        kw.update(over)
        return kw
    attempt("ok", k, **args())
    attempt("ok again", k, **args())
    attempt("requires", k, **args(n=7))
    attempt("shape", k, **args(y=Tensor((4, 2), "torch.bfloat16", ptr=1 << 21)))
    attempt("dtype", k, **args(x=Tensor((3, 5), "torch.float16")))
    attempt("strides", k, **args(x=Tensor((3, 5), strides=(1, 3))))
    attempt("host tensor", k, **args(x=Tensor((3, 5), device=Device("cpu", None))))
    attempt("overlap", k, **args(y=Tensor((5, 2), "torch.bfloat16", ptr=(1 << 20) + 8)))
    attempt("null data", k, **args(x=Tensor((3, 5), ptr=0)))
    attempt("not a tensor", k, **args(x=5))
    attempt("missing", k, x=Tensor((3, 5)), s=1.0, n=6)
    attempt("unknown", k, **args(z=1))


main()
