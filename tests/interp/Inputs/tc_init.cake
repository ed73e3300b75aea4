// tc_init: C[M, N] = D[M, N] + A[M, K] . B[N, K]^T on Blackwell, the accumulator started from D
// with tmem_store (tests/interp/tmem-store.test). bf16 A and B, f32 D and C (tc_init_f16: all
// f16, an f16 accumulator); tiles of 128 x 64 in a persistent loop, as gemm_sm100.cake.
//
// The epilogue warpgroup owns an accumulator stage between the commit of its MMAs and its
// release (consume accp), so that is where it stores: each round it reads the tile's
// result and stores D's tile for the next tile that lands in the stage; the MMAs then
// accumulate on top from their first K block (accumulate: true). The first round of each
// of the two stages has no tile to read: the MMA warp hands both stages over with empty
// produce blocks (a commit of no MMAs), and the epilogue stores the first two tiles' D.

const BM: i32 = 128;
const BN: i32 = 64;
const BK: i32 = 64;

kernel tc_init_of<T: bf16 | f16, A: f32 | f16>(a: in T[M, K], b: in T[N, K], d: in A[M, N], c: out A[M, N])
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
    tmem acc: A[128, BN] in accp;

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
            for (s in 0 .. 2) {
                produce accp {}     // hands the stage to the epilogue to store D
            }
            for (tile in block.x .. tiles step grid_dim.x) {
                produce accp {
                    for (kb in 0 .. cdiv(K, BK)) {
                        consume ld {
                            tcgen05_mma(acc, sa, sb, accumulate: true);
                        }
                    }
                }
            }
        }
    }

    role epilogue(warpgroup 1) {
        let q = warp % 4;           // this warp's lanes (rows of the tile): 32q .. 32q + 31
        // two rounds without a tile to read first (t < 0): the first use of each stage
        for (t in block.x - 2 * grid_dim.x .. tiles step grid_dim.x) {
            let next = t + 2 * grid_dim.x;      // the next tile whose MMAs use this stage
            let row = t / tiles_n * BM + 32 * q + lane;
            let nrow = next / tiles_n * BM + 32 * q + lane;
            consume accp {
                for (c0 in 0 .. BN step 32) {
                    if (t >= 0) {
                        var r: A[32] = tmem_load(acc, 32 * q, c0);
                        store(c, r, [row, t % tiles_n * BN + c0]);
                    }
                    if (next < tiles) {
                        let n0 = next % tiles_n * BN + c0;
                        var v: A[32] = 0.0;
                        for (j in 0 .. 32) unroll {
                            if (nrow < M && n0 + j < N) { v[j] = d[nrow, n0 + j]; }
                        }
                        tmem_store(acc, 32 * q, c0, v);
                    }
                }
            }
        }
    }
}

instance tc_init_of<bf16, f32> as tc_init;
instance tc_init_of<f16, f16> as tc_init_f16;
