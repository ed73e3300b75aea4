// col_sum: y[c] = sum over r of x[r, c], f32: a column reduction. One thread per column
// walks down the rows, so each step of the warp reads 32 adjacent floats.

const BLOCK: i32 = 256;

kernel col_sum(x: in f32[M, N], y: out f32[N])
    threads(BLOCK)
    grid(cdiv(N, BLOCK))
{
    let c = block.x * BLOCK + thread.x;
    if (c < N) {
        var acc: f32 = 0.0;
        for (r in 0 .. M) {
            acc += x[r, c];
        }
        y[c] = acc;
    }
}
