"""Inputs and the reference of the tcgen05 GEMM tests (tests/interp/tcgen05.test), without
NumPy (CI has none).

    tc_ref.py make DIR M N K SEED [TYPE]   # DIR/a.npy (M x K), DIR/b.npy (N x K): random
                                           # TYPE (bf16, the default; f16; e4m3, e5m2: bytes;
                                           # e4m3s: e4m3 below 4, for an f16 accumulator)
    tc_ref.py init DIR SEED [f16]          # DIR/d.npy (M x N): random f32 (or f16), the
                                           # accumulator's start (tc_init.cake)
    tc_ref.py check DIR [TYPE]             # DIR/c.npy == A * B^T (+ D with d.npy), bit
                                           # for bit
    tc_ref.py check16 DIR [TYPE]           # DIR/c.npy (f16) == A * B^T (f16; e4m3) within
                                           # the bound of an f16 accumulator (check16)
    tc_ref.py relerr DIR BOUND [TYPE]      # the largest |C - A B^T| over the largest
                                           # |A B^T|, in float64; fails above BOUND

The reference sums as the interpreter documents tcgen05.mma: per element of C, the
products (exact in double) added in k order to an f32 accumulator (0, or D's element),
each sum rounded to f32. A different order or a wrong layout (descriptor, swizzle, lane quarter) shows as a
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


def f16(x):
    return struct.unpack("<e", struct.pack("<e", x))[0]    # to nearest even


def decoder(ty):
    """The value of an element as npy.read gives it (bits, or for f16, '<f2', the value)."""
    if ty == "bf16":
        return bf16_value
    if ty == "f16":
        return float
    return lambda h: fp8_value(h, ty.startswith("e4m3"))


def fp8_value(h, e4m3):
    mb, eb, bias = (3, 4, 7) if e4m3 else (2, 5, 15)
    e, m = (h >> mb) & ((1 << eb) - 1), h & ((1 << mb) - 1)
    v = m * 2.0 ** (1 - bias - mb) if e == 0 else (m | 1 << mb) * 2.0 ** (e - bias - mb)
    return -v if h & 0x80 else v


def fp8_random(rng, e4m3):
    while True:     # no NaN or infinity
        h = rng.randrange(256)
        if (h & 0x7F) != 0x7F if e4m3 else (h >> 2 & 31) != 31:
            return h


def make(d, m, n, k, seed, ty="bf16"):
    rng = random.Random(seed)
    for name, rows in (("a", m), ("b", n)):
        if ty == "bf16":
            vals = [bf16_bits(rng.uniform(-2, 2)) for _ in range(rows * k)]
        elif ty == "f16":
            vals = [f16(rng.uniform(-2, 2)) for _ in range(rows * k)]
        elif ty == "e4m3s":     # exponent field <= 8: |x| < 4, sums within f16's range
            vals = [rng.randrange(2) << 7 | rng.randrange(9) << 3 | rng.randrange(8) for _ in range(rows * k)]
        else:
            vals = [fp8_random(rng, ty == "e4m3") for _ in range(rows * k)]
        descr = {"bf16": "<u2", "f16": "<f2"}.get(ty, "|u1")
        npy.write(os.path.join(d, name + ".npy"), descr, [rows, k], vals)


def init(d, seed, ty="f32"):
    (m, _), _ = npy.read(os.path.join(d, "a.npy"))
    (n, _), _ = npy.read(os.path.join(d, "b.npy"))
    rng = random.Random(seed)
    rnd = f16 if ty == "f16" else f32
    npy.write(os.path.join(d, "d.npy"), "<f2" if ty == "f16" else "<f4", [m, n],
              [rnd(rng.uniform(-4, 4)) for _ in range(m * n)])


def check(d, ty="bf16"):
    (m, k), a = npy.read(os.path.join(d, "a.npy"))
    (n, _), b = npy.read(os.path.join(d, "b.npy"))
    _, c = npy.read(os.path.join(d, "c.npy"))
    start = npy.read(os.path.join(d, "d.npy"))[1] if os.path.exists(os.path.join(d, "d.npy")) else None
    dec = decoder(ty)
    a = [dec(h) for h in a]
    b = [dec(h) for h in b]
    for i in range(m):
        for j in range(n):
            acc = start[i * n + j] if start else 0.0
            for kk in range(k):
                acc = f32(acc + a[i * k + kk] * b[j * k + kk])
            if struct.pack("<f", acc) != struct.pack("<f", c[i * n + j]):
                print("tc_ref: mismatch at row %d column %d: %r, expected %r" % (i, j, c[i * n + j], acc))
                return 1
    print("tc_ref: ok, %d x %d elements" % (m, n))
    return 0


def relerr(d, bound, ty="bf16"):
    (m, k), a = npy.read(os.path.join(d, "a.npy"))
    (n, _), b = npy.read(os.path.join(d, "b.npy"))
    _, c = npy.read(os.path.join(d, "c.npy"))
    a = [decoder(ty)(h) for h in a]
    b = [decoder(ty)(h) for h in b]
    err = big = 0.0
    for i in range(m):
        for j in range(n):
            ref = sum(a[i * k + kk] * b[j * k + kk] for kk in range(k))
            err = max(err, abs(c[i * n + j] - ref))
            big = max(big, abs(ref))
    rel = err / big if big else err
    print("tc_ref: max relative error %.3g (%s %g)" % (rel, "<=" if rel <= bound else ">", bound))
    return 0 if rel <= bound else 1


def check16(d, ty="f16"):
    """C from an f16 accumulator (tmem f16: each tcgen05.mma of K = kstep rounds D to f16;
    kstep 16 for f16 operands, 32 for fp8)
    against the exact sum (in double: the products of f16 are exact, their sums here too up
    to 2^-53). Each of the K / kstep roundings to f16 errs by at most 2^-11 of the value it
    rounds (the partial sum, itself within the bound so far) or 2^-25 below f16's normal
    range; the f32 sums inside an mma by at most 2^-24 of the sum of |products| each. So
    |C - exact| <= 2^-11 (1 + 2^-10) sum_s |P_s| + 2^-25 K / kstep + 2^-24 K sum_k |a b|,
    with P_s the exact partial sum after step s (from D's element with d.npy: C = D + A B^T). A C read with the wrong layout or from an
    f32 D (the f16-D bit lost) is far outside it. Prints the largest relative error and the
    largest error as a fraction of the bound."""
    (m, k), a = npy.read(os.path.join(d, "a.npy"))
    (n, _), b = npy.read(os.path.join(d, "b.npy"))
    _, c = npy.read(os.path.join(d, "c.npy"))
    start = npy.read(os.path.join(d, "d.npy"))[1] if os.path.exists(os.path.join(d, "d.npy")) else None
    kstep = 16 if ty == "f16" else 32
    if ty != "f16":
        a = [fp8_value(h, ty.startswith("e4m3")) for h in a]
        b = [fp8_value(h, ty.startswith("e4m3")) for h in b]
    worst_rel, worst_frac = 0.0, 0.0
    for i in range(m):
        for j in range(n):
            p, parts, mags = (start[i * n + j] if start else 0.0), 0.0, 0.0
            for kk in range(k):
                t = a[i * k + kk] * b[j * k + kk]
                p += t
                mags += abs(t)
                if (kk + 1) % kstep == 0 or kk == k - 1:
                    parts += abs(p)
            steps = (k + kstep - 1) // kstep
            bound = 2.0 ** -11 * (1 + 2.0 ** -10) * parts + 2.0 ** -25 * steps + 2.0 ** -24 * k * mags
            err = abs(c[i * n + j] - p)
            if not err <= bound:
                print("tc_ref: mismatch at row %d column %d: %r, expected %r within %.3g" % (i, j, c[i * n + j], p, bound))
                return 1
            worst_frac = max(worst_frac, err / bound)
            if abs(p) >= 0.25:
                worst_rel = max(worst_rel, err / abs(p))
    print("tc_ref: ok, %d x %d elements (f16 accumulator: max relative error %.2g where |C| >= 0.25, "
          "max error %.2f of the bound)" % (m, n, worst_rel, worst_frac))
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], *[int(x) for x in sys.argv[3:7]], *sys.argv[7:8])
    elif sys.argv[1] == "init":
        init(sys.argv[2], int(sys.argv[3]), *sys.argv[4:5])
    elif sys.argv[1] == "relerr":
        sys.exit(relerr(sys.argv[2], float(sys.argv[3]), *sys.argv[4:5]))
    elif sys.argv[1] == "check16":
        sys.exit(check16(*sys.argv[2:4]))
    else:
        sys.exit(check(*sys.argv[2:4]))
