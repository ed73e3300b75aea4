// RUN: %not %cakec -D BLOCKS=256 %s 2>&1 | FileCheck --strict-whitespace %s
// -D must name a constant of the file.
// CHECK: err-define-unknown.cake: error: -D BLOCKS=256: there is no constant named 'BLOCKS' in this file

const BLOCK: i32 = 128;

kernel k(y: out f32[N]) threads(BLOCK) {
    y[0] = 1.0;
}
