// Session 46 (bench/RESULTS.md section 46): an experiment, not a shipped kernel. A copy of
// kernels_src/cp_fixup/cp_fixup.cake's MMA design as `cpx` with DBG ablations; `cpy`, its f32
// transfers in three stages converted in place; `cpt`, L by TMA into shared memory, read back
// transposed with paired rows. bench/sessions/46/make_cpx.sh builds it.
const PAD: i32 = 4;

kernel cpx<T: f32 | bf16, P: bf16 | f16, KT: i32, VT: i32, MP: i32, DBG: i32>(
        l: in f32[B, H, C, KT, VT], m: in T[B, H, C, KT, KT], init: in f32[BI, H, KT, VT],
        nvalid: in i32[B], s: out f32[B, H, C, KT, VT])
    targets(sm_90a)
    threads(2 * VT)
    min_blocks(1)
    grid(B * H)
{
    shared mst: T[2, KT, KT + PAD];                          // M_c, M_{c+1} as copied
    shared m1: P[KT / 64 * KT, 64] swizzle(128);          // P(M_c): k-half p at rows p KT
    shared m2: P[MP == 2 ? KT / 64 * KT : 8, 64] swizzle(128);  // P(M_c - m1)

    let h = block.x % H;
    let b = block.x / H;
    let v0 = thread.x / 128 * 64;    // this warpgroup's columns of S
    let n = min(max(nvalid[b], 0), C);
    let NT = 2 * VT;

    // S_0: the initial state, or L_0
    var d: f32acc[64, KT] = 0.0;
    if (n > 0) {
        if (b < BI) {
            d = fragment(init[b, h].T, [v0, 0], KT, paired: true);
        } else {
            d = fragment(l[b, h, 0].T, [v0, 0], KT, paired: true);
        }
        store(s[b, h, 0].T, d, [v0, 0], paired: true);
    }
    // M_1 and L_1^T, ahead of the loop
    if (n > 1) {
        for (u in 0 .. KT * KT / (4 * NT)) unroll {  // unrolled: as loops, these copies
            let e = 4 * thread.x + 4 * NT * u;        // cost LLVM's strength reduction 5 ms
            cp_async(mst[1, e / KT, e % KT : 4], m[b, h, 1, e / KT, e % KT : 4]);
        }
    }
    cp_async_commit();
    var lnx: f32acc[64, KT] = 0.0;
    if (n > 1) {
        lnx = fragment(l[b, h, 1].T, [v0, 0], KT, paired: true);
    }

    for (c in 1 .. n) {
        let cur = c % 2;
        // M_{c+1} into the other half: every thread converted M_{c-1} from it before the
        // barrier after the conversion of the previous chunk
        if (c + 1 < n && DBG != 5) {
            for (u in 0 .. KT * KT / (4 * NT)) unroll {
                let e = 4 * thread.x + 4 * NT * u;
                cp_async(mst[1 - cur, e / KT, e % KT : 4], m[b, h, c + 1, e / KT, e % KT : 4]);
            }
        }
        cp_async_commit();
        cp_async_wait(1);            // this thread's part of M_c has landed
        barrier();                   // everyone's; and every wgmma of chunk c - 1 retired
        // M_c into the operand arrays: element (i, j) is row (j / 64) KT + i, its 16-byte
        // chunk (j % 64) / 8 swizzled by the row (128-byte swizzle: chunk ^ row % 8)
        for (e in 4 * thread.x .. (DBG == 1 ? 0 : KT * KT) step 4 * NT) unroll(1) {
            let i = e / KT;
            let j = e % KT;
            let r = j / 64 * KT + i;
            let col = ((j % 64 / 8) ^ (i % 8)) * 8 + j % 8;
            let x = f32x4(mst[cur, i, j : 4]);
            let hi = Px4(x);
            m1[r, col : 4] = hi;
            if (MP == 2) {
                m2[r, col : 4] = Px4(x - f32x4(hi));
            }
        }
        fence_proxy_async();         // the stores above, before the tensor cores read them
        barrier();
        // S_c^T = L_c^T + S_{c-1}^T M_c^T, S_{c-1} split into two parts
        if (MP == 2) {
            let a1 = f16a(d);
            let a2 = f16a(d - f32acc(a1));
            d = lnx;
            if (c + 1 < n && DBG != 4) {             // L_{c+1}^T, a chunk ahead
                lnx = fragment(l[b, h, c + 1].T, [v0, 0], KT, paired: true);
            }
            if (DBG != 3) {
            for (p in 0 .. KT / 64) unroll {
                d = wgmma(d, a1.cols(64 * p, 64), m1.rows(p * KT, KT));
                d = wgmma(d, a2.cols(64 * p, 64), m1.rows(p * KT, KT));
                d = wgmma(d, a1.cols(64 * p, 64), m2.rows(p * KT, KT));
            }
            } else { d = d + f32acc(a1) + f32acc(a2); }
        } else {
            let a1 = bf16a(d);
            let a2 = bf16a(d - f32acc(a1));
            d = lnx;
            for (p in 0 .. KT / 64) unroll {
                d = wgmma(d, a1.cols(64 * p, 64), m1.rows(p * KT, KT));
                d = wgmma(d, a2.cols(64 * p, 64), m1.rows(p * KT, KT));
            }
            if (c + 1 < n) {             // L_{c+1}^T, a chunk ahead (after the products:
                                         // before them ptxas spills)
                lnx = fragment(l[b, h, c + 1].T, [v0, 0], KT, paired: true);
            }
        }
        if (DBG != 2 || c + 1 == n) { store(s[b, h, c].T, d, [v0, 0], paired: true); }
    }
    cp_async_wait(0);

    // the slots past the valid chunks
    var z: f32acc[64, KT] = 0.0;
    for (c in n .. C) {
        store(s[b, h, c].T, z, [v0, 0], paired: true);
    }
}

instance cpx<f32, f16, 128, 128, 2, 0> as cpx_f32_base;
instance cpx<f32, f16, 128, 128, 2, 1> as cpx_f32_noconv;
instance cpx<f32, f16, 128, 128, 2, 2> as cpx_f32_nostore;
instance cpx<f32, f16, 128, 128, 2, 3> as cpx_f32_nowgmma;
instance cpx<f32, f16, 128, 128, 2, 4> as cpx_f32_noL;
instance cpx<f32, f16, 128, 128, 2, 5> as cpx_f32_noM;
instance cpx<bf16, bf16, 128, 128, 1, 0> as cpx_bf16_base;
instance cpx<f32, f16, 128, 128, 2, 0> as cpx_f32_merged;
instance cpx<bf16, bf16, 128, 128, 1, 0> as cpx_bf16_merged;

// Experiment (session 46): M's three stages, each converted in place into its two f16 parts,
// so that M_{c+2} is on its way while chunk c runs.
kernel cpy<KT: i32, VT: i32, DBG: i32>(
        l: in f32[B, H, C, KT, VT], m: in f32[B, H, C, KT, KT], init: in f32[BI, H, KT, VT],
        nvalid: in i32[B], s: out f32[B, H, C, KT, VT])
    targets(sm_90a)
    threads(2 * VT)
    min_blocks(1)
    grid(B * H)
{
    shared mst: f32[3, KT, KT + PAD];                                // as copied
    shared mp: f16[3 * (KT * (KT + PAD) / 32), 64] swizzle(128) alias(mst);  // as parts
    let SR = KT * (KT + PAD) / 32;   // a stage in 128-byte rows
    let h = block.x % H;
    let b = block.x / H;
    let v0 = thread.x / 128 * 64;
    let n = min(max(nvalid[b], 0), C);
    let NT = 2 * VT;

    var d: f32acc[64, KT] = 0.0;
    if (n > 0) {
        if (b < BI) {
            d = fragment(init[b, h].T, [v0, 0], KT, paired: true);
        } else {
            d = fragment(l[b, h, 0].T, [v0, 0], KT, paired: true);
        }
        store(s[b, h, 0].T, d, [v0, 0], paired: true);
    }
    for (q in 1 .. 3) unroll {
        if (q < n) {
            for (u in 0 .. KT * KT / (8 * VT)) unroll {
                let e = 4 * thread.x + 4 * NT * u;
                cp_async(mst[q, e / KT, e % KT : 4], m[b, h, q, e / KT, e % KT : 4]);
            }
        }
        cp_async_commit();
    }
    var lnx: f32acc[64, KT] = 0.0;
    if (n > 1) {
        lnx = fragment(l[b, h, 1].T, [v0, 0], KT, paired: true);
    }
    for (c in 1 .. n) {
        let st = c % 3;
        let sb = st * SR;
        cp_async_wait(1);            // this thread's part of M_c has landed
        var x: f32x4[KT * KT / (8 * VT)] = 0.0;
        for (u in 0 .. KT * KT / (8 * VT)) unroll {
            let e = 4 * thread.x + 4 * NT * u;
            x[u] = f32x4(mst[st, e / KT, e % KT : 4]);
        }
        barrier();                   // every thread has read M_c's f32 copy (and every wgmma
                                     // of chunk c - 1 retired: M_{c+2} into its stage)
        if (c + 2 < n) {
            for (u in 0 .. KT * KT / (8 * VT)) unroll {
                let e = 4 * thread.x + 4 * NT * u;
                cp_async(mst[(c + 2) % 3, e / KT, e % KT : 4], m[b, h, c + 2, e / KT, e % KT : 4]);
            }
        }
        cp_async_commit();
        for (u in 0 .. KT * KT / (8 * VT)) unroll {
            let e = 4 * thread.x + 4 * NT * u;
            let i = e / KT;
            let j = e % KT;
            let r = j / 64 * KT + i;
            let col = ((j % 64 / 8) ^ (i % 8)) * 8 + j % 8;
            let hi = f16x4(x[u]);
            mp[sb + r, col : 4] = hi;
            mp[sb + KT / 64 * KT + r, col : 4] = f16x4(x[u] - f32x4(hi));
        }
        fence_proxy_async();
        barrier();
        let a1 = f16a(d);
        let a2 = f16a(d - f32acc(a1));
        d = lnx;
        if (c + 1 < n) {
            lnx = fragment(l[b, h, c + 1].T, [v0, 0], KT, paired: true);
        }
        for (p in 0 .. KT / 64) unroll {
            d = wgmma(d, a1.cols(64 * p, 64), mp.rows(sb + p * KT, KT));
            d = wgmma(d, a2.cols(64 * p, 64), mp.rows(sb + p * KT, KT));
            d = wgmma(d, a1.cols(64 * p, 64), mp.rows(sb + KT / 64 * KT + p * KT, KT));
        }
        store(s[b, h, c].T, d, [v0, 0], paired: true);
    }
    cp_async_wait(0);
    var z: f32acc[64, KT] = 0.0;
    for (c in n .. C) {
        store(s[b, h, c].T, z, [v0, 0], paired: true);
    }
}
instance cpy<128, 128, 0> as cpx_f32_inplace3;
instance cpy<128, 128, 0> as cpx_f32_inplace3m;

// Experiment (session 46): L_c by TMA into shared memory (one stage, read back transposed
// with paired rows) instead of every thread's register loads; M in two stages converted in
// place into its f16 parts.
kernel cpt<KT: i32, VT: i32>(
        l: in f32[B, H, C, KT, VT], m: in f32[B, H, C, KT, KT], init: in f32[BI, H, KT, VT],
        nvalid: in i32[B], s: out f32[B, H, C, KT, VT])
    targets(sm_90a)
    threads(2 * VT)
    min_blocks(1)
    grid(B * H)
{
    tensormap tl = tma(l, box[1, 1, 1, KT, 32], swizzle(128));
    mbarrier lfull(count: 1);
    shared sl: f32[VT / 32 * KT, 32] swizzle(128);    // L_c, panel q at rows q KT
    shared mst: f32[KT, KT];                          // M_{c+1} as copied
    shared m1: f16[KT / 64 * KT, 64] swizzle(128);    // f16(M_c)
    shared m2: f16[KT / 64 * KT, 64] swizzle(128);    // f16(M_c - m1)
    let h = block.x % H;
    let b = block.x / H;
    let wg = thread.x / 128;
    let v0 = wg * 64;
    let n = min(max(nvalid[b], 0), C);
    let NT = 2 * VT;

    var d: f32acc[64, KT] = 0.0;
    if (n > 0) {
        if (b < BI) {
            d = fragment(init[b, h].T, [v0, 0], KT, paired: true);
        } else {
            d = fragment(l[b, h, 0].T, [v0, 0], KT, paired: true);
        }
        store(s[b, h, 0].T, d, [v0, 0], paired: true);
    }
    if (n > 1) {
        for (u in 0 .. KT * KT / (4 * NT)) unroll {
            let e = 4 * thread.x + 4 * NT * u;
            cp_async(mst[e / KT, e % KT : 4], m[b, h, 1, e / KT, e % KT : 4]);
        }
    }
    cp_async_commit();
    if (n > 1 && warp == 0) {
        elect {
            mbar_expect_tx(lfull, KT * VT * 4);
            for (q in 0 .. VT / 32) unroll {
                tma_load(sl, tl, [b, h, 1, 0, 32 * q], lfull, part: q);
            }
            mbar_arrive(lfull);
        }
    }
    for (c in 1 .. n) {
        cp_async_wait(0);            // this thread's part of M_c (the elements it converts)
        barrier();                   // every warpgroup's products of chunk c - 1 are done
        for (u in 0 .. KT * KT / (4 * NT)) unroll {
            let e = 4 * thread.x + 4 * NT * u;
            let i = e / KT;
            let j = e % KT;
            let r = j / 64 * KT + i;
            let col = ((j % 64 / 8) ^ (i % 8)) * 8 + j % 8;
            let x = f32x4(mst[i, j : 4]);
            let hi = f16x4(x);
            m1[r, col : 4] = hi;
            m2[r, col : 4] = f16x4(x - f32x4(hi));
        }
        if (c + 1 < n) {             // M_{c+1} over the elements this thread has converted
            for (u in 0 .. KT * KT / (4 * NT)) unroll {
                let e = 4 * thread.x + 4 * NT * u;
                cp_async(mst[e / KT, e % KT : 4], m[b, h, c + 1, e / KT, e % KT : 4]);
            }
        }
        cp_async_commit();
        mbar_wait(lfull, (c - 1) % 2);
        let lc = fragment(sl.rows(2 * wg * KT, KT).T, [0, 0], KT, paired: true);
        fence_proxy_async();
        barrier();                   // the parts written, L_c read by all
        if (c + 1 < n && warp == 0) {
            elect {
                mbar_expect_tx(lfull, KT * VT * 4);
                for (q in 0 .. VT / 32) unroll {
                    tma_load(sl, tl, [b, h, c + 1, 0, 32 * q], lfull, part: q);
                }
                mbar_arrive(lfull);
            }
        }
        let a1 = f16a(d);
        let a2 = f16a(d - f32acc(a1));
        d = lc;
        for (p in 0 .. KT / 64) unroll {
            d = wgmma(d, a1.cols(64 * p, 64), m1.rows(p * KT, KT));
            d = wgmma(d, a2.cols(64 * p, 64), m1.rows(p * KT, KT));
            d = wgmma(d, a1.cols(64 * p, 64), m2.rows(p * KT, KT));
        }
        store(s[b, h, c].T, d, [v0, 0], paired: true);
    }
    cp_async_wait(0);
    var z: f32acc[64, KT] = 0.0;
    for (c in n .. C) {
        store(s[b, h, c].T, z, [v0, 0], paired: true);
    }
}
instance cpt<128, 128> as cpx_f32_tmal;
