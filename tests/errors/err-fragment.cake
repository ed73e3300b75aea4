// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// fragment(t, [row, col], N) reads a tile of a 2-dimensional tensor (or [col] of a
// 1-dimensional one) of f32, bf16 or f16 that the kernel may read, N a constant multiple
// of 8 from 8 to 256, in whole warpgroups.

kernel k(x: in bf16[M, N], o: out f32[M, N], q: in i32[M, N], y: in f32[2, M, N], v: in f16[N])
    targets(sm_90a) threads(128)
{
    let a = fragment(x, [0, 0]);
    let b = fragment(o, [0, 0], 64);
    let c = fragment(q, [0, 0], 64);
    let d = fragment(y, [0, 0], 64);
    let e = fragment(x, [0, 0], 12);
    let f = fragment(v, [0, 0], 64);
    let g = fragment(x, [0, 0], 64);
    elect {
        let h = fragment(x, [0, 0], 64);
    }
    store(o, g, [0, 0]);
}

// CHECK: err-fragment.cake:9:13: error: 'fragment' takes a tensor, [row, col] (or [col] of a 1-dimensional tensor) and N: fragment(c, [r, c], 256), found 2 arguments
// CHECK-NEXT: {{^}}    let a = fragment(x, [0, 0]);
// CHECK-NEXT: {{^}}            ^
// CHECK: err-fragment.cake:10:22: error: cannot read 'o': it is an 'out' tensor (declare it 'inout' to read and write it)
// CHECK-NEXT: {{^}}    let b = fragment(o, [0, 0], 64);
// CHECK-NEXT: {{^}}                     ^
// CHECK: err-fragment.cake:11:22: error: fragment converts f32, bf16 or f16 to f32, but 'q' holds i32
// CHECK-NEXT: {{^}}    let c = fragment(q, [0, 0], 64);
// CHECK-NEXT: {{^}}                     ^
// CHECK: err-fragment.cake:12:22: error: fragment reads a 2-dimensional tensor (a tile; or a matrix of a larger one, t[i, ...]) or a 1-dimensional one (a row for every row), but 'y' has 3 dimensions
// CHECK-NEXT: {{^}}    let d = fragment(y, [0, 0], 64);
// CHECK-NEXT: {{^}}                     ^
// CHECK: err-fragment.cake:13:33: error: fragment makes an f32acc[64, N] with N a multiple of 8 from 8 to 256, found 12
// CHECK-NEXT: {{^}}    let e = fragment(x, [0, 0], 12);
// CHECK-NEXT: {{^}}                                ^
// CHECK: err-fragment.cake:14:25: error: fragment needs 1 coordinate (a column), found 2
// CHECK-NEXT: {{^}}    let f = fragment(v, [0, 0], 64);
// CHECK-NEXT: {{^}}                        ^
// CHECK: err-fragment.cake:17:17: error: fragment inside an elect block: it needs all 128 threads of the warpgroup
// CHECK-NEXT: {{^}}        let h = fragment(x, [0, 0], 64);
// CHECK-NEXT: {{^}}                ^
