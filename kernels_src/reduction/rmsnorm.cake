// rmsnorm: y[r, :] = x[r, :] * w / sqrt(mean(x[r, :]^2) + eps), one block per row.
// bf16 in and out, f32 accumulation.
//
// Each thread sums the squares of a strided share of the row (4-wide bf16x4 loads when N
// is a multiple of 4, so that every vector is 8-byte aligned; scalar loads otherwise), the
// warp reduces with shuffles, the warps meet through a small shared array, and every
// thread then reads the row back (from L1/L2) to scale and store it.

const BLOCK: i32 = 256;
const WARPS: i32 = BLOCK / 32;

kernel rmsnorm(x: in bf16[M, N], w: in bf16[N], y: out bf16[M, N], eps: f32)
    targets(sm_90a, sm_100a, sm_103a)
    threads(BLOCK)
    grid(M)
{
    shared partial: f32[WARPS];

    let row = block.x;
    let nvec = N % 4 == 0 ? N / 4 : 0;

    var acc: f32 = 0.0;
    for (j in thread.x .. nvec step BLOCK) {
        let v = f32x4(x[row, j * 4 : 4]);
        acc += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
    }
    for (j in nvec * 4 + thread.x .. N step BLOCK) {
        let v = f32(x[row, j]);
        acc += v * v;
    }

    // warp sum, then the sum of the warps' sums
    for (o in 0 .. 5) unroll {
        acc += shfl_xor(acc, 16 >> o);
    }
    if (lane == 0) {
        partial[warp] = acc;
    }
    barrier();
    var total: f32 = 0.0;
    for (i in 0 .. WARPS) unroll {
        total += partial[i];
    }
    let scale = rsqrt(total / f32(N) + eps);

    let sv = f32x4(scale);
    for (j in thread.x .. nvec step BLOCK) {
        let v = f32x4(x[row, j * 4 : 4]);
        let g = f32x4(w[j * 4 : 4]);
        y[row, j * 4 : 4] = bf16x4(v * sv * g);
    }
    for (j in nvec * 4 + thread.x .. N step BLOCK) {
        y[row, j] = bf16(f32(x[row, j]) * scale * f32(w[j]));
    }
}
