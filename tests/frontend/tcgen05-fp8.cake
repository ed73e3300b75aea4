// tcgen05_mma on e4m3 and e5m2 operands (rows of 128 elements: one 128-byte swizzle span):
// kind f8f6f4 (2 for e4m3, 3 for e5m2 in the imm: N | M/64 << 9 | kind << 12), K/32 MMAs,
// the descriptors advanced 32 elements (32 bytes) per step, as for 16-bit inputs.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s

kernel f8(c: out f32[M, N]) targets(sm_100a, sm_103a) threads(128) {
    shared sa: e4m3[128, 128] swizzle(128);
    shared sb: e4m3[32, 128] swizzle(128);
    shared sc: e5m2[128, 128] swizzle(128);
    shared sd: e5m2[16, 128] swizzle(128);
    tmem acc: f32[128, 32];
    tmem acc2: f32[128, 16];
    if (warp == 0) {
        elect {
            tcgen05_mma(acc, sa, sb, accumulate: false);
            tcgen05_mma(acc2, sc, sd, accumulate: true);
        }
    }
    var r: f32[16] = tmem_load(acc, 32 * warp, 0);
    var r2: f32[16] = tmem_load(acc2, 32 * warp, 0);
    c[32 * warp + lane, 0] = r[0] + r2[0];
}

// CHECK:      [[PA:%[0-9]+]] = smem[0] : ptr.shared.e4m3
// CHECK:      tcgen05.mma[9248] {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}
// CHECK-NEXT: [[K32:%[0-9]+]] = const 32 : i32
// CHECK-NEXT: {{%[0-9]+}} = elemptr [[PA]], [[K32]] : ptr.shared.e4m3
// CHECK-COUNT-3: tcgen05.mma[9248]
// CHECK-NOT:  tcgen05.mma[9248]
// CHECK:      tcgen05.mma[13328]
// CHECK:      tcgen05.mma[13328]
// CHECK:      tcgen05.mma[13328]
// CHECK:      tcgen05.mma[13328]
// CHECK-NOT:  tcgen05.mma
