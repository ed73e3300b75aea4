// axpby: y = a * x + b * y over n f32 elements.
//
// Memory-bound: each thread moves 4 contiguous elements per step with one 16-byte load of
// x, one of y and one 16-byte store of y, striding over the grid; the last n % 4 elements
// are handled one by one. Vector accesses need x and y 16-byte aligned (as allocators give).

const BLOCK: i32 = 256;

kernel axpby(x: in f32[n], y: inout f32[n], a: f32, b: f32)
    targets(sm_90a, sm_100a, sm_103a)
    threads(BLOCK)
    grid(max(cdiv(n, BLOCK * 4), 1))
{
    let nvec = n / 4;
    let first = block.x * BLOCK + thread.x;
    let stride = grid_dim.x * BLOCK;
    let av = f32x4(a);
    let bv = f32x4(b);
    for (v in first .. nvec step stride) {
        let i = v * 4;
        y[i : 4] = av * x[i : 4] + bv * y[i : 4];
    }
    // the tail: at most 3 elements, taken by the first threads of the grid
    let t = nvec * 4 + first;
    if (t < n) {
        y[t] = a * x[t] + b * y[t];
    }
}
