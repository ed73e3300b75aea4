"""The reference of tests/interp/math.test: checks cakec-run's results of the kernels of
tests/gpu/checks/math.cake (math_f32, math_f64, math_vec) on the inputs of INPUTS.

    math_ref.py inputs DIR         # writes DIR/x.npy, y.npy (f32) and d.npy, e.npy (f64)
    math_ref.py check DIR MATH_CPU # checks DIR/o.npy, o64.npy, ov.npy; prints PASS/FAIL lines

The accurate functions (exp .. erf) must be the bits of the backend's own expansion, which
MATH_CPU (tests/math/math_cpu, MATH_CPU_AT=x) evaluates through LLVM's JIT; pow within its
1 ulp bound of Python's (double) pow; the approximate forms within 2 ulp (4 for log_approx,
2^-21 absolute near 1) of the double functions; floor .. isinf bit for bit against Python;
the vector forms bit for bit against the scalar ones.
"""
import math
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npy  # noqa: E402

INF, NAN = float("inf"), float("nan")
# specials, halves (rounding), subnormals, the exp clamps, the Payne-Hanek range, large floats
XS = [0.0, -0.0, INF, -INF, NAN, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 1.0, -1.0, 0.7, 3.0, -3.7,
      1e-40, -1e-45, 88.0, 89.0, -104.5, -90.0, 1e6, -3e7, 3.4e38, 0.3, 0.6, 1.2, 2.0, 5.0,
      10.0, 1e-3, 8388609.0, 0.49999997, -100.0, 4.5, 0.54, 1.39, 1.41, 0.98, -0.999, 1e-20,
      2.0 ** 20, 123456.789, -7.25, 30.0, 0.25, -0.125]
YS = [2.0, 0.5, -1.0, 3.0, 0.0, INF, NAN, -0.0, 2.5, -2.0, 1.0, -INF, 0.5, 3.0, -1.0, 2.0]
N = 48


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def xs():
    return [f32(v) for v in XS]


def ys():
    return [f32(YS[i % len(YS)]) for i in range(N)]


def ds():
    """the f64 inputs: x with bits below f32's (halves stay halves)"""
    return [v + v * 2.0 ** -40 if math.isfinite(v) and v != math.floor(v) + 0.5 else v for v in xs()]


def bits(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


def same(a, b):
    return (a != a and b != b) or (a == b and math.copysign(1, a) == math.copysign(1, b))


def ulp(r):
    """ulp of the f32 nearest to r (subnormal ulps below 2^-126)"""
    a = abs(r)
    if a < 2.0 ** -126:
        return 2.0 ** -149
    return 2.0 ** (math.frexp(a)[1] - 24)


def within(got, ref, n_ulp, absolute=0.0):
    if ref != ref or got != got:
        return ref != ref and got != got
    if math.isinf(ref) or math.isinf(got):
        return got == ref or abs(got) >= 3.4e38 and abs(ref) >= 3.4e38
    return abs(got - ref) <= max(n_ulp * ulp(ref), absolute)


def safe(fn, *a):
    try:
        return fn(*a)
    except (ValueError, OverflowError):
        return None


def c_pow(x, y):
    """C's powf special cases, else Python's double pow"""
    if y == 0 or x == 1 or (abs(x) == 1 and math.isinf(y)):
        return 1.0
    if x != x or y != y:
        return NAN
    if x < 0 and not math.isinf(x) and not math.isinf(y) and y != math.floor(y):
        return NAN
    try:
        return math.pow(x, y)
    except ZeroDivisionError:
        odd = y == math.floor(y) and math.fmod(y, 2) != 0
        return math.copysign(INF, x) if odd else INF
    except OverflowError:
        odd = y == math.floor(y) and math.fmod(y, 2) != 0
        return -INF if x < 0 and odd else INF


def c_round(v):
    if math.isinf(v) or v != v:
        return v
    r = math.floor(abs(v) + 0.5) if abs(v) < 2.0 ** 52 else abs(v)
    if r - abs(v) > 0.5:  # abs(v) + 0.5 rounded up
        r -= 1
    return math.copysign(r, v)


def c_rint(v):
    if math.isinf(v) or v != v:
        return v
    return math.copysign(float(round(v)), v)


def exact_rows(v, w):
    """rows 12 .. 18 of math_f32 (and 0 .. 6 of math_f64): floor .. copysign, isnan + 2 isinf"""
    fin = not (math.isinf(v) or v != v)
    return [math.copysign(float(math.floor(v)), v) if fin else v,
            math.copysign(float(math.ceil(v)), v) if fin else v,
            math.copysign(float(math.trunc(v)), v) if fin else v,
            c_round(v), c_rint(v), math.copysign(abs(v), w),
            float((v != v) + 2 * math.isinf(v))]


def jit_values(math_cpu, x):
    """the backend's expansions at each of x: a {name: value} each (the runs in parallel)"""
    runs = [subprocess.Popen([math_cpu], stdout=subprocess.PIPE, text=True,
                             env=dict(os.environ, MATH_CPU_AT=v.hex() if v == v else "nan")) for v in x]
    return [{ln.split("(")[0]: float.fromhex(ln.split(" = ")[1].split(",")[0])
             for ln in r.communicate()[0].splitlines()} for r in runs]


def check(d, math_cpu):
    x, y = xs(), ys()
    _, o = npy.read(d + "/o.npy")
    _, o64 = npy.read(d + "/o64.npy")
    _, ov = npy.read(d + "/ov.npy")
    fails = {}

    def expect(name, ok, i, got):
        if not ok:
            fails.setdefault(name, "x=%r y=%r got %r" % (x[i], y[i], got))
        fails.setdefault(name, None)

    names = ["exp", "log", "sin", "cos", "tanh", "erf"]
    jits = jit_values(math_cpu, x)
    for i in range(N):
        jit = jits[i]
        row = lambda k: o[k * N + i]  # noqa: E731
        for k, nm in enumerate(names):
            expect(nm, same(row(k), jit[nm]) and (row(k) != row(k) or bits(row(k)) == bits(jit[nm])), i, row(k))
        expect("pow", within(row(6), c_pow(x[i], y[i]), 1), i, row(6))
        ax = abs(x[i])
        # exp_approx is ex2.approx.ftz: a result below 2^-126 is 0
        e = safe(math.exp, x[i]) if x[i] < 88 else INF
        approx = [("exp_approx", 0.0 if e is not None and e < 2.0 ** -126 else e, 2 + 1.2 * ax, 0),
                  ("log_approx", safe(math.log, x[i]) if x[i] > 0 else (-INF if x[i] == 0 else NAN), 4,
                   2.0 ** -21),
                  ("sin_approx", safe(math.sin, x[i]), 2, 2.0 ** -20.5 if ax <= 100 else 2),
                  ("cos_approx", safe(math.cos, x[i]), 2, 2.0 ** -20.5 if ax <= 100 else 2),
                  ("tanh_approx", math.tanh(x[i]), 2, 0)]
        for k, (nm, ref, n_ulp, absolute) in enumerate(approx):
            ref = NAN if ref is None else ref
            if x[i] == 0 and nm != "log_approx" and nm != "exp_approx" and nm != "cos_approx":
                ok = same(row(7 + k), x[i])  # sign of zero kept
            else:
                ok = within(row(7 + k), ref, n_ulp, absolute)
            expect(nm, ok, i, row(7 + k))
        for k, ref in enumerate(exact_rows(x[i], y[i])):
            nm = ["floor", "ceil", "trunc", "round", "rint", "copysign", "isnan/isinf"][k]
            expect(nm, same(row(12 + k), f32(ref)), i, row(12 + k))
        for k, ref in enumerate(exact_rows(ds()[i], -y[i])):
            expect("f64 " + ["floor", "ceil", "trunc", "round", "rint", "copysign", "isnan/isinf"][k],
                   same(o64[k * N + i], ref), i, o64[k * N + i])
        for k in (0, 1, 2, 3, 4, 5, 6, 11, 12, 15, 17):
            expect("vector row %d" % k, same(ov[k * N + i], row(k)) and
                   (row(k) != row(k) or bits(ov[k * N + i]) == bits(row(k))), i, ov[k * N + i])
    for nm, bad in fails.items():
        print("PASS %s" % nm if bad is None else "FAIL %s: %s" % (nm, bad))
    return any(fails.values())


if __name__ == "__main__":
    if sys.argv[1] == "inputs":
        npy.write(sys.argv[2] + "/x.npy", "<f4", [N], xs())
        npy.write(sys.argv[2] + "/y.npy", "<f4", [N], ys())
        npy.write(sys.argv[2] + "/d.npy", "<f8", [N], ds())
        npy.write(sys.argv[2] + "/e.npy", "<f8", [N], [-v for v in ys()])
    else:
        sys.exit(1 if check(sys.argv[2], sys.argv[3]) else 0)
