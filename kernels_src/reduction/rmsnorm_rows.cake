// rmsnorm_rows: rmsnorm for short rows: one warp per row, ROWS rows per block.
//
// With one block per row (rmsnorm.cake), a row of 1024 bf16 gives each of 256 threads a
// single 8-byte load, and the block then waits on a barrier for its shared partials. Here a
// warp owns a row: the sum of squares needs only shuffles (no shared memory, no barrier),
// each lane has several loads in flight, and the second read of the row hits L1.
// Prefer it for N up to a few thousand; bench/bandwidth.py dispatches on N.

const ROWS: i32 = 8;

kernel rmsnorm_rows(x: in bf16[M, N], w: in bf16[N], y: out bf16[M, N], eps: f32)
    targets(sm_90a, sm_100a, sm_103a)
    threads(32 * ROWS)
    grid(cdiv(M, ROWS))
{
    let row = block.x * ROWS + warp;
    // the whole warp shares `row`, so the shuffles below run with every lane present
    if (row < M) {
        let nvec = N % 4 == 0 ? N / 4 : 0;

        var acc: f32 = 0.0;
        for (j in lane .. nvec step 32) unroll(4) {
            let v = f32x4(x[row, j * 4 : 4]);
            acc += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
        }
        for (j in nvec * 4 + lane .. N step 32) {
            let v = f32(x[row, j]);
            acc += v * v;
        }
        for (o in 0 .. 5) unroll {
            acc += shfl_xor(acc, 16 >> o);
        }
        let scale = rsqrt(acc / f32(N) + eps);

        let sv = f32x4(scale);
        for (j in lane .. nvec step 32) unroll(4) {
            let v = f32x4(x[row, j * 4 : 4]);
            let g = f32x4(w[j * 4 : 4]);
            y[row, j * 4 : 4] = bf16x4(v * sv * g);
        }
        for (j in nvec * 4 + lane .. N step 32) {
            y[row, j] = bf16(f32(x[row, j]) * scale * f32(w[j]));
        }
    }
}
