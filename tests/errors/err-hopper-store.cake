// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// An accumulator fragment is f32acc[64, N] with N a multiple of 8 from 8 to 256;
// store(tensor, acc, [row, col]) writes a 2-dimensional, writable f32, bf16 or f16 tensor.

kernel k(c: out bf16[M, N], d: in f32[M, N], e: out i32[M, N], v: out f32[N])
    targets(sm_90a) threads(128)
{
    var bad: f32acc[32, 128] = 0.0;
    var bad2: f32acc[64, 12] = 0.0;
    var bad3: f32acc[64] = 0.0;
    var acc: f32acc[64, 64] = 0.0;
    let x: f32 = 1.0;
    store(d, acc, [0, 0]);
    store(e, acc, [0, 0]);
    store(v, acc, [0]);
    store(c, x, [0, 0]);
    store(c, acc, [0]);
    store(c, acc, [0, 1.5]);
    acc = acc * 2;
    acc = acc + x;
    acc = acc * acc;
    acc = 1;
    let i: i32 = 1;
    acc = acc * i;
}

// CHECK: err-hopper-store.cake:8:21: error: an accumulator fragment has 64 rows (one wgmma m64 tile per warpgroup), found 32
// CHECK-NEXT: {{^}}    var bad: f32acc[32, 128] = 0.0;
// CHECK-NEXT: {{^}}                    ^
// CHECK: err-hopper-store.cake:9:26: error: the columns of f32acc must be a multiple of 8 from 8 to 256, found 12
// CHECK-NEXT: {{^}}    var bad2: f32acc[64, 12] = 0.0;
// CHECK-NEXT: {{^}}                         ^
// CHECK: err-hopper-store.cake:10:15: error: an accumulator fragment is f32acc[64, N], found 1 dimension
// CHECK-NEXT: {{^}}    var bad3: f32acc[64] = 0.0;
// CHECK-NEXT: {{^}}              ^
// CHECK: err-hopper-store.cake:13:11: error: cannot write to 'd': it is an 'in' tensor (declare it 'out' or 'inout')
// CHECK-NEXT: {{^}}    store(d, acc, [0, 0]);
// CHECK-NEXT: {{^}}          ^
// CHECK: err-hopper-store.cake:14:11: error: store converts its values to f32, bf16 or f16, but 'e' holds i32
// CHECK-NEXT: {{^}}    store(e, acc, [0, 0]);
// CHECK-NEXT: {{^}}          ^
// CHECK: err-hopper-store.cake:15:11: error: store writes a 2-dimensional tensor (or a matrix of a larger one, t[i, ...]), but 'v' has 1 dimension
// CHECK-NEXT: {{^}}    store(v, acc, [0]);
// CHECK-NEXT: {{^}}          ^
// CHECK: err-hopper-store.cake:16:14: error: store writes an accumulator fragment (f32acc[64, N]) or a register array (var r: f32[N]), found f32
// CHECK-NEXT: {{^}}    store(c, x, [0, 0]);
// CHECK-NEXT: {{^}}             ^
// CHECK: err-hopper-store.cake:17:19: error: store needs 2 coordinates (a row and a column), found 1
// CHECK-NEXT: {{^}}    store(c, acc, [0]);
// CHECK-NEXT: {{^}}                  ^
// CHECK: err-hopper-store.cake:18:23: error: cannot use the float constant 1.5 as i32 (convert it with i32(...))
// CHECK-NEXT: {{^}}    store(c, acc, [0, 1.5]);
// CHECK-NEXT: {{^}}                      ^
// CHECK: err-hopper-store.cake:24:15: error: operands of '*' have different types: f32acc[64, 64] and i32
// CHECK-NEXT: {{^}}    acc = acc * i;
// CHECK-NEXT: {{^}}              ^
