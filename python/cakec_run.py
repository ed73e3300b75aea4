"""cakec_run: run a .cake kernel on NumPy arrays on the CPU, through cakec's IR interpreter.

    import numpy as np, cakec_run
    x = np.random.rand(1000).astype(np.float32)
    y = np.zeros(1000, np.float32)
    out = cakec_run.run("kernels_src/elementwise/axpby.cake", "axpby", x=x, y=y, a=2.0, b=0.5)
    out["y"]                                # the inout/out tensors after the run

Tensors are NumPy arrays of the parameter's element type (bf16 as np.uint16 bit patterns;
arrays are made C-contiguous); scalars and syms that no tensor binds are Python numbers;
an `out` tensor may be left out when its shape follows from the others (it is then created
by the tool). The kernel runs after cakec's pass pipeline, over the grid the launcher would
compute, with the given seed for the block and warp order. A finding (an out-of-bounds
access, a divergent barrier or collective, ...) raises CakecRunError with the tool's
diagnostics (file:line:col: error: ...).

The tool is `cakec-run` (docs/interpreter.md): found through $CAKEC_RUN, then next to this
file in ../build/, then on $PATH.
"""

import os
import shutil
import subprocess
import tempfile

__all__ = ["CakecRunError", "run", "find_tool"]


class CakecRunError(RuntimeError):
    """cakec-run failed; .stderr has its diagnostics and .returncode its exit status."""

    def __init__(self, message, stderr="", returncode=1):
        super().__init__(message)
        self.stderr = stderr
        self.returncode = returncode


def find_tool():
    """The path of cakec-run."""
    env = os.environ.get("CAKEC_RUN")
    if env:
        return env
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "cakec-run")
    if os.path.exists(here):
        return here
    found = shutil.which("cakec-run")
    if not found:
        raise CakecRunError("cakec-run not found: set CAKEC_RUN or build it (cmake --build build)")
    return found


def _options(seed=0, seeds=1, target=None, defines=None, trace=None, trace_blocks=None):
    """The command-line options of run()'s keyword arguments."""
    cmd = ["--seed", str(int(seed)), "--seeds", str(int(seeds))]
    if target:
        cmd += ["--target", target]
    for name, value in (defines or {}).items():
        cmd += ["-D", "%s=%s" % (name, value)]
    if trace:
        cmd += ["--trace", os.fspath(trace)]
    if trace_blocks is not None:
        cmd += ["--trace-blocks", str(int(trace_blocks))]
    return cmd


def run(source, kernel, seed=0, seeds=1, target=None, defines=None, tool=None, trace=None,
        trace_blocks=None, **args):
    """Runs `kernel` of the .cake (or .ir) file `source` with the keyword arguments (one per
    parameter) and returns a dict of the tensors after the run (every array passed in comes
    back, read from the tool's files; out tensors left out come back too). seeds > 1 runs
    that many schedules from `seed` on and raises when their results differ (a race).
    trace=PATH writes the run's timeline there (cakec-run --trace: Chrome Trace Event JSON,
    docs/interpreter.md "Timeline"; the first seed's run), of the first trace_blocks blocks
    (default 1)."""
    import numpy as np  # only this helper needs NumPy

    cmd = [tool or find_tool()] + _options(seed, seeds, target, defines, trace, trace_blocks)
    with tempfile.TemporaryDirectory(prefix="cakec_run_") as tmp:
        cmd += [source, kernel]
        paths = {}
        for name, value in args.items():
            if isinstance(value, np.ndarray):
                path = os.path.join(tmp, name + ".npy")
                np.save(path, np.ascontiguousarray(value))
                paths[name] = path
                cmd.append("%s=%s" % (name, path))
            elif isinstance(value, (bool, int, float, np.integer, np.floating)):
                cmd.append("%s=%r" % (name, value.item() if hasattr(value, "item") else value))
            else:
                raise TypeError("argument %s: expected a NumPy array or a number, got %s"
                                % (name, type(value).__name__))
        for name in _out_tensors(source, kernel, args, cmd):
            paths[name] = os.path.join(tmp, name + ".npy")
            cmd.append("%s=%s" % (name, paths[name]))
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise CakecRunError("cakec-run failed (exit %d):\n%s" % (proc.returncode, proc.stderr),
                                proc.stderr, proc.returncode)
        return {name: np.load(path) for name, path in paths.items() if os.path.exists(path)}


def _out_tensors(source, kernel, args, cmd):
    """The out tensors of the kernel that args leaves out: read from the kernel's header
    in cakec's IR (cakec --emit=ir, next to cakec-run), so the tool creates them."""
    cakec = os.path.join(os.path.dirname(cmd[0]), "cakec")
    if not os.path.exists(cakec):
        return []
    proc = subprocess.run([cakec, "--emit=ir", "--passes=", source], capture_output=True, text=True)
    names, inside = [], False
    for line in proc.stdout.splitlines():
        words = line.split()
        if words[:2] == ["kernel", "@" + kernel]:
            inside = True
        elif words[:1] == ["kernel"]:
            inside = False
        elif inside and words[:1] == ["param"] and words[3:5] == ["tensor", "out"]:
            if words[1] not in args:
                names.append(words[1])
    return names
