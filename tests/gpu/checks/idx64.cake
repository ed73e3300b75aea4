// 64-bit indexing on the GPU (check_idx64.c): index(i64) kernels over tensors past 2^31
// elements, and the launcher's refusal of the same computation without the clause.
// Here (lit): the kernels compile for every target, ptxas accepts them, and the index
// math of the index(i64) kernels is 64-bit while rowsq32's stays 32-bit.
// REQUIRES: ptxas
// RUN: rm -rf %t && %cakec --emit=ptx -o %t %s
// RUN: for t in sm_90a sm_100a sm_103a; do for k in flat_rev rowsq64 rowsq32; do %ptxas -arch=$t %t/$k.$t.ptx -o %t/$k.$t.cubin || exit 1; done; done
// RUN: FileCheck %s --check-prefix=FLAT < %t/flat_rev.sm_90a.ptx
// RUN: FileCheck %s --check-prefix=ROW64 < %t/rowsq64.sm_90a.ptx
// RUN: FileCheck %s --check-prefix=ROW32 < %t/rowsq32.sm_90a.ptx
// FLAT: .param .u64 flat_rev_{{[0-9a-f]+}}_param_2
// FLAT: setp.{{[lg][te]}}.s64
// ROW64: .param .u64 rowsq64_{{[0-9a-f]+}}_param_3
// ROW64: setp.{{[lg][te]}}.s64
// ROW64: mul.lo.s64
// ROW32: .param .u32 rowsq32_{{[0-9a-f]+}}_param_3
// ROW32-NOT: setp.{{..}}.s64

// (a) y[i] = x[N - 1 - i] + u8(i): the reversal reads across the 2^31 boundary both ways
kernel flat_rev(x: in u8[N], y: out u8[N]) threads(256) grid(cdiv(N, 256)) index(i64) {
    let i = i64(block.x) * 256 + i64(thread.x);
    if (i < N) {
        y[i] = x[N - 1 - i] + u8(i);
    }
}

// every lane of the warp calls it
fn warp_sum(v: f32) -> f32 {
    var acc = v;
    for (o in 0 .. 5) unroll {
        acc += shfl_xor(acc, 16 >> o);
    }
    return acc;
}

// (b) the sum of squares of each row, one warp per row: the loop index is i64 (C is)
kernel rowsq64(x: in bf16[R, C], sums: out f32[R]) threads(128) grid(cdiv(R, 4)) index(i64) {
    let r = block.x * 4 + warp;
    if (i64(r) >= R) {
        return;
    }
    var acc: f32 = 0.0;
    for (j in lane .. C step 32) {
        let v = f32(x[r, j]);
        acc += v * v;
    }
    let s = warp_sum(acc);
    if (lane == 0) {
        sums[r] = s;
    }
}

// (c) the same without index(i64): its launcher refuses x past 2^31 elements
kernel rowsq32(x: in bf16[R, C], sums: out f32[R]) threads(128) grid(cdiv(R, 4)) {
    let r = block.x * 4 + warp;
    if (r >= R) {
        return;
    }
    var acc: f32 = 0.0;
    for (j in lane .. C step 32) {
        let v = f32(x[r, j]);
        acc += v * v;
    }
    let s = warp_sum(acc);
    if (lane == 0) {
        sums[r] = s;
    }
}
