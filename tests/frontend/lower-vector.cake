// Vector accesses x[i, j : W] load or store W contiguous elements of the last dimension as
// one vector; lanes are extract; constructors are vec (a broadcast repeats its operand);
// conversions are cast, lane by lane for vectors; select is c ? a : b.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s

kernel vec(x: in bf16[M, 64], y: out bf16[M, 64], z: inout f32[8]) threads(16) {
    let r = block.x;
    let v = x[r, thread.x * 4 : 4];
    let f = f32x4(v);
    let s = f.x + f[3];
    let w = f32x4(s, f.y, f.z, 0.5);
    y[r, thread.x * 4 : 4] = bf16x4(w * f32x4(2.0));
    let pair = z[0 : 2];
    z[2 : 2] = thread.x > 3 ? pair : f32x2(pair.y, pair.x);
}

// CHECK:      [[P:%[0-9]+]] = elemptr {{%[0-9]+}}, {{%[0-9]+}} : ptr.global.bf16 !8:14
// CHECK-NEXT: [[V:%[0-9]+]] = load[1] [[P]] : bf16x4 !8:14
// CHECK-NEXT: [[F:%[0-9]+]] = cast [[V]] : f32x4 !9:13
// CHECK-NEXT: [[L0:%[0-9]+]] = extract[0] [[F]] : f32 !10:15
// CHECK-NEXT: [[L3:%[0-9]+]] = extract[3] [[F]] : f32 !10:20
// CHECK-NEXT: [[S:%[0-9]+]] = add [[L0]], [[L3]] : f32 !10:17
// CHECK-NEXT: [[L1:%[0-9]+]] = extract[1] [[F]] : f32 !11:24
// CHECK-NEXT: [[L2:%[0-9]+]] = extract[2] [[F]] : f32 !11:29
// CHECK-NEXT: [[H:%[0-9]+]] = const 0x1p-1 : f32 !11:32
// CHECK-NEXT: [[W:%[0-9]+]] = vec [[S]], [[L1]], [[L2]], [[H]] : f32x4 !11:13
// CHECK:      [[Q:%[0-9]+]] = elemptr {{%[0-9]+}}, {{%[0-9]+}} : ptr.global.bf16 !12:6
// CHECK-NEXT: [[TWO:%[0-9]+]] = const 0x1p+1 : f32 !12:47
// CHECK-NEXT: [[B:%[0-9]+]] = vec [[TWO]], [[TWO]], [[TWO]], [[TWO]] : f32x4 !12:41
// CHECK-NEXT: [[M:%[0-9]+]] = mul [[W]], [[B]] : f32x4 !12:39
// CHECK-NEXT: [[C:%[0-9]+]] = cast [[M]] : bf16x4 !12:30
// CHECK-NEXT: store [[Q]], [[C]] !12:28
// CHECK:      [[PAIR:%[0-9]+]] = load[0] {{%[0-9]+}} : f32x2 !13:17
// CHECK:      [[COND:%[0-9]+]] = cmp.gt {{%[0-9]+}}, {{%[0-9]+}} : i1 !14:25
// CHECK-NEXT: [[PY:%[0-9]+]] = extract[1] [[PAIR]] : f32 !14:49
// CHECK-NEXT: [[PX:%[0-9]+]] = extract[0] [[PAIR]] : f32 !14:57
// CHECK-NEXT: [[SW:%[0-9]+]] = vec [[PY]], [[PX]] : f32x2 !14:38
// CHECK-NEXT: [[SEL:%[0-9]+]] = select [[COND]], [[PAIR]], [[SW]] : f32x2 !14:29
// CHECK-NEXT: store {{%[0-9]+}}, [[SEL]] !14:14
