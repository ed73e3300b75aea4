// gemm: C[M, N] = A[M, K] . B[N, K]^T, bf16 or f16 inputs (T), f32 accumulation, output
// in the input's type or f32 (O). One generic kernel and its four instances (gemm_bf16,
// gemm_f16, gemm_bf16_f32, gemm_f16_f32, each with its own launcher) and one entry point,
// gemm, which launches the instance the tensors' element types select.
//
// A Hopper (sm_90a) warp-specialized, persistent GEMM. A and B are K-major (row-major
// with K innermost), as a Linear layer's activations and weights are. The CTA computes a
// BM x BN = 128 x 256 tile of C at a time in a persistent loop (tile = block.x,
// block.x + grid_dim.x, ...; the grid is min(num_sms, tiles)). Tiles are numbered in
// groups of GROUP_M tile-rows, m fastest within a group, so the CTAs running at the same
// time share both A and B tiles in L2 instead of streaming all of B once per tile-row.
//
// - warpgroup 0 is the producer (its register budget lowered to 40 by setmaxnreg): one
//   elected thread of warp 0 issues, for every K block of BK = 64, one TMA load of the
//   128 x 64 slice of A and one of the 256 x 64 slice of B into the next stage of the
//   STAGES-deep pipeline `ld`, whose full barrier the loads complete (expect-tx);
// - warpgroups 1 and 2 are the consumers (budget raised to 232): each owns 64 rows of the
//   tile in a 64 x 256 f32 accumulator fragment (128 registers per thread), waits for a
//   stage, issues 4 wgmma m64n256k16 from the swizzled shared tiles and releases the
//   stage once those wgmmas retired (the pipeline keeps one wgmma group in flight), then
//   converts the fragment to O and stores it straight from registers.
//
// The 128-byte swizzle of the tiles is what wgmma's K-major descriptors read (one 64-wide
// bf16/f16 row is one 128-byte swizzle span). Ragged M, N and K need no special code: TMA
// fills the parts of a box outside A or B with zeros (which add nothing to the sums) and
// store() skips the rows and columns outside C. TMA needs the rows of A and B to be a
// multiple of 16 bytes (K a multiple of 8); the launcher checks it.

import "gemm_tiles.cake";       // the tile order the persistent GEMMs share (GROUP_M)

const BM: i32 = 128;
const BN: i32 = 256;
const BK: i32 = 64;
const STAGES: i32 = 4;

kernel gemm<T: bf16 | f16, O: bf16 | f16 | f32>(a: in T[M, K], b: in T[N, K], c: out O[M, N])
    targets(sm_90a)
    threads(384)
    min_blocks(1)
    grid(min(num_sms, cdiv(M, BM) * cdiv(N, BN)))
{
    tensormap ta = tma(a, box[BM, BK], swizzle(128));
    tensormap tb = tma(b, box[BN, BK], swizzle(128));
    // full: the producer's expect-tx plus the TMA bytes; empty: all 256 consumer threads
    pipeline ld(stages: STAGES, full: tma, empty: warpgroup * 2);
    shared sa: T[BM, BK] in ld swizzle(128);
    shared sb: T[BN, BK] in ld swizzle(128);

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
        }
    }

    role consumer(warpgroups 1 .. 2) regs(232) {
        let wg = warpgroup - 1;     // which 64 rows of the tile
        for (tile in block.x .. tiles step grid_dim.x) {
            let m0 = tile_row(tile, tiles_m, tiles_n) * BM;
            let n0 = tile_col(tile, tiles_m, tiles_n) * BN;
            var acc: f32acc[64, BN] = 0.0;
            for (kb in 0 .. kblocks) {
                consume ld {
                    acc = wgmma(acc, sa.rows(wg * 64, 64), sb);
                }
            }
            store(c, acc, [m0 + wg * 64, n0]);
        }
    }
}


// gemm_mc: the same with clusters of 2 CTAs on tiles one above the other (rows m0 .. m0 +
// 255 of C, the same 256 columns), which read the same B: CTA r loads its own 128 rows of
// A and part r of B's 256 rows (128 of them), which it multicasts to both CTAs, so the
// cluster reads each byte of B once (3/4 of gemm's bytes per tile). Another CTA's loads
// fill this CTA's stages, so the compiler makes `ld` a cluster release: each consumer
// warp arrives on the stage's empty barrier in both CTAs, which counts 16.
kernel gemm_mc<T: bf16 | f16, O: bf16 | f16 | f32>(a: in T[M, K], b: in T[N, K], c: out O[M, N])
    targets(sm_90a)
    threads(384)
    min_blocks(1)
    cluster(2)
    grid(2 * min(num_sms / 2, cdiv(M, 2 * BM) * cdiv(N, BN)))
{
    tensormap ta = tma(a, box[BM, BK], swizzle(128));
    tensormap tb = tma(b, box[BN / 2, BK], swizzle(128));
    pipeline ld(stages: STAGES, full: tma, empty: warpgroup * 2);
    shared sa: T[BM, BK] in ld swizzle(128);
    shared sb: T[BN, BK] in ld swizzle(128);

    let tiles_m = cdiv(M, 2 * BM);
    let tiles_n = cdiv(N, BN);
    let tiles = tiles_m * tiles_n;
    let kblocks = cdiv(K, BK);
    let r = cluster_rank;
    let cl = block.x / 2;
    let clusters = grid_dim.x / 2;

    role producer(warpgroup 0) regs(40) {
        if (warp == 0) {
            elect {
                for (tile in cl .. tiles step clusters) {
                    let m0 = tile_row(tile, tiles_m, tiles_n) * 2 * BM;
                    let n0 = tile_col(tile, tiles_m, tiles_n) * BN;
                    for (kb in 0 .. kblocks) {
                        produce ld {
                            tma_load(sa, ta, [m0 + r * BM, kb * BK]);
                            tma_load(sb, tb, [n0 + r * (BN / 2), kb * BK], multicast: 3, part: r);
                        }
                    }
                }
            }
        }
    }

    role consumer(warpgroups 1 .. 2) regs(232) {
        let wg = warpgroup - 1;
        for (tile in cl .. tiles step clusters) {
            let m0 = tile_row(tile, tiles_m, tiles_n) * 2 * BM;
            let n0 = tile_col(tile, tiles_m, tiles_n) * BN;
            var acc: f32acc[64, BN] = 0.0;
            for (kb in 0 .. kblocks) {
                consume ld {
                    acc = wgmma(acc, sa.rows(wg * 64, 64), sb);
                }
            }
            store(c, acc, [m0 + r * BM + wg * 64, n0]);
        }
    }
}

// In the entry point where C's rows are not a multiple of 16 bytes (gemm_ts cannot store
// them), M is large and the tiles take more than a wave: 1.22x and 1.20x gemm at 3001 x
// 4095 x 4104 and 5119 x 7167 x 2120 (bench/RESULTS.md, section 57).
instance gemm_mc<bf16, bf16> as gemm_mc_bf16 entry gemm
    when (M >= 1024 && N % 8 != 0 && cdiv(M, BM) * cdiv(N, BN) > num_sms);
instance gemm_mc<f16, f16> as gemm_mc_f16 entry gemm
    when (M >= 1024 && N % 8 != 0 && cdiv(M, BM) * cdiv(N, BN) > num_sms);
instance gemm_mc<f16, f32> as gemm_mc_f16_f32;

// gemm_ts: gemm with the epilogue through shared memory and TMA stores (issue 13's
// epilogue): each consumer warpgroup writes its 64 x 256 fragment, rounded to O, into its
// rows of `so` (four 128-row panels of 64 columns, each a 128-byte swizzle span, the
// layout of four TMA boxes) and goes on with its next tile's K loop; warp 1 of the
// producer warpgroup stores the four boxes (TMA clips them at C's edges) and waits only
// until TMA has read `so` before handing it back, so the tile's writes to C overlap the
// next tile's loads and wgmmas instead of holding the consumers. `so` takes 64 KiB, so
// `ld` has three stages where gemm has four. TMA needs C's rows a multiple of 16 bytes
// (N a multiple of 8); the launcher checks it. W is the tile's width (256, BN, by default; 128
// and 192 leave fewer SMs idle in the last wave where N / 256 tiles fit the GPU badly,
// and leave room for more stages).
kernel gemm_ts<T: bf16 | f16, O: bf16 | f16, ST: i32 = 3, W: i32 = 256>(a: in T[M, K], b: in T[N, K], c: out O[M, N])
    targets(sm_90a)
    threads(384)
    min_blocks(1)
    grid(min(num_sms, cdiv(M, BM) * cdiv(N, W)))
{
    tensormap ta = tma(a, box[BM, BK], swizzle(128));
    tensormap tb = tma(b, box[W, BK], swizzle(128));
    tensormap tc = tma(c, box[BM, 64], swizzle(128));
    pipeline ld(stages: ST, full: tma, empty: warpgroup * 2);
    shared sa: T[BM, BK] in ld swizzle(128);
    shared sb: T[W, BK] in ld swizzle(128);
    // full: both consumer warpgroups wrote their rows; empty: the storing thread
    pipeline op(stages: 1, full: warpgroup * 2, empty: thread);
    shared so: O[W / 64 * BM, 64] in op swizzle(128);

    let tiles_m = cdiv(M, BM);
    let tiles_n = cdiv(N, W);
    let tiles = tiles_m * tiles_n;
    let kblocks = cdiv(K, BK);

    role producer(warpgroup 0) regs(40) {
        if (warp == 0) {
            elect {
                for (tile in block.x .. tiles step grid_dim.x) {
                    let m0 = tile_row(tile, tiles_m, tiles_n) * BM;
                    let n0 = tile_col(tile, tiles_m, tiles_n) * W;
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
                    let n0 = tile_col(tile, tiles_m, tiles_n) * W;
                    consume op {
                        for (p in 0 .. W / 64) unroll {
                            tma_store(tc, [m0, n0 + 64 * p], so, part: p);
                        }
                        tma_store_wait();
                    }
                }
            }
        }
    }

    role consumer(warpgroups 1 .. 2) regs(232) {
        let wg = warpgroup - 1;     // which 64 rows of the tile
        for (tile in block.x .. tiles step grid_dim.x) {
            var acc: f32acc[64, W] = 0.0;
            for (kb in 0 .. kblocks) {
                consume ld {
                    acc = wgmma(acc, sa.rows(wg * 64, 64), sb);
                }
            }
            produce op {
                store(so.rows(0, BM), acc, [wg * 64, 0]);
                fence_proxy_async();
            }
        }
    }
}

// The wave rule of the TMA-stored GEMMs (gemm_ts, gemm_bias_ts), as functions the `when`
// conditions below call: whether 128 x 128 tiles fill at least 55% of the SMs once, and
// whether 128 x w tiles, of weight wt, beat 128 x v ones, of weight vt, by tiles / waves x
// weight (cross-multiplied: integers throughout).
fn ts_fills(m: i32, n: i32, sms: i32) -> i1 {
    return cdiv(m, BM) * cdiv(n, 128) * 20 >= 11 * sms;
}

fn ts_beats(m: i32, n: i32, w: i32, wt: i32, v: i32, vt: i32, sms: i32) -> i1 {
    return cdiv(m, BM) * cdiv(n, w) * wt * cdiv(cdiv(m, BM) * cdiv(n, v), sms)
           > cdiv(m, BM) * cdiv(n, v) * vt * cdiv(cdiv(m, BM) * cdiv(n, w), sms);
}

// The entry point's rule for M > 64 with C's rows a multiple of 16 bytes, from bench/gemm.py
// on an H100 (bench/RESULTS.md, section 57): gemm_ts, at the tile width whose last wave
// leaves the fewest SMs idle, each width weighted by what its tiles ran at when the waves
// were full (256: 100, 192: 95, 128: 88): score(W) = 128 x W tiles / waves x weight. The
// family runs as long as 128 x 128 tiles fill at least 55% of the SMs once (else split-K,
// gemm_sk below, gives the SMs work): at 256 x 11008 x 4096 the 192-wide tiles ran at 1.25x
// what the previous rule chose, at 512 x 4096 x 4096 the 128-wide ones at 1.21x, and at
// M >= 1024 gemm_ts at 1.02-1.14x gemm. Where 256-wide tiles take one wave, there is no
// next tile for the stores to overlap, and gemm's fourth stage ran faster (512 x 8192 x
// 28672: 1.05x): gemm_ts only where they take more.
instance gemm_ts<bf16, bf16, 5, 128> as gemm_ts128_bf16 entry gemm
    when (M > 64 && N % 8 == 0 && ts_fills(M, N, num_sms)
        && ts_beats(M, N, 128, 88, 256, 100, num_sms)
        && ts_beats(M, N, 128, 88, 192, 95, num_sms));
instance gemm_ts<f16, f16, 5, 128> as gemm_ts128_f16 entry gemm
    when (M > 64 && N % 8 == 0 && ts_fills(M, N, num_sms)
        && ts_beats(M, N, 128, 88, 256, 100, num_sms)
        && ts_beats(M, N, 128, 88, 192, 95, num_sms));
instance gemm_ts<bf16, bf16, 4, 192> as gemm_ts192_bf16 entry gemm
    when (M > 64 && N % 8 == 0 && ts_fills(M, N, num_sms)
        && ts_beats(M, N, 192, 95, 256, 100, num_sms));
instance gemm_ts<f16, f16, 4, 192> as gemm_ts192_f16 entry gemm
    when (M > 64 && N % 8 == 0 && ts_fills(M, N, num_sms)
        && ts_beats(M, N, 192, 95, 256, 100, num_sms));
instance gemm_ts<bf16, bf16> as gemm_ts_bf16 entry gemm
    when (M > 64 && N % 8 == 0 && cdiv(M, BM) * cdiv(N, BN) > num_sms);
instance gemm_ts<f16, f16> as gemm_ts_f16 entry gemm
    when (M > 64 && N % 8 == 0 && cdiv(M, BM) * cdiv(N, BN) > num_sms);

// gemm_mts: gemm_ts's epilogue on gemm_mc's clusters: two CTAs on tiles one above the
// other multicast the halves of their shared B tile to each other (3/4 of the bytes per
// tile), and each stores its fragments through `so` by TMA while its next tile's K loop
// runs. For the largest products, where L2 traffic and the stores both show.
kernel gemm_mts<T: bf16 | f16, O: bf16 | f16, ST: i32 = 3>(a: in T[M, K], b: in T[N, K], c: out O[M, N])
    targets(sm_90a)
    threads(384)
    min_blocks(1)
    cluster(2)
    grid(2 * min(num_sms / 2, cdiv(M, 2 * BM) * cdiv(N, BN)))
{
    tensormap ta = tma(a, box[BM, BK], swizzle(128));
    tensormap tb = tma(b, box[BN / 2, BK], swizzle(128));
    tensormap tc = tma(c, box[BM, 64], swizzle(128));
    pipeline ld(stages: ST, full: tma, empty: warpgroup * 2);
    shared sa: T[BM, BK] in ld swizzle(128);
    shared sb: T[BN, BK] in ld swizzle(128);
    pipeline op(stages: 1, full: warpgroup * 2, empty: thread);
    shared so: O[BN / 64 * BM, 64] in op swizzle(128);

    let tiles_m = cdiv(M, 2 * BM);
    let tiles_n = cdiv(N, BN);
    let tiles = tiles_m * tiles_n;
    let kblocks = cdiv(K, BK);
    let r = cluster_rank;
    let cl = block.x / 2;
    let clusters = grid_dim.x / 2;

    role producer(warpgroup 0) regs(40) {
        if (warp == 0) {
            elect {
                for (tile in cl .. tiles step clusters) {
                    let m0 = tile_row(tile, tiles_m, tiles_n) * 2 * BM;
                    let n0 = tile_col(tile, tiles_m, tiles_n) * BN;
                    for (kb in 0 .. kblocks) {
                        produce ld {
                            tma_load(sa, ta, [m0 + r * BM, kb * BK]);
                            tma_load(sb, tb, [n0 + r * (BN / 2), kb * BK], multicast: 3, part: r);
                        }
                    }
                }
            }
        } else if (warp == 1) {
            elect {
                for (tile in cl .. tiles step clusters) {
                    let m0 = tile_row(tile, tiles_m, tiles_n) * 2 * BM + r * BM;
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
        for (tile in cl .. tiles step clusters) {
            var acc: f32acc[64, BN] = 0.0;
            for (kb in 0 .. kblocks) {
                consume ld {
                    acc = wgmma(acc, sa.rows(wg * 64, 64), sb);
                }
            }
            produce op {
                store(so.rows(0, BM), acc, [wg * 64, 0]);
                fence_proxy_async();
            }
        }
    }
}

instance gemm_mts<bf16, bf16> as gemm_mts_bf16;
instance gemm_mts<f16, f16> as gemm_mts_f16;

// gemm_stk: stream-K, for products whose 128 x 256 tiles fill the last wave badly (M =
// 128 .. 2048 with N of a few thousand). All but the last one or two waves of tiles run
// whole, tile g, g + G, ... on CTA g of G (in the grouped order, so the CTAs running at
// once share their A and B in L2). The K blocks of the remaining tiles, tile by tile, are
// one run of units that the CTAs share evenly (CTA g takes units u0 .. u1, at most one
// more than any other), so a CTA may hold the end of one tile, whole tiles, and the start
// of another; the grid is at most four CTAs a tile, so that no tile is split more than
// about four ways. A CTA walks those tiles from its last to its first; a tile that several
// CTAs share is finished by the one holding its last K block (the highest-numbered),
// which reaches it last: the others, which reach it first, write their partial sums to
// their slot ws[h] and set their flags (thread t its own part, sync[2 + 256 h + t]); the
// finisher adds the slots of CTAs owner(tile's first unit) .. g - 1 in that order, each
// thread its own part once its flag is up, clears the flag and stores. The order of the
// sums is fixed, so every run gives the same bits. A CTA's number g is taken from a
// counter (sync[0]) when it starts, not from block.x: a finisher then waits only for CTAs
// that started before it, which hold an SM until they are done, whatever the GPU runs
// beside (a contributor that never came would leave the wait after 4 s with a wrong tile,
// never a hang). The last CTA to start resets the counters (sync[0], sync[1]), so sync is
// zero after the call. ws: f32[P, 128, 256] and sync: i32[2 + 256 P], P the slots (the
// grid is at most P and the SMs); zero sync once before the first call.
fn stk_owner(u: i32, q: i32, rem: i32) -> i32 {
    let big = (q + 1) * rem;
    return u < big ? u / (q + 1) : rem + (u - big) / q;
}

kernel gemm_stk<T: bf16 | f16, O: bf16 | f16>(a: in T[M, K], b: in T[N, K], c: out O[M, N],
        ws: inout f32[P, BM, BN], sync: inout i32[SY])
    targets(sm_90a)
    threads(384)
    min_blocks(1)
    grid(min(min(num_sms, P), min(4 * cdiv(M, BM) * cdiv(N, BN), cdiv(M, BM) * cdiv(N, BN) * cdiv(K, BK))))
    requires(P > 0 && SY >= 2 + 256 * P)
{
    tensormap ta = tma(a, box[BM, BK], swizzle(128));
    tensormap tb = tma(b, box[BN, BK], swizzle(128));
    pipeline ld(stages: STAGES, full: tma, empty: warpgroup * 2);
    shared sa: T[BM, BK] in ld swizzle(128);
    shared sb: T[BN, BK] in ld swizzle(128);

    let tiles_m = cdiv(M, BM);
    let tiles_n = cdiv(N, BN);
    let kblocks = cdiv(K, BK);
    let tiles = tiles_m * tiles_n;
    let G = grid_dim.x;
    let dp = tiles >= 2 * G ? (tiles / G - 1) * G : 0;     // the tiles that run whole
    let units = (tiles - dp) * kblocks;
    shared sg: i32[1];
    if (thread.x == 0) {
        sg[0] = atomic_add(sync[0], 1);
        fence_acq_rel(scope: gpu);
        if (atomic_add(sync[1], 1) == grid_dim.x - 1) {
            atomic_xchg(sync[0], 0);
            atomic_xchg(sync[1], 0);
        }
    }
    barrier();
    let g = sg[0];
    let q = units / G;
    let rem = units % G;
    let u0 = g * q + min(g, rem);           // units of the tiles dp .. tiles - 1
    let u1 = u0 + q + (g < rem ? 1 : 0);
    let hi = (u1 - 1) / kblocks;            // the CTA's last of them, walked first
    let span = hi - u0 / kblocks + 1;

    role producer(warpgroup 0) regs(40) {
        if (warp == 0) {
            elect {
                for (tile in g .. dp step G) {
                    let m0 = tile_row(tile, tiles_m, tiles_n) * BM;
                    let n0 = tile_col(tile, tiles_m, tiles_n) * BN;
                    for (kb in 0 .. kblocks) {
                        produce ld {
                            tma_load(sa, ta, [m0, kb * BK]);
                            tma_load(sb, tb, [n0, kb * BK]);
                        }
                    }
                }
                for (i in 0 .. span) {
                    let r = hi - i;                 // the tile dp + r
                    let tile = dp + r;
                    let m0 = tile_row(tile, tiles_m, tiles_n) * BM;
                    let n0 = tile_col(tile, tiles_m, tiles_n) * BN;
                    for (kb in max(u0 - r * kblocks, 0) .. min(u1 - r * kblocks, kblocks)) {
                        produce ld {
                            tma_load(sa, ta, [m0, kb * BK]);
                            tma_load(sb, tb, [n0, kb * BK]);
                        }
                    }
                }
            }
        }
    }

    role consumer(warpgroups 1 .. 2) regs(232) {
        let wg = warpgroup - 1;
        let t = thread.x - 128;
        for (tile in g .. dp step G) {
            let m0 = tile_row(tile, tiles_m, tiles_n) * BM;
            let n0 = tile_col(tile, tiles_m, tiles_n) * BN;
            var acc: f32acc[64, BN] = 0.0;
            for (kb in 0 .. kblocks) {
                consume ld {
                    acc = wgmma(acc, sa.rows(wg * 64, 64), sb);
                }
            }
            store(c, acc, [m0 + wg * 64, n0]);
        }
        for (i in 0 .. span) {
            let r = hi - i;
            let tile = dp + r;
            let kb1 = min(u1 - r * kblocks, kblocks);
            var acc: f32acc[64, BN] = 0.0;
            for (kb in max(u0 - r * kblocks, 0) .. kb1) {
                consume ld {
                    acc = wgmma(acc, sa.rows(wg * 64, 64), sb);
                }
            }
            if (kb1 < kblocks) {
                store(ws[g], acc, [wg * 64, 0]);
                store_release(sync[2 + 256 * g + t], 1);
            } else {
                for (h in stk_owner(r * kblocks, q, rem) .. g) {
                    wait_ge(sync[2 + 256 * h + t], 1, 4000000000);
                    acc = acc + fragment(ws[h], [wg * 64, 0], BN);
                    atomic_xchg(sync[2 + 256 * h + t], 0);
                }
                let m0 = tile_row(tile, tiles_m, tiles_n) * BM;
                let n0 = tile_col(tile, tiles_m, tiles_n) * BN;
                store(c, acc, [m0 + wg * 64, n0]);
            }
        }
    }
}

instance gemm_stk<bf16, bf16> as gemm_stk_bf16;
instance gemm_stk<f16, f16> as gemm_stk_f16;

// gemm_sk: the same product for few tiles (decode-sized M, or M and N that give fewer
// tiles than the GPU has SMs), where one CTA per tile would leave most SMs idle and the
// time is that of streaming B once. A cluster of S CTAs shares one 64 CW x BN tile of C
// and splits its K blocks in S contiguous runs (rank r takes run r); each CTA accumulates
// its run with CW consumer warpgroups of 64 rows each (wgmma m64nBNk16; A's rows past M
// are TMA's zeros) and writes its partial sums into its own shared `part`. After a cluster
// barrier CTA r sums rows r, r + S, ... of the tile (those inside C) over the S partials
// in rank order, reading the others' `part` through distributed shared memory, and stores
// them: the sum is the same on every run (no atomics, no workspace). A second cluster
// barrier keeps every CTA's shared memory alive until the others have read it. With S = 1
// the fragments go straight to C. `part`'s rows are padded by 4 floats so that a warp's
// fragment writes (8 rows x 4 column pairs) fall in different banks.
const SK_STAGES: i32 = 8;          // CW = 1 (4 with two consumer warpgroups)
const SK_PAD: i32 = 4;

kernel gemm_sk<T: bf16 | f16, O: bf16 | f16, BN: i32, S: i32, CW: i32 = 1, ST: i32 = 0>(
        a: in T[M, K], b: in T[N, K], c: out O[M, N])
    targets(sm_90a)
    threads(128 * (CW + 1))
    min_blocks(1)
    cluster(S)
    grid(S * cdiv(M, 64 * CW) * cdiv(N, BN))
{
    tensormap ta = tma(a, box[64 * CW, BK], swizzle(128));
    tensormap tb = tma(b, box[BN, BK], swizzle(128));
    pipeline ld(stages: ST > 0 ? ST : (CW == 1 ? SK_STAGES : 4), full: tma, empty: warpgroup * CW);
    shared sa: T[64 * CW, BK] in ld swizzle(128);
    shared sb: T[BN, BK] in ld swizzle(128);
    shared part: f32[S > 1 ? 64 * CW : 1, BN + SK_PAD];   // one row for S = 1 (unused there)

    let tiles_n = cdiv(N, BN);
    let tile = block.x / S;
    let m0 = tile / tiles_n * (64 * CW);
    let n0 = tile % tiles_n * BN;
    let r = cluster_rank;
    let kblocks = cdiv(K, BK);
    let run = cdiv(kblocks, S);
    let kb0 = min(r * run, kblocks);
    let kb1 = min(kb0 + run, kblocks);

    role producer(warpgroup 0) {
        if (warp == 0) {
            elect {
                for (kb in kb0 .. kb1) {
                    produce ld {
                        tma_load(sa, ta, [m0, kb * BK]);
                        tma_load(sb, tb, [n0, kb * BK]);
                    }
                }
            }
        }
    }

    role consumer(warpgroups 1 .. CW) {
        let wg = warpgroup - 1;         // which 64 rows of the tile
        var acc: f32acc[64, BN] = 0.0;
        for (kb in kb0 .. kb1) {
            consume ld {
                acc = wgmma(acc, sa.rows(wg * 64, 64), sb);
            }
        }
        if (S == 1) {
            store(c, acc, [m0 + wg * 64, n0]);
        } else {
            // thread t holds rows 16 (t / 32) + (t % 32) / 4 + 8 i, columns 8 j + 2 (t % 4) + e
            let t = thread.x % 128;
            let row0 = wg * 64 + 16 * (t / 32) + t % 32 / 4;
            let col0 = 2 * (t % 4);
            for (j in 0 .. BN / 8) unroll {
                for (i in 0 .. 2) unroll {
                    part[row0 + 8 * i, 8 * j + col0 : 2] = f32x2(acc[j * 4 + i * 2], acc[j * 4 + i * 2 + 1]);
                }
            }
        }
    }

    if (S > 1) {
        cluster_sync();
        let chunks = BN / 8;            // 8 columns a thread
        let threads = 128 * (CW + 1);
        let rows = min(64 * CW, M - m0);
        let cc = thread.x % chunks * 8;
        for (row in r + S * (thread.x / chunks) .. rows step S * (threads / chunks)) {
            var v: f32x4[2] = f32x4(0.0);
            for (q in 0 .. S) unroll {
                for (h in 0 .. 2) unroll {
                    v[h] += remote(part, q)[row, cc + 4 * h : 4];
                }
            }
            var w: f32[8] = 0.0;
            for (e in 0 .. 8) unroll {
                w[e] = v[e / 4][e % 4];
            }
            store(c, w, [m0 + row, n0 + cc]);
        }
        cluster_sync();
    }
}

// gemm_sw: decode-sized M (at most MN rows of A per tile, MN = 16, 32 or 64) with the operands'
// roles swapped, as C^T = B . A^T: each consumer warpgroup multiplies 64 rows of B (the
// wgmma's M side, from shared memory) by the tile's MN rows of A (its N side), so no MMA
// work and no shared memory go to rows of A past M (gemm_sk's 64-row A tiles are mostly
// TMA's zeros at M = 1: a third of each stage). A stage holds 64 CW x BK of B and MN x BK
// of A (10 or 18 KiB at MN = 16), so a CTA keeps more of B in flight for the same shared
// memory; that is what a weight-streaming product is bound by. A cluster of S CTAs splits
// the K blocks as gemm_sk does. The accumulator is C^T's: thread t holds B rows 16 (t / 32)
// + (t % 32) / 4 + 8 i and A rows 8 j + 2 (t % 4) + e; every CTA writes it transposed into
// its `part` (A's rows as rows; padded by 4 floats, so that a warp's writes, 8 B rows x 4
// A-row pairs, fall in different banks), and CTA r sums rows r, r + S, ... over the S
// partials in rank order and stores them: the same bits on every run.
kernel gemm_sw<T: bf16 | f16, O: bf16 | f16, MN: i32, S: i32, CW: i32 = 1, ST: i32 = 10>(
        a: in T[M, K], b: in T[N, K], c: out O[M, N])
    targets(sm_90a)
    threads(128 * (CW + 1))
    min_blocks(1)
    cluster(S)
    grid(S * cdiv(M, MN) * cdiv(N, 64 * CW))
{
    tensormap ta = tma(a, box[MN, BK], swizzle(128));
    tensormap tb = tma(b, box[64 * CW, BK], swizzle(128));
    pipeline ld(stages: ST, full: tma, empty: warpgroup * CW);
    shared sa: T[MN, BK] in ld swizzle(128);
    shared sb: T[64 * CW, BK] in ld swizzle(128);
    shared part: f32[MN, 64 * CW + SK_PAD];

    // A's tile-rows fastest: the CTAs that read the same rows of B run side by side, so the
    // second reads them from L2 (at M = 64 in tiles of 32 rows, B's tile-rows far apart
    // read B twice from memory once K is long: 64 x 8192 x 28672 at 0.88 of cuBLAS)
    let tiles_m = cdiv(M, MN);
    let tile = block.x / S;
    let m0 = tile % tiles_m * MN;
    let n0 = tile / tiles_m * (64 * CW);
    let r = cluster_rank;
    let kblocks = cdiv(K, BK);
    let run = cdiv(kblocks, S);
    let kb0 = min(r * run, kblocks);
    let kb1 = min(kb0 + run, kblocks);

    role producer(warpgroup 0) {
        if (warp == 0) {
            elect {
                for (kb in kb0 .. kb1) {
                    produce ld {
                        tma_load(sa, ta, [m0, kb * BK]);
                        tma_load(sb, tb, [n0, kb * BK]);
                    }
                }
            }
        }
    }

    role consumer(warpgroups 1 .. CW) {
        let wg = warpgroup - 1;         // which 64 rows of B
        var acc: f32acc[64, MN] = 0.0;
        for (kb in kb0 .. kb1) {
            consume ld {
                acc = wgmma(acc, sb.rows(wg * 64, 64), sa);
            }
        }
        let t = thread.x % 128;
        let brow = wg * 64 + 16 * (t / 32) + t % 32 / 4;
        let arow = 2 * (t % 4);
        for (j in 0 .. MN / 8) unroll {
            for (i in 0 .. 2) unroll {
                for (e in 0 .. 2) unroll {
                    part[8 * j + arow + e, brow + 8 * i] = acc[j * 4 + i * 2 + e];
                }
            }
        }
    }

    if (S > 1) {
        cluster_sync();
    } else {
        barrier();
    }
    let chunks = 8 * CW;                // 8 columns a thread
    let threads = 128 * (CW + 1);
    let rows = min(MN, M - m0);
    let cc = thread.x % chunks * 8;
    for (row in r + S * (thread.x / chunks) .. rows step S * (threads / chunks)) {
        var v: f32x4[2] = f32x4(0.0);
        for (h in 0 .. 2) unroll {
            if (S > 1) {
                for (q in 0 .. S) unroll {
                    v[h] += remote(part, q)[row, cc + 4 * h : 4];
                }
            } else {
                v[h] = part[row, cc + 4 * h : 4];
            }
        }
        var w: f32[8] = 0.0;
        for (e in 0 .. 8) unroll {
            w[e] = v[e / 4][e % 4];
        }
        store(c, w, [m0 + row, n0 + cc]);
    }
    if (S > 1) {
        cluster_sync();
    }
}

// The entry point's rule for gemm_sw, from bench/gemm.py on an H100 (bench/RESULTS.md,
// section 56), ahead of gemm_sk's: M <= 16 in tiles of 16 rows of A, M <= 32 in tiles of 32
// (wider tiles of A cost a CTA its stages: 10 at 16 rows, 8 at 32); one CTA per 64 rows of
// B, two CTAs an SM (about 105 KiB of shared memory each), so the grid streams B with no
// cluster to wait for; split in two only where the tiles would fill at most a third of
// the SMs (N = 2560: 40 tiles), since at N = 4096 (64 tiles) two-way splits ran 5-8%
// slower than whole tiles. M <= 64 takes tiles of 32 while both tile-rows still run at
// once (N = 4096, 8192: 129 against gemm_sk's 124 TFLOP/s at 64 x 4096 x 4096), and
// 64 x 128 tiles (two consumer warpgroups, one CTA an SM) where N gives more than
// two tiles of 128 rows per two SMs (N = 11008, 28672: 3-5% ahead of gemm_sk1).
instance gemm_sw<bf16, bf16, 16, 2> as gemm_sw16s2_bf16 entry gemm
    when (M <= 16 && cdiv(N, 64) * 3 <= num_sms && cdiv(K, BK) >= 4);
instance gemm_sw<f16, f16, 16, 2> as gemm_sw16s2_f16 entry gemm
    when (M <= 16 && cdiv(N, 64) * 3 <= num_sms && cdiv(K, BK) >= 4);
instance gemm_sw<bf16, bf16, 16, 1> as gemm_sw16_bf16 entry gemm when (M <= 16);
instance gemm_sw<f16, f16, 16, 1> as gemm_sw16_f16 entry gemm when (M <= 16);
instance gemm_sw<bf16, bf16, 32, 2, 1, 8> as gemm_sw32s2_bf16 entry gemm
    when (M <= 32 && cdiv(N, 64) * 3 <= num_sms && cdiv(K, BK) >= 4);
instance gemm_sw<f16, f16, 32, 2, 1, 8> as gemm_sw32s2_f16 entry gemm
    when (M <= 32 && cdiv(N, 64) * 3 <= num_sms && cdiv(K, BK) >= 4);
instance gemm_sw<bf16, bf16, 32, 1, 1, 8> as gemm_sw32_bf16 entry gemm
    when (M <= 32 || (M <= 64 && cdiv(M, 32) * cdiv(N, 64) <= 2 * num_sms && cdiv(N, 64) * 3 > num_sms));
instance gemm_sw<f16, f16, 32, 1, 1, 8> as gemm_sw32_f16 entry gemm
    when (M <= 32 || (M <= 64 && cdiv(M, 32) * cdiv(N, 64) <= 2 * num_sms && cdiv(N, 64) * 3 > num_sms));
instance gemm_sw<bf16, bf16, 64, 1, 2, 5> as gemm_sw64_bf16 entry gemm
    when (M <= 64 && cdiv(N, 128) * 2 > num_sms);
instance gemm_sw<f16, f16, 64, 1, 2, 5> as gemm_sw64_f16 entry gemm
    when (M <= 64 && cdiv(N, 128) * 2 > num_sms);

// The entry point's rule for gemm_sk, from bench/gemm.py on the H200 (bench/RESULTS.md,
// section 24), in order: tiles of 64 rows (tiles = cdiv(M, 64) * cdiv(N, 128)) split
// by the most CTAs that still run in one wave, where clusters of 3 and 4 filled only about
// three quarters of the 132 SMs at once (32 tiles in clusters of 4, 128 CTAs, ran 30%
// slower than in clusters of 3); then, for M > 64, tiles of 128 rows (two consumer
// warpgroups, CW = 2) split in two or whole; and one CTA per 64-row tile while M <= 64
// and the tiles fill the SMs at most twice, where gemm's 128-row tiles would be half
// zeros. Each CTA gets at least two K blocks. Anything larger goes to gemm.
instance gemm_sk<bf16, bf16, 128, 4> as gemm_sk4_bf16 entry gemm
    when (cdiv(M, 64) * cdiv(N, 128) * 16 <= 3 * num_sms && cdiv(K, BK) >= 8);
instance gemm_sk<f16, f16, 128, 4> as gemm_sk4_f16 entry gemm
    when (cdiv(M, 64) * cdiv(N, 128) * 16 <= 3 * num_sms && cdiv(K, BK) >= 8);
instance gemm_sk<bf16, bf16, 128, 3> as gemm_sk3_bf16 entry gemm
    when (cdiv(M, 64) * cdiv(N, 128) * 4 <= num_sms && cdiv(K, BK) >= 6);
instance gemm_sk<f16, f16, 128, 3> as gemm_sk3_f16 entry gemm
    when (cdiv(M, 64) * cdiv(N, 128) * 4 <= num_sms && cdiv(K, BK) >= 6);
instance gemm_sk<bf16, bf16, 128, 2> as gemm_sk2_bf16 entry gemm
    when (cdiv(M, 64) * cdiv(N, 128) * 2 <= num_sms && cdiv(K, BK) >= 4);
instance gemm_sk<f16, f16, 128, 2> as gemm_sk2_f16 entry gemm
    when (cdiv(M, 64) * cdiv(N, 128) * 2 <= num_sms && cdiv(K, BK) >= 4);
instance gemm_sk<bf16, bf16, 128, 2, 2> as gemm_sk2_m128_bf16 entry gemm
    when (M > 64 && cdiv(M, 128) * cdiv(N, 128) * 2 <= num_sms && cdiv(K, BK) >= 4);
instance gemm_sk<f16, f16, 128, 2, 2> as gemm_sk2_m128_f16 entry gemm
    when (M > 64 && cdiv(M, 128) * cdiv(N, 128) * 2 <= num_sms && cdiv(K, BK) >= 4);
instance gemm_sk<bf16, bf16, 128, 1> as gemm_sk1_bf16 entry gemm
    when (cdiv(M, 64) * cdiv(N, 128) <= num_sms || (M <= 64 && cdiv(N, 128) <= 2 * num_sms));
instance gemm_sk<f16, f16, 128, 1> as gemm_sk1_f16 entry gemm
    when (cdiv(M, 64) * cdiv(N, 128) <= num_sms || (M <= 64 && cdiv(N, 128) <= 2 * num_sms));
instance gemm_sk<bf16, bf16, 128, 1, 2> as gemm_sk1_m128_bf16 entry gemm
    when (M > 64 && cdiv(M, 128) * cdiv(N, 128) <= num_sms);
instance gemm_sk<f16, f16, 128, 1, 2> as gemm_sk1_m128_f16 entry gemm
    when (M > 64 && cdiv(M, 128) * cdiv(N, 128) <= num_sms);

// Candidates for M = 128 .. 512 with few tiles (bench/RESULTS.md, section 56: 0.67-0.83 of
// cuBLAS there on an H100), not in the entry point until bench/gemm.py has timed them:
// 128 x 128 tiles in six stages (gemm_sk1_m128 has four), 64 x 256 tiles with one
// consumer warpgroup, and 128 x 256 tiles split in two over a cluster (two stages: `part`
// takes 130 KiB).
instance gemm_sk<bf16, bf16, 128, 1, 2, 6> as gemm_sk1_m128s6_bf16;
instance gemm_sk<bf16, bf16, 256, 1, 1, 5> as gemm_sk1_n256_bf16;
instance gemm_sk<bf16, bf16, 256, 2, 2, 2> as gemm_sk2_m128n256_bf16;
instance gemm_sk<bf16, bf16, 128, 3, 2> as gemm_sk3_m128_bf16;
instance gemm_sk<bf16, bf16, 128, 4, 2> as gemm_sk4_m128_bf16;

// gemm_bias_ts: gemm_ts (C through shared memory and TMA stores that overlap the next
// tile) with gemm_bias's epilogue, C = A . B^T + bias + res: each consumer warpgroup adds
// the bias row and its 64 rows of the residual to the accumulator in f32, on the way into
// `so`, so C is rounded once and written once, by TMA. Both addends are optional: a bias
// of N elements or none (NB = 0), a residual of M x N or none (0 x 0); what is absent is
// not read. W as gemm_ts's; at 256 each consumer keeps two 128-column accumulators
// (two wgmmas a K block) so that its epilogue adds the addends to one half at a time.
kernel gemm_bias_ts<T: bf16 | f16, ST: i32 = 3, W: i32 = 256>(a: in T[M, K], b: in T[N, K], c: out T[M, N],
                                                             bias: in T[NB], res: in T[MR, NR])
    targets(sm_90a)
    threads(384)
    min_blocks(1)
    grid(min(num_sms, cdiv(M, BM) * cdiv(N, W)))
    requires((NB == N || NB == 0) && ((MR == M && NR == N) || (MR == 0 && NR == 0)))
{
    tensormap ta = tma(a, box[BM, BK], swizzle(128));
    tensormap tb = tma(b, box[W, BK], swizzle(128));
    tensormap tc = tma(c, box[BM, 64], swizzle(128));
    pipeline ld(stages: ST, full: tma, empty: warpgroup * 2);
    shared sa: T[BM, BK] in ld swizzle(128);
    shared sb: T[W, BK] in ld swizzle(128);
    pipeline op(stages: 1, full: warpgroup * 2, empty: thread);
    shared so: T[W / 64 * BM, 64] in op swizzle(128);

    let tiles_m = cdiv(M, BM);
    let tiles_n = cdiv(N, W);
    let tiles = tiles_m * tiles_n;
    let kblocks = cdiv(K, BK);

    role producer(warpgroup 0) regs(40) {
        if (warp == 0) {
            elect {
                for (tile in block.x .. tiles step grid_dim.x) {
                    let m0 = tile_row(tile, tiles_m, tiles_n) * BM;
                    let n0 = tile_col(tile, tiles_m, tiles_n) * W;
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
                    let n0 = tile_col(tile, tiles_m, tiles_n) * W;
                    consume op {
                        for (p in 0 .. W / 64) unroll {
                            tma_store(tc, [m0, n0 + 64 * p], so, part: p);
                        }
                        tma_store_wait();
                    }
                }
            }
        }
    }

    role consumer(warpgroups 1 .. 2) regs(232) {
        let wg = warpgroup - 1;     // which 64 rows of the tile
        for (tile in block.x .. tiles step grid_dim.x) {
            let m0 = tile_row(tile, tiles_m, tiles_n) * BM + wg * 64;
            let n0 = tile_col(tile, tiles_m, tiles_n) * W;
            if (W == 256) {
                // two 128-column accumulators: the epilogue adds the addends to one half
                // at a time, which fits a thread's 168 registers (a whole 256-wide
                // accumulator beside a 256-wide residual fragment spilled 480 bytes)
                var acc0: f32acc[64, W / 2] = 0.0;
                var acc1: f32acc[64, W / 2] = 0.0;
                for (kb in 0 .. kblocks) {
                    consume ld {
                        acc0 = wgmma(acc0, sa.rows(wg * 64, 64), sb.rows(0, W / 2));
                        acc1 = wgmma(acc1, sa.rows(wg * 64, 64), sb.rows(W / 2, W / 2));
                    }
                }
                produce op {
                    if (MR > 0) {
                        acc0 = acc0 + fragment(res, [m0, n0], W / 2);
                    }
                    if (NB > 0) {
                        acc0 = acc0 + fragment(bias, [n0], W / 2);
                    }
                    store(so.rows(0, BM), acc0, [wg * 64, 0]);
                    if (MR > 0) {
                        acc1 = acc1 + fragment(res, [m0, n0 + W / 2], W / 2);
                    }
                    if (NB > 0) {
                        acc1 = acc1 + fragment(bias, [n0 + W / 2], W / 2);
                    }
                    store(so.rows(0, BM), acc1, [wg * 64, W / 2]);
                    fence_proxy_async();
                }
            } else {
                var acc: f32acc[64, W] = 0.0;
                for (kb in 0 .. kblocks) {
                    consume ld {
                        acc = wgmma(acc, sa.rows(wg * 64, 64), sb);
                    }
                }
                if (MR > 0) {
                    acc = acc + fragment(res, [m0, n0], W);
                }
                if (NB > 0) {
                    acc = acc + fragment(bias, [n0], W);
                }
                produce op {
                    store(so.rows(0, BM), acc, [wg * 64, 0]);
                    fence_proxy_async();
                }
            }
        }
    }
}

// gemm_bias_tr: gemm_bias_ts with the residual's tile loaded by TMA ahead (a candidate,
// bf16 only). On an H100 (bench/RESULTS.md section 58) it was up to 10% faster than
// gemm_bias_ts with a residual at some shapes and 3% slower at others (192-wide tiles
// keep three stages here, where `sr` takes the fourth's room): not in the entry point.
kernel gemm_bias_tr<T: bf16, ST: i32 = 3, W: i32 = 256>(a: in T[M, K], b: in T[N, K], c: out T[M, N],
                                                             bias: in T[NB], res: in T[MR, NR])
    targets(sm_90a)
    threads(384)
    min_blocks(1)
    grid(min(num_sms, cdiv(M, BM) * cdiv(N, W)))
    requires((NB == N || NB == 0) && ((MR == M && NR == N) || (MR == 0 && NR == 0)))
{
    tensormap ta = tma(a, box[BM, BK], swizzle(128));
    tensormap tb = tma(b, box[W, BK], swizzle(128));
    tensormap tc = tma(c, box[BM, 64], swizzle(128));
    pipeline ld(stages: ST, full: tma, empty: warpgroup * 2);
    shared sa: T[BM, BK] in ld swizzle(128);
    shared sb: T[W, BK] in ld swizzle(128);
    pipeline op(stages: 1, full: warpgroup * 2, empty: thread);
    shared so: T[W / 64 * BM, 64] in op swizzle(128);
    // the residual's tile by TMA into `sr` (laid out as `so`), loaded by the storing warp
    // once the consumers have read the previous one, so that it lands under the K loop
    tensormap tr = tma(res, box[BM, 64], swizzle(128));
    pipeline rp(stages: 1, full: tma, empty: warpgroup * 2);
    shared sr: T[W / 64 * BM, 64] in rp swizzle(128);

    let tiles_m = cdiv(M, BM);
    let tiles_n = cdiv(N, W);
    let tiles = tiles_m * tiles_n;
    let kblocks = cdiv(K, BK);

    role producer(warpgroup 0) regs(40) {
        if (warp == 0) {
            elect {
                for (tile in block.x .. tiles step grid_dim.x) {
                    let m0 = tile_row(tile, tiles_m, tiles_n) * BM;
                    let n0 = tile_col(tile, tiles_m, tiles_n) * W;
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
                    let n0 = tile_col(tile, tiles_m, tiles_n) * W;
                    if (MR > 0) {
                        produce rp {
                            tma_load(sr, tr, [m0, n0], part: 0);
                            tma_load(sr, tr, [m0, n0 + 64], part: 1);
                            if (W > 128) {
                                tma_load(sr, tr, [m0, n0 + 128], part: 2);
                            }
                        }
                    }
                    consume op {
                        for (p in 0 .. W / 64) unroll {
                            tma_store(tc, [m0, n0 + 64 * p], so, part: p);
                        }
                        tma_store_wait();
                    }
                }
            }
        }
    }

    role consumer(warpgroups 1 .. 2) regs(232) {
        let wg = warpgroup - 1;     // which 64 rows of the tile
        for (tile in block.x .. tiles step grid_dim.x) {
            let m0 = tile_row(tile, tiles_m, tiles_n) * BM + wg * 64;
            let n0 = tile_col(tile, tiles_m, tiles_n) * W;
            var acc: f32acc[64, W] = 0.0;
            for (kb in 0 .. kblocks) {
                consume ld {
                    acc = wgmma(acc, sa.rows(wg * 64, 64), sb);
                }
            }
            if (MR > 0) {
                consume rp {
                    acc = acc + fragment(sr.rows(0, BM), [wg * 64, 0], W);
                }
            }
            if (NB > 0) {
                acc = acc + fragment(bias, [n0], W);
            }
            produce op {
                store(so.rows(0, BM), acc, [wg * 64, 0]);
                fence_proxy_async();
            }
        }
    }
}


// gemm_bias: gemm's kernel with a Linear layer's epilogue fused: C = A . B^T + bias + res,
// the bias (N) added to every row and the residual res (M x N, e.g. the residual stream)
// element by element, in f32 before C's one rounding. The epilogue reads both with
// fragment(...) in the accumulator's layout (each thread the elements it stores), so it
// costs a read of res and of the bias per tile and no extra pass over C. Its tiles are
// 128 x 128 (BN = 128): the epilogue holds the accumulator and the fragments it adds at
// once, which in 64 x 256 would not fit the 168 registers ptxas gives a thread of 384.
kernel gemm_bias<T: bf16 | f16, BN: i32 = 128>(a: in T[M, K], b: in T[N, K], c: out T[M, N],
                                               bias: in T[NB], res: in T[MR, NR])
    targets(sm_90a)
    threads(384)
    min_blocks(1)
    grid(min(num_sms, cdiv(M, BM) * cdiv(N, BN)))
    requires((NB == N || NB == 0) && ((MR == M && NR == N) || (MR == 0 && NR == 0)))
{
    tensormap ta = tma(a, box[BM, BK], swizzle(128));
    tensormap tb = tma(b, box[BN, BK], swizzle(128));
    pipeline ld(stages: STAGES, full: tma, empty: warpgroup * 2);
    shared sa: T[BM, BK] in ld swizzle(128);
    shared sb: T[BN, BK] in ld swizzle(128);

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
        }
    }

    role consumer(warpgroups 1 .. 2) regs(232) {
        let wg = warpgroup - 1;
        for (tile in block.x .. tiles step grid_dim.x) {
            let m0 = tile_row(tile, tiles_m, tiles_n) * BM + wg * 64;
            let n0 = tile_col(tile, tiles_m, tiles_n) * BN;
            var acc: f32acc[64, BN] = 0.0;
            for (kb in 0 .. kblocks) {
                consume ld {
                    acc = wgmma(acc, sa.rows(wg * 64, 64), sb);
                }
            }
            store(c, acc + fragment(bias, [n0], BN) + fragment(res, [m0, n0], BN), [m0, n0]);
        }
    }
}

// The entry point gemm_bias: gemm_ts's rule above (the widths 256, 192 and 128 by the
// last wave), wherever 128 x 128 tiles fill at least 55% of the SMs and C's rows are a
// multiple of 16 bytes, 256 also where its tiles take one wave (1024 x 4096 x 11008 on an
// H100: 142 us against 178 at 192; bench/RESULTS.md section 58); gemm_bias below (128 x
// 128, C from registers) for the rest: any N, few tiles.
instance gemm_bias_ts<bf16, 5, 128> as gemm_bias_ts128_bf16 entry gemm_bias
    when (M > 64 && N % 8 == 0 && ts_fills(M, N, num_sms)
        && ts_beats(M, N, 128, 88, 256, 100, num_sms)
        && ts_beats(M, N, 128, 88, 192, 95, num_sms));
instance gemm_bias_ts<bf16, 4, 192> as gemm_bias_ts192_bf16 entry gemm_bias
    when (M > 64 && N % 8 == 0 && ts_fills(M, N, num_sms)
        && ts_beats(M, N, 192, 95, 256, 100, num_sms));
instance gemm_bias_ts<bf16> as gemm_bias_ts_bf16 entry gemm_bias
    when (M > 64 && N % 8 == 0 && ts_fills(M, N, num_sms));
instance gemm_bias_ts<f16, 5, 128> as gemm_bias_ts128_f16 entry gemm_bias
    when (M > 64 && N % 8 == 0 && ts_fills(M, N, num_sms)
        && ts_beats(M, N, 128, 88, 256, 100, num_sms)
        && ts_beats(M, N, 128, 88, 192, 95, num_sms));
instance gemm_bias_ts<f16, 4, 192> as gemm_bias_ts192_f16 entry gemm_bias
    when (M > 64 && N % 8 == 0 && ts_fills(M, N, num_sms)
        && ts_beats(M, N, 192, 95, 256, 100, num_sms));
instance gemm_bias_ts<f16> as gemm_bias_ts_f16 entry gemm_bias
    when (M > 64 && N % 8 == 0 && ts_fills(M, N, num_sms));
// candidates, not in the entry point until measured
instance gemm_bias_tr<bf16, 5, 128> as gemm_bias_tr128_bf16;
instance gemm_bias_tr<bf16, 3, 192> as gemm_bias_tr192_bf16;
instance gemm_bias<bf16> as gemm_bias_bf16;
instance gemm_bias<f16> as gemm_bias_f16;

// The entry point gemm: the instances above that join it, then one per type pair.
instance gemm<bf16, bf16> as gemm_bf16;
instance gemm<f16, f16> as gemm_f16;
instance gemm<bf16, f32> as gemm_bf16_f32;
instance gemm<f16, f32> as gemm_f16_f32;
