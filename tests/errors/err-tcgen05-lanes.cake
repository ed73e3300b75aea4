// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// The TMEM lane quarter (schedule-check, per thread): warp w reaches only lanes
// 32 * (w % 4) .. + 31, so tmem_load's first lane must be 32 * (warp % 4). Warps 4..7 read
// with lane0 = 32 * (warp % 4) (fine); lane0 = 0 is wrong from warp 5 on; 32 * (warp / 4)
// is wrong in warp 4 already (32, but warp 4 owns lanes 0 .. 31). tmem_store the same.

kernel k(c: out f32[M, N]) targets(sm_100a) threads(256) {
    pipeline accp(stages: 2, full: mma, empty: warpgroup);
    tmem acc: f32[128, 64] in accp;
    role epilogue(warpgroup 1) {
        consume accp {
            var r: f32[4] = tmem_load(acc, 32 * (warp % 4), 0);
            c[lane, 0] = r[0];
        }
        consume accp {
            var r: f32[4] = tmem_load(acc, 0, 0);
            c[lane, 1] = r[0];
        }
        consume accp {
            var r: f32[4] = tmem_load(acc, 32 * (warp / 4 - 1) + 32, 8);
            c[lane, 2] = r[0];
        }
        consume accp {
            var r: f32[4] = 0.0;
            tmem_store(acc, 32 * (warp % 4), 0, r);
            tmem_store(acc, 0, 4, r);
        }
    }
}
// CHECK: err-tcgen05-lanes.cake:16:29: error: tcgen05.ld in warp 5 (thread 160) accesses TMEM lanes 0 .. 31, but warp 5 reaches only lanes 32 .. 63: the first lane must be 32 * (warp % 4)
// CHECK-NEXT: {{^}}            var r: f32[4] = tmem_load(acc, 0, 0);
// CHECK-NEXT: {{^}}                            ^
// CHECK: err-tcgen05-lanes.cake:20:29: error: tcgen05.ld in warp 4 (thread 128) accesses TMEM lanes 32 .. 63, but warp 4 reaches only lanes 0 .. 31: the first lane must be 32 * (warp % 4)
// CHECK-NEXT: {{^}}            var r: f32[4] = tmem_load(acc, 32 * (warp / 4 - 1) + 32, 8);
// CHECK-NEXT: {{^}}                            ^
// CHECK: err-tcgen05-lanes.cake:26:13: error: tcgen05.st in warp 5 (thread 160) accesses TMEM lanes 0 .. 31, but warp 5 reaches only lanes 32 .. 63: the first lane must be 32 * (warp % 4)
// CHECK-NEXT: {{^}}            tmem_store(acc, 0, 4, r);
// CHECK-NEXT: {{^}}            ^
