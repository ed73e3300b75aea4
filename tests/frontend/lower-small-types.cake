// u8 and u16 are unsigned integers like u32 (unsigned div, shr, compare, min, max; casts
// zero-extend); e4m3 and e5m2 are fp8 storage types: loads, stores, vectors and casts to and
// from f16/bf16/f32 only. A conversion of a constant to fp8 is folded with the hardware's
// rounding (nearest even) and saturation; a literal converted to fp8 is an f32 first.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s
// RUN: %cakec --emit=ir --passes= %s > %t.1 && %cakec --input=ir --emit=ir --passes= %t.1 > %t.2 && diff %t.1 %t.2

kernel ints(a: inout u8[N], b: inout u16[N], s: u8, t: u16) threads(32) {
    let i = thread.x;
    let x = a[i];
    a[i] = x / s + min(x, 200) - u8(300);
    b[i] = max(b[i] >> 3, t) % 7 + u16(x) + u16(-1);
    let c: u8 = 255;
    let lt = x < c;
    a[i + 1] = lt ? u8(f32(b[i]) * 0.5) : u8(-2.5);
}

// CHECK-LABEL: kernel @ints
// CHECK: param a : tensor inout u8 [N]
// CHECK: param b : tensor inout u16 [N]
// CHECK: param s : scalar u8
// CHECK: param t : scalar u16
// CHECK: body(%1: ptr.global.u8, %2: ptr.global.u16, %3: u8, %4: u16, %5: i32)
// CHECK: [[X:%[0-9]+]] = load[0] {{%[0-9]+}} : u8
// CHECK: div [[X]], %3 : u8
// CHECK: [[C200:%[0-9]+]] = const 200 : u8
// CHECK-NEXT: min [[X]], [[C200]] : u8
// u8(300) wraps to 44, as at run time
// CHECK: const 44 : u8
// CHECK: shr {{%[0-9]+}}, {{%[0-9]+}} : u16
// CHECK: max {{%[0-9]+}}, %4 : u16
// CHECK: rem {{%[0-9]+}}, {{%[0-9]+}} : u16
// CHECK: cast [[X]] : u16
// CHECK: const 65535 : u16
// CHECK: const 255 : u8
// CHECK: cmp.lt [[X]], {{%[0-9]+}} : i1
// CHECK: cast {{%[0-9]+}} : u8
// float to unsigned saturates: u8(-2.5) is 0
// CHECK: const 0 : u8

const HC: f16 = 1.3;

kernel fp8(x: in f32[N], h: in f16[N], w: in bf16[N], y: inout e4m3[N], z: out e5m2[N],
           o: out f32[N], p: out bf16[N]) threads(32) {
    let i = thread.x * 4;
    let q = e4m3x4(x[i : 4]);
    y[i : 4] = q;
    z[i : 2] = e5m2x2(h[i : 2]);
    z[i + 2] = e5m2(w[i]);
    o[i : 4] = f32x4(q);
    p[i] = bf16(y[i]);
    y[i + 1] = e4m3(1.3);
    y[i + 2] = e4m3(-1000.0);
    z[i + 3] = e5m2(100000.0);
    z[i + 1] = e5m2(0.0000001);
    o[i] = f32(e4m3(17.0)) + f32(e4m3(19.0));
    let pick = i > 2 ? q : e4m3x4(e4m3(0.5));
    y[i + 4 : 4] = pick;
    z[i] = e5m2(HC);
}

// CHECK-LABEL: kernel @fp8
// CHECK: param y : tensor inout e4m3 [N]
// CHECK: param z : tensor out e5m2 [N]
// CHECK: [[V:%[0-9]+]] = load[1] {{%[0-9]+}} : f32x4
// CHECK-NEXT: [[Q:%[0-9]+]] = cast [[V]] : e4m3x4
// CHECK: store {{%[0-9]+}}, [[Q]]
// CHECK: [[H:%[0-9]+]] = load[1] {{%[0-9]+}} : f16x2
// CHECK-NEXT: cast [[H]] : e5m2x2
// CHECK: [[W:%[0-9]+]] = load[1] {{%[0-9]+}} : bf16
// CHECK-NEXT: cast [[W]] : e5m2
// CHECK: cast [[Q]] : f32x4
// CHECK: [[Y:%[0-9]+]] = load[0] {{%[0-9]+}} : e4m3
// CHECK-NEXT: cast [[Y]] : bf16
// 1.3 rounds to 1.25; -1000 saturates to -448 (e4m3 has no infinity); 100000 to 57344;
// 1e-7 underflows to +0 in e5m2 (its smallest subnormal is 2^-16)
// CHECK: const 0x1.4p+0 : e4m3
// CHECK: const -0x1.cp+8 : e4m3
// CHECK: const 0x1.cp+15 : e5m2
// CHECK: const 0x0p+0 : e5m2
// 17 is a tie between 16 and 18: to even (16); 19 is a tie between 18 and 20: to even (20);
// the sum folds: 36
// CHECK: const 0x1.2p+5 : f32
// CHECK: [[HALF:%[0-9]+]] = const 0x1p-1 : e4m3
// CHECK-NEXT: vec [[HALF]], [[HALF]], [[HALF]], [[HALF]] : e4m3x4
// CHECK: select {{%[0-9]+}}, [[Q]], {{%[0-9]+}} : e4m3x4
// f16 and bf16 constants are not rounded at compile time, so fp8 from them is a cast
// CHECK: [[HC:%[0-9]+]] = const {{.*}} : f16
// CHECK-NEXT: cast [[HC]] : e5m2
