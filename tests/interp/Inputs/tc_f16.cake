// tc_f16: C[M, N] = A[M, K] . B[N, K]^T on Blackwell with an f16 accumulator in tensor
// memory (tests/interp/tmem-f16.test): f16 (or e4m3) A and B, f16 C, tcgen05.mma with an
// f16 D. Tiles of 128 x 64 in a persistent loop, as gemm_sm100.cake; the epilogue reads 32
// columns at a time as f16[32] (tcgen05.ld.32x32b.x16.pack::16b: two cells' low halves a
// register). BK is one 128-byte swizzle span: 64 f16, 128 e4m3.

const BM: i32 = 128;
const BN: i32 = 64;

kernel tc16<T: f16 | e4m3, BK: i32 = 64>(a: in T[M, K], b: in T[N, K], c: out f16[M, N])
    targets(sm_100a, sm_103a)
    threads(256)
    grid(min(num_sms, cdiv(M, BM) * cdiv(N, BN)))
{
    tensormap ta = tma(a, box[BM, BK], swizzle(128));
    tensormap tb = tma(b, box[BN, BK], swizzle(128));
    pipeline ld(stages: 2, full: tma, empty: mma);
    pipeline accp(stages: 2, full: mma, empty: warpgroup);
    shared sa: T[BM, BK] in ld swizzle(128);
    shared sb: T[BN, BK] in ld swizzle(128);
    tmem acc: f16[128, BN] in accp;     // one f16 per 32-bit cell: BN columns a stage

    let tiles_n = cdiv(N, BN);
    let tiles = cdiv(M, BM) * tiles_n;

    role producer(warp 0) {
        elect {
            for (tile in block.x .. tiles step grid_dim.x) {
                for (kb in 0 .. cdiv(K, BK)) {
                    produce ld {
                        tma_load(sa, ta, [tile / tiles_n * BM, kb * BK]);
                        tma_load(sb, tb, [tile % tiles_n * BN, kb * BK]);
                    }
                }
            }
        }
    }

    role mma(warp 1) {
        elect {
            for (tile in block.x .. tiles step grid_dim.x) {
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
        let q = warp % 4;           // this warp's lanes (rows of the tile): 32q .. 32q + 31
        for (tile in block.x .. tiles step grid_dim.x) {
            let row = tile / tiles_n * BM + 32 * q + lane;
            consume accp {
                for (c0 in 0 .. BN step 32) {
                    var r: f16[32] = tmem_load(acc, 32 * q, c0);
                    store(c, r, [row, tile % tiles_n * BN + c0]);
                }
            }
        }
    }
}

instance tc16<f16> as tc_f16;
instance tc16<e4m3, 128> as tc_f16_e4m3;
