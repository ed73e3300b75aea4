// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// mbarriers are not values; mbar_arrive(b), mbar_expect_tx(b, bytes) and mbar_wait(b, parity)
// take one by name, the parity 0 or 1, the byte count 0 to 2^20 - 1; elect blocks do not
// nest.

kernel k(a: in f32[N]) targets(sm_90a) threads(128) {
    mbarrier b3(count: 1);
    pipeline ld(stages: 2, full: thread, empty: warpgroup);
    let y = b3;
    mbar_arrive(y);
    mbar_wait(b3, 2);
    mbar_expect_tx(b3);
    elect {
        elect { }
    }
    mbar_arrive(ld);
    mbar_arrive(b3, 1);
    mbar_expect_tx(b3, 100000000);
}

// CHECK: err-hopper-mbar.cake:9:13: error: mbarrier 'b3' is not a value
// CHECK-NEXT: {{^}}    let y = b3;
// CHECK-NEXT: {{^}}            ^
// CHECK: err-hopper-mbar.cake:10:17: error: mbar_arrive takes an mbarrier first, but 'y' is a 'let' binding
// CHECK-NEXT: {{^}}    mbar_arrive(y);
// CHECK-NEXT: {{^}}                ^
// CHECK: err-hopper-mbar.cake:11:19: error: the parity of mbar_wait is 0 or 1, found 2
// CHECK-NEXT: {{^}}    mbar_wait(b3, 2);
// CHECK-NEXT: {{^}}                  ^
// CHECK: err-hopper-mbar.cake:12:5: error: 'mbar_expect_tx' takes an mbarrier and a byte count, found 1 argument
// CHECK-NEXT: {{^}}    mbar_expect_tx(b3);
// CHECK-NEXT: {{^}}    ^
// CHECK: err-hopper-mbar.cake:14:9: error: elect inside an elect block: only one thread runs the outer block
// CHECK-NEXT: {{^}}        elect { }
// CHECK-NEXT: {{^}}        ^
// CHECK: err-hopper-mbar.cake:16:17: error: mbar_arrive takes an mbarrier first, but 'ld' is a pipeline
// CHECK-NEXT: {{^}}    mbar_arrive(ld);
// CHECK-NEXT: {{^}}                ^
// CHECK: err-hopper-mbar.cake:17:5: error: 'mbar_arrive' takes an mbarrier, found 2 arguments
// CHECK-NEXT: {{^}}    mbar_arrive(b3, 1);
// CHECK-NEXT: {{^}}    ^
// CHECK: err-hopper-mbar.cake:18:24: error: mbar_expect_tx announces 0 to 1048575 bytes, found 100000000
// CHECK-NEXT: {{^}}    mbar_expect_tx(b3, 100000000);
// CHECK-NEXT: {{^}}                       ^
