// A loop-carried fragment of 16-bit floats (P, wgmma's register operand A) is carried in
// pairs of lanes: the rounding is one cvt.rn.bf16x2.f32 per two lanes, and the next
// iteration's wgmma reads the pairs as they are (no cvt per lane, no repacking of 16-bit
// halves into the operand's words). Converting P once the P V group that reads the old P
// is done (after its consume block) keeps ptxas from serializing the wgmmas: no warning.
// RUN: %cakec --emit=ptx %s | FileCheck %s
// RUN: %cakec --emit=llvm %s | FileCheck %s --check-prefix=LL
// CHECK-NOT:  cvt.rn.bf16.f32
// CHECK:      cvt.rn.bf16x2.f32
// CHECK-NOT:  cvt.rn.bf16.f32
// CHECK-NOT:  mov.b32 {{%r[0-9]+}}, {%rs
// LL:         phi <2 x bfloat>
// LL-NOT:     phi bfloat

kernel pairs(o: out f32[64, 64], n: i32)
    targets(sm_90a) threads(256)
{
    pipeline kp(stages: 2, full: warpgroup, empty: warpgroup);
    pipeline vp(stages: 2, full: warpgroup, empty: warpgroup);
    shared sq: bf16[64, 16] swizzle(32);
    shared sk: bf16[32, 16] in kp swizzle(32);
    shared sv: bf16[64, 16] in vp swizzle(32);
    role producer(warpgroup 0) {
        for (i in 0 .. n) {
            produce kp { }
            produce vp { }
        }
    }
    role consumer(warpgroup 1) {
        var acc: f32acc[64, 64] = 0.0;
        var s: f32acc[64, 16] = 0.0;
        consume kp {
            s = wgmma(s, sq.rows(0, 64), sk.rows(0, 16));
        }
        var p = bf16a(exp2(s));
        for (i in 1 .. n) {
            var s2: f32acc[64, 16] = 0.0;
            consume kp {
                s2 = wgmma(s2, sq.rows(0, 64), sk.rows(0, 16));
                consume vp {
                    acc = wgmma(acc, p, sv.T);
                    s2 = exp2(s2 - by_row(row_max(s2), 16));
                }
                p = bf16a(s2);
            }
        }
        consume vp {
            acc = wgmma(acc, p, sv.T);
        }
        store(o, acc, [0, 0]);
    }
}
