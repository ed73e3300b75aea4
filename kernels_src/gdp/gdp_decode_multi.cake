// gdp_decode_multi: gated delta product decode for several tokens or Householder steps a
// call (T > 1 or NH > 1: multi-token prediction, speculative decoding, the gated delta
// product). Same parameters, layouts, -D constants and grid as gdp_decode (docs/gdp.md),
// but for T and NH, which are generic: an instance per T = 1 .. 8, NH = 1 .. 3 (at the end)
// and one entry point that launches the one the shapes ask for.
//
// The state is read and written once whatever T and NH are, so the aim is copy bandwidth,
// as at T = NH = 1; what stands in the way is the work a thread repeats per token. At T = 4
// the designs for one token spend more time issuing instructions than moving the state
// (about 7.8 instructions per state element and token in gdp_decode_fused, of which three
// are the algorithm's FMAs). This design keeps a token near those three:
//
// - The warp mapping of gdp_decode_warp: a warp owns all KD rows of WC columns, 16 rows a
//   thread, so every sum over K is a 16-row multiply-add and log2(KL) shuffles: no shared
//   partials, no barrier in the token loop, and per-token overheads spread over 64
//   elements a thread instead of 32.
// - Every token's q, k, v, g and beta are fetched with the state, up front (cp.async into
//   shared memory): no memory latency per token in the block's chain.
// - What does not depend on the state is computed once per block: a prologue (a warp per
//   token) turns q and k into f32 and L2-normalises them (L2NORM); the token loop reads
//   them from shared memory, rows padded to 20 elements a thread's 16 so that the KL row
//   segments a warp reads fall in different banks.
// - The decay is kept apart: S = D R with the scalar D the product of the decays so far,
//   so a token multiplies D, not the 64 elements (S^T x = D R^T x; S + k u^T = D (R + k
//   (u / D)^T)). R is multiplied out when D leaves [2^-64, 2^64] (a decay that underflows,
//   D = 0, so makes R zero), for the intermediate states, and at the end.
//
// MINB (-D, default 16 / NW) holds the registers to 128 a thread: 16 resident warps.
// BV a multiple of WC; KD 64 or 128. TFULL, TPART and TFUSE (-D) set how the token loop
// unrolls: with one step a token (NH 1) and T > TFUSE, not at all, pipelined by hand
// (below; TFUSE 7, the default: T = 8); else in full up to TFULL steps (T * NH), else
// TPART tokens at a time.

import "gdp_math.cake";         // the math the gdp designs share
import "gdp_decode_tma.cake";   // the designs the entry point takes for one token and one
import "gdp_decode_fused.cake"; // step: tma at small batch, fused above

const KD: i32 = 128;
const VD: i32 = 128;
const BV: i32 = 64;
const L2NORM: i1 = false;
const TFULL: i32 = 8;
const TFUSE: i32 = 7;
const TPART: i32 = 1;

const KPT: i32 = 16;                // state rows per thread (s0 .. s15)
const KL: i32 = KD / KPT;           // lanes along K in a warp
const LOGKL: i32 = KL == 2 ? 1 : KL == 4 ? 2 : KL == 8 ? 3 : 4;
const VL: i32 = 32 / KL;            // lanes along V in a warp (one column quad each)
const WC: i32 = VL * 4;             // columns per warp
const NW: i32 = BV / WC;            // warps per block
const KP: i32 = KL * 20;            // a padded row of q or k in shared memory
const MINB: i32 = NW > 1 ? 16 / NW : 1;
const DLO: f32 = 5.421010862427522e-20;     // 2^-64: below it (or above 1 / DLO) R takes D
const CHECK: i32 = 1 / (KL * KPT == KD && KL * VL == 32 && NW * WC == BV && KD % 32 == 0 ? 1 : 0);

// element e of a row of q or k in the padded layout
fn padded(e: i32) -> i32 {
    return e / 16 * 20 + e % 16;
}

kernel gdp_decode_multi<T: i32, NH: i32>(q: in bf16[B, T, HQK, KD], k: in bf16[B, T, NH, HQK, KD],
                        v: in bf16[B, T, NH, HV, VD], g: in f32[B, T, HV], beta: in bf16[B, T, NH, HV],
                        s: inout f32[B, HV, KD, VD], o: out bf16[B, T, HV, VD],
                        inter: out f32[B, TI, HV, KD, VD], scale: f32)
    targets(sm_90a, sm_100a, sm_103a)
    threads(32, NW)
    min_blocks(MINB)
    grid(VD / BV, HV, B)
    launch(dependent)
{
    shared stage: f32[KD, BV];
    shared xq: bf16[T, KD];         // every token's inputs as fetched
    shared xk: bf16[T, NH, KD];
    shared xv: bf16[T, NH, BV];     // the block's columns of v
    shared xgb: f32[T, NH + 1];     // g, then beta of each step
    shared fq: f32[T, KP];          // q and k in f32 (normalised with L2NORM), padded rows
    shared fk: f32[T, NH, KP];

    let vb = block.x;
    let h = block.y;
    let b = block.z;
    let vq = thread.x % VL;         // column quad within the warp's columns
    let kl = thread.x / VL;         // rows k0 .. k0+15
    let k0 = kl * KPT;
    let kp = kl * 20;               // the same rows in a padded row
    let vc = thread.y * WC + vq * 4;    // columns vc .. vc+3 of the slice (warp thread.y)
    let vg = vb * BV + vc;          // the same columns in V
    let hq = h / (HV / HQK);        // the q/k head of value head h
    let tid = thread.y * 32 + thread.x;

    // this thread's part of the state, then every token's inputs while it is on its way
    stage_rows16(stage, s, b, h, k0, vc, vg);
    // Where every thread makes the same number of copies, they are unrolled: as a loop,
    // LLVM's loop passes cost the compile more than the copies (T = 8: 51 -> 47 ms), and
    // T = 8 runs 2-9% faster so. Where the last round is partial, the loop: unrolled with
    // the last round guarded, T = 3, NH = 3 ran 6% slower (bench/RESULTS.md section 50).
    if (T * KD / 4 % (32 * NW) == 0) {
        for (i in 0 .. T * KD / 4 / (32 * NW)) unroll {
            let c = tid + 32 * NW * i;
            let t = c / (KD / 4);
            cp_async(xq[t, c % (KD / 4) * 4 : 4], q[b, t, hq, c % (KD / 4) * 4 : 4]);
        }
    } else {
        for (c in tid .. T * KD / 4 step 32 * NW) {
            let t = c / (KD / 4);
            cp_async(xq[t, c % (KD / 4) * 4 : 4], q[b, t, hq, c % (KD / 4) * 4 : 4]);
        }
    }
    if (T * NH * KD / 4 % (32 * NW) == 0) {
        for (i in 0 .. T * NH * KD / 4 / (32 * NW)) unroll {
            let c = tid + 32 * NW * i;
            let t = c / (NH * KD / 4);
            let j = c / (KD / 4) % NH;
            cp_async(xk[t, j, c % (KD / 4) * 4 : 4], k[b, t, j, hq, c % (KD / 4) * 4 : 4]);
        }
    } else {
        for (c in tid .. T * NH * KD / 4 step 32 * NW) {
            let t = c / (NH * KD / 4);
            let j = c / (KD / 4) % NH;
            cp_async(xk[t, j, c % (KD / 4) * 4 : 4], k[b, t, j, hq, c % (KD / 4) * 4 : 4]);
        }
    }
    if (T * NH * BV / 4 % (32 * NW) == 0) {
        for (i in 0 .. T * NH * BV / 4 / (32 * NW)) unroll {
            let c = tid + 32 * NW * i;
            let t = c / (NH * BV / 4);
            let j = c / (BV / 4) % NH;
            cp_async(xv[t, j, c % (BV / 4) * 4 : 4], v[b, t, j, h, vb * BV + c % (BV / 4) * 4 : 4]);
        }
    } else {
        for (c in tid .. T * NH * BV / 4 step 32 * NW) {
            let t = c / (NH * BV / 4);
            let j = c / (BV / 4) % NH;
            cp_async(xv[t, j, c % (BV / 4) * 4 : 4], v[b, t, j, h, vb * BV + c % (BV / 4) * 4 : 4]);
        }
    }
    for (c in tid .. T * (NH + 1) step 32 * NW) {
        let t = c / (NH + 1);
        let j = c % (NH + 1);
        if (j == 0) {
            xgb[t, 0] = g[b, t, h];
        } else {
            xgb[t, j] = f32(beta[b, t, j - 1, h]);
        }
    }
    cp_async_commit();
    cp_async_wait(0);
    barrier();

    // the prologue: warp thread.y takes tokens thread.y, thread.y + NW, ...; lane l holds
    // elements l, l + 32, ... of q and of each k. Unrolled with a guard where that makes
    // few copies, for the reason the copies are: as a loop, codegen's loop strength
    // reduction alone took 6% of T = 8's compile (with fewer warps, eight copies would
    // take a T = 8 kernel past the limit on operations).
    for (i in 0 .. (T + NW - 1) / NW) unroll(NW >= 4 ? (T + NW - 1) / NW : 1) {
        let t = thread.y + NW * i;
        if (t < T) {
            var x: f32[KD / 32] = 0.0;
            for (j in 0 .. NH + 1) unroll {
                var ss: f32 = 0.0;
                for (e in 0 .. KD / 32) unroll {
                    if (j == 0) {
                        x[e] = f32(xq[t, thread.x + 32 * e]);
                    } else {
                        x[e] = f32(xk[t, j - 1, thread.x + 32 * e]);
                    }
                    ss += x[e] * x[e];
                }
                var inv: f32 = 1.0;
                if (L2NORM) {
                    inv = l2_inv(ss, 1, 5);
                }
                for (e in 0 .. KD / 32) unroll {
                    if (j == 0) {
                        fq[t, padded(thread.x + 32 * e)] = x[e] * inv;
                    } else {
                        fk[t, j - 1, padded(thread.x + 32 * e)] = x[e] * inv;
                    }
                }
            }
        }
    }
    barrier();

    var s0 = stage[k0 + 0, vc : 4];
    var s1 = stage[k0 + 1, vc : 4];
    var s2 = stage[k0 + 2, vc : 4];
    var s3 = stage[k0 + 3, vc : 4];
    var s4 = stage[k0 + 4, vc : 4];
    var s5 = stage[k0 + 5, vc : 4];
    var s6 = stage[k0 + 6, vc : 4];
    var s7 = stage[k0 + 7, vc : 4];
    var s8 = stage[k0 + 8, vc : 4];
    var s9 = stage[k0 + 9, vc : 4];
    var s10 = stage[k0 + 10, vc : 4];
    var s11 = stage[k0 + 11, vc : 4];
    var s12 = stage[k0 + 12, vc : 4];
    var s13 = stage[k0 + 13, vc : 4];
    var s14 = stage[k0 + 14, vc : 4];
    var s15 = stage[k0 + 15, vc : 4];

    // With NH = 1 and T > TFUSE the token loop is rolled and pipelined by hand (fuse): a
    // token's o = S^T q and the next token's S^T k read the same state, so they are
    // computed together, two independent chains of fmas and shuffles that the scheduler
    // interleaves, as it does across the tokens of a full unroll; the next token's decay
    // is taken with them, at the end of the loop (at its top, the loop ran 7% slower on
    // the H100), and the last token, which has no next, follows the loop. T = 5 .. 8 then
    // compile in 35-45 ms instead of 50-70. On the H200 T = 8 runs 3-4% faster so than
    // fully unrolled (673-680 against 697-700 us at 16384 heads, bench/RESULTS.md section
    // 54): the default there; on the H100 T = 5 .. 8 ran 0.5-2% slower (a plain rolled
    // loop: 8%; section 48), and T < 8 is not measured on the H200 yet, so they keep the
    // full unroll (-D TFUSE=4 takes the loop from T = 5). Elsewhere each step takes its
    // own S^T k: fused, the next token's k stays in registers with q, past sm_100a's 128
    // at T = 4 and NH > 1 (spills). An S^T k taken before R takes D is multiplied by D with it.
    let fuse = NH == 1 && T > TFUSE;
    var d: f32 = 1.0;               // S = d R
    var kacc = f32x4(0.0);          // fused: S^T k for the next step, taken with the last o
    if (fuse) {
        d = exp2(xgb[0, 0] * LOG2E);
        if (d < DLO || d > 1.0 / DLO) {
            s0 = s0 * f32x4(d);
            s1 = s1 * f32x4(d);
            s2 = s2 * f32x4(d);
            s3 = s3 * f32x4(d);
            s4 = s4 * f32x4(d);
            s5 = s5 * f32x4(d);
            s6 = s6 * f32x4(d);
            s7 = s7 * f32x4(d);
            s8 = s8 * f32x4(d);
            s9 = s9 * f32x4(d);
            s10 = s10 * f32x4(d);
            s11 = s11 * f32x4(d);
            s12 = s12 * f32x4(d);
            s13 = s13 * f32x4(d);
            s14 = s14 * f32x4(d);
            s15 = s15 * f32x4(d);
            d = 1.0;
        }
        kacc = xor_sum4(rows16_dot(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15, fk[0, 0, kp : 4], fk[0, 0, kp + 4 : 4], fk[0, 0, kp + 8 : 4], fk[0, 0, kp + 12 : 4]), VL, LOGKL);
    }
    // TPART applies only where it divides T (a partial unroll of an odd count keeps a
    // remainder copy of the body, as large to compile as the unroll)
    for (t in 0 .. (fuse ? T - 1 : T)) unroll(fuse ? 1 : T * NH <= TFULL ? T : T % TPART == 0 ? TPART : 1) {
        if (!fuse) {
            d = d * exp2(xgb[t, 0] * LOG2E);
            if (d < DLO || d > 1.0 / DLO) {
                s0 = s0 * f32x4(d);
                s1 = s1 * f32x4(d);
                s2 = s2 * f32x4(d);
                s3 = s3 * f32x4(d);
                s4 = s4 * f32x4(d);
                s5 = s5 * f32x4(d);
                s6 = s6 * f32x4(d);
                s7 = s7 * f32x4(d);
                s8 = s8 * f32x4(d);
                s9 = s9 * f32x4(d);
                s10 = s10 * f32x4(d);
                s11 = s11 * f32x4(d);
                s12 = s12 * f32x4(d);
                s13 = s13 * f32x4(d);
                s14 = s14 * f32x4(d);
                s15 = s15 * f32x4(d);
                d = 1.0;
            }
        }
        for (j in 0 .. NH) unroll {
            let ka = fk[t, j, kp : 4];
            let kb = fk[t, j, kp + 4 : 4];
            let kc = fk[t, j, kp + 8 : 4];
            let kd = fk[t, j, kp + 12 : 4];
            // u = (v - S^T k) beta: this thread's 16 rows, then the sum over the KL lanes
            var acc = kacc;
            if (j > 0 || !fuse) {
                acc = xor_sum4(rows16_dot(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15, ka, kb, kc, kd), VL, LOGKL);
            }
            let u = (f32x4(xv[t, j, vc : 4]) - acc * f32x4(d)) * f32x4(xgb[t, j + 1] / d);
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
        // o = S^T q * scale; fused, with the next token's S^T k and decay
        let oacc = xor_sum4(rows16_dot(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15, fq[t, kp : 4], fq[t, kp + 4 : 4], fq[t, kp + 8 : 4], fq[t, kp + 12 : 4]), VL, LOGKL);
        var dn = d;
        if (fuse) {
            kacc = xor_sum4(rows16_dot(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15, fk[t + 1, 0, kp : 4], fk[t + 1, 0, kp + 4 : 4], fk[t + 1, 0, kp + 8 : 4], fk[t + 1, 0, kp + 12 : 4]), VL, LOGKL);
            dn = d * exp2(xgb[t + 1, 0] * LOG2E);
        }
        if (kl == 0) {
            o[b, t, h, vg : 4] = bf16x4(oacc * f32x4(d * scale));
        }
        if (t < TI) {
            let dv = f32x4(d);
            store_rows16_t(inter, b, t, h, k0, vg, s0 * dv, s1 * dv, s2 * dv, s3 * dv, s4 * dv, s5 * dv, s6 * dv, s7 * dv, s8 * dv, s9 * dv, s10 * dv, s11 * dv, s12 * dv, s13 * dv, s14 * dv, s15 * dv);
        }
        if (fuse) {
            d = dn;
            if (d < DLO || d > 1.0 / DLO) {
                s0 = s0 * f32x4(d);
                s1 = s1 * f32x4(d);
                s2 = s2 * f32x4(d);
                s3 = s3 * f32x4(d);
                s4 = s4 * f32x4(d);
                s5 = s5 * f32x4(d);
                s6 = s6 * f32x4(d);
                s7 = s7 * f32x4(d);
                s8 = s8 * f32x4(d);
                s9 = s9 * f32x4(d);
                s10 = s10 * f32x4(d);
                s11 = s11 * f32x4(d);
                s12 = s12 * f32x4(d);
                s13 = s13 * f32x4(d);
                s14 = s14 * f32x4(d);
                s15 = s15 * f32x4(d);
                kacc = kacc * f32x4(d);
                d = 1.0;
            }
        }
    }
    // fused: the last token, its one step's S^T k and decay taken in the loop
    if (fuse) {
        let tl = T - 1;
        let ka = fk[tl, 0, kp : 4];
        let kb = fk[tl, 0, kp + 4 : 4];
        let kc = fk[tl, 0, kp + 8 : 4];
        let kd = fk[tl, 0, kp + 12 : 4];
        let u = (f32x4(xv[tl, 0, vc : 4]) - kacc * f32x4(d)) * f32x4(xgb[tl, 1] / d);
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
        let oacc = xor_sum4(rows16_dot(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15, fq[tl, kp : 4], fq[tl, kp + 4 : 4], fq[tl, kp + 8 : 4], fq[tl, kp + 12 : 4]), VL, LOGKL);
        if (kl == 0) {
            o[b, tl, h, vg : 4] = bf16x4(oacc * f32x4(d * scale));
        }
        if (tl < TI) {
            let dv = f32x4(d);
            store_rows16_t(inter, b, tl, h, k0, vg, s0 * dv, s1 * dv, s2 * dv, s3 * dv, s4 * dv, s5 * dv, s6 * dv, s7 * dv, s8 * dv, s9 * dv, s10 * dv, s11 * dv, s12 * dv, s13 * dv, s14 * dv, s15 * dv);
        }
    }
    s0 = s0 * f32x4(d);
    s1 = s1 * f32x4(d);
    s2 = s2 * f32x4(d);
    s3 = s3 * f32x4(d);
    s4 = s4 * f32x4(d);
    s5 = s5 * f32x4(d);
    s6 = s6 * f32x4(d);
    s7 = s7 * f32x4(d);
    s8 = s8 * f32x4(d);
    s9 = s9 * f32x4(d);
    s10 = s10 * f32x4(d);
    s11 = s11 * f32x4(d);
    s12 = s12 * f32x4(d);
    s13 = s13 * f32x4(d);
    s14 = s14 * f32x4(d);
    s15 = s15 * f32x4(d);
    store_rows16(s, b, h, k0, vg, s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15);
}

// One entry point, gdp_decode_multi(q, k, v, g, beta, s, o, inter, scale), over T = 1 .. 8
// tokens and NH = 1 .. 3 steps: it launches the instance compiled for the T and NH of q's
// and k's shapes (docs/language.md, "Choosing by constant dimensions"); other T or NH get
// CAKE_ERR_SHAPE. One token and one step is the designs' of gdp_decode_tma.cake and
// gdp_decode_fused.cake, which this file imports: tma below 1024 heads (persistent blocks fed
// by a TMA pipeline, so that a few hundred heads still keep loads in flight on every SM),
// fused from there (96-98% of copy bandwidth at large batch, where this design's <1, 1> ran
// 6% slower on the H200: docs/gdp.md, "Other designs"). Up to 128 heads, slices of 32
// columns six deep: twice the blocks at the same bytes in flight, 7-16% faster than 64
// columns three deep at 32-128 heads on an H100 (bench/RESULTS.md section 60); from 256
// heads the wider slices win.
instance gdp_decode_tma<1, 1, 32, 6> as gdp_decode_multi_tma32 entry gdp_decode_multi when (B * HV <= 128);
instance gdp_decode_tma<1, 1> as gdp_decode_multi_tma entry gdp_decode_multi when (B * HV < 1024);
instance gdp_decode_fused<1, 1> as gdp_decode_multi_fused entry gdp_decode_multi;
instance gdp_decode_multi<2, 1>;
instance gdp_decode_multi<3, 1>;
instance gdp_decode_multi<4, 1>;
instance gdp_decode_multi<5, 1>;
instance gdp_decode_multi<6, 1>;
instance gdp_decode_multi<7, 1>;
instance gdp_decode_multi<8, 1>;
instance gdp_decode_multi<1, 2>;
instance gdp_decode_multi<2, 2>;
instance gdp_decode_multi<3, 2>;
instance gdp_decode_multi<4, 2>;
instance gdp_decode_multi<5, 2>;
instance gdp_decode_multi<6, 2>;
instance gdp_decode_multi<7, 2>;
instance gdp_decode_multi<8, 2>;
instance gdp_decode_multi<1, 3>;
instance gdp_decode_multi<2, 3>;
instance gdp_decode_multi<3, 3>;
instance gdp_decode_multi<4, 3>;
instance gdp_decode_multi<5, 3>;
instance gdp_decode_multi<6, 3>;
instance gdp_decode_multi<7, 3>;
instance gdp_decode_multi<8, 3>;
