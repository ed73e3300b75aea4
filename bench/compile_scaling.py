#!/usr/bin/env python3
"""Compile time against input size: is it roughly linear?

    python3 bench/compile_scaling.py [--cakec build/cakec] [--sizes 500,1000,2000,4000]

For each shape of generated kernel and each size N it times one `cakec --emit=ptx
--target=sm_90a` run and prints the seconds and the milliseconds per statement; a
roughly linear compile keeps the last column flat as N doubles. The shapes:

- stores:  N statements `y[i] = x[i] * 2.0;` (adjacent loads and stores: the case that
           LLVM's load-store vectorizer handles in more than linear time);
- lets:    a chain of N `let`s, each using the one before (arithmetic only);
- ifs:     N `if (n > i) { a = a * 2.0; }` on one variable (control flow and SSA merges);
- kernels: N small kernels in one file (per-kernel work, not per statement);
- fns:     N functions never called, each a warning with its source line (diagnostics
           once scanned the file from the top for each line they showed).

A size past a limit of docs/language.md ("Limits") prints the error instead of a time:
the limits bound the sizes at which the super-linear parts matter. Runs on the CPU only;
nothing checks its numbers (timings vary with the machine's load).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HEAD = "kernel k(x: in f32[N], y: out f32[N], n: i32) threads(32) {\n"


def stores(n):
    return HEAD + "".join("    y[%d] = x[%d] * 2.0;\n" % (i, i) for i in range(n)) + "}\n"


def lets(n):
    body = "".join("    let a%d = a%d * 2.0 + 1.0;\n" % (i + 1, i) for i in range(n))
    return HEAD + "    let a0 = x[0];\n" + body + "    y[0] = a%d;\n}\n" % n


def ifs(n):
    body = "".join("    if (n > %d) { a = a * 2.0; }\n" % i for i in range(n))
    return HEAD + "    var a = x[0];\n" + body + "    y[0] = a;\n}\n"


def kernels(n):
    return "".join("kernel k%d(x: in f32[N], y: out f32[N]) threads(32) { y[0] = x[0] * 2.0; }\n" % i
                   for i in range(n))


def fns(n):
    return "".join("fn h%d(v: f32) -> f32 { return v * 2.0; }\n" % i for i in range(n)) + kernels(1)


SHAPES = [("stores", stores), ("lets", lets), ("ifs", ifs), ("kernels", kernels), ("fns", fns)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cakec", default=os.path.join("build", "cakec"))
    ap.add_argument("--sizes", default="250,500,1000,2000")
    ap.add_argument("--timeout", type=float, default=120)
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    print("%-8s %6s %9s %13s" % ("shape", "N", "seconds", "ms/statement"))
    with tempfile.TemporaryDirectory() as tmp:
        for name, gen in SHAPES:
            for n in sizes:
                path = os.path.join(tmp, "%s%d.cake" % (name, n))
                with open(path, "w") as f:
                    f.write(gen(n))
                t0 = time.perf_counter()
                try:
                    r = subprocess.run([a.cakec, "--emit=ptx", "--target=sm_90a", path], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.PIPE, timeout=a.timeout)
                except subprocess.TimeoutExpired:
                    print("%-8s %6d %9s" % (name, n, "> %gs" % a.timeout))
                    continue
                dt = time.perf_counter() - t0
                if r.returncode:
                    first = r.stderr.decode(errors="replace").splitlines()[0]
                    print("%-8s %6d  %s" % (name, n, first.split("error: ", 1)[-1][:90]))
                else:
                    print("%-8s %6d %9.2f %13.3f" % (name, n, dt, 1000 * dt / n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
