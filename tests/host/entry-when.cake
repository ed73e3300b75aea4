// The entry point tries the instances in declaration order and launches the first whose
// tensor element types match and whose `when` holds. pick_grid makes the same choice
// without the driver, and the grid says which instance it made (each has its own U).
// A condition that divides by zero or overflows int64 stops the choice with
// CAKE_ERR_GRID; && and || evaluate their right side only when needed.
// REQUIRES: cuda-h
// RUN: rm -rf %t && %cakec --emit=ptx,host -o %t %s
// RUN: %cc %sanflags -std=c99 -Wall -Wextra -Werror -I%t -I%cudainc %S/entry_when_checks.c %t/pick.c %t/pick_small.c %t/pick_div.c %t/pick_sq.c %t/pick_f32.c %t/pick_bf16.c %t/cakert.c -ldl -lpthread -o %t/checks
// RUN: %t/checks | FileCheck %s
// RUN: FileCheck --check-prefix=SRC %s < %t/pick.c
// RUN: FileCheck --check-prefix=MAN %s < %t/manifest.json
// RUN: %cakec --emit=ptx,host -o %t/again %s && diff %t/pick.c %t/again/pick.c && diff %t/manifest.json %t/again/manifest.json

kernel pick<T: f32 | bf16, U: i32 = 1>(x: in T[N], y: out f32[N], d: i64, s: f32)
    threads(256) grid(cdiv(N, 256 * U))
{
    let i = block.x * 256 + thread.x;
    if (i < N) {
        y[i] = f32(x[i]) * s;
    }
}
instance pick<f32, 2> as pick_small when (N <= 512 * U && N % 8 == 0);
instance pick<f32, 4> as pick_div when (d != 0 && N / d >= 1000);
instance pick<f32, 8> as pick_sq when (d * d > N || N % d == 1);
instance pick<f32> as pick_f32;
instance pick<bf16> as pick_bf16;

// CHECK: f32 N=1024 d=0: CAKE_OK grid 2
// CHECK-NEXT: f32 N=1024 d=0: chose pick_small (CAKE_OK)
// CHECK-NEXT: f32 N=1001 d=0: CAKE_ERR_GRID pick: the condition of pick_sq, d * d > N || N % d == 1, divides by zero or overflows int64 (d = 0, N = 1001)
// CHECK-NEXT: f32 N=1001 d=0: chose none (CAKE_ERR_GRID)
// CHECK-NEXT: f32 N=4000 d=4: CAKE_OK grid 4
// CHECK-NEXT: f32 N=4000 d=4: chose pick_div (CAKE_OK)
// CHECK-NEXT: f32 N=4000 d=5: CAKE_OK grid 16
// CHECK-NEXT: f32 N=4000 d=5: chose pick_f32 (CAKE_OK)
// CHECK-NEXT: f32 N=4000 d=-3: CAKE_OK grid 2
// CHECK-NEXT: f32 N=4000 d=-3: chose pick_sq (CAKE_OK)
// CHECK-NEXT: f32 N=4000 d=100: CAKE_OK grid 2
// CHECK-NEXT: f32 N=4000 d=100: chose pick_sq (CAKE_OK)
// CHECK-NEXT: f32 N=4000 d=4294967296: CAKE_ERR_GRID pick: the condition of pick_sq, d * d > N || N % d == 1, divides by zero or overflows int64 (d = 4294967296, N = 4000)
// CHECK-NEXT: f32 N=4000 d=4294967296: chose none (CAKE_ERR_GRID)
// CHECK-NEXT: bf16 N=1024 d=0: CAKE_OK grid 4
// CHECK-NEXT: bf16 N=1024 d=0: chose pick_bf16 (CAKE_OK)
// CHECK-NEXT: i32 N=1024 d=0: CAKE_ERR_DTYPE pick: no instance takes these element types
// CHECK-NEXT: i32 N=1024 d=0: chose none (CAKE_ERR_DTYPE)
// CHECK-NEXT: f32 N=1024 y of 512: CAKE_ERR_SHAPE pick_small:
// CHECK-NEXT: f32 N=1024 y of 512: chose none (CAKE_ERR_SHAPE)

// The generated choice: conditions after the dtype test, in declaration order, with the
// instance's constants in place.
// SRC: /* Whether the condition of pick_small holds:
// SRC-NEXT:  *   N <= 512 * 2 && N % 8 == 0
// SRC: static int
// SRC-NEXT: pick_small_when(const pick_args *args, int *holds, CakeError *err)
// SRC: if ((rc = cakert_check_tensors(&pick_small_kernel, t, sym, err)) != CAKE_OK)
// SRC: *holds = ((v_N <= 1024) && (cakert_grem(v_N, 8, &ok) == 0));
// SRC: pick_div_when(
// SRC: *holds = ((v_d != 0) && (cakert_gdiv(v_N, v_d, &ok) >= 1000));
// SRC: pick_sq_when(
// SRC: *holds = ((cakert_gmul(v_d, v_d, &ok) > v_N) || (cakert_grem(v_N, v_d, &ok) == 1));
// SRC-LABEL: {{^}}pick_launch(const pick_args *args, CUstream stream, CakeError *err)
// SRC-NEXT: {
// SRC-NEXT: 	int holds, rc;
// SRC: 		if ((rc = pick_small_when(args, &holds, err)) != CAKE_OK)
// SRC-NEXT: 			return rc;
// SRC-NEXT: 		if (holds) {
// SRC: 			return pick_small_launch(&inst, stream, err);
// SRC: pick_div_when(args, &holds, err)
// SRC: pick_sq_when(args, &holds, err)
// SRC: 		return pick_f32_launch(&inst, stream, err);
// SRC: 		return pick_bf16_launch(&inst, stream, err);
// SRC: pick_grid(

// The manifest: each instance's condition as written and as a tree.
// MAN: "entry": "pick",
// MAN-NEXT: "rule": "the first instance, in this order, whose tensor element types match the arguments and whose condition (when, null: none) holds",
// MAN-NEXT: "instances": ["pick_small", "pick_div", "pick_sq", "pick_f32", "pick_bf16"],
// MAN-NEXT: "when": [
// MAN-NEXT: {"text": "N <= 512 * 2 && N % 8 == 0", "expr": ["&&", ["<=", "N", 1024], ["==", ["%", "N", 8], 0]]},
// MAN-NEXT: {"text": "d != 0 && N / d >= 1000", "expr": ["&&", ["!=", "d", 0], [">=", ["/", "N", "d"], 1000]]},
// MAN-NEXT: {"text": "d * d > N || N % d == 1", "expr": ["||", [">", ["*", "d", "d"], "N"], ["==", ["%", "N", "d"], 1]]},
// MAN-NEXT: null,
// MAN-NEXT: null
// MAN-NEXT: ]
