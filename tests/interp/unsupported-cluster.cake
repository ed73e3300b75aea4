// RUN: %not %builddir/cakec-run %s clustered out=%t.npy 2>&1 | FileCheck %s
// Clusters are not modelled yet: a kernel with one stops before it runs.
// CHECK: unsupported-cluster.cake: error: not yet supported by the interpreter: clusters (kernel 'clustered')
kernel clustered(out: out f32[64])
    targets(sm_90a)
    threads(32)
    cluster(2)
    grid(2)
{
    cluster_sync();
    out[block.x * 32 + thread.x] = 1.0;
}
