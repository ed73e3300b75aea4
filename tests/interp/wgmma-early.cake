// RUN: python3 %S/Inputs/npy.py make %t.a.npy '<u2' 64,64 '0x3f80'
// RUN: %not %builddir/cakec-run --no-uninit-check --seeds 3 %s early_mma a=%t.a.npy b=%t.a.npy c=%t.c.npy 2>&1 | FileCheck %s
// Planted bug: the warpgroup's wgmma reads the tiles before waiting for the mbarrier that
// the TMA loads complete: warp 0, whose lane issued them, reads them in flight.
// CHECK: wgmma-early.cake:[[@LINE+19]]:11: error: wgmma reads shared memory that an asynchronous copy in flight will write (wait for it first: its mbarrier, or cp.async.wait): byte offset 0 of 'sa' [block (0,0,0), warp 0, all its lanes]
kernel early_mma(a: in bf16[64, 64], b: in bf16[64, 64], c: out f32[64, 64])
    targets(sm_90a)
    threads(128)
{
    tensormap ta = tma(a, box[64, 64], swizzle(128));
    tensormap tb = tma(b, box[64, 64], swizzle(128));
    mbarrier full(count: 1);
    shared sa: bf16[64, 64] swizzle(128);
    shared sb: bf16[64, 64] swizzle(128);
    if (warp == 0) {
        elect {
            mbar_expect_tx(full, 16384);
            tma_load(sa, ta, [0, 0], full);
            tma_load(sb, tb, [0, 0], full);
            mbar_arrive(full);
        }
    }
    var acc: f32acc[64, 64] = 0.0;
    acc = wgmma(acc, sa, sb);
    mbar_wait(full, 0);
    store(c, acc, [0, 0]);
}
