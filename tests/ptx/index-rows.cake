// The + and - of an index other than the last (docs/language.md, "Tensor and shared-array
// elements"): with the dimensions after it constants, `x[b, k0 + 1, c]` is the row pointer
// x + (b, k0, c)'s index advanced by the constant 1 * C, so the accesses of neighbouring
// rows share one 64-bit address and differ in its immediate offset (gdp's sixteen state
// rows k0 + 0 .. k0 + 15: before, each row sign-extended its own index and LLVM's
// straight-line strength reduction merged them back, a tenth of a gdp_decode_multi
// compile). `rows` shows the same for a loop variable with constant bounds; `runtime`, whose
// rows are a run-time dimension, keeps one index per access.
// RUN: %cakec --target sm_90a -O0 --emit=llvm %s | FileCheck %s --check-prefix=LLVM
// RUN: %cakec --target sm_90a --emit=ptx %s | FileCheck %s

const R: i32 = 4;
const C: i32 = 64;

kernel pairs(x: in f32[B, 2 * R, C], y: out f32[B, 2 * R, C]) targets(sm_90a) threads(64) grid(B) {
    let b = block.x;
    let k0 = thread.x / 32 * 2;
    let c = thread.x % 32 * 2;
    y[b, k0 + 1, c + 1] = x[b, k0, c] + x[b, 1 + k0, c];
}

kernel rows(x: in f32[B, R, C], y: out f32[B, R, C]) targets(sm_90a) threads(64) grid(B) {
    let b = block.x;
    let c = thread.x;
    for (r in 0 .. R) {
        y[b, r + 1 - 1, c] = x[b, r, c] * 2.0;
    }
}

kernel runtime(x: in f32[B, K, N], y: out f32[B, K, N]) targets(sm_90a) threads(64) grid(B) {
    let b = block.x;
    let k0 = thread.x / 32 * 2;
    let c = thread.x % 32;
    y[b, k0, c] = x[b, k0 + 1, c];
}
// LLVM-LABEL: define ptx_kernel void @pairs_
// LLVM: [[Y:%[0-9a-z]+]] = getelementptr float, ptr addrspace(1) %y, i32 %{{[0-9a-z]+}}
// LLVM-NEXT: getelementptr float, ptr addrspace(1) [[Y]], i64 65
// LLVM: getelementptr float, ptr addrspace(1) %x, i32 %{{[0-9a-z]+}}
// LLVM: [[X:%[0-9a-z]+]] = getelementptr float, ptr addrspace(1) %x, i32 %{{[0-9a-z]+}}
// LLVM-NEXT: getelementptr float, ptr addrspace(1) [[X]], i64 64
// LLVM-LABEL: define ptx_kernel void @runtime_
// LLVM-NOT: getelementptr {{.*}} i64
// LLVM: getelementptr float, ptr addrspace(1) %x, i32 %{{[0-9a-z]+}}
// LLVM-NOT: getelementptr {{.*}} i64
// LLVM: ret void

// one 64-bit offset for both tensors, the rows in immediate offsets (C * 4 = 256 bytes)
// CHECK-LABEL: .visible .entry pairs_
// CHECK-COUNT-1: mul.wide.s32
// CHECK-NOT: mul.wide
// CHECK: ld.global.nc.b32 {{.*}}, [[[X:%rd[0-9]+]]];
// CHECK-NEXT: ld.global.nc.b32 {{.*}}, [[[X]]+256];
// CHECK: st.global.b32 [%rd{{[0-9]+}}+260],
// CHECK-LABEL: .visible .entry rows_
// CHECK-COUNT-1: mul.wide.s32
// CHECK-NOT: mul.wide
// CHECK: ld.global.nc.b32 {{.*}}, [[[X:%rd[0-9]+]]];
// CHECK: ld.global.nc.b32 {{.*}}, [[[X]]+256];
// CHECK: ld.global.nc.b32 {{.*}}, [[[X]]+512];
// CHECK: st.global.b32 [%rd{{[0-9]+}}+768],
// CHECK-LABEL: .visible .entry runtime_
// CHECK-COUNT-2: mul.wide.s32
