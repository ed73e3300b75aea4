// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// pipeline NAME(stages: N, full: SOURCE, empty: SOURCE) with SOURCE tma (full only), thread,
// warp or warpgroup, optionally times a count; mbarrier NAME(count: N); shared arrays in a
// pipeline, swizzled (none, 32, 64, 128) or aliasing an earlier array that is not an alias;
// produce/consume name a pipeline; a staged array is used in a block of its pipeline. (That
// blocks of one pipeline do not nest is the verifier's rule: err-hopper-region-rules.cake.)

kernel k(a: in bf16[M, K]) targets(sm_90a) threads(128) {
    pipeline p1(stages: 2, full: tma);
    pipeline p2(stages: 0, full: tma, empty: warp);
    pipeline p3(stages: 2, full: tma, empty: tma);
    pipeline p4(stages: 2, full: block, empty: warp);
    pipeline p5(stages 2, full: tma, empty: warp);
    pipeline p6(stages: 2, full: tma, empty: warp, depth: 3);
    pipeline p7(stages: 2, full: thread, empty: warp * 0);
    mbarrier b1(count: 0);
    mbarrier b2(n: 1);
    mbarrier b3(count: 1);
    pipeline ld(stages: 2, full: thread, empty: warpgroup);
    shared s1: f32[16] in b3;
    shared s2: f32[16] swizzle(12);
    shared s3: f32[16] in ld;
    shared s4: f32[16] alias(s3);
    shared s5: f32[16] alias(s4);
    shared s6: f32[16] alias(later);
    shared s7: f32[16] in ld alias(s2);
    s3[0] = 1.0;
    role r(warpgroup 0) {
        produce q { }
        consume b3 { }
    }
    shared later: f32[16];
}

// CHECK: err-hopper-decls.cake:9:14: error: pipeline 'p1' needs 'empty:' (pipeline p1(stages: N, full: SOURCE, empty: SOURCE))
// CHECK-NEXT: {{^}}    pipeline p1(stages: 2, full: tma);
// CHECK-NEXT: {{^}}             ^
// CHECK: err-hopper-decls.cake:10:25: error: the number of stages must be from 1 to 32, found 0
// CHECK-NEXT: {{^}}    pipeline p2(stages: 0, full: tma, empty: warp);
// CHECK-NEXT: {{^}}                        ^
// CHECK: err-hopper-decls.cake:11:46: error: TMA completes only a full barrier; the empty source of pipeline 'p3' is thread, warp, warpgroup or mma
// CHECK-NEXT: {{^}}    pipeline p3(stages: 2, full: tma, empty: tma);
// CHECK-NEXT: {{^}}                                             ^
// CHECK: err-hopper-decls.cake:12:34: error: the full source of pipeline 'p4' is tma, thread, warp, warpgroup or mma, optionally times a count (warpgroup * 2)
// CHECK-NEXT: {{^}}    pipeline p4(stages: 2, full: block, empty: warp);
// CHECK-NEXT: {{^}}                                 ^
// CHECK: err-hopper-decls.cake:13:17: error: pipeline takes named arguments: pipeline p5(stages: N, full: SOURCE, empty: SOURCE)
// CHECK-NEXT: {{^}}    pipeline p5(stages 2, full: tma, empty: warp);
// CHECK-NEXT: {{^}}                ^
// CHECK: err-hopper-decls.cake:14:52: error: pipeline takes stages:, full: and empty:, found 'depth:'
// CHECK-NEXT: {{^}}    pipeline p6(stages: 2, full: tma, empty: warp, depth: 3);
// CHECK-NEXT: {{^}}                                                   ^
// CHECK: err-hopper-decls.cake:15:56: error: the arrival multiplier must be from 1 to 1048575, found 0
// CHECK-NEXT: {{^}}    pipeline p7(stages: 2, full: thread, empty: warp * 0);
// CHECK-NEXT: {{^}}                                                       ^
// CHECK: err-hopper-decls.cake:16:24: error: the arrival count must be from 1 to 1048575, found 0
// CHECK-NEXT: {{^}}    mbarrier b1(count: 0);
// CHECK-NEXT: {{^}}                       ^
// CHECK: err-hopper-decls.cake:17:14: error: mbarrier takes its arrival count: mbarrier b2(count: N)
// CHECK-NEXT: {{^}}    mbarrier b2(n: 1);
// CHECK-NEXT: {{^}}             ^
// CHECK: err-hopper-decls.cake:20:27: error: 'in' takes a pipeline, but 'b3' is an mbarrier
// CHECK-NEXT: {{^}}    shared s1: f32[16] in b3;
// CHECK-NEXT: {{^}}                          ^
// CHECK: err-hopper-decls.cake:21:32: error: swizzle must be none, 32, 64 or 128 (bytes), found 12
// CHECK-NEXT: {{^}}    shared s2: f32[16] swizzle(12);
// CHECK-NEXT: {{^}}                               ^
// CHECK: err-hopper-decls.cake:24:30: error: 's4' is an alias of 's3'; write alias(s3)
// CHECK-NEXT: {{^}}    shared s5: f32[16] alias(s4);
// CHECK-NEXT: {{^}}                             ^
// CHECK: err-hopper-decls.cake:25:30: error: undefined name 'later'
// CHECK-NEXT: {{^}}    shared s6: f32[16] alias(later);
// CHECK-NEXT: {{^}}                             ^
// CHECK: err-hopper-decls.cake:26:5: error: shared array 's7' cannot both be in a pipeline and alias 's2'
// CHECK-NEXT: {{^}}    shared s7: f32[16] in ld alias(s2);
// CHECK-NEXT: {{^}}    ^
// CHECK: err-hopper-decls.cake:27:5: error: shared array 's3' is staged in pipeline 'ld': use it inside a produce or consume block of 'ld', which selects the stage
// CHECK-NEXT: {{^}}    s3[0] = 1.0;
// CHECK-NEXT: {{^}}    ^
// CHECK: err-hopper-decls.cake:29:17: error: produce of an undeclared pipeline 'q'
// CHECK-NEXT: {{^}}        produce q { }
// CHECK-NEXT: {{^}}                ^
// CHECK: err-hopper-decls.cake:30:17: error: consume takes a pipeline, but 'b3' is an mbarrier
// CHECK-NEXT: {{^}}        consume b3 { }
// CHECK-NEXT: {{^}}                ^
