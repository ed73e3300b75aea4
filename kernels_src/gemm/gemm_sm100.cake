// gemm_sm100: C[M, N] = A[M, K] . B[N, K]^T on Blackwell (sm_100a, sm_103a), bf16, f16 or
// e4m3 inputs (T), f32 accumulation in tensor memory, output in the input's type, bf16 or
// f32 (O). The sibling of gemm.cake (Hopper's wgmma form; a launcher cannot yet choose a
// source by target). BK is one 128-byte swizzle span of a row: 64 for 16-bit inputs, 128
// for e4m3.
//
// A warp-specialized, persistent GEMM. The CTA computes BM x BN = 128 x 256 tiles of C in a
// persistent loop (tile = block.x, block.x + grid_dim.x, ...; tiles walk GROUP_M tile-rows
// at a time for L2 reuse, as in gemm.cake):
//
// - warp 0 (producer): one elected thread issues, per K block of BK, the TMA loads of
//   the 128 x BK slice of A and the 256 x BK slice of B into the next stage of `ld`;
// - warp 1 (mma): one elected thread waits for each stage and issues 4 tcgen05.mma
//   m128n256k16 (k32 for e4m3) into the tile's accumulator, a stage of `accp` in tensor
//   memory; the stage of `ld` is released by tcgen05.commit (when those MMAs have read it),
//   the accumulator published to the epilogue by the commit that ends `produce accp`;
// - warpgroup 1 (epilogue, warps 4..7): waits for an accumulator, each warp reads its 32
//   lanes (rows) with tmem_load, 32 columns at a time, and stores them as one row each
//   (store: 16-byte stores where the row is inside C, predicated ones at its edges), and
//   releases the accumulator stage. With two accumulator stages (2 x 256 = 512 columns,
//   all of tensor memory) the MMAs of the next tile run while the epilogue drains this one.
//
// Ragged M, N and K need no special code: TMA fills the parts of a box outside A or B with
// zeros and the epilogue skips rows and columns outside C. TMA needs rows of a multiple of
// 16 bytes (K a multiple of 8, 16 for e4m3; the launcher checks it); K = 0 is not
// supported (no MMA writes the tile).

import "gemm_tiles.cake";       // the tile order the persistent GEMMs share (GROUP_M)

const BM: i32 = 128;
const BN: i32 = 256;
const STAGES: i32 = 4;

kernel gemm_sm100<T: bf16 | f16 | e4m3, O: bf16 | f16 | f32, BK: i32 = 64>(a: in T[M, K], b: in T[N, K], c: out O[M, N])
    targets(sm_100a, sm_103a)
    threads(256)
    min_blocks(1)
    grid(min(num_sms, cdiv(M, BM) * cdiv(N, BN)))
{
    tensormap ta = tma(a, box[BM, BK], swizzle(128));
    tensormap tb = tma(b, box[BN, BK], swizzle(128));
    // ld: filled by TMA, freed by the commit of the MMAs that read it
    pipeline ld(stages: STAGES, full: tma, empty: mma);
    // accp: filled by the commit of a tile's MMAs, freed by the 128 epilogue threads
    pipeline accp(stages: 2, full: mma, empty: warpgroup);
    shared sa: T[BM, BK] in ld swizzle(128);
    shared sb: T[BN, BK] in ld swizzle(128);
    tmem acc: f32[128, BN] in accp;

    let tiles_m = cdiv(M, BM);
    let tiles_n = cdiv(N, BN);
    let tiles = tiles_m * tiles_n;
    let kblocks = cdiv(K, BK);

    role producer(warp 0) {
        elect {
            for (tile in block.x .. tiles step grid_dim.x) {
                let m0 = tile_row(tile, tiles_m, tiles_n) * BM;
                let n0 = tile_col(tile, tiles_m, tiles_n) * BN;
                for (kb in 0 .. kblocks) {
                    produce ld {
                        tma_load(sa, ta, [m0, kb * BK]);
                        tma_load(sb, tb, [n0, kb * BK]);
                    }
                }
            }
        }
    }

    role mma(warp 1) {
        elect {
            for (tile in block.x .. tiles step grid_dim.x) {
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
        for (tile in block.x .. tiles step grid_dim.x) {
            let m0 = tile_row(tile, tiles_m, tiles_n) * BM;
            let n0 = tile_col(tile, tiles_m, tiles_n) * BN;
            let row = m0 + 32 * q + lane;
            consume accp {
                for (c0 in 0 .. BN step 32) {
                    var r: f32[32] = tmem_load(acc, 32 * q, c0);
                    store(c, r, [row, n0 + c0]);
                }
            }
        }
    }
}

instance gemm_sm100<bf16, bf16> as gemm_sm100_bf16;
instance gemm_sm100<f16, f16> as gemm_sm100_f16;
instance gemm_sm100<bf16, f32> as gemm_sm100_bf16_f32;
instance gemm_sm100<f16, f32> as gemm_sm100_f16_f32;
instance gemm_sm100<e4m3, bf16, 128> as gemm_sm100_e4m3;
