// A tensor's last index that adds a constant (`v0 + 4`, `8 + v0`, `v0 - 4`, and the `+ 4`
// inside v0's own `let`) addresses the row pointer p + (rows + the varying terms) advanced
// by the constants: the accesses of one row share one 64-bit address and differ in its
// immediate offset, where each would otherwise have its own sign-extended address for
// LLVM's strength reductions to merge (docs/language.md, "Tensor and shared-array
// elements"). Shared arrays index 32-bit addresses, which LLVM splits itself: their
// elemptr stays one GEP.
// RUN: %cakec --target sm_90a -O0 --emit=llvm %s | FileCheck %s --check-prefix=LLVM
// RUN: %cakec --target sm_90a -O0 --emit=llvm %s | FileCheck %s --check-prefix=SHARED
// RUN: %cakec --target sm_90a --emit=ptx %s | FileCheck %s

kernel rows(x: in f32[B, R, C], y: out f32[B, R, C]) targets(sm_90a) threads(64) grid(B * (C / 64)) {
    shared t: f32[64, 16];
    let b = block.x / (C / 64);
    let v0 = block.x % (C / 64) * 64 + 4;
    let r = thread.x;
    if (r < R) {
        y[b, r, v0 : 4] = x[b, r, v0 + 4 : 4] + x[b, r, 8 + v0 : 4];
        t[r, 4] = x[b, r, v0 - 4];
        y[b, r, v0 + 12] = t[r, 4];
    }
}
// LLVM-LABEL: define ptx_kernel void @rows_
// LLVM: [[Y:%[0-9a-z]+]] = getelementptr float, ptr addrspace(1) %y, i32 %{{[0-9a-z]+}}
// LLVM-NEXT: getelementptr float, ptr addrspace(1) [[Y]], i64 4
// LLVM: [[X:%[0-9a-z]+]] = getelementptr float, ptr addrspace(1) %x, i32 %{{[0-9a-z]+}}
// LLVM-NEXT: getelementptr float, ptr addrspace(1) [[X]], i64 8
// LLVM: [[X2:%[0-9a-z]+]] = getelementptr float, ptr addrspace(1) %x, i32 %{{[0-9a-z]+}}
// LLVM-NEXT: getelementptr float, ptr addrspace(1) [[X2]], i64 12
// LLVM: [[X3:%[0-9a-z]+]] = getelementptr float, ptr addrspace(1) %x, i32 %{{[0-9a-z]+}}
// LLVM-NEXT: getelementptr float, ptr addrspace(1) [[X3]], i64 0
// LLVM: [[Y2:%[0-9a-z]+]] = getelementptr float, ptr addrspace(1) %y, i32 %{{[0-9a-z]+}}
// LLVM-NEXT: getelementptr float, ptr addrspace(1) [[Y2]], i64 16
// SHARED: [[T:%[0-9a-z]+]] = getelementptr float, ptr addrspace(3) @cake_smem, i32 %{{[0-9a-z]+}}
// SHARED: store float %{{[0-9a-z]+}}, ptr addrspace(3) [[T]]
// SHARED: [[T2:%[0-9a-z]+]] = getelementptr float, ptr addrspace(3) @cake_smem, i32 %{{[0-9a-z]+}}
// SHARED: load float, ptr addrspace(3) [[T2]]

// one 64-bit offset for both tensors, the rest immediate offsets
// CHECK-LABEL: .visible .entry rows_
// CHECK-COUNT-1: mul.wide.s32
// CHECK-NOT: mul.wide
// CHECK: ld.global.nc.v4.b32 {{.*}}, [[[X:%rd[0-9]+]]+32];
// CHECK-NEXT: ld.global.nc.v4.b32 {{.*}}, [[[X]]+48];
// CHECK-NEXT: add.rn.f32
// CHECK: st.global.v4.b32 [[[Y:%rd[0-9]+]]+16],
// CHECK: ld.global.nc.b32 {{.*}}, [[[X]]];
// CHECK: st.global.b32 [[[Y]]+64],
