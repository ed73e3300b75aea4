// The other Hopper calls and values: cluster_rank (cluster.rank), warpgroup (warp / 4),
// raw mbarriers (mbar[b] 0 with mbar.expect.tx, mbar.arrive, mbar.wait), tma_load with an
// explicit barrier and multicast (tma.load.mc), remote(buf, rank)[i] (mapa to the CTA of
// that rank, then the element), fence_proxy_async, cluster_sync, tma_store (with its
// commit) and tma_store_wait (tma.wait[0]).
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s

kernel misc(a: in bf16[M, K], o: inout bf16[M, K])
    targets(sm_90a, sm_100a) threads(128) cluster(2, 1, 1)
{
    tensormap ta = tma(a, box[16, 16]);
    tensormap to = tma(o, box[16, 16]);
    mbarrier done(count: 1);
    shared s: bf16[16, 16];
    let rank = cluster_rank;
    let g = warpgroup;
    elect {
        mbar_expect_tx(done, 1024);
        tma_load(s, ta, [0, 0], done, multicast: 3);
        mbar_arrive(done);
    }
    mbar_wait(done, 0);
    let v = remote(s, rank ^ 1)[thread.x / 16, thread.x % 16];
    s[thread.x / 16, thread.x % 16] = v;
    remote(s, 0)[0, g] = v;
    fence_proxy_async();
    cluster_sync();
    elect {
        tma_store(to, [16, 0], s);
        tma_store_wait();
    }
}

// CHECK-LABEL: kernel @misc {
// CHECK:        cluster.sync !10:1
// CHECK-NEXT:   [[RANK:%[0-9]+]] = cluster.rank : i32 !15:16
// CHECK-NEXT:   [[W:%[0-9]+]] = warpid : i32 !16:13
// CHECK-NEXT:   [[FOUR:%[0-9]+]] = const 4 : i32 !16:13
// CHECK-NEXT:   [[G:%[0-9]+]] = div [[W]], [[FOUR]] : i32 !16:13
// CHECK-NEXT:   elect {
// CHECK-NEXT:     [[BYTES:%[0-9]+]] = const 1024 : i32 !18:30
// CHECK-NEXT:     [[Z:%[0-9]+]] = const 0 : i32 !18:9
// CHECK-NEXT:     [[B:%[0-9]+]] = mbar[0] [[Z]] : ptr.shared.i64 !18:9
// CHECK-NEXT:     mbar.expect.tx [[B]], [[BYTES]] !18:9
// CHECK-NEXT:     [[S:%[0-9]+]] = smem[0] : ptr.shared.bf16 !19:9
// CHECK-NEXT:     [[Z2:%[0-9]+]] = const 0 : i32 !19:9
// CHECK-NEXT:     [[B2:%[0-9]+]] = mbar[0] [[Z2]] : ptr.shared.i64 !19:9
// CHECK-NEXT:     [[MASK:%[0-9]+]] = const 3 : i32 !19:50
// CHECK-NEXT:     [[X:%[0-9]+]] = const 0 : i32 !19:26
// CHECK-NEXT:     [[Y:%[0-9]+]] = const 0 : i32 !19:29
// CHECK-NEXT:     tma.load.mc[2] [[S]], %5, [[B2]], [[MASK]], [[X]], [[Y]] !19:9
// CHECK:          mbar.arrive {{%[0-9]+}} !20:9
// CHECK-NEXT:     yield !17:5
// CHECK-NEXT:   } !17:5
// CHECK:        mbar.wait {{%[0-9]+}}, {{%[0-9]+}} !22:5
// CHECK-NEXT:   [[ONE:%[0-9]+]] = const 1 : i32 !23:30
// CHECK-NEXT:   [[OTHER:%[0-9]+]] = xor [[RANK]], [[ONE]] : i32 !23:28
// CHECK-NEXT:   [[LOCAL:%[0-9]+]] = smem[0] : ptr.shared.bf16 !23:13
// CHECK-NEXT:   [[REMOTE:%[0-9]+]] = mapa [[LOCAL]], [[OTHER]] : ptr.cluster.bf16 !23:13
// CHECK:        [[RP:%[0-9]+]] = elemptr [[REMOTE]], {{%[0-9]+}} : ptr.cluster.bf16 !23:32
// CHECK-NEXT:   [[V:%[0-9]+]] = load[0] [[RP]] : bf16 !23:32
// CHECK:        [[R0:%[0-9]+]] = mapa {{%[0-9]+}}, {{%[0-9]+}} : ptr.cluster.bf16 !25:5
// CHECK:        [[WP:%[0-9]+]] = elemptr [[R0]], {{%[0-9]+}} : ptr.cluster.bf16 !25:17
// CHECK-NEXT:   store [[WP]], [[V]] !25:24
// CHECK-NEXT:   fence.proxy.async !26:5
// CHECK-NEXT:   cluster.sync !27:5
// CHECK-NEXT:   elect {
// CHECK-NEXT:     [[SRC:%[0-9]+]] = smem[0] : ptr.shared.bf16 !29:9
// CHECK-NEXT:     [[R16:%[0-9]+]] = const 16 : i32 !29:24
// CHECK-NEXT:     [[C0:%[0-9]+]] = const 0 : i32 !29:28
// CHECK-NEXT:     tma.store[2] %6, [[SRC]], [[R16]], [[C0]] !29:9
// CHECK-NEXT:     tma.commit !29:9
// CHECK-NEXT:     tma.wait[0] !30:9
// CHECK-NEXT:     yield !28:5
