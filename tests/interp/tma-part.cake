// RUN: python3 %S/Inputs/npy.py make %t.a.npy '<f4' 128 'i'
// RUN: %builddir/cakec-run --seeds 4 %s parts a=%t.a.npy out=%t.o.npy nbytes=256
// Clusters of 2 CTAs fill one buffer together: CTA r loads part r of s (a[32 r .. + 31],
// box [32] of s: f32[64]) and multicasts it to both CTAs, whose barriers expect both
// parts (256 bytes). Every block stores its whole s: out is a[0 .. 64) in every block.
// RUN: python3 %S/Inputs/npy.py print %t.o.npy | FileCheck %s --check-prefix=OUT
// OUT: shape (256,)
// OUT-NEXT: {{^}}0{{$}}
// OUT-NEXT: {{^}}1{{$}}
// OUT: {{^}}31{{$}}
// OUT-NEXT: {{^}}32{{$}}
// OUT: {{^}}63{{$}}
// OUT-NEXT: {{^}}0{{$}}
// OUT: {{^}}63{{$}}
// OUT-NEXT: {{^}}0{{$}}
// Planted bug: both CTAs load part 0, so part 1 is never written and the second load
// lands on bytes the first still writes.
// RUN: sed 's/part: r);/part: 0);/' %s > %t.bug.cake
// RUN: %not %builddir/cakec-run %t.bug.cake parts a=%t.a.npy out=%t.o.npy nbytes=256 2>&1 | FileCheck %s --check-prefix=BUG
// BUG: bug.cake:[[@LINE+21]]:9: error: TMA load into shared memory that the TMA load at line [[@LINE+21]]:9 still writes (in flight)
// Planted bug: the barriers expect one part (128 bytes of the 256 that land): the wait
// passes before the other part has landed.
// RUN: %not %builddir/cakec-run %s parts a=%t.a.npy out=%t.o.npy nbytes=128 2>&1 | FileCheck %s --check-prefix=BYTES
// BYTES: tma-part.cake:[[@LINE+21]]:42: error: read of shared memory that an asynchronous copy in flight will write
kernel parts(a: in f32[128], out: out f32[256], nbytes: i32)
    targets(sm_90a)
    threads(32)
    cluster(2)
    grid(4)
{
    tensormap ta = tma(a, box[32]);
    mbarrier full(count: 1);
    shared s: f32[64] align(128);
    let r = cluster_rank;
    elect {
        mbar_expect_tx(full, nbytes);
        mbar_arrive(full);
    }
    cluster_sync();
    elect {
        tma_load(s, ta, [32 * r], full, multicast: 3, part: r);
    }
    mbar_wait(full, 0);
    out[block.x * 64 + thread.x] = s[thread.x];
    out[block.x * 64 + 32 + thread.x] = s[32 + thread.x];
    cluster_sync();
}
