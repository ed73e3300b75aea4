// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// Only a regular file can be imported: not a folder, not a device.
import "Inputs";
import "/dev/zero";

kernel k(x: inout f32[N]) threads(32) {
    x[thread.x] = 1.0;
}
// CHECK: err-import-notfile.cake:3:8: error: cannot open imported file 'Inputs': not a regular file
// CHECK: err-import-notfile.cake:4:8: error: cannot open imported file '/dev/zero': not a regular file
