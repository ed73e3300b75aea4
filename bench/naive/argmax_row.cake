// argmax_row: the largest element of each f32 row and its first index (an online top-1):
// one warp per row, ROWS rows per block. Each lane keeps its best (value, index) while
// striding along the row, then the warp merges the lanes' pairs with shuffles, the smaller
// index winning a tie.

const ROWS: i32 = 4;
const NEG_INF: f32 = -3.4028234663852886e38;

kernel argmax_row(x: in f32[M, N], vals: out f32[M], idxs: out i32[M])
    threads(32 * ROWS)
    grid(cdiv(M, ROWS))
{
    let row = block.x * ROWS + warp;
    if (row < M) {
        var best: f32 = NEG_INF;
        var bi: i32 = N;
        for (j in lane .. N step 32) {
            let v = x[row, j];
            if (v > best) {
                best = v;
                bi = j;
            }
        }
        for (o in 0 .. 5) {
            let ov = shfl_xor(best, 16 >> o);
            let oi = shfl_xor(bi, 16 >> o);
            if (ov > best || (ov == best && oi < bi)) {
                best = ov;
                bi = oi;
            }
        }
        if (lane == 0) {
            vals[row] = best;
            idxs[row] = bi;
        }
    }
}
