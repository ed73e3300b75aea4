// Element-wise ops on fragments are built lane by lane on scalars (backend_ptx/llvm_ops.c,
// gen_lanewise): no LLVM vector of a fragment's lanes is built, operated on and split
// again. A conversion to bf16 stays in pairs (one cvt.rn.bf16x2.f32 per two lanes).
// RUN: %cakec --emit=llvm %s | FileCheck %s
// RUN: %cakec --emit=ptx %s | FileCheck %s --check-prefix=PTX
// CHECK-NOT:  <{{[0-9][0-9]+}} x float>
// CHECK:      fptrunc <2 x float> {{.*}} to <2 x bfloat>
// CHECK-NOT:  <{{[0-9][0-9]+}} x float>
// PTX-COUNT-16: cvt.rn.bf16x2.f32
// PTX-NOT:      cvt.rn.bf16.f32

kernel lanes(x: in f32[64, 64], o: out bf16[64, 64], s: f32)
    targets(sm_90a) threads(128)
{
    let a = fragment(x, [0, 0], 64);
    let e = exp2(a * s - by_row(row_max(a), 64));
    let m = mask_above(e, 0, 0.0);
    store(o, f32acc(bf16a(max(m, 0.5) / (e + 1.0))), [0, 0]);
}
