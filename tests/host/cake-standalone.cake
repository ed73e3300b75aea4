// A .cake kernel's output folder builds on its own as strict C99 with only cuda.h, and
// links with only -ldl -lpthread; every kernel in kernels_src/ does too, all in one folder.
// REQUIRES: cuda-h
// RUN: rm -rf %t && %cakec --emit=ptx,host -o %t %s && cd %t && %cc -std=c99 -Wall -Wextra -Werror -I%cudainc -c *.c
// RUN: FileCheck %s < %t/scale_rows.h
// RUN: FileCheck %s --check-prefix=M < %t/manifest.json
// RUN: printf '#include "scale_rows.h"\nint main(void) { CakeError e; return scale_rows_launch(0, 0, &e) == CAKE_ERR_NULL ? 0 : 1; }\n' > %t/main.c
// RUN: cd %t && %cc -std=c99 -Wall -Wextra -Werror -I%cudainc main.c scale_rows.c cakert.c -ldl -lpthread -o main && ./main
// (Files without a kernel are libraries the others import, not compiled on their own. The
// launchers embed PTX only: scale_rows above covers the cubin arrays, and ptxas would take
// most of this test's time.)
// RUN: rm -rf %t.all && %cakec --emit=ptx,host --ptx-only -o %t.all $(grep -l '^kernel[[:space:]]' %srcroot/kernels_src/*/*.cake)
// RUN: cd %t.all && %cc -std=c99 -Wall -Wextra -Werror -I%cudainc -c *.c

// CHECK: typedef struct scale_rows_args {
// CHECK-NEXT: CakeTensor x; /* in f32 [rows, 64] */
// CHECK-NEXT: CakeTensor y; /* out f32 [rows, 64] */
// CHECK-NEXT: float s; /* f32 */
// CHECK-NEXT: } scale_rows_args;
// CHECK: int scale_rows_launch(const scale_rows_args *args, CUstream stream, CakeError *err);

// M: "kernel": "scale_rows",
// M: "grid": ["rows", "1", "1"],
// M: {"name": "x", "kind": "tensor", "dtype": "f32", "access": "in", "shape": ["rows", 64], "align": 4},

kernel scale_rows(x: in f32[rows, 64], y: out f32[rows, 64], s: f32)
    targets(sm_90a)
    threads(64)
    grid(rows)
{
    y[block.x, thread.x] = s * x[block.x, thread.x];
}
