// RUN: %not %builddir/cakec-run %s halfsum x=%S/Inputs/f32_100.npy out=%t.npy 2>&1 | FileCheck %s
// A planted bug: a warp shuffle under an if on the loaded data, which only some lanes of
// a warp take (x[i] = i / 2 - 3: lanes 7-31 of the first warp). The condition depends on
// the data, so the compiler cannot see it; the interpreter finds it when it runs.

kernel halfsum(x: in f32[n], out: out f32[n])
    targets(sm_90a)
    threads(32)
    grid(cdiv(n, 32))
{
    let i = block.x * 32 + thread.x;
    var v: f32 = 0.0;
    if (i < n) {
        v = x[i];
    }
    if (v > 0.0) {
// CHECK: shfl-divergent.cake:[[@LINE+1]]:14: error: divergent shfl.xor: executed by lanes {{[0-9-]+}} of the warp while lanes {{[0-9, -]+}} do not take part (it needs the whole warp) [block ({{[0-3]}},0,0), warp 0, lanes
        v += shfl_xor(v, 1);
    }
    if (i < n) {
        out[i] = v;
    }
}
