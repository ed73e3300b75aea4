// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// An index that is in bounds only for some iterations of an unrolled loop is found when
// the compiler unrolls it (after the other checks: irgen reports it).

kernel k(x: in f32[N], y: out f32[N]) threads(32) {
    var v: f32[8] = 0.0;
    for (j in 0 .. 8) unroll {
        let k = j * 2;
        y[j] = v[k];
    }
}
// CHECK: err-regarray-unrolled.cake:9:18: error: index 8 is out of bounds of register array 'v' (dimension 1 has 8 elements)

