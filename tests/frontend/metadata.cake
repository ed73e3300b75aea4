// Kernel metadata: targets (all three by default), threads, grid formulas as canonical
// host text (fully parenthesized, constant parts folded), and the ABI order of parameters
// (declared ones, then one i32 sym per shape symbol in order of first appearance).
// Several kernels share this file.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s

const TILE: i32 = 16;
const ROWS = TILE * 4;

kernel first(a: in f32[R, C], b: out f32[C, 4, K], steps: i64, scale: f32, w: in i8[K])
    threads(TILE, TILE / 2, 2)
    grid(cdiv(C, TILE), (R + ROWS - 1) / ROWS * 2, max(min(steps, 8 * 2), K % 3))
{
    b[0, 0, 0] = a[0, 0] * scale;
}

kernel second(x: inout u64[64])
    targets(sm_100a, sm_90a)
    grid(2 * TILE - 1)
    threads(128)
{
    x[thread.x % 64] = u64(block.x);
}

kernel third() targets(sm_103a) threads(1) { }

// CHECK:      kernel @first {
// CHECK-NEXT:   source "{{.*}}metadata.cake"
// CHECK-NEXT:   targets sm_90a sm_100a sm_103a
// CHECK-NEXT:   threads 16 8 2
// CHECK-NEXT:   grid "cdiv(C, 16)" "((((R + 64) - 1) / 64) * 2)" "max(min(steps, 16), (K % 3))"
// CHECK-NEXT:   param a : tensor in f32 [R, C] !10:14
// CHECK-NEXT:   param b : tensor out f32 [C, 4, K] !10:31
// CHECK-NEXT:   param steps : scalar i64 !10:52
// CHECK-NEXT:   param scale : scalar f32 !10:64
// CHECK-NEXT:   param w : tensor in i8 [K] !10:76
// CHECK-NEXT:   param R : sym !10:24
// CHECK-NEXT:   param C : sym !10:27
// CHECK-NEXT:   param K : sym !10:48
// CHECK-NEXT:   body(%1: ptr.global.f32, %2: ptr.global.f32, %3: i64, %4: f32, %5: ptr.global.i8, %6: i32, %7: i32, %8: i32) {

// CHECK:      kernel @second {
// CHECK-NEXT:   source "{{.*}}metadata.cake"
// CHECK-NEXT:   targets sm_90a sm_100a
// CHECK-NEXT:   threads 128 1 1
// CHECK-NEXT:   grid "31" "1" "1"
// CHECK-NEXT:   param x : tensor inout u64 [64] !17:15
// CHECK:          [[B:%[0-9]+]] = ctaid.x : i32
// CHECK-NEXT:     cast [[B]] : u64

// CHECK:      kernel @third {
// CHECK-NEXT:   source "{{.*}}metadata.cake"
// CHECK-NEXT:   targets sm_103a
// CHECK-NEXT:   threads 1 1 1
// CHECK-NEXT:   grid "1" "1" "1"
// CHECK-NEXT:   body() {
// CHECK-NEXT:     ret !25:44
// CHECK-NEXT:   }
// CHECK-NEXT: }
