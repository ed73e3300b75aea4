// layernorm_row: y[r, :] = (x[r, :] - mean) / sqrt(var + eps) * w + b, bf16 in and out,
// f32 arithmetic; one warp per row, ROWS rows per block. Two passes over the row for the
// mean and the variance (warp shuffles only, no shared memory), a third writes.

const ROWS: i32 = 4;

kernel layernorm_row(x: in bf16[M, N], w: in bf16[N], b: in bf16[N], y: out bf16[M, N],
                     eps: f32)
    threads(32 * ROWS)
    grid(cdiv(M, ROWS))
{
    let row = block.x * ROWS + warp;
    if (row < M) {
        var s: f32 = 0.0;
        for (j in lane .. N step 32) {
            s += f32(x[row, j]);
        }
        for (o in 0 .. 5) {
            s += shfl_xor(s, 16 >> o);
        }
        let mean = s / f32(N);

        var q: f32 = 0.0;
        for (j in lane .. N step 32) {
            let d = f32(x[row, j]) - mean;
            q += d * d;
        }
        for (o in 0 .. 5) {
            q += shfl_xor(q, 16 >> o);
        }
        let rstd = rsqrt(q / f32(N) + eps);

        for (j in lane .. N step 32) {
            let v = (f32(x[row, j]) - mean) * rstd;
            y[row, j] = bf16(v * f32(w[j]) + f32(b[j]));
        }
    }
}
