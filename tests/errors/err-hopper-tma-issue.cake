// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A TMA copy is issued by one thread of a warp (in an elect block, or under a condition
// such as lane == 0 that leaves one): every other thread would issue its own copy. In a
// produce block, tma_load is a statement at the top of the block, where the bytes its full
// barrier expects are counted. The schedule-check pass judges both on the IR, so the
// kernel has no frontend error.

kernel k(a: in bf16[M, K], o: out bf16[M, K]) targets(sm_90a) threads(256) {
    tensormap ta = tma(a, box[64, 64], swizzle(128));
    tensormap to = tma(o, box[64, 64], swizzle(128));
    pipeline ld(stages: 2, full: tma, empty: warpgroup);
    mbarrier bar(count: 1);
    shared sa: bf16[64, 64] in ld swizzle(128);
    shared sx: bf16[64, 64] swizzle(128);
    tma_load(sx, ta, [0, 0], bar);
    if (lane == 0) {
        tma_store(to, [0, 0], sx);
    }
    if (thread.x % 2 == 0) {
        tma_store(to, [0, 0], sx);
    }
    role p(warpgroup 0) {
        if (warp == 0) {
            elect {
                produce ld {
                    tma_load(sa, ta, [0, 0]);
                    if (block.x == 0) {
                        tma_load(sa, ta, [64, 0]);
                    }
                }
            }
        }
    }
    role c(warpgroup 1) {
        consume ld { }
    }
}

// CHECK: err-hopper-tma-issue.cake:15:5: error: tma.load is issued by 32 threads of warp 0 (it is not in an elect block): each thread would issue its own copy; issue TMA from one elected thread
// CHECK-NEXT: {{^}}    tma_load(sx, ta, [0, 0], bar);
// CHECK-NEXT: {{^}}    ^
// CHECK: err-hopper-tma-issue.cake:20:9: error: tma.store is issued by 16 threads of warp 0 (it is not in an elect block): each thread would issue its own copy; issue TMA from one elected thread
// CHECK-NEXT: {{^}}        tma_store(to, [0, 0], sx);
// CHECK-NEXT: {{^}}        ^
// CHECK: err-hopper-tma-issue.cake:28:25: error: tma.load inside control flow in a produce block of pipeline 'ld': the bytes its full barrier expects must be known, so TMA loads go at the top of the block
// CHECK-NEXT: {{^}}                        tma_load(sa, ta, [64, 0]);
// CHECK-NEXT: {{^}}                        ^
