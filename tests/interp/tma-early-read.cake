// RUN: python3 %S/Inputs/npy.py make %t.a.npy '<f4' 32 'i'
// RUN: %not %builddir/cakec-run %s early a=%t.a.npy out=%t.npy 2>&1 | FileCheck %s
// Planted bug: the consumer reads the stage before it waits on the mbarrier, while the TMA
// load that fills it is still in flight (on the GPU it reads stale data, on some runs).
// CHECK: tma-early-read.cake:[[@LINE+14]]:14: error: read of shared memory that an asynchronous copy in flight will write (wait for it first: its mbarrier, or cp.async.wait): byte offset 0 (element 0) of shared buffer 's' (32 elements of 4 bytes) [block (0,0,0), warp 0, lane 0 (thread (0,0,0))]
kernel early(a: in f32[N], out: out f32[32])
    targets(sm_90a)
    threads(32)
    grid(1)
{
    tensormap ta = tma(a, box[32]);
    mbarrier full(count: 1);
    shared s: f32[32] align(128);
    elect {
        mbar_expect_tx(full, 128);
        tma_load(s, ta, [0], full);
        mbar_arrive(full);
    }
    let x = s[thread.x];
    mbar_wait(full, 0);
    out[thread.x] = x;
}
