// tc_f16_pair: tc_f16.cake's GEMM on CTA pairs (tests/interp/tmem-f16.test): f16 A, B and C
// into an f16 accumulator with cta_group::2 MMAs, the pair's tile 256 x 128 (each CTA A's
// 128 rows, half of B's 128; each CTA's tensor memory its 128 rows of D, one f16 a cell).

const BM: i32 = 128;
const BN: i32 = 128;
const BK: i32 = 64;

kernel tc_f16_pair(a: in f16[M, K], b: in f16[N, K], c: out f16[M, N])
    targets(sm_100a, sm_103a)
    threads(256)
    cluster(2)
    cta_group(2)
    grid(2 * min(num_sms / 2, cdiv(M, 2 * BM) * cdiv(N, BN)))
{
    tensormap ta = tma(a, box[BM, BK], swizzle(128));
    tensormap tb = tma(b, box[BN / 2, BK], swizzle(128));
    pipeline ld(stages: 2, full: tma, empty: mma);
    pipeline accp(stages: 2, full: mma, empty: warpgroup);
    shared sa: f16[BM, BK] in ld swizzle(128);
    shared sb: f16[BN / 2, BK] in ld swizzle(128);
    tmem acc: f16[128, BN] in accp;

    let tiles_n = cdiv(N, BN);
    let tiles = cdiv(M, 2 * BM) * tiles_n;
    let half = cluster_rank % 2;     // this CTA's half of the pair's tile
    let pair = block.x / 2;
    let pairs = grid_dim.x / 2;

    role producer(warp 0) {
        elect {
            for (tile in pair .. tiles step pairs) {
                for (kb in 0 .. cdiv(K, BK)) {
                    produce ld {
                        tma_load(sa, ta, [tile / tiles_n * 2 * BM + half * BM, kb * BK]);
                        tma_load(sb, tb, [tile % tiles_n * BN + half * (BN / 2), kb * BK]);
                    }
                }
            }
        }
    }

    role mma(warp 1, leader) {
        elect {
            for (tile in pair .. tiles step pairs) {
                produce accp {
                    for (kb in 0 .. cdiv(K, BK)) {
                        consume ld {
                            tcgen05_mma(acc, sa, sb, accumulate: kb > 0);
                        }
                    }
                }
            }
        }
    }

    role epilogue(warpgroup 1) {
        let q = warp % 4;
        for (tile in pair .. tiles step pairs) {
            let row = tile / tiles_n * 2 * BM + half * BM + 32 * q + lane;
            consume accp {
                for (c0 in 0 .. BN step 64) {
                    var r: f16[64] = tmem_load(acc, 32 * q, c0);
                    store(c, r, [row, tile % tiles_n * BN + c0]);
                }
            }
        }
    }
}
