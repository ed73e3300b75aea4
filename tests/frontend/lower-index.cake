// Tensor elements lower to row-major i32 index arithmetic marked nsw (mul[1], add[1]; dims
// from the shape symbols or constants), elemptr, then load (imm 1, the read-only path, for
// `in` tensors) or store. Shape symbols are parameters after the declared ones, in order.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s

kernel index3(a: in f32[B, 8, N], o: inout f32[B, N], s: f32) threads(32) {
    let i = thread.x;
    o[i, 2] = a[i, 3, i] * s + o[i, 2];
}

// CHECK:      kernel @index3 {
// CHECK-NEXT:   source "{{.*}}lower-index.cake"
// CHECK-NEXT:   targets sm_90a sm_100a sm_103a
// CHECK-NEXT:   threads 32 1 1
// CHECK-NEXT:   grid "1" "1" "1"
// CHECK-NEXT:   param a : tensor in f32 [B, 8, N] !6:15
// CHECK-NEXT:   param o : tensor inout f32 [B, N] !6:35
// CHECK-NEXT:   param s : scalar f32 !6:55
// CHECK-NEXT:   param B : sym !6:25
// CHECK-NEXT:   param N : sym !6:31
// CHECK-NEXT:   body([[A:%[0-9]+]]: ptr.global.f32, [[O:%[0-9]+]]: ptr.global.f32, [[S:%[0-9]+]]: f32, [[B:%[0-9]+]]: i32, [[N:%[0-9]+]]: i32) {
// CHECK-NEXT:     [[I:%[0-9]+]] = tid.x : i32 !7:20
// store address first: o[i, 2] = (i * N + 2)
// CHECK-NEXT:     [[C2:%[0-9]+]] = const 2 : i32 !8:10
// CHECK-NEXT:     [[M:%[0-9]+]] = mul[1] [[I]], [[N]] : i32 !8:6
// CHECK-NEXT:     [[L:%[0-9]+]] = add[1] [[M]], [[C2]] : i32 !8:6
// CHECK-NEXT:     [[P:%[0-9]+]] = elemptr [[O]], [[L]] : ptr.global.f32 !8:6
// a[i, 3, i] = ((i * 8 + 3) * N + i), read-only
// CHECK-NEXT:     [[C3:%[0-9]+]] = const 3 : i32 !8:20
// CHECK-NEXT:     [[C8:%[0-9]+]] = const 8 : i32 !8:16
// CHECK-NEXT:     [[M1:%[0-9]+]] = mul[1] [[I]], [[C8]] : i32 !8:16
// CHECK-NEXT:     [[L1:%[0-9]+]] = add[1] [[M1]], [[C3]] : i32 !8:16
// CHECK-NEXT:     [[M2:%[0-9]+]] = mul[1] [[L1]], [[N]] : i32 !8:16
// CHECK-NEXT:     [[L2:%[0-9]+]] = add[1] [[M2]], [[I]] : i32 !8:16
// CHECK-NEXT:     [[PA:%[0-9]+]] = elemptr [[A]], [[L2]] : ptr.global.f32 !8:16
// CHECK-NEXT:     [[VA:%[0-9]+]] = load[1] [[PA]] : f32 !8:16
// CHECK-NEXT:     [[X:%[0-9]+]] = mul [[VA]], [[S]] : f32 !8:26
// the inout read takes the ordinary path
// CHECK:          [[PO:%[0-9]+]] = elemptr [[O]], {{%[0-9]+}} : ptr.global.f32 !8:33
// CHECK-NEXT:     [[VO:%[0-9]+]] = load[0] [[PO]] : f32 !8:33
// CHECK-NEXT:     [[SUM:%[0-9]+]] = add [[X]], [[VO]] : f32 !8:30
// CHECK-NEXT:     store [[P]], [[SUM]] !8:13
// CHECK-NEXT:     ret !6:75
// CHECK-NEXT:   }
// CHECK-NEXT: }
