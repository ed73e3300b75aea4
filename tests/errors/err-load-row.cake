// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// load(buf, [i, j]) initialises a one-dimensional register array from a shared array's
// row: a shared array and one coordinate per dimension, the array's type the buffer's or
// a wider float, the row long enough at a constant start, a staged buffer inside its
// pipeline's blocks; and it is no value elsewhere.

kernel k(t: in f32[64], o: out f32[64])
    targets(sm_90a) threads(32)
{
    pipeline p(stages: 2, full: thread, empty: thread);
    shared sp: f32[64] in p;
    shared s: bf16[4, 64];
    shared si: i32[64];
    var a: f32[8] = load(s, [0, 60]);
// CHECK: err-load-row.cake:[[@LINE-1]]:33: error: load reads elements 60 .. 67 of a row of 's', which has 64
    var b: f32[8] = load(s, [0]);
// CHECK: err-load-row.cake:[[@LINE-1]]:29: error: wrong number of indices for 's': it has 2 dimensions, found 1 index
    var c: f32[8] = load(t, [0]);
// CHECK: err-load-row.cake:[[@LINE-1]]:26: error: load takes a shared array, but 't' is a tensor parameter
    var d: f32[8] = load(si, [0]);
// CHECK: err-load-row.cake:[[@LINE-1]]:21: error: load reads 'si' (i32) into register array 'd' of f32: the array's type is the buffer's, or a wider float
    var e: bf16[2, 4] = load(s, [0, 0]);
// CHECK: err-load-row.cake:[[@LINE-1]]:25: error: load fills a register array of one dimension, but 'e' has 2
    var f: f32[4] = load(sp, [0]);
// CHECK: err-load-row.cake:[[@LINE-1]]:26: error: shared array 'sp' is staged in pipeline 'p': use it inside a produce or consume block of 'p', which selects the stage
    var g: f32[4] = load(s, 0);
// CHECK: err-load-row.cake:[[@LINE-1]]:29: error: load takes the first element's coordinates as a list, [i, j]
    let h = load(s, [0, 0]);
// CHECK: err-load-row.cake:[[@LINE-1]]:13: error: load(...) initialises a register array: var r: f32[8] = load(buf, [i, j]);
    var m: f32x4[2] = load(s, [0, 0]);
// CHECK: err-load-row.cake:[[@LINE-1]]:23: error: load reads 's' (bf16) into register array 'm' of f32x4: the array's type is the buffer's, or a wider float
    o[lane] = a[0];
}
