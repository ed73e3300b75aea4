// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// wgmma's register operand A (the RS form): bf16a[64, K] / f16a[64, K] with K a multiple of 16
// from 16 to 256, made by bf16a(acc) / f16a(acc) from an accumulator whose N is a multiple of
// 16; wgmma(acc, a, sb) checks A against B (one type, one K) and B against the accumulator.

kernel k(c: out bf16[M, N]) targets(sm_90a) threads(128) {
    shared sb: bf16[64, 64] swizzle(128);
    shared sh: f16[64, 64] swizzle(128);
    shared s32: bf16[64, 32] swizzle(64);
    var p: f32acc[64, 64] = 0.0;
    var p24: f32acc[64, 24] = 0.0;
    var q: f32acc[64, 8] = 0.0;
    var bad: bf16a[64, 24] = bf16a(p);
    var bad2: f16a[32, 64] = f16a(p);
    var bad3: bf16a[64] = bf16a(p);
    let a = bf16a(p);
    let h = f16a(p);
    let x: f32 = 1.0;
    let w = bf16a(p24);
    let y = bf16a(x);
    let z = bf16a(p, p);
    p = wgmma(p, a, sh);
    p = wgmma(p, h, sb);
    p = wgmma(p, a, s32);
    p = wgmma(p, x, sb);
    p = wgmma(p, a, sb.rows(4, 64));
    q = wgmma(q, a, sb);
    let g: f16a[64, 64] = a;
}

// CHECK: err-hopper-wgmma-rs.cake:13:24: error: the columns (K) of bf16a must be a multiple of 16 from 16 to 256 (one k16 step each), found 24
// CHECK-NEXT: {{^}}    var bad: bf16a[64, 24] = bf16a(p);
// CHECK-NEXT: {{^}}                       ^
// CHECK: err-hopper-wgmma-rs.cake:14:20: error: a register A fragment has 64 rows (one wgmma m64 tile per warpgroup), found 32
// CHECK: err-hopper-wgmma-rs.cake:15:15: error: a register A fragment is bf16a[64, K], found 1 dimension
// CHECK: err-hopper-wgmma-rs.cake:19:19: error: bf16a(acc) makes wgmma's operand A (64 x K, K a multiple of 16) of an accumulator's N columns, but it is f32acc[64, 24]
// CHECK-NEXT: {{^}}    let w = bf16a(p24);
// CHECK-NEXT: {{^}}                  ^
// CHECK: err-hopper-wgmma-rs.cake:20:19: error: bf16a takes an accumulator fragment (f32acc[64, N]) here, found f32
// CHECK: err-hopper-wgmma-rs.cake:21:13: error: 'bf16a' takes an accumulator: bf16a(acc), found 2 arguments
// CHECK: err-hopper-wgmma-rs.cake:22:9: error: wgmma operands must have one type: A (bf16a[64, 64]) is bf16 but B 'sh' is f16
// CHECK-NEXT: {{^}}    p = wgmma(p, a, sh);
// CHECK-NEXT: {{^}}        ^
// CHECK: err-hopper-wgmma-rs.cake:23:9: error: wgmma operands must have one type: A (f16a[64, 64]) is f16 but B 'sb' is bf16
// CHECK: err-hopper-wgmma-rs.cake:24:9: error: wgmma operands must share K: A (bf16a[64, 64]) has K = 64 but B 's32' has K = 32
// CHECK: err-hopper-wgmma-rs.cake:25:18: error: wgmma operand A is a shared array (buf or buf.rows(start, 64)) or a register fragment (bf16a[64, K] or f16a[64, K]), found f32
// CHECK: err-hopper-wgmma-rs.cake:26:29: error: rows(4, 64) of 'sb': the first row must be a multiple of 8 (a swizzle atom) and the rows inside its 64
// CHECK: err-hopper-wgmma-rs.cake:27:21: error: wgmma operand B 'sb' has 64 rows; it takes 8 (the accumulator's N): pass sb.rows(start, 8)
// CHECK: err-hopper-wgmma-rs.cake:28:27: error: type mismatch
