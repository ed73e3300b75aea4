// RUN: %builddir/cakec-run --seeds 4 %s pingpong o=%t.npy n=5
// RUN: python3 %S/Inputs/npy.py print %t.npy | sort | uniq -c | FileCheck %s --check-prefix=OUT
// OUT: 256 10{{$}}
// RUN: %not %builddir/cakec-run %s skewed o=%t.npy n=5 2>&1 | FileCheck %s
// RUN: %cakec --emit=ptx %s | FileCheck %s --check-prefix=PTX
// take_turn() / pass_turn(): the two warpgroups of a role alternate; a run-time trip count
// that differs between them leaves one waiting for a turn nobody passes, which the
// interpreter reports at the take_turn() with the barrier's arrivals.
kernel pingpong(o: out f32[256], n: i32)
    targets(sm_90a) threads(384)
{
    role idle(warpgroup 0) {
    }
    role work(warpgroups 1 .. 2) {
        var x: f32 = 0.0;
        for (i in 0 .. n) {
            take_turn();
            x = x + f32(i);
            pass_turn();
        }
        o[(warp - 4) * 32 + lane] = x;
    }
}

kernel skewed(o: out f32[256], n: i32)
    targets(sm_90a) threads(384)
{
    role idle(warpgroup 0) {
    }
    role work(warpgroups 1 .. 2) {
        var x: f32 = 0.0;
        for (i in 0 .. n + warp / 4) {
            take_turn();
            x = x + f32(i);
            pass_turn();
        }
        o[(warp - 4) * 32 + lane] = x;
    }
}

// CHECK: turns.cake:33:13: error: named barrier 2 never completes: warps 8-11 wait there, 128 of the 256 threads a phase counts arrived, and no other warp can run to arrive

// The last warpgroup passes the first turn at entry; warpgroup 1 syncs on barrier 1,
// warpgroup 2 on 2, each passing to the other.
// PTX-LABEL: .entry pingpong
// PTX: bar.arrive 1, 256;
// PTX: bar.sync %r{{[0-9]+}}, 256;
// PTX: bar.arrive %r{{[0-9]+}}, 256;
