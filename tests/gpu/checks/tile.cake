// tile: the tile forms of fragment and store and the register-operand slices of wgmma,
// checked on the GPU and under the interpreter by check_tile.c. Block b of B:
//   o[b]     = the 64 x 64 tile of x[b]^T at (r0, c0)     fragment(x[b].T, ...), 0 outside
//   p[b]^T  <- the same tile at (r0, c0)                   store(p[b].T, ...): copies x[b]
//   q[b]     = a A'^T in two k-halves, a = bf16(x[b]'s 64 x 128 tile at 0, 0):
//              q[i][n] = sum_h sum_k a[i][64 h + k] w[64 h + n][k]      a.cols, sb.rows
//   e[b]     = that tile - f32acc(a): each element's bf16 rounding residual (exact)
//   o2[b]    = the tile of x[b]^T read with paired rows, stored plain: its rows permuted
//   p2[b]^T <- the plain tile stored with paired rows (the inverse permutation)
//   o3[b], p3[b]: the same two of the bf16 tensor xh (16-bit pairs)
//   o4[b], o5[b]: o2's and o3's paired fragments stored paired into a transposed shared
//            tile (a plain f32 array; swizzled bf16 panels), read back paired and stored
//            plain: o2 and o3 again, bit for bit (the shared tiles' paired accesses)
//   o6[b], o7[b]: o's plain fragment through an f32 shared array at rows 3.., columns 6..,
//            and xh's through a swizzled bf16 tile of two panels at rows 8.., columns 64..
//            (the second panel), stored and read back untransposed: the tiles of x[b]^T and
//            xh[b]^T again, bit for bit (constant corners: one address per thread plus a
//            constant, or an xor with one, per element)
//   o8[b]:   as o7 at rows r8.., r8 = (r0 % 16) / 8 * 8 a run-time multiple of 8 (0 or 8)
// Here (lit, no GPU): the kernel compiles, ptxas assembles it with no spills.
// REQUIRES: ptxas
// RUN: rm -rf %t && %cakec --emit=ptx,ir -o %t %s
// RUN: %ptxas -v -arch=sm_90a %t/tile_ops.sm_90a.ptx -o %t/a.cubin 2>&1 | FileCheck %s --implicit-check-not=Performance
// RUN: FileCheck --check-prefix=IR %s < %t/tile_ops.ir
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// IR: wgmma.load[131136] {{.*}} : f32x32
// IR: wgmma.store[131072]
// IR: wgmma.load[1179712] {{.*}} : f32x32
// IR: wgmma.store[1179648]

kernel tile_ops(x: in f32[B, R, C], w: in bf16[128, 64], o: out f32[B, 64, 64], p: inout f32[B, R, C],
                q: out f32[B, 64, 64], e: out f32[B, 64, 128], o2: out f32[B, 64, 64], p2: inout f32[B, R, C],
                xh: in bf16[B, R, C], o3: out f32[B, 64, 64], p3: inout bf16[B, R, C], o4: out f32[B, 64, 64],
                o5: out f32[B, 64, 64], o6: out f32[B, 64, 64], o7: out f32[B, 64, 64], o8: out f32[B, 64, 64], r0: i32, c0: i32)
    targets(sm_90a) threads(128) grid(B)
{
    shared sb: bf16[128, 64] swizzle(128);
    shared sf: f32[64, 64];
    shared sz: bf16[128, 64] swizzle(128);
    shared sg: f32[72, 80];
    shared sw: bf16[256, 64] swizzle(128);
    shared sv: bf16[256, 64] swizzle(128);
    let b = block.x;
    let f = fragment(x[b].T, [r0, c0], 64);
    store(o[b], f, [0, 0]);
    store(p[b].T, f, [r0, c0]);
    let f2 = fragment(x[b].T, [r0, c0], 64, paired: true);
    store(o2[b], f2, [0, 0]);
    store(p2[b].T, f, [r0, c0], paired: true);
    let fh = fragment(xh[b].T, [r0, c0], 64);
    let f3 = fragment(xh[b].T, [r0, c0], 64, paired: true);
    store(o3[b], f3, [0, 0]);
    store(sf.T, f2, [0, 0], paired: true);
    store(sz.rows(0, 64).T, f3, [0, 0], paired: true);
    store(p3[b].T, fh, [r0, c0], paired: true);
    store(sg, f, [3, 6]);
    store(sw.rows(0, 128), fh, [8, 64]);
    let r8 = (r0 % 16) / 8 * 8;
    store(sv.rows(0, 128), fh, [r8, 64]);
    // w into the swizzled operand array (128-byte swizzle: 16-byte chunk ^ row % 8)
    for (k in thread.x .. 128 * 64 step 128) {
        let rr = k / 64;
        let cc = k % 64;
        sb[rr, ((cc / 8) ^ (rr % 8)) * 8 + cc % 8] = w[rr, cc];
    }
    fence_proxy_async();
    barrier();
    let t = fragment(x[b], [0, 0], 128);
    let a = bf16a(t);
    var d: f32acc[64, 64] = 0.0;
    for (h in 0 .. 2) unroll {
        d = wgmma(d, a.cols(64 * h, 64), sb.rows(64 * h, 64));
    }
    store(q[b], d, [0, 0]);
    store(e[b], t - f32acc(a), [0, 0]);
    store(o4[b], fragment(sf.T, [0, 0], 64, paired: true), [0, 0]);
    store(o5[b], fragment(sz.rows(0, 64).T, [0, 0], 64, paired: true), [0, 0]);
    store(o6[b], fragment(sg, [3, 6], 64), [0, 0]);
    store(o7[b], fragment(sw.rows(0, 128), [8, 64], 64), [0, 0]);
    store(o8[b], fragment(sv.rows(0, 128), [r8, 64], 64), [0, 0]);
}
