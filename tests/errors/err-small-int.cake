// RUN: %not %cakec %s 2>&1 | FileCheck %s
// u8 and u16 constants must fit (0 to 255, 0 to 65535), in literals and in folded
// constant expressions; unsigned types have no negation or abs.
// CHECK: err-small-int.cake:[[@LINE+11]]:17: error: constant 300 overflows u8
// CHECK: err-small-int.cake:[[@LINE+11]]:16: error: constant expression overflows u8
// CHECK: err-small-int.cake:[[@LINE+11]]:23: error: constant 256 overflows u8
// CHECK: err-small-int.cake:[[@LINE+11]]:12: error: constant 65536 overflows u16
// CHECK: err-small-int.cake:[[@LINE+11]]:19: error: constant expression overflows u16
// CHECK: err-small-int.cake:[[@LINE+11]]:12: error: operator '-' does not apply to u16
// CHECK: err-small-int.cake:[[@LINE+11]]:17: error: the argument of 'abs' must be a signed integer or a float, found u8
// CHECK: err-small-int.cake:[[@LINE+11]]:18: error: constant 65536 overflows u16

kernel k(u: inout u8[N], h: inout u16[N], x: in f32[N]) threads(32) {
    let i = thread.x;
    let v: u8 = 300;
    u[i] = 255 + u8(1) + 1;
    u[i] = u8(x[i]) - 256;
    h[i] = 65536;
    h[i] = u16(1) - 2;
    h[i] = -h[i];
    u[i] = abs(u[i]);
    let s: u16 = 0x10000;
}
