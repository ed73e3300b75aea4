// acc = wgmma(acc, A, B) expands into wgmma.fence, one wgmma m64nNk16 per 16 of K (the
// attribute is N, plus 1 << 16 for f16) on descriptors of the operands (swizzle from the
// buffer) advanced by 16 elements (32 bytes) per step, and wgmma.commit; outside a consume
// block wgmma.wait[0] follows (a consume block's lowering waits before it releases its
// stage). A.rows(start, 64) starts start * K elements into A. store(tensor, acc, [r, c])
// writes the m64nN fragment: thread t of the warpgroup holds rows
// 16 * (t / 32) + (t % 32) / 4 + 8 * i and columns 8 * j + 2 * (t % 4) + e in lane
// j * 4 + i * 2 + e. A block wholly inside the tensor, N and col0 even, stores each pair 2-wide;
// any other is one store.if per element, masked by its row and column (no branch per element).
// Values convert to the tensor's type. acc * 2.0 splats the constant.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s --check-prefix=BF16

kernel wg(c: out bf16[M, N], d: out f32[64, 16])
    targets(sm_90a) threads(128)
{
    pipeline ld(stages: 2, full: thread, empty: warpgroup);
    shared sa: bf16[128, 32] swizzle(64);
    shared sn: bf16[16, 32] swizzle(64);
    shared sb: f16[16, 32] in ld swizzle(64);
    shared sh: f16[64, 32] in ld swizzle(64);
    var acc: f32acc[64, 16] = 0.0;
    acc = wgmma(acc, sa.rows(64, 64), sn);
    role all(warpgroup 0) {
        var acc2: f32acc[64, 16] = 1.5;
        consume ld {
            acc2 = wgmma(acc2, sh, sb);
        }
        store(d, acc2 * 2.0, [0, 0]);
    }
    store(c, acc, [block.x * 64, 0]);
}

// CHECK-LABEL: kernel @wg {
// CHECK:        [[ZERO:%[0-9]+]] = const 0x0p+0 : f32x8 !22:31
// CHECK-NEXT:   [[START:%[0-9]+]] = const 64 : i32 !23:30
// CHECK-NEXT:   [[SA:%[0-9]+]] = smem[0] : ptr.shared.bf16 !23:11
// CHECK-NEXT:   [[K:%[0-9]+]] = const 32 : i32 !23:11
// CHECK-NEXT:   [[OFF:%[0-9]+]] = mul [[START]], [[K]] : i32 !23:11
// CHECK-NEXT:   [[PA:%[0-9]+]] = elemptr [[SA]], [[OFF]] : ptr.shared.bf16 !23:11
// CHECK-NEXT:   [[PB:%[0-9]+]] = smem[1] : ptr.shared.bf16 !23:11
// CHECK-NEXT:   [[TRUE:%[0-9]+]] = const 1 : i1 !23:11
// CHECK-NEXT:   [[F:%[0-9]+]] = wgmma.fence [[ZERO]] : f32x8 !23:11
// CHECK-NEXT:   [[DA0:%[0-9]+]] = wgmma.desc[64] [[PA]] : i64 !23:11
// CHECK-NEXT:   [[DB0:%[0-9]+]] = wgmma.desc[64] [[PB]] : i64 !23:11
// CHECK-NEXT:   [[A1:%[0-9]+]] = wgmma[16] [[F]], [[DA0]], [[DB0]], [[TRUE]] : f32x8 !23:11
// CHECK-NEXT:   [[S16:%[0-9]+]] = const 16 : i32 !23:11
// CHECK-NEXT:   [[PA1:%[0-9]+]] = elemptr [[PA]], [[S16]] : ptr.shared.bf16 !23:11
// CHECK-NEXT:   [[S16B:%[0-9]+]] = const 16 : i32 !23:11
// CHECK-NEXT:   [[PB1:%[0-9]+]] = elemptr [[PB]], [[S16B]] : ptr.shared.bf16 !23:11
// CHECK-NEXT:   [[DA1:%[0-9]+]] = wgmma.desc[64] [[PA1]] : i64 !23:11
// CHECK-NEXT:   [[DB1:%[0-9]+]] = wgmma.desc[64] [[PB1]] : i64 !23:11
// CHECK-NEXT:   [[A2:%[0-9]+]] = wgmma[16] [[A1]], [[DA1]], [[DB1]], [[TRUE]] : f32x8 !23:11
// CHECK-NEXT:   wgmma.commit !23:11
// CHECK-NEXT:   [[ACC:%[0-9]+]] = wgmma.wait[0] [[A2]] : f32x8 !23:11

// In a consume block: staged operands, f16 (65552 = 16 | 1 << 16), no wait.
// CHECK:        [[HALF:%[0-9]+]] = const 0x1.8p+0 : f32x8 !25:36
// CHECK-NEXT:   [[R:%[0-9]+]] = consume[0] [[ST:%[0-9]+]], {{%[0-9]+}} : f32x8 {
// CHECK-NEXT:     [[QA:%[0-9]+]] = smem.stage[3] [[ST]] : ptr.shared.f16
// CHECK-NEXT:     [[QB:%[0-9]+]] = smem.stage[2] [[ST]] : ptr.shared.f16
// CHECK-NEXT:     [[T:%[0-9]+]] = const 1 : i1
// CHECK-NEXT:     [[F2:%[0-9]+]] = wgmma.fence [[HALF]] : f32x8
// CHECK-NEXT:     [[E0:%[0-9]+]] = wgmma.desc[64] [[QA]] : i64
// CHECK-NEXT:     [[E1:%[0-9]+]] = wgmma.desc[64] [[QB]] : i64
// CHECK-NEXT:     [[W1:%[0-9]+]] = wgmma[65552] [[F2]], [[E0]], [[E1]], [[T]] : f32x8
// CHECK:          [[W2:%[0-9]+]] = wgmma[65552] [[W1]], {{%[0-9]+}}, {{%[0-9]+}}, [[T]] : f32x8
// CHECK-NEXT:     wgmma.commit
// CHECK-NEXT:     yield [[W2]]
// CHECK-NEXT:   }

// store to the f32 tensor d (64 x 16, constant shape): no conversion.
// CHECK:        [[TWO:%[0-9]+]] = const 0x1p+1 : f32x8 !29:25
// CHECK-NEXT:   [[V:%[0-9]+]] = mul [[R]], [[TWO]] : f32x8 !29:23
// CHECK-NEXT:   [[R0:%[0-9]+]] = const 0 : i32 !29:31
// CHECK-NEXT:   [[C0:%[0-9]+]] = const 0 : i32 !29:34
// CHECK-NEXT:   [[ROWS:%[0-9]+]] = const 64 : i32 !29:9
// CHECK-NEXT:   [[COLS:%[0-9]+]] = const 16 : i32 !29:9
// CHECK-NEXT:   [[ONE:%[0-9]+]] = const 1 : i32 !29:9
// CHECK-NEXT:   [[Z:%[0-9]+]] = const 0 : i32 !29:9
// CHECK-NEXT:   [[LANE:%[0-9]+]] = laneid : i32 !29:9
// CHECK-NEXT:   [[WARP:%[0-9]+]] = warpid : i32 !29:9
// CHECK-NEXT:   [[THREE:%[0-9]+]] = const 3 : i32 !29:9
// CHECK-NEXT:   [[WQ:%[0-9]+]] = and [[WARP]], [[THREE]] : i32 !29:9
// CHECK-NEXT:   [[TWOI:%[0-9]+]] = const 2 : i32 !29:9
// CHECK-NEXT:   [[L4:%[0-9]+]] = shr [[LANE]], [[TWOI]] : i32 !29:9
// CHECK-NEXT:   [[SIXTEEN:%[0-9]+]] = const 16 : i32 !29:9
// CHECK-NEXT:   [[W16:%[0-9]+]] = mul [[WQ]], [[SIXTEEN]] : i32 !29:9
// CHECK-NEXT:   [[RIN:%[0-9]+]] = add [[W16]], [[L4]] : i32 !29:9
// CHECK-NEXT:   [[RB:%[0-9]+]] = add [[R0]], [[RIN]] : i32 !29:9
// CHECK-NEXT:   [[TWOC:%[0-9]+]] = const 2 : i32 !29:9
// CHECK-NEXT:   [[THREEC:%[0-9]+]] = const 3 : i32 !29:9
// CHECK-NEXT:   [[LM4:%[0-9]+]] = and [[LANE]], [[THREEC]] : i32 !29:9
// CHECK-NEXT:   [[CIN:%[0-9]+]] = mul [[LM4]], [[TWOC]] : i32 !29:9
// CHECK-NEXT:   [[CB:%[0-9]+]] = add [[C0]], [[CIN]] : i32 !29:9
// CHECK-NEXT:   [[RIN0:%[0-9]+]] = cmp.lt [[RB]], [[ROWS]] : i1 !29:9
// CHECK-NEXT:   [[ROWBASE:%[0-9]+]] = mul [[RB]], [[COLS]] : i32 !29:9
// CHECK-NEXT:   [[X:%[0-9]+]] = add [[ROWBASE]], [[CB]] : i32 !29:9
// CHECK-NEXT:   [[P0:%[0-9]+]] = elemptr %2, [[X]] : ptr.global.f32 !29:9
// Row block i = 1 is 8 rows down.
// CHECK-NEXT:   [[EIGHT:%[0-9]+]] = const 8 : i32 !29:9
// CHECK-NEXT:   [[RB8:%[0-9]+]] = add [[RB]], [[EIGHT]] : i32 !29:9
// CHECK-NEXT:   [[RIN1:%[0-9]+]] = cmp.lt [[RB8]], [[ROWS]] : i1 !29:9
// CHECK-NEXT:   [[ROWBASE8:%[0-9]+]] = mul [[RB8]], [[COLS]] : i32 !29:9
// CHECK-NEXT:   [[X8:%[0-9]+]] = add [[ROWBASE8]], [[CB]] : i32 !29:9
// CHECK-NEXT:   [[P8:%[0-9]+]] = elemptr %2, [[X8]] : ptr.global.f32 !29:9
// The whole block is inside: row0 + 64 <= rows, col0 + N <= cols, (cols | col0) even.
// CHECK-NEXT:   [[SIXTYFOUR:%[0-9]+]] = const 64 : i32 !29:9
// CHECK-NEXT:   [[REND:%[0-9]+]] = add [[R0]], [[SIXTYFOUR]] : i32 !29:9
// CHECK-NEXT:   [[RFIT:%[0-9]+]] = cmp.le [[REND]], [[ROWS]] : i1 !29:9
// CHECK-NEXT:   [[N:%[0-9]+]] = const 16 : i32 !29:9
// CHECK-NEXT:   [[CEND:%[0-9]+]] = add [[C0]], [[N]] : i32 !29:9
// CHECK-NEXT:   [[CFIT:%[0-9]+]] = cmp.le [[CEND]], [[COLS]] : i1 !29:9
// CHECK-NEXT:   [[FIT:%[0-9]+]] = and [[RFIT]], [[CFIT]] : i1 !29:9
// CHECK-NEXT:   [[OR:%[0-9]+]] = or [[COLS]], [[C0]] : i32 !29:9
// CHECK-NEXT:   [[ODD:%[0-9]+]] = and [[OR]], [[ONE]] : i32 !29:9
// CHECK-NEXT:   [[EVEN:%[0-9]+]] = cmp.eq [[ODD]], [[Z]] : i1 !29:9
// CHECK-NEXT:   [[FULL:%[0-9]+]] = and [[FIT]], [[EVEN]] : i1 !29:9
// CHECK-NEXT:   if [[FULL]] {
// CHECK-NEXT:     [[V0:%[0-9]+]] = extract[0] [[V]] : f32 !29:9
// CHECK-NEXT:     [[V1:%[0-9]+]] = extract[1] [[V]] : f32 !29:9
// CHECK-NEXT:     [[PAIR:%[0-9]+]] = vec [[V0]], [[V1]] : f32x2 !29:9
// CHECK-NEXT:     store [[P0]], [[PAIR]] !29:9
// The second column block (j = 1) of row block 0 holds lanes 4 and 5, 8 columns on.
// CHECK-NEXT:     [[V4:%[0-9]+]] = extract[4] [[V]] : f32 !29:9
// CHECK-NEXT:     [[V5:%[0-9]+]] = extract[5] [[V]] : f32 !29:9
// CHECK-NEXT:     [[E8:%[0-9]+]] = const 8 : i32 !29:9
// CHECK-NEXT:     [[PJ:%[0-9]+]] = elemptr [[P0]], [[E8]] : ptr.global.f32 !29:9
// CHECK-NEXT:     [[PAIR2:%[0-9]+]] = vec [[V4]], [[V5]] : f32x2 !29:9
// CHECK-NEXT:     store [[PJ]], [[PAIR2]] !29:9
// Row block 1 holds lanes 2, 3, 6 and 7.
// CHECK-NEXT:     extract[2] [[V]] : f32
// CHECK-NEXT:     extract[3] [[V]] : f32
// CHECK-NEXT:     vec
// CHECK-NEXT:     store [[P8]], {{%[0-9]+}} !29:9
// CHECK-NEXT:     extract[6] [[V]] : f32
// CHECK-NEXT:     extract[7] [[V]] : f32
// CHECK:          yield !29:9
// CHECK-NEXT:   } else {
// Otherwise: column 8 j + k is inside when cols - first column > 8 j + k.
// CHECK-NEXT:     [[LEFT:%[0-9]+]] = sub [[COLS]], [[CB]] : i32 !29:9
// CHECK-NEXT:     [[K0:%[0-9]+]] = const 0 : i32 !29:9
// CHECK-NEXT:     [[IN0:%[0-9]+]] = cmp.gt [[LEFT]], [[K0]] : i1 !29:9
// CHECK-NEXT:     [[K1:%[0-9]+]] = const 1 : i32 !29:9
// CHECK-NEXT:     [[IN1:%[0-9]+]] = cmp.gt [[LEFT]], [[K1]] : i1 !29:9
// CHECK-NEXT:     [[K8:%[0-9]+]] = const 8 : i32 !29:9
// CHECK-NEXT:     [[IN8:%[0-9]+]] = cmp.gt [[LEFT]], [[K8]] : i1 !29:9
// CHECK-NEXT:     [[K9:%[0-9]+]] = const 9 : i32 !29:9
// CHECK-NEXT:     [[IN9:%[0-9]+]] = cmp.gt [[LEFT]], [[K9]] : i1 !29:9
// Rows outside the tensor store nothing; inside, each element is masked by its column.
// CHECK-NEXT:     if [[RIN0]] {
// CHECK-NEXT:       [[S0:%[0-9]+]] = extract[0] [[V]] : f32 !29:9
// CHECK-NEXT:       store.if [[P0]], [[S0]], [[IN0]] !29:9
// CHECK-NEXT:       [[ONEE:%[0-9]+]] = const 1 : i32 !29:9
// CHECK-NEXT:       [[P01:%[0-9]+]] = elemptr [[P0]], [[ONEE]] : ptr.global.f32 !29:9
// CHECK-NEXT:       [[S1:%[0-9]+]] = extract[1] [[V]] : f32 !29:9
// CHECK-NEXT:       store.if [[P01]], [[S1]], [[IN1]] !29:9
// CHECK:            extract[4] [[V]] : f32 !29:9
// CHECK-NEXT:       store.if {{%[0-9]+}}, {{%[0-9]+}}, [[IN8]] !29:9
// CHECK:            extract[5] [[V]] : f32 !29:9
// CHECK-NEXT:       store.if {{%[0-9]+}}, {{%[0-9]+}}, [[IN9]] !29:9
// CHECK-NEXT:       yield !29:9
// CHECK-NEXT:     } else {
// CHECK-NEXT:       yield !29:9
// CHECK-NEXT:     } !29:9
// CHECK-NEXT:     if [[RIN1]] {
// CHECK-NEXT:       [[S2:%[0-9]+]] = extract[2] [[V]] : f32 !29:9
// CHECK-NEXT:       store.if [[P8]], [[S2]], [[IN0]] !29:9
// CHECK:            extract[7] [[V]] : f32 !29:9
// CHECK-NEXT:       store.if {{%[0-9]+}}, {{%[0-9]+}}, [[IN9]] !29:9
// CHECK-NEXT:       yield !29:9
// CHECK:          yield !29:9
// CHECK-NEXT:   } !29:9

// store to the bf16 tensor c (M x N, shape symbols): pairs convert as bf16x2, single
// elements as bf16; the masks use the shape symbols.
// BF16-LABEL: kernel @wg {
// BF16:         cmp.lt {{%[0-9]+}}, %3 : i1 !31:5
// BF16:         cmp.le {{%[0-9]+}}, %3 : i1 !31:5
// BF16:         cmp.le {{%[0-9]+}}, %4 : i1 !31:5
// BF16:         [[PAIR:%[0-9]+]] = vec {{%[0-9]+}}, {{%[0-9]+}} : f32x2 !31:5
// BF16-NEXT:    [[CONV:%[0-9]+]] = cast [[PAIR]] : bf16x2 !31:5
// BF16-NEXT:    store {{%[0-9]+}}, [[CONV]] !31:5
// BF16:         } else {
// BF16-NEXT:    sub %4, {{%[0-9]+}} : i32 !31:5
// BF16:         [[ONE:%[0-9]+]] = cast {{%[0-9]+}} : bf16 !31:5
// BF16-NEXT:    store.if {{%[0-9]+}}, [[ONE]], {{%[0-9]+}} !31:5
