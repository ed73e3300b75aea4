// Staging elision and distributed shared memory: a buffer that the blocks of a cluster
// read through remote(...) holds another block's copy, which this block's loads cannot
// stand for, so it stays; a remote read of another buffer does not stop the elision of
// one that only its own block reads back (gdp_decode_ksplit's partials and its state).
// RUN: %cakec --report=staging --emit=ir %s 2>&1 | FileCheck %s
// RUN: %cakec --emit=ir --kernel own %s | FileCheck %s --check-prefix=IR

// CHECK: staging: shared_out: buffer st (512 bytes): kept: its address goes to mapa (at [[@LINE+16]]:13)
// CHECK: staging: own: buffer st (512 bytes): elided
// CHECK: staging: own: buffer part (512 bytes): kept: a plain store writes it (at [[@LINE+28]]:17)
// IR-LABEL: kernel @own
// IR-NOT: cp.async
// IR: mapa
// IR: load{{.*}} : f32x4

kernel shared_out(x: in f32[N, 128], y: out f32[N, 128]) threads(32) cluster(2) grid(2) {
    shared st: f32[128];
    let c = thread.x * 4;
    cp_async(st[c : 4], x[block.x, c : 4]);
    cp_async_commit();
    cp_async_wait(0);
    barrier();
    cluster_sync();
    let a = remote(st, 1 - cluster_rank)[c : 4];
    cluster_sync();
    y[block.x, c : 4] = a;
}

kernel own(x: in f32[N, 128], y: out f32[N, 128]) threads(32) cluster(2) grid(2) {
    shared st: f32[128];
    shared part: f32[128];
    let c = thread.x * 4;
    cp_async(st[c : 4], x[block.x, c : 4]);
    cp_async_commit();
    cp_async_wait(0);
    barrier();
    let a = st[c : 4];
    part[c : 4] = a * f32x4(2.0);
    cluster_sync();
    let o = remote(part, 1 - cluster_rank)[c : 4];
    cluster_sync();
    y[block.x, c : 4] = a + o;
}
