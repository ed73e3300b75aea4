// softmax_row: y[r, :] = exp(x[r, :] - max) / sum(exp(x[r, :] - max)), f32, one block
// per row: a block reduction for the maximum, one for the sum (warp shuffles, then one
// shared slot per warp), then a third pass that writes.

const BLOCK: i32 = 256;
const WARPS: i32 = BLOCK / 32;
const NEG_MAX: f32 = -3.4028234663852886e38;

kernel softmax_row(x: in f32[M, N], y: out f32[M, N])
    threads(BLOCK)
    grid(M)
{
    shared wmax: f32[WARPS];
    shared wsum: f32[WARPS];
    let row = block.x;

    var m: f32 = NEG_MAX;
    for (j in thread.x .. N step BLOCK) {
        m = max(m, x[row, j]);
    }
    for (o in 0 .. 5) {
        m = max(m, shfl_xor(m, 16 >> o));
    }
    if (lane == 0) {
        wmax[warp] = m;
    }
    barrier();
    var rmax: f32 = NEG_MAX;
    for (i in 0 .. WARPS) {
        rmax = max(rmax, wmax[i]);
    }

    var s: f32 = 0.0;
    for (j in thread.x .. N step BLOCK) {
        s += exp(x[row, j] - rmax);
    }
    for (o in 0 .. 5) {
        s += shfl_xor(s, 16 >> o);
    }
    if (lane == 0) {
        wsum[warp] = s;
    }
    barrier();
    var total: f32 = 0.0;
    for (i in 0 .. WARPS) {
        total += wsum[i];
    }
    let inv = 1.0 / total;

    for (j in thread.x .. N step BLOCK) {
        y[row, j] = exp(x[row, j] - rmax) * inv;
    }
}
