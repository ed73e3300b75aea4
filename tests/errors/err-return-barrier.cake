// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A return that some threads of a block take before a barrier() the others reach leaves
// the barrier short of arrivals (the block hangs): the schedule checks see the early exit
// like the condition it stands for. A return every thread of the block takes together (a
// condition on the block index) is fine, as is a barrier only before the return.

kernel bad(x: in f32[N], y: out f32[N]) threads(128) grid(cdiv(N, 128)) {
    shared t: f32[128];
    let i = block.x * 128 + thread.x;
    t[thread.x] = x[min(i, N - 1)];
    barrier();
    if (i >= N) {
        return;
    }
    y[i] = t[127 - thread.x];
    barrier();
    t[thread.x] = 0.0;
}

kernel good(x: in f32[N], y: out f32[N]) threads(128) grid(cdiv(N, 128)) {
    shared t: f32[128];
    if (block.x * 128 >= N) {
        return;
    }
    let i = block.x * 128 + thread.x;
    t[thread.x] = x[min(i, N - 1)];
    barrier();
    if (i < N) {
        y[i] = t[127 - thread.x];
    }
}

kernel lanes(x: in f32[N], y: out f32[N]) threads(64) {
    if (thread.x >= 40) {
        return;
    }
    y[thread.x] = shfl_xor(x[thread.x], 1);
}
// CHECK: err-return-barrier.cake:16:5: error: barrier() may be reached by only some threads of the block: a condition on the way depends on the thread index
// CHECK-NEXT: {{^}}    barrier();
// CHECK: err-return-barrier.cake:12:5: note: the threads may take different paths here (a condition, or what follows an early exit)
// CHECK: err-return-barrier.cake:37:19: error: shfl.xor is reached by 8 of the 32 lanes of warp 1; a warp collective needs every lane of the warp
// CHECK: err-return-barrier.cake:34:5: note: the threads take different paths here (a condition, or what follows an early exit)
