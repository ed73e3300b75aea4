// Builtins map onto IR ops: special registers, math, warp collectives, atomics, barrier;
// cdiv on run-time i32 values is (a + (b - 1)) / b; operators onto arithmetic, cmp.* and
// logical and/or/not on i1.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s

kernel builtins(x: in f32[N], hist: inout u32[16], o: out f32[8], n: i32) threads(64) {
    let ids = thread.y + thread.z + block.x + block.y + block.z + block_dim.x +
              block_dim.y + block_dim.z + grid_dim.x + grid_dim.y + grid_dim.z + lane + warp;
    let v = x[thread.x];
    let m = fma(exp2(v), log2(v), rsqrt(v)) + sqrt(v) + abs(min(v, max(v, 1.0)));
    let r = shfl_xor(m, 1) + shfl_down(m, 2) + shfl_up(m, 3) + shfl_idx(m, ids);
    let p = v > 0.0 && !(v >= 9.0) || v != v;
    let mask = ballot(p) | u32(any(p)) ^ u32(all(p));
    let old = atomic_add(hist[lane % 16], mask);
    let q = atomic_cas(hist[0], old, 1) + atomic_max(hist[1], 2);
    barrier();
    o[0] = r + f32(cdiv(n, 32) + (ids << 2) + (ids >> 1) + ~ids + -ids + i32(q));
}

// CHECK:      tid.y : i32
// CHECK-NEXT: tid.z : i32
// CHECK:      ctaid.x : i32
// CHECK:      ctaid.y : i32
// CHECK:      ctaid.z : i32
// CHECK:      ntid.x : i32
// CHECK:      ntid.y : i32
// CHECK:      ntid.z : i32
// CHECK:      nctaid.x : i32
// CHECK:      nctaid.y : i32
// CHECK:      nctaid.z : i32
// CHECK:      laneid : i32
// CHECK:      warpid : i32
// CHECK:      [[IDS:%[0-9]+]] = add {{%[0-9]+}}, {{%[0-9]+}} : i32
// CHECK:      [[V:%[0-9]+]] = load[1] {{%[0-9]+}} : f32
// CHECK-NEXT: [[E:%[0-9]+]] = exp2 [[V]] : f32
// CHECK-NEXT: [[L:%[0-9]+]] = log2 [[V]] : f32
// CHECK-NEXT: [[R:%[0-9]+]] = rsqrt [[V]] : f32
// CHECK-NEXT: [[F:%[0-9]+]] = fma [[E]], [[L]], [[R]] : f32
// CHECK-NEXT: [[S:%[0-9]+]] = sqrt [[V]] : f32
// CHECK:      [[MX:%[0-9]+]] = max [[V]], {{%[0-9]+}} : f32
// CHECK-NEXT: [[MN:%[0-9]+]] = min [[V]], [[MX]] : f32
// CHECK-NEXT: abs [[MN]] : f32
// CHECK:      shfl.xor [[M:%[0-9]+]], {{%[0-9]+}} : f32
// CHECK:      shfl.down [[M]], {{%[0-9]+}} : f32
// CHECK:      shfl.up [[M]], {{%[0-9]+}} : f32
// CHECK:      shfl.idx [[M]], [[IDS]] : f32
// CHECK:      [[GT:%[0-9]+]] = cmp.gt [[V]], {{%[0-9]+}} : i1
// CHECK:      [[GE:%[0-9]+]] = cmp.ge [[V]], {{%[0-9]+}} : i1
// CHECK-NEXT: [[NGE:%[0-9]+]] = not [[GE]] : i1
// CHECK-NEXT: [[AND:%[0-9]+]] = and [[GT]], [[NGE]] : i1
// CHECK-NEXT: [[NE:%[0-9]+]] = cmp.ne [[V]], [[V]] : i1
// CHECK-NEXT: [[P:%[0-9]+]] = or [[AND]], [[NE]] : i1
// CHECK-NEXT: [[B:%[0-9]+]] = ballot [[P]] : u32
// CHECK-NEXT: [[ANY:%[0-9]+]] = vote.any [[P]] : i1
// CHECK-NEXT: [[ANYU:%[0-9]+]] = cast [[ANY]] : u32
// CHECK-NEXT: [[ALL:%[0-9]+]] = vote.all [[P]] : i1
// CHECK-NEXT: [[ALLU:%[0-9]+]] = cast [[ALL]] : u32
// CHECK-NEXT: [[X:%[0-9]+]] = xor [[ANYU]], [[ALLU]] : u32
// CHECK-NEXT: [[MASK:%[0-9]+]] = or [[B]], [[X]] : u32
// CHECK:      [[HP:%[0-9]+]] = elemptr {{%[0-9]+}}, {{%[0-9]+}} : ptr.global.u32
// CHECK-NEXT: [[OLD:%[0-9]+]] = atom.add [[HP]], [[MASK]] : u32
// CHECK:      atom.cas {{%[0-9]+}}, [[OLD]], {{%[0-9]+}} : u32
// CHECK:      atom.max {{%[0-9]+}}, {{%[0-9]+}} : u32
// CHECK:      barrier
// CHECK:      [[C32:%[0-9]+]] = const 32 : i32
// CHECK-NEXT: [[ONE:%[0-9]+]] = const 1 : i32
// CHECK-NEXT: [[BM1:%[0-9]+]] = sub [[C32]], [[ONE]] : i32
// CHECK-NEXT: [[SUM:%[0-9]+]] = add {{%[0-9]+}}, [[BM1]] : i32
// CHECK-NEXT: div [[SUM]], [[C32]] : i32
// CHECK:      shl [[IDS]], {{%[0-9]+}} : i32
// CHECK:      shr [[IDS]], {{%[0-9]+}} : i32
// CHECK:      not [[IDS]] : i32
// CHECK:      neg [[IDS]] : i32
