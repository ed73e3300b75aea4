"""Inputs and the reference of the tcgen05 GEMM tests (tests/interp/tcgen05.test), without
NumPy (CI has none).

    tc_ref.py make DIR M N K SEED   # DIR/a.npy (M x K), DIR/b.npy (N x K): random bf16
    tc_ref.py check DIR             # DIR/c.npy == A * B^T, bit for bit

The reference sums as the interpreter documents tcgen05.mma: per element of C, the
products (exact in double) added in k order to an f32 accumulator, each sum rounded to
f32. A different order or a wrong layout (descriptor, swizzle, lane quarter) shows as a
mismatch, reported with its row and column.
"""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npy  # noqa: E402


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def bf16_bits(x):
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    return (u + 0x7FFF + ((u >> 16) & 1)) >> 16     # to nearest even


def bf16_value(h):
    return struct.unpack("<f", struct.pack("<I", h << 16))[0]


def make(d, m, n, k, seed):
    rng = random.Random(seed)
    for name, rows in (("a", m), ("b", n)):
        vals = [bf16_bits(rng.uniform(-2, 2)) for _ in range(rows * k)]
        npy.write(os.path.join(d, name + ".npy"), "<u2", [rows, k], vals)


def check(d):
    (m, k), a = npy.read(os.path.join(d, "a.npy"))
    (n, _), b = npy.read(os.path.join(d, "b.npy"))
    _, c = npy.read(os.path.join(d, "c.npy"))
    a = [bf16_value(h) for h in a]
    b = [bf16_value(h) for h in b]
    for i in range(m):
        for j in range(n):
            acc = 0.0
            for kk in range(k):
                acc = f32(acc + a[i * k + kk] * b[j * k + kk])
            if struct.pack("<f", acc) != struct.pack("<f", c[i * n + j]):
                print("tc_ref: mismatch at row %d column %d: %r, expected %r" % (i, j, c[i * n + j], acc))
                return 1
    print("tc_ref: ok, %d x %d elements" % (m, n))
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], *[int(x) for x in sys.argv[3:7]])
    else:
        sys.exit(check(sys.argv[2]))
