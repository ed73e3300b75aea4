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
// CHECK-NEXT:   [[DA1:%[0-9]+]] = wgmma.desc[64] [[PA1]] : i64 !23:11
// CHECK-NEXT:   [[S16B:%[0-9]+]] = const 16 : i32 !23:11
// CHECK-NEXT:   [[PB1:%[0-9]+]] = elemptr [[PB]], [[S16B]] : ptr.shared.bf16 !23:11
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

// store to the f32 tensor d (64 x 16, constant shape) and to the bf16 tensor c (M x N,
// shape symbols): one wgmma.store each, with the tensor's pointer, the fragment, the
// bounds and the origin (ir/ops.def; the backend's two paths are checked in PTX below).
// CHECK:        [[TWO:%[0-9]+]] = const 0x1p+1 : f32x8 !29:25
// CHECK:        wgmma.store %2, {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}} !29:9
// BF16-LABEL: kernel @wg {
// BF16:         wgmma.store %1, {{%[0-9]+}}, %3, %4, {{%[0-9]+}}, {{%[0-9]+}} !31:5
// BF16-NOT:     store.if

// In the PTX, the full tile stores pairs (st.global.v2.b32 for f32, cvt.rn.bf16x2.f32 then
// st.global.b32 for bf16; d's constant 64 x 16 shape leaves only the full path); a
// partial tile tests each column against the columns left and stores single elements
// under a predicate (@p st), one asm statement per row.
// RUN: %cakec --target sm_90a %s | FileCheck %s --check-prefix=PTX
// PTX:     st.global.v2.b32 [%rd{{[0-9]+}}+32], {%r{{[0-9]+}}, %r{{[0-9]+}}};
// PTX:     cvt.rn.bf16x2.f32
// PTX:     st.global.b32 [%rd{{[0-9]+}}+16], %r{{[0-9]+}};
// PTX:     mov.b32 {lo, hi}, %r{{[0-9]+}};
// PTX-NEXT: setp.gt.s32 p, %r{{[0-9]+}}, 0;
// PTX-NEXT: @p st.global.b16 [%rd{{[0-9]+}}+0], lo;
// PTX:     setp.gt.s32 p, %r{{[0-9]+}}, 8;
// PTX-NEXT: @p st.global.b16 [%rd{{[0-9]+}}+16], lo;
