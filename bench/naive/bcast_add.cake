// bcast_add: y[r, c] = x[r, c] * w[c] + b[r], in bf16 with f32 arithmetic: a 2D
// elementwise operation whose operands broadcast along rows (w) and columns (b).
// One thread per element on a 2D grid of 32 x 8 blocks.

kernel bcast_add(x: in bf16[M, N], w: in bf16[N], b: in bf16[M], y: out bf16[M, N])
    threads(32, 8)
    grid(cdiv(N, 32), cdiv(M, 8))
{
    let c = block.x * 32 + thread.x;
    let r = block.y * 8 + thread.y;
    if (r < M && c < N) {
        y[r, c] = bf16(f32(x[r, c]) * f32(w[c]) + f32(b[r]));
    }
}
