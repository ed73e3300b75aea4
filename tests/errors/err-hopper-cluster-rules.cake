// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// remote(buf, rank) and tma_load's multicast reach the CTAs of a cluster: the kernel needs
// one, and a constant rank or mask must name its CTAs. The verifier owns these rules (on
// mapa and tma.load.mc); on .cake input they are user errors at the user's line.

kernel none(a: in bf16[M, K]) targets(sm_90a) threads(128) {
    tensormap ta = tma(a, box[16, 16]);
    mbarrier m(count: 1);
    shared s: bf16[16, 16];
    let v = remote(s, 0)[0, 0];
    elect {
        tma_load(s, ta, [0, 0], m, multicast: 1);
    }
}

kernel two(a: in bf16[M, K]) targets(sm_90a) threads(128) cluster(2) {
    tensormap ta = tma(a, box[16, 16]);
    mbarrier m(count: 1);
    shared s: bf16[16, 16];
    let v = remote(s, 5)[0, 0];
    elect {
        tma_load(s, ta, [0, 0], m, multicast: 7);
    }
}

// CHECK: err-hopper-cluster-rules.cake:10:13: error: mapa reaches the CTAs of a cluster, but kernel 'none' has no cluster (a cluster of 1 CTA)
// CHECK-NEXT: {{^}}    let v = remote(s, 0)[0, 0];
// CHECK-NEXT: {{^}}            ^
// CHECK: err-hopper-cluster-rules.cake:12:9: error: tma.load.mc reaches the CTAs of a cluster, but kernel 'none' has no cluster (a cluster of 1 CTA)
// CHECK-NEXT: {{^}}        tma_load(s, ta, [0, 0], m, multicast: 1);
// CHECK-NEXT: {{^}}        ^
// CHECK: err-hopper-cluster-rules.cake:20:13: error: mapa: the CTA rank in the cluster is 5, expected 0 to 1
// CHECK-NEXT: {{^}}    let v = remote(s, 5)[0, 0];
// CHECK-NEXT: {{^}}            ^
// CHECK: err-hopper-cluster-rules.cake:22:9: error: tma.load.mc: the multicast mask (CTAs of the cluster) is 7, expected 1 to 3
// CHECK-NEXT: {{^}}        tma_load(s, ta, [0, 0], m, multicast: 7);
// CHECK-NEXT: {{^}}        ^
