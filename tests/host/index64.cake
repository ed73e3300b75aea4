// The launcher and the index width (index64_checks.c): a kernel with index(i64) takes
// tensors of 2^31 or more elements (and passes its shape symbols as int64_t); the same
// kernel without it refuses them, naming the tensor, its element count, the kernel and the
// fix; index(i64) still refuses a tensor whose bytes do not fit in int64. No GPU needed.
// REQUIRES: cuda-h
// RUN: rm -rf %t && %cakec --emit=ptx,host -o %t %s
// RUN: %cc %sanflags -std=c99 -Wall -Wextra -Werror -I%t -I%cudainc %S/index64_checks.c %t/rowsq64.c %t/rowsq32.c %t/flat64.c %t/cakert.c -ldl -lpthread -o %t/checks
// RUN: %t/checks | FileCheck %s
// RUN: FileCheck %s --check-prefix=GEN < %t/rowsq64.c
// RUN: FileCheck %s --check-prefix=GEN32 < %t/rowsq32.c

// CHECK: ok rowsq64-big: grid (32768, 1, 1)
// CHECK-NEXT: ok rowsq32-big: CAKE_ERR_LIMIT: rowsq32: parameter 'x': 4982833152 elements (shape [32768, 152064]) is not below 2^31, but kernel 'rowsq32' indexes in i32: declare index(i64) on kernel 'rowsq32' (or dispatch to a variant that has it)
// CHECK-NEXT: ok rowsq32-dim: CAKE_ERR_LIMIT: rowsq32: parameter 'x': shape[1] = 2147483648 (shape [1, 2147483648], 2147483648 elements) is not below 2^31, but kernel 'rowsq32' indexes in i32: declare index(i64) on kernel 'rowsq32' (or dispatch to a variant that has it)
// CHECK-NEXT: ok rowsq32-small: grid (32768, 1, 1)
// CHECK-NEXT: ok flat64-big: grid (8388625, 1, 1)
// CHECK-NEXT: ok flat64-grid: CAKE_ERR_GRID: flat64: grid x = cdiv(N, 256) = 4294967296: expected 0..2147483647
// CHECK-NEXT: ok rowsq64-numel-overflow: CAKE_ERR_LIMIT: rowsq64: parameter 'x': 2^63 or more elements (shape [2305843009213693952, 4]): too large (the tensor's bytes must fit in int64)
// CHECK-NEXT: ok rowsq64-bytes: CAKE_ERR_LIMIT: rowsq64: parameter 'out': shape[0] = 2305843009213693952 (shape [2305843009213693952], 2305843009213693952 elements): too large (the tensor's bytes must fit in int64)
// CHECK-NEXT: all passed

// GEN: cakert_check_tensors_i64(&rowsq64_kernel
// GEN: int64_t p_R;
// GEN: p_R = sym[0];
// GEN32: cakert_check_tensors(&rowsq32_kernel
// GEN32: int32_t p_R;
// GEN32: p_R = (int32_t)sym[0];

kernel rowsq64(x: in bf16[R, C], out: out f32[R]) threads(256) grid(R) index(i64) {
    var s: f32 = 0.0;
    for (j in thread.x .. C step 256) {
        let v = f32(x[block.x, j]);
        s += v * v;
    }
    if (thread.x == 0) {
        out[block.x] = s;
    }
}

kernel rowsq32(x: in bf16[R, C], out: out f32[R]) threads(256) grid(R) {
    var s: f32 = 0.0;
    for (j in thread.x .. C step 256) {
        let v = f32(x[block.x, j]);
        s += v * v;
    }
    if (thread.x == 0) {
        out[block.x] = s;
    }
}

kernel flat64(x: in u8[N], y: out u8[N]) threads(256) grid(cdiv(N, 256)) index(i64) {
    let i = i64(block.x) * 256 + i64(thread.x);
    if (i < N) {
        y[i] = x[i];
    }
}
