// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// mbar_expect_tx announces the bytes of the TMA loads on its barrier that follow it in the
// same block (the boxes of this phase).

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
        mbar_expect_tx(full, 100000000);
    }
}

// CHECK: err-hopper-expect-tx.cake:11:9: error: mbar_expect_tx(full, 4096) announces 4096 bytes, but the 2 tma_loads on 'full' after it bring 8192
// CHECK-NEXT: {{^}}        mbar_expect_tx(full, 4096);
// CHECK-NEXT: {{^}}        ^
// CHECK: err-hopper-expect-tx.cake:28:30: error: mbar_expect_tx announces 0 to 1048575 bytes, found 100000000
// CHECK-NEXT: {{^}}        mbar_expect_tx(full, 100000000);
// CHECK-NEXT: {{^}}                             ^
