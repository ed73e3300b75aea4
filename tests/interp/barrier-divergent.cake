// RUN: %not %builddir/cakec-run %s divergent out=%t.npy 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: %not %builddir/cakec-run --passes=smem-layout %s divergent out=%t.npy 2>&1 | FileCheck %s
// A planted bug: a barrier inside an if whose condition differs between the lanes of a
// warp (a divergent barrier).
// cakec's schedule-check rejects it at compile time (STATIC); with that pass left out
// (--passes), the interpreter finds it when it runs.

kernel divergent(out: out f32[64])
    targets(sm_90a)
    threads(64)
    grid(1)
{
    shared s: f32[64];
    s[thread.x] = 1.0;
    if (thread.x % 2 == 0) {
// STATIC: barrier-divergent.cake:[[@LINE+2]]:9: error: barrier() is reached by 32 of the block's 64 threads (warps 0 .. 1); every thread of the block must reach it
// CHECK: barrier-divergent.cake:[[@LINE+1]]:9: error: divergent barrier: executed by lanes 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 of the warp while lanes 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31 do not take part (it needs the whole warp) [block (0,0,0), warp {{[01]}}, lanes 0, 2,
        barrier();
    }
    out[thread.x] = s[63 - thread.x];
}
