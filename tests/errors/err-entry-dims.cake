// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// An entry point chooses by constant dimensions as well as element types, so instances
// whose tensors fix different dimensions (or a constant where another has a shape symbol)
// share it; shape symbols at the same place must still be the same. An instance takes an
// argument when each of its constant dimensions is the argument's and each shape symbol
// stands for one size wherever it appears: x[N, N] does not take x[2, 3].

kernel sum<NT: i32>(x: in f32[B, NT], y: out f32[B]) threads(64) grid(cdiv(B, 64)) { }
instance sum<2> as sum_2 when (B >= 256);     // nothing after it takes x[B, 2]
instance sum<4> as sum_4;

kernel rows<NT: i32>(x: in f32[B, NT], y: out f32[B]) threads(64) { }
kernel rows_any<E: f32>(x: in E[R, T], y: out f32[R]) threads(64) { }
instance rows<2> as rows_2;
instance rows_any<f32> entry rows;

kernel tok<NT: i32>(x: in f32[B, NT]) threads(64) { }
kernel tok_any<E: f32>(x: in E[B, T]) threads(64) { }
instance tok_any<f32> entry tok;
instance tok<2> as tok_2 when (B >= 256);     // tok_any takes every x[B, 2] first

// x[N, N] does not take x[2, 3]: rect_23 is tried, and rect_23_all takes what it leaves
kernel sq<E: f32>(x: in E[N, N]) threads(32) { }
kernel rect<A: i32, C: i32>(x: in f32[A, C]) threads(32) { }
instance sq<f32> as sq_f32;
instance rect<2, 3> as rect_23 entry sq when (num_sms > 100);
instance rect<2, 3> as rect_23_all entry sq;

// CHECK: err-entry-dims.cake:9:26: error: the entry point 'sum' selects nothing for the arguments 'sum_2' takes when 'B >= 256' is false: declare an instance that takes them all, on its targets, without 'when' after 'sum_2'
// CHECK-NEXT: instance sum<2> as sum_2 when (B >= 256);     // nothing after it takes x[B, 2]
// CHECK-NEXT:                          ^
// CHECK: err-entry-dims.cake:15:10: error: the instance 'rows_any_f32' cannot join the entry point 'rows': its parameter 'x: in f32[R, T]' is 'x: in f32[B, 2]' there
// CHECK: err-entry-dims.cake:14:10: note: the entry point's first instance, 'rows_2', is here
// CHECK: err-entry-dims.cake:20:26: error: the entry point 'tok' never selects the instance 'tok_2': 'tok_any_f32' before it takes every argument 'tok_2' takes, on its targets, and has no 'when'
// CHECK-NEXT: instance tok<2> as tok_2 when (B >= 256);     // tok_any takes every x[B, 2] first
// CHECK-NEXT:                          ^
// CHECK-NEXT: err-entry-dims.cake:19:10: note: 'tok_any_f32' is here
