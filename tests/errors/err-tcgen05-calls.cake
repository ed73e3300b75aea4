// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// The language-level tcgen05 rules: tcgen05_mma needs 'accumulate:', bf16/f16 K-major
// operands of one 128-byte swizzle span, M = 128 and N within the accumulator, one thread
// (elect) and, for a staged accumulator, its pipeline's produce block; tmem_load fills an
// f32[N] register array (N a power of two), a whole warp (not in elect), inside its
// pipeline's consume block (read before commit); an unstaged accumulator written in one
// role and read in another is the accumulator write-after-read hazard; a kernel with
// tensor memory has no early return.

kernel k(a: in bf16[M, K], c: out f32[M, N]) targets(sm_100a) threads(256) {
    pipeline ld(stages: 2, full: tma, empty: mma);
    pipeline accp(stages: 2, full: mma, empty: warpgroup);
    shared sa: bf16[128, 64] in ld swizzle(128);
    shared sb: bf16[128, 64] in ld swizzle(128);
    shared sc: bf16[128, 32] in ld swizzle(64);
    shared sd: bf16[64, 64] in ld swizzle(128);
    tmem acc: f32[128, 128] in accp;
    tmem one: f32[128, 64];

    role mma(warp 1) {
        elect {
            produce accp {
                consume ld {
                    tcgen05_mma(acc, sa, sb);
                    tcgen05_mma(acc, sa, sc, accumulate: true);
                    tcgen05_mma(one, sa, sb.rows(0, 64), accumulate: false);
                }
            }
            consume ld {
                tcgen05_mma(acc, sa, sb, accumulate: false);
                tcgen05_mma(one, sa, sd, accumulate: false);
            }
        }
        produce accp {
            consume ld {
                tcgen05_mma(acc, sa, sb, accumulate: false);
            }
        }
    }
    role epilogue(warpgroup 1) {
        var r: f32[32] = tmem_load(acc, 0, 0);
        consume accp {
            var r2: f32[32] = tmem_load(acc, 32 * (warp % 4), 112);
            var r3: f32[12] = tmem_load(acc, 0, 0);
            elect {
                var r4: f32[8] = tmem_load(acc, 0, 0);
            }
        }
        var r5: f32[32] = tmem_load(one, 32 * (warp % 4), 0);
        c[0, 0] = tmem_load(one, 0, 0);
    }
    return;
}

// CHECK: err-tcgen05-calls.cake:24:21: error: tcgen05_mma needs 'accumulate: E' last: false overwrites the accumulator (the first K block of a tile), true adds to it
// CHECK-NEXT: {{^}}                    tcgen05_mma(acc, sa, sb);
// CHECK-NEXT: {{^}}                    ^
// CHECK: err-tcgen05-calls.cake:25:42: error: tcgen05_mma operand B 'sc' must be K-major with rows of one 128-byte swizzle span: bf16[rows, 64] swizzle(128)
// CHECK-NEXT: {{^}}                    tcgen05_mma(acc, sa, sc, accumulate: true);
// CHECK-NEXT: {{^}}                                         ^
// CHECK: err-tcgen05-calls.cake:26:45: error: tcgen05_mma takes a shared array
// CHECK-NEXT: {{^}}                    tcgen05_mma(one, sa, sb.rows(0, 64), accumulate: false);
// CHECK-NEXT: {{^}}                                            ^
// CHECK: err-tcgen05-calls.cake:30:17: error: tcgen05_mma writes tensor memory 'acc' of pipeline 'accp' only inside 'produce accp', which selects the stage and commits it to the readers
// CHECK-NEXT: {{^}}                tcgen05_mma(acc, sa, sb, accumulate: false);
// CHECK-NEXT: {{^}}                ^
// CHECK: err-tcgen05-calls.cake:36:17: error: tcgen05_mma is issued by one thread: write it inside elect { ... }
// CHECK-NEXT: {{^}}                tcgen05_mma(acc, sa, sb, accumulate: false);
// CHECK-NEXT: {{^}}                ^
// CHECK: err-tcgen05-calls.cake:41:26: error: tmem_load reads tensor memory 'acc' of pipeline 'accp' only inside 'consume accp', which waits for the commit of its MMAs
// CHECK-NEXT: {{^}}        var r: f32[32] = tmem_load(acc, 0, 0);
// CHECK-NEXT: {{^}}                         ^
// CHECK: err-tcgen05-calls.cake:43:63: error: tmem_load reads columns 112 .. 143 of tensor memory 'acc', which has 128
// CHECK-NEXT: {{^}}            var r2: f32[32] = tmem_load(acc, 32 * (warp % 4), 112);
// CHECK-NEXT: {{^}}                                                              ^
// CHECK: err-tcgen05-calls.cake:44:31: error: tmem_load fills a register array f32[N], N a power of two from 1 to 128 (the columns read), but 'r3' is f32[12]
// CHECK-NEXT: {{^}}            var r3: f32[12] = tmem_load(acc, 0, 0);
// CHECK-NEXT: {{^}}                              ^
// CHECK: err-tcgen05-calls.cake:46:34: error: tmem_load is warp-collective (each thread reads its lane): it cannot run inside elect
// CHECK-NEXT: {{^}}                var r4: f32[8] = tmem_load(acc, 0, 0);
// CHECK-NEXT: {{^}}                                 ^
// CHECK: err-tcgen05-calls.cake:49:27: error: tmem_load reads tensor memory 'one' in role 'epilogue' while role 'mma' writes it with tcgen05_mma: the next MMA may overwrite columns not yet read; declare it 'in PIPELINE' (full: mma) so that the reader releases each stage
// CHECK-NEXT: {{^}}        var r5: f32[32] = tmem_load(one, 32 * (warp % 4), 0);
// CHECK-NEXT: {{^}}                          ^
// CHECK-NEXT: err-tcgen05-calls.cake:31:17: note: the tcgen05_mma is here
// CHECK-NEXT: {{^}}                tcgen05_mma(one, sa, sd, accumulate: false);
// CHECK-NEXT: {{^}}                ^
// CHECK: err-tcgen05-calls.cake:50:19: error: tmem_load(...) initialises a register array: var r: f32[32] = tmem_load(acc, lane0, col0);
// CHECK-NEXT: {{^}}        c[0, 0] = tmem_load(one, 0, 0);
// CHECK-NEXT: {{^}}                  ^
// CHECK: err-tcgen05-calls.cake:52:5: error: kernel 'k' has tensor memory: it may not return early (every thread meets before its columns are freed at the end)
// CHECK-NEXT: {{^}}    return;
// CHECK-NEXT: {{^}}    ^
