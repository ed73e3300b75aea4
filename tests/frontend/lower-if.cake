// Mutable locals are SSA values: an if that assigns outer variables yields their new
// values (in declaration order) from both branches, and later uses see the if's results.
// A variable declared inside a branch is not passed out. else-if chains nest.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s

kernel branches(o: out i32[4]) threads(32) {
    var a = 1;
    var b = 2;
    var c = 3;
    if (thread.x == 0) {
        var inner = 5;
        inner += 1;
        b = inner;
        a = 10;
    } else if (thread.x == 1) {
        c = 30;
    }
    o[0] = a + b + c;
}

// CHECK:      body([[O:%[0-9]+]]: ptr.global.i32) {
// CHECK-NEXT:   [[A:%[0-9]+]] = const 1 : i32 !7:13
// CHECK-NEXT:   [[B:%[0-9]+]] = const 2 : i32 !8:13
// CHECK-NEXT:   [[C:%[0-9]+]] = const 3 : i32 !9:13
// CHECK:        [[COND:%[0-9]+]] = cmp.eq {{.*}} : i1 !10:18
// CHECK-NEXT:   [[A2:%[0-9]+]], [[B2:%[0-9]+]], [[C2:%[0-9]+]] = if [[COND]] : i32, i32, i32 {
// CHECK-NEXT:     [[FIVE:%[0-9]+]] = const 5 : i32 !11:21
// CHECK-NEXT:     [[ONE:%[0-9]+]] = const 1 : i32 !12:18
// CHECK-NEXT:     [[INNER:%[0-9]+]] = add [[FIVE]], [[ONE]] : i32 !12:15
// CHECK-NEXT:     [[TEN:%[0-9]+]] = const 10 : i32 !14:13
// CHECK-NEXT:     yield [[TEN]], [[INNER]], [[C]] !10:5
// CHECK-NEXT:   } else {
// CHECK:          [[COND2:%[0-9]+]] = cmp.eq {{.*}} : i1 !15:25
// CHECK-NEXT:     [[C3:%[0-9]+]] = if [[COND2]] : i32 {
// CHECK-NEXT:       [[THIRTY:%[0-9]+]] = const 30 : i32 !16:13
// CHECK-NEXT:       yield [[THIRTY]] !15:12
// CHECK-NEXT:     } else {
// CHECK-NEXT:       yield [[C]] !15:12
// CHECK-NEXT:     } !15:12
// CHECK-NEXT:     yield [[A]], [[B]], [[C3]] !10:5
// CHECK-NEXT:   } !10:5
// CHECK:        [[S1:%[0-9]+]] = add [[A2]], [[B2]] : i32 !18:14
// CHECK-NEXT:   [[S2:%[0-9]+]] = add [[S1]], [[C2]] : i32 !18:18
// CHECK-NEXT:   store {{%[0-9]+}}, [[S2]] !18:10
// CHECK-NEXT:   ret
