// A vector lane index may be an index of an unrolled loop (or a 'let' or arithmetic of
// those), as a register array's may: irgen unrolls the loop and reads the lane of each
// copy, one extract per copy with its own lane, no 'for' and no memory.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s
// RUN: %cakec --target sm_90a --emit=ptx %s | FileCheck %s --check-prefix=PTX

kernel lanes(x: in f32[N], y: out f32[N]) threads(32) {
    let v = x[thread.x * 4 : 4];
    var acc: f32 = 0.0;
    for (r in 0 .. 4) unroll {
        let k = 3 - r;
        acc += v[k] * f32(r);
    }
    y[thread.x] = acc;
}
// CHECK-NOT:  for
// CHECK:      [[V:%[0-9]+]] = load[1] {{%[0-9]+}} : f32x4 !8:14
// CHECK-NOT:  for
// CHECK:      extract[3] [[V]] : f32 !12:17
// CHECK:      extract[2] [[V]] : f32 !12:17
// CHECK:      extract[1] [[V]] : f32 !12:17
// CHECK:      extract[0] [[V]] : f32 !12:17
// CHECK-NOT:  extract
// PTX-NOT: .local

// The lanes of a wgmma accumulator fragment, the same way: 32 extracts, the last lane 31.
kernel frag(x: out f32[N]) targets(sm_90a) threads(128) {
    var acc: f32acc[64, 64] = 1.0;
    var s: f32 = 0.0;
    for (k in 0 .. 32) unroll {
        s += acc[k];
    }
    x[thread.x] = s;
}
// CHECK-LABEL: kernel @frag
// CHECK-NOT:  for
// CHECK:      extract[0] {{%[0-9]+}} : f32 !31:17
// CHECK:      extract[31] {{%[0-9]+}} : f32 !31:17
// CHECK-NOT:  extract
