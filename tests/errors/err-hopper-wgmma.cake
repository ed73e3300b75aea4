// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// wgmma operands: A is 64 rows (a buffer of 64 rows or buf.rows(start, 64), start a multiple
// of 8), B has N rows (the accumulator's columns); both K-major with K a multiple of the
// kind's instruction K (16 for bf16/f16, 32 for e4m3/e5m2, 8 for f32 read as tf32),
// swizzled with rows as long as the swizzle span, of one type. The accumulator is an
// f32acc[64, N] fragment.

kernel k(c: out bf16[M, N]) targets(sm_90a) threads(128) {
    shared x: bf16[64, 64] swizzle(128);
    shared y: bf16[128, 64] swizzle(128);
    shared z: bf16[64, 64];
    shared w: bf16[64, 32] swizzle(128);
    shared h: f16[128, 64] swizzle(128);
    shared q: bf16[128, 32] swizzle(64);
    shared f: i32[64, 32] swizzle(128);
    shared e: bf16[64, 8] swizzle(32);
    shared g: e4m3[64, 16] swizzle(32);
    shared p: e4m3[64, 128] swizzle(128);
    shared s: e5m2[128, 128] swizzle(128);
    var acc: f32acc[64, 128] = 0.0;
    acc = wgmma(acc, y, y);
    acc = wgmma(acc, z, y);
    acc = wgmma(acc, w, y);
    acc = wgmma(acc, x, h);
    acc = wgmma(acc, x, q);
    acc = wgmma(acc, x, x);
    acc = wgmma(acc, y.rows(4, 64), y);
    acc = wgmma(acc, y.rows(0, 32), y);
    acc = wgmma(1.0, x, y);
    acc = wgmma(acc, f, y);
    acc = wgmma(acc, e, y);
    acc = wgmma(acc, g, y);
    acc = wgmma(acc, p, s);
    acc = wgmma(acc, x, y.rows(0, 64));
    acc = wgmma(acc, x);
    let r = y.rows(0, 64);
    acc = wgmma(acc, x, y);
    store(c, acc, [0, 0]);
}

// CHECK: err-hopper-wgmma.cake:21:22: error: wgmma operand A 'y' has 128 rows; it takes 64 (m64): pass y.rows(start, 64)
// CHECK-NEXT: {{^}}    acc = wgmma(acc, y, y);
// CHECK-NEXT: {{^}}                     ^
// CHECK: err-hopper-wgmma.cake:22:22: error: wgmma operand A 'z' is not swizzled: declare it swizzle(32), swizzle(64) or swizzle(128)
// CHECK-NEXT: {{^}}    acc = wgmma(acc, z, y);
// CHECK-NEXT: {{^}}                     ^
// CHECK: err-hopper-wgmma.cake:23:22: error: wgmma operand A 'w' has rows of 64 bytes (K = 32), but its swizzle(128) needs rows of 128 bytes
// CHECK-NEXT: {{^}}    acc = wgmma(acc, w, y);
// CHECK-NEXT: {{^}}                     ^
// CHECK: err-hopper-wgmma.cake:24:11: error: wgmma operands must have one type: A 'x' is bf16 but B 'h' is f16
// CHECK-NEXT: {{^}}    acc = wgmma(acc, x, h);
// CHECK-NEXT: {{^}}          ^
// CHECK: err-hopper-wgmma.cake:25:11: error: wgmma operands must share K: A 'x' has K = 64 but B 'q' has K = 32
// CHECK-NEXT: {{^}}    acc = wgmma(acc, x, q);
// CHECK-NEXT: {{^}}          ^
// CHECK: err-hopper-wgmma.cake:26:25: error: wgmma operand B 'x' has 64 rows; it takes 128 (the accumulator's N): pass x.rows(start, 128)
// CHECK-NEXT: {{^}}    acc = wgmma(acc, x, x);
// CHECK-NEXT: {{^}}                        ^
// CHECK: err-hopper-wgmma.cake:27:29: error: rows(4, 64) of 'y': the first row must be a multiple of 8 (a swizzle atom) and the rows inside its 128
// CHECK-NEXT: {{^}}    acc = wgmma(acc, y.rows(4, 64), y);
// CHECK-NEXT: {{^}}                            ^
// CHECK: err-hopper-wgmma.cake:28:32: error: wgmma operand A has 64 rows (m64), found rows(..., 32)
// CHECK-NEXT: {{^}}    acc = wgmma(acc, y.rows(0, 32), y);
// CHECK-NEXT: {{^}}                               ^
// CHECK: err-hopper-wgmma.cake:29:17: error: wgmma takes an accumulator fragment (f32acc[64, N]) here, found untyped float
// CHECK-NEXT: {{^}}    acc = wgmma(1.0, x, y);
// CHECK-NEXT: {{^}}                ^
// CHECK: err-hopper-wgmma.cake:30:22: error: wgmma operand A 'f' holds i32; wgmma takes bf16, f16, e4m3, e5m2 or f32 (as tf32)
// CHECK-NEXT: {{^}}    acc = wgmma(acc, f, y);
// CHECK-NEXT: {{^}}                     ^
// CHECK: err-hopper-wgmma.cake:31:22: error: wgmma operand A 'e' has K = 8, expected a multiple of 16 (one k16 step of bf16 each)
// CHECK-NEXT: {{^}}    acc = wgmma(acc, e, y);
// CHECK-NEXT: {{^}}                     ^
// CHECK: err-hopper-wgmma.cake:32:22: error: wgmma operand A 'g' has K = 16, expected a multiple of 32 (one k32 step of e4m3 each)
// CHECK-NEXT: {{^}}    acc = wgmma(acc, g, y);
// CHECK-NEXT: {{^}}                     ^
// CHECK: err-hopper-wgmma.cake:33:11: error: wgmma operands must have one type: A 'p' is e4m3 but B 's' is e5m2
// CHECK-NEXT: {{^}}    acc = wgmma(acc, p, s);
// CHECK-NEXT: {{^}}          ^
// CHECK: err-hopper-wgmma.cake:34:35: error: wgmma operand B has 128 rows (the accumulator's N), found rows(..., 64)
// CHECK-NEXT: {{^}}    acc = wgmma(acc, x, y.rows(0, 64));
// CHECK-NEXT: {{^}}                                  ^
// CHECK: err-hopper-wgmma.cake:35:11: error: 'wgmma' takes an accumulator, operand A and operand B: acc = wgmma(acc, a, b), found 2 arguments
// CHECK-NEXT: {{^}}    acc = wgmma(acc, x);
// CHECK-NEXT: {{^}}          ^
// CHECK: err-hopper-wgmma.cake:36:15: error: '.rows(start, n)' selects rows of a shared array as an operand of wgmma; it is not a value
// CHECK-NEXT: {{^}}    let r = y.rows(0, 64);
// CHECK-NEXT: {{^}}              ^
