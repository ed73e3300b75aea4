// softmax_rows: softmax of short f32 rows: one warp per row, ROWS rows per block.
//
// An online softmax: each lane keeps a running maximum m and a running sum s of
// exp(x - m), rescaling s when m grows, so the row is read twice (once to reduce, once to
// normalize) instead of three times. Lanes merge their (m, s) pairs with shuffles; no shared
// memory and no barrier. exp(t) is 2^(t log2 e) with the hardware's ex2.approx.
// Prefer it for N up to a few thousand; bench/bandwidth.py dispatches on N.

const ROWS: i32 = 8;
const LOG2E: f32 = 1.4426950408889634;
const NEG_MAX: f32 = -3.4028234663852886e38;

kernel softmax_rows(x: in f32[M, N], y: out f32[M, N])
    targets(sm_90a, sm_100a, sm_103a)
    threads(32 * ROWS)
    grid(cdiv(M, ROWS))
{
    let row = block.x * ROWS + warp;
    if (row < M) {
        let nvec = N % 4 == 0 ? N / 4 : 0;

        // running maximum and sum, both in the log2 domain's scale
        var m: f32 = NEG_MAX;
        var s: f32 = 0.0;
        for (j in lane .. nvec step 32) unroll(4) {
            let v = x[row, j * 4 : 4] * f32x4(LOG2E);
            let mn = max(m, max(max(v.x, v.y), max(v.z, v.w)));
            s = s * exp2(m - mn) + exp2(v.x - mn) + exp2(v.y - mn) + exp2(v.z - mn) +
                exp2(v.w - mn);
            m = mn;
        }
        for (j in nvec * 4 + lane .. N step 32) {
            let v = x[row, j] * LOG2E;
            let mn = max(m, v);
            s = s * exp2(m - mn) + exp2(v - mn);
            m = mn;
        }
        for (o in 0 .. 5) unroll {
            let mo = shfl_xor(m, 16 >> o);
            let so = shfl_xor(s, 16 >> o);
            let mn = max(m, mo);
            s = s * exp2(m - mn) + so * exp2(mo - mn);
            m = mn;
        }
        let inv = 1.0 / s;

        for (j in lane .. nvec step 32) unroll(4) {
            let v = x[row, j * 4 : 4];
            y[row, j * 4 : 4] = f32x4(exp2(fma(v.x, LOG2E, -m)) * inv,
                                      exp2(fma(v.y, LOG2E, -m)) * inv,
                                      exp2(fma(v.z, LOG2E, -m)) * inv,
                                      exp2(fma(v.w, LOG2E, -m)) * inv);
        }
        for (j in nvec * 4 + lane .. N step 32) {
            y[row, j] = exp2(fma(x[row, j], LOG2E, -m)) * inv;
        }
    }
}
