// A while loop that halves a value once made LLVM's instcombine stop the compile with "did
// not reach a fixpoint" (an internal error): the pipelines run it without that check.
// RUN: %cakec --target sm_90a --emit=ptx %s | FileCheck %s
// RUN: %cakec --target sm_90a -O3 --emit=ptx %s | FileCheck %s

kernel w(o: out i32[64]) targets(sm_90a) threads(64) grid(1) {
    let t = thread.x;
    var k = t;
    var c = 0;
    while (k > 0) {
        k = k / 2;
        c = c + 1;
    }
    o[t] = c;
}
// CHECK: .visible .entry w_
// CHECK: st.global.b32
