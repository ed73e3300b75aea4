// index(i64): tensor elements lower to i64 index arithmetic (i32 indices sign-extended by
// a cast, shape symbols i64 parameters, constant dimensions i64 constants), also in a
// function the kernel calls; a for loop with an i64 bound has an i64 index (its i32 bounds
// sign-extended). With index(i32) everything stays i32, as without the clause.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s
// RUN: %cakec --emit=ir --passes= %s | %cakec --input=ir --emit=ir --passes= - | FileCheck %s

fn sum_row(x: in f32[R, C], r: i32) -> f32 {
    var s: f32 = 0.0;
    for (j in 0 .. C) {
        s += x[r, j];
    }
    return s;
}

kernel wide(a: in f32[B, 8, N], m: in f32[B, N], o: out f32[B], s: f32) threads(32) index(i64) {
    let i = thread.x;
    let big: i64 = N - 1;
    o[i] = a[i, 3, big] * s + sum_row(m, i);
}

kernel narrow(a: in f32[B, 8, N], o: out f32[B]) threads(32) index(i32) {
    let i = thread.x;
    o[i] = a[i, 3, i];
}

// CHECK-LABEL: kernel @wide {
// CHECK:        index i64
// CHECK:        param B : sym i64
// CHECK-NEXT:   param N : sym i64
// CHECK-NEXT:   body([[A:%[0-9]+]]: ptr.global.f32, [[M:%[0-9]+]]: ptr.global.f32, [[O:%[0-9]+]]: ptr.global.f32, [[S:%[0-9]+]]: f32, [[B:%[0-9]+]]: i64, [[N:%[0-9]+]]: i64) {
// CHECK-NEXT:     [[I:%[0-9]+]] = tid.x : i32
// CHECK-NEXT:     [[ONE:%[0-9]+]] = const 1 : i64
// CHECK-NEXT:     [[BIG:%[0-9]+]] = sub [[N]], [[ONE]] : i64
// o[i]: the i32 index sign-extended
// CHECK-NEXT:     [[IW:%[0-9]+]] = cast [[I]] : i64
// CHECK-NEXT:     [[PO:%[0-9]+]] = elemptr [[O]], [[IW]] : ptr.global.f32
// a[i, 3, big] = ((i * 8 + 3) * N + big), all i64 (the literal 3 an i64 constant)
// CHECK-NEXT:     [[IW2:%[0-9]+]] = cast [[I]] : i64
// CHECK-NEXT:     [[C3W:%[0-9]+]] = const 3 : i64
// CHECK-NEXT:     [[C8:%[0-9]+]] = const 8 : i64
// CHECK-NEXT:     [[M1:%[0-9]+]] = mul[1] [[IW2]], [[C8]] : i64
// CHECK-NEXT:     [[L1:%[0-9]+]] = add[1] [[M1]], [[C3W]] : i64
// CHECK-NEXT:     [[M2:%[0-9]+]] = mul[1] [[L1]], [[N]] : i64
// CHECK-NEXT:     [[L2:%[0-9]+]] = add[1] [[M2]], [[BIG]] : i64
// CHECK-NEXT:     {{%[0-9]+}} = elemptr [[A]], [[L2]] : ptr.global.f32
// the function's loop: an i64 index from 0 to the shape symbol N
// CHECK:          [[Z:%[0-9]+]] = const 0 : i64
// CHECK-NEXT:     [[ST:%[0-9]+]] = const 1 : i64
// CHECK-NEXT:     {{%[0-9]+}} = for[0] [[Z]], [[N]], [[ST]], {{%[0-9]+}} : f32 ([[J:%[0-9]+]]: i64, {{%[0-9]+}}: f32) {
// CHECK-NEXT:       [[RW:%[0-9]+]] = cast [[I]] : i64
// CHECK-NEXT:       [[RM:%[0-9]+]] = mul[1] [[RW]], [[N]] : i64
// CHECK-NEXT:       [[RL:%[0-9]+]] = add[1] [[RM]], [[J]] : i64
// CHECK-NEXT:       {{%[0-9]+}} = elemptr [[M]], [[RL]] : ptr.global.f32

// CHECK-LABEL: kernel @narrow {
// CHECK-NOT:    {{^}}  index
// CHECK:        param B : sym !
// CHECK-NEXT:   param N : sym !
// CHECK:        [[NI:%[0-9]+]] = tid.x : i32
// CHECK:        elemptr {{%[0-9]+}}, [[NI]] : ptr.global.f32
// CHECK:        [[N8:%[0-9]+]] = const 8 : i32
// CHECK-NEXT:   mul[1] [[NI]], [[N8]] : i32

// store(tensor, acc, [r, c]) of a wgmma accumulator: the rows and columns are i32,
// widened to i64 for wgmma.store, whose bounds are the i64 shape symbols (the backend
// computes the element offsets in i64)
kernel wg64(c: out f32[M, N]) targets(sm_90a) threads(128) index(i64) {
    shared sa: bf16[64, 32] swizzle(64);
    shared sn: bf16[16, 32] swizzle(64);
    var acc: f32acc[64, 16] = 0.0;
    acc = wgmma(acc, sa, sn);
    store(c, acc, [block.x * 64, 0]);
}

// CHECK-LABEL: kernel @wg64 {
// CHECK:        body([[C:%[0-9]+]]: ptr.global.f32, [[M:%[0-9]+]]: i64, [[N:%[0-9]+]]: i64) {
// CHECK:          [[R0:%[0-9]+]] = cast {{%[0-9]+}} : i64
// CHECK:          [[C0:%[0-9]+]] = cast {{%[0-9]+}} : i64
// CHECK-NEXT:     wgmma.store [[C]], {{%[0-9]+}}, [[M]], [[N]], [[R0]], [[C0]]
// RUN: %cakec --kernel wg64 %s | FileCheck %s --check-prefix=PTX64
// PTX64: setp.gt.s64 p, %rd{{[0-9]+}}, 0;
// PTX64: @p st.global.b32 [%rd{{[0-9]+}}+4], %r{{[0-9]+}};
