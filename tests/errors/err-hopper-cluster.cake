// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A cluster has at most 8 CTAs; cluster_sync needs one (without one it would be a plain
// barrier in the IR); min_blocks is 1 to 32. (That remote and multicast need a cluster is the
// verifier's rule: err-hopper-cluster-rules.cake.)

kernel big(a: in f32[N]) targets(sm_90a) threads(128) cluster(4, 4) min_blocks(64) {
}

kernel none(a: in bf16[M, K]) targets(sm_90a) threads(128) {
    tensormap ta = tma(a, box[16, 16]);
    mbarrier m(count: 1);
    shared s: bf16[16, 16];
    cluster_sync();
}

kernel odd(a: in f32[N]) targets(sm_90a) threads(128) cluster(0) {
}

// CHECK: err-hopper-cluster.cake:6:55: error: cluster(4, 4, 1) makes 16 CTAs; at most 8 are allowed (16 needs a non-portable opt-in, not supported)
// CHECK-NEXT: {{^}}kernel big(a: in f32[N]) targets(sm_90a) threads(128) cluster(4, 4) min_blocks(64) {
// CHECK-NEXT: {{^}}                                                      ^
// CHECK: err-hopper-cluster.cake:6:80: error: min_blocks must be from 1 to 32, found 64
// CHECK-NEXT: {{^}}kernel big(a: in f32[N]) targets(sm_90a) threads(128) cluster(4, 4) min_blocks(64) {
// CHECK-NEXT: {{^}}                                                                               ^
// CHECK: err-hopper-cluster.cake:13:5: error: cluster_sync() synchronizes the CTAs of a cluster, but kernel 'none' has no cluster (cluster(1)); use barrier()
// CHECK-NEXT: {{^}}    cluster_sync();
// CHECK-NEXT: {{^}}    ^
// CHECK: err-hopper-cluster.cake:16:63: error: the cluster size in x must be from 1 to 8, found 0
// CHECK-NEXT: {{^}}kernel odd(a: in f32[N]) targets(sm_90a) threads(128) cluster(0) {
// CHECK-NEXT: {{^}}                                                              ^
