// tc_ta: C[M, N] = A[M, K] . B[N, K]^T on Blackwell with A in tensor memory
// (tests/interp/tmem-a.test): bf16 (tc_ta) or f16 (tc_ta_f16) A and B, f32 C, K <= 64;
// tiles of 128 x 64 in a persistent loop, as tc_init.cake.
//
// The epilogue warpgroup loads each tile's 128 rows of A from global memory into
// registers (thread 32q + lane: row 32q + lane of the tile, zero past M and K) and
// tmem_stores them into pa, two bf16 per column, in the consume block that owns the
// stage: its release orders the stores before the MMAs of the next tile that uses the
// stage, whose commit tells the epilogue both that the accumulator is ready and that the
// MMAs have read A. B comes by TMA into shared memory as usual. The first round of each
// of the two stages has no tile to read: the MMA warp hands both stages over with empty
// produce blocks, and the epilogue stores the first two tiles' A.

const BM: i32 = 128;
const BN: i32 = 64;
const BK: i32 = 64;

kernel tc_ta_t<T: bf16 | f16>(a: in T[M, K], b: in T[N, K], c: out f32[M, N])
    targets(sm_100a, sm_103a)
    threads(256)
    grid(min(num_sms, cdiv(M, BM) * cdiv(N, BN)))
{
    tensormap tb = tma(b, box[BN, BK], swizzle(128));
    pipeline ld(stages: 2, full: tma, empty: mma);
    pipeline accp(stages: 2, full: mma, empty: warpgroup);
    shared sb: T[BN, BK] in ld swizzle(128);
    tmem acc: f32[128, BN] in accp;
    tmem pa: T[128, BK / 2] packed in accp;   // K = 64: two elements per column

    let tiles_n = cdiv(N, BN);
    let tiles = cdiv(M, BM) * tiles_n;

    role producer(warp 0) {
        elect {
            for (tile in block.x .. tiles step grid_dim.x) {
                produce ld {
                    tma_load(sb, tb, [tile % tiles_n * BN, 0]);
                }
            }
        }
    }

    role mma(warp 1) {
        elect {
            for (s in 0 .. 2) {
                produce accp {}     // hands the stage to the epilogue to store A
            }
            for (tile in block.x .. tiles step grid_dim.x) {
                produce accp {
                    consume ld {
                        tcgen05_mma(acc, pa, sb, accumulate: false);
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
            consume accp {      // A first: the commit the consume waited for says the MMAs read it
                if (next < tiles) {
                    var v: T[BK] = 0.0;
                    for (j in 0 .. BK) unroll {
                        if (nrow < M && j < K) { v[j] = a[nrow, j]; }
                    }
                    tmem_store(pa, 32 * q, 0, v);
                }
                if (t >= 0) {
                    for (c0 in 0 .. BN step 32) {
                        var r: f32[32] = tmem_load(acc, 32 * q, c0);
                        store(c, r, [row, t % tiles_n * BN + c0]);
                    }
                }
            }
        }
    }
}

instance tc_ta_t<bf16> as tc_ta;
instance tc_ta_t<f16> as tc_ta_f16;
