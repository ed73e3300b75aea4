// RUN: python3 %S/Inputs/npy.py make %t.a.npy '<f4' 96 'i'
// RUN: %builddir/cakec-run --seeds 3 %s pipe a=%t.a.npy out=%t.npy stop=3
// RUN: %not %builddir/cakec-run --seeds 3 %s pipe a=%t.a.npy out=%t.npy stop=1 2>&1 | FileCheck %s
// Planted bug: an arrival owed at exit. Both consumer warps release each slice on the
// empty barrier (64 arrivals), but warp 2 stops early (a count that depends on the data): it arrived in the first phase of the empty barrier and finished without
// arriving in the second, so the producer's wait for the slot never returns. The deadlock
// report names the warp that owes the arrival.
// CHECK: arrival-owed.cake:[[@LINE+14]]:17: error: deadlock: every unfinished warp of the block is blocked and no TMA load is in flight; warp 0 waits at line [[@LINE+14]]:17 for the phase of parity 1 of mbarrier 'ld.empty'[0] (phase 1, 32 of 64 arrivals and 0 tx bytes missing): an arrival owed at exit: warp 2 finished without arriving in this phase, having arrived in the earlier ones; warp 1 waits at line {{[0-9]+}}:13 for the phase of parity 0 of mbarrier 'ld.full'[0] (phase 2, 1 of 1 arrivals and 0 tx bytes missing); the others finished [block (0,0,0), warp 0, all its lanes]
kernel pipe(a: in f32[N], out: out f32[N], stop: i32)
    targets(sm_90a)
    threads(96)
    grid(1)
{
    tensormap ta = tma(a, box[32]);
    pipeline ld(stages: 1, full: tma, empty: warp * 2);
    shared s: f32[32] in ld align(128);
    let slices = N / 32;

    role producer(warp 0) {
        elect {
            for (i in 0 .. slices) {
                produce ld {
                    tma_load(s, ta, [i * 32]);
                }
            }
        }
    }

    role consumer(warps 1 .. 2) {
        // warp 1 consumes every slice, warp 2 the first `stop`
        let mine = slices - (warp - 1) * (slices - stop);
        for (i in 0 .. mine) {
            consume ld {
                if (warp == 1) {
                    out[i * 32 + lane] = s[lane] + 1.0;
                }
            }
        }
    }
}
