// all_gather_matmul: C = all_gather(A) . B^T over W GPUs (tensor parallelism: each rank
// holds M rows of the activations A and the whole weight B), bf16 in, f32 accumulation,
// bf16 out. Rank r computes all of C[W M, N] (rank q's rows at c[q]) from its own rows and
// its peers', read in place from their symmetric buffers (docs/all_gather_matmul.md).
//
// - The launcher takes, per call, the rank, and for every rank its buffer of A rows (a,
//   a per_rank table: PyTorch symmetric memory, nvshmem_ptr or NCCL windows map them into
//   this GPU's address space) and its pad of W flags (flags[p, q]: rank p's flag for rank
//   q). Nothing here sets up communication.
// - Flags are epoch counters: epoch[0] is this rank's count of calls so far, read by every
//   CTA at its start; the call's epoch is one more. CTA 0 publishes it into every rank's
//   pad (store_release at system scope: A was written before the call, in stream order);
//   the last CTA to finish its loads moves epoch[0] on, and epoch[1] counts them. So calls
//   follow each other with no reset.
// - A Hopper warp-specialized persistent GEMM (gemm.cake's, 128 x 256 tiles, 4 stages):
//   tiles go local rows first, then the next ranks in turn (rank + 1, rank + 2, ...), so
//   the first tiles need no peer and the ranks do not all read one peer at once. Before
//   its first tile of peer q the producer waits for q's flag in its own pad (wait_ge, at
//   most timeout_ns; a late peer sets status[0] to 1 and the kernel still finishes, with
//   those rows of C undefined, the CTA waiting for no other peer after the first that
//   failed), then orders the flag before its TMA loads of q's rows
//   (fence_proxy_async(global)).
// - max_ctas caps the grid (num_sms normally); W ranks simulated on one GPU run one
//   launch each on its own stream with num_sms / W, so that all are resident together.

const BM: i32 = 128;
const BN: i32 = 256;
const BK: i32 = 64;
const STAGES: i32 = 4;

kernel all_gather_matmul<W: i32>(
    a: in bf16[W, M, K] per_rank, b: in bf16[N, K], c: out bf16[W, M, N],
    flags: inout u32[W, W] per_rank, epoch: inout u32[2], status: inout i32[1],
    rank: i32, timeout_ns: i64, max_ctas: i32)
    targets(sm_90a)
    threads(384)
    min_blocks(1)
    grid(min(min(num_sms, max_ctas), W * cdiv(M, BM) * cdiv(N, BN)))
    requires(rank >= 0 && rank < W && max_ctas >= 1)
{
    tensormap ta = tma(a, box[1, BM, BK], swizzle(128));
    tensormap tb = tma(b, box[BN, BK], swizzle(128));
    pipeline ld(stages: STAGES, full: tma, empty: warpgroup * 2);
    shared sa: bf16[BM, BK] in ld swizzle(128);
    shared sb: bf16[BN, BK] in ld swizzle(128);

    let tiles_m = cdiv(M, BM);
    let rank_tiles = tiles_m * cdiv(N, BN);
    let tiles = W * rank_tiles;
    let kblocks = cdiv(K, BK);

    role producer(warpgroup 0) regs(40) {
        if (warp == 0) {
            elect {
                // an atomic read: the last CTA's store may come while another CTA starts
                let e = load_acquire(epoch[0]) + u32(1);
                if (block.x == 0) {
                    for (p in 0 .. W) {
                        store_release(flags[p, rank], e, scope: system);
                    }
                }
                var seen = 1 << rank;       // the ranks whose rows may be read: own ones
                for (tile in block.x .. tiles step grid_dim.x) {
                    let src = (rank + tile / rank_tiles) % W;
                    let m0 = tile % rank_tiles % tiles_m * BM;
                    let n0 = tile % rank_tiles / tiles_m * BN;
                    if (((seen >> src) & 1) == 0) {
                        if (!wait_ge(flags[rank, src], e, timeout_ns, scope: system)) {
                            atomic_or(status[0], 1);
                            // the call has failed: it waits for no other peer, so that it
                            // ends within timeout_ns of the last peer that came
                            seen = -1;
                        }
                        fence_proxy_async(global);
                        seen = seen | (1 << src);
                    }
                    for (kb in 0 .. kblocks) {
                        produce ld {
                            tma_load(sa, ta, [src, m0, kb * BK]);
                            tma_load(sb, tb, [n0, kb * BK]);
                        }
                    }
                }
                // every CTA read epoch[0] before it counts itself here (the fences make
                // the count carry that order): the last one moves the epoch on
                fence_acq_rel();
                if (atomic_add(epoch[1], u32(1)) == u32(grid_dim.x - 1)) {
                    fence_acq_rel();
                    atomic_xchg(epoch[1], u32(0));
                    store_release(epoch[0], e);
                }
            }
        }
    }

    role consumer(warpgroups 1 .. 2) regs(232) {
        let wg = warpgroup - 1;     // which 64 rows of the tile
        for (tile in block.x .. tiles step grid_dim.x) {
            let src = (rank + tile / rank_tiles) % W;
            let m0 = tile % rank_tiles % tiles_m * BM;
            let n0 = tile % rank_tiles / tiles_m * BN;
            var acc: f32acc[64, BN] = 0.0;
            for (kb in 0 .. kblocks) {
                consume ld {
                    acc = wgmma(acc, sa.rows(wg * 64, 64), sb);
                }
            }
            store(c[src], acc, [m0 + wg * 64, n0]);
        }
    }
}

instance all_gather_matmul<2> as all_gather_matmul_w2;
instance all_gather_matmul<4> as all_gather_matmul_w4;
instance all_gather_matmul<8> as all_gather_matmul_w8;
