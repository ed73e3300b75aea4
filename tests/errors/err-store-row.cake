// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// store(tensor, r, [row, col]) of a register array writes r as one row: r has one
// dimension of at most 128 f32, bf16 or f16 elements, the tensor is 2-dimensional and
// writable (f32, bf16 or f16), the coordinates two i32.

kernel k(c: out bf16[M, N], d: in f32[M, N], e: out i32[M, N], v: out f32[N]) threads(128) {
    var two: f32[2, 4] = 0.0;
    var ints: i32[4] = 0;
    var long: f32[129] = 0.0;
    var ok: f32[8] = 1.0;
    store(c, two, [0, 0]);
    store(c, ints, [0, 0]);
    store(c, long, [0, 0]);
    store(d, ok, [0, 0]);
    store(e, ok, [0, 0]);
    store(v, ok, [0]);
    store(c, ok, [thread.x]);
    store(c, ok, [thread.x, 0.5]);
    store(c, ok, [thread.x, 8 * block.x]);
}

// CHECK: err-store-row.cake:11:14: error: store writes a register array of one dimension and at most 128 elements as a row, but 'two' is f32[2, ...]
// CHECK-NEXT: {{^}}    store(c, two, [0, 0]);
// CHECK-NEXT: {{^}}             ^
// CHECK: err-store-row.cake:12:14: error: store writes register arrays of f32, bf16 or f16, but 'ints' holds i32
// CHECK-NEXT: {{^}}    store(c, ints, [0, 0]);
// CHECK-NEXT: {{^}}             ^
// CHECK: err-store-row.cake:13:14: error: store writes a register array of one dimension and at most 128 elements as a row, but 'long' is f32[129]
// CHECK-NEXT: {{^}}    store(c, long, [0, 0]);
// CHECK-NEXT: {{^}}             ^
// CHECK: err-store-row.cake:14:11: error: cannot write to 'd': it is an 'in' tensor (declare it 'out' or 'inout')
// CHECK-NEXT: {{^}}    store(d, ok, [0, 0]);
// CHECK-NEXT: {{^}}          ^
// CHECK: err-store-row.cake:15:11: error: store converts its values to f32, bf16 or f16, but 'e' holds i32
// CHECK: err-store-row.cake:16:11: error: store writes a 2-dimensional tensor (or a matrix of a larger one, t[i, ...]), but 'v' has 1 dimension
// CHECK: err-store-row.cake:17:18: error: store needs 2 coordinates (a row and a column), found 1
// CHECK: err-store-row.cake:18:29: error: cannot use the float constant 0.5 as i32 (convert it with i32(...))
