// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// store and fragment on shared memory: a 2-dimensional array of f32, bf16 or f16 (a
// plain 1-dimensional one for fragment's [col] form), each row one swizzle span when
// swizzled, rows(start, n) inside it (multiples of 8 when swizzled), the fragment inside
// the matrix at constant coordinates; a register array is not stored into shared memory.

kernel k(o: out f32[64, 64])
    targets(sm_90a) threads(128)
{
    shared si: i32[64, 64];
    shared sw: bf16[64, 128] swizzle(128);
    shared sp: bf16[128, 64] swizzle(128);
    shared sf: f32[64, 64];
    shared v: f32[64];
    shared vs: f32[256] swizzle(128);
    var r: f32[4] = 1.0;
    let a = fragment(si, [0, 0], 64);
    let b = fragment(sw, [0, 0], 64);
    let c = fragment(sp.rows(4, 64), [0, 0], 64);
    let d = fragment(sp.rows(0, 64), [0, 64], 128);
    store(sf.T, fragment(sf, [0, 0], 64), [8, 0]);
    store(sf, r, [0, 0]);
    let e = fragment(v.T, [0], 64);
    let f = fragment(vs, [0], 64);
    store(o, fragment(sp.rows(64, 64), [0, 0], 64) + fragment(v, [0], 64), [0, 0]);
}

// CHECK: err-tile-shared.cake:17:22: error: fragment moves f32, bf16 or f16 between a fragment and shared memory, but 'si' holds i32
// CHECK-NEXT: {{^}}    let a = fragment(si, [0, 0], 64);
// CHECK-NEXT: {{^}}                     ^
// CHECK: err-tile-shared.cake:18:22: error: fragment: the rows of the swizzled array 'sw' are 256 bytes, but its swizzle(128) lays out rows of 128 bytes
// CHECK-NEXT: {{^}}    let b = fragment(sw, [0, 0], 64);
// CHECK-NEXT: {{^}}                     ^
// CHECK: err-tile-shared.cake:19:25: error: rows(4, 64) of 'sp': the rows must lie inside its 128 rows, start and count multiples of 8 (a swizzle atom)
// CHECK-NEXT: {{^}}    let c = fragment(sp.rows(4, 64), [0, 0], 64);
// CHECK-NEXT: {{^}}                        ^
// CHECK: err-tile-shared.cake:20:38: error: the fragment's 64 x 128 elements at row 0, column 64 of the matrix of 'sp' do not fit its 64 x 128 (a swizzled array's columns past its span continue in panels further down)
// CHECK-NEXT: {{^}}    let d = fragment(sp.rows(0, 64), [0, 64], 128);
// CHECK-NEXT: {{^}}                                     ^
// CHECK: err-tile-shared.cake:21:43: error: the fragment's 64 x 64 elements at row 0, column 8 of the matrix of 'sf' do not fit its 64 x 64
// CHECK-NEXT: {{^}}    store(sf.T, fragment(sf, [0, 0], 64), [8, 0]);
// CHECK-NEXT: {{^}}                                          ^
// CHECK: err-tile-shared.cake:22:11: error: store of a register array writes a tensor; into shared memory, assign the elements
// CHECK-NEXT: {{^}}    store(sf, r, [0, 0]);
// CHECK-NEXT: {{^}}          ^
// CHECK: err-tile-shared.cake:23:24: error: fragment: 'v' has 1 dimension; a tile of shared memory is a 2-dimensional array (a 1-dimensional one only in fragment(v, [col], N))
// CHECK-NEXT: {{^}}    let e = fragment(v.T, [0], 64);
// CHECK-NEXT: {{^}}                       ^
// CHECK: err-tile-shared.cake:24:22: error: fragment: 'vs' is a swizzled 1-dimensional array; fragment(v, [col], N) reads a plain one
// CHECK-NEXT: {{^}}    let f = fragment(vs, [0], 64);
// CHECK-NEXT: {{^}}                     ^
