// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// tmem_store(D, lane0, col0, r), the language-level rules (the operand checks shared with
// tmem_load): four arguments, the last a register array f32[N] (N a power of two from 1
// to 128: also tmem_load's), columns within D when col0 is constant, a whole warp (not in
// elect), a staged D only inside 'consume' of its pipeline (its release orders the store
// before the next MMAs), never an unstaged D (nothing would).

kernel k(c: out f32[M, N]) targets(sm_100a) threads(256) {
    pipeline accp(stages: 2, full: mma, empty: warpgroup);
    tmem acc: f32[128, 128] in accp;
    tmem one: f32[128, 64];
    shared sa: f32[128];

    role epilogue(warpgroup 1) {
        var r: f32[32] = 0.0;
        let x = 1.0;
        tmem_store(acc, 32 * (warp % 4), 0, r);
        consume accp {
            tmem_store(acc, 32 * (warp % 4), 0);
            tmem_store(acc, 32 * (warp % 4), 0, x);
            tmem_store(acc, 32 * (warp % 4), 0, c);
            var ri: i32[4] = 0;
            tmem_store(acc, 32 * (warp % 4), 0, ri);
            var r12: f32[12] = 0.0;
            tmem_store(acc, 32 * (warp % 4), 0, r12);
            var r256: f32[256] = 0.0;
            tmem_store(acc, 32 * (warp % 4), 0, r256);
            var l256: f32[256] = tmem_load(acc, 32 * (warp % 4), 0);
            tmem_store(acc, 32 * (warp % 4), 112, r);
            tmem_store(acc, 32 * (warp % 4), 1.5, r);
            tmem_store(sa, 32 * (warp % 4), 0, r);
            elect {
                tmem_store(acc, 32 * (warp % 4), 0, r);
            }
            tmem_store(one, 32 * (warp % 4), 0, r);
            tmem_store(acc, 32 * (warp % 4), 96, r);
            tmem_store(acc, 32 * (warp % 4), 32 * (warp % 4), r);
        }
    }
}

// CHECK: err-tcgen05-store.cake:17:9: error: tmem_store writes tensor memory 'acc' of pipeline 'accp' only inside 'consume accp', whose release orders the store before the next MMAs into the stage
// CHECK-NEXT: {{^}}        tmem_store(acc, 32 * (warp % 4), 0, r);
// CHECK-NEXT: {{^}}        ^
// CHECK: err-tcgen05-store.cake:19:13: error: 'tmem_store' takes tensor memory, the first lane, the first column and a register array, found 3 arguments
// CHECK-NEXT: {{^}}            tmem_store(acc, 32 * (warp % 4), 0);
// CHECK-NEXT: {{^}}            ^
// CHECK: err-tcgen05-store.cake:20:49: error: tmem_store writes a register array (var r: f32[N]) into tensor memory: name one as its last argument
// CHECK-NEXT: {{^}}            tmem_store(acc, 32 * (warp % 4), 0, x);
// CHECK-NEXT: {{^}}                                                ^
// CHECK: err-tcgen05-store.cake:21:49: error: tmem_store writes a register array (var r: f32[N]) into tensor memory: name one as its last argument
// CHECK-NEXT: {{^}}            tmem_store(acc, 32 * (warp % 4), 0, c);
// CHECK-NEXT: {{^}}                                                ^
// CHECK: err-tcgen05-store.cake:23:13: error: tmem_store stores a register array f32[N], N a power of two from 1 to 128 (the columns written), but 'ri' is i32[4]
// CHECK-NEXT: {{^}}            tmem_store(acc, 32 * (warp % 4), 0, ri);
// CHECK-NEXT: {{^}}            ^
// CHECK: err-tcgen05-store.cake:25:13: error: tmem_store stores a register array f32[N], N a power of two from 1 to 128 (the columns written), but 'r12' is f32[12]
// CHECK-NEXT: {{^}}            tmem_store(acc, 32 * (warp % 4), 0, r12);
// CHECK-NEXT: {{^}}            ^
// CHECK: err-tcgen05-store.cake:27:13: error: tmem_store stores a register array f32[N], N a power of two from 1 to 128 (the columns written), but 'r256' is f32[256]
// CHECK-NEXT: {{^}}            tmem_store(acc, 32 * (warp % 4), 0, r256);
// CHECK-NEXT: {{^}}            ^
// CHECK: err-tcgen05-store.cake:28:34: error: tmem_load fills a register array f32[N], N a power of two from 1 to 128 (the columns read), but 'l256' is f32[256]
// CHECK-NEXT: {{^}}            var l256: f32[256] = tmem_load(acc, 32 * (warp % 4), 0);
// CHECK-NEXT: {{^}}                                 ^
// CHECK: err-tcgen05-store.cake:29:46: error: tmem_store writes columns 112 .. 143 of tensor memory 'acc', which has 128
// CHECK-NEXT: {{^}}            tmem_store(acc, 32 * (warp % 4), 112, r);
// CHECK-NEXT: {{^}}                                             ^
// CHECK: err-tcgen05-store.cake:30:46: error: cannot use the float constant 1.5 as i32 (convert it with i32(...))
// CHECK-NEXT: {{^}}            tmem_store(acc, 32 * (warp % 4), 1.5, r);
// CHECK-NEXT: {{^}}                                             ^
// CHECK: err-tcgen05-store.cake:31:24: error: tmem_store takes tensor memory first, but 'sa' is a shared array
// CHECK-NEXT: {{^}}            tmem_store(sa, 32 * (warp % 4), 0, r);
// CHECK-NEXT: {{^}}                       ^
// CHECK: err-tcgen05-store.cake:33:17: error: tmem_store is warp-collective (each thread writes its lane): it cannot run inside elect
// CHECK-NEXT: {{^}}                tmem_store(acc, 32 * (warp % 4), 0, r);
// CHECK-NEXT: {{^}}                ^
// CHECK: err-tcgen05-store.cake:35:24: error: tmem_store writes tensor memory 'one', which is in no pipeline: nothing would order the store before the MMAs that read it; declare it 'in PIPELINE' (full: mma) and store inside 'consume PIPELINE'
// CHECK-NEXT: {{^}}            tmem_store(one, 32 * (warp % 4), 0, r);
// CHECK-NEXT: {{^}}                       ^
