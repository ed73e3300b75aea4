// RUN: python3 %S/Inputs/npy.py make %t.a.npy '<f4' 48 'i + 1'
// RUN: %builddir/cakec-run --seeds 3 %s rowmin a=%t.a.npy out=%t.o.npy masked=0
// RUN: python3 %S/Inputs/npy.py print %t.o.npy | FileCheck %s --check-prefix=MISREAD
// RUN: %builddir/cakec-run --seeds 3 %s rowmin a=%t.a.npy out=%t.o.npy masked=1
// RUN: python3 %S/Inputs/npy.py print %t.o.npy | FileCheck %s --check-prefix=MASKED
// Planted bug: the minimum of a 48-element tensor from one TMA box of 64, which runs past
// the end: TMA fills the 16 elements outside the tensor with zero (the map's oob(zero)),
// and the kernel takes them for data, so the minimum of 1 .. 48 comes out 0. This is no
// error the interpreter can report (reading the fill is legal); it gives the fill the
// tensor map says, as the GPU does, so the wrong result shows against a reference, as in
// a GPU test. Masking the lanes past N (masked=1) gives 1.
// MISREAD: shape (1,)
// MISREAD-NEXT: {{^}}0{{$}}
// MASKED: shape (1,)
// MASKED-NEXT: {{^}}1{{$}}
kernel rowmin(a: in f32[N], out: out f32[1], masked: i32)
    targets(sm_90a)
    threads(32)
    grid(1)
{
    tensormap ta = tma(a, box[64]);
    mbarrier full(count: 1);
    shared s: f32[64] align(128);
    elect {
        mbar_expect_tx(full, 256);
        tma_load(s, ta, [0], full);
        mbar_arrive(full);
    }
    mbar_wait(full, 0);
    var v: f32 = s[lane];
    if (masked == 0 || lane + 32 < N) {
        v = min(v, s[lane + 32]);
    }
    for (o in 0 .. 5) {
        v = min(v, shfl_xor(v, 16 >> o));
    }
    if (lane == 0) {
        out[0] = v;
    }
}
