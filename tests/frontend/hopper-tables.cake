// The Hopper declarations become kernel tables: min_blocks, cluster, num_sms in the grid,
// tensor-map parameters after the shape symbols (box, swizzle, oob fill), a pipeline's
// full and empty barriers (one per stage, counts from their sources) before the raw
// mbarriers in declaration order, and staged (in a pipeline), swizzled (alignment 8 rows of
// the swizzle span) and aliased shared buffers. Thread 0 initialises every barrier at
// entry, then fence.mbar_init and, with a cluster, cluster.sync.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s

const STAGES: i32 = 3;

kernel tables(a: in bf16[M, K], b: in f16[N, K], o: out bf16[M, N])
    targets(sm_90a)
    threads(256)
    min_blocks(1)
    cluster(2)
    grid(min(num_sms, cdiv(M, 64)))
{
    tensormap ta = tma(a, box[64, 64], swizzle(128));
    tensormap tb = tma(b, box[32, 16], swizzle(32), oob(nan));
    tensormap to = tma(o, box[64, 32]);
    pipeline ld(stages: STAGES, full: tma, empty: warp * 4);
    mbarrier done(count: 32);
    shared sa: bf16[64, 64] in ld swizzle(128);
    shared sb: f16[32, 16] in ld swizzle(32);
    shared so: bf16[64, 32] align(256);
    shared sc: bf16[32, 32] alias(so);
}

// CHECK-LABEL: kernel @tables {
// CHECK:        grid "min(num_sms, cdiv(M, 64))" "1" "1"
// CHECK-NEXT:   cluster 2 1 1
// CHECK-NEXT:   min_blocks 1
// CHECK:        param N : sym
// CHECK-NEXT:   param ta : tmap a box [64, 64] swizzle 128 oob zero !18:15
// CHECK-NEXT:   param tb : tmap b box [32, 16] swizzle 32 oob nan !19:15
// CHECK-NEXT:   param to : tmap o box [64, 32] swizzle 0 oob zero !20:15
// CHECK-NEXT:   mbarrier "ld.full" count 1 n 3 !21:14
// CHECK-NEXT:   mbarrier "ld.empty" count 128 n 3 !21:14
// CHECK-NEXT:   mbarrier done count 32 !22:14
// CHECK-NEXT:   pipeline ld stages 3 full "ld.full" tma 1 empty "ld.empty" warp 4 !21:14
// CHECK-NEXT:   shared sa : bf16 [64, 64] align 1024 stages 3 pipeline ld swizzle 128 !23:5
// CHECK-NEXT:   shared sb : f16 [32, 16] align 256 stages 3 pipeline ld swizzle 32 !24:5
// CHECK-NEXT:   shared so : bf16 [64, 32] align 256 !25:5
// CHECK-NEXT:   shared sc : bf16 [32, 32] align 16 alias so !26:5
// CHECK-NEXT:   body(%1: ptr.global.bf16, %2: ptr.global.f16, %3: ptr.global.bf16, %4: i32, %5: i32, %6: i32, %7: tmap, %8: tmap, %9: tmap) {
// CHECK-NEXT:     [[Z:%[0-9]+]] = const 0 : i32
// CHECK-NEXT:     [[T:%[0-9]+]] = tid.x : i32
// CHECK-NEXT:     [[C:%[0-9]+]] = cmp.eq [[T]], [[Z]] : i1
// CHECK-NEXT:     if [[C]] {
// CHECK-NEXT:       [[E0:%[0-9]+]] = const 0 : i32
// CHECK-NEXT:       [[B0:%[0-9]+]] = mbar[0] [[E0]] : ptr.shared.i64
// CHECK-NEXT:       mbar.init[1] [[B0]]
// CHECK:            [[E2:%[0-9]+]] = const 2 : i32
// CHECK-NEXT:       [[B2:%[0-9]+]] = mbar[0] [[E2]] : ptr.shared.i64
// CHECK-NEXT:       mbar.init[1] [[B2]]
// CHECK:            mbar.init[128]
// CHECK:            mbar.init[128]
// CHECK:            [[E5:%[0-9]+]] = mbar[1] {{%[0-9]+}} : ptr.shared.i64
// CHECK-NEXT:       mbar.init[128] [[E5]]
// CHECK-NEXT:       [[E6:%[0-9]+]] = const 0 : i32
// CHECK-NEXT:       [[B6:%[0-9]+]] = mbar[2] [[E6]] : ptr.shared.i64
// CHECK-NEXT:       mbar.init[32] [[B6]]
// CHECK-NEXT:       fence.mbar_init
// CHECK-NEXT:       yield
// CHECK-NEXT:     } else {
// CHECK-NEXT:       yield
// CHECK-NEXT:     }
// CHECK-NEXT:     cluster.sync
// CHECK-NEXT:     ret

// Without a cluster the barrier inits are published by a CTA barrier; a block with more
// than one dimension initialises in the thread whose three indices are 0.
kernel plain() threads(32, 2) {
    mbarrier m(count: 1);
}

// CHECK-LABEL: kernel @plain {
// CHECK:        mbarrier m count 1 !
// CHECK:        [[Z:%[0-9]+]] = const 0 : i32
// CHECK-NEXT:   [[X:%[0-9]+]] = tid.x : i32
// CHECK-NEXT:   [[CX:%[0-9]+]] = cmp.eq [[X]], [[Z]] : i1
// CHECK-NEXT:   [[Y:%[0-9]+]] = tid.y : i32
// CHECK-NEXT:   [[CY:%[0-9]+]] = cmp.eq [[Y]], [[Z]] : i1
// CHECK-NEXT:   [[C:%[0-9]+]] = and [[CX]], [[CY]] : i1
// CHECK-NEXT:   if [[C]] {
// CHECK:          fence.mbar_init
// CHECK:        barrier
// CHECK-NEXT:   ret
