#!/usr/bin/env python3
"""Prints the polynomial coefficients of backend_ptx/llvm_math.c that are not plain
factorials: tanh's Taylor series (from the Bernoulli numbers, exactly), the Chebyshev
interpolants of tanh on [0.55, 1.4] (11 nodes, in u = |x| - 0.975) and of
g(a) = erfc(a) * exp(a^2) on [1, 4] (13 nodes, in u = a - 2.5), converted to monomials
exactly, the latter with its relative error on a grid; and exp's degree-6 polynomial on
|r| <= ln(2) / 2, minimax for relative error by Remez exchange with 1 + r fixed, its
coefficients rounded to f32 one at a time from r^2 up, the rest re-fitted each time."""
import math
import struct
from fractions import Fraction as F


def bernoulli(n):
    b = [F(0)] * (n + 1)
    b[0] = F(1)
    for m in range(1, n + 1):
        b[m] = -sum(math.comb(m + 1, k) * b[k] for k in range(m)) / F(m + 1)
    return b


def tanh_taylor(terms):
    # tanh x = sum_{n>=1} 2^2n (2^2n - 1) B_2n x^(2n-1) / (2n)!
    b = bernoulli(2 * terms + 2)
    return [F(2 ** (2 * n) * (2 ** (2 * n) - 1)) * b[2 * n] / math.factorial(2 * n)
            for n in range(1, terms + 1)]


def chebyshev_monomials(f, lo, hi, n):
    c, h = (lo + hi) / 2, (hi - lo) / 2
    nodes = [math.cos(math.pi * (k + 0.5) / n) for k in range(n)]
    fv = [f(c + h * x) for x in nodes]
    cheb = [2.0 / n * sum(fv[k] * math.cos(math.pi * j * (k + 0.5) / n) for k in range(n))
            for j in range(n)]
    cheb[0] /= 2
    t = [[F(1)], [F(0), F(1)]]
    for j in range(2, n):
        p = [F(0)] + [2 * x for x in t[j - 1]]
        q = t[j - 2] + [F(0)] * (len(p) - len(t[j - 2]))
        t.append([p[i] - q[i] for i in range(len(p))])
    mono = [F(0)] * n
    for j in range(n):
        for i, cf in enumerate(t[j]):
            mono[i] += F(cheb[j]) * cf
    return c, [float(mono[i] / F(h) ** i) for i in range(n)]


def f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def solve(a, b):
    """Gaussian elimination with partial pivoting (a small dense system)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in reversed(range(n)):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def exp_remez(fixed, degree, half):
    """The coefficients of r^len(fixed) .. r^degree minimising max |p(r) e^-r - 1| on
    [-half, half] with the lower ones fixed, and that maximum."""
    nfree = degree + 1 - len(fixed)
    npts = nfree + 1
    poly = lambda c, r: sum(a * r ** i for i, a in enumerate(fixed + c))
    err = lambda c, r: poly(c, r) * math.exp(-r) - 1
    pts = [-half * math.cos(math.pi * i / (npts - 1)) for i in range(npts)]
    grid = [-half + 2 * half * k / 4000 for k in range(4001)]
    for _ in range(20):
        a = [[r ** (len(fixed) + j) * math.exp(-r) for j in range(nfree)] + [-(-1) ** i]
             for i, r in enumerate(pts)]
        b = [1 - poly([], r) * math.exp(-r) for r in pts]
        c = solve(a, b)[:nfree]
        es = [err(c, r) for r in grid]
        ext = []
        for k, e in enumerate(es):
            if 0 < k < len(es) - 1 and (abs(e) < abs(es[k - 1]) or abs(e) < abs(es[k + 1])):
                continue
            if ext and (ext[-1][1] > 0) == (e > 0):
                if abs(e) > abs(ext[-1][1]):
                    ext[-1] = (grid[k], e)
            else:
                ext.append((grid[k], e))
        ext = sorted(sorted(ext, key=lambda t: -abs(t[1]))[:npts])
        if len(ext) == npts:
            pts = [r for r, _ in ext]
    return c, max(abs(e) for e in es)


def exp_poly():
    half = math.log(2) / 2 * 1.0005   # |r| after the reduction, with room for k's rounding
    fixed = [1.0, 1.0]
    while len(fixed) <= 6:
        c, worst = exp_remez(fixed, 6, half)
        fixed.append(f32(c[0]))
    return fixed, worst


def main():
    cf, worst = exp_poly()
    print("exp on |r| <= ln(2) / 2 (max relative error %.3g, 2^%.1f):"
          % (worst, math.log2(worst)))
    for c in cf:
        print("\t%s," % float.hex(c))
    print("tanh: x + x^3 P(x^2), P =")
    for cf in tanh_taylor(11)[1:]:
        print("\t%.17g," % float(cf))
    c, mu = chebyshev_monomials(math.tanh, 0.55, 1.4, 11)
    print("tanh on [0.55, 1.4], in u = |x| - %g:" % c)
    for cf in mu:
        print("\t%.17g," % cf)
    g = lambda a: math.erfc(a) * math.exp(a * a)
    c, mu = chebyshev_monomials(g, 1.0, 4.0, 13)
    err = 0.0
    for k in range(6001):
        a = 1.0 + 3.0 * k / 6000
        p = 0.0
        for cf in reversed(mu):
            p = p * (a - c) + cf
        err = max(err, abs(p / g(a) - 1))
    print("erfc(a) e^(a^2) on [1, 4], in u = a - %g (max relative error %.3g):" % (c, err))
    for cf in mu:
        print("\t%.17g," % cf)


if __name__ == "__main__":
    main()
