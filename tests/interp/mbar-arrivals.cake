// RUN: %not %builddir/cakec-run %s arrivals out=%t.npy 2>&1 | FileCheck %s
// Planted bug: every thread of the warp arrives on an mbarrier that counts one arrival
// per phase (the arrival should be in an elect block): each arrival completes a phase, 32
// in all, so the phase of parity 0 is current again and the wait never returns.
// CHECK: mbar-arrivals.cake:[[@LINE+9]]:5: error: deadlock: every unfinished warp of the block is blocked and no TMA load is in flight; warp 0 waits at line [[@LINE+9]]:5 for the phase of parity 0 of mbarrier 'done'[0] (phase 32, 1 of 1 arrivals and 0 tx bytes missing) [block (0,0,0), warp 0, all its lanes]
kernel arrivals(out: out f32[32])
    targets(sm_90a)
    threads(32)
    grid(1)
{
    mbarrier done(count: 1);
    out[thread.x] = 1.0;
    mbar_arrive(done);
    mbar_wait(done, 0);
}
