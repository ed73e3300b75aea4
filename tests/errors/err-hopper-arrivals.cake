// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A pipeline's full (empty) barrier counts the arrivals of the threads that run its
// produce (consume) blocks in each phase: empty: warpgroup * 2 needs 256 consuming threads;
// full: tma one elected thread; a produce block that no tma_load feeds never completes.

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

// CHECK: err-hopper-arrivals.cake:8:14: error: pipeline 'ld': its full barrier expects 1 arrival per phase (tma * 1), but its produce blocks are run by 4 threads
// CHECK-NEXT: {{^}}    pipeline ld(stages: 4, full: tma, empty: warpgroup * 2);
// CHECK-NEXT: {{^}}             ^
// CHECK: err-hopper-arrivals.cake:12:13: note: in role 'producer' (warps 0 .. 3), 4 threads run this produce block
// CHECK-NEXT: {{^}}            produce ld {
// CHECK-NEXT: {{^}}            ^
// CHECK: err-hopper-arrivals.cake:8:14: error: pipeline 'ld': its empty barrier expects 256 arrivals per phase (warpgroup * 2), but its consume blocks are run by 128 threads
// CHECK-NEXT: {{^}}    pipeline ld(stages: 4, full: tma, empty: warpgroup * 2);
// CHECK-NEXT: {{^}}             ^
// CHECK: err-hopper-arrivals.cake:18:9: note: in role 'consumer' (warps 4 .. 7), 128 threads run this consume block
// CHECK-NEXT: {{^}}        consume ld { }
// CHECK-NEXT: {{^}}        ^
// CHECK: err-hopper-arrivals.cake:40:9: error: produce block of pipeline 'ld' issues no tma_load, but its full barrier waits for TMA bytes (full: tma)
// CHECK-NEXT: {{^}}        produce ld { }
// CHECK-NEXT: {{^}}        ^
// CHECK: err-hopper-arrivals.cake:25:14: error: pipeline 'ld': its full barrier expects 1 arrival per phase (tma * 1), but its produce blocks are run by 33 threads
// CHECK-NEXT: {{^}}    pipeline ld(stages: 4, full: tma, empty: warp * 3);
// CHECK-NEXT: {{^}}             ^
// CHECK: err-hopper-arrivals.cake:29:13: note: in role 'producer' (warps 0 .. 3), 1 thread runs this produce block
// CHECK-NEXT: {{^}}            produce ld {
// CHECK-NEXT: {{^}}            ^
// CHECK: err-hopper-arrivals.cake:40:9: note: in role 'idle' (warps 8 .. 8), 32 threads run this produce block
// CHECK-NEXT: {{^}}        produce ld { }
// CHECK-NEXT: {{^}}        ^
