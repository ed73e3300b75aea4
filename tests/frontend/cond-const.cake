// `c ? a : b` with a compile-time constant c makes only the arm it takes, so a generic
// kernel may put an atomic in the arm that only some instances take (with a run-time c an
// arm that touches memory runs in a branch: tests/frontend/lazy-logic.cake).
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s

kernel take<S: i32>(y: inout i32[N]) threads(32) {
    let t = S != 0 ? atomic_add(y[0], 1) : block.x;
    y[1 + thread.x] = thread.x > 3 ? t : 7;
}

instance take<0> as take0;
instance take<1> as take1;

// CHECK-LABEL: kernel @take0
// CHECK-NOT: atom.add
// CHECK: ctaid.x
// CHECK: select
// CHECK-LABEL: kernel @take1
// CHECK-NOT: ctaid.x
// CHECK: atom.add
// CHECK-NOT: ctaid.x
// CHECK: select
