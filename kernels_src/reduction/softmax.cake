// softmax: y[r, :] = exp(x[r, :] - max) / sum(exp(x[r, :] - max)), one block per f32 row.
//
// Two block reductions (the row maximum, then the sum of exponentials), each a warp
// shuffle reduction followed by one shared slot per warp and a barrier. exp(t) is computed
// as 2^(t log2 e) with the hardware's ex2.approx. Rows are read 4-wide (16-byte f32x4)
// when N is a multiple of 4, scalar otherwise.

const BLOCK: i32 = 256;
const WARPS: i32 = BLOCK / 32;
const LOG2E: f32 = 1.4426950408889634;
const NEG_MAX: f32 = -3.4028234663852886e38;

kernel softmax(x: in f32[M, N], y: out f32[M, N])
    targets(sm_90a, sm_100a, sm_103a)
    threads(BLOCK)
    grid(M)
{
    shared wmax: f32[WARPS];
    shared wsum: f32[WARPS];

    let row = block.x;
    let nvec = N % 4 == 0 ? N / 4 : 0;

    // 1. the row maximum
    var m: f32 = NEG_MAX;
    for (j in thread.x .. nvec step BLOCK) {
        let v = x[row, j * 4 : 4];
        m = max(m, max(max(v.x, v.y), max(v.z, v.w)));
    }
    for (j in nvec * 4 + thread.x .. N step BLOCK) {
        m = max(m, x[row, j]);
    }
    for (o in 0 .. 5) unroll {
        m = max(m, shfl_xor(m, 16 >> o));
    }
    if (lane == 0) {
        wmax[warp] = m;
    }
    barrier();
    var rmax: f32 = NEG_MAX;
    for (i in 0 .. WARPS) unroll {
        rmax = max(rmax, wmax[i]);
    }

    // 2. the sum of exponentials
    let bias = rmax * LOG2E;
    var s: f32 = 0.0;
    for (j in thread.x .. nvec step BLOCK) {
        let v = x[row, j * 4 : 4];
        s += exp2(fma(v.x, LOG2E, -bias)) + exp2(fma(v.y, LOG2E, -bias)) +
             exp2(fma(v.z, LOG2E, -bias)) + exp2(fma(v.w, LOG2E, -bias));
    }
    for (j in nvec * 4 + thread.x .. N step BLOCK) {
        s += exp2(fma(x[row, j], LOG2E, -bias));
    }
    for (o in 0 .. 5) unroll {
        s += shfl_xor(s, 16 >> o);
    }
    if (lane == 0) {
        wsum[warp] = s;
    }
    barrier();
    var total: f32 = 0.0;
    for (i in 0 .. WARPS) unroll {
        total += wsum[i];
    }
    let inv = 1.0 / total;

    // 3. normalize
    for (j in thread.x .. nvec step BLOCK) {
        let v = x[row, j * 4 : 4];
        y[row, j * 4 : 4] = f32x4(exp2(fma(v.x, LOG2E, -bias)) * inv,
                                  exp2(fma(v.y, LOG2E, -bias)) * inv,
                                  exp2(fma(v.z, LOG2E, -bias)) * inv,
                                  exp2(fma(v.w, LOG2E, -bias)) * inv);
    }
    for (j in nvec * 4 + thread.x .. N step BLOCK) {
        y[row, j] = exp2(fma(x[row, j], LOG2E, -bias)) * inv;
    }
}
