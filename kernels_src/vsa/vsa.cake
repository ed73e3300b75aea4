// vsa.cake: block-sparse attention forward (video sparse attention, FlexAttention's
// BlockMask), Hopper (docs/vsa.md).
//
//   o[b, h, r] = sum_j p_j v[b, h, j],  p = softmax_j(scale q[b, h, r] . k[b, h, j])
//   lse[b, h, r] = log sum_j exp(scale q[b, h, r] . k[b, h, j])
//
// over the keys j of the key blocks listed for r's query block: kv_idx[b, h, qb, i] for
// i < kv_num[b, h, qb] (block c holds keys c * BLK .. c * BLK + BLK - 1 below S; entries
// past kv_num are padding, never read), and with causal != 0 only j <= r. A row with no
// key gets o = 0 and lse = -inf. Queries and keys share the block size BLK (64 or 128).
//
// The design (FlashAttention-3's):
// - persistent CTAs (num_sms, twice that at BLK 64) taking the query blocks, head by head,
//   each head's in reverse order (the long lists of a causal mask first), one at a time
//   from a counter in `work` (two i32, 0 before the first call; the kernel leaves them 0),
//   so that CTAs with long lists take fewer; BLK / 64 consumer warpgroups of 64 query rows
//   each share the block's list; warp 0 of warpgroup 0 is the producer: one thread takes
//   the next tile, passes its number to the consumers through a pipeline of 2 stages,
//   loads the query block's Q into a pipeline of 2 stages (the next block's while the
//   consumers work on this one), then K and V of each listed block by TMA into two
//   pipelines of 2 stages (out-of-bounds rows of a ragged S are zero-filled);
// - S = Q K^T with wgmma from shared memory (K = DT in 64-column swizzle panels), masked
//   past S and above the diagonal where the block needs it, its scale (scale * log2(e))
//   folded into the exponent's fma;
// - the online softmax in registers on the accumulator's rows (row_max, exp2, row_sum;
//   m starts at -1e30, not -inf, so that a row that has seen only masked keys keeps
//   exp2(m - m') finite and l = 0);
// - O += P V with P from registers (the RS form, P rounded to T) and V as stored, the
//   N-major operand `sv.T` (its panels of 64 head columns, each BLK keys);
// - the overlap: S of block i and P V of block i - 1 are issued back to back and stay in
//   flight together (the compiler waits for S alone before the softmax, wgmma.wait[1],
//   and for P V before V's stage is freed), so the softmax of block i runs while P V of
//   block i - 1 does; and the two consumer warpgroups of BLK 128 take turns issuing their
//   products (take_turn / pass_turn), so one's softmax runs while the other's products
//   do (the ping-pong);
// - o = O / l and lse = (m + log2 l) ln 2 at the end (0 and -inf where l = 0); with SO
//   (every 128-block instance, the 64-block D = 128 one the entry point takes) o goes through shared
//   memory (`so`) and a TMA store by warp 1 of warpgroup 0, which overlaps the next tile,
//   else straight from registers.

kernel vsa<T: bf16 | f16, DT: i32, BLK: i32, SO: i32>(
    q: in T[B, H, S, DT], k: in T[B, H, S, DT], v: in T[B, H, S, DT],
    kv_num: in i32[B, H, NQ], kv_idx: in i32[B, H, NQ, NK],
    o: out T[B, H, S, DT], lse: out f32[B, H, S], work: inout i32[2],
    scale: f32, causal: i32)
    targets(sm_90a) threads(128 * (BLK / 64 + 1)) min_blocks(BLK == 64 ? 2 : 1)
    grid(min(B * H * NQ, num_sms * (128 / BLK)))
{
    tensormap tq = tma(q, box[1, 1, 64, 64], swizzle(128));
    tensormap tk = tma(k, box[1, 1, BLK, 64], swizzle(128));
    tensormap tv = tma(v, box[1, 1, BLK, 64], swizzle(128));
    // the tiles, handed out by the producer: one tile number a stage (tiles: the end)
    pipeline tp(stages: 2, full: thread, empty: warpgroup * (BLK / 64));
    shared slot: i32[1] in tp;
    pipeline qp(stages: SO != 0 && BLK == 64 ? 1 : 2, full: tma, empty: warpgroup * (BLK / 64));
    pipeline kp(stages: 2, full: tma, empty: warpgroup * (BLK / 64));
    pipeline vp(stages: 2, full: tma, empty: warpgroup * (BLK / 64));
    // Q: a panel of 64 head columns per 64 rows (warpgroup w's at rows w * DT ..);
    // K and V: DT / 64 panels of BLK rows
    shared sq: T[BLK / 64 * DT, 64] in qp swizzle(128);
    shared sk: T[DT / 64 * BLK, 64] in kp swizzle(128);
    shared sv: T[DT / 64 * BLK, 64] in vp swizzle(128);
    // SO: o's tile on its way out. The consumers write O / l into it (DT / 64 panels of
    // 64 columns, each BLK rows), warp 1 stores it by TMA while they go on with the next
    // tile; otile names the tile (tiles: there are no more). Without SO (BLK 64 only) o
    // goes from registers: two CTAs share an SM there, and its 16 KiB fit twice only with
    // one Q stage (SO's choice at BLK 64), which costs long lists their prefetched Q.
    tensormap to = tma(o, box[1, 1, BLK, 64], swizzle(128));
    pipeline op(stages: 1, full: warpgroup * (BLK / 64), empty: thread);
    shared so: T[SO * (DT / 64 * BLK) + (1 - SO) * 8, 64] in op swizzle(128);
    shared otile: i32[1] in op;
    // tile t: query block NQ - 1 - t % NQ of head t / NQ. The CTAs take the tiles in that
    // order, each the next one when it is ready for it (work[0] counts them out), so a CTA
    // with long lists takes fewer tiles and the CTAs end together; the CTAs at work at any
    // time share a few heads' K and V in L2, and each head's last blocks (the longest lists
    // of a causal mask) come first. work[1] counts the CTAs done: the last one sets both
    // back to 0 for the next call.
    let tiles = B * H * NQ;

    role producer(warpgroup 0) regs(BLK == 64 ? 40 : 32) {
        if (warp == 0) {
            elect {
                var t = atomic_add(work[0], 1);
                while (t >= 0 && t < tiles) {
                    produce tp {
                        slot[0] = t;
                    }
                    // the next tile asked for now: its answer comes while this one loads
                    let next = atomic_add(work[0], 1);
                    let bh = t / NQ;
                    let b = bh / H;
                    let h = bh % H;
                    let qb = NQ - 1 - t % NQ;
                    produce qp {
                        tma_load(sq, tq, [b, h, qb * BLK, 0], part: 0);
                        if (DT > 64) {
                            tma_load(sq, tq, [b, h, qb * BLK, 64], part: 1);
                        }
                        if (BLK > 64) {
                            tma_load(sq, tq, [b, h, qb * BLK + 64, 0], part: DT / 64);
                        }
                        if (BLK > 64 && DT > 64) {
                            tma_load(sq, tq, [b, h, qb * BLK + 64, 64], part: 3);
                        }
                    }
                    for (i in 0 .. min(kv_num[b, h, qb], NK)) {
                        let kb = kv_idx[b, h, qb, i] * BLK;
                        produce kp {
                            tma_load(sk, tk, [b, h, kb, 0], part: 0);
                            if (DT > 64) {
                                tma_load(sk, tk, [b, h, kb, 64], part: 1);
                            }
                        }
                        produce vp {
                            tma_load(sv, tv, [b, h, kb, 0], part: 0);
                            if (DT > 64) {
                                tma_load(sv, tv, [b, h, kb, 64], part: 1);
                            }
                        }
                    }
                    t = next;
                }
                produce tp {
                    slot[0] = tiles;
                }
                if (atomic_add(work[1], 1) == grid_dim.x - 1) {
                    atomic_xchg(work[0], 0);
                    atomic_xchg(work[1], 0);
                }
            }
        } else if (warp == 1) {
            if (SO != 0) {
                elect {
                    var t = 0;
                    while (t < tiles) {
                        consume op {
                            t = otile[0];
                            if (t < tiles) {
                                let bh = t / NQ;
                                let q0 = (NQ - 1 - t % NQ) * BLK;
                                tma_store(to, [bh / H, bh % H, q0, 0], so, part: 0);
                                if (DT > 64) {
                                    tma_store(to, [bh / H, bh % H, q0, 64], so, part: 1);
                                }
                                tma_store_wait();
                            }
                        }
                    }
                }
            }
        }
    }
    role consumer(warpgroups 1 .. BLK / 64) regs(BLK == 64 ? 216 : 232) {
        let wg = warpgroup - 1;
        let sl = f32x2(scale * 1.4426950408889634);
        var t = 0;
        consume tp {
            t = slot[0];
        }
        while (t < tiles) {
            let bh = t / NQ;
            let b = bh / H;
            let h = bh % H;
            let qb = NQ - 1 - t % NQ;
            let r0 = qb * BLK + wg * 64;
            let n = min(kv_num[b, h, qb], NK);
            var m: f32x2 = f32x2(-1.0e30);
            var l: f32x2 = f32x2(0.0);
            var acc: f32acc[64, DT] = 0.0;
            consume qp {
                if (n > 0) {
                    // the first block: S and its softmax (P V waits for the next S)
                    let k0 = kv_idx[b, h, qb, 0] * BLK;
                    var s: f32acc[64, BLK] = 0.0;
                    consume kp {
                        take_turn();
                        s = wgmma(s, sq.rows(wg * DT, 64), sk.rows(0, BLK));
                        if (DT > 64) {
                            s = wgmma(s, sq.rows(wg * DT + 64, 64), sk.rows(BLK, BLK));
                        }
                        pass_turn();
                    }
                    if (k0 + BLK > S) {
                        s = mask_cols(s, S - k0);
                    }
                    if (causal != 0 && k0 + BLK - 1 > r0) {
                        s = mask_above(s, r0 - k0);
                    }
                    m = max(m, row_max(s) * sl);
                    let p0 = exp2(fma(s, by_row(sl, BLK), by_row(-m, BLK)));
                    l = row_sum(p0);
                    var p = Ta(p0);
                    var alpha = f32x2(1.0);
                    for (i in 1 .. n) {
                        // S of block i and O += P V of block i - 1 in flight together:
                        // the softmax of block i waits for S only (wgmma.wait[1]) and
                        // runs while P V does. The warpgroups take turns to issue them,
                        // so that one's softmax runs while the other's products do.
                        let ki = kv_idx[b, h, qb, i] * BLK;
                        var si: f32acc[64, BLK] = 0.0;
                        consume kp {
                            take_turn();
                            si = wgmma(si, sq.rows(wg * DT, 64), sk.rows(0, BLK));
                            if (DT > 64) {
                                si = wgmma(si, sq.rows(wg * DT + 64, 64), sk.rows(BLK, BLK));
                            }
                            // O to block i - 1's maximum, while S is computed; a warp
                            // whose rows all kept their maximum skips it
                            if (any(alpha.x != 1.0 || alpha.y != 1.0)) {
                                acc = acc * by_row(alpha, DT);
                            }
                            consume vp {
                                acc = wgmma(acc, p, sv.T);
                                pass_turn();
                                if (ki + BLK > S) {
                                    si = mask_cols(si, S - ki);
                                }
                                if (causal != 0 && ki + BLK - 1 > r0) {
                                    si = mask_above(si, r0 - ki);
                                }
                                // a row's maximum moves only when it grows by more
                                // than 2^8: the exponents stay below 8 (P below 256,
                                // exact enough in T) and most blocks rescale nothing
                                let mx = max(m, row_max(si) * sl);
                                let mn = f32x2(mx.x > m.x + 8.0 ? mx.x : m.x, mx.y > m.y + 8.0 ? mx.y : m.y);
                                si = exp2(fma(si, by_row(sl, BLK), by_row(-mn, BLK)));
                                alpha = exp2(m - mn);
                                l = l * alpha + row_sum(si);
                                m = mn;
                            }
                            // P rounded into the registers P V of block i - 1 read: only
                            // once that product is done (else ptxas serializes the wgmma)
                            p = Ta(si);
                        }
                    }
                    consume vp {
                        acc = acc * by_row(alpha, DT);
                        take_turn();
                        acc = wgmma(acc, p, sv.T);
                        pass_turn();
                    }
                }
            }
            let inv = f32x2(l.x > 0.0 ? 1.0 / l.x : 0.0, l.y > 0.0 ? 1.0 / l.y : 0.0);
            if (SO != 0) {
                produce op {
                    store(so.rows(0, BLK), acc * by_row(inv, DT), [wg * 64, 0]);
                    if (warp == 4 && lane == 0) {
                        otile[0] = t;
                    }
                    fence_proxy_async();
                }
            } else {
                store(o[b, h], acc * by_row(inv, DT), [r0, 0]);
            }
            store_rows(lse[b, h], (m + log2(l)) * f32x2(0.6931471805599453), [r0]);
            consume tp {
                t = slot[0];
            }
        }
        if (SO != 0) {
            produce op {
                if (warp == 4 && lane == 0) {
                    otile[0] = tiles;
                }
            }
        }
    }
}

// the block size is the one whose query blocks cover S (NQ = cdiv(S, BLK)); 128 otherwise.
// At 64-token blocks and D = 128 every list takes the design with o through shared memory
// and a TMA store (SO = 1, first made for short top-k lists; its 16 KiB paid for with one Q
// stage): the store overlaps the next tile. On an H100 it is 12% faster at density 0.05, 5%
// at 0.1, 9% at 0.2, even at 0.3 and within 5% either way at 1.0 (bench/RESULTS.md sections
// 39, 40 and 46), so FlexAttention's padded lists (NK = NQ) take it too, and the design
// without it (vsa<T, 128, 64, 0>) is no longer built.
instance vsa<bf16, 128, 64, 1> as vsa_bf16_d128_b64_short entry vsa when (NQ == cdiv(S, 64));
instance vsa<bf16, 128, 128, 1> as vsa_bf16_d128_b128 entry vsa;
instance vsa<bf16, 64, 64, 0> as vsa_bf16_d64_b64 entry vsa when (NQ == cdiv(S, 64));
instance vsa<bf16, 64, 128, 1> as vsa_bf16_d64_b128 entry vsa;
instance vsa<f16, 128, 64, 1> as vsa_f16_d128_b64_short entry vsa when (NQ == cdiv(S, 64));
instance vsa<f16, 128, 128, 1> as vsa_f16_d128_b128 entry vsa;
instance vsa<f16, 64, 64, 0> as vsa_f16_d64_b64 entry vsa when (NQ == cdiv(S, 64));
instance vsa<f16, 64, 128, 1> as vsa_f16_d64_b128 entry vsa;
