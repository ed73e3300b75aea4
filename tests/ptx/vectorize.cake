// Adjacent scalar accesses become one vector access where the alignment is known and the
// kernel is plain code: shared buffers (1024-byte aligned in the block's shared memory),
// in a kernel without vector accesses. LLVM's load/store vectorizer merges them, after
// infer-alignment has put the known alignments on every access. A kernel with vector
// accesses was tuned by hand: its accesses stay as written, even on a tensor whose base
// the launcher checks to 16 bytes (merging gdp's 8-byte loads made it slower on the H200).
// RUN: %cakec --target sm_90a --emit=ptx %s | FileCheck %s
// RUN: %cakec --target sm_90a --emit=llvm %s | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: .entry quads_
// CHECK: st.shared.v4.b32 [{{%r[0-9]+}}], {{[{]}}%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}{{[}]}};
// CHECK: bar.sync
// CHECK: ld.shared.v4.b32
// CHECK-NOT: ld.shared.b32
// CHECK: ret;
kernel quads(x: in f32[N], y: out f32[N]) targets(sm_90a) threads(256) grid(cdiv(N, 512)) {
    shared s: f32[1024];
    let i = block.x * 256 + thread.x;
    let a = x[min(2 * i, N - 1)];
    let b = x[min(2 * i + 1, N - 1)];
    s[4 * thread.x] = a;
    s[4 * thread.x + 1] = b;
    s[4 * thread.x + 2] = a * b;
    s[4 * thread.x + 3] = a + b;
    barrier();
    let t = thread.x ^ 1;
    if (2 * i + 1 < N) {
        y[2 * i] = s[4 * t] + s[4 * t + 2];
        y[2 * i + 1] = s[4 * t + 1] + s[4 * t + 3];
    }
}

// x is read with f32x4 in the first branch, so its base is checked to 16 bytes (the
// parameter's align 16, w's 4), but the kernel has vector accesses: the pair x[2 i],
// x[2 i + 1] of the second branch stays two loads, as written.
// LLVM-LABEL: define ptx_kernel void @pairs_
// LLVM-SAME: ptr addrspace(1) noalias readonly align 16 %x
// LLVM-SAME: ptr addrspace(1) noalias readonly align 4 %w
// LLVM-SAME: ptr addrspace(1) noalias align 16 %y
// CHECK-LABEL: .entry pairs_
// CHECK: ld.global.nc.v4.b32
// CHECK-NOT: ld.global.nc.v2
// CHECK: ld.global.nc.b32 {{%r[0-9]+}}, [[[X:%rd[0-9]+]]];
// CHECK-NOT: ld.global.nc.v2
// CHECK: ld.global.nc.b32 {{%r[0-9]+}}, [[[X]]+4];
// CHECK: ret;
kernel pairs(x: in f32[N], w: in f32[N], y: out f32[N], wide: i32) targets(sm_90a) threads(256) grid(cdiv(N, 1024)) {
    let i = block.x * 256 + thread.x;
    if (4 * i + 3 < N) {
        if (wide != 0) {
            y[4 * i : 4] = x[4 * i : 4];
        } else {
            let a = x[2 * i] + w[2 * i];
            let b = x[2 * i + 1] + w[2 * i + 1];
            y[4 * i : 4] = f32x4(a, b, a, b);
        }
    }
}
