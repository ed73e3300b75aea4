// RUN: python3 %S/Inputs/npy.py make %t.a.npy '<f4' 64 'i'
// RUN: %builddir/cakec-run --seeds 4 %s clustered a=%t.a.npy out=%t.o.npy ranks=%t.r.npy nbytes=128
// Clusters of 2 CTAs run together: rank 0 multicasts a[32 .. 64) into both CTAs (each
// arms its own mbarrier; the bytes may land before the other CTA expects them), each CTA
// writes twice the box into the other CTA's t (distributed shared memory), and after the
// cluster barrier each stores its own t: out is 2 a[32 + i] in every block.
// RUN: python3 %S/Inputs/npy.py print %t.o.npy | FileCheck %s --check-prefix=OUT
// OUT: shape (128,)
// OUT-NEXT: {{^}}64{{$}}
// OUT-NEXT: {{^}}66{{$}}
// RUN: python3 %S/Inputs/npy.py print %t.r.npy | FileCheck %s --check-prefix=RANKS
// RANKS: shape (4,)
// RANKS-NEXT: {{^}}0{{$}}
// RANKS-NEXT: {{^}}1{{$}}
// RANKS-NEXT: {{^}}0{{$}}
// RANKS-NEXT: {{^}}1{{$}}
// Planted bug: rank 1 reads the other CTA's writes without the cluster barrier.
// RUN: sed 's/^    cluster_sync();$//' %s > %t.bug.cake
// RUN: %not %builddir/cakec-run %t.bug.cake clustered a=%t.a.npy out=%t.o.npy ranks=%t.r.npy nbytes=128 2>&1 | FileCheck %s --check-prefix=BUG
// BUG: bug.cake:[[@LINE+25]]:37: error: read of uninitialized shared memory: byte offset 0 (element 0) of shared buffer 't' (32 elements of 4 bytes), which no thread of the block wrote [block (0,0,0), warp 0, lane 0 (thread (0,0,0))]
// Planted bug: the CTAs expect 64 bytes of the 128 the multicast load brings.
// RUN: %not %builddir/cakec-run %s clustered a=%t.a.npy out=%t.o.npy ranks=%t.r.npy nbytes=64 2>&1 | FileCheck %s --check-prefix=BYTES
// BYTES: cluster.cake:[[@LINE+16]]:13: error: the complete-tx of a TMA load of 128 bytes takes the tx-count of mbarrier 'full'[0] below zero (to -64)
kernel clustered(a: in f32[64], out: out f32[128], ranks: out i32[4], nbytes: i32)
    targets(sm_90a)
    threads(32)
    cluster(2)
    grid(4)
{
    tensormap ta = tma(a, box[32]);
    mbarrier full(count: 1);
    shared s: f32[32] align(128);
    shared t: f32[32];
    let r = cluster_rank;
    elect {
        mbar_expect_tx(full, nbytes);
        mbar_arrive(full);
        if (r == 0) {
            tma_load(s, ta, [32], full, multicast: 3);
        }
    }
    mbar_wait(full, 0);
    remote(t, r ^ 1)[thread.x] = s[thread.x] * 2.0;
    cluster_sync();
    out[block.x * 32 + thread.x] = t[thread.x];
    if (thread.x == 0) {
        ranks[block.x] = r;
    }
}
