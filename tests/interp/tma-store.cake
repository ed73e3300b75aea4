// RUN: python3 %S/Inputs/npy.py make %t.a.npy '<f4' 48 'i'
// RUN: python3 %S/Inputs/npy.py make %t.o.npy '<f4' 48 '-1'
// A TMA store of a 32-element box at element 32 of a 48-element tensor: the box's part
// outside the tensor is not written, elements 0 .. 31 keep their value.
// RUN: %builddir/cakec-run --seeds 3 %s store a=%t.a.npy o=%t.o.npy early=0
// RUN: python3 %S/Inputs/npy.py print %t.o.npy | FileCheck %s --check-prefix=STORE
// STORE: shape (48,)
// STORE-COUNT-32: {{^}}-1{{$}}
// STORE-NEXT: {{^}}32{{$}}
// STORE-NEXT: {{^}}34{{$}}
// STORE: {{^}}62{{$}}
// STORE-NOT: {{.}}
// Planted bug: a thread overwrites the source while the store still reads it.
// RUN: %not %builddir/cakec-run %s store a=%t.a.npy o=%t.o.npy early=1 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: tma-store.cake:[[@LINE+19]]:21: error: store to shared memory that a TMA store in flight still reads (wait for it first: tma_store_wait): byte offset 0 (element 0) of shared buffer 's'
kernel store(a: in f32[N], o: inout f32[N], early: i32)
    targets(sm_90a)
    threads(32)
    grid(1)
{
    tensormap to = tma(o, box[32]);
    shared s: f32[32] align(128);
    s[thread.x] = a[thread.x] * 2.0 + 32.0;
    fence_proxy_async();
    elect {
        tma_store(to, [32], s);
        if (early == 0) {
            tma_store_wait();
        }
    }
    if (early == 0) {
        // done
    } else {
        s[thread.x] = 0.0;
    }
}
