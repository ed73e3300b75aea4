// Kernels whose results the IR interpreter (docs/interpreter.md) pins bit for bit in
// tests/interp/ops.cake: check_interp_agree.c runs them on the GPU and compares with the
// interpreter's bits (conversions with ties, subnormals, overflow and NaN; the canonical
// NaN of f32 arithmetic; shuffles, votes, ballot, per-lane loops, atomics, cp.async).

kernel conv(x: in f32[32], b: out bf16[32], h: out f16[32], n: out i32[32], d: out f32[32])
    targets(sm_90a, sm_100a, sm_103a)
    threads(32)
    grid(1)
{
    let v = x[thread.x];
    b[thread.x] = bf16(v);
    h[thread.x] = f16(v);
    n[thread.x] = i32(v);
    d[thread.x] = v - v;
}

kernel warpops(src: in f32[64], out: out i32[128, 8], total: inout f32[1], counts: inout i32[4])
    targets(sm_90a, sm_100a, sm_103a)
    threads(64)
    grid(2)
{
    shared hist: i32[4];
    shared tile: f32[64];
    let t = thread.x;
    if (t < 4) {
        hist[t] = 0;
    }
    cp_async(tile[t], src[t]);
    cp_async_commit();
    cp_async_wait(0);
    barrier();
    atomic_add(hist[t % 4], 1);
    var k = t;
    var c = 0;
    while (k > 0) {
        k = k >> 1;
        c = c + 1;
    }
    let row = block.x * 64 + t;
    out[row, 0] = i32(ballot(t % 3 == 0));
    out[row, 1] = shfl_up(t, 1);
    out[row, 2] = shfl_down(t, 3);
    out[row, 3] = shfl_idx(t, 5);
    out[row, 4] = i32(any(t == 40));
    out[row, 5] = i32(all(t < 64));
    out[row, 6] = c;
    out[row, 7] = i32(tile[63 - t]);
    atomic_add(total[0], 0.5);
    barrier();
    if (t < 4) {
        atomic_add(counts[t], hist[t]);
    }
}
