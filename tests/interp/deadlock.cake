// RUN: python3 %S/Inputs/npy.py make %t.a.npy '<f4' 128 'i'
// RUN: %not %builddir/cakec-run --seeds 3 %s pipe a=%t.a.npy out=%t.npy 2>&1 | FileCheck %s
// Planted bug: the producer role produces one slice fewer than the consumers consume (a
// count that depends on the data, so the compiler's checks cannot see it): the consumers'
// last wait never completes and, the producer finished, every live warp is blocked.
// CHECK: deadlock.cake:[[@LINE+23]]:13: error: deadlock: every unfinished warp of the block is blocked and no TMA load is in flight; warps 1-2 wait at line [[@LINE+23]]:13 for the phase of parity 1 of mbarrier 'ld.full'[1] (phase 1, 1 of 1 arrivals and 0 tx bytes missing): an arrival owed at exit: warp 0 finished without arriving in this phase, having arrived in the earlier ones; the others finished [block (0,0,0), warp 1, all its lanes]
kernel pipe(a: in f32[N], out: out f32[N])
    targets(sm_90a)
    threads(96)
    grid(1)
{
    tensormap ta = tma(a, box[32]);
    pipeline ld(stages: 2, full: tma, empty: warp * 2);
    shared s: f32[32] in ld align(128);
    let slices = N / 32;

    role producer(warp 0) {
        elect {
            for (i in 0 .. slices - 1) {
                produce ld {
                    tma_load(s, ta, [i * 32]);
                }
            }
        }
    }

    role consumer(warps 1 .. 2) {
        for (i in 0 .. slices) {
            consume ld {
                if (warp == 1) {
                    out[i * 32 + lane] = s[lane] + 1.0;
                }
            }
        }
    }
}
