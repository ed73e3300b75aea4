// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// Tiles of larger tensors (t[i, ...]), transposed tiles (t.T), a.cols(start, k) of a
// register A fragment, buf.rows(start, N) as operand B and f32acc(a): each misuse is
// reported at its place.
kernel tile_err(x: in f32[B, R, C], y: in f32[R, C], v: in f32[C], o: out f32[B, R, C])
    targets(sm_90a) threads(128)
{
    shared sb: bf16[128, 64] swizzle(128);
    var regs: f32[4] = 0.0;
    let f = fragment(x[0].T, [0, 0], 64);
    let g = fragment(x[0, 1], [0, 0], 64);
    let h = fragment(x, [0, 0], 64);
    let k = fragment(v.T, [0], 64);
    let m = fragment(y.U, [0, 0], 64);
    let q = fragment(x[0 : 2], [0, 0], 64);
    store(o[0].T, regs, [0, 0]);
    let a = bf16a(f);
    var d: f32acc[64, 64] = 0.0;
    d = wgmma(d, a.cols(8, 16), sb.rows(0, 64));
    d = wgmma(d, a.cols(32, 48), sb.rows(0, 64));
    d = wgmma(d, a.cols(0, 24), sb.rows(0, 64));
    d = wgmma(d, a.cols(block.x, 16), sb.rows(0, 64));
    d = wgmma(d, a.cols(0, 16), sb.rows(68, 64));
    let w = f32acc(f);
    let z = a.cols(0, 16);
    store(o[0], f, [0, 0], paired: true);
    let u = fragment(x[0].T, [0, 0], 64, paired: block.x == 0);
    let u2 = fragment(x[0].T, [0, 0], 64, paired: 1);
    let u3 = fragment(sb.rows(0, 64), [0, 0], 64, paired: true);
    let u4 = fragment(x[0].T, [0, 0], 64, paired: false, part: 1);
}

// CHECK: err-tile.cake:11:23: error: fragment takes a matrix: 'x' has 3 dimensions, so give its first 1 index (found 2)
// CHECK-NEXT: {{^}}    let g = fragment(x[0, 1], [0, 0], 64);
// CHECK-NEXT: {{^}}                      ^
// CHECK: err-tile.cake:12:22: error: fragment reads a 2-dimensional tensor (a tile; or a matrix of a larger one, t[i, ...]) or a 1-dimensional one (a row for every row), but 'x' has 3 dimensions
// CHECK: err-tile.cake:13:24: error: fragment: '.T' transposes a matrix, but 'v' has 1 dimension
// CHECK: err-tile.cake:14:24: error: fragment takes a tensor, a matrix of one (t[i, j]) or its transpose (t.T), found '.U'
// CHECK: err-tile.cake:15:23: error: fragment takes a matrix of 'x' (its leading indices), not a vector access
// CHECK: err-tile.cake:16:16: error: store of a register array writes part of one row; '.T' (a transposed tile) is for accumulator fragments
// CHECK: err-tile.cake:19:20: error: cols(8, 16) of a register A fragment of K = 64: the first column must be a multiple of 16 (a k16 step) and the columns inside it
// CHECK: err-tile.cake:20:20: error: cols(32, 48) of a register A fragment of K = 64: the first column must be a multiple of 16 (a k16 step) and the columns inside it
// CHECK: err-tile.cake:21:28: error: cols(..., 24) of a register A fragment of K = 64: the count must be a multiple of 16 (k16 steps) up to K
// CHECK: err-tile.cake:22:31: error: the first column of cols(...) must be known at compile time once loops are unrolled (constants, indices of 'unroll' loops with constant bounds, 'let's and arithmetic of those)
// CHECK: err-tile.cake:23:41: error: rows(68, 64) of 'sb': the first row must be a multiple of 8 (a swizzle atom) and the rows inside its 128
// CHECK: err-tile.cake:24:20: error: f32acc(a) widens a register A fragment (bf16a[64, K] or f16a[64, K]), found f32acc[64, 64]
// CHECK: err-tile.cake:25:15: error: '.cols(start, k)' selects columns of a register A fragment as operand A of wgmma; it is not a value
// CHECK: err-tile.cake:26:28: error: 'paired: true' is for a transposed tile (t.T, buf.T), whose two elements of a column a thread holds are adjacent; 'o' is not transposed
// CHECK: err-tile.cake:27:58: error: 'paired:' takes a constant (true, false or a condition on generic parameters), not a value known only at run time
// CHECK: err-tile.cake:28:51: error: 'paired:' takes true or false, found untyped int
// CHECK: err-tile.cake:29:51: error: 'paired: true' is for a transposed tile (t.T, buf.T), whose two elements of a column a thread holds are adjacent; 'sb' is not transposed
// CHECK: err-tile.cake:30:58: error: 'fragment' takes the named argument 'paired:' last, found 'part:'
