// gdp_decode_tma: gdp_decode (docs/gdp.md) as a persistent kernel fed by TMA through a
// STAGES-deep shared-memory pipeline, so that the loads of the state never wait for the
// arithmetic: while the consumer warps update one slice, the next STAGES - 1 slices are
// already on their way.
//
// Same parameters, layouts and semantics as gdp_decode, and its -D constants (KD, VD, BV,
// L2NORM), plus STAGES (pipeline depth) and CPS (blocks per SM); T and NH are generic, as
// in gdp_decode_multi, which imports this file and launches gdp_decode_tma<1, 1> and
// <1, 1, 32, 6> from its entry point at small batch (docs/gdp.md), and so are the slice
// width BW and the depth ST, which default to BV and STAGES (BW / WC consumer warps,
// VD / BW items a head). A work item is
// one BV-column slice of one head's state, item = (b * HV + h) * (VD / BV) + vb, so
// consecutive items are consecutive memory; block x takes items x, x + grid, ... with
// grid = min(CPS * num_sms, items).
//
// - Warp 0 (the producer) issues, per item, one TMA load of the KD x BV slice of the
//   state and the item's q [T, KD], k [T, NH, KD] and v [T, NH, BV] into the next stage
//   of `ld` (its full barrier counts the bytes); one elected lane runs the loop.
// - Warps 1 .. NW (the consumers, NW = BV / WC) hold the slice in registers with
//   gdp_decode_warp's mapping: in consumer warp c, lane l has rows k0 .. k0+15
//   (k0 = (l / VL) * 16) of the column quad c * WC + (l % VL) * 4, KL = KD / 16 lanes
//   along K and VL = 32 / KL along V (K = 128: WC = 16 columns a warp, 4 warps for
//   BV = 64). Every sum over K stays inside a warp (xor shuffles), as it must: a block
//   barrier would need the producer. They read their rows and q/k/v from the stage,
//   update, store the state and the outputs straight from registers to global memory
//   (16-byte stores, whole 64-byte row segments per 4 lanes) and release the stage when
//   the item is done. g and beta (too small for TMA boxes) are plain loads; the first
//   token's g is fetched one item ahead.
//
// launch(dependent): a call starts while the call before it finishes (its blocks resident
// and waiting), which at small batch, where a call is a few microseconds, is a tenth of
// the time (bench/RESULTS.md, section 22).
//
// Shared memory: STAGES x (KD * BV * 4 + the q, k, v boxes) per block, 128-byte aligned
// (TMA's destination). No staging to elide: the pipeline is the point (staging elision
// keeps staged pipeline buffers). The state tensor is read by TMA and written by plain
// stores to other elements (each item is read and written by one block only).

import "gdp_math.cake";         // the math the gdp designs share

const KD: i32 = 128;
const VD: i32 = 128;
const BV: i32 = 64;
const L2NORM: i1 = false;
const STAGES: i32 = 3;              // pipeline depth (slices in flight per block)
const CPS: i32 = 2;                 // blocks per SM (grid = CPS * num_sms)

const KPT: i32 = 16;                // state rows per thread (s0 .. s15)
const KL: i32 = KD / KPT;           // lanes along K in a warp
const LOGKL: i32 = KL == 2 ? 1 : KL == 4 ? 2 : KL == 8 ? 3 : 4;
const VL: i32 = 32 / KL;            // lanes along V in a warp (one column quad each)
const WC: i32 = VL * 4;             // columns per consumer warp
const CHECK: i32 = 1 / (KL * KPT == KD && KL * VL == 32 && BV % WC == 0 ? 1 : 0);

kernel gdp_decode_tma<T: i32, NH: i32, BW: i32 = BV, ST: i32 = STAGES>(q: in bf16[B, T, HQK, KD], k: in bf16[B, T, NH, HQK, KD],
                      v: in bf16[B, T, NH, HV, VD], g: in f32[B, T, HV], beta: in bf16[B, T, NH, HV],
                      s: inout f32[B, HV, KD, VD], o: out bf16[B, T, HV, VD],
                      inter: out f32[B, TI, HV, KD, VD], scale: f32)
    targets(sm_90a, sm_100a, sm_103a)
    threads(32 * ((BW / WC) + 1))
    min_blocks(CPS)
    grid(min(num_sms * CPS, B * HV * (VD / BW)))
    launch(dependent)
{
    tensormap tms = tma(s, box[1, 1, KD, BW]);
    tensormap tmq = tma(q, box[1, T, 1, KD]);
    tensormap tmk = tma(k, box[1, T, NH, 1, KD]);
    tensormap tmv = tma(v, box[1, T, NH, 1, BW]);
    // full: the producer's expect-tx plus the TMA bytes; empty: every consumer thread
    pipeline ld(stages: ST, full: tma, empty: warp * (BW / WC));
    shared stt: f32[KD, BW] in ld align(128);
    shared qst: bf16[T, KD] in ld align(128);
    shared kst: bf16[T, NH, KD] in ld align(128);
    shared vst: bf16[T, NH, BW] in ld align(128);

    let items = B * HV * (VD / BW);
    let gqa = HV / HQK;

    role producer(warp 0) {
        elect {
            for (it in block.x .. items step grid_dim.x) {
                let vb = it % (VD / BW);
                let h = it / (VD / BW) % HV;
                let b = it / (VD / BW) / HV;
                produce ld {
                    tma_load(stt, tms, [b, h, 0, vb * BW]);
                    tma_load(qst, tmq, [b, 0, h / gqa, 0]);
                    tma_load(kst, tmk, [b, 0, 0, h / gqa, 0]);
                    tma_load(vst, tmv, [b, 0, 0, h, vb * BW]);
                }
            }
        }
    }

    role consumer(warps 1 .. (BW / WC)) {
        let vq = lane % VL;
        let kl = lane / VL;
        let k0 = kl * KPT;                      // rows k0 .. k0+15
        let vc = (warp - 1) * WC + vq * 4;      // columns vc .. vc+3 of the slice
        // g of the first token, one item ahead; beta loaded in the item that uses it
        // (bench/RESULTS.md section 55)
        var gn: f32 = 0.0;
        if (block.x < items) {
            gn = g[block.x / (VD / BW) / HV, 0, block.x / (VD / BW) % HV];
        }
        for (it in block.x .. items step grid_dim.x) {
            let vb = it % (VD / BW);
            let h = it / (VD / BW) % HV;
            let b = it / (VD / BW) / HV;
            let vg = vb * BW + vc;              // the same columns in V
            let g0 = gn;
            let be0 = f32(beta[b, 0, 0, h]);
            let nx = it + grid_dim.x;
            if (nx < items) {
                gn = g[nx / (VD / BW) / HV, 0, nx / (VD / BW) % HV];
            }
            consume ld {
                var s0 = stt[k0 + 0, vc : 4];
                var s1 = stt[k0 + 1, vc : 4];
                var s2 = stt[k0 + 2, vc : 4];
                var s3 = stt[k0 + 3, vc : 4];
                var s4 = stt[k0 + 4, vc : 4];
                var s5 = stt[k0 + 5, vc : 4];
                var s6 = stt[k0 + 6, vc : 4];
                var s7 = stt[k0 + 7, vc : 4];
                var s8 = stt[k0 + 8, vc : 4];
                var s9 = stt[k0 + 9, vc : 4];
                var s10 = stt[k0 + 10, vc : 4];
                var s11 = stt[k0 + 11, vc : 4];
                var s12 = stt[k0 + 12, vc : 4];
                var s13 = stt[k0 + 13, vc : 4];
                var s14 = stt[k0 + 14, vc : 4];
                var s15 = stt[k0 + 15, vc : 4];
                for (t in 0 .. T) unroll {
                    var gt = g0;
                    if (t > 0) {
                        gt = g[b, t, h];
                    }
                    let decay = decay4(gt);
                    s0 = s0 * decay;
                    s1 = s1 * decay;
                    s2 = s2 * decay;
                    s3 = s3 * decay;
                    s4 = s4 * decay;
                    s5 = s5 * decay;
                    s6 = s6 * decay;
                    s7 = s7 * decay;
                    s8 = s8 * decay;
                    s9 = s9 * decay;
                    s10 = s10 * decay;
                    s11 = s11 * decay;
                    s12 = s12 * decay;
                    s13 = s13 * decay;
                    s14 = s14 * decay;
                    s15 = s15 * decay;
                    for (j in 0 .. NH) unroll {
                        var bt = be0;
                        if (t > 0 || j > 0) {
                            bt = f32(beta[b, t, j, h]);
                        }
                        var ka = f32x4(kst[t, j, k0 : 4]);
                        var kb = f32x4(kst[t, j, k0 + 4 : 4]);
                        var kc = f32x4(kst[t, j, k0 + 8 : 4]);
                        var kd = f32x4(kst[t, j, k0 + 12 : 4]);
                        if (L2NORM) {
                            let inv = f32x4(l2_inv(sumsq16(ka, kb, kc, kd), VL, LOGKL));
                            ka = ka * inv;
                            kb = kb * inv;
                            kc = kc * inv;
                            kd = kd * inv;
                        }
                        // u = v - S^T k: this thread's 16 rows, then the sum over the KL lanes
                        let acc = xor_sum4(rows16_dot(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15, ka, kb, kc, kd), VL, LOGKL);
                        let u = (f32x4(vst[t, j, vc : 4]) - acc) * f32x4(bt);
                        s0 = fma(f32x4(ka.x), u, s0);
                        s1 = fma(f32x4(ka.y), u, s1);
                        s2 = fma(f32x4(ka.z), u, s2);
                        s3 = fma(f32x4(ka.w), u, s3);
                        s4 = fma(f32x4(kb.x), u, s4);
                        s5 = fma(f32x4(kb.y), u, s5);
                        s6 = fma(f32x4(kb.z), u, s6);
                        s7 = fma(f32x4(kb.w), u, s7);
                        s8 = fma(f32x4(kc.x), u, s8);
                        s9 = fma(f32x4(kc.y), u, s9);
                        s10 = fma(f32x4(kc.z), u, s10);
                        s11 = fma(f32x4(kc.w), u, s11);
                        s12 = fma(f32x4(kd.x), u, s12);
                        s13 = fma(f32x4(kd.y), u, s13);
                        s14 = fma(f32x4(kd.z), u, s14);
                        s15 = fma(f32x4(kd.w), u, s15);
                    }
                    var qa = f32x4(qst[t, k0 : 4]);
                    var qb = f32x4(qst[t, k0 + 4 : 4]);
                    var qc = f32x4(qst[t, k0 + 8 : 4]);
                    var qd = f32x4(qst[t, k0 + 12 : 4]);
                    if (L2NORM) {
                        let inv = f32x4(l2_inv(sumsq16(qa, qb, qc, qd), VL, LOGKL));
                        qa = qa * inv;
                        qb = qb * inv;
                        qc = qc * inv;
                        qd = qd * inv;
                    }
                    // o = S^T q * scale
                    let oacc = xor_sum4(rows16_dot(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15, qa, qb, qc, qd), VL, LOGKL);
                    if (kl == 0) {
                        o[b, t, h, vg : 4] = bf16x4(oacc * f32x4(scale));
                    }
                    if (t < TI) {
                        store_rows16_t(inter, b, t, h, k0, vg, s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15);
                    }
                }
                store_rows16(s, b, h, k0, vg, s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15);
            }
        }
    }
}

// One token and one step (gdp_decode_multi's entry point, which takes this design for them at
// small batch, is the one to call: docs/gdp.md); a file that imports this one can make
// other instances (tests/interp/Inputs/gdp_generic.cake makes <2, 2>).
instance gdp_decode_tma<1, 1>;
