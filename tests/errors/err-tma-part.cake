// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// tma_load(..., part: P) loads box P of a buffer cut along its first dimension into boxes
// of the tensor map: the box's other dimensions (those of 1 aside, as in k2) are the
// buffer's, each part keeps the TMA alignment (a whole swizzle atom when swizzled), and a
// constant P names one of the parts. Named arguments come once each, after the others.

kernel k(a: in bf16[M, K]) targets(sm_90a) threads(128) {
    tensormap th = tma(a, box[32, 64], swizzle(128));
    tensormap t48 = tma(a, box[48, 64], swizzle(128));
    tensormap tn = tma(a, box[32, 32], swizzle(64));
    tensormap t4 = tma(a, box[4, 64], swizzle(128));
    tensormap tu = tma(a, box[1, 32]);
    mbarrier bar(count: 1);
    shared sx: bf16[64, 64] swizzle(128);
    shared sn: bf16[64, 32] swizzle(64);
    shared su: bf16[8, 32];
    let p = thread.x % 2;
    elect {
        tma_load(sx, th, [0, 0], bar, part: p);
        tma_load(sx, th, [0, 0], bar, part: 1);
        tma_load(sx, th, [0, 0], bar, part: 2);
        tma_load(sx, th, [0, 0], bar, part: -1);
        tma_load(sx, t48, [0, 0], bar, part: 0);
        tma_load(sn, tn, [0, 0], bar, part: 0);
        tma_load(sx, tn, [0, 0], bar, part: 0);
        tma_load(sx, t4, [0, 0], bar, part: 0);
        tma_load(su, tu, [0, 0], bar, part: 0);
        tma_load(sx, th, [0, 0], bar, part: 0, part: 1);
        tma_load(sx, th, [0, 0], bar, part: 0.5);
        tma_load(sx, th, [0, 0], part: 0, bar);
    }
}

kernel k2(x: in bf16[B, L, H, 64]) targets(sm_90a) threads(128) {
    tensormap tl = tma(x, box[1, 32, 1, 64], swizzle(128));
    tensormap t2 = tma(x, box[1, 16, 2, 64], swizzle(128));
    mbarrier bar(count: 1);
    shared sx: bf16[64, 64] swizzle(128);
    elect {
        tma_load(sx, tl, [0, 0, 0, 0], bar, part: 1);
        tma_load(sx, t2, [0, 0, 0, 0], bar, part: 1);
    }
}

kernel k3(y: out bf16[B, L, H, 64]) targets(sm_90a) threads(32) {
    tensormap ty = tma(y, box[1, 32, 1, 64], swizzle(128));
    shared sy: bf16[64, 64] swizzle(128);
    elect {
        tma_store(ty, [0, 0, 0, 0], sy, part: 2);
    }
}

// CHECK: err-tma-part.cake:21:45: error: tma_load: part 2 of shared array 'sx', which holds 2 boxes of 'th' (parts 0 to 1)
// CHECK-NEXT: {{^}}        tma_load(sx, th, [0, 0], bar, part: 2);
// CHECK-NEXT: {{^}}                                            ^
// CHECK: err-tma-part.cake:22:45: error: tma_load: part -1 of shared array 'sx'
// CHECK: err-tma-part.cake:23:40: error: tma_load with part: loads one of the boxes that make up shared array 'sx' along its first dimension, but its [64, 64] is not a whole number of boxes [48, 64] of 't48'
// CHECK: err-tma-part.cake:25:9: error: tma_load: tensor map 'tn' has swizzle 64 but shared array 'sx' has swizzle 128
// CHECK: err-tma-part.cake:26:39: error: tma_load with part: a box of 't4' is 512 bytes, so the parts of 'sx' would not start on the 1024-byte alignment of the swizzle pattern
// CHECK: err-tma-part.cake:27:39: error: tma_load with part: a box of 'tu' is 64 bytes, so the parts of 'su' would not start on the 128-byte alignment TMA needs
// CHECK: err-tma-part.cake:28:48: error: 'tma_load' takes 'part:' once
// CHECK: err-tma-part.cake:29:45: error: cannot use the float constant 0.5 as i32
// CHECK: err-tma-part.cake:30:34: error: 'tma_load' takes the named arguments 'multicast:' and 'part:' last, found 'part:'
// CHECK: err-tma-part.cake:41:45: error: tma_load with part: loads one of the boxes that make up shared array 'sx' along its first dimension, but its [64, 64] is not a whole number of boxes [1, 16, 2, 64] of 't2'
// CHECK: err-tma-part.cake:49:47: error: tma_store: part 2 of shared array 'sy', which holds 2 boxes of 'ty' (parts 0 to 1)
