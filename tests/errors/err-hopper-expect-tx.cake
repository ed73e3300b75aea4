// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// mbar_expect_tx announces the bytes of the TMA loads on its barrier in the same phase
// (between two waits on it, in straight-line code). The schedule-check pass compares them
// on the IR; the byte count's range is err-hopper-mbar.cake's.

kernel k(a: in bf16[M, K]) targets(sm_90a) threads(128) {
    tensormap ta = tma(a, box[32, 64], swizzle(128));
    mbarrier full(count: 1);
    shared s: bf16[32, 64] swizzle(128);
    shared t: bf16[32, 64] swizzle(128);
    elect {
        mbar_expect_tx(full, 4096);
        tma_load(s, ta, [0, 0], full);
        tma_load(t, ta, [32, 0], full);
        mbar_arrive(full);
    }
    mbar_wait(full, 0);
    elect {
        mbar_expect_tx(full, 8192);
        tma_load(s, ta, [0, 0], full);
        tma_load(t, ta, [32, 0], full);
        mbar_arrive(full);
    }
    mbar_wait(full, 1);
    elect {
        mbar_expect_tx(full, 4096);
        tma_load(s, ta, [0, 0], full);
        mbar_arrive(full);
    }
}

// A multicast load lands in every CTA of its mask: each CTA's barrier gets a box from each.
kernel multicast(a: in bf16[M, K]) targets(sm_90a) threads(128) cluster(2) {
    tensormap ta = tma(a, box[32, 64], swizzle(128));
    mbarrier full(count: 1);
    shared s: bf16[32, 64] swizzle(128);
    cluster_sync();
    elect {
        mbar_expect_tx(full, 4096);
        tma_load(s, ta, [0, 0], full, multicast: 3);
        mbar_arrive(full);
    }
    mbar_wait(full, 0);
}

// CHECK: err-hopper-expect-tx.cake:12:9: error: mbar.expect.tx announces 4096 bytes on mbarrier 'full' but the TMA loads that signal it in this phase bring 8192 (tma.load of 'ta': 4096; tma.load of 'ta': 4096)
// CHECK-NEXT: {{^}}        mbar_expect_tx(full, 4096);
// CHECK-NEXT: {{^}}        ^
// CHECK: err-hopper-expect-tx.cake:39:9: error: mbar.expect.tx announces 4096 bytes on mbarrier 'full' but the TMA loads that signal it in this phase bring 8192 (tma.load.mc of 'ta': 8192)
// CHECK-NEXT: {{^}}        mbar_expect_tx(full, 4096);
// CHECK-NEXT: {{^}}        ^
