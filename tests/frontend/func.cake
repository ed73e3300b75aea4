// A call of a user function is its body in place: the value parameters are the argument
// values, a tensor parameter is the argument tensor (its dimension names the argument's
// shape symbols), a shared-array parameter the argument buffer. A return in the function
// sets its return flag (and value); what follows runs under `if (!flag)`.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s

fn axpy(a: f32, x: in f32[R], y: inout f32[R], i: i32) {
    if (i >= R) {
        return;
    }
    y[i] = a * x[i] + y[i];
}

fn first_pos(t: shared f32[8]) -> i32 {
    for (j in 0 .. 8) {
        if (t[j] > 0.0) {
            return j;
        }
    }
    return -1;
}

kernel k(x: in f32[N], y: inout f32[N], o: out i32[1]) threads(32) {
    shared buf: f32[8];
    axpy(2.0, x, y, thread.x);
    if (thread.x < 8) {
        buf[thread.x] = x[thread.x];
    }
    barrier();
    o[0] = first_pos(buf);
}

// CHECK:      body([[X:%[0-9]+]]: ptr.global.f32, [[Y:%[0-9]+]]: ptr.global.f32, [[O:%[0-9]+]]: ptr.global.i32, [[N:%[0-9]+]]: i32) {
// the call of axpy: the arguments, its return flag, then `i >= R` on the kernel's N
// CHECK-NEXT:   [[A:%[0-9]+]] = const 0x1p+1 : f32 !25:10
// CHECK-NEXT:   [[I:%[0-9]+]] = tid.x : i32 !25:28
// CHECK-NEXT:   [[F:%[0-9]+]] = const 0 : i1 !25:5
// CHECK-NEXT:   [[GE:%[0-9]+]] = cmp.ge [[I]], [[N]] : i1 !8:11
// CHECK-NEXT:   [[RET:%[0-9]+]] = if [[GE]] : i1 {
// CHECK-NEXT:     [[T:%[0-9]+]] = const 1 : i1 !9:9
// CHECK-NEXT:     yield [[T]] !8:5
// CHECK-NEXT:   } else {
// CHECK-NEXT:     yield [[F]] !8:5
// CHECK-NEXT:   } !8:5
// CHECK-NEXT:   [[GO:%[0-9]+]] = not [[RET]] : i1 !8:5
// CHECK-NEXT:   if [[GO]] {
// CHECK-NEXT:     [[YP:%[0-9]+]] = elemptr [[Y]], [[I]] : ptr.global.f32 !11:6
// CHECK-NEXT:     [[XP:%[0-9]+]] = elemptr [[X]], [[I]] : ptr.global.f32 !11:17
// CHECK-NEXT:     [[XV:%[0-9]+]] = load[1] [[XP]] : f32 !11:17
// CHECK-NEXT:     {{%[0-9]+}} = mul [[A]], [[XV]] : f32 !11:14
// CHECK:          store [[YP]], {{%[0-9]+}} !11:10
// the call of first_pos: the loop that `return` may leave is a while loop on the index
// and the return flag; the flag and the value are carried, and the call's value is the
// value once the rest of the body (`return -1`) ran under `if (!flag)`
// CHECK:        barrier !29:5
// CHECK:        [[F2:%[0-9]+]] = const 0 : i1 !30:12
// CHECK-NEXT:   [[V0:%[0-9]+]] = const 0 : i32 !30:12
// CHECK:        [[HI:%[0-9]+]] = const 8 : i32 !15:20
// CHECK-NEXT:   [[STEP:%[0-9]+]] = const 1 : i32 !15:5
// CHECK-NEXT:   {{%[0-9]+}}, [[FL:%[0-9]+]], [[VAL:%[0-9]+]] = while {{%[0-9]+}}, [[F2]], [[V0]] : i32, i1, i32 ([[J:%[0-9]+]]: i32, [[JF:%[0-9]+]]: i1, {{%[0-9]+}}: i32) {
// CHECK-NEXT:     [[LT:%[0-9]+]] = cmp.lt [[J]], [[HI]] : i1 !15:5
// CHECK-NEXT:     [[NF:%[0-9]+]] = not [[JF]] : i1 !15:5
// CHECK-NEXT:     [[C:%[0-9]+]] = and [[LT]], [[NF]] : i1 !15:5
// CHECK-NEXT:     condition [[C]],
// CHECK:        } do ([[J2:%[0-9]+]]: i32, {{.*}}) {
// CHECK-NEXT:     smem[0] : ptr.shared.f32 !16:14
// CHECK:          yield {{%[0-9]+}}, [[J2]] !16:9
// CHECK:          add [[J2]], [[STEP]] : i32 !15:5
// CHECK:        not [[FL]] : i1 !15:5
