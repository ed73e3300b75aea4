// Shared arrays become the kernel's buffers (element type, dimensions, alignment 16 or
// the declared one, offset -1 until the layout pass) and are accessed through smem[N] and
// elemptr with the same row-major arithmetic as tensors.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s
// After the pipeline (which lays shared memory out), offsets are assigned:
// RUN: %cakec --emit=ir %s | FileCheck %s --check-prefix=LAID

const T: i32 = 32;

kernel transpose(x: in f32[N, N], y: out f32[N, N]) threads(T, 8) grid(cdiv(N, T), cdiv(N, T)) {
    shared tile: f32[T, T + 1];
    shared flags: u32[4] align(128);
    let c = block.x * T + thread.x;
    for (r in thread.y .. T step 8) {
        tile[r, thread.x] = x[block.y * T + r, c];
    }
    barrier();
    flags[0] = 1;
    let oc = block.y * T + thread.x;
    for (r in thread.y .. T step 8) {
        y[block.x * T + r, oc] = tile[thread.x, r];
    }
}

// CHECK:      shared tile : f32 [32, 33] align 16 !11:5
// CHECK-NEXT: shared flags : u32 [4] align 128 !12:5
// CHECK:      for[0]
// CHECK-NEXT:   [[TILE:%[0-9]+]] = smem[0] : ptr.shared.f32 !15:13
// CHECK-NEXT:   [[TX:%[0-9]+]] = tid.x : i32 !15:24
// CHECK-NEXT:   [[W:%[0-9]+]] = const 33 : i32 !15:13
// CHECK-NEXT:   [[M:%[0-9]+]] = mul {{%[0-9]+}}, [[W]] : i32 !15:13
// CHECK-NEXT:   [[L:%[0-9]+]] = add [[M]], [[TX]] : i32 !15:13
// CHECK-NEXT:   [[P:%[0-9]+]] = elemptr [[TILE]], [[L]] : ptr.shared.f32 !15:13
// CHECK:        [[V:%[0-9]+]] = load[1] {{%[0-9]+}} : f32 !15:30
// CHECK-NEXT:   store [[P]], [[V]] !15:27
// CHECK:      barrier !17:5
// CHECK-NEXT: [[F:%[0-9]+]] = smem[1] : ptr.shared.u32 !18:10
// CHECK-NEXT: [[Z:%[0-9]+]] = const 0 : i32 !18:11
// CHECK-NEXT: [[FP:%[0-9]+]] = elemptr [[F]], [[Z]] : ptr.shared.u32 !18:10
// CHECK-NEXT: [[ONE:%[0-9]+]] = const 1 : u32 !18:16
// CHECK-NEXT: store [[FP]], [[ONE]] !18:14
// CHECK:      smem[0] : ptr.shared.f32 !21:38
// CHECK:      load[0] {{%[0-9]+}} : f32 !21:38

// LAID:      smem_bytes {{[0-9]+}}
// LAID:      shared tile : f32 [32, 33] align 16 offset {{[0-9]+}}
// LAID-NEXT: shared flags : u32 [4] align 128 offset {{[0-9]+}}
