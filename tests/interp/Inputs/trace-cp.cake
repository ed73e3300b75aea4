// For trace.test: two cp.async groups per warp, waited for one at a time, and a barrier.
kernel twogroups(src: in f32[256], out: out f32[128])
    targets(sm_90a)
    threads(128)
    grid(1)
{
    shared t: f32[128];
    shared u: f32[128];
    cp_async(t[thread.x], src[thread.x]);
    cp_async_commit();
    cp_async(u[thread.x], src[128 + thread.x]);
    cp_async_commit();
    cp_async_wait(1);
    barrier();
    let x = t[127 - thread.x];
    cp_async_wait(0);
    barrier();
    out[thread.x] = x + u[127 - thread.x];
}
