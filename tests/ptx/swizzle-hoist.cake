// A fragment stored into a staged, swizzled buffer in a loop: the swizzle of each element's
// offset depends only on the thread, so its xors are computed once, before the loop; in the
// loop, after the wait for the stage, only the stores (the stage's base plus the offsets).
// RUN: %cakec --emit=ptx %s | FileCheck %s
// CHECK: xor.b32
// CHECK: mbarrier.try_wait
// CHECK-NOT: xor.b32
// CHECK: st.shared.b32
// CHECK-NOT: xor.b32
// CHECK: fence.proxy.async.shared::cta
kernel hoist(a: in f32[64, 64], n: i32)
    targets(sm_90a) threads(256) grid(1)
{
    pipeline p(stages: 2, full: warpgroup, empty: warpgroup);
    shared sb: bf16[64, 64] in p swizzle(128);
    role producer(warpgroup 0) {
        var acc = fragment(a, [0, 0], 64);
        for (i in 0 .. n) {
            produce p {
                store(sb, acc, [0, 0]);
                fence_proxy_async();
            }
            acc = acc * 0.5;
        }
    }
    role consumer(warpgroup 1) {
        for (i in 0 .. n) {
            consume p { }
        }
    }
}
