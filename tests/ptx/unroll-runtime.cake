// A plain loop of unknown trip count (`for (j in lane .. N step 32)`, no unroll hint) is
// unrolled by 4 at run time, as NVVM unrolls the same CUDA loop: a remainder loop of single
// iterations (marked nounroll), then the unrolled loop, left open to ptxas's own unrolling
// (no nounroll pragma). Tensor index arithmetic is nsw inside it, so its four loads use one
// base pointer with immediate offsets (no index arithmetic per load). A user's unroll(4)
// stays exactly 4 (nounroll for ptxas); a loop holding a loop, a grid-stride loop and a
// loop with constant bounds are not touched.
// RUN: %cakec --target sm_90a --emit=ptx %s | FileCheck %s
// RUN: %cakec --target sm_90a -O3 --emit=ptx %s | FileCheck %s
// RUN: %cakec --target sm_90a -O0 --emit=llvm %s | FileCheck %s --check-prefix=LLVM

kernel rowsum(x: in f32[M, N], s: out f32[M]) targets(sm_90a) threads(32) grid(M) {
    var acc: f32 = 0.0;
    for (j in lane .. N step 32) {
        acc += x[block.x, j];
    }
    for (o in 0 .. 5) {
        acc += shfl_xor(acc, 16 >> o);
    }
    if (lane == 0) {
        s[block.x] = acc;
    }
}
// CHECK-LABEL: .visible .entry rowsum_
// CHECK: shr.u32 {{%r[0-9]+}}, {{%r[0-9]+}}, 5;
// the remainder: one load per iteration, never unrolled again
// CHECK: [[REM:\$L__BB0_[0-9]+]]:
// CHECK-NEXT: .pragma "nounroll";
// CHECK: ld.global.nc.b32
// CHECK-NOT: ld.global
// CHECK: @{{%p[0-9]+}} bra [[REM]];
// the unrolled loop, after the test that 4 or more iterations remain: no pragma, four
// loads of one base, 32 floats apart
// CHECK: setp.lt.u32 {{%p[0-9]+}}, {{%r[0-9]+}}, {{3|96}};
// CHECK: [[LOOP:\$L__BB0_[0-9]+]]:
// CHECK-NEXT: ld.global.nc.b32 {{%r[0-9]+}}, [[[BASE:%rd[0-9]+]]{{(\+-?[0-9]+)?}}];
// CHECK-NEXT: add.rn.f32
// CHECK-NEXT: ld.global.nc.b32 {{%r[0-9]+}}, [[[BASE]]{{(\+-?[0-9]+)?}}];
// CHECK-NEXT: add.rn.f32
// CHECK-NEXT: ld.global.nc.b32 {{%r[0-9]+}}, [[[BASE]]{{(\+-?[0-9]+)?}}];
// CHECK-NEXT: add.rn.f32
// CHECK-NEXT: ld.global.nc.b32 {{%r[0-9]+}}, [[[BASE]]{{(\+-?[0-9]+)?}}];
// CHECK-NEXT: add.rn.f32
// CHECK-NOT: ld.global
// CHECK: @{{%p[0-9]+}} bra [[LOOP]];
// CHECK: shfl.sync.bfly.b32

// LLVM-LABEL: define ptx_kernel void @rowsum_
// LLVM: mul nsw i32 {{%v[0-9]+}}, %N
// LLVM: add nsw i32
// LLVM: br label %for.head, !llvm.loop [[PLAIN:![0-9]+]]
// LLVM: [[PLAIN]] = distinct !{[[PLAIN]], [[COUNT4:![0-9]+]], [[FOLLOW:![0-9]+]]}
// LLVM: [[COUNT4]] = !{!"llvm.loop.unroll.count", i32 4}
// LLVM: [[FOLLOW]] = !{!"llvm.loop.unroll.followup_unrolled"}

kernel rowsum4(x: in f32[M, N], s: out f32[M]) targets(sm_90a) threads(32) grid(M) {
    var acc: f32 = 0.0;
    for (j in lane .. N step 32) unroll(4) {
        acc += x[block.x, j];
    }
    s[block.x] = acc;
}
// a user's count: exactly 4, the unrolled loop nounroll for ptxas too
// CHECK-LABEL: .visible .entry rowsum4_
// CHECK: .pragma "nounroll";
// CHECK: ld.global.nc.b32
// CHECK: .pragma "nounroll";
// CHECK-COUNT-4: ld.global.nc.b32
// CHECK-NOT: ld.global
// CHECK: st.global
// LLVM-LABEL: define ptx_kernel void @rowsum4_
// LLVM: br label %for.head, !llvm.loop [[USER:![0-9]+]]
// LLVM: [[USER]] = distinct !{[[USER]], [[UCOUNT:![0-9]+]]}
// LLVM: [[UCOUNT]] = !{!"llvm.loop.unroll.count", i32 4}

kernel gridsum(x: in f32[N], s: inout f32[1]) targets(sm_90a) threads(256) grid(64) {
    var acc: f32 = 0.0;
    for (i in block.x * 256 + thread.x .. N step 256 * grid_dim.x) {
        acc += x[i];
    }
    atomic_add(s[0], acc);
}
// a grid-stride loop: one load per iteration
// CHECK-LABEL: .visible .entry gridsum_
// CHECK: [[GLOOP:\$L__BB0_[0-9]+]]:
// CHECK-NEXT: ld.global.nc.b32
// CHECK-NEXT: add.rn.f32
// CHECK-NOT: ld.global
// CHECK: @{{%p[0-9]+}} bra [[GLOOP]];
// CHECK: atom.global.add.f32
// LLVM-LABEL: define ptx_kernel void @gridsum_
// LLVM-NOT: !llvm.loop
// LLVM: ret void

kernel matvec(a: in f32[R, C], x: in f32[C], y: out f32[R]) targets(sm_90a) threads(64) grid(1) {
    for (i in thread.x .. R step 64) {
        var acc: f32 = 0.0;
        for (j in 0 .. C) {
            acc += a[i, j] * x[j];
        }
        y[i] = acc;
    }
}
// only the inner loop (the outer one holds a loop); a[i, j]'s index arithmetic is nsw
// in the inner loop, which strides by a constant
// LLVM-LABEL: define ptx_kernel void @matvec_
// LLVM: mul nsw i32 {{%v[0-9]+}}, %C
// LLVM: br label %for.head{{[0-9]+}}, !llvm.loop [[INNER:![0-9]+]]
// LLVM: br label %for.head{{$}}
// LLVM: [[INNER]] = distinct !{[[INNER]], {{![0-9]+}}, {{![0-9]+}}}
