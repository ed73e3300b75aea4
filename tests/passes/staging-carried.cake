// A persistent loop that prefetches the next row into the staging buffer while it works
// on the current one: the read at the top of the loop sees the copy made in the previous
// iteration (after the read, in the same loop), not only the one before the loop. The
// buffer must stay: eliding it turned the read into a load hoisted to the first copy, so
// every iteration saw the first row. The same loop without the prefetch elides (each
// iteration reads what the copy before the loop brought).
// RUN: %cakec --report=staging --emit=ir %s 2>&1 | FileCheck %s
// RUN: %cakec --emit=ir --kernel prefetch %s | FileCheck %s --check-prefix=IR

// CHECK: staging: prefetch: buffer st (512 bytes): kept: the copy at 30:13 is in a loop around the read at 27:19: it runs again after the copy at 22:5 is complete and before the read's next iteration, and may replace the element read
// CHECK: staging: once: buffer st (512 bytes): elided
// IR-LABEL: kernel @prefetch
// IR: for
// IR: cp.async.wait
// IR: barrier
// IR: load{{.*}} : f32x4 !27:19
// IR: cp.async
// IR: cp.async.commit
kernel prefetch(x: in f32[N, 128], y: out f32[N, 128]) threads(32) grid(8) {
    shared st: f32[128];
    let c = thread.x * 4;
    cp_async(st[c : 4], x[block.x, c : 4]);
    cp_async_commit();
    for (r in block.x .. N step grid_dim.x) {
        cp_async_wait(0);
        barrier();
        let a = st[c : 4];
        barrier();
        if (r + grid_dim.x < N) {
            cp_async(st[c : 4], x[r + grid_dim.x, c : 4]);
        }
        cp_async_commit();
        y[r, c : 4] = a * f32x4(2.0);
    }
}

kernel once(x: in f32[N, 128], y: out f32[N, 128]) threads(32) grid(8) {
    shared st: f32[128];
    let c = thread.x * 4;
    cp_async(st[c : 4], x[block.x, c : 4]);
    cp_async_commit();
    for (r in block.x .. N step grid_dim.x) {
        cp_async_wait(0);
        barrier();
        let a = st[c : 4];
        y[r, c : 4] = a * f32x4(2.0);
    }
}
