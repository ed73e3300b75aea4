// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// import takes a string literal, at file scope only; a string ends on its line.
import Inputs;

kernel k(x: inout f32[N]) threads(32) {
    import "x.cake";
    x[thread.x] = 1.0;
}

import "Inputs/err-import-lib.cake
// CHECK: err-import-syntax.cake:3:8: error: syntax error, unexpected identifier 'Inputs', expecting string literal
// CHECK: err-import-syntax.cake:6:5: error: syntax error, unexpected 'import'
// CHECK: err-import-syntax.cake:10:8: error: unterminated string: '"' has no matching '"' on its line
// CHECK: err-import-syntax.cake:{{.*}}: error: syntax error, unexpected end of file, expecting ';'
