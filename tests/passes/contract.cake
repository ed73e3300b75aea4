// RUN: %cakec --emit=ir --target sm_90a %s | FileCheck %s
// RUN: %cakec --emit=ir --passes=contract %s | FileCheck %s --check-prefix=PASS
// RUN: %cakec --emit=ir -O0 --target sm_90a %s | FileCheck %s --check-prefix=O0
// RUN: %cakec --emit=ir --fmad=false --target sm_90a %s | FileCheck %s --check-prefix=OFF
// RUN: %cakec --emit=ptx --target sm_90a %s | FileCheck %s --check-prefix=PTX
// RUN: rm -rf %t && %cakec --emit=host --ptx-only --fmad=false -o %t %s && FileCheck %s --check-prefix=HDR < %t/manifest.json
// RUN: %not %cakec --fmad=yes %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %not %builddir/cakec-run --fmad=no %s k 2>&1 | FileCheck %s --check-prefix=CLI
// Floating-point contraction (passes/contract.c): f32 and f64 products fuse into the add
// or sub that uses them, scalars and vectors alike, at every -O level; f16, bf16 and
// integers are left alone; --fmad=false keeps every rounding.

kernel k(x: in f32[N], y: out f32[N], w: in f64[N], z: out f64[N], h: in f16[N], hy: out f16[N], i: in i32[N], iy: out i32[N])
    targets(sm_90a) threads(32) grid(1)
{
    let a = x[lane];
    let b = x[lane + 32];
    let c = x[lane + 64];
    y[lane] = a * b + c;
    y[lane + 32] = c - a * b;
    y[lane + 64] = a * c - b;
    y[lane + 96] = a * c + b * b;
    let v = f32x4(a, b, c, a) * f32x4(c) + f32x4(b);
    y[lane + 128] = v[0];
    z[lane] = w[lane] * w[lane + 32] + w[lane + 64];
    hy[lane] = h[lane] * h[lane] + h[lane];
    iy[lane] = i[lane] * i[lane] + i[lane];
}
// The sub forms negate the addend or the product's left operand; of two products the
// left one fuses and the right one stays a mul.
// CHECK-LABEL: kernel @k
// CHECK: [[A:%[0-9]+]] = load[1] {{.*}} : f32
// CHECK: [[B:%[0-9]+]] = load[1] {{.*}} : f32
// CHECK: [[C:%[0-9]+]] = load[1] {{.*}} : f32
// CHECK: fma [[A]], [[B]], [[C]] : f32
// CHECK: [[NA:%[0-9]+]] = neg [[A]] : f32
// CHECK-NEXT: fma [[NA]], [[B]], [[C]] : f32
// CHECK: [[NB:%[0-9]+]] = neg [[B]] : f32
// CHECK-NEXT: fma [[A]], [[C]], [[NB]] : f32
// CHECK: [[BB:%[0-9]+]] = mul [[B]], [[B]] : f32
// CHECK-NEXT: fma [[A]], [[C]], [[BB]] : f32
// CHECK: fma {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}} : f32x4
// CHECK: fma {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}} : f64
// CHECK: mul {{.*}} : f16
// CHECK: add {{.*}} : f16
// CHECK: mul {{.*}} : i32
// CHECK: add {{.*}} : i32
// CHECK-NOT: fma
// The pass alone, before canonicalize: the products stay for dce.
// PASS: [[P:%[0-9]+]] = mul [[X:%[0-9]+]], [[Y:%[0-9]+]] : f32
// PASS-NEXT: fma [[X]], [[Y]], {{%[0-9]+}} : f32
// O0-COUNT-6: = fma
// O0-NOT: = fma
// OFF-NOT: fma
// PTX-COUNT-5: fma.rn.f32
// PTX-NOT: add.rn.f32
// HDR: "--fmad=false"
// BAD: cakec: error: --fmad expects true or false, got 'yes'
// CLI: --fmad expects true or false, got 'no'
