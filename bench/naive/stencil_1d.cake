// stencil_1d: y[i] = sum over k in -R..R of w[k + R] * x[i + k], f32, with zeros outside
// x (a cross-correlation with "same" padding). One thread per output, reading its 2R + 1
// neighbours straight from global memory (the cache serves the overlap).

const BLOCK: i32 = 256;
const R: i32 = 4;

kernel stencil_1d(x: in f32[N], w: in f32[2 * R + 1], y: out f32[N])
    threads(BLOCK)
    grid(cdiv(N, BLOCK))
{
    let i = block.x * BLOCK + thread.x;
    if (i < N) {
        var acc: f32 = 0.0;
        for (k in 0 .. 2 * R + 1) {
            let j = i + k - R;
            if (j >= 0 && j < N) {
                acc += w[k] * x[j];
            }
        }
        y[i] = acc;
    }
}
