// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// targets(...) names the GPUs cakec supports.
// CHECK: err-unknown-target.cake:[[@LINE+5]]:21: error: unknown target 'sm_80' (expected sm_90a, sm_100a or sm_103a)
// CHECK-NEXT: {{^}}    targets(sm_90a, sm_80)
// CHECK-NEXT: {{^}}                    ^

kernel k(y: out f32[N])
    targets(sm_90a, sm_80)
    threads(32)
{
    y[0] = 1.0;
}
