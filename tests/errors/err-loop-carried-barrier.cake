// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// The schedule checks follow a for loop's values one by one: its induction variable varies
// between threads only when its bounds do, a carried value only when its start or what the
// body passes on does. A loop that carries a loaded value (a persistent loop holding the
// next item's data, gdp_decode_multi) may still meet at a barrier under a condition on
// its induction variable; a condition on the loaded value itself parts the threads, as
// does a trip count that follows the thread index (the body's barrier then runs on fewer).

kernel good(x: inout f32[N]) threads(64) grid(min(num_sms, N)) {
    shared t: f32[64];
    let n = cdiv(N - block.x, grid_dim.x);
    var held: f32 = 0.0;
    for (step in 0 .. n + 1) {
        if (step > 0) {
            t[thread.x] = held;
            barrier();
            x[(block.x + (step - 1) * grid_dim.x) % N] = t[63 - thread.x];
            barrier();
        }
        if (step < n) {
            held = x[thread.x % N];
        }
    }
}

kernel bad(x: inout f32[N]) threads(64) grid(min(num_sms, N)) {
    shared t: f32[64];
    var held: f32 = 0.0;
    for (step in 0 .. 4) {
        if (held > 0.0) {
            barrier();
        }
        t[thread.x] = held;
        held = x[thread.x % N];
    }
}

kernel bounds(x: inout f32[N]) threads(64) {
    var held: i32 = 0;
    for (i in 0 .. 4) {
        held = held + i;
    }
    for (j in 0 .. held + thread.x) {
        barrier();
    }
}
// CHECK: err-loop-carried-barrier.cake:31:13: error: barrier() may be reached by only some threads of the block: a condition on the way depends on the thread index
// CHECK: err-loop-carried-barrier.cake:30:9: note: the threads may take different paths here
// CHECK: err-loop-carried-barrier.cake:44:9: error: barrier() may be reached by only some threads of the block
// CHECK: err-loop-carried-barrier.cake:43:5: note: the threads may take different paths here
