// An entry point chooses by constant dimensions as well as element types: sum<NT> fixes
// x's second dimension to NT, so sum(x, y) launches sum_1 for x[B, 1], sum_2 for x[B, 2]
// (when B >= 256), sum_4 for x[B, 4], and the general design sum_any, which takes any T,
// for the rest. The grid says which (cdiv(B, 64 * NT) blocks, sum_any cdiv(B, 1000)).
// `fixed` has no general instance: dimensions no instance takes are refused with
// CAKE_ERR_SHAPE, naming them (z's is x's in every instance: x's names it) and what the
// instances take; a tensor of another rank goes
// to the first instance of its types, whose launcher says what is wrong.
// REQUIRES: cuda-h
// RUN: rm -rf %t && %cakec --emit=ptx,host -o %t %s
// RUN: %cc %sanflags -std=c99 -Wall -Wextra -Werror -I%t -I%cudainc %S/entry_dims_checks.c %t/sum.c %t/sum_1.c %t/sum_2.c %t/sum_4.c %t/sum_any_f32.c %t/fixed.c %t/fixed_1.c %t/fixed_2.c %t/cakert.c -ldl -lpthread -o %t/checks
// RUN: %t/checks | FileCheck %s
// RUN: FileCheck --check-prefix=MAN %s < %t/manifest.json
// RUN: FileCheck --check-prefix=HDR %s < %t/sum.h
// RUN: %cakec --emit=ptx,host -o %t/again %s && diff %t/sum.c %t/again/sum.c && diff %t/manifest.json %t/again/manifest.json

kernel sum<NT: i32>(x: in f32[B, NT], y: out f32[B]) threads(64) grid(cdiv(B, 64 * NT)) {
    let i = block.x * 64 + thread.x;
    if (i < B) {
        var acc: f32 = 0.0;
        for (t in 0 .. NT) {
            acc += x[i, t];
        }
        y[i] = acc;
    }
}

kernel sum_any<E: f32>(x: in E[B, T], y: out f32[B]) threads(64) grid(cdiv(B, 1000)) {
    let i = block.x * 64 + thread.x;
    if (i < B) {
        var acc: f32 = 0.0;
        for (t in 0 .. T) {
            acc += x[i, t];
        }
        y[i] = acc;
    }
}

instance sum<1> as sum_1;
instance sum<2> as sum_2 when (B >= 256);
instance sum<4> as sum_4;
instance sum_any<f32> entry sum;

kernel fixed<NT: i32>(x: in f32[NT, N], z: in f32[N, NT]) threads(32) grid(NT) { }
instance fixed<1> as fixed_1;
instance fixed<2> as fixed_2;

// CHECK: sum T=1 B=1024: CAKE_OK grid 16
// CHECK-NEXT: sum T=2 B=1024: CAKE_OK grid 8
// CHECK-NEXT: sum T=2 B=128: CAKE_OK grid 1
// CHECK-NEXT: sum T=4 B=1024: CAKE_OK grid 4
// CHECK-NEXT: sum T=3 B=1024: CAKE_OK grid 2
// CHECK-NEXT: sum rank 1: CAKE_ERR_NDIM sum_1: parameter 'x':
// CHECK-NEXT: sum bf16: CAKE_ERR_DTYPE sum: no instance takes these element types
// CHECK-NEXT: fixed T=2: CAKE_OK grid 2
// CHECK-NEXT: fixed T=3: CAKE_ERR_SHAPE fixed: no instance takes these dimensions (x.shape[0] = 3); the instances take x.shape[0] = 1, 2
// CHECK-NEXT: fixed z T=3: CAKE_ERR_SHAPE fixed: z.shape[1] = 3 but x.shape[0] = 2: every instance takes them equal
// CHECK-NEXT: fixed bf16: CAKE_ERR_DTYPE fixed: no instance takes these element types

// MAN: "entry": "sum",
// MAN-NEXT: "rule": "the first instance, in this order, whose tensor element types and constant dimensions match the arguments and whose condition (when, null: none) holds",
// MAN-NEXT: "instances": ["sum_1", "sum_2", "sum_4", "sum_any_f32"],

// HDR: *   sum_1 (x: f32, y: f32; x.shape[1] = 1);
// HDR-NEXT: *   sum_2 (x: f32, y: f32; x.shape[1] = 2) when B >= 256;
// HDR-NEXT: *   sum_4 (x: f32, y: f32; x.shape[1] = 4);
// HDR-NEXT: *   sum_any_f32 (x: f32, y: f32; x.shape[1] = T). */
// HDR: CAKE_ERR_SHAPE when none of
