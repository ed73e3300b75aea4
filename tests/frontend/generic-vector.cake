// A type parameter's vectors: `Tx2` and `Tx4` stand for the instance's type with 2 or 4
// lanes, in types and conversions, as `T` does for the scalar (docs/language.md, "Generic
// kernels and entry points"). Each instance converts and stores its own vector type.
// RUN: rm -rf %t && %cakec --emit=ir -o %t %s
// RUN: FileCheck --check-prefix=F16 %s < %t/narrow_f16.ir
// RUN: FileCheck --check-prefix=BF16 %s < %t/narrow_bf16.ir
// F16: cast {{%[0-9]+}} : f16x4
// F16: store {{%[0-9]+}}, {{%[0-9]+}} !16:25
// F16: cast {{%[0-9]+}} : f16x2
// BF16: cast {{%[0-9]+}} : bf16x4
// BF16: cast {{%[0-9]+}} : bf16x2
kernel narrow<P: bf16 | f16>(x: in f32[N], y: out P[N], z: out P[N])
    targets(sm_90a) threads(128)
{
    let v: Px4 = Px4(x[4 * thread.x : 4]);
    y[4 * thread.x : 4] = v;
    z[2 * thread.x : 2] = Px2(x[2 * thread.x : 2]);
}
instance narrow<f16> as narrow_f16;
instance narrow<bf16> as narrow_bf16;
