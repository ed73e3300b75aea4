// RUN: python3 %S/Inputs/npy.py make %t.a.npy '<f4' 64 'i'
// RUN: %builddir/cakec-run --seeds 4 %s ring a=%t.a.npy out=%t.npy overrun=0
// RUN: %not %builddir/cakec-run --seeds 3 %s ring a=%t.a.npy out=%t.npy overrun=1 2>&1 | FileCheck %s
// A one-slot ring by hand: the producer loads slice i into s and the consumers release
// the slot (empty) once they read it. Planted bug (overrun=1): the producer skips the wait
// for the release and loads the next slice into the slot while the previous load is still
// in flight (or its data not yet read): the interpreter reports the second TMA load into
// bytes another copy in flight will write, with that copy's line.
// CHECK: ring-overrun.cake:[[@LINE+17]]:17: error: TMA load into shared memory that the TMA load at line [[@LINE+17]]:17 still writes (in flight): byte offset 0 of 's'; the bytes are reused before that completed (a producer overrunning its ring, or a load issued twice) [block (0,0,0), warp 0, lane 0 (thread (0,0,0))]
kernel ring(a: in f32[N], out: out f32[N], overrun: i32)
    targets(sm_90a)
    threads(64)
    grid(1)
{
    tensormap ta = tma(a, box[32]);
    mbarrier full(count: 1);
    mbarrier empty(count: 32);
    shared s: f32[32] align(128);
    if (warp == 0) {
        elect {
            for (i in 0 .. 2) {
                if (i == 1 && overrun == 0) {
                    mbar_wait(empty, 0);
                }
                mbar_expect_tx(full, 128);
                tma_load(s, ta, [i * 32], full);
                mbar_arrive(full);
            }
        }
    } else {
        for (i in 0 .. 2) {
            mbar_wait(full, i);
            out[i * 32 + lane] = s[lane];
            mbar_arrive(empty);
        }
    }
}
