// Flags (docs/language.md, "Flags between blocks and GPUs"): store_release and
// load_acquire become st.release / ld.acquire at their scope (gpu when none is named; sys
// for system), on global and on shared memory, 32 and 64 bits; fence_acq_rel is fence.acq_rel;
// wait_ge polls with ld.acquire, compares flag - epoch as a signed number, reads
// %globaltimer against the limit and sleeps between polls. ptxas assembles it.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cakec --emit=ptx -o %t %s
// RUN: FileCheck %s < %t/signal.sm_90a.ptx
// RUN: %ptxas -arch=sm_90a %t/signal.sm_90a.ptx -o %t/signal.cubin
// RUN: %cakec --emit=ptx -o %t/b %s
// RUN: cmp %t/signal.sm_90a.ptx %t/b/signal.sm_90a.ptx
// CHECK-LABEL: .entry signal_
// CHECK: st.global.b32
// CHECK-NEXT: fence.acq_rel.sys;
// CHECK: st.release.sys.global.b32
// CHECK: mov.u64 [[T0:%rd[0-9]+]], %globaltimer;
// CHECK: ld.acquire.sys.global.b32 [[V:%r[0-9]+]],
// CHECK: sub.s32 {{%r[0-9]+}}, [[V]],
// CHECK: mov.u64 [[T:%rd[0-9]+]], %globaltimer;
// CHECK-NEXT: sub.s64 {{%rd[0-9]+}}, [[T]], [[T0]];
// CHECK: nanosleep.u32
// CHECK: ld.acquire.gpu.global.b64
// CHECK: st.release.gpu.global.b64
// CHECK: st.release.cta.shared.b32
// CHECK: ld.acquire.cta.shared.b32
// CHECK: fence.acq_rel.cluster;
kernel signal(data: inout f32[32], flags: inout u32[4], big: inout u64[2], status: inout i32[1],
              epoch: u32, timeout_ns: i64)
    targets(sm_90a)
    threads(32)
    grid(1)
{
    shared s: u32[32];
    data[thread.x] = 1.0;
    fence_acq_rel(scope: system);
    if (thread.x == 0) {
        store_release(flags[0], epoch, scope: system);
        if (!wait_ge(flags[1], epoch, timeout_ns, scope: system)) {
            atomic_or(status[0], 1);
        }
        let v = load_acquire(big[0]);
        store_release(big[1], v + u64(1));
    }
    store_release(s[lane], epoch, scope: cta);
    let w = load_acquire(s[31 - lane], scope: cta);
    fence_acq_rel(scope: cluster);
    data[lane] = f32(w);
}
