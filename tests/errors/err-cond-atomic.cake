// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// '?:' evaluates both arms: an atomic in one would update memory whatever the condition,
// so under a run-time condition it is refused (under a constant one only the arm taken is
// made: tests/frontend/cond-const.cake).
// CHECK: err-cond-atomic.cake:[[@LINE+6]]:28: error: 'atomic_add' in an arm of '?:' would run whatever the condition ('?:' evaluates both arms); write the choice as an if
// CHECK-NEXT: {{^}}    let t = thread.x > 0 ? atomic_add(y[0], 1) : 0;
// CHECK-NEXT: {{^}}                           ^
// CHECK: err-cond-atomic.cake:[[@LINE+4]]:43: error: 'atomic_max' in an arm of

kernel k(y: inout i32[N]) threads(32) {
    let t = thread.x > 0 ? atomic_add(y[0], 1) : 0;
    y[1] = t + (thread.x > 1 ? 2 : max(3, atomic_max(y[2], 4)));
}
