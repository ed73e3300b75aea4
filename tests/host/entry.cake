// The entry point of a generic kernel picks the first instance, in declaration order,
// whose tensor element types match the arguments, and reports the types it got and the
// ones each instance takes when none matches. scale_grid goes through the same choice as
// scale_launch without the driver: the grid says which instance ran (U differs).
// REQUIRES: cuda-h
// RUN: rm -rf %t && %cakec --emit=ptx,host -o %t %s
// RUN: %cc %sanflags -std=c99 -Wall -Wextra -Werror -I%t -I%cudainc %S/entry_checks.c %t/scale.c %t/scale_f32_f32.c %t/scale_bf16_bf16_8.c %t/scale_half.c %t/scale_bf16_f32.c %t/scale_f16_f32.c %t/scale_f32_bf16.c %t/cakert.c -ldl -lpthread -o %t/checks
// RUN: %t/checks | FileCheck %s

kernel scale<T: f32 | bf16 | f16, O: f32 | bf16, U: i32 = 4>(x: in T[N], y: out O[N], s: f32)
    threads(256) grid(cdiv(N, 256 * U))
{
    for (u in 0 .. U) unroll {
        let i = (block.x * U + u) * 256 + thread.x;
        if (i < N) {
            y[i] = O(f32(x[i]) * s);
        }
    }
}
instance scale<f32, f32>;
instance scale<bf16, bf16, 8>;
instance scale<f16, bf16> as scale_half;
instance scale<bf16, f32, 1> as scale_bf16_f32;
instance scale<f16, f32, 2> as scale_f16_f32;
instance scale<f32, bf16, 16> as scale_f32_bf16;

// CHECK: f32 -> f32: CAKE_OK grid 10
// CHECK-NEXT: f32 -> f32: chose scale_f32_f32 (CAKE_OK)
// CHECK-NEXT: bf16 -> bf16: CAKE_OK grid 5
// CHECK-NEXT: bf16 -> bf16: chose scale_bf16_bf16_8 (CAKE_OK)
// CHECK-NEXT: f16 -> bf16: CAKE_OK grid 10
// CHECK-NEXT: f16 -> bf16: chose scale_half (CAKE_OK)
// CHECK-NEXT: f16 -> f32: CAKE_OK grid 20
// CHECK-NEXT: f16 -> f32: chose scale_f16_f32 (CAKE_OK)
// CHECK-NEXT: i32 -> f32: CAKE_ERR_DTYPE scale: no instance takes these element types (x: DLPack code 0 bits 32, y: DLPack code 2 bits 32); the instances take x: f32, y: f32; x: bf16, y: bf16; x: f16, y: bf16; x: bf16, y: f32; x: f16, y: f32; x: f32, y: bf16
// CHECK-NEXT: i32 -> f32: chose none (CAKE_ERR_DTYPE)
// CHECK-NEXT: no kernel pointer: CAKE_ERR_NULL scale: kernel is NULL
