// The terms of an element's index (docs/language.md, "Tensor and shared-array elements").
// stencil: `x[j]` with `let j = i + k - R` and k the variable of a loop with constant bounds:
// k - R is a constant once LLVM unrolls the loop, so the nine loads share the one 64-bit
// address x + 4 i and differ in their immediate offsets (-16 .. +16), as NVRTC's code for
// the same C; before, each load sign-extended its own i + k - R (1.42x NVRTC's time on the
// H200). colsum: in a loop unrolled at run time, the row term r * N is a 64-bit step of its
// own, so the unrolled loop walks one pointer by N * 4 per load with no index arithmetic.
// RUN: %cakec --target sm_90a --emit=ptx %s | FileCheck %s
// RUN: %cakec --target sm_90a -O0 --emit=llvm %s | FileCheck %s --check-prefix=LLVM

const R: i32 = 4;

kernel stencil(x: in f32[N], w: in f32[2 * R + 1], y: out f32[N]) targets(sm_90a) threads(256) grid(cdiv(N, 256)) {
    let i = block.x * 256 + thread.x;
    if (i < N) {
        var acc: f32 = 0.0;
        for (k in 0 .. 2 * R + 1) {
            let j = i + k - R;
            if (j >= 0 && j < N) {
                acc += w[k] * x[j];
            }
        }
        y[i] = acc;
    }
}

kernel colsum(x: in f32[M, N], y: out f32[N]) targets(sm_90a) threads(256) grid(cdiv(N, 256)) {
    let c = block.x * 256 + thread.x;
    if (c < N) {
        var acc: f32 = 0.0;
        for (r in 0 .. M) {
            acc += x[r, c];
        }
        y[c] = acc;
    }
}

// the loop's variable and -R go into the second GEP, in 64 bits
// LLVM-LABEL: define ptx_kernel void @stencil_
// LLVM: [[XI:%[0-9a-z]+]] = getelementptr float, ptr addrspace(1) %x, i32 %{{[0-9a-z]+}}
// LLVM: [[K:%[0-9a-z]+]] = sext i32 %{{[0-9a-z]+}} to i64
// LLVM: [[OFF:%[0-9a-z]+]] = sub nsw i64 [[K]], 4
// LLVM-NEXT: getelementptr float, ptr addrspace(1) [[XI]], i64 [[OFF]]

// CHECK-LABEL: .visible .entry stencil_
// CHECK: mul.wide.s32
// CHECK-NOT: mul.wide
// CHECK: ld.global.nc.b32 {{.*}}, [[[X:%rd[0-9]+]]+-16];
// CHECK: ld.global.nc.b32 {{.*}}, [[[X]]+-12];
// CHECK: ld.global.nc.b32 {{.*}}, [[[X]]+-8];
// CHECK: ld.global.nc.b32 {{.*}}, [[[X]]+-4];
// CHECK: ld.global.nc.b32 {{.*}}, [[[X]]];
// CHECK: ld.global.nc.b32 {{.*}}, [[[X]]+4];
// CHECK: ld.global.nc.b32 {{.*}}, [[[X]]+8];
// CHECK: ld.global.nc.b32 {{.*}}, [[[X]]+12];
// CHECK: ld.global.nc.b32 {{.*}}, [[[X]]+16];
// CHECK: ret;

// the unrolled loop: four loads stepped by N * 4 from one address, the trip counter
// counting down to zero (indvars, which only kernels with such a loop run)
// CHECK-LABEL: .visible .entry colsum_
// CHECK: [[LOOP:\$L__BB0_[0-9]+]]:
// CHECK: ld.global.nc.b32 {{.*}}, [[[P:%rd[0-9]+]]];
// CHECK: add.s64 [[P1:%rd[0-9]+]], [[P]], [[N4:%rd[0-9]+]];
// CHECK-NEXT: ld.global.nc.b32 {{.*}}, [[[P1]]];
// CHECK: add.s64 [[P2:%rd[0-9]+]], [[P1]], [[N4]];
// CHECK-NEXT: ld.global.nc.b32 {{.*}}, [[[P2]]];
// CHECK: add.s64 [[P3:%rd[0-9]+]], [[P2]], [[N4]];
// CHECK-NEXT: ld.global.nc.b32 {{.*}}, [[[P3]]];
// CHECK: add.s32 [[CNT:%r[0-9]+]], [[CNT]], -4;
// CHECK: setp.ne.b32 [[DONE:%p[0-9]+]], [[CNT]], 0;
// CHECK-NEXT: @[[DONE]] bra [[LOOP]];

// colsum's row term and column terms are GEPs of their own (in a run-time unrolled loop)
// LLVM-LABEL: define ptx_kernel void @colsum_
// LLVM: [[R:%[0-9a-z]+]] = sext i32 %{{[0-9a-z]+}} to i64
// LLVM-NEXT: [[ROW:%[0-9a-z]+]] = getelementptr float, ptr addrspace(1) %x, i64 [[R]]
// LLVM-NEXT: [[C:%[0-9a-z]+]] = sext i32 %{{[0-9a-z]+}} to i64
// LLVM-NEXT: getelementptr float, ptr addrspace(1) [[ROW]], i64 [[C]]
