// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A block holds at most 1024 threads.
// CHECK: err-threads-range.cake:[[@LINE+5]]:5: error: threads(...) asks for 2048 threads per block; a block holds 1 to 1024
// CHECK-NEXT: {{^}}    threads(64, 32)
// CHECK-NEXT: {{^}}    ^

kernel k(y: out f32[N])
    threads(64, 32)
{
    y[0] = 1.0;
}
