// Loops carry every outer variable their body assigns: `for` as iteration arguments after
// the index (lo, hi, step, then the initial values), `while` through its condition region
// (the before region gets the carried values, `condition` passes them on) and the yield of
// its after region. The unroll hint is the for op's immediate: 0 none, -1 full, N.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s

kernel loops(o: out f32[1], n: i32) threads(32) {
    var acc: f32 = 0.0;
    var k = 0;
    let untouched = n + 7;       // a run-time value (a let of a constant is one)
    for (i in 0 .. n) {
        acc += 1.0;
    }
    for (i in 0 .. 8 step 2) unroll {
        acc = acc * 2.0;
        k += i;
    }
    for (i in 1 .. 4) unroll(2) {
        for (j in 0 .. i) {
            k += j + untouched;
        }
    }
    while (k < 100) {
        k = k * 2;
    }
    o[0] = acc + f32(k);
}

// CHECK:      body([[O:%[0-9]+]]: ptr.global.f32, [[N:%[0-9]+]]: i32) {
// CHECK-NEXT:   [[ACC0:%[0-9]+]] = const 0x0p+0 : f32 !8:20
// CHECK-NEXT:   [[K0:%[0-9]+]] = const 0 : i32 !9:13
// CHECK-NEXT:   [[C7:%[0-9]+]] = const 7 : i32 !10:25
// CHECK-NEXT:   [[SEVEN:%[0-9]+]] = add [[N]], [[C7]] : i32 !10:23
// CHECK-NEXT:   [[LO:%[0-9]+]] = const 0 : i32 !11:15
// CHECK-NEXT:   [[ONE:%[0-9]+]] = const 1 : i32 !11:5
// CHECK-NEXT:   [[ACC1:%[0-9]+]] = for[0] [[LO]], [[N]], [[ONE]], [[ACC0]] : f32 ([[I:%[0-9]+]]: i32, [[ACCA:%[0-9]+]]: f32) {
// CHECK-NEXT:     [[F1:%[0-9]+]] = const 0x1p+0 : f32 !12:16
// CHECK-NEXT:     [[ACCB:%[0-9]+]] = add [[ACCA]], [[F1]] : f32 !12:13
// CHECK-NEXT:     yield [[ACCB]] !11:5
// CHECK-NEXT:   } !11:5
// two carried values, full unroll
// CHECK:        [[ACC2:%[0-9]+]], [[K2:%[0-9]+]] = for[-1] {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}, [[ACC1]], [[K0]] : f32, i32 ([[I2:%[0-9]+]]: i32, [[ACCC:%[0-9]+]]: f32, [[KC:%[0-9]+]]: i32) {
// CHECK:          [[ACCD:%[0-9]+]] = mul [[ACCC]], {{%[0-9]+}} : f32 !15:19
// CHECK-NEXT:     [[KD:%[0-9]+]] = add [[KC]], [[I2]] : i32 !16:11
// CHECK-NEXT:     yield [[ACCD]], [[KD]] !14:5
// nested loops: the outer one carries k because the inner one assigns it
// CHECK:        [[K3:%[0-9]+]] = for[2] {{.*}}, [[K2]] : i32 ([[I3:%[0-9]+]]: i32, [[KE:%[0-9]+]]: i32) {
// CHECK:          [[KF:%[0-9]+]] = for[0] {{%[0-9]+}}, [[I3]], {{%[0-9]+}}, [[KE]] : i32 ([[J:%[0-9]+]]: i32, [[KG:%[0-9]+]]: i32) {
// CHECK-NEXT:       [[T:%[0-9]+]] = add [[J]], [[SEVEN]] : i32 !20:20
// CHECK-NEXT:       [[KH:%[0-9]+]] = add [[KG]], [[T]] : i32 !20:15
// CHECK-NEXT:       yield [[KH]] !19:9
// CHECK-NEXT:     } !19:9
// CHECK-NEXT:     yield [[KF]] !18:5
// CHECK-NEXT:   } !18:5
// CHECK-NEXT:   [[K4:%[0-9]+]] = while [[K3]] : i32 ([[KW:%[0-9]+]]: i32) {
// CHECK-NEXT:     [[HUNDRED:%[0-9]+]] = const 100 : i32 !23:16
// CHECK-NEXT:     [[LT:%[0-9]+]] = cmp.lt [[KW]], [[HUNDRED]] : i1 !23:14
// CHECK-NEXT:     condition [[LT]], [[KW]] !23:5
// CHECK-NEXT:   } do ([[KA:%[0-9]+]]: i32) {
// CHECK-NEXT:     [[TWO:%[0-9]+]] = const 2 : i32 !24:17
// CHECK-NEXT:     [[KB:%[0-9]+]] = mul [[KA]], [[TWO]] : i32 !24:15
// CHECK-NEXT:     yield [[KB]] !23:5
// CHECK-NEXT:   } !23:5
// CHECK:        [[KF32:%[0-9]+]] = cast [[K4]] : f32 !26:18
// CHECK-NEXT:   add [[ACC2]], [[KF32]] : f32 !26:16
