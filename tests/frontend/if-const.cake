// An if whose condition is a compile-time constant keeps only the branch it takes: the
// other is neither checked nor lowered. A generic kernel's `if (S > 1)` may so use what
// only some instances allow (cluster_sync() needs a cluster), and a -D switch picks code
// without an if in the IR. Variables the kept branch assigns are the kernel's, as in any
// block; an else-if chain keeps the first branch whose constant holds.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s
// RUN: %cakec --emit=ir --passes= -D MODE=2 %s | FileCheck %s --check-prefix=MODE2
// The same kernel written with a run-time condition must still be checked in full:
// RUN: sed 's/if (S > 1)/if (thread.x > 1)/' %s > %t.cake
// RUN: %not %cakec --emit=ir %t.cake 2>&1 | FileCheck %s --check-prefix=RUNTIME

const MODE: i32 = 1;

kernel reduce<S: i32>(o: out f32[N]) targets(sm_90a) threads(32) cluster(S) grid(S) {
    shared t: f32[32];
    t[thread.x] = f32(cluster_rank);
    var x = 1.0;
    if (S > 1) {
        cluster_sync();
        x = remote(t, 0)[thread.x];
    } else {
        barrier();
    }
    o[block.x * 32 + thread.x] = x;
}

instance reduce<1> as reduce1;
instance reduce<2> as reduce2;

kernel modes(o: out i32[4]) threads(32) {
    var v = 0;
    if (MODE == 0) {
        v = 10;
    } else if (MODE == 1) {
        v = 11;
    } else {
        v = 12;
    }
    o[thread.x % 4] = v;
}

// Kernels come out in name order: modes, reduce1, reduce2.
// CHECK-LABEL: kernel @modes
// CHECK-NOT:   {{= if| if }}
// CHECK:       const 11 : i32
// CHECK-NOT:   const 10
// CHECK-NOT:   const 12
// CHECK:       ret
// CHECK-LABEL: kernel @reduce1
// CHECK-NOT:   cluster.sync
// CHECK-NOT:   {{= if| if }}
// CHECK:       barrier
// CHECK-NOT:   mapa
// CHECK:       ret
// CHECK-LABEL: kernel @reduce2
// CHECK-NOT:   barrier
// CHECK-NOT:   {{= if| if }}
// CHECK:       cluster.sync
// CHECK:       mapa
// CHECK:       ret

// MODE2-LABEL: kernel @modes
// MODE2-NOT:   {{= if| if }}
// MODE2-NOT:   const 11
// MODE2:       const 12 : i32

// RUNTIME: error: cluster_sync() synchronizes the CTAs of a cluster, but kernel 'reduce1' has no cluster (cluster(1)); use barrier()
