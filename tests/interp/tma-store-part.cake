// RUN: python3 %S/Inputs/npy.py make %t.o.npy '<f4' 64 '-1'
// tma_store(..., part: p) stores box p of a buffer of boxes: s holds 64 values in two
// 32-element boxes of `to`; part 1 goes to elements 0 .. 31 of o and part 0 to 32 .. 63,
// so o is s's halves swapped.
// RUN: %builddir/cakec-run --seeds 3 %s swap o=%t.o.npy
// RUN: python3 %S/Inputs/npy.py print %t.o.npy | FileCheck %s
// CHECK: shape (64,)
// CHECK-NEXT: {{^}}32{{$}}
// CHECK-NEXT: {{^}}33{{$}}
// CHECK: {{^}}63{{$}}
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: {{^}}1{{$}}
// CHECK: {{^}}31{{$}}
// CHECK-NOT: {{.}}
kernel swap(o: out f32[N])
    targets(sm_90a)
    threads(32)
    grid(1)
{
    tensormap to = tma(o, box[32]);
    shared s: f32[64] align(128);
    s[thread.x] = f32(thread.x);
    s[32 + thread.x] = f32(32 + thread.x);
    fence_proxy_async();
    elect {
        tma_store(to, [0], s, part: 1);
        tma_store(to, [32], s, part: 0);
        tma_store_wait();
    }
}
