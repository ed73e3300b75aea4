// cp_fixup: the context-parallel state fix-up of a chunked delta-rule prefill (docs/cp_fixup.md).
//
// Each chunk c of a sequence was computed from a zero state: it left a local state
// L_c [K, V] (f32) and a transfer matrix M_c [K, K] (f32, or bf16 with f32 accumulation).
// The fix-up makes the true states, sequentially over the chunks, for each (b, h):
//
//     S_0 = init[b, h]   (or L_0 when there is no initial state)
//     S_c = L_c + M_c S_{c-1}          c = 1 .. n_b - 1   (torch.baddbmm(L_c, M_c, S_{c-1}))
//     S_c = 0                          c = n_b .. C - 1   (past the sequence's valid chunks)
//
// with n_b = nvalid[b] clamped to 0 .. C. The initial state is optional: `init` is
// [BI, H, K, V] with BI = B (present) or BI = 0 (absent; no elements, data may be NULL).
//
// The SIMT design (for few heads and many chunks): columns of S are independent, so a
// block owns BV columns of one head's state, and one thread owns one row of them (KT
// threads, KT >= K; threads past K zero their rows of S, then take part in the barriers
// only). Per chunk, thread i computes row i: S_c[i, :] = L_c[i, :] + sum_j M_c[i, j]
// S_{c-1}[j, :], reading M_c's row i (its own) and all of S_{c-1} (the same row j for all
// threads: a broadcast) from shared memory, BV accumulators in registers. M_{c+1} is on
// its way by cp.async into the other half of a double buffer while chunk c accumulates,
// and L_{c+1}'s row is loaded into registers one chunk ahead. M's rows are padded by 4
// elements so that the threads' vector reads of their rows fall in different banks (row
// strides of 528 bytes for f32, 264 for bf16).
//
// With SPLIT = 2 two adjacent threads share a row: each takes half of the sum over j (4
// of every 8 rows), half of the row's copy of M, and the halves meet by one shuffle. For
// few blocks (B1 H2: 64 on 132 SMs) a block of one warp per scheduler issues an
// instruction every 7 cycles, waiting on each shared load and FMA: two threads per row
// give each scheduler two warps and halve each thread's chain.
//
// Generic parameters: T, M's element type; KT, the rows (and the largest K); BV, the
// columns a block owns (V must be a multiple of BV; K and V multiples of 4); SPLIT, the
// threads per row (1 or 2). The entry point picks the instance from K, V, B * H and the SM
// count (the `when` rules below).

const PAD: i32 = 4;                  // elements after each row of M in shared memory

kernel cp_fixup<T: f32 | bf16, KT: i32, BV: i32, SPLIT: i32 = 1>(
        l: in f32[B, H, C, K, V], m: in T[B, H, C, K, K], init: in f32[BI, H, K, V],
        nvalid: in i32[B], s: out f32[B, H, C, K, V])
    targets(sm_90a, sm_100a, sm_103a)
    threads(KT * SPLIT)
    min_blocks(1)                    // lets ptxas keep more shared loads in flight (below)
    grid(B * H * (V / BV))
    requires(K <= KT && V % BV == 0) // a thread per row, whole column slices
{
    shared ms: T[2, KT, KT + PAD];   // M_c and M_{c+1}
    shared ss: f32[KT, BV];          // S_{c-1}, the block's columns

    let nv = V / BV;
    let vb = block.x % nv;
    let h = block.x / nv % H;
    let b = block.x / nv / H;
    let v0 = vb * BV;
    let i = thread.x / SPLIT;        // the row
    let half = thread.x % SPLIT;     // which half of it (SPLIT = 2)
    let act = i < K;                 // this thread works on a row
    let lead = act && half == 0;     // ... and writes it
    let n = min(max(nvalid[b], 0), C);
    let NP = BV <= 8 ? 4 : 1;        // partial sums per column (below; as an array size and
                                     // a loop bound it is written out: a let is not a constant)

    // S_0: the initial state, or L_0
    var acc: f32x4[BV / 4] = 0.0;
    if (lead && n > 0) {
        if (b < BI) {
            for (q in 0 .. BV / 4) unroll {
                acc[q] = init[b, h, i, v0 + 4 * q : 4];
            }
        } else {
            for (q in 0 .. BV / 4) unroll {
                acc[q] = l[b, h, 0, i, v0 + 4 * q : 4];
            }
        }
        for (q in 0 .. BV / 4) unroll {
            ss[i, 4 * q : 4] = acc[q];
            s[b, h, 0, i, v0 + 4 * q : 4] = acc[q];
        }
    }
    // The sums below run over 8 rows at a time: when K is not a multiple of 8 the last
    // step reads rows K .. K + 3 of S and columns K .. K + 3 of M, which are zeros (rows
    // of the threads past K, columns past the copies), never stale shared memory.
    if (!act && half == 0) {
        for (q in 0 .. BV / 4) unroll {
            ss[i, 4 * q : 4] = f32x4(0.0);
        }
    } else if (act && K % 8 != 0) {
        for (r in 0 .. 4) unroll {
            ms[0, i, K + r] = 0.0;
            ms[1, i, K + r] = 0.0;
        }
    }
    // M_1 and L_1's row, ahead of the loop
    var lnx: f32x4[BV / 4] = 0.0;
    if (act && n > 1) {
        for (j in 4 * half .. K step 4 * SPLIT) {
            cp_async(ms[1, i, j : 4], m[b, h, 1, i, j : 4]);
        }
        if (half == 0) {
            for (q in 0 .. BV / 4) unroll {
                lnx[q] = l[b, h, 1, i, v0 + 4 * q : 4];
            }
        }
    }
    cp_async_commit();

    for (c in 1 .. n) {
        let cur = c % 2;
        // M_{c+1} into the other half (every thread is past its reads of M_{c-1}: the
        // barrier at the end of the previous chunk)
        if (act && c + 1 < n) {
            for (j in 4 * half .. K step 4 * SPLIT) {
                cp_async(ms[1 - cur, i, j : 4], m[b, h, c + 1, i, j : 4]);
            }
        }
        cp_async_commit();
        cp_async_wait(1);            // this thread's part of M_c has landed
        barrier();                   // everyone's part, and S_{c-1} in ss
        for (q in 0 .. BV / 4) unroll {
            acc[q] = lnx[q];
        }
        if (lead && c + 1 < n) {
            for (q in 0 .. BV / 4) unroll {
                lnx[q] = l[b, h, c + 1, i, v0 + 4 * q : 4];
            }
        }
        if (act) {
            // partial sums by j % 4 when the slice is narrow: four chains of K / 4
            // dependent FMAs instead of one of K (a block has 4 warps, one per scheduler:
            // nothing else hides the FMA latency); wide slices have chains enough
            var part: f32x4[BV <= 8 ? 4 : 1, BV / 4] = 0.0;
            for (q in 0 .. BV / 4) unroll {
                part[0, q] = acc[q];     // L_c starts the first sum (one sum: no extra registers)
            }
            // 8 rows a step, no remainder (rows and columns past K are zeros, above). With
            // ptxas's default register target this loop ran 27% slower than the same rows
            // as unroll(2) of 4 with a remainder: min_blocks(1) above restores the schedule
            // (bench/RESULTS.md section 16).
            // (SPLIT = 2: this thread's 4 of each 8 rows, j + 4 half .. j + 4 half + 3;
            // the two halves read different banks of M's row and of S)
            for (j in 0 .. K step 8) unroll(1) {
                let j0 = j + 4 * half;
                var mv: f32x4[2 / SPLIT] = 0.0;
                for (u in 0 .. 2 / SPLIT) unroll {
                    mv[u] = f32x4(ms[cur, i, j0 + 4 * u : 4]);
                }
                for (r in 0 .. 8 / SPLIT) unroll {
                    let mj = f32x4(mv[r / 4][r % 4]);
                    for (q in 0 .. BV / 4) unroll {
                        part[r % NP, q] = fma(mj, ss[j0 + r, 4 * q : 4], part[r % NP, q]);
                    }
                }
            }
            for (q in 0 .. BV / 4) unroll {
                acc[q] = part[0, q];
                for (p in 1 .. (BV <= 8 ? 4 : 1)) unroll {
                    acc[q] = acc[q] + part[p, q];
                }
            }
        }
        if (SPLIT == 2) {            // the other half's sum (every thread: a warp collective)
            for (q in 0 .. BV / 4) unroll {
                let o = acc[q];
                acc[q] = o + f32x4(shfl_xor(o.x, 1), shfl_xor(o.y, 1), shfl_xor(o.z, 1), shfl_xor(o.w, 1));
            }
        }
        barrier();                   // every thread has read S_{c-1} and M_c
        if (lead) {
            for (q in 0 .. BV / 4) unroll {
                ss[i, 4 * q : 4] = acc[q];
                s[b, h, c, i, v0 + 4 * q : 4] = acc[q];
            }
        }
    }
    cp_async_wait(0);

    // the slots past the valid chunks
    if (lead) {
        for (c in n .. C) {
            for (q in 0 .. BV / 4) unroll {
                s[b, h, c, i, v0 + 4 * q : 4] = f32x4(0.0);
            }
        }
    }
}

// The SIMT design with M shared by a cluster (for few heads): at B1 H2 the blocks of a head
// (32 slices of 4 columns) each copied the whole M_c from L2, and half of a chunk's time
// went to those copies (without them the kernel ran in 25 us instead of 48: bench/RESULTS.md
// section 41). Here CL blocks of one head form a cluster: block r loads boxes r and r + CL
// of M_c by TMA and multicasts them to all CL, so the cluster reads M_c once. The 2 CL
// boxes are panels of W columns (one 128-byte swizzle span: 32 f32 or 64 bf16), split
// into row blocks when there are more boxes than panels. Warp 0 issues the loads (one
// elected lane: a `ld` stage per chunk, two stages); warps 1 .. KT / 16 compute as the
// SIMT design with two threads per row, lanes l and l + 16, each reading 16 bytes of M's
// row per step (4 f32 or 8 bf16: half as many reads for bf16 as 8-byte ones). A thread
// reads row i's chunk q where TMA put it, at q ^ (i % 8): a quarter warp's 8 rows then
// fall in 8 different chunks (with the halves as adjacent lanes, rows i and i + 1 read
// chunks q, q + 1 and q ^ 1, (q + 1) ^ 1: the same two). Every warp takes part in the
// block barriers that hand S over, so one role holds the whole block (produce and
// consume are written inside a role). K must be a multiple of 8 (TMA's 16-byte row
// pitch); rows and columns of M past K are TMA's zeros.
kernel cp_fixup_mc<T: f32 | bf16, KT: i32, BV: i32, CL: i32, W: i32>(
        l: in f32[B, H, C, K, V], m: in T[B, H, C, K, K], init: in f32[BI, H, K, V],
        nvalid: in i32[B], s: out f32[B, H, C, K, V])
    targets(sm_90a, sm_100a, sm_103a)
    threads(32 + 2 * KT)
    min_blocks(1)
    cluster(CL)
    grid(B * H * (V / BV))
    requires(K <= KT && K % 8 == 0 && V % BV == 0 && V / BV % CL == 0)
{
    tensormap tm = tma(m, box[1, 1, 1, KT * KT / (W * 2 * CL), W], swizzle(128));
    pipeline ld(stages: 2, full: tma, empty: warp * (KT / 16));
    shared ms: T[KT * KT / W, W] in ld swizzle(128);   // panel p at rows p KT
    shared ss: f32[KT, BV];                             // S_{c-1}, the block's columns

    let nv = V / BV;
    let vb = block.x % nv;
    let h = block.x / nv % H;
    let b = block.x / nv / H;
    let v0 = vb * BV;
    let r = cluster_rank;
    let BR = KT * KT / (W * 2 * CL); // rows of a box: box q is panel q / (KT / BR), rows
    let NR = KT / BR;                // q % NR * BR; block r loads boxes r and r + CL
    let EC = W / 8;                  // elements in 16 bytes
    let t = thread.x - 32;           // the compute threads' index (warps 1 ..)
    let i = t / 32 * 16 + t % 16;    // the row: lanes l and l + 16 share it, so that a
    let half = t % 32 / 16;          // quarter warp reads 8 rows' chunks, all different
    let comp = warp > 0;
    let act = comp && i < K;
    let lead = act && half == 0;
    let n = min(max(nvalid[b], 0), C);
    let NP = BV <= 8 ? 4 : 1;        // partial sums per column, as in cp_fixup

    role all(warps 0 .. 2 * KT / 32) {
        // S_0: the initial state, or L_0
        var acc: f32x4[BV / 4] = 0.0;
        if (lead && n > 0) {
            if (b < BI) {
                for (q in 0 .. BV / 4) unroll {
                    acc[q] = init[b, h, i, v0 + 4 * q : 4];
                }
            } else {
                for (q in 0 .. BV / 4) unroll {
                    acc[q] = l[b, h, 0, i, v0 + 4 * q : 4];
                }
            }
            for (q in 0 .. BV / 4) unroll {
                ss[i, 4 * q : 4] = acc[q];
                s[b, h, 0, i, v0 + 4 * q : 4] = acc[q];
            }
        }
        if (comp && !act && half == 0) {
            for (q in 0 .. BV / 4) unroll {
                ss[i, 4 * q : 4] = f32x4(0.0);
            }
        }
        var lnx: f32x4[BV / 4] = 0.0;
        if (lead && n > 1) {
            for (q in 0 .. BV / 4) unroll {
                lnx[q] = l[b, h, 1, i, v0 + 4 * q : 4];
            }
        }
        if (warp == 0 && n > 1) {
            elect {
                produce ld {
                    tma_load(ms, tm, [b, h, 1, r % NR * BR, r / NR * W],
                             multicast: (1 << CL) - 1, part: r);
                    tma_load(ms, tm, [b, h, 1, (r + CL) % NR * BR, (r + CL) / NR * W],
                             multicast: (1 << CL) - 1, part: r + CL);
                }
            }
        }
        for (c in 1 .. n) {
            if (warp == 0 && c + 1 < n) {
                elect {
                    produce ld {
                        tma_load(ms, tm, [b, h, c + 1, r % NR * BR, r / NR * W],
                                 multicast: (1 << CL) - 1, part: r);
                        tma_load(ms, tm, [b, h, c + 1, (r + CL) % NR * BR, (r + CL) / NR * W],
                                 multicast: (1 << CL) - 1, part: r + CL);
                    }
                }
            }
            barrier();               // S_{c-1} in ss
            for (q in 0 .. BV / 4) unroll {
                acc[q] = lnx[q];
            }
            if (lead && c + 1 < n) {
                for (q in 0 .. BV / 4) unroll {
                    lnx[q] = l[b, h, c + 1, i, v0 + 4 * q : 4];
                }
            }
            if (comp) {
                consume ld {
                    if (act) {
                        var part: f32x4[BV <= 8 ? 4 : 1, BV / 4] = 0.0;
                        for (q in 0 .. BV / 4) unroll {
                            part[0, q] = acc[q];
                        }
                        // this thread's EC of each 2 EC rows of S_{c-1}, j0 .. j0 + EC - 1,
                        // and M_c[i, j0 .. j0 + EC - 1], one 16-byte chunk: panel j0 / W,
                        // chunk (j0 % W) / EC
                        for (j in 0 .. K step 2 * EC) unroll(1) {
                            let j0 = j + EC * half;
                            let col = ((j0 % W) / EC ^ i % 8) * EC;
                            var mv: f32[W / 8] = load(ms, [j0 / W * KT + i, col]);
                            for (u in 0 .. W / 8) unroll {
                                let mj = f32x4(mv[u]);
                                for (q in 0 .. BV / 4) unroll {
                                    part[u % NP, q] = fma(mj, ss[j0 + u, 4 * q : 4], part[u % NP, q]);
                                }
                            }
                        }
                        for (q in 0 .. BV / 4) unroll {
                            acc[q] = part[0, q];
                            for (p in 1 .. (BV <= 8 ? 4 : 1)) unroll {
                                acc[q] = acc[q] + part[p, q];
                            }
                        }
                    }
                }
                for (q in 0 .. BV / 4) unroll {   // the other half's sum
                    let o = acc[q];
                    acc[q] = o + f32x4(shfl_xor(o.x, 16), shfl_xor(o.y, 16), shfl_xor(o.z, 16), shfl_xor(o.w, 16));
                }
            }
            barrier();               // every thread has read S_{c-1}
            if (lead) {
                for (q in 0 .. BV / 4) unroll {
                    ss[i, 4 * q : 4] = acc[q];
                    s[b, h, c, i, v0 + 4 * q : 4] = acc[q];
                }
            }
        }
        // the slots past the valid chunks
        if (lead) {
            for (c in n .. C) {
                for (q in 0 .. BV / 4) unroll {
                    s[b, h, c, i, v0 + 4 * q : 4] = f32x4(0.0);
                }
            }
        }
    }
}

// The MMA design (for many heads): the fix-up as a chain of tensor-core products. A block
// owns one head's state, one warpgroup per 64 of its columns, and keeps its columns'
// state transposed in the warpgroup's accumulator: D = S^T (64 x K, rows v, columns i),
// so that S_c^T = L_c^T + S_{c-1}^T M_c^T is wgmma with the previous accumulator as
// operand A in registers (the RS form: no shared-memory round trip for S) and M_c, as it
// lies in memory (row i, K-major), as operand B. 16-bit tensor cores keep the f32
// accuracy by splitting S = S1 + S2 (S1 = P(S), S2 = P(S - S1)), two products:
// - bf16 transfers (P = bf16, MP = 1): M is exact in bf16; S1 M + S2 M misses only S's
//   bits past 16 (2^-17 of S);
// - f32 transfers (P = f16, MP = 2): M = M1 + M2 likewise and S1 M1 + S2 M1 + S1 M2; f16's
//   11 significant bits leave 2^-21 of the product (bf16 parts measured 1.3e-4 against
//   the test's 1e-4), at the price of f16's range: elements of S and M beyond 65504
//   overflow to inf (the SIMT design has no such limit; docs/cp_fixup.md).
// M_c arrives by cp.async into a double buffer (M_{c+1} in flight while chunk c
// multiplies), then every thread converts its share into the swizzled operand arrays.
// L_c^T is read as a transposed fragment one chunk ahead; S_c^T is stored the same way,
// both with paired rows (a thread's two rows are adjacent columns of L and S: one 8-byte
// access where there were two; only the rows' order changes, which wgmma does not see).
//
// Generic parameters: T, M's element type; P, the parts' type; KT = K and VT = V (64 or
// 128: constant dimensions, so that the transposed accesses' column strides are
// immediates, not 64-bit offsets held in registers across the loop); MP, M's parts (2 for
// f32, 1 for bf16). A block owns one head's whole state: VT / 64 warpgroups.
kernel cp_fixup_mma<T: f32 | bf16, P: bf16 | f16, KT: i32, VT: i32, MP: i32>(
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
        // unrolled (as loops, these copies cost LLVM's strength reduction 5 ms), each copy
        // at row i, column j of M: element e = 4 thread.x + 4 NT u of the row-major KT x KT,
        // its row and column written apart, as 4 NT is a multiple of KT (VT, KT in {64,
        // 128}): as e / KT and e % KT, LLVM recomputed both for every copy (a third of the
        // kernel's PTX) and its strength reduction searched them for 10 ms of a 50 ms
        // compile (bench/RESULTS.md section 48)
        for (u in 0 .. KT * KT / (4 * NT)) unroll {
            let i = 4 * thread.x / KT + 4 * NT / KT * u;
            let j = 4 * thread.x % KT;
            cp_async(mst[1, i, j : 4], m[b, h, 1, i, j : 4]);
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
        if (c + 1 < n) {
            for (u in 0 .. KT * KT / (4 * NT)) unroll {
                let i = 4 * thread.x / KT + 4 * NT / KT * u;
                let j = 4 * thread.x % KT;
                cp_async(mst[1 - cur, i, j : 4], m[b, h, c + 1, i, j : 4]);
            }
        }
        cp_async_commit();
        cp_async_wait(1);            // this thread's part of M_c has landed
        barrier();                   // everyone's; and every wgmma of chunk c - 1 retired
        // M_c into the operand arrays: element (i, j) is row (j / 64) KT + i, its 16-byte
        // chunk (j % 64) / 8 swizzled by the row (128-byte swizzle: chunk ^ row % 8)
        for (e in 4 * thread.x .. KT * KT step 4 * NT) unroll(1) {
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
            if (c + 1 < n) {             // L_{c+1}^T, a chunk ahead
                lnx = fragment(l[b, h, c + 1].T, [v0, 0], KT, paired: true);
            }
            for (p in 0 .. KT / 64) unroll {
                d = wgmma(d, a1.cols(64 * p, 64), m1.rows(p * KT, KT));
                d = wgmma(d, a2.cols(64 * p, 64), m1.rows(p * KT, KT));
                d = wgmma(d, a1.cols(64 * p, 64), m2.rows(p * KT, KT));
            }
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
        store(s[b, h, c].T, d, [v0, 0], paired: true);
    }
    cp_async_wait(0);

    // the slots past the valid chunks
    var z: f32acc[64, KT] = 0.0;
    for (c in n .. C) {
        store(s[b, h, c].T, z, [v0, 0], paired: true);
    }
}

// The entry point's rules, in order, for each M type. The MMA design (K = V = 64 or 128
// and the mixed pairs: constant dimensions) at K = 64 as soon as the SIMT design's
// 8-column slices would need more than one wave (measured, the MMA design wins from 32
// heads at K = V = 64; bench/RESULTS.md section 27), at K = 128 once there are more heads
// than an eighth of the SMs (17 on 132: up to 16 the clusters sharing M below are as fast
// or faster, 1.3x at 12 heads; at 32 heads and V = 64 they are 1.3x slower; section 42).
// Else the SIMT design: K <= 64 runs on 64 threads; 32-column slices when they give every
// SM a block, for K a multiple of 8, clusters that share M with 4-column slices while
// those need at most four waves (clusters of 4 where the grid fills at most half of the
// SMs, else of 2, which fit the GPCs better); else 8-column slices when they fill at least
// half of the SMs, else the narrowest, with two threads per row when even these leave SMs
// idle (the K = 128 instance, any K).
instance cp_fixup_mma<f32, f16, 128, 128, 2> as cp_fixup_mma_f32_k128_v128 entry cp_fixup when (8 * B * H > num_sms);
instance cp_fixup_mma<f32, f16, 128, 64, 2> as cp_fixup_mma_f32_k128_v64 entry cp_fixup when (8 * B * H > num_sms);
instance cp_fixup_mma<f32, f16, 64, 128, 2> as cp_fixup_mma_f32_k64_v128 entry cp_fixup when (B * H * (VT / 8) > num_sms);
instance cp_fixup_mma<f32, f16, 64, 64, 2> as cp_fixup_mma_f32_k64_v64 entry cp_fixup when (B * H * (VT / 8) > num_sms);
instance cp_fixup<f32, 64, 32> as cp_fixup_f32_k64_bv32 when (K <= 64 && B * H * (V / 32) >= num_sms && V % 32 == 0);
instance cp_fixup<f32, 64, 8> as cp_fixup_f32_k64_bv8 when (K <= 64 && 2 * B * H * (V / 8) > num_sms && V % 8 == 0);
instance cp_fixup<f32, 64, 4> as cp_fixup_f32_k64_bv4 when (K <= 64 && B * H * (V / 4) >= num_sms);
instance cp_fixup<f32, 128, 32> as cp_fixup_f32_k128_bv32 when (B * H * (V / 32) >= num_sms && V % 32 == 0);
instance cp_fixup_mc<f32, 128, 4, 4, 32> as cp_fixup_f32_k128_bv4c4 entry cp_fixup when (2 * B * H * (V / 4) <= num_sms && K % 8 == 0 && V % 16 == 0);
instance cp_fixup_mc<f32, 128, 4, 2, 32> as cp_fixup_f32_k128_bv4c2 entry cp_fixup when (B * H * (V / 4) <= 4 * num_sms && K % 8 == 0 && V % 8 == 0);
instance cp_fixup<f32, 128, 8> as cp_fixup_f32_k128_bv8 when (2 * B * H * (V / 8) > num_sms && V % 8 == 0);
instance cp_fixup<f32, 128, 4, 2> as cp_fixup_f32_k128_bv4s2 when (B * H * (V / 4) < num_sms && V % 4 == 0);
instance cp_fixup<f32, 128, 4> as cp_fixup_f32_k128_bv4;
instance cp_fixup_mma<bf16, bf16, 128, 128, 1> as cp_fixup_mma_bf16_k128_v128 entry cp_fixup when (8 * B * H > num_sms);
instance cp_fixup_mma<bf16, bf16, 128, 64, 1> as cp_fixup_mma_bf16_k128_v64 entry cp_fixup when (8 * B * H > num_sms);
instance cp_fixup_mma<bf16, bf16, 64, 128, 1> as cp_fixup_mma_bf16_k64_v128 entry cp_fixup when (B * H * (VT / 8) > num_sms);
instance cp_fixup_mma<bf16, bf16, 64, 64, 1> as cp_fixup_mma_bf16_k64_v64 entry cp_fixup when (B * H * (VT / 8) > num_sms);
instance cp_fixup<bf16, 64, 32> as cp_fixup_bf16_k64_bv32 when (K <= 64 && B * H * (V / 32) >= num_sms && V % 32 == 0);
instance cp_fixup<bf16, 64, 8> as cp_fixup_bf16_k64_bv8 when (K <= 64 && 2 * B * H * (V / 8) > num_sms && V % 8 == 0);
instance cp_fixup<bf16, 64, 4> as cp_fixup_bf16_k64_bv4 when (K <= 64 && B * H * (V / 4) >= num_sms);
instance cp_fixup<bf16, 128, 32> as cp_fixup_bf16_k128_bv32 when (B * H * (V / 32) >= num_sms && V % 32 == 0);
instance cp_fixup_mc<bf16, 128, 4, 4, 64> as cp_fixup_bf16_k128_bv4c4 entry cp_fixup when (2 * B * H * (V / 4) <= num_sms && K % 8 == 0 && V % 16 == 0);
instance cp_fixup_mc<bf16, 128, 4, 2, 64> as cp_fixup_bf16_k128_bv4c2 entry cp_fixup when (B * H * (V / 4) <= 4 * num_sms && K % 8 == 0 && V % 8 == 0);
instance cp_fixup<bf16, 128, 8> as cp_fixup_bf16_k128_bv8 when (2 * B * H * (V / 8) > num_sms && V % 8 == 0);
instance cp_fixup<bf16, 128, 4, 2> as cp_fixup_bf16_k128_bv4s2 when (B * H * (V / 4) < num_sms && V % 4 == 0);
instance cp_fixup<bf16, 128, 4> as cp_fixup_bf16_k128_bv4;
