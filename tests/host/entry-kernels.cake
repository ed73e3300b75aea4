// One entry point over two designs: `instance rows<f32> as wide_small entry wide when (...)`
// puts an instance of generic kernel rows into wide's entry point, ahead of wide's own, so
// wide(x, y, s) launches the one-warp-per-1024-elements design for small N and the wide
// one otherwise. wide_grid makes the same choice without the driver, and the grid says
// which (rows: cdiv(N, 1024) blocks, wide: cdiv(N, 256)). rows has no entry point of its
// own: its only instance joined wide's.
// REQUIRES: cuda-h
// RUN: rm -rf %t && %cakec --emit=ptx,host -o %t %s
// RUN: %cc %sanflags -std=c99 -Wall -Wextra -Werror -I%t -I%cudainc %S/entry_kernels_checks.c %t/wide.c %t/wide_small.c %t/wide_f32.c %t/wide_bf16.c %t/cakert.c -ldl -lpthread -o %t/checks
// RUN: %t/checks | FileCheck %s
// RUN: FileCheck --check-prefix=MAN %s < %t/manifest.json
// RUN: %not ls %t/rows.c %t/rows.h
// RUN: %cakec --emit=ptx,host -o %t/again %s && diff %t/wide.c %t/again/wide.c && diff %t/manifest.json %t/again/manifest.json

kernel wide<T: f32 | bf16>(x: in T[N], y: out f32[N], s: f32) threads(256) grid(cdiv(N, 256)) {
    let i = block.x * 256 + thread.x;
    if (i < N) {
        y[i] = f32(x[i]) * s;
    }
}

kernel rows<T: f32>(x: in T[N], y: out f32[N], s: f32) threads(32) grid(cdiv(N, 1024)) {
    for (j in block.x * 1024 + lane .. min(N, block.x * 1024 + 1024) step 32) {
        y[j] = f32(x[j]) * s;
    }
}

instance rows<f32> as wide_small entry wide when (N <= 4096);
instance wide<f32> as wide_f32;
instance wide<bf16> as wide_bf16;

// CHECK: f32 N=1024: CAKE_OK grid 1
// CHECK-NEXT: f32 N=4096: CAKE_OK grid 4
// CHECK-NEXT: f32 N=8192: CAKE_OK grid 32
// CHECK-NEXT: bf16 N=1024: CAKE_OK grid 4
// CHECK-NEXT: i32 N=1024: CAKE_ERR_DTYPE wide: no instance takes these element types

// MAN: "entry": "wide",
// MAN-NEXT: "rule": "the first instance, in this order, whose tensor element types match the arguments and whose condition (when, null: none) holds",
// MAN-NEXT: "instances": ["wide_small", "wide_f32", "wide_bf16"],
// MAN-NEXT: "when": [
// MAN-NEXT: {"text": "N <= 4096", "expr": ["<=", "N", 4096]},
// MAN-NEXT: null,
// MAN-NEXT: null
// MAN-NOT: "entry": "rows"
