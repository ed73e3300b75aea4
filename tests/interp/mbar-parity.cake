// RUN: python3 %S/Inputs/npy.py make %t.a.npy '<f4' 32 'i'
// RUN: %not %builddir/cakec-run %s parity a=%t.a.npy out=%t.npy 2>&1 | FileCheck %s
// Planted bug: the wait asks for the phase of parity 1, which counts as completed before
// the first phase (0) does: it returns at once and the read finds the TMA load in flight.
// CHECK: mbar-parity.cake:[[@LINE+15]]:22: error: read of shared memory that an asynchronous copy in flight will write (wait for it first: its mbarrier, or cp.async.wait): byte offset 0 (element 0) of shared buffer 's'
kernel parity(a: in f32[N], out: out f32[32])
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
    mbar_wait(full, 1);
    out[thread.x] = s[thread.x];
}

// The same kernel waiting on parity 0 reads the landed data under every schedule.
// RUN: python3 %S/Inputs/npy.py make %t.a.npy '<f4' 32 'i * 2'
// RUN: sed 's/mbar_wait(full, 1)/mbar_wait(full, 0)/' %s > %t.ok.cake
// RUN: %builddir/cakec-run --seeds 4 %t.ok.cake parity a=%t.a.npy out=%t.npy
// RUN: python3 %S/Inputs/npy.py print %t.npy | FileCheck %s --check-prefix=OK
// OK: shape (32,)
// OK-NEXT: 0
// OK-NEXT: 2
// OK-NEXT: 4
