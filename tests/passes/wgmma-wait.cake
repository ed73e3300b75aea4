// The wgmma groups a consume block issues stay in flight past its body; expand-async puts
// each wgmma.wait where the code after it first reads the group's registers, with the
// younger groups still running (wait[n], n of them), at the latest before an op that
// writes memory (the release's arrive, a store). FlashAttention-3's overlap: Q K^T of tile
// i (group A) and P V of tile i - 1 (group B, A from registers) are issued back to back,
// the softmax of tile i waits for A only (wait[1]), and B is retired, with the registers
// of its A fragment tied, just before V's stage is released.
// RUN: %cakec --emit=ir --passes=schedule-check,expand-async %s | FileCheck %s
// RUN: %cakec --emit=ptx %s | FileCheck %s --check-prefix=PTX

kernel overlap(o: out f32[64, 64], d: out f32[64], n: i32)
    targets(sm_90a) threads(256)
{
    pipeline kp(stages: 2, full: warpgroup, empty: warpgroup);
    pipeline vp(stages: 2, full: warpgroup, empty: warpgroup);
    shared sq: bf16[128, 16] swizzle(32);
    shared sk: bf16[32, 16] in kp swizzle(32);
    shared sv: bf16[64, 16] in vp swizzle(32);
    role producer(warpgroup 0) {
        for (i in 0 .. n) {
            produce kp { }
            produce vp { }
        }
    }
    role consumer(warpgroup 1) {
        var acc: f32acc[64, 64] = 0.0;
        var s: f32acc[64, 16] = 0.0;
        consume kp {
            s = wgmma(s, sq.rows(0, 64), sk.rows(0, 16));
            s = wgmma(s, sq.rows(64, 64), sk.rows(16, 16));
        }
        var p = bf16a(s);
        for (i in 1 .. n) {
            var s2: f32acc[64, 16] = 0.0;
            consume kp {
                s2 = wgmma(s2, sq.rows(0, 64), sk.rows(0, 16));
                consume vp {
                    acc = wgmma(acc, p, sv.T);
                    if (i == n - 1) {
                        s2 = mask_cols(s2, 7);
                    }
                    p = bf16a(s2 * 0.5);
                }
            }
            acc = acc * 0.5;
        }
        consume vp {
            acc = wgmma(acc, p, sv.T);
            store_rows(d, row_sum(s), [0]);
        }
        store(o, acc, [0, 0]);
    }
}

// Two groups on one accumulator (the second fences the first's registers and takes them
// over): one wait, on the second's result only, before the release.
// CHECK:      [[S0:%[0-9]+]] = wgmma[16] {{.*}} !29:17
// CHECK-NEXT: wgmma.commit !29:17
// CHECK-NOT:  wgmma.wait
// CHECK:      wgmma.fence [[S0]] : f32x8 !30:17
// CHECK:      [[S1:%[0-9]+]] = wgmma[16] {{.*}} !30:17
// CHECK-NEXT: wgmma.commit !30:17
// CHECK-NEXT: [[EB:%[0-9]+]] = mbar[1] {{.*}} !28:9
// CHECK-NEXT: [[S:%[0-9]+]] = wgmma.wait[0] [[S1]] : f32x8 !28:9
// CHECK-NEXT: mbar.arrive [[EB]] !28:9
// CHECK:      cast [[S]] : bf16x8 !32:17

// The loop: A, then B; the `if` reads A's result: wait[1] before it (B keeps running).
// CHECK:      for[0]
// CHECK:      [[A:%[0-9]+]] = wgmma[16] {{.*}} !36:22
// CHECK-NEXT: wgmma.commit !36:22
// CHECK:      {{%[0-9]+}}, [[P:%[0-9]+]] = wgmma.fence {{.*}} : f32x32, bf16x8 !38:27
// CHECK:      [[B:%[0-9]+]] = wgmma[268435520] {{.*}}, [[P]], {{.*}} !38:27
// CHECK-NEXT: wgmma.commit !38:27
// CHECK-NOT:  wgmma.wait
// CHECK:      [[AW:%[0-9]+]] = wgmma.wait[1] [[A]] : f32x8 !39:21
// CHECK-NEXT: if
// CHECK:      yield [[AW]] !39:21
// The release of V: wait[0] on B's accumulator and its A fragment, then the arrive.
// CHECK-NOT:  wgmma.wait
// CHECK:      {{%[0-9]+}}, [[BW:%[0-9]+]] = wgmma.wait[0] [[P]], [[B]] : bf16x8, f32x32 !37:17
// CHECK-NEXT: mbar.arrive
// CHECK:      mul [[BW]], {{%[0-9]+}} : f32x32 !45:23

// The last consume: the store of row sums writes memory: B retires before it.
// CHECK:      [[L:%[0-9]+]] = wgmma[268435520] {{.*}} !48:19
// CHECK-NEXT: wgmma.commit !48:19
// CHECK-NOT:  store.if
// CHECK:      {{%[0-9]+}}, [[LW:%[0-9]+]] = wgmma.wait[0] {{%[0-9]+}}, [[L]] : bf16x8, f32x32 !49:13
// CHECK-NEXT: store.if
// CHECK:      wgmma.store {{%[0-9]+}}, [[LW]]

// In the PTX the loop issues both groups before its first wait, which lets one run on.
// PTX:      wgmma.wait_group.sync.aligned 0;
// PTX:      wgmma.commit_group.sync.aligned;
// PTX-NOT:  wgmma.wait_group
// PTX:      wgmma.commit_group.sync.aligned;
// PTX-NOT:  wgmma.wait_group
// PTX:      wgmma.wait_group.sync.aligned 1;
