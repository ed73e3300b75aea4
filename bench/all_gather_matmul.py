#!/usr/bin/env python3
"""The all-gather GEMM (kernels_src/all_gather_matmul) against NCCL all-gather + cuBLAS and
torch's fused op, one process per rank, on PyTorch symmetric memory.

    torchrun --nproc-per-node W bench/all_gather_matmul.py [--build build] [--out F.md]
        [--shapes M,N,K;...] [--iters 50] [--reps 5] [--timeout-ms 2000] [--check-calls 3]

Each rank allocates its A rows [M, K] (bf16) and its pad of W ready flags (u32) in symmetric
memory (torch.distributed._symmetric_memory: empty, then rendezvous), and passes every
rank's views (cakec_torch.peer_buffers) as the kernel's per_rank tables `a` and `flags`:
the kernel reads peers' rows in place once their flags say ready. B [N, K] is the same on
every rank (K-major, the weight); C [W, M, N] is all_gather(A) B^T, bf16.

Correctness first: every rank's C against all_gather (NCCL, or the symmetric views when
ranks share a GPU) times B^T in float32, normwise and elementwise relative error (against
max(|ref|, sqrt(K) / 4)), after each of --check-calls calls in a row (the epochs count on,
no reset); an error above 1e-2, a status other than 0 (a peer not seen within
--timeout-ms) or a wrong epoch marks the row WRONG and the exit status 1 on every rank.

Timing (not with shared GPUs): a fixed number of calls (--iters) between two CUDA events
on every rank, after a barrier, --reps times; the row reports the median over reps of the
slowest rank (an all-reduce of the times). triton's do_bench is not used: each rank would
pick its own repetition count and the collectives would deadlock. Columns: cakec, NCCL
all_gather_into_tensor followed by torch.matmul (in sequence, one stream), the gather and
the GEMM alone, torch's fused op (torch.ops.symm_mem.fused_all_gather_matmul), and the
ratios (theirs / ours: above 1 cakec is faster).

Several ranks may share one GPU (torchrun on a machine with fewer GPUs than ranks): the
run then checks the kernel between processes (peers' rows and flags in other processes'
memory, the epochs) but times nothing, since processes on one GPU take turns rather than
overlap. torch's symmetric memory and NCCL both refuse two ranks on one device, so there
the buffers are shared through CUDA IPC (torch.multiprocessing's handles) and the group
uses gloo.

The acceptance it is read against (issue 21, two GPUs): >= 1.4x NCCL + cuBLAS at M 512,
N 2560 (K 8192), >= 1.05x at M 2048, N 8192 and M 4096, N 28672.
Exit status 1 on a WRONG row or a failed setup; 0 otherwise (SKIPPED without CUDA).
"""

import argparse
import datetime
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "python"))

SHAPES = "512,2560,8192;2048,8192,8192;4096,28672,8192"
TOL = 1e-2


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", help="rank 0 writes the markdown report here")
    ap.add_argument("--shapes", default=SHAPES, help="M,N,K;... with M the rows per rank")
    ap.add_argument("--iters", type=int, default=50, help="calls between the two events")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--timeout-ms", type=float, default=2000.0,
                    help="how long a kernel waits for a peer's flag before status 1")
    ap.add_argument("--check-calls", type=int, default=3)
    return ap.parse_args(argv)


def log(rank, msg):
    if rank == 0:
        print(msg, flush=True)


class Setup(object):
    """The process group and this rank's device."""

    def __init__(self, torch, dist):
        self.rank = int(os.environ.get("RANK", "0"))
        self.world = int(os.environ.get("WORLD_SIZE", "1"))
        local = int(os.environ.get("LOCAL_RANK", "0"))
        ngpu = torch.cuda.device_count()
        self.shared = ngpu < self.world
        self.dev = torch.device("cuda", local % ngpu)
        torch.cuda.set_device(self.dev)
        dist.init_process_group("gloo" if self.shared else "nccl", device_id=None if self.shared else self.dev)
        self.group = dist.group.WORLD
        self.group_name = self.group.group_name
        self.sms = torch.cuda.get_device_properties(self.dev).multi_processor_count
        import torch.distributed._symmetric_memory as symm
        if hasattr(symm, "enable_symm_mem_for_group"):  # needed before torch 2.9, a no-op after
            symm.enable_symm_mem_for_group(self.group_name)


def shared_tensor(torch, symm, cakec_torch, st, shape, dtype):
    """A tensor every rank can address: this rank's own, and every rank's view of it in rank
    order (every rank calls this in the same order). Symmetric memory where each rank has
    its GPU; where ranks share one (torch's symmetric memory refuses that), the CUDA IPC
    handles torch.multiprocessing shares tensors with, exchanged through the group."""
    import torch.distributed as dist
    if not st.shared:
        t = symm.empty(shape, dtype=dtype, device=st.dev)
        return t, cakec_torch.peer_buffers(symm.rendezvous(t, st.group_name), shape, dtype)
    from torch.multiprocessing.reductions import reduce_tensor
    t = torch.empty(shape, dtype=dtype, device=st.dev)
    handles = [None] * st.world
    dist.all_gather_object(handles, reduce_tensor(t))
    return t, [t if r == st.rank else fn(*args) for r, (fn, args) in enumerate(handles)]


def kernel(lib, world):
    name = "all_gather_matmul_w%d" % world
    if name not in lib.kernels:
        raise SystemExit("all_gather_matmul: no instance for world size %d in the build "
                         "(instances: %s)" % (world, ", ".join(sorted(lib.kernels))))
    return lib.kernels[name]


class Case(object):
    """One shape's tensors on this rank and the kernel's call."""

    def __init__(self, torch, symm, cakec_torch, st, kern, m, n, k, timeout_ms):
        import torch.distributed as dist
        w = st.world
        self.torch, self.st, self.kern = torch, st, kern
        self.m, self.n, self.k = m, n, k
        g = torch.Generator(device=st.dev)
        g.manual_seed(1000 + st.rank)
        self.a, self.peers_a = shared_tensor(torch, symm, cakec_torch, st, (m, k), torch.bfloat16)
        self.a.copy_((torch.rand(m, k, device=st.dev, generator=g) * 2 - 1).bfloat16())
        g.manual_seed(7)        # the same B on every rank
        self.b = (torch.rand(n, k, device=st.dev, generator=g) * 2 - 1).bfloat16()
        pad, pads = shared_tensor(torch, symm, cakec_torch, st, (w,), torch.int32)
        pad.zero_()
        torch.cuda.synchronize()
        dist.barrier()
        self.pads = [p.view(torch.uint32) for p in pads]
        self.c = torch.empty(w, m, n, device=st.dev, dtype=torch.bfloat16)
        self.epoch = torch.zeros(2, device=st.dev, dtype=torch.int32)
        self.status = torch.zeros(1, device=st.dev, dtype=torch.int32)
        self.timeout_ns = int(timeout_ms * 1e6)
        self.calls = 0

    def __call__(self):
        self.kern(a=self.peers_a, b=self.b, c=self.c, flags=self.pads, epoch=self.epoch.view(self.torch.uint32),
                  status=self.status, rank=self.st.rank, timeout_ns=self.timeout_ns,
                  max_ctas=self.st.sms, stream=self.torch.cuda.current_stream())
        self.calls += 1

    def reference(self):
        """all_gather(A) B^T in float32, A gathered from the symmetric views."""
        torch = self.torch
        gathered = torch.cat([p.float() for p in self.peers_a])
        return (gathered @ self.b.float().t()).reshape(self.st.world, self.m, self.n)

    def check(self):
        """Errors of the last call: (normwise, elementwise, status, epoch)."""
        torch = self.torch
        torch.cuda.synchronize()
        ref = self.reference()
        got = self.c.float()
        norm = ((got - ref).norm() / ref.norm()).item()
        elem = ((got - ref).abs() / ref.abs().clamp(min=self.k ** 0.5 / 4)).max().item()
        if not torch.isfinite(got).all():
            norm = elem = float("inf")
        return norm, elem, int(self.status.item()), self.epoch.tolist()


def time_calls(torch, dist, st, fn, iters, reps):
    """The median over reps of the slowest rank's time per call (us)."""
    out = []
    for _ in range(reps):
        torch.cuda.synchronize()
        dist.barrier()
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        for _ in range(iters):
            fn()
        e1.record()
        torch.cuda.synchronize()
        t = torch.tensor([e0.elapsed_time(e1) * 1e3 / iters], device=st.dev)
        dist.all_reduce(t, op=dist.ReduceOp.MAX)
        out.append(t.item())
    return statistics.median(out)


def baselines(torch, dist, st, case):
    """NCCL all-gather + matmul, each alone, and torch's fused op, as callables."""
    w, m, n, k = st.world, case.m, case.n, case.k
    gathered = torch.empty(w * m, k, device=st.dev, dtype=torch.bfloat16)
    out = torch.empty(w * m, n, device=st.dev, dtype=torch.bfloat16)
    bt = case.b.t()

    def gather():
        dist.all_gather_into_tensor(gathered, case.a)

    def gemm():
        torch.matmul(gathered, bt, out=out)

    def seq():
        gather()
        gemm()

    fused = None
    op = getattr(getattr(torch.ops, "symm_mem", None), "fused_all_gather_matmul", None)
    if op is not None:
        def fused():
            op(case.a, [bt], gather_dim=0, group_name=st.group_name)
    return seq, gather, gemm, fused


def run(argv=None):
    a = parse_args(argv)
    try:
        import torch
        import torch.distributed as dist
        import torch.distributed._symmetric_memory as symm
    except ImportError as e:
        print("SKIPPED: %s" % e)
        return 0
    if not torch.cuda.is_available():
        print("SKIPPED: no CUDA device")
        return 0
    import cakec_torch
    st = Setup(torch, dist)
    lib = cakec_torch.load(os.path.join(a.build, "gen", "all_gather_matmul"))
    kern = kernel(lib, st.world)
    log(st.rank, "all_gather_matmul: world %d, %s, %s (%d SMs), torch %s" % (
        st.world, "ranks sharing one GPU (no timing)" if st.shared else "one GPU per rank",
        torch.cuda.get_device_name(st.dev), st.sms, torch.__version__))
    rows, wrong = [], 0
    for spec in a.shapes.split(";"):
        m, n, k = (int(x) for x in spec.split(","))
        case = Case(torch, symm, cakec_torch, st, kern, m, n, k, a.timeout_ms)
        bad = 0
        for call in range(1, a.check_calls + 1):
            case.c.fill_(float("nan"))
            torch.cuda.synchronize()
            dist.barrier()
            case()
            norm, elem, status, epoch = case.check()
            ok = elem <= TOL and status == 0 and epoch == [case.calls, 0]
            bad |= not ok
            if not ok or call == a.check_calls:
                print("rank %d M %d N %d K %d call %d: %s normwise %.2e, elementwise %.2e, status %d, "
                      "epoch %s" % (st.rank, m, n, k, call, "ok" if ok else "WRONG", norm, elem,
                                    status, epoch), flush=True)
        flag = torch.tensor([int(bad)], device=st.dev if not st.shared else "cpu")
        dist.all_reduce(flag, op=dist.ReduceOp.MAX)
        wrong |= int(flag.item())
        row = {"shape": (m, n, k), "wrong": bool(flag.item())}
        if not st.shared:
            seq, gather, gemm, fused = baselines(torch, dist, st, case)
            row["ours"] = time_calls(torch, dist, st, case, a.iters, a.reps)
            row["seq"] = time_calls(torch, dist, st, seq, a.iters, a.reps)
            row["gather"] = time_calls(torch, dist, st, gather, a.iters, a.reps)
            row["gemm"] = time_calls(torch, dist, st, gemm, a.iters, a.reps)
            row["fused"] = time_calls(torch, dist, st, fused, a.iters, a.reps) if fused else None
            norm, elem, status, _ = case.check()     # after every timed call too
            if elem > TOL or status != 0:
                row["wrong"] = True
                wrong = 1
        rows.append(row)
        del case
    report(a, st, torch, rows)
    dist.destroy_process_group()
    return 1 if wrong else 0


def report(a, st, torch, rows):
    if st.rank != 0:
        return
    fmt = lambda v: "-" if v is None else "%.1f" % v        # noqa: E731
    lines = ["# all_gather_matmul, world %d, %s" % (st.world, datetime.datetime.now(
        datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")), "",
        "%s, torch %s, commit %s" % (torch.cuda.get_device_name(st.dev), torch.__version__,
                                     os.environ.get("CAKEC_COMMIT", "?")), ""]
    if st.shared:
        lines += ["Ranks share one GPU: correctness only.", "", "| M | N | K | result |", "|---|---|---|---|"]
        lines += ["| %d | %d | %d | %s |" % (r["shape"] + ("WRONG" if r["wrong"] else "ok",)) for r in rows]
    else:
        lines += ["| M | N | K | cakec us | NCCL+mm us | gather us | mm us | fused us | seq/cakec | "
                  "fused/cakec | result |", "|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in rows:
            lines.append("| %d | %d | %d | %s | %s | %s | %s | %s | %.2f | %s | %s |" % (
                r["shape"] + (fmt(r["ours"]), fmt(r["seq"]), fmt(r["gather"]), fmt(r["gemm"]),
                              fmt(r["fused"]), r["seq"] / r["ours"],
                              "-" if r["fused"] is None else "%.2f" % (r["fused"] / r["ours"]),
                              "WRONG" if r["wrong"] else "ok")))
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    sys.exit(run())
