// RUN: python3 %S/Inputs/npy.py make %t.a.npy '<f4' 64 'i'
// RUN: %not %builddir/cakec-run %s load a=%t.a.npy out=%t.npy 2>&1 | FileCheck %s
// RUN: %not %builddir/cakec-run --seed 1 %s load a=%t.a.npy out=%t.npy 2>&1 | FileCheck %s
// RUN: %not %builddir/cakec-run --seed 2 %s load a=%t.a.npy out=%t.npy 2>&1 | FileCheck %s
// Planted bug: the elect block that issues the TMA load is not under `if (warp == 0)`, so
// one thread of every warp runs it: two loads into the same bytes and two arrivals on a
// barrier of count 1. The interpreter reports the second load into bytes the first one
// still writes under these seeds (under others, where the first load completed in between,
// the extra arrival or a read of the bytes the second load writes).
// CHECK: elect-every-warp.cake:[[@LINE+11]]:9: error: TMA load into shared memory that the TMA load at line [[@LINE+11]]:9 still writes (in flight): byte offset 0 of 's'; the bytes are reused before that completed (a producer overrunning its ring, or a load issued twice) [block (0,0,0), warp {{[01]}}, lane 0
kernel load(a: in f32[N], out: out f32[64])
    targets(sm_90a)
    threads(64)
    grid(1)
{
    tensormap ta = tma(a, box[64]);
    mbarrier full(count: 1);
    shared s: f32[64] align(128);
    elect {
        mbar_expect_tx(full, 256);
        tma_load(s, ta, [0], full);
        mbar_arrive(full);
    }
    mbar_wait(full, 0);
    out[thread.x] = s[thread.x];
}
