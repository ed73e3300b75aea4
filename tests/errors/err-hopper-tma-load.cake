// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// tma_load: the box's bytes and swizzle match the destination buffer (one stage), a barrier
// outside produce blocks and none inside, in a produce block of the buffer's pipeline (whose
// full source is tma: the verifier's rule, err-hopper-region-rules.cake); the tensor is readable, the coordinates one per dimension. tma_store
// writes a writable tensor. (Issue by one thread and loads at the top of a produce block
// are schedule rules: err-hopper-tma-issue.cake; that multicast needs a cluster is the
// verifier's: err-hopper-cluster-rules.cake.)

kernel k(a: in bf16[M, K], o: out bf16[M, K]) targets(sm_90a) threads(256) {
    tensormap ta = tma(a, box[64, 64], swizzle(128));
    tensormap tn = tma(a, box[64, 64]);
    tensormap to = tma(o, box[64, 64], swizzle(128));
    pipeline ld(stages: 2, full: tma, empty: warpgroup);
    mbarrier bar(count: 1);
    shared sa: bf16[64, 64] in ld swizzle(128);
    shared sx: bf16[64, 64] swizzle(128);
    shared sy: bf16[32, 64] swizzle(128);
    shared sf: f32[64, 32] swizzle(128);
    elect {
        tma_load(sx, ta, [0, 0]);
        tma_load(sy, ta, [0, 0], bar);
        tma_load(sx, tn, [0, 0], bar);
        tma_load(sf, ta, [0, 0], bar);
        tma_load(sx, to, [0, 0], bar);
        tma_load(sx, ta, [0], bar);
        tma_load(sx, ta, [0, 0], bar, mask: 3);
        tma_load(sx, ta, 0, bar);
        tma_store(ta, [0, 0], sx);
    }
    role p(warpgroup 0) {
        if (warp == 0) {
            elect {
                produce ld {
                    tma_load(sa, ta, [0, 0], bar);
                    tma_load(sx, ta, [0, 0]);
                    tma_load(sa, ta, [0, 0]);
                }
            }
        }
    }
    role c(warpgroup 1) {
        consume ld { }
    }
}

// CHECK: err-hopper-tma-load.cake:20:9: error: tma_load outside a produce block needs an mbarrier to signal: tma_load(buf, map, [coords], bar)
// CHECK-NEXT: {{^}}        tma_load(sx, ta, [0, 0]);
// CHECK-NEXT: {{^}}        ^
// CHECK: err-hopper-tma-load.cake:21:9: error: tma_load: the box of tensor map 'ta' is 8192 bytes but shared array 'sy' is 4096 bytes
// CHECK-NEXT: {{^}}        tma_load(sy, ta, [0, 0], bar);
// CHECK-NEXT: {{^}}        ^
// CHECK: err-hopper-tma-load.cake:22:9: error: tma_load: tensor map 'tn' has swizzle 0 but shared array 'sx' has swizzle 128
// CHECK-NEXT: {{^}}        tma_load(sx, tn, [0, 0], bar);
// CHECK-NEXT: {{^}}        ^
// CHECK: err-hopper-tma-load.cake:23:9: error: tma_load: tensor map 'ta' holds bf16 elements but shared array 'sf' holds f32
// CHECK-NEXT: {{^}}        tma_load(sf, ta, [0, 0], bar);
// CHECK-NEXT: {{^}}        ^
// CHECK: err-hopper-tma-load.cake:24:22: error: tma_load reads tensor 'o' through 'to', but it is an 'out' tensor
// CHECK-NEXT: {{^}}        tma_load(sx, to, [0, 0], bar);
// CHECK-NEXT: {{^}}                     ^
// CHECK: err-hopper-tma-load.cake:25:26: error: tma_load needs 2 coordinates (the tensor map's rank), found 1
// CHECK-NEXT: {{^}}        tma_load(sx, ta, [0], bar);
// CHECK-NEXT: {{^}}                         ^
// CHECK: err-hopper-tma-load.cake:26:39: error: 'tma_load' takes the named arguments 'multicast:' and 'part:' last, found 'mask:'
// CHECK-NEXT: {{^}}        tma_load(sx, ta, [0, 0], bar, mask: 3);
// CHECK-NEXT: {{^}}                                      ^
// CHECK: err-hopper-tma-load.cake:27:26: error: tma_load takes the coordinates as a list, as in [row, col]
// CHECK-NEXT: {{^}}        tma_load(sx, ta, 0, bar);
// CHECK-NEXT: {{^}}                         ^
// CHECK: err-hopper-tma-load.cake:28:19: error: tma_store writes tensor 'a' through 'ta', but it is an 'in' tensor
// CHECK-NEXT: {{^}}        tma_store(ta, [0, 0], sx);
// CHECK-NEXT: {{^}}                  ^
// CHECK: err-hopper-tma-load.cake:34:46: error: inside a produce block, tma_load signals the pipeline's full barrier: remove the barrier argument
// CHECK-NEXT: {{^}}                    tma_load(sa, ta, [0, 0], bar);
// CHECK-NEXT: {{^}}                                             ^
// CHECK: err-hopper-tma-load.cake:35:30: error: tma_load in a produce block of pipeline 'ld' loads into 'sx', which is not a buffer of 'ld' (declare it 'in ld')
// CHECK-NEXT: {{^}}                    tma_load(sx, ta, [0, 0]);
// CHECK-NEXT: {{^}}                             ^
