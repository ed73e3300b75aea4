// tc_ta_h: C[M, N] = A[M, K] . B[N, K]^T with A in tensor memory (a packed f16 tmem, two
// elements per column) and an f16 accumulator (an unpacked f16 tmem, one element per
// column) in one kernel: the two readings of an f16 tmem that `packed` tells apart
// (tests/interp/tmem-a-f16.test). tc_ta.cake's kernel otherwise; K <= 64.

const BM: i32 = 128;
const BN: i32 = 64;
const BK: i32 = 64;

kernel tc_ta_h(a: in f16[M, K], b: in f16[N, K], c: out f16[M, N])
    targets(sm_100a, sm_103a)
    threads(256)
    grid(min(num_sms, cdiv(M, BM) * cdiv(N, BN)))
{
    tensormap tb = tma(b, box[BN, BK], swizzle(128));
    pipeline ld(stages: 2, full: tma, empty: mma);
    pipeline accp(stages: 2, full: mma, empty: warpgroup);
    shared sb: f16[BN, BK] in ld swizzle(128);
    tmem acc: f16[128, BN] in accp;         // an f16 accumulator: one f16 per cell
    tmem pa: f16[128, BK / 2] packed in accp;   // K = 64: two elements per column

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
                    var v: f16[BK] = 0.0;
                    for (j in 0 .. BK) unroll {
                        if (nrow < M && j < K) { v[j] = a[nrow, j]; }
                    }
                    tmem_store(pa, 32 * q, 0, v);
                }
                if (t >= 0) {
                    for (c0 in 0 .. BN step 32) {
                        var r: f16[32] = tmem_load(acc, 32 * q, c0);
                        store(c, r, [row, t % tiles_n * BN + c0]);
                    }
                }
            }
        }
    }
}

