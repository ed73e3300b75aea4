// --emit=ast shows the Hopper constructs: clauses, tensor maps, pipelines and mbarriers
// with their named arguments, shared-array attributes, roles with their warps and
// register budget, elect, produce, consume, lists, named call arguments and methods.
// RUN: %cakec --emit=ast %s | FileCheck %s

kernel k(a: in bf16[M, K]) targets(sm_90a) threads(256) min_blocks(1) cluster(2) {
    tensormap ta = tma(a, box[64, 64], swizzle(128), oob(nan));
    pipeline ld(stages: 2, full: tma, empty: warpgroup);
    mbarrier m(count: 1);
    shared sa: bf16[64, 64] in ld swizzle(128) align(2048);
    shared sc: bf16[64, 64] alias(sa);
    role p(warp 0) {
        elect {
            produce ld {
                tma_load(sa, ta, [0, 0], part: 0);
            }
        }
    }
    role c(warpgroup 1) regs(240) {
        var acc: f32acc[64, 64] = 0.0;
        consume ld {
            acc = wgmma(acc, sa.rows(0, 64), sa);
        }
    }
}

// CHECK:     threads @6:44
// CHECK-NEXT:       int 256 @6:52 : i64 = 256
// CHECK-NEXT:     min_blocks @6:57
// CHECK-NEXT:       int 1 @6:68 : i64 = 1
// CHECK-NEXT:     cluster @6:71
// CHECK-NEXT:       int 2 @6:79 : i64 = 2
// CHECK-NEXT:     block @6:82
// CHECK-NEXT:       tensormap ta @7:15
// CHECK-NEXT:         call tma @7:20
// CHECK-NEXT:           name a @7:24
// CHECK-NEXT:           index @7:30
// CHECK-NEXT:             base: name box @7:27
// CHECK-NEXT:             index: int 64 @7:31 : i64 = 64
// CHECK-NEXT:             index: int 64 @7:35 : i64 = 64
// CHECK-NEXT:           call swizzle @7:40
// CHECK-NEXT:             int 128 @7:48 : i64 = 128
// CHECK-NEXT:           call oob @7:54
// CHECK-NEXT:             name nan @7:58
// CHECK-NEXT:       pipeline ld @8:14
// CHECK-NEXT:         named stages @8:17
// CHECK-NEXT:           int 2 @8:25 : i64 = 2
// CHECK-NEXT:         named full @8:28
// CHECK-NEXT:           name tma @8:34
// CHECK-NEXT:         named empty @8:39
// CHECK-NEXT:           name warpgroup @8:46
// CHECK-NEXT:       mbarrier m @9:14
// CHECK-NEXT:         named count @9:16
// CHECK-NEXT:           int 1 @9:23 : i64 = 1
// CHECK-NEXT:       shared sa @10:5
// CHECK-NEXT:         type bf16 @10:16
// CHECK-NEXT:           int 64 @10:21 : untyped int = 64
// CHECK-NEXT:           int 64 @10:25 : untyped int = 64
// CHECK-NEXT:         align: int 2048 @10:54 : i64 = 2048
// CHECK-NEXT:         in @10:29
// CHECK-NEXT:           name ld @10:32
// CHECK-NEXT:         swizzle @10:35
// CHECK-NEXT:           int 128 @10:43 : i64 = 128
// CHECK-NEXT:       shared sc @11:5
// CHECK-NEXT:         type bf16 @11:16
// CHECK-NEXT:           int 64 @11:21 : untyped int = 64
// CHECK-NEXT:           int 64 @11:25 : untyped int = 64
// CHECK-NEXT:         alias @11:29
// CHECK-NEXT:           name sa @11:35
// CHECK-NEXT:       role p warps 0..0 @12:10
// CHECK-NEXT:         warp @12:12
// CHECK-NEXT:           from: int 0 @12:17 : i64 = 0
// CHECK-NEXT:         block @12:20
// CHECK-NEXT:           elect @13:9
// CHECK-NEXT:             block @13:15
// CHECK-NEXT:               produce ld @14:13
// CHECK-NEXT:                 block @14:24
// CHECK-NEXT:                   expr @15:17
// CHECK-NEXT:                     call tma_load @15:17
// CHECK-NEXT:                       name sa @15:26
// CHECK-NEXT:                       name ta @15:30
// CHECK-NEXT:                       list @15:34
// CHECK-NEXT:                         int 0 @15:35 : i32 = 0
// CHECK-NEXT:                         int 0 @15:38 : i32 = 0
// CHECK-NEXT:                       named part @15:42
// CHECK-NEXT:                         int 0 @15:48 : i32 = 0
// CHECK-NEXT:       role c warps 4..7 regs 240 @19:10
// CHECK-NEXT:         warpgroup @19:12
// CHECK-NEXT:           from: int 1 @19:22 : i64 = 1
// CHECK-NEXT:         regs @19:25
// CHECK-NEXT:           int 240 @19:30 : i64 = 240
// CHECK-NEXT:         block @19:35
// CHECK-NEXT:           var acc @20:9 : f32acc[64, 64]
// CHECK-NEXT:             type f32acc @20:18
// CHECK-NEXT:               int 64 @20:25 : i64 = 64
// CHECK-NEXT:               int 64 @20:29 : i64 = 64
// CHECK-NEXT:             float 0.0 @20:35 : f32acc[64, 64] = 0.0
// CHECK-NEXT:           consume ld @21:9
// CHECK-NEXT:             block @21:20
// CHECK-NEXT:               assign = @22:17
// CHECK-NEXT:                 to: name acc @22:13 : f32acc[64, 64]
// CHECK-NEXT:                 call wgmma @22:19 : f32acc[64, 64]
// CHECK-NEXT:                   name acc @22:25 : f32acc[64, 64]
// CHECK-NEXT:                   call rows @22:33
// CHECK-NEXT:                     receiver: name sa @22:30
// CHECK-NEXT:                     int 0 @22:38 : i32 = 0
// CHECK-NEXT:                     int 64 @22:41 : i64 = 64
// CHECK-NEXT:                   name sa @22:46
