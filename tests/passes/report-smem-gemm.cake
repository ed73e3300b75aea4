// The GEMM of docs/language.md (wgmma section) through the whole pipeline: --report=smem prints its
// layout (two barrier arrays, one stage group of sa and sb with a 48 KiB stride), and
// expand-async leaves none of the high-level ops, with the consumer's main loop keeping
// one wgmma group in flight.
// RUN: %cakec --report=smem %s | FileCheck %s --strict-whitespace --check-prefix=TABLE
// RUN: %cakec --emit=ir -O0 %s | FileCheck %s
// RUN: %cakec --emit=ir -O2 %s | FileCheck %s
// TABLE:      {{^}}kernel gemm_bf16: shared memory (sm_90a limit 232448 bytes)
// TABLE-NEXT: {{^}}  name        offset    bytes  stages  stride   align  alias
// TABLE-NEXT: {{^}}  ld.full          0       32       4       8       8  -
// TABLE-NEXT: {{^}}  ld.empty        32       32       4       8       8  -
// TABLE-NEXT: {{^}}  sa            1024    65536       4   49152    1024  -
// TABLE-NEXT: {{^}}  sb           17408   131072       4   49152    1024  -
// TABLE-NEXT: {{^}}  total       197632 bytes of 232448
// TABLE-NOT:  {{.}}
// CHECK-NOT: {{ (role|elect|produce|consume)[ [] }}
// CHECK: smem_bytes 197632
// CHECK: setmaxnreg[-40]
// CHECK: elect.sync
// 128 * 64 + 256 * 64 bf16 = 49152 bytes a stage
// CHECK: [[BYTES:%[0-9]+]] = const 49152 : i32
// CHECK: mbar.arrive.tx {{%[0-9]+}}, [[BYTES]]
// CHECK: tma.load[2]
// CHECK: tma.load[2]
// CHECK: setmaxnreg[232]
// CHECK: wgmma[256]
// CHECK: wgmma.commit
// CHECK: wgmma.wait[1]
// CHECK: mbar.arrive
// CHECK: wgmma.wait[0]
// CHECK: mbar.arrive
// CHECK-NOT: {{ (role|elect|produce|consume)[ [] }}

const BM: i32 = 128;
const BN: i32 = 256;
const BK: i32 = 64;
const STAGES: i32 = 4;

kernel gemm_bf16(a: in bf16[M, K], b: in bf16[N, K], c: out bf16[M, N])
    targets(sm_90a)
    threads(384)
    min_blocks(1)
    cluster(1)
    grid(min(num_sms, cdiv(M, BM) * cdiv(N, BN)))
{
    tensormap ta = tma(a, box[BM, BK], swizzle(128));
    tensormap tb = tma(b, box[BN, BK], swizzle(128));
    pipeline ld(stages: STAGES, full: tma, empty: warpgroup * 2);
    shared sa: bf16[BM, BK] in ld swizzle(128);
    shared sb: bf16[BN, BK] in ld swizzle(128);
    let ntn = cdiv(N, BN);
    let ntiles = cdiv(M, BM) * ntn;
    role producer(warpgroup 0) regs(40) {
        if (warp == 0) {
            elect {
                for (tile in block.x .. ntiles step grid_dim.x) {
                    let m0 = (tile / ntn) * BM;
                    let n0 = (tile % ntn) * BN;
                    for (kb in 0 .. cdiv(K, BK)) {
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
        for (tile in block.x .. ntiles step grid_dim.x) {
            let m0 = (tile / ntn) * BM;
            let n0 = (tile % ntn) * BN;
            var acc: f32acc[64, BN] = 0.0;
            for (kb in 0 .. cdiv(K, BK)) {
                consume ld {
                    acc = wgmma(acc, sa.rows(wg * 64, 64), sb);
                }
            }
            store(c, acc, [m0 + wg * 64, n0]);
        }
    }
}
