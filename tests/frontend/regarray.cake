// A register array is one variable per element: a loop whose index names elements is
// unrolled by irgen (no `for` op, the index a constant in each copy), and the elements are
// plain SSA values (no memory op touches them).
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s
// RUN: %cakec --target sm_90a --emit=ptx %s | FileCheck %s --check-prefix=PTX

kernel ra(x: in f32[4], y: out f32[4]) threads(32) {
    var v: f32[4] = [1.0, 2.0, 3.0, 4.0];
    for (j in 0 .. 4) unroll {
        v[3 - j] += x[j];
    }
    y[0] = v[0] + v[3];
}
// CHECK:      body([[X:%[0-9]+]]: ptr.global.f32, [[Y:%[0-9]+]]: ptr.global.f32) {
// CHECK-NEXT:   [[V0:%[0-9]+]] = const 0x1p+0 : f32 !8:22
// CHECK-NEXT:   const 0x1p+1 : f32 !8:27
// CHECK-NEXT:   const 0x1.8p+1 : f32 !8:32
// CHECK-NEXT:   [[V3:%[0-9]+]] = const 0x1p+2 : f32 !8:37
// CHECK-NOT:    for
// the first copy: j = 0, so it adds x[0] to v[3]
// CHECK:        const 0 : i32 !9:5
// CHECK-NEXT:   elemptr [[X]]
// CHECK-NEXT:   [[X0:%[0-9]+]] = load[1] {{%[0-9]+}} : f32 !10:22
// CHECK-NEXT:   [[NEW3:%[0-9]+]] = add [[V3]], [[X0]] : f32 !10:18
// the last copy: j = 3, so it adds x[3] to v[0]
// CHECK:        const 3 : i32 !9:5
// CHECK-NEXT:   elemptr [[X]]
// CHECK-NEXT:   [[X3:%[0-9]+]] = load[1] {{%[0-9]+}} : f32 !10:22
// CHECK-NEXT:   [[NEW0:%[0-9]+]] = add [[V0]], [[X3]] : f32 !10:18
// CHECK-NOT:    load
// CHECK:        add [[NEW0]], [[NEW3]] : f32 !12:17
// PTX-NOT: .local
// PTX-NOT: ld.local
