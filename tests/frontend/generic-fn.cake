// A generic function is instantiated at each call from its arguments' types: one source,
// here a bf16 and an f32 load in the same kernel; a constant parameter takes its default.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s

fn first<E: bf16 | f16 | f32, W: i32 = 2>(x: in E[N], i: i32) -> f32 {
    return f32(x[i * W]);
}

kernel k(a: in bf16[N], b: in f32[N], y: out f32[1]) threads(32) {
    y[0] = first(a, 1) + first(b, 2);
}
// CHECK:      body([[A:%[0-9]+]]: ptr.global.bf16, [[B:%[0-9]+]]: ptr.global.f32,
// CHECK:        [[W1:%[0-9]+]] = const 2 : i32 !6:22
// CHECK:        elemptr [[A]], {{%[0-9]+}} : ptr.global.bf16 !6:17
// CHECK-NEXT:   load[1] {{%[0-9]+}} : bf16 !6:17
// CHECK:        elemptr [[B]], {{%[0-9]+}} : ptr.global.f32 !6:17
// CHECK-NEXT:   load[1] {{%[0-9]+}} : f32 !6:17
