// wgmma_rs: the RS form of wgmma (A from registers) and small N, checked on the GPU by
// check_wgmma_rs.c. One CTA of one warpgroup: the operands are copied with plain loads into
// 128-byte-swizzled shared arrays (K = 64 bf16/f16 is one 128-byte row, the swizzle span:
// element (r, k) sits at column ((k / 8) ^ (r % 8)) * 8 + k % 8 of row r, the layout TMA
// writes for swizzle(128)), then
//   p   = a1 * b1^T                (SS, 64 x 64; stored as p)
//   o   = bf16a(p) * b2^T          (RS, 64 x 64: FlashAttention's P.V)
//   o16 = bf16a(p) * b16^T         (RS, 64 x 16)
//   o8  = bf16a(p) * b8^T          (RS, 64 x 8)
//   s8  = a1 * b8^T                (SS, 64 x 8)
// wgmma_rs_f16 does p and o in f16. With b1 the identity, p = a1 exactly and o is a direct
// RS product of a1 (the check's "direct" case).
// Here (lit, no GPU): both kernels compile and ptxas assembles them with no spills and no
// serialized wgmma.
// REQUIRES: ptxas
// RUN: rm -rf %t && %cakec --emit=ptx -o %t %s
// RUN: %ptxas -v -arch=sm_90a %t/wgmma_rs.sm_90a.ptx -o %t/a.cubin 2>&1 | FileCheck %s --implicit-check-not=Performance
// RUN: %ptxas -v -arch=sm_90a %t/wgmma_rs_f16.sm_90a.ptx -o %t/b.cubin 2>&1 | FileCheck %s --implicit-check-not=Performance
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

kernel wgmma_rs(a1: in bf16[64, 64], b1: in bf16[64, 64], b2: in bf16[64, 64],
                b16: in bf16[16, 64], b8: in bf16[8, 64],
                p: out f32[64, 64], o: out f32[64, 64], o16: out f32[64, 16],
                o8: out f32[64, 8], s8: out f32[64, 8])
    targets(sm_90a) threads(128)
{
    shared sa: bf16[64, 64] swizzle(128);
    shared sb1: bf16[64, 64] swizzle(128);
    shared sb2: bf16[64, 64] swizzle(128);
    shared sb16: bf16[16, 64] swizzle(128);
    shared sb8: bf16[8, 64] swizzle(128);
    for (i in thread.x .. 4096 step 128) {
        let r = i / 64;
        let k = i % 64;
        let c = (((k >> 3) ^ (r & 7)) << 3) | (k & 7);
        sa[r, c] = a1[r, k];
        sb1[r, c] = b1[r, k];
        sb2[r, c] = b2[r, k];
    }
    for (i in thread.x .. 1024 step 128) {
        let r = i / 64;
        let k = i % 64;
        let c = (((k >> 3) ^ (r & 7)) << 3) | (k & 7);
        sb16[r, c] = b16[r, k];
    }
    for (i in thread.x .. 512 step 128) {
        let r = i / 64;
        let k = i % 64;
        let c = (((k >> 3) ^ (r & 7)) << 3) | (k & 7);
        sb8[r, c] = b8[r, k];
    }
    fence_proxy_async();
    barrier();
    var acc: f32acc[64, 64] = 0.0;
    acc = wgmma(acc, sa, sb1);
    let pa = bf16a(acc);
    var out: f32acc[64, 64] = 0.0;
    out = wgmma(out, pa, sb2);
    var out16: f32acc[64, 16] = 0.0;
    out16 = wgmma(out16, pa, sb16);
    var out8: f32acc[64, 8] = 0.0;
    out8 = wgmma(out8, pa, sb8);
    var ss8: f32acc[64, 8] = 0.0;
    ss8 = wgmma(ss8, sa, sb8);
    store(p, acc, [0, 0]);
    store(o, out, [0, 0]);
    store(o16, out16, [0, 0]);
    store(o8, out8, [0, 0]);
    store(s8, ss8, [0, 0]);
}

kernel wgmma_rs_f16(a1: in f16[64, 64], b1: in f16[64, 64], b2: in f16[64, 64],
                    p: out f32[64, 64], o: out f32[64, 64])
    targets(sm_90a) threads(128)
{
    shared sa: f16[64, 64] swizzle(128);
    shared sb1: f16[64, 64] swizzle(128);
    shared sb2: f16[64, 64] swizzle(128);
    for (i in thread.x .. 4096 step 128) {
        let r = i / 64;
        let k = i % 64;
        let c = (((k >> 3) ^ (r & 7)) << 3) | (k & 7);
        sa[r, c] = a1[r, k];
        sb1[r, c] = b1[r, k];
        sb2[r, c] = b2[r, k];
    }
    fence_proxy_async();
    barrier();
    var acc: f32acc[64, 64] = 0.0;
    acc = wgmma(acc, sa, sb1);
    var out: f32acc[64, 64] = 0.0;
    out = wgmma(out, f16a(acc), sb2);
    store(p, acc, [0, 0]);
    store(o, out, [0, 0]);
}
