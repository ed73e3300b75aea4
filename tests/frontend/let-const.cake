// A `let` of a compile-time scalar is a constant, as a `const` is: in a generic kernel
// `let NT = 2 * VT;` sizes shared and register arrays, bounds loops that index register
// arrays, folds into arithmetic, and makes an if constant (it keeps only the branch taken). A let of a run-time value stays a value (the errors
// are in tests/errors/err-let-const.cake).
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s
// RUN: %cakec --emit=ir --passes= -D VT=8 %s | FileCheck %s --check-prefix=SET

const VT: i32 = 4;

kernel letc<W: i32>(x: in f32[N], y: out f32[N]) threads(32) {
    let NT = 2 * VT;              // 8 (16 with -D VT=8)
    let NW = NT * W;              // through a generic parameter: 24
    let HALF = 0.5;
    let t = thread.x;             // a run-time value
    shared sb: f32[NW, 2];
    var acc: f32[NT] = 0.0;
    for (u in 0 .. NT / 2) unroll {
        acc[2 * u] = x[t + u];
        acc[2 * u + 1] = x[t + u + NT] * HALF;
    }
    sb[t % NW, 0] = acc[NT - 1];
    let WIDE = NT > 8;            // false here: the if keeps no branch (true with -D VT=8)
    if (WIDE) {
        acc[0] = acc[0] * 2.0;
    }
    y[t] = acc[0] + acc[NT - 2] + f32(NW);
}
instance letc<3> as letc3;

// CHECK:      shared sb : f32 [24, 2] align 16
// CHECK-NOT:  for
// the last copy of the unrolled loop: acc[7] = x[t + 3 + NT] * HALF, NT and HALF constants
// CHECK:      [[T:%[0-9]+]] = tid.x : i32
// CHECK:      [[U:%[0-9]+]] = const 3 : i32 !17:5
// CHECK:      [[A:%[0-9]+]] = add [[T]], [[U]] : i32 !19:30
// CHECK-NEXT: [[NT:%[0-9]+]] = const 8 : i32 !19:36
// CHECK-NEXT: add [[A]], [[NT]] : i32
// CHECK:      const 0x1p-1 : f32 !19:42
// sb[t % NW, 0] and f32(NW)
// CHECK:      const 24 : i32 !21:12
// CHECK-NOT:  if
// CHECK-NOT:  for
// CHECK:      const 0x1.8p+4 : f32 !26:35
// SET:        shared sb : f32 [48, 2] align 16
// SET-NOT:    if
// SET:        const 0x1p+1 : f32 !24:27
