// RUN: %not %builddir/cakec-run %s mismatch out=%t.npy 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: %not %builddir/cakec-run --passes=smem-layout %s mismatch out=%t.npy 2>&1 | FileCheck %s
// A planted bug: the two halves of the block wait at two different barriers. On the GPU
// both are bar.sync 0, so the halves release each other and the data each barrier was
// meant to order is not ordered; the interpreter requires one barrier op per round.
// cakec's schedule-check rejects it at compile time (STATIC); with that pass left out
// (--passes), the interpreter finds it when it runs.

kernel mismatch(out: out f32[128])
    targets(sm_90a)
    threads(128)
    grid(1)
{
    if (warp < 2) {
// STATIC: barrier-mismatch.cake:[[@LINE+2]]:9: error: barrier() is reached by 64 of the block's 128 threads (warps 0 .. 1); every thread of the block must reach it
// CHECK: barrier-mismatch.cake:[[@LINE+1]]:9: error: barrier reached by only part of the block: warps 0-1 wait here, warp 2 at the barrier at line [[@LINE+3]]:9 [block (0,0,0), warp 0, all its lanes]
        barrier();
    } else {
        barrier();
    }
    out[thread.x] = 1.0;
}
