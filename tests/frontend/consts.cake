// Compile-time constants: folded with exact, checked arithmetic; untyped literals take
// the type their context needs (i32 and f32 by default); -D replaces a constant's value,
// and everything derived from it (threads, shared sizes, grid, expressions) follows.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s --check-prefix=DEF
// RUN: %cakec --emit=ir --passes= -D BLOCK=128 -D SCALE=0.25 -D WIDE=0x100000000 -D FLAG=false %s | FileCheck %s --check-prefix=SET

const BLOCK: i32 = 256;
const WARPS = BLOCK / 32;
const SCALE: f32 = 0.5;
const WIDE: u64 = 1 << 40;
const FLAG: i1 = true;
const MASK: u32 = 0xffffffff;
const NEG: i8 = -128;
const H: f16 = 1.5;

kernel consts(o: out f32[BLOCK], w: out u64[1], h: out f16[1]) threads(BLOCK) grid(BLOCK / WARPS) {
    shared part: f32[WARPS];
    let t = thread.x;
    o[t] = SCALE * 3.0 + f32(WARPS - 1 + (7 >> 1) % 3);
    w[0] = WIDE + u64(MASK) + 1;
    h[0] = H;
    if (FLAG) {
        o[0] = f32(i32(NEG) + (t & 7));
    }
}

// DEF:      threads 256 1 1
// DEF-NEXT: grid "32" "1" "1"
// DEF:      shared part : f32 [8] align 16
// 0.5 * 3.0 + f32(8 - 1 + (7 >> 1) % 3) = 8.5
// DEF:      const 0x1.1p+3 : f32 !19:24
// 2^40 + (2^32 - 1) + 1
// DEF:      const 1103806595072 : u64 !20:29
// DEF:      const 0x1.8p+0 : f16 !21:12
// an if on a constant keeps the branch it takes, without an if (FLAG: the body)
// DEF-NOT:  {{= if| if }}
// DEF:      const -128 : i32 !23:20

// SET:      threads 128 1 1
// SET-NEXT: grid "32" "1" "1"
// SET:      shared part : f32 [4] align 16
// 0.25 * 3.0 + f32(4 - 1 + 0) = 3.75
// SET:      const 0x1.ep+1 : f32 !19:24
// SET:      const 8589934592 : u64 !20:29
// FLAG = false: neither the if nor its body
// SET-NOT:  {{= if| if |const -128}}
// SET:      ret
