// Clause names (targets, threads, grid), accesses (out, inout), and step, unroll and align
// are keywords only where they have a meaning: elsewhere they are ordinary names.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s

kernel words(out: out f32[N], inout: inout i32[4], step: i32, grid: i32)
    grid(cdiv(N, step) + grid)
    threads(32)
{
    shared align: f32[32] align(64);
    let threads = thread.x;
    let unroll = step * 2;
    align[threads] = 1.0;
    for (targets in threads .. N step unroll) unroll(2) {
        out[targets] = align[threads];
    }
    inout[0] = grid;
}

// CHECK:      grid "(cdiv(N, step) + grid)" "1" "1"
// CHECK-NEXT: param out : tensor out f32 [N]
// CHECK-NEXT: param inout : tensor inout i32 [4]
// CHECK-NEXT: param step : scalar i32
// CHECK-NEXT: param grid : scalar i32
// CHECK-NEXT: param N : sym
// CHECK-NEXT: shared align : f32 [32] align 64
// CHECK:      for[2]
