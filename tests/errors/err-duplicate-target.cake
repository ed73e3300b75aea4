// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A target listed twice.
// CHECK: err-duplicate-target.cake:[[@LINE+5]]:30: error: duplicate target 'sm_100a'
// CHECK-NEXT: {{^}}    targets(sm_100a, sm_90a, sm_100a)
// CHECK-NEXT: {{^}}                             ^

kernel k(y: out f32[N])
    targets(sm_100a, sm_90a, sm_100a)
    threads(32)
{
    y[0] = 1.0;
}
