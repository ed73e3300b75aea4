// Tensor memory and tcgen05 -> IR. The frontend (--passes=): one allocation for every tmem
// (64 x 2 stages + 16 = 144 columns -> 256), allocated by warp 0 into the shared slot
// "tmem.addr" with the permit relinquished, the address read by every thread after
// fence.before, barrier, fence.after; tcgen05_mma as K/16 tcgen05.mma (imm N | M/64 << 9 |
// kind << 12: 64 | 2 << 9 | 1 << 12 for f16) on tcgen05.desc operands advanced 16
// elements per step, the first taking `accumulate:`, at the accumulator's column of the
// current accp stage; tmem_load as tcgen05.ld.x8 at (32 * (warp % 4)) << 16 plus the
// column, read through tcgen05.wait.ld and extracted element by element; at the end the
// fenced barrier and warp 0's dealloc. After expand-async (the default passes): the waits
// of blocks with tcgen05 ops are followed by fence.after, the `mma` sources are released by
// tcgen05.commit, and the epilogue's arrive follows fence.before.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s
// RUN: %cakec --emit=ir %s | FileCheck %s --check-prefix=EXP

kernel tc(a: in f16[M, K], b: in f16[N, K], c: out f32[M, N]) targets(sm_100a, sm_103a) threads(256) {
    tensormap ta = tma(a, box[128, 64], swizzle(128));
    tensormap tb = tma(b, box[64, 64], swizzle(128));
    pipeline ld(stages: 2, full: tma, empty: mma);
    pipeline accp(stages: 2, full: mma, empty: warpgroup);
    shared sa: f16[128, 64] in ld swizzle(128);
    shared sb: f16[64, 64] in ld swizzle(128);
    tmem acc: f32[128, 64] in accp;
    tmem two: f32[128, 16];

    role producer(warp 0) {
        elect {
            produce ld {
                tma_load(sa, ta, [0, 0]);
                tma_load(sb, tb, [0, 0]);
            }
        }
    }
    role mma(warp 1) {
        elect {
            produce accp {
                consume ld {
                    tcgen05_mma(acc, sa, sb, accumulate: false);
                }
            }
        }
    }
    role epilogue(warpgroup 1) {
        consume accp {
            var r: f32[8] = tmem_load(acc, 32 * (warp % 4), 8);
            c[32 * (warp % 4) + lane, 0] = r[7];
        }
    }
}

// CHECK:       mbarrier "ld.empty" count 1 n 2
// CHECK:       pipeline ld stages 2 full "ld.full" tma 1 empty "ld.empty" mma 1
// CHECK-NEXT:  pipeline accp stages 2 full "accp.full" mma 1 empty "accp.empty" warpgroup 1
// CHECK:       shared "tmem.addr" : i32 [1] align 16
// CHECK:       barrier
// CHECK-NEXT:  [[SLOT:%[0-9]+]] = smem[2] : ptr.shared.i32
// CHECK-NEXT:  [[W:%[0-9]+]] = warpid : i32
// CHECK-NEXT:  [[Z:%[0-9]+]] = const 0 : i32
// CHECK-NEXT:  [[W0:%[0-9]+]] = cmp.eq [[W]], [[Z]] : i1
// CHECK-NEXT:  if [[W0]] {
// CHECK-NEXT:    tmem.alloc[256] [[SLOT]]
// CHECK-NEXT:    tmem.relinquish[0]
// CHECK:       tcgen05.fence.before
// CHECK-NEXT:  barrier
// CHECK-NEXT:  tcgen05.fence.after
// CHECK-NEXT:  [[BASE:%[0-9]+]] = load[0] [[SLOT]] : i32
// CHECK:       produce[1] [[ST:%[0-9]+]], {{%[0-9]+}}
// CHECK:         consume[0]
// CHECK-NEXT:      [[ACC:%[0-9]+]] = const 0 : i1
// CHECK-NEXT:      [[C0:%[0-9]+]] = const 0 : i32
// CHECK-NEXT:      [[A0:%[0-9]+]] = add [[BASE]], [[C0]] : i32
// CHECK-NEXT:      [[COLS:%[0-9]+]] = const 64 : i32
// CHECK-NEXT:      [[SOFF:%[0-9]+]] = mul [[ST]], [[COLS]] : i32
// CHECK-NEXT:      [[D:%[0-9]+]] = add [[A0]], [[SOFF]] : i32
// CHECK-NEXT:      [[PA:%[0-9]+]] = smem.stage[0]
// CHECK-NEXT:      [[PB:%[0-9]+]] = smem.stage[1]
// CHECK-NEXT:      [[T:%[0-9]+]] = const 1 : i1
// CHECK-NEXT:      [[DA:%[0-9]+]] = tcgen05.desc[128] [[PA]] : i64
// CHECK-NEXT:      [[DB:%[0-9]+]] = tcgen05.desc[128] [[PB]] : i64
// CHECK-NEXT:      tcgen05.mma[5184] [[D]], [[DA]], [[DB]], [[ACC]]
// CHECK-NEXT:      [[K16:%[0-9]+]] = const 16 : i32
// CHECK-NEXT:      [[PA1:%[0-9]+]] = elemptr [[PA]], [[K16]]
// CHECK:           tcgen05.desc[128] [[PA1]] : i64
// CHECK:           tcgen05.mma[5184] [[D]], {{%[0-9]+}}, {{%[0-9]+}}, [[T]]
// CHECK:           tcgen05.mma[5184] [[D]], {{%[0-9]+}}, {{%[0-9]+}}, [[T]]
// CHECK:           tcgen05.mma[5184] [[D]], {{%[0-9]+}}, {{%[0-9]+}}, [[T]]
// CHECK-NOT:       tcgen05.mma
// CHECK:       consume[1]
// CHECK:         [[LANE0:%[0-9]+]] = mul
// CHECK-NEXT:    [[COL:%[0-9]+]] = const 8 : i32
// CHECK:         [[L16:%[0-9]+]] = shl [[LANE0]], {{%[0-9]+}} : i32
// CHECK-NEXT:    [[LA:%[0-9]+]] = add {{%[0-9]+}}, [[L16]] : i32
// CHECK-NEXT:    [[R:%[0-9]+]] = tcgen05.ld[8] [[LA]] : f32x8
// CHECK-NEXT:    [[RW:%[0-9]+]] = tcgen05.wait.ld [[R]] : f32x8
// CHECK:         extract[7] [[RW]] : f32
// CHECK:       tcgen05.fence.before
// CHECK-NEXT:  barrier
// CHECK-NEXT:  tcgen05.fence.after
// CHECK-NEXT:  {{%[0-9]+}} = warpid : i32
// CHECK:       if {{%[0-9]+}} {
// CHECK-NEXT:    tmem.dealloc[256] [[BASE]]

// EXP:       tmem.alloc[256]
// EXP:       mbar.arrive.tx
// EXP-NOT:   tcgen05.fence
// EXP:       mbar.wait
// EXP-NEXT:  tcgen05.fence.after
// EXP:       mbar.wait
// EXP-NEXT:  tcgen05.fence.after
// EXP:       tcgen05.mma[5184]
// EXP:       tcgen05.mma[5184]
// EXP:       tcgen05.mma[5184]
// EXP:       tcgen05.mma[5184]
// EXP-NEXT:  [[E:%[0-9]+]] = mbar[1]
// EXP-NEXT:  tcgen05.commit[0] [[E]]
// EXP-NEXT:  [[F:%[0-9]+]] = mbar[2]
// EXP-NEXT:  tcgen05.commit[0] [[F]]
// EXP:       mbar.wait
// EXP-NEXT:  tcgen05.fence.after
// EXP:       tcgen05.ld[8]
// EXP:       tcgen05.fence.before
// EXP-NEXT:  [[G:%[0-9]+]] = mbar[3]
// EXP-NEXT:  mbar.arrive [[G]]
// EXP:       tmem.dealloc[256]
