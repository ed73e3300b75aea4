#!/usr/bin/env python3
"""Prints the polynomial coefficients of backend_ptx/llvm_math.c that are not plain
factorials: tanh's Taylor series (from the Bernoulli numbers, exactly), the Chebyshev
interpolants of tanh on [0.55, 1.4] (11 nodes, in u = |x| - 0.975) and of
g(a) = erfc(a) * exp(a^2) on [1, 4] (13 nodes, in u = a - 2.5), converted to monomials
exactly, the latter with its relative error on a grid."""
import math
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


def main():
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
