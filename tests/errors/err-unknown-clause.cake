// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A kernel clause is targets(...), threads(...) or grid(...).
// CHECK: err-unknown-clause.cake:[[@LINE+6]]:5: error: unknown kernel clause 'blocks' (expected targets, threads, grid, min_blocks, cluster, cta_group, index, launch or requires)
// CHECK-NEXT: {{^}}    blocks(4)
// CHECK-NEXT: {{^}}    ^

kernel k(y: out f32[N])
    threads(32)
    blocks(4)
{
    y[0] = 1.0;
}
