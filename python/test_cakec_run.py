"""Tests of cakec_run.py (run by tests/interp/python.test): the out tensors it finds in a
kernel's header, the options of run()'s keyword arguments, and, where NumPy is installed,
runs of axpby and softmax against NumPy references, a finding raised as CakecRunError and a
run with trace=.

Usage: test_cakec_run.py CAKEC_RUN SRCROOT"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cakec_run  # noqa: E402


def main():
    tool, root = sys.argv[1], sys.argv[2]
    src = os.path.join(root, "kernels_src", "reduction", "softmax.cake")
    outs = cakec_run._out_tensors(src, "softmax", {"x": None}, [tool])
    print("out tensors of softmax:", outs)
    print("options:", " ".join(cakec_run._options(seed=2, trace="t.json", trace_blocks=3)))
    try:
        import numpy as np
    except ImportError:
        print("SKIPPED: NumPy is not installed (the runs need it)")
        return 0
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, 1027).astype(np.float32)
    y = rng.uniform(-1, 1, 1027).astype(np.float32)
    got = cakec_run.run(os.path.join(root, "kernels_src", "elementwise", "axpby.cake"), "axpby",
                        tool=tool, x=x, y=y, a=1.5, b=-0.5)["y"]
    ref = 1.5 * x.astype(np.float64) - 0.5 * y
    err = float(np.max(np.abs(got - ref)))
    print("PASS axpby" if err <= 1e-6 else "FAIL axpby: max error %g" % err)
    xs = rng.uniform(-8, 8, (5, 1000)).astype(np.float32)
    got = cakec_run.run(src, "softmax", tool=tool, seed=3, seeds=3, x=xs)["y"]
    e = np.exp(xs.astype(np.float64) - xs.max(axis=1, keepdims=True))
    ref = e / e.sum(axis=1, keepdims=True)
    err = float(np.max(np.abs(got - ref) / np.maximum(np.abs(ref), 1e-15)))
    print("PASS softmax" if err <= 2e-5 else "FAIL softmax: max error %g" % err)
    try:
        cakec_run.run(os.path.join(root, "tests", "interp", "oob-store.cake"), "scale", tool=tool,
                      x=np.zeros(100, np.float32))
        print("FAIL oob: no error raised")
    except cakec_run.CakecRunError as e:
        print("PASS oob" if "out-of-bounds store" in e.stderr else "FAIL oob: %s" % e.stderr)
    trace = os.path.join(os.environ.get("TMPDIR", "/tmp"), "cakec_run_trace_%d.json" % os.getpid())
    cakec_run.run(os.path.join(root, "kernels_src", "elementwise", "axpby.cake"), "axpby", tool=tool,
                  trace=trace, x=x, y=y, a=1.0, b=1.0)
    with open(trace) as f:
        ok = '"traceEvents"' in f.read()
    os.remove(trace)
    print("PASS trace" if ok else "FAIL trace: no traceEvents in %s" % trace)
    return 0


if __name__ == "__main__":
    sys.exit(main())
