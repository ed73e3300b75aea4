// RUN: %not %builddir/cakec-run %s partial out=%t.npy 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: %not %builddir/cakec-run --passes=smem-layout %s partial out=%t.npy 2>&1 | FileCheck %s
// A planted bug: a barrier inside an if that only the first half of the block takes.
// Whole warps skip it, so no warp diverges, but the warps of the second half finish
// while the first half waits: the barrier is reached by only part of the block.
// cakec's schedule-check rejects it at compile time (STATIC); with that pass left out
// (--passes), the interpreter finds it when it runs.

kernel partial(out: out f32[256])
    targets(sm_90a)
    threads(256)
    grid(1)
{
    if (thread.x < 128) {
// STATIC: barrier-partial.cake:[[@LINE+2]]:9: error: barrier() is reached by 128 of the block's 256 threads (warps 0 .. 3); every thread of the block must reach it
// CHECK: barrier-partial.cake:[[@LINE+1]]:9: error: barrier reached by only part of the block: warps 0-3 wait here, warps 4-7 finished without reaching it [block (0,0,0), warp 0, all its lanes]
        barrier();
    }
    out[thread.x] = 1.0;
}
