// The RS form of wgmma: bf16a(acc) / f16a(acc) is a cast lane by lane of the accumulator to
// a bf16x(N/2) / f16x(N/2) register A fragment (the m64nN accumulator layout is the m64k16 A
// layout of each 16 columns: no data moves between threads). wgmma(acc, a, B) with a register
// A fences the accumulator and A together, issues one wgmma per k16 slice of A with the
// slice in the attribute (N | kind << 16 | slice << 20) and B's descriptor advanced by 16
// elements per slice, commits, and outside consume blocks waits (wgmma.wait[0]) on the
// accumulator and A (A's registers must stay unchanged until the wgmmas retired); in a
// consume block the group stays in flight (expand-async places its wait).
// f32acc[64, 8] (n8) is the type f32x4.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s

kernel rs(c: out f32[64, 32], d: out f32[64, 8])
    targets(sm_90a) threads(128)
{
    pipeline ld(stages: 2, full: thread, empty: warpgroup);
    shared sa: bf16[64, 64] swizzle(128);
    shared sb: bf16[32, 64] swizzle(128);
    shared sv: bf16[32, 32] swizzle(64);
    shared sh: f16[8, 32] in ld swizzle(64);
    var p: f32acc[64, 32] = 0.0;
    p = wgmma(p, sa, sb);
    let a = bf16a(p);
    var o: f32acc[64, 32] = 0.0;
    o = wgmma(o, a, sv);
    var q: f32acc[64, 8] = 0.0;
    let h: f16a[64, 32] = f16a(o);
    role all(warpgroup 0) {
        consume ld {
            q = wgmma(q, h, sh);
        }
        store(d, q, [0, 0]);
    }
    store(c, o, [0, 0]);
}

// CHECK-LABEL: kernel @rs {
// CHECK:        [[P:%[0-9]+]] = wgmma.wait[0] {{%[0-9]+}} : f32x16 !21:9
// CHECK-NEXT:   [[A:%[0-9]+]] = cast [[P]] : bf16x16 !22:13
// CHECK-NEXT:   [[Z:%[0-9]+]] = const 0x0p+0 : f32x16 !23:29
// CHECK-NEXT:   [[SV:%[0-9]+]] = smem[2] : ptr.shared.bf16 !24:9
// CHECK-NEXT:   [[T:%[0-9]+]] = const 1 : i1 !24:9
// CHECK-NEXT:   [[F:%[0-9]+]], [[FA:%[0-9]+]] = wgmma.fence [[Z]], [[A]] : f32x16, bf16x16 !24:9
// CHECK-NEXT:   [[D0:%[0-9]+]] = wgmma.desc[64] [[SV]] : i64 !24:9
// CHECK-NEXT:   [[W0:%[0-9]+]] = wgmma[32] [[F]], [[FA]], [[D0]], [[T]] : f32x16 !24:9
// CHECK-NEXT:   [[C16:%[0-9]+]] = const 16 : i32 !24:9
// CHECK-NEXT:   [[SV1:%[0-9]+]] = elemptr [[SV]], [[C16]] : ptr.shared.bf16 !24:9
// CHECK-NEXT:   [[D1:%[0-9]+]] = wgmma.desc[64] [[SV1]] : i64 !24:9
// 1048608 = 32 | 1 << 20: the second k16 slice of A
// CHECK-NEXT:   [[W1:%[0-9]+]] = wgmma[1048608] [[W0]], [[FA]], [[D1]], [[T]] : f32x16 !24:9
// CHECK-NEXT:   wgmma.commit !24:9
// CHECK-NEXT:   [[O:%[0-9]+]], {{%[0-9]+}} = wgmma.wait[0] [[W1]], [[FA]] : f32x16, bf16x16 !24:9

// n8: an f32x4 accumulator; f16 (65544 = 8 | 1 << 16) in a consume block: no wait yet.
// CHECK-NEXT:   [[Q:%[0-9]+]] = const 0x0p+0 : f32x4 !25:28
// CHECK-NEXT:   [[H:%[0-9]+]] = cast [[O]] : f16x16 !26:27
// CHECK:        consume[0]
// CHECK:          [[G:%[0-9]+]], [[GA:%[0-9]+]] = wgmma.fence [[Q]], [[H]] : f32x4, f16x16 !29:17
// CHECK-NEXT:     [[D2:%[0-9]+]] = wgmma.desc[64] {{%[0-9]+}} : i64 !29:17
// CHECK-NEXT:     [[X0:%[0-9]+]] = wgmma[65544] [[G]], [[GA]], [[D2]], {{%[0-9]+}} : f32x4 !29:17
// CHECK:          [[X1:%[0-9]+]] = wgmma[1114120] [[X0]], [[GA]], {{%[0-9]+}}, {{%[0-9]+}} : f32x4 !29:17
// CHECK-NEXT:     wgmma.commit !29:17
// CHECK-NEXT:     yield [[X1]] !28:9
