// ssd.cake: Mamba-2's state-space scan, the chunked forward pass ("combined"), Hopper
// (docs/ssd.md).
//
//   dt'_t = softplus(dt_t + dt_bias) (or dt_t + dt_bias), a_t = dt'_t A[h]
//   H_t = exp(a_t) H_(t-1) + dt'_t x_t B_t^T           (the state, P x N, H_(-1) = init)
//   y_t = (H_t C_t + D[h] x_t) * silu(z_t)
//
// for each batch b and head h, with B and C of the head's group h / (H / G). The scan runs
// in chunks of 64 steps; within chunk c, with A_t = sum of a over the chunk up to t:
//
//   y_t = sum_(s <= t) (C_t . B_s) exp(A_t - A_s) dt'_s x_s  +  exp(A_t) C_t . H_c^T
//   H_(c+1) = exp(A_end) H_c + sum_s exp(A_end - A_s) dt'_s x_s B_s^T
//
// The design: one CTA per (b, h), its chunks in order.
// - warpgroup 0: warp 0 loads each chunk's x, B, C (and z) by TMA (rows past L zero-filled),
//   warp 1 computes dt', the chunk's cumulative sums (a warp scan, in log2 units) and the
//   state's weights into `sdec`, warp 2 stores each chunk's y from shared memory by TMA
//   (clipped at L);
// - warpgroup 1 (ys): G = C B^T (wgmma), P = G exp2(A_t - A_s + log2 dt'_s) below the
//   diagonal, y = P x (P from registers, x N-major), + exp2(A_t) C H_c^T (H_c from `sh`,
//   written by the other warpgroup), D x, z gating, into `sy`;
// - warpgroup 2 (states): H = exp2(A_end) H + (w x)^T B (x^T read from shared memory into
//   registers, scaled by w_s = exp2(A_end - A_s + log2 dt'_s) from `sdec`, B N-major), rounded into
//   `sh` for the next chunk's ys; the chunk states and the final state from its
//   accumulator, in f32.
// Optional tensors are empty ones: d, dt_bias [0]; z, init, final, states with batch 0.

const LOG2E: f32 = 1.4426950408889634;

kernel ssd<T: bf16 | f16, N: i32, SPLIT: i32 = 0>(
    x: in T[B, L, H, 64], dt: in T[B, L, H], a: in f32[H],
    bm: in T[B, L, G, N], cm: in T[B, L, G, N],
    d: in f32[DH], dt_bias: in f32[BH], z: in T[ZB, L, H, 64], init: in f32[IB, H, 64, N],
    y: out T[B, L, H, 64], final: out f32[FB, H, 64, N], states: out f32[SB, NC, H, 64, N],
    softplus: i32, chunk: i32, sync: inout i32[SY], hand: inout f32[HB, H, 64, N])
    targets(sm_90a) threads(384) min_blocks(1)
    grid(B * H * (1 + SPLIT))
    requires(H % G == 0 && (DH == 0 || DH == H) && (BH == 0 || BH == H) && (ZB == 0 || ZB == B) &&
             (IB == 0 || IB == B) && (FB == 0 || FB == B) &&
             (chunk == 64 || chunk == 128 || chunk == 256) && (SB == 0 || (SB == B && NC == cdiv(L, chunk))) &&
             (SPLIT == 0 || (HB == B && SY >= 2 + 128 * B * H && L > 64)))
{
    tensormap tx = tma(x, box[1, 64, 1, 64], swizzle(128));
    tensormap tb = tma(bm, box[1, 64, 1, 64], swizzle(128));
    tensormap tc = tma(cm, box[1, 64, 1, 64], swizzle(128));
    tensormap tz = tma(z, box[1, 64, 1, 64], swizzle(128));
    tensormap ty = tma(y, box[1, 64, 1, 64], swizzle(128));
    // a chunk's inputs, read by both warpgroups; B and C as N / 64 panels of 64 columns
    pipeline ip(stages: 3, full: tma, empty: warpgroup * 2);
    shared sx: T[64, 64] in ip swizzle(128);
    shared sb: T[N, 64] in ip swizzle(128);
    shared sc: T[N, 64] in ip swizzle(128);
    // the chunk's decay: [t] A_t (A_end at 63), [64 + s] A_s - log2 dt'_s (inf where dt' = 0),
    // [128 + s] the state's weight of step s, exp2(A_end - A_s + log2 dt'_s)
    pipeline ap(stages: 3, full: warp, empty: warpgroup * 2);
    shared sdec: f32[192] in ap;
    pipeline zp(stages: 3, full: tma, empty: warpgroup);
    shared sz: T[64, 64] in zp swizzle(128);
    // the state entering a chunk, H_c (64 x N), as wgmma's K-major operand B
    pipeline hp(stages: 2, full: warpgroup, empty: warpgroup);
    shared sh: T[N, 64] in hp swizzle(128);
    pipeline yp(stages: 2, full: warpgroup, empty: thread);
    shared sy: T[64, 64] in yp swizzle(128);
    // the work: a (b, h) a CTA, or with SPLIT (the instances' `when`, at the end) its first
    // and its second half of the chunks, the second starting from the state the first hands over:
    // thread t of the states warpgroup writes its part of hand[b, h] and then sets its flag
    // sync[2 + 128 (b H + h) + t], which thread t of the second half (the same part of the
    // fragment) waits for and clears. A CTA takes the next unit from a counter (sync[0]),
    // first halves first: a second half then waits only for a first half that some running
    // CTA holds. The last CTA to start resets the counters, so sync is 0 after the call.
    shared su: i32[1];
    var unit = block.x;
    if (SPLIT != 0) {
        if (thread.x == 0) {
            su[0] = atomic_add(sync[0], 1);
            fence_acq_rel(scope: gpu);
            if (atomic_add(sync[1], 1) == grid_dim.x - 1) {
                atomic_xchg(sync[0], 0);
                atomic_xchg(sync[1], 0);
            }
        }
        barrier();
        unit = su[0];
    }
    let bh = SPLIT != 0 ? unit % (B * H) : unit;
    let b = bh / H;
    let h = bh % H;
    let g = h / (H / G);
    let nch = cdiv(L, 64);
    let c0 = SPLIT != 0 ? min(unit / (B * H) * cdiv(nch, 2), nch) : 0;    // chunks c0 .. c1 - 1
    let c1 = SPLIT != 0 ? min(c0 + cdiv(nch, 2), nch) : nch;

    role producer(warpgroup 0) regs(56) {
        if (warp == 0) {
            elect {
                for (c in c0 .. c1) {
                    produce ip {
                        tma_load(sx, tx, [b, c * 64, h, 0]);
                        tma_load(sb, tb, [b, c * 64, g, 0], part: 0);
                        if (N > 64) {
                            tma_load(sb, tb, [b, c * 64, g, 64], part: 1);
                        }
                        tma_load(sc, tc, [b, c * 64, g, 0], part: 0);
                        if (N > 64) {
                            tma_load(sc, tc, [b, c * 64, g, 64], part: 1);
                        }
                    }
                    if (ZB > 0) {
                        produce zp {
                            tma_load(sz, tz, [b, c * 64, h, 0]);
                        }
                    }
                }
            }
        } else if (warp == 1) {
            let ah = a[h] * LOG2E;
            var bias: f32 = 0.0;
            if (BH > 0) {
                bias = dt_bias[h];
            }
            // lane i: steps 2 i and 2 i + 1 of a chunk; the next chunk's are loaded before
            // this one's stage is waited for, so their latency is off the loop's path. They
            // stay in T until the next chunk uses them: converted right after the load, the
            // conversion waited for the load there, and warp 1 took a memory latency a chunk
            // (the strided dt reads come from DRAM), which made it the scan's slowest role
            // (1.17-1.30x faster so, bench/RESULTS.md section 51)
            var n0: T = 0.0;
            var n1: T = 0.0;
            if (c0 * 64 + 2 * lane < L) {
                n0 = dt[b, c0 * 64 + 2 * lane, h];
            }
            if (c0 * 64 + 2 * lane + 1 < L) {
                n1 = dt[b, c0 * 64 + 2 * lane + 1, h];
            }
            for (c in c0 .. c1) {
                let t0 = c * 64 + 2 * lane;
                let r0 = f32(n0);
                let r1 = f32(n1);
                if (t0 + 64 < L) {
                    n0 = dt[b, t0 + 64, h];
                }
                if (t0 + 65 < L) {
                    n1 = dt[b, t0 + 65, h];
                }
                produce ap {
                    var d0: f32 = 0.0;
                    var d1: f32 = 0.0;
                    if (t0 < L) {
                        d0 = dtp(r0 + bias, softplus);
                    }
                    if (t0 + 1 < L) {
                        d1 = dtp(r1 + bias, softplus);
                    }
                    let a0 = d0 * ah;
                    var s = a0 + d1 * ah;
                    for (o in 0 .. 5) unroll {
                        let u = shfl_up(s, 1 << o);
                        if (lane >= 1 << o) {
                            s += u;
                        }
                    }
                    let s0 = s - d1 * ah;
                    let e0 = s0 - log2(d0);
                    let e1 = s - log2(d1);
                    let end = shfl_idx(s, 31);
                    sdec[2 * lane] = s0;
                    sdec[2 * lane + 1] = s;
                    sdec[64 + 2 * lane] = e0;
                    sdec[65 + 2 * lane] = e1;
                    sdec[128 + 2 * lane] = exp2(end - e0);
                    sdec[129 + 2 * lane] = exp2(end - e1);
                }
            }
        } else if (warp == 2) {
            elect {
                for (c in c0 .. c1) {
                    consume yp {
                        tma_store(ty, [b, c * 64, h, 0], sy);
                        tma_store_wait();
                    }
                }
            }
        }
    }
    role ys(warpgroup 1) regs(224) {
        let r0 = 16 * (warp % 4) + lane / 4;
        var dh: f32 = 0.0;
        if (DH > 0) {
            dh = d[h];
        }
        for (c in c0 .. c1) {
            var o: f32acc[64, 64] = 0.0;
            consume ip {
                consume ap {
                    let at = f32x2(sdec[r0], sdec[r0 + 8]);
                    var gm: f32acc[64, 64] = 0.0;
                    for (k in 0 .. N / 64) unroll {
                        gm = wgmma(gm, sc.rows(64 * k, 64), sb.rows(64 * k, 64));
                    }
                    // exp(A_t - A_s) dt'_s, 0 above the diagonal (s > t) and where dt' = 0
                    let e = mask_above(by_row(at, 64) - fragment(sdec, [64], 64), 0);
                    let p = gm * exp2(e);
                    o = wgmma(o, Ta(p), sx.T);
                    consume hp {
                        var oi: f32acc[64, 64] = 0.0;
                        for (k in 0 .. N / 64) unroll {
                            oi = wgmma(oi, sc.rows(64 * k, 64), sh.rows(64 * k, 64));
                        }
                        o = o + oi * by_row(exp2(at), 64);
                    }
                    if (DH > 0) {
                        o = o + fragment(sx, [0, 0], 64) * dh;
                    }
                }
            }
            if (ZB > 0) {
                consume zp {
                    let zf = fragment(sz, [0, 0], 64);
                    o = o * zf / (exp2(zf * -LOG2E) + 1.0);
                }
            }
            produce yp {
                store(sy, o, [0, 0]);
                fence_proxy_async();
            }
        }
    }
    role states(warpgroup 2) regs(224) {
        var hs: f32acc[64, N] = 0.0;
        if (SPLIT != 0 && c0 > 0) {
            // a second half: the first half's state, each thread's part once it is written
            // (a first half that never came would leave the wait after 4 s: a wrong y,
            // never a hang)
            let f = 2 + 128 * bh + thread.x % 128;
            wait_ge(sync[f], 1, 4000000000);
            hs = fragment(hand[b, h], [0, 0], N);
            atomic_xchg(sync[f], 0);
        } else if (IB > 0) {
            hs = fragment(init[b, h], [0, 0], N);
        }
        produce hp {
            store(sh.rows(0, 64), hs, [0, 0]);
            fence_proxy_async();
        }
        for (c in c0 .. c1) {
            consume ip {
                consume ap {
                    let end = sdec[63];
                    let w = fragment(sdec, [128], 64);
                    hs = hs * exp2(end);
                    hs = wgmma(hs, Ta(fragment(sx.T, [0, 0], 64) * w), sb.T);
                }
            }
            if (SB > 0 && ((c + 1) % (chunk / 64) == 0 || c == nch - 1)) {
                store(states[b, c * 64 / chunk, h], hs, [0, 0]);
            }
            if (c + 1 < c1) {
                produce hp {
                    store(sh.rows(0, 64), hs, [0, 0]);
                    fence_proxy_async();
                }
            }
        }
        if (SPLIT != 0 && c1 < nch) {
            // a first half: its state for the second, each thread's part, then its flag
            store(hand[b, h], hs, [0, 0]);
            store_release(sync[2 + 128 * bh + thread.x % 128], 1);
        } else if (FB > 0) {
            store(final[b, h], hs, [0, 0]);
        }
    }
}

// dt' = softplus(v) (log(1 + exp(v)), v itself above 20, as mamba_ssm) or v
fn dtp(v: f32, softplus: i32) -> f32 {
    if (softplus == 0 || v > 20.0) {
        return v;
    }
    return log(1.0 + exp(v));
}

// SPLIT where the workspace is given and halves take a wave off: L > 448 (four chunks a
// half at least), more heads than SMs, and cdiv(2 B H, SMs) < 2 cdiv(B H, SMs) (320
// heads on 132 SMs: 5 waves of halves, not 3 of heads)
instance ssd<bf16, 128, 1> as ssd_bf16_n128_split
    when (HB > 0 && L > 448 && B * H > num_sms && cdiv(2 * B * H, num_sms) < 2 * cdiv(B * H, num_sms));
instance ssd<bf16, 128> as ssd_bf16_n128;
instance ssd<bf16, 64, 1> as ssd_bf16_n64_split
    when (HB > 0 && L > 448 && B * H > num_sms && cdiv(2 * B * H, num_sms) < 2 * cdiv(B * H, num_sms));
instance ssd<bf16, 64> as ssd_bf16_n64;
instance ssd<f16, 128, 1> as ssd_f16_n128_split
    when (HB > 0 && L > 448 && B * H > num_sms && cdiv(2 * B * H, num_sms) < 2 * cdiv(B * H, num_sms));
instance ssd<f16, 128> as ssd_f16_n128;
instance ssd<f16, 64, 1> as ssd_f16_n64_split
    when (HB > 0 && L > 448 && B * H > num_sms && cdiv(2 * B * H, num_sms) < 2 * cdiv(B * H, num_sms));
instance ssd<f16, 64> as ssd_f16_n64;
