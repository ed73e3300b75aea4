// RUN: python3 %S/Inputs/npy.py make %t.a.npy '<f4' 64 'i'
// Planted bug: a thread reads its cp.async destination before cp.async.wait; the copy
// completes only when its group is committed and the scheduler or a wait completes it.
// RUN: %not %builddir/cakec-run %s early src=%t.a.npy out=%t.npy 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: cp-async-early.cake:[[@LINE+9]]:14: error: read of shared memory that an asynchronous copy in flight will write (wait for it first: its mbarrier, or cp.async.wait): byte offset 0 (element 0) of shared buffer 't' (32 elements of 4 bytes) [block (0,0,0), warp 0, lane 0 (thread (0,0,0))]
kernel early(src: in f32[64], out: out f32[32])
    targets(sm_90a)
    threads(32)
    grid(1)
{
    shared t: f32[32];
    cp_async(t[thread.x], src[thread.x]);
    cp_async_commit();
    let x = t[thread.x];
    cp_async_wait(0);
    out[thread.x] = x;
}

// cp.async.wait_group 1 completes all groups but the newest: the first group's data is
// there, the second's may not be.
// RUN: %not %builddir/cakec-run --seeds 3 %s groups src=%t.a.npy out=%t.npy 2>&1 | FileCheck %s --check-prefix=GROUPS
// GROUPS: cp-async-early.cake:[[@LINE+13]]:36: error: read of shared memory that an asynchronous copy in flight will write (wait for it first: its mbarrier, or cp.async.wait): byte offset 0 (element 0) of shared buffer 'u'
kernel groups(src: in f32[64], out: out f32[32])
    targets(sm_90a)
    threads(32)
    grid(1)
{
    shared t: f32[32];
    shared u: f32[32];
    cp_async(t[thread.x], src[thread.x]);
    cp_async_commit();
    cp_async(u[thread.x], src[32 + thread.x]);
    cp_async_commit();
    cp_async_wait(1);
    out[thread.x] = t[thread.x] + u[thread.x];
}
