// gemm_sm100_2cta: C[M, N] = A[M, K] . B[N, K]^T on Blackwell (sm_100a, sm_103a) with CTA
// pairs (cta_group::2): the sibling of gemm_sm100.cake whose MMAs span two CTAs. bf16, f16
// or e4m3 inputs (T), f32 accumulation in tensor memory, output O; BK is one 128-byte
// swizzle span of a row (64 for 16-bit inputs, 128 for e4m3).
//
// The two CTAs of a cluster (ranks 0 and 1, `cluster_rank`) compute one 256 x 256 tile of C
// together, in a persistent loop over tiles (pair p = block.x / 2 takes tiles p, p + the
// number of pairs, ...; GROUP_M tile-rows at a time for L2 reuse, as in gemm.cake). CTA r
// holds rows m0 + 128 r .. + 127 of the tile: its 128 x BK slice of A and the 128 x BK
// slice of B for columns n0 + 128 r .. + 127, so each CTA loads half of B and the pair
// reads every operand byte once (a 1-CTA 128 x 256 tile loads all of B's 256 rows):
//
// - warp 0 of each CTA (producer): one elected thread issues the TMA loads of its halves
//   into the next stage of `ld`; their bytes complete on the leader's (rank 0) full
//   barrier, which the leader arms for both CTAs;
// - warp 1 of the leader (mma, a `leader` role): one elected thread waits for each stage
//   and issues 4 tcgen05.mma m256n256k16 (k32 for e4m3) for the pair, which read A and B
//   from both CTAs' shared memory and write each CTA's 128 rows of the accumulator into
//   its own tensor memory; tcgen05.commit frees the stage in both CTAs, and publishes the
//   accumulator to both epilogues at the end of `produce accp`;
// - warpgroup 1 of each CTA (epilogue): waits for an accumulator, each warp reads its 32
//   lanes (rows) 32 columns at a time and stores them as rows of C (store: 16-byte stores
//   inside C, predicated ones at its edges), then frees the stage on the leader's empty
//   barrier, which counts the 256 threads of both epilogues. Two accumulator stages (2 x
//   256 = all 512 columns) overlap a tile's epilogue with the next tile's MMAs.
//
// Ragged M, N and K need no special code: TMA fills the parts of a box outside A or B with
// zeros (a CTA whose rows lie past M still loads, and counts, its zero box) and the
// epilogue skips rows and columns outside C. The grid is an even number of CTAs (whole
// clusters); K = 0 is not supported.

import "gemm_tiles.cake";       // the tile order the persistent GEMMs share (GROUP_M)

const BM: i32 = 128;        // rows of A per CTA; the pair's tile is 2 * BM
const BN: i32 = 256;        // the pair's N; each CTA loads BN / 2 rows of B
const STAGES: i32 = 6;

kernel gemm_sm100_2cta<T: bf16 | f16 | e4m3, O: bf16 | f16 | f32, BK: i32 = 64>(a: in T[M, K], b: in T[N, K], c: out O[M, N])
    targets(sm_100a, sm_103a)
    threads(256)
    min_blocks(1)
    cluster(2)
    cta_group(2)
    grid(2 * min(num_sms / 2, cdiv(M, 2 * BM) * cdiv(N, BN)))
{
    tensormap ta = tma(a, box[BM, BK], swizzle(128));
    tensormap tb = tma(b, box[BN / 2, BK], swizzle(128));
    // ld: filled by both CTAs' TMA loads (on the leader's barrier), freed in both CTAs by
    // the commit of the MMAs that read it
    pipeline ld(stages: STAGES, full: tma, empty: mma);
    // accp: filled by the commit of a tile's MMAs (in both CTAs), freed by the 128 epilogue
    // threads of each CTA (256 arrivals on the leader's barrier)
    pipeline accp(stages: 2, full: mma, empty: warpgroup);
    shared sa: T[BM, BK] in ld swizzle(128);
    shared sb: T[BN / 2, BK] in ld swizzle(128);
    tmem acc: f32[128, BN] in accp;

    let tiles_m = cdiv(M, 2 * BM);
    let tiles_n = cdiv(N, BN);
    let tiles = tiles_m * tiles_n;
    let kblocks = cdiv(K, BK);
    let half = cluster_rank % 2;     // this CTA's half of the pair's tile
    let pair = block.x / 2;
    let pairs = grid_dim.x / 2;

    role producer(warp 0) {
        elect {
            for (tile in pair .. tiles step pairs) {
                let m0 = tile_row(tile, tiles_m, tiles_n) * 2 * BM;
                let n0 = tile_col(tile, tiles_m, tiles_n) * BN;
                for (kb in 0 .. kblocks) {
                    produce ld {
                        tma_load(sa, ta, [m0 + half * BM, kb * BK]);
                        tma_load(sb, tb, [n0 + half * (BN / 2), kb * BK]);
                    }
                }
            }
        }
    }

    role mma(warp 1, leader) {
        elect {
            for (tile in pair .. tiles step pairs) {
                produce accp {
                    for (kb in 0 .. kblocks) {
                        consume ld {
                            tcgen05_mma(acc, sa, sb, accumulate: kb > 0);
                        }
                    }
                }
            }
        }
    }

    role epilogue(warpgroup 1) {
        let q = warp % 4;           // the lane quarter this warp may read: rows 32q .. 32q + 31
        for (tile in pair .. tiles step pairs) {
            let m0 = tile_row(tile, tiles_m, tiles_n) * 2 * BM;
            let n0 = tile_col(tile, tiles_m, tiles_n) * BN;
            let row = m0 + half * BM + 32 * q + lane;
            consume accp {
                for (c0 in 0 .. BN step 32) {
                    var r: f32[32] = tmem_load(acc, 32 * q, c0);
                    store(c, r, [row, n0 + c0]);
                }
            }
        }
    }
}

instance gemm_sm100_2cta<bf16, bf16> as gemm_sm100_2cta_bf16;
instance gemm_sm100_2cta<f16, f16> as gemm_sm100_2cta_f16;
instance gemm_sm100_2cta<bf16, f32> as gemm_sm100_2cta_bf16_f32;
instance gemm_sm100_2cta<f16, f32> as gemm_sm100_2cta_f16_f32;
instance gemm_sm100_2cta<e4m3, bf16, 128> as gemm_sm100_2cta_e4m3;

// gemm_sm100_2cta_mc: the same with clusters of 4 CTAs, two pairs on tiles one above the
// other (rows m0 .. m0 + 511 of C, the same 256 columns), which read the same B. Each CTA
// loads one part of its half of B (64 of the 128 rows: part p = cluster_rank / 2) and
// multicasts it to the CTA of the other pair that holds the same half (ranks h and h + 2,
// mask 0b0101 << h), so the cluster reads each byte of B once: half of B's traffic of
// gemm_sm100_2cta. Because another pair's loads fill this pair's stages, a stage is
// released in every CTA of the cluster: each leader's commit reaches the 4 CTAs and each
// ld.empty counts both leaders' commits (the compiler derives this from the multicast).
kernel gemm_sm100_2cta_mc<T: bf16 | f16 | e4m3, O: bf16 | f32, BK: i32 = 64>(a: in T[M, K], b: in T[N, K], c: out O[M, N])
    targets(sm_100a, sm_103a)
    threads(256)
    min_blocks(1)
    cluster(4)
    cta_group(2)
    grid(4 * min(num_sms / 4, cdiv(M, 4 * BM) * cdiv(N, BN)))
{
    tensormap ta = tma(a, box[BM, BK], swizzle(128));
    tensormap tb = tma(b, box[BN / 4, BK], swizzle(128));
    pipeline ld(stages: STAGES, full: tma, empty: mma);
    pipeline accp(stages: 2, full: mma, empty: warpgroup);
    shared sa: T[BM, BK] in ld swizzle(128);
    shared sb: T[BN / 2, BK] in ld swizzle(128);
    tmem acc: f32[128, BN] in accp;

    let tiles_m = cdiv(M, 4 * BM);
    let tiles_n = cdiv(N, BN);
    let tiles = tiles_m * tiles_n;
    let kblocks = cdiv(K, BK);
    let half = cluster_rank % 2;     // this CTA's half of its pair's tile
    let part = cluster_rank / 2;     // its pair in the cluster: the part of B it loads
    let cl = block.x / 4;
    let clusters = grid_dim.x / 4;

    role producer(warp 0) {
        elect {
            for (tile in cl .. tiles step clusters) {
                let m0 = tile_row(tile, tiles_m, tiles_n) * 4 * BM;
                let n0 = tile_col(tile, tiles_m, tiles_n) * BN;
                for (kb in 0 .. kblocks) {
                    produce ld {
                        tma_load(sa, ta, [m0 + cluster_rank * BM, kb * BK]);
                        tma_load(sb, tb, [n0 + half * (BN / 2) + part * (BN / 4), kb * BK],
                                 multicast: 5 << half, part: part);
                    }
                }
            }
        }
    }

    role mma(warp 1, leader) {
        elect {
            for (tile in cl .. tiles step clusters) {
                produce accp {
                    for (kb in 0 .. kblocks) {
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
        for (tile in cl .. tiles step clusters) {
            let m0 = tile_row(tile, tiles_m, tiles_n) * 4 * BM;
            let n0 = tile_col(tile, tiles_m, tiles_n) * BN;
            let row = m0 + cluster_rank * BM + 32 * q + lane;
            consume accp {
                for (c0 in 0 .. BN step 32) {
                    var r: f32[32] = tmem_load(acc, 32 * q, c0);
                    store(c, r, [row, n0 + c0]);
                }
            }
        }
    }
}

instance gemm_sm100_2cta_mc<bf16, bf16> as gemm_sm100_2cta_mc_bf16;
instance gemm_sm100_2cta_mc<f16, f32> as gemm_sm100_2cta_mc_f16_f32;
instance gemm_sm100_2cta_mc<e4m3, bf16, 128> as gemm_sm100_2cta_mc_e4m3;
