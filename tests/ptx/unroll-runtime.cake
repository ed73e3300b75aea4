// A plain loop of unknown trip count, `for (j in lane .. N step 32)` with no unroll hint, is
// unrolled at run time as NVVM unrolls the same CUDA loop: a remainder loop of single
// iterations (never unrolled again), then the unrolled loop, with several loads in flight
// per iteration. Its trip count, ((N + ~lane) >> 5) + 1, is computed before the loop; a
// grid-stride loop, whose trip count needs a division, stays rolled.
// RUN: %cakec --target sm_90a --emit=ptx %s | FileCheck %s
// RUN: %cakec --target sm_90a -O3 --emit=ptx %s | FileCheck %s

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
// the remainder: one load per iteration
// CHECK: [[REM:\$L__BB0_[0-9]+]]:
// CHECK-NEXT: .pragma "nounroll";
// CHECK: ld.global.nc.b32
// CHECK-NOT: ld.global
// CHECK: @{{%p[0-9]+}} bra [[REM]];
// the unrolled loop: four or more loads of one base, 32 floats apart
// CHECK: ld.global.nc.b32 {{%r[0-9]+}}, [[[BASE:%rd[0-9]+]]];
// CHECK-NEXT: add.rn.f32
// CHECK-NEXT: ld.global.nc.b32 {{%r[0-9]+}}, [[[BASE]]+128];
// CHECK-NEXT: add.rn.f32
// CHECK-NEXT: ld.global.nc.b32 {{%r[0-9]+}}, [[[BASE]]+256];
// CHECK-NEXT: add.rn.f32
// CHECK-NEXT: ld.global.nc.b32 {{%r[0-9]+}}, [[[BASE]]+384];
// CHECK: @{{%p[0-9]+}} bra
// CHECK: shfl.sync.bfly.b32

kernel gridsum(x: in f32[N], s: inout f32[1]) targets(sm_90a) threads(256) grid(64) {
    var acc: f32 = 0.0;
    for (i in block.x * 256 + thread.x .. N step 256 * grid_dim.x) {
        acc += x[i];
    }
    atomic_add(s[0], acc);
}
// CHECK-LABEL: .visible .entry gridsum_
// CHECK: [[LOOP:\$L__BB0_[0-9]+]]:
// CHECK-NEXT: ld.global.nc.b32
// CHECK-NEXT: add.rn.f32
// CHECK-NOT: ld.global
// CHECK: @{{%p[0-9]+}} bra [[LOOP]];
// CHECK: atom.global.add.f32
