// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py make %t/a.npy '<f2' 64,128 '(i % 509) - 250'
// RUN: %builddir/cakec-run --seeds 3 %s frag_shared a=%t/a.npy o1=%t/o1.npy o2=%t/o2.npy o3=%t/o3.npy o4=%t/o4.npy o5=%t/o5.npy o6=%t/o6.npy o7=%t/o7.npy o8=%t/o8.npy
// RUN: python3 %S/Inputs/frag_shared_check.py %t | FileCheck %s
// store and fragment on shared arrays: TMA's two swizzled panels of a[64, 128] read back
// as one 64 x 128 fragment (o1) and as a transposed tile (o2), a fragment stored into
// swizzled panels and read back (o3), a 1-dimensional shared vector in every row (o4), a
// plain f32 array written and read transposed (o5); paired rows on transposed shared
// tiles (o6: a[:, :64] read transposed with paired rows from the swizzled panels, stored
// back transposed and paired; o7 and o8: that fragment stored paired into a plain f32 array
// and into swizzled bf16 panels, each read back untransposed: both a[:, :64]).
// CHECK: o1: 0 of 8192 wrong
// CHECK: o2: 0 of 4096 wrong
// CHECK: o3: 0 of 8192 wrong
// CHECK: o4: 0 of 4096 wrong
// CHECK: o5: 0 of 4096 wrong
// CHECK: o6: 0 of 4096 wrong
// CHECK: o7: 0 of 4096 wrong
// CHECK: o8: 0 of 4096 wrong
// Planted bug: paired rows on one side only (the fragment read paired, stored unpaired)
// RUN: sed 's/store(o6.T, g, \[0, 0\], paired: true)/store(o6.T, g, [0, 0])/' %s > %t/unpaired.cake
// RUN: %builddir/cakec-run %t/unpaired.cake frag_shared a=%t/a.npy o1=%t/o1.npy o2=%t/o2.npy o3=%t/o3.npy o4=%t/o4.npy o5=%t/o5.npy o6=%t/o6.npy o7=%t/o7.npy o8=%t/o8.npy
// RUN: %not python3 %S/Inputs/frag_shared_check.py %t | FileCheck %s --check-prefix=UNPAIRED
// UNPAIRED: o6: {{[1-9][0-9]*}} of 4096 wrong
// Planted bug: without the barrier, warps read v before the first two warps wrote it.
// RUN: sed 's/    barrier();//' %s > %t/bug.cake
// RUN: %not %builddir/cakec-run %t/bug.cake frag_shared a=%t/a.npy o1=%t/o1.npy o2=%t/o2.npy o3=%t/o3.npy o4=%t/o4.npy o5=%t/o5.npy o6=%t/o6.npy o7=%t/o7.npy o8=%t/o8.npy 2>&1 | FileCheck %s --check-prefix=BUG
// BUG: bug.cake:[[@LINE+37]]:15: error: read of uninitialized shared memory: byte offset 0 (element 0) of shared buffer 'v'
kernel frag_shared(a: in f16[64, 128], o1: out f32[64, 128], o2: out f32[64, 64], o3: out f32[64, 128],
                   o4: out f32[64, 64], o5: out f32[64, 64], o6: out f32[64, 64], o7: out f32[64, 64],
                   o8: out f32[64, 64])
    targets(sm_90a) threads(128) grid(1)
{
    tensormap ta = tma(a, box[64, 64], swizzle(128));
    mbarrier full(count: 1);
    shared sx: f16[128, 64] swizzle(128);
    shared sy: f16[128, 64] swizzle(128);
    shared sp: f32[64, 64];
    shared v: f32[64];
    shared sq: f32[64, 64];
    shared sz: bf16[128, 64] swizzle(128);
    if (warp == 0) {
        elect {
            mbar_expect_tx(full, 16384);
            tma_load(sx, ta, [0, 0], full, part: 0);
            tma_load(sx, ta, [0, 64], full, part: 1);
            mbar_arrive(full);
        }
    }
    mbar_wait(full, 0);
    let f = fragment(sx.rows(0, 64), [0, 0], 128);
    store(o1, f, [0, 0]);
    store(o2, fragment(sx.rows(0, 64).T, [0, 0], 64), [0, 0]);
    store(sy.rows(0, 64), f * 2.0, [0, 0]);
    if (thread.x < 64) {
        v[thread.x] = f32(thread.x);
    }
    store(sp, fragment(sx.rows(0, 64), [0, 64], 64), [0, 0]);
    let g = fragment(sx.rows(0, 64).T, [0, 0], 64, paired: true);
    store(o6.T, g, [0, 0], paired: true);
    store(sq.T, g, [0, 0], paired: true);
    store(sz.rows(0, 64).T, g, [0, 0], paired: true);
    barrier();
    store(o3, fragment(sy.rows(0, 64), [0, 0], 128), [0, 0]);
    store(o4, fragment(v, [0], 64), [0, 0]);
    store(o5, fragment(sp.T, [0, 0], 64), [0, 0]);
    store(o7, fragment(sq, [0, 0], 64), [0, 0]);
    store(o8, fragment(sz.rows(0, 64), [0, 0], 64), [0, 0]);
}
