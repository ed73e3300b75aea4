// fragment: fragment(t, [row0, col0], N), a tensor tile read in the accumulator's layout,
// and fragment(v, [col0], N), a row vector for every row, checked on the GPU and under the
// interpreter by check_fragment.c. One warpgroup reads a 64 x 64 tile of x at (r0, c0) and
// 64 columns of bias at cb (parts of both may lie outside: they read 0), and the 64 x 8
// tile at the same place, and stores
//   o  = x tile + 2 bias     (64 x 64)
//   o8 = x tile              (64 x 8: the f32x4 form)
// Here (lit, no GPU): the kernels compile, ptxas assembles them with no spills, and the
// IR holds one wgmma.load per fragment.
// REQUIRES: ptxas
// RUN: rm -rf %t && %cakec --emit=ptx,ir -o %t %s
// RUN: %ptxas -v -arch=sm_90a %t/fragment_bf16.sm_90a.ptx -o %t/a.cubin 2>&1 | FileCheck %s --implicit-check-not=Performance
// RUN: FileCheck --check-prefix=IR %s < %t/fragment_bf16.ir
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// IR: wgmma.load[64] {{.*}} : f32x32
// IR: wgmma.load[65600] {{.*}} : f32x32
// IR: wgmma.load[8] {{.*}} : f32x4

kernel fragment_kind<T: f32 | bf16 | f16>(x: in T[R, C], bias: in T[NB], o: out f32[64, 64], o8: out f32[64, 8],
                                           r0: i32, c0: i32, cb: i32)
    targets(sm_90a) threads(128)
{
    let f = fragment(x, [r0, c0], 64);
    let b = fragment(bias, [cb], 64);
    store(o, f + b * 2.0, [0, 0]);
    store(o8, fragment(x, [r0, c0], 8), [0, 0]);
}

instance fragment_kind<f32> as fragment_f32;
instance fragment_kind<bf16> as fragment_bf16;
instance fragment_kind<f16> as fragment_f16;
