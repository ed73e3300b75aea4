// RUN: python3 %S/Inputs/npy.py make %t.a.npy '<f4' 64 'i'
// RUN: %builddir/cakec-run --seeds 4 %s store a=%t.a.npy o=%t.o.npy mode=0
// RUN: %not %builddir/cakec-run %s store a=%t.a.npy o=%t.o.npy mode=1 2>&1 | FileCheck %s --check-prefix=NOFENCE
// RUN: %not %builddir/cakec-run --seed 1 %s store a=%t.a.npy o=%t.o.npy mode=1 2>&1 | FileCheck %s --check-prefix=NOFENCE
// RUN: %not %builddir/cakec-run %s store a=%t.a.npy o=%t.o.npy mode=2 2>&1 | FileCheck %s --check-prefix=NOBARRIER
// A TMA store reads shared memory through the async proxy, which does not see the threads'
// (generic proxy) writes unless each writing thread orders them with fence.proxy.async
// and a barrier then orders that fence before the thread that issues the store.
// mode 0 does both and runs clean; planted bugs: mode 1 leaves out the fence: the error
// is at the TMA store and names the store that wrote the bytes (its line, warp and lane)
// and how many of the box's bytes are unfenced; mode 2 fences but leaves out the
// barrier, so warp 1's fence is not ordered before warp 0's TMA store (under seed 0 warp 1
// runs first; where warp 0 does, the store reads bytes warp 1 has not written yet, also a
// finding). wgmma reads its shared operands through the async proxy too (MMA).

kernel store(a: in f32[N], o: out f32[N], mode: i32)
    targets(sm_90a)
    threads(64)
    grid(1)
{
    tensormap to = tma(o, box[64]);
    shared s: f32[64] align(128);
    s[thread.x] = a[thread.x] * 2.0;
    if (mode != 1) {
        fence_proxy_async();
    }
    if (mode != 2) {
        barrier();
    }
    if (warp == 0) {
        elect {
// NOFENCE: proxy-fence.cake:[[@LINE+2]]:13: error: tma.store reads shared memory that a thread wrote without a fence.proxy.async since (the async proxy may not see the write: fence_proxy_async() by the writing threads, then a barrier): 256 of its 256 bytes, the first at byte offset 0 of 's', written by the store at line [[@LINE-9]]:17 (warp 0, lane 0) [block (0,0,0), warp 0, lane 0 (thread (0,0,0))]
// NOBARRIER: proxy-fence.cake:[[@LINE+1]]:13: error: tma.store reads shared memory that a thread wrote without a fence.proxy.async since {{.*}}: 128 of its 256 bytes, the first at byte offset 128 of 's', written by the store at line [[@LINE-10]]:17 (warp 1, lane 0) [block (0,0,0), warp 0, lane 0 (thread (0,0,0))]
            tma_store(to, [0], s);
            tma_store_wait();
        }
    }
}

// RUN: python3 %S/Inputs/npy.py make %t.b.npy '<u2' 64,64 '0x3f80'
// RUN: %builddir/cakec-run --seeds 3 %s mma a=%t.b.npy b=%t.b.npy c=%t.c.npy fence=1
// RUN: %not %builddir/cakec-run %s mma a=%t.b.npy b=%t.b.npy c=%t.c.npy fence=0 2>&1 | FileCheck %s --check-prefix=MMA
kernel mma(a: in bf16[64, 64], b: in bf16[64, 64], c: out f32[64, 64], fence: i32)
    targets(sm_90a)
    threads(128)
{
    shared sa: bf16[64, 64] swizzle(128);
    shared sb: bf16[64, 64] swizzle(128);
    for (i in thread.x .. 4096 step 128) {
        let r = i / 64;
        let k = i % 64;
        let col = (((k >> 3) ^ (r & 7)) << 3) | (k & 7);
        sa[r, col] = a[r, k];
        sb[r, col] = b[r, k];
    }
    if (fence == 1) {
        fence_proxy_async();
    }
    barrier();
    var acc: f32acc[64, 64] = 0.0;
// MMA: proxy-fence.cake:[[@LINE+1]]:11: error: wgmma reads shared memory that a thread wrote without a fence.proxy.async since {{.*}}: at byte offset 0 of 'sa', written by the store at line [[@LINE-8]]:20 (warp 0, lane 0) [block (0,0,0), warp {{[0-3]}}, all its lanes]
    acc = wgmma(acc, sa, sb);
    store(c, acc, [0, 0]);
}

// The other pattern: the threads write, a barrier, then the issuing thread fences (after
// the barrier, its fence covers the writes the barrier made visible to it): clean. Without
// the barrier before it (leader=2) the fence does not cover warp 1's writes.
// RUN: %builddir/cakec-run --seeds 4 %s leader a=%t.a.npy o=%t.o.npy late=1
// RUN: %not %builddir/cakec-run %s leader a=%t.a.npy o=%t.o.npy late=0 2>&1 | FileCheck %s --check-prefix=LEADER
kernel leader(a: in f32[N], o: out f32[N], late: i32)
    targets(sm_90a)
    threads(64)
    grid(1)
{
    tensormap to = tma(o, box[64]);
    shared s: f32[64] align(128);
    s[thread.x] = a[thread.x] * 2.0;
    if (late == 0) {
        if (warp == 0) {
            fence_proxy_async();
        }
    }
    barrier();
    if (warp == 0) {
        elect {
            if (late == 1) {
                fence_proxy_async();
            }
// LEADER: proxy-fence.cake:[[@LINE+1]]:13: error: tma.store reads shared memory that a thread wrote without a fence.proxy.async since {{.*}}: 128 of its 256 bytes, the first at byte offset 128 of 's', written by the store at line [[@LINE-12]]:17 (warp 1, lane 0)
            tma_store(to, [0], s);
            tma_store_wait();
        }
    }
}
