// silu_mul: out = silu(gate) * up over n bf16 elements, where silu(g) = g / (1 + e^-g).
// The activation half of a gated MLP (SwiGLU). Math in f32, storage in bf16.
//
// Memory-bound: each thread loads 4 gate and 4 up values with one 8-byte bf16x4 access
// each, stores one bf16x4, and strides over the grid; the last n % 4 elements are done
// one by one. Vector accesses need the tensors 8-byte aligned.

const BLOCK: i32 = 256;
const LOG2E: f32 = 1.4426950408889634;

kernel silu_mul(gate: in bf16[n], up: in bf16[n], out: out bf16[n])
    targets(sm_90a, sm_100a, sm_103a)
    threads(BLOCK)
    grid(max(cdiv(n, BLOCK * 4), 1))
{
    let nvec = n / 4;
    let first = block.x * BLOCK + thread.x;
    let stride = grid_dim.x * BLOCK;
    for (v in first .. nvec step stride) {
        let i = v * 4;
        let g = f32x4(gate[i : 4]);
        let u = f32x4(up[i : 4]);
        // 1 / (1 + 2^(-g log2 e)) per lane; exp2 is the hardware's ex2.approx
        let e = f32x4(exp2(-g.x * LOG2E), exp2(-g.y * LOG2E), exp2(-g.z * LOG2E),
                      exp2(-g.w * LOG2E));
        out[i : 4] = bf16x4(g / (f32x4(1.0) + e) * u);
    }
    let t = nvec * 4 + first;
    if (t < n) {
        let g = f32(gate[t]);
        out[t] = bf16(g / (1.0 + exp2(-g * LOG2E)) * f32(up[t]));
    }
}
