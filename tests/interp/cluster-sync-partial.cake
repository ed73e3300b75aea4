// RUN: %not %builddir/cakec-run %s partial out=%t.npy skip=1 2>&1 | FileCheck %s
// Planted bug: the CTA whose block index is `skip` leaves without the cluster barrier, so
// the other CTA of its cluster waits there alone.
// CHECK: cluster-sync-partial.cake:[[@LINE+9]]:9: error: cluster barrier reached by only part of the cluster: 1 of its 2 warps wait here, 1 finished [block (0,0,0), warp 0, all its lanes]
kernel partial(out: out f32[64], skip: i32)
    targets(sm_90a)
    threads(32)
    cluster(2)
    grid(2)
{
    out[block.x * 32 + thread.x] = 1.0;
    if (block.x != skip) {
        cluster_sync();
    }
}
