// gemm_scaled: C[M, N] = scale_a * scale_b * (A[M, K] . B[N, K]^T), e4m3 inputs (T; the
// wgmma also takes e5m2), f32 accumulation, output O (bf16 or f32): torch._scaled_mm's per-tensor
// form, with the scales as one-element f32 tensors on the device (so a CUDA graph can
// replay the call with new scales). One generic kernel, its instances, and the entry point
// gemm_scaled, which launches the instance the tensors' element types and the shape
// select (the rule is at the instances, below).
//
// gemm.cake's Hopper design with fp8 operands: a persistent, warp-specialized CTA computes
// 128 x BN tiles of C (GROUP_M tile-rows at a time for L2 reuse); a producer warp issues
// the TMA loads of BK = 128 columns of A and B (one 128-byte swizzle span of fp8) into a
// STAGES-deep pipeline; two consumer warpgroups each issue 4 wgmma m64nBNk32 per stage
// into a 64 x BN f32 accumulator, then store acc * scale_a * scale_b converted to O.
// CL = 2 runs clusters of two CTAs on tiles one above the other, as gemm.cake's gemm_mc:
// CTA r loads its own rows of A and half r of B's rows, which it multicasts to both, so
// the cluster reads each byte of B once (the compiler makes `ld` a cluster release).
// With BN = 256 a stage is 48 KB, as gemm's is (its rows hold twice the K in the same
// bytes), and the tensor cores do twice the work per byte; BN = 128 and 160 (for shapes
// of few tiles) take 6 stages of 32 and 36 KB.
//
// Accuracy: the products of fp8 values are exact, but Hopper's fp8 wgmma adds them with
// fewer bits than f32 (torch calls this "fast accumulation", use_fast_accum=True, which
// showed the same largest error as gemm_scaled on every shape of bench/gemm_fp8.py;
// cuBLAS without it adds the partial sums into f32 on the CUDA cores every few K blocks). The bound the tests
// hold an element to (case_gemm_bf16.c, GEMM_SCALED) is |c - ref| <= (u + 2^-12 sqrt(K))
// max(|ref|, s), with u the output's rounding (2^-8 bf16, 0 f32) and s = scale_a scale_b
// sqrt(K) / 3 the spread of C for inputs of U(-1, 1); the H200 measured up to 1.45e-4
// sqrt(K). TMA needs the rows of A and B to be a multiple of 16 bytes: K a multiple of
// 16, which the launcher checks.

import "gemm_tiles.cake";       // the tile order the persistent GEMMs share (GROUP_M)

const BM: i32 = 128;
const BK: i32 = 128;

kernel gemm_scaled<T: e4m3, O: bf16 | f32, BN: i32 = 256, STAGES: i32 = 4, CL: i32 = 1>(
        a: in T[M, K], b: in T[N, K], c: out O[M, N], scale_a: in f32[1], scale_b: in f32[1])
    targets(sm_90a)
    threads(384)
    min_blocks(1)
    cluster(CL)
    grid(CL * min(num_sms / CL, cdiv(M, CL * BM) * cdiv(N, BN)))
{
    tensormap ta = tma(a, box[BM, BK], swizzle(128));
    tensormap tb = tma(b, box[BN / CL, BK], swizzle(128));
    pipeline ld(stages: STAGES, full: tma, empty: warpgroup * 2);
    shared sa: T[BM, BK] in ld swizzle(128);
    shared sb: T[BN, BK] in ld swizzle(128);

    let tiles_m = cdiv(M, CL * BM);
    let tiles_n = cdiv(N, BN);
    let tiles = tiles_m * tiles_n;
    let kblocks = cdiv(K, BK);
    let r = cluster_rank;
    let cl = block.x / CL;
    let clusters = grid_dim.x / CL;

    role producer(warpgroup 0) regs(40) {
        if (warp == 0) {
            elect {
                for (tile in cl .. tiles step clusters) {
                    let m0 = tile_row(tile, tiles_m, tiles_n) * CL * BM;
                    let n0 = tile_col(tile, tiles_m, tiles_n) * BN;
                    for (kb in 0 .. kblocks) {
                        produce ld {
                            tma_load(sa, ta, [m0 + r * BM, kb * BK]);
                            if (CL == 1) {
                                tma_load(sb, tb, [n0, kb * BK]);
                            } else {
                                tma_load(sb, tb, [n0 + r * (BN / CL), kb * BK], multicast: 3, part: r);
                            }
                        }
                    }
                }
            }
        }
    }

    role consumer(warpgroups 1 .. 2) regs(232) {
        let wg = warpgroup - 1;
        let scale = scale_a[0] * scale_b[0];
        for (tile in cl .. tiles step clusters) {
            let m0 = tile_row(tile, tiles_m, tiles_n) * CL * BM;
            let n0 = tile_col(tile, tiles_m, tiles_n) * BN;
            var acc: f32acc[64, BN] = 0.0;
            for (kb in 0 .. kblocks) {
                consume ld {
                    acc = wgmma(acc, sa.rows(wg * 64, 64), sb);
                }
            }
            store(c, acc * scale, [m0 + r * BM + wg * 64, n0]);
        }
    }
}

// gemm_scaled_ts: gemm_scaled with gemm_ts's epilogue (kernels_src/gemm/gemm.cake): each
// consumer warpgroup writes its scaled 64 x BN fragment, rounded to bf16, into its rows of
// `so` (BN / 64 panels of 128 x 64, the layout of as many TMA boxes) and goes on with its
// next tile's K loop, while warp 1 of the producer warpgroup stores the boxes (TMA clips
// them at C's edges). An fp8 tile's K loop is half as long as a bf16 one's for the same
// work, so the epilogue is a larger share of it. `so` takes BN / 2 KiB, so there is a stage
// fewer than gemm_scaled's. TMA needs C's rows a multiple of 16 bytes (N a multiple of 8).
kernel gemm_scaled_ts<T: e4m3, BN: i32 = 256, STAGES: i32 = 3>(
        a: in T[M, K], b: in T[N, K], c: out bf16[M, N], scale_a: in f32[1], scale_b: in f32[1])
    targets(sm_90a)
    threads(384)
    min_blocks(1)
    grid(min(num_sms, cdiv(M, BM) * cdiv(N, BN)))
{
    tensormap ta = tma(a, box[BM, BK], swizzle(128));
    tensormap tb = tma(b, box[BN, BK], swizzle(128));
    tensormap tc = tma(c, box[BM, 64], swizzle(128));
    pipeline ld(stages: STAGES, full: tma, empty: warpgroup * 2);
    shared sa: T[BM, BK] in ld swizzle(128);
    shared sb: T[BN, BK] in ld swizzle(128);
    // full: both consumer warpgroups wrote their rows; empty: the storing thread
    pipeline op(stages: 1, full: warpgroup * 2, empty: thread);
    shared so: bf16[BN / 64 * BM, 64] in op swizzle(128);

    let tiles_m = cdiv(M, BM);
    let tiles_n = cdiv(N, BN);
    let tiles = tiles_m * tiles_n;
    let kblocks = cdiv(K, BK);

    role producer(warpgroup 0) regs(40) {
        if (warp == 0) {
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
        } else if (warp == 1) {
            elect {
                for (tile in block.x .. tiles step grid_dim.x) {
                    let m0 = tile_row(tile, tiles_m, tiles_n) * BM;
                    let n0 = tile_col(tile, tiles_m, tiles_n) * BN;
                    consume op {
                        for (p in 0 .. BN / 64) unroll {
                            tma_store(tc, [m0, n0 + 64 * p], so, part: p);
                        }
                        tma_store_wait();
                    }
                }
            }
        }
    }

    role consumer(warpgroups 1 .. 2) regs(232) {
        let wg = warpgroup - 1;
        let scale = scale_a[0] * scale_b[0];
        for (tile in block.x .. tiles step grid_dim.x) {
            var acc: f32acc[64, BN] = 0.0;
            for (kb in 0 .. kblocks) {
                consume ld {
                    acc = wgmma(acc, sa.rows(wg * 64, 64), sb);
                }
            }
            produce op {
                store(so.rows(0, BM), acc * scale, [wg * 64, 0]);
                fence_proxy_async();
            }
        }
    }
}

// The width a tiling's last wave ends at: its waves of 128 x w tiles on the SMs, times w
// (the rule below compares the tile widths by it).
fn wave_width(m: i32, n: i32, w: i32, sms: i32) -> i32 {
    return cdiv(cdiv(m, 128) * cdiv(n, w), sms) * w;
}

// The entry point picks the tile width BN by the waves of tiles it takes on the SMs (the
// rule below for N not a multiple of 8; with N a multiple of 8 the next paragraph's): the
// time of a persistent GEMM is about its number of waves, cdiv(tiles, num_sms), times the
// time of a tile, which grows with BN; the narrower tiles win only where they take fewer
// waves for the work (a tie goes to the wider tile, whose wgmmas and loads are the more
// efficient); at M >= 2048 the 256-wide tiles run in clusters of two, whose multicast of
// B was 1-7% faster there (and up to 5% slower at M = 512). On the H200 the rule picked
// the fastest of seven configurations, or one within 8% (median: the fastest), on each
// M >= 512 shape of bench/gemm_fp8.py (bench/RESULTS.md, section 25); 512 x 2560 x 8192
// ran 485 TFLOP/s with BN = 256 (40 tiles) and 869 with BN = 128 (80 tiles).
// Where C's rows are a multiple of 16 bytes (N a multiple of 8), the 128- and 256-wide
// tiles store C through shared memory by TMA (gemm_scaled_ts): on an H100 it ran at
// 1.00-1.25x gemm_scaled where the rule picks those widths (bench/RESULTS.md, section 57;
// 512 x 11008 x 4096: 1139 against 945 TFLOP/s), and it replaces the clusters of two at M
// >= 2048 too (2048 x 28672 x 8192: 1280 against 1073). The 160-wide tiles have no such
// twin (160 columns are not whole 64-column boxes). With N a multiple of 8 a width is
// chosen over the TMA-stored ones only where it takes 5% less wave-width than each of
// them (at 8192 x 28672 x 8192 the 128-wide tiles took 1% less and ran 12% slower; at
// 1024 x 28672 x 8192 the 160-wide 2% less and 17% slower); the 160-wide tiles still win
// at 1024 and 2048 x 2560 x 8192 (the rule picked the fastest of three or one within 4%
// at each M >= 512 shape of that run).
instance gemm_scaled_ts<e4m3, 128, 5> as gemm_scaled_ts_e4m3_n128 entry gemm_scaled
    when (N % 8 == 0 &&
          wave_width(M, N, 128, num_sms) * 20 < wave_width(M, N, 160, num_sms) * 19 &&
          wave_width(M, N, 128, num_sms) * 20 < wave_width(M, N, 256, num_sms) * 19);
instance gemm_scaled_ts<e4m3> as gemm_scaled_ts_e4m3 entry gemm_scaled
    when (N % 8 == 0 &&
          (wave_width(M, N, 160, num_sms) * 20 >= wave_width(M, N, 256, num_sms) * 19 ||
           wave_width(M, N, 160, num_sms) * 20 >= wave_width(M, N, 128, num_sms) * 19));
instance gemm_scaled<e4m3, bf16, 128, 6> as gemm_scaled_e4m3_n128 entry gemm_scaled
    when (wave_width(M, N, 128, num_sms) < wave_width(M, N, 160, num_sms) &&
          wave_width(M, N, 128, num_sms) < wave_width(M, N, 256, num_sms));
instance gemm_scaled<e4m3, bf16, 160, 6> as gemm_scaled_e4m3_n160 entry gemm_scaled
    when (wave_width(M, N, 160, num_sms) < wave_width(M, N, 256, num_sms));
instance gemm_scaled<e4m3, bf16, 256, 4, 2> as gemm_scaled_e4m3_mc entry gemm_scaled when (M >= 2048);
instance gemm_scaled<e4m3, bf16> as gemm_scaled_e4m3;
instance gemm_scaled<e4m3, f32> as gemm_scaled_e4m3_f32;

