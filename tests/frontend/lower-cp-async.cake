// cp_async(dst, src) lowers to one cp.async of the slice's bytes from the tensor element's
// pointer to the shared element's pointer; cp_async_commit() and cp_async_wait(n) to
// cp.async.commit and cp.async.wait[n]. Scalars of 4 bytes and 2- or 4-wide slices of 8
// or 16 bytes are all copies.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s

kernel cpa(x: in f32[N, 64], h: inout bf16[N, 64], y: out f32[N, 64]) threads(16) grid(N) {
    shared s: f32[64];
    shared t: bf16[64];
    let i = thread.x * 4;
    cp_async(s[i : 4], x[block.x, i : 4]);
    cp_async(s[i], x[block.x, i]);
    cp_async(t[i : 2], h[block.x, i : 2]);
    cp_async(t[i : 4], h[block.x, i : 4]);
    cp_async_commit();
    cp_async_wait(1);
    cp_async_wait(0);
    barrier();
    y[block.x, i : 4] = s[i : 4] + f32x4(t[i : 4]);
}

// CHECK:      %[[I:[0-9]+]] = mul %{{[0-9]+}}, %{{[0-9]+}} : i32 !10:22
// CHECK-NEXT: %[[S:[0-9]+]] = smem[0] : ptr.shared.f32 !11:15
// CHECK-NEXT: %[[D:[0-9]+]] = elemptr %[[S]], %[[I]] : ptr.shared.f32 !11:15
// CHECK:      %[[G:[0-9]+]] = elemptr %1, %{{[0-9]+}} : ptr.global.f32 !11:25
// CHECK-NEXT: cp.async[16] %[[D]], %[[G]] !11:5
// CHECK:      cp.async[4] %{{[0-9]+}}, %{{[0-9]+}} !12:5
// CHECK:      smem[1] : ptr.shared.bf16 !13:15
// CHECK:      elemptr %2, %{{[0-9]+}} : ptr.global.bf16 !13:25
// CHECK-NEXT: cp.async[4] %{{[0-9]+}}, %{{[0-9]+}} !13:5
// CHECK:      cp.async[8] %{{[0-9]+}}, %{{[0-9]+}} !14:5
// CHECK-NEXT: cp.async.commit !15:5
// CHECK-NEXT: cp.async.wait[1] !16:5
// CHECK-NEXT: cp.async.wait[0] !17:5
// CHECK-NEXT: barrier !18:5
