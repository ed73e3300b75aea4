// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A multicast tma_load in a produce block writes into the stages of other CTAs of the
// cluster: a stage may be refilled only once it is free in each of them. cakec releases a
// stage in every CTA of the cluster for an `empty: mma` side (each commit multicast to the
// whole cluster, the barrier counting every MMA issuer: it derives that from the
// multicast); a thread, warp or warpgroup empty side releases in its own CTA only, so
// multicast loads in its produce blocks are an error, not a race.

kernel k(a: in bf16[M, K]) targets(sm_90a) threads(256) cluster(2) {
    tensormap ta = tma(a, box[32, 64], swizzle(128));
    pipeline ld(stages: 2, full: tma, empty: warpgroup);
    shared sa: bf16[64, 64] in ld swizzle(128);
    role p(warp 0) {
        elect {
            produce ld {
                tma_load(sa, ta, [cluster_rank * 32, 0], multicast: 3, part: cluster_rank);
            }
        }
    }
    role c(warpgroup 1) {
        consume ld { }
    }
}

// CHECK: err-multicast-release.cake:16:17: error: tma.load.mc in a produce block of pipeline 'ld' writes into the stages of other CTAs of the cluster, which must be free there before it is refilled, but its empty side (warpgroup) releases a stage in its own CTA only; a release in every CTA of the cluster takes an empty side of mma (tcgen05.commit to every CTA, sm_100a and sm_103a)
// CHECK-NEXT: {{^}}                tma_load(sa, ta, [cluster_rank * 32, 0], multicast: 3, part: cluster_rank);
// CHECK-NEXT: {{^}}                ^
