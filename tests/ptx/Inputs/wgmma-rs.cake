// The RS form and small N for tests/ptx/wgmma-rs.test.
kernel rs(o: out f32[64, 64], h: out f32[64, 64], o8: out f32[64, 8], o16: out f32[64, 16])
    targets(sm_90a) threads(128)
{
    shared sa: bf16[64, 64] swizzle(128);
    shared sb: bf16[64, 64] swizzle(128);
    shared hb: f16[64, 64] swizzle(128);
    shared s8: bf16[8, 64] swizzle(128);
    shared s16: bf16[16, 64] swizzle(128);
    var p: f32acc[64, 64] = 0.0;
    p = wgmma(p, sa, sb);
    var acc: f32acc[64, 64] = 0.0;
    acc = wgmma(acc, bf16a(p), sb);
    var hacc: f32acc[64, 64] = 0.0;
    hacc = wgmma(hacc, f16a(p), hb);
    var a8: f32acc[64, 8] = 0.0;
    a8 = wgmma(a8, sa, s8);
    a8 = wgmma(a8, bf16a(p), s8);
    var a16: f32acc[64, 16] = 0.0;
    a16 = wgmma(a16, bf16a(p), s16);
    store(o, acc, [0, 0]);
    store(h, hacc, [0, 0]);
    store(o8, a8, [0, 0]);
    store(o16, a16, [0, 0]);
}
