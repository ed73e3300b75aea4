#!/usr/bin/env python3
"""Cold start: the time of each kernel's first call through its generated launcher (the
module load for the context included: a cubin, or the driver JIT-compiling the PTX) and
of its second call, each kernel in a fresh process (a load is per process and context).

It runs, once per kernel and --runs times, BUILD/tests/gpu/first_call KERNEL
(tests/gpu/first_call.c: every kernels_src kernel with a GPU test case), test_gdp
--first-call VARIANT (every gdp variant test_gdp holds: all five designs), test_cp_fixup
--first-call KERNEL (every cp_fixup instance and the entry point), test_vsa --first-call
KERNEL (every vsa instance and the entry point) and test_ssd --first-call KERNEL (every ssd
instance and the entry point), each linked with its
launchers as the build generated them (cubins embedded when the build had ptxas), and
prints the median first and second call and the image the runtime loaded. The Blackwell
GEMMs (gemm_sm100_*) print a NOTE on a Hopper GPU. The driver's JIT cache is off
(CUDA_CACHE_DISABLE=1) unless --jit-cache: with it, a PTX-only launcher would look fast from
the second process on, which a fresh machine or container does not see.

Nothing is compiled here, so it runs on a GPU machine without a C compiler or cakec: build
the program where cakec builds (cmake --build build --target first_call) and carry
build/tests/gpu/{first_call,test_gdp,test_cp_fixup,test_vsa,test_ssd} (a few MB; they need only libc and the
driver's libcuda.so.1).
Usage: python3 bench/first_call.py [--build build] [--runs 3] [--budget-ms 5] [--jit-cache]
                                   [KERNEL...]
Exit status: 0 when every first call is under the budget, 1 when one is over (or a run
failed), 2 when the program is missing or there is no GPU (it printed SKIPPED)."""
import argparse
import os
import re
import statistics
import subprocess
import sys

LINE = re.compile(r"^first_call (\S+): first ([0-9.]+) ms, second ([0-9.]+) ms, image (.*) \((.*)\)$")


# the programs and how each is asked for one kernel's first call
PROGRAMS = (("first_call", []), ("test_gdp", ["--first-call"]), ("test_cp_fixup", ["--first-call"]),
            ("test_vsa", ["--first-call"]), ("test_ssd", ["--first-call"]))


def run(cmd, kernel, env):
    """One fresh process for kernel: (first ms, second ms, image, sizes), or a message."""
    r = subprocess.run(cmd + [kernel], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       env=env, text=True)
    for line in r.stdout.splitlines():
        m = LINE.match(line)
        if m and m.group(1) == kernel:
            return float(m.group(2)), float(m.group(3)), m.group(4), m.group(5)
        if line.startswith("SKIPPED") or line.startswith("NOTE"):
            return line
    return f"FAIL {kernel}: exit {r.returncode}:\n{r.stdout}"


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(root, "build"))
    ap.add_argument("--runs", type=int, default=3, help="fresh processes per kernel (median)")
    ap.add_argument("--budget-ms", type=float, default=5.0, help="the most a first call may take")
    ap.add_argument("--jit-cache", action="store_true", help="leave the driver's JIT cache on")
    ap.add_argument("kernels", nargs="*")
    a = ap.parse_args()
    cmds = {}           # kernel -> the command that runs its first call
    for name, flags in PROGRAMS:
        prog = os.path.join(a.build, "tests", "gpu", name)
        if not os.access(prog, os.X_OK):
            print(f"first_call.py: {prog} is missing (cmake --build {a.build} --target {name})")
            return 2
        for k in subprocess.run([prog, "--list"], stdout=subprocess.PIPE, text=True,
                                check=True).stdout.split():
            cmds[k] = [prog] + flags
    unknown = [k for k in a.kernels if k not in cmds]
    if unknown:
        print(f"first_call.py: no kernel {', '.join(unknown)}")
        return 2
    kernels = a.kernels or list(cmds)
    env = dict(os.environ)
    if not a.jit_cache:
        env["CUDA_CACHE_DISABLE"] = "1"
    print(f"first and second call through the launcher, median of {a.runs} fresh processes "
          f"(JIT cache {'on' if a.jit_cache else 'off'}); budget {a.budget_ms:g} ms for the first")
    print(f"{'kernel':40} {'first ms':>9} {'second ms':>9}  {'image':30} sizes")
    bad = 0
    for k in kernels:
        res = [run(cmds[k], k, env) for _ in range(a.runs)]
        msgs = [r for r in res if isinstance(r, str)]
        if msgs:
            print(msgs[0])
            if msgs[0].startswith("SKIPPED"):
                return 2
            bad += not msgs[0].startswith("NOTE")
            continue
        first = statistics.median(r[0] for r in res)
        second = statistics.median(r[1] for r in res)
        images = sorted(set(r[2] for r in res))
        over = first > a.budget_ms
        bad += over
        print(f"{k:40} {first:9.3f} {second:9.3f}  {', '.join(images):30} {res[0][3]}"
              f"{'  OVER BUDGET' if over else ''}")
    print("first_call.py: " + (f"{bad} kernel(s) over budget or failed" if bad else "every first call within budget"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
