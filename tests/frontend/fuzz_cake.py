#!/usr/bin/env python3
"""Mutation fuzzing of the .cake frontend: takes the kernels under kernels_src/ and the
frontend tests, mutates them (truncation, deleted spans, inserted tokens, duplicated
spans), and runs cakec on each. Every run must end with exit status 0 or 1: never a crash,
a sanitizer report or an internal error (70). Deterministic for a given seed.

    python3 tests/frontend/fuzz_cake.py --cakec build/cakec --seed 1 --count 2000
"""
import argparse
import glob
import os
import random
import subprocess
import sys
import tempfile

TOKENS = [
    "(", ")", "{", "}", "[", "]", ";", ",", ":", "..", "=", "+=", "<<=", "?", "<<", "*", "/",
    "%", "-", "!", "~", "&&", "||", "==", "<=", ">>", "^", "&", "|",
    "let", "var", "if", "else", "for", "while", "kernel", "const", "shared", "in", "out",
    "step", "unroll", "unroll(3)", "unroll(0)", "align(64)", "break;", "return;", "true", "false",
    "x", "N", "1", "0", "-1", "300", "1.5", "-0.0", "1e300", "0x80000000",
    "9223372036854775807", "99999999999999999999",
    "i1", "i8", "i16", "i32", "i64", "u32", "u64", "f16", "bf16", "f32", "f64",
    "f32x2", "f32x4", "bf16x4", "i32x4", "u64(", "f16(", "i8(",
    ".x", ".w", "[3]", "[0 : 2]", ": 4", "x[0]", "thread.x", "block.y", "grid_dim.z",
    "block_dim.x", "lane", "warp",
    "min(", "max(", "abs(", "cdiv(", "fma(", "exp2(", "sqrt(", "rsqrt(", "log2(", "any(",
    "all(", "ballot(", "shfl_xor(", "shfl_idx(", "atomic_add(", "atomic_cas(", "barrier()",
    "var q = 1;", "q += 1;", "const Q: u64 = 5;", "targets(sm_90a)", "threads(1024, 2)",
    "grid(N / 0)", "/*", "*/", "//", "\n", "\t", "\u00e9", "\x01", "#",
    # the Hopper constructs
    "tensormap", "pipeline", "mbarrier", "role", "elect", "produce", "consume", "regs(40)",
    "min_blocks(1)", "cluster(2)", "num_sms", "warpgroup", "warpgroups 1 .. 2", "warp 0",
    "in ld", "swizzle(128)", "alias(sa)", "f32acc[64, 16]", "box[64, 64]", "[0, 0]",
    "multicast: 3", "part: 1", "stages: 2", "full: tma", "empty: warpgroup * 2", "count: 1",
    "tma_load(", "tma_store(", "wgmma(", "store(", "remote(", ".rows(", "mbar_wait(",
    "mbar_expect_tx(", "cluster_rank", "cluster_sync()", "elect { }", "produce ld { }",
]


def mutate(rng, s):
    if rng.random() < 0.15:
        return s[:rng.randrange(len(s) + 1)]
    for _ in range(rng.randint(1, 6)):
        i = rng.randrange(len(s) + 1)
        r = rng.random()
        if r < 0.35:
            s = s[:i] + s[i + rng.randint(1, 12):]
        elif r < 0.8:
            s = s[:i] + " " + rng.choice(TOKENS) + " " + s[i:]
        else:
            j = rng.randrange(len(s) + 1)
            s = s[:i] + s[j:j + rng.randint(1, 60)] + s[i:]
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cakec", required=True)
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--emit", default="ir")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    files = sorted(glob.glob(os.path.join(a.root, "kernels_src", "**", "*.cake"), recursive=True))
    files += sorted(glob.glob(os.path.join(a.root, "tests", "frontend", "*.cake")))
    seeds = [open(f, encoding="utf-8").read() for f in files]
    if not seeds:
        print("FAIL: no seed files")
        return 1
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = "detect_leaks=0"
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fuzz.cake")
        for n in range(a.count):
            text = mutate(rng, rng.choice(seeds))
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(text)
            p = subprocess.run([a.cakec, "--emit=" + a.emit, path], capture_output=True,
                               env=env)
            err = p.stderr.decode("utf-8", "replace")
            if p.returncode not in (0, 1) or "Sanitizer" in err or "runtime error" in err \
                    or "internal compiler error" in err:
                bad += 1
                keep = os.path.join(tmp, "..", "cake-fuzz-failure-%d-%d.cake" % (a.seed, n))
                with open(keep, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(text)
                print("FAIL: input %d (kept as %s): exit %d\n%s" % (n, os.path.abspath(keep),
                      p.returncode, err[-2000:]))
                if bad >= 5:
                    break
    print("%d inputs, %d failures" % (a.count, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
