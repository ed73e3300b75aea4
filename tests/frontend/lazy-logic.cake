// '&&', '||' and '?:' make a side that touches memory (a tensor or shared element, an
// atomic, a call of a function that does) in a region of an 'if', so it runs only when
// taken; a side without memory is computed regardless and combined with and/or/select.
// A constant left side decides without a branch. tests/interp/lazy-logic.cake runs them.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s

fn at(x: in f32[N], i: i32) -> f32 {
    return x[i];
}

kernel k<S: i32>(x: in f32[n], y: out f32[n], cnt: inout i32[1]) threads(32) {
    let i = thread.x;
    let a = i < n && x[i] > 0.0;
    let b = i > 3 || i < 1;
    let c = i < n ? at(x, i) : 0.0;
    let d = b ? 1.0 : 2.0;
    let e = S != 0 && x[0] > 1.0;
    let f = i > 5 ? atomic_add(cnt[0], 1) : 0;
    if (a && b && e) {
        y[i] = c + d + f32(f);
    }
}

instance k<0> as k0;

// CHECK-LABEL: kernel @k0
// CHECK: [[A:%[0-9]+]] = cmp.lt
// CHECK-NEXT: = if [[A]] : i1 {
// CHECK-NEXT: elemptr
// CHECK-NEXT: load
// CHECK: yield
// CHECK-NEXT: } else {
// CHECK-NEXT: const 0 : i1
// CHECK-NEXT: yield
// CHECK-NOT: load
// CHECK: = or
// CHECK-NEXT: [[C:%[0-9]+]] = cmp.lt
// CHECK-NEXT: = if [[C]] : f32 {
// CHECK: load
// CHECK: } else {
// CHECK-NOT: load
// CHECK: = select
// CHECK-NEXT: = const 0 : i1 !17:
// CHECK-NOT: load
// CHECK: = if {{%[0-9]+}} : i32 {
// CHECK-NEXT: const 0 : i32
// CHECK-NEXT: elemptr
// CHECK-NEXT: const 1 : i32
// CHECK-NEXT: atom.add
// CHECK: } else {
// CHECK-NOT: atom.add
// CHECK: ret
