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
// RUN: FileCheck %s --check-prefix=PROXY < %t/pull.sm_90a.ptx
// RUN: %ptxas -arch=sm_90a %t/pull.sm_90a.ptx -o %t/pull.cubin
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

// fence_proxy_async(global) orders the acquire before the TMA load of what it published;
// the shared form stays fence.proxy.async.shared::cta.
// PROXY-LABEL: .entry pull_
// PROXY-DAG: fence.proxy.async.shared::cta;
// PROXY-DAG: ld.acquire.sys.global.b32
// PROXY: fence.proxy.async.global;
// PROXY: cp.async.bulk.tensor.2d.shared::cluster.global
kernel pull(a: in bf16[M, 64], flags: inout u32[1], o: out bf16[M, 64], epoch: u32)
    targets(sm_90a)
    threads(64)
    grid(1)
{
    tensormap ta = tma(a, box[64, 64], swizzle(128));
    tensormap to = tma(o, box[64, 64], swizzle(128));
    pipeline ip(stages: 1, full: tma, empty: thread);
    shared sa: bf16[64, 64] in ip swizzle(128);
    role load(warp 0) {
        elect {
            if (wait_ge(flags[0], epoch, i64(1000000), scope: system)) {
                fence_proxy_async(global);
            }
            produce ip {
                tma_load(sa, ta, [0, 0]);
            }
        }
    }
    role store(warp 1) {
        elect {
            consume ip {
                fence_proxy_async();
                tma_store(to, [0, 0], sa);
                tma_store_wait();
            }
        }
    }
}
