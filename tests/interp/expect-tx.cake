// RUN: python3 %S/Inputs/npy.py make %t.a.npy '<f4' 64 'i'
// RUN: %not %builddir/cakec-run --seeds 3 %s expect a=%t.a.npy out=%t.npy nbytes=128 2>&1 | FileCheck %s
// Planted bug: the mbarrier expects 128 bytes (a count computed at run time, so the
// compiler's check of constant counts does not see it) but the TMA load brings 256: its
// complete-tx takes the barrier's tx-count below zero, whatever the schedule.
// The other way (one box too many expected, 512 bytes): the phase waits for bytes that
// never come, a deadlock that reports the tx bytes missing.
// RUN: %not %builddir/cakec-run %s expect a=%t.a.npy out=%t.npy nbytes=512 2>&1 | FileCheck %s --check-prefix=MORE
// MORE: expect-tx.cake:[[@LINE+17]]:5: error: deadlock: every unfinished warp of the block is blocked and no TMA load is in flight; warps 0-1 wait at line [[@LINE+17]]:5 for the phase of parity 0 of mbarrier 'full'[0] (phase 0, 0 of 1 arrivals and 256 tx bytes missing)
// CHECK: expect-tx.cake:[[@LINE+12]]:13: error: the complete-tx of a TMA load of 256 bytes takes the tx-count of mbarrier 'full'[0] below zero (to -128): the bytes expected (expect-tx) do not match the bytes the TMA loads bring [block (0,0,0), warp 0, lane 0 (thread (0,0,0))]
kernel expect(a: in f32[N], out: out f32[64], nbytes: i32)
    targets(sm_90a)
    threads(64)
    grid(1)
{
    tensormap ta = tma(a, box[64]);
    mbarrier full(count: 1);
    shared s: f32[64] align(128);
    if (warp == 0) {
        elect {
            mbar_expect_tx(full, nbytes);
            tma_load(s, ta, [0], full);
            mbar_arrive(full);
        }
    }
    mbar_wait(full, 0);
    out[thread.x] = s[thread.x];
}
