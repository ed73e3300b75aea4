// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A pipeline's full (empty) barrier counts the arrivals of the threads that run its
// produce (consume) blocks in each phase: empty: warpgroup * 2 needs 256 consuming threads;
// full: tma one elected thread; a produce block that no tma_load feeds never completes. The
// schedule-check pass counts the threads on the IR and reports at the first block.

kernel k(a: in bf16[M, K]) targets(sm_90a) threads(384) {
    tensormap ta = tma(a, box[64, 64], swizzle(128));
    pipeline ld(stages: 4, full: tma, empty: warpgroup * 2);
    shared sa: bf16[64, 64] in ld swizzle(128);
    role producer(warpgroup 0) {
        elect {
            produce ld {
                tma_load(sa, ta, [0, 0]);
            }
        }
    }
    role consumer(warpgroups 1 .. 1) {
        consume ld { }
    }
}

// Conditions on warp and lane narrow the threads: the consume blocks below run in 3 warps.
kernel counted(a: in bf16[M, K]) targets(sm_90a) threads(384) {
    tensormap ta = tma(a, box[64, 64], swizzle(128));
    pipeline ld(stages: 4, full: tma, empty: warp * 3);
    shared sa: bf16[64, 64] in ld swizzle(128);
    role producer(warpgroup 0) {
        if (warp == 1 && lane == 0) {
            produce ld {
                tma_load(sa, ta, [0, 0]);
            }
        }
    }
    role consumer(warpgroups 1 .. 1) {
        if (warp >= 5) {
            consume ld { }
        }
    }
    role idle(warps 8 .. 8) {
        produce ld { }
    }
}

// CHECK: err-hopper-arrivals.cake:13:13: error: pipeline 'ld': its full barrier 'ld.full' counts 1 arrival per phase (tma * 1) but 4 threads (warps 0 .. 3) run its produce blocks
// CHECK-NEXT: {{^}}            produce ld {
// CHECK-NEXT: {{^}}            ^
// CHECK: err-hopper-arrivals.cake:9:14: note: pipeline 'ld' is declared here
// CHECK-NEXT: {{^}}    pipeline ld(stages: 4, full: tma, empty: warpgroup * 2);
// CHECK-NEXT: {{^}}             ^
// CHECK: err-hopper-arrivals.cake:19:9: error: pipeline 'ld': its empty barrier 'ld.empty' counts 256 arrivals per phase (warpgroup * 2) but 128 threads (warps 4 .. 7) run its consume blocks
// CHECK-NEXT: {{^}}        consume ld { }
// CHECK-NEXT: {{^}}        ^
// CHECK: err-hopper-arrivals.cake:9:14: note: pipeline 'ld' is declared here
// CHECK-NEXT: {{^}}    pipeline ld(stages: 4, full: tma, empty: warpgroup * 2);
// CHECK-NEXT: {{^}}             ^
// CHECK: err-hopper-arrivals.cake:30:13: error: pipeline 'ld': its full barrier 'ld.full' counts 1 arrival per phase (tma * 1) but 33 threads (2 warps between 1 and 8) run its produce blocks
// CHECK-NEXT: {{^}}            produce ld {
// CHECK-NEXT: {{^}}            ^
// CHECK: err-hopper-arrivals.cake:26:14: note: pipeline 'ld' is declared here
// CHECK-NEXT: {{^}}    pipeline ld(stages: 4, full: tma, empty: warp * 3);
// CHECK-NEXT: {{^}}             ^
// CHECK: err-hopper-arrivals.cake:41:9: error: produce block of pipeline 'ld' issues no TMA load on its full barrier 'ld.full', whose source is tma: the stage would be marked full without data
// CHECK-NEXT: {{^}}        produce ld { }
// CHECK-NEXT: {{^}}        ^
