// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py make %t/a.npy '<f4' 7,128 '(i * 37 % 509) - 250'
// RUN: %builddir/cakec-run --seeds 4 %s deal a=%t/a.npy o=%t/o.npy w=%t/w.npy flag=1
// RUN: python3 %S/Inputs/round_robin_check.py %t/a.npy %t/o.npy %t/w.npy 1 | FileCheck %s
// RUN: %builddir/cakec-run --seeds 2 %s deal a=%t/a.npy o=%t/o.npy w=%t/w.npy flag=0
// RUN: python3 %S/Inputs/round_robin_check.py %t/a.npy %t/o.npy %t/w.npy 0 | FileCheck %s
// RUN: %builddir/cakec-run --seeds 2 %s deal_step w=%t/ws.npy n=16
// RUN: python3 %S/Inputs/npy.py print %t/ws.npy | FileCheck %s --check-prefix=STEP
// RUN: %cakec --emit=ir %s | FileCheck %s --check-prefix=IR
// RUN: %cakec --emit=ptx %s -o %t/ptx && FileCheck %s --check-prefix=PTX < %t/ptx/deal.sm_90a.ptx
// Without round_robin both warpgroups run every block: twice the arrivals ip's empty
// barrier counts.
// RUN: sed 's/ round_robin {/ {/' %s > %t/bug.cake
// RUN: %not %cakec %t/bug.cake 2>&1 | FileCheck %s --check-prefix=BUG
// BUG: error: pipeline 'ip': its empty barrier 'ip.empty' counts 128 arrivals per phase (warpgroup * 1) but 256 threads (warps 4 .. 11) run its consume blocks
// A round_robin loop deals its iterations to the two warpgroups of role `work` in turn:
// iteration i runs in warpgroup 1 + i % 2 (w records which), each consuming the stage
// warp 0 filled for it (every element of o checked), with a nested produce, and a
// pipeline consumed only when `flag` is set (the skipping warpgroup evaluates the same
// condition). An odd trip count leaves warpgroup 1 one iteration more.
// CHECK: o: 0 of 896 wrong
// CHECK: w: 1 2 1 2 1 2 1
// With a first index and a step: iteration k = (i - 3) / 2 runs in warpgroup 2 + k % 3 of
// a role of three (i = 3, 5, ..., 15: warpgroups 2 3 4 2 3 4 2).
// STEP: shape (16,)
// STEP-NEXT: 0
// STEP-NEXT: 0
// STEP-NEXT: 0
// STEP-NEXT: 2
// STEP-NEXT: 0
// STEP-NEXT: 3
// STEP-NEXT: 0
// STEP-NEXT: 4
// STEP-NEXT: 0
// STEP-NEXT: 2
// STEP-NEXT: 0
// STEP-NEXT: 3
// STEP-NEXT: 0
// STEP-NEXT: 4
// STEP-NEXT: 0
// STEP-NEXT: 2
// IR: if[1]
// PTX-LABEL: .entry deal
kernel deal(a: in f32[N, 128], o: out f32[N, 128], w: out i32[N], flag: i32)
    targets(sm_90a) threads(384)
{
    pipeline ip(stages: 2, full: warp, empty: warpgroup);
    shared sx: f32[128] in ip;
    pipeline zp(stages: 4, full: warp, empty: warpgroup);
    shared sz: f32[128] in zp;
    pipeline op(stages: 2, full: warpgroup, empty: warp);
    shared so: f32[128] in op;
    role io(warpgroup 0) {
        if (warp == 0) {
            for (i in 0 .. N) {
                produce ip {
                    for (j in lane .. 128 step 32) {
                        sx[j] = a[i, j];
                    }
                }
                if (flag != 0) {
                    produce zp {
                        for (j in lane .. 128 step 32) {
                            sz[j] = f32(i);
                        }
                    }
                }
            }
        } else if (warp == 1) {
            for (i in 0 .. N) {
                consume op {
                    for (j in lane .. 128 step 32) {
                        o[i, j] = so[j];
                    }
                }
            }
        }
    }
    role work(warpgroups 1 .. 2) {
        let t = thread.x % 128;
        for (i in 0 .. N) round_robin {
            consume ip {
                var extra: f32 = 0.0;
                if (flag != 0) {
                    consume zp {
                        extra = sz[t];
                    }
                }
                produce op {
                    so[t] = sx[t] * 2.0 + extra;
                }
            }
            if (t == 0) {
                w[i] = warp / 4;
            }
        }
    }
}

kernel deal_step(w: out i32[16], n: i32)
    targets(sm_90a) threads(640)
{
    role first(warps 0 .. 7) {
        if (thread.x < 16 && (thread.x % 2 == 0 || thread.x == 1)) {
            w[thread.x] = 0;
        }
    }
    role three(warpgroups 2 .. 4) {
        for (i in 3 .. n step 2) round_robin {
            if (thread.x % 128 == 0) {
                w[i] = warp / 4;
            }
        }
    }
}
