// '&&', '||' and '?:' run a side that touches memory only when it is taken, as C does: the
// threads past n never read x[n ..] (the interpreter would report the load), and the
// atomic in an arm counts only the threads that take it. x[i] = i % 7 - 3 for i < 100:
// 42 positive, 44 negative; the 28 threads past n take the '||' without reading x.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py make %t/x.npy '<f4' 100 '(i % 7) - 3.0'
// RUN: python3 %S/Inputs/npy.py make %t/cnt.npy '<i4' 5 '0'
// RUN: %builddir/cakec-run --seeds 2 %s lazy x=%t/x.npy cnt=%t/cnt.npy
// RUN: python3 %S/Inputs/npy.py print %t/cnt.npy | tr '\n' ' ' | FileCheck %s
// CHECK: shape (5,) 42 72 42 42 128

fn pos(x: in f32[N], i: i32) -> i32 {
    return x[i] > 0.0 ? 1 : 0;
}

kernel lazy(x: in f32[n], cnt: inout i32[5])
    targets(sm_90a)
    threads(128)
    grid(1)
{
    let i = thread.x;
    let a = i < n && x[i] > 0.0;
    let b = i >= n || x[i] < 0.0;
    let v = i < n ? x[i] : -1.0;
    let t = a ? atomic_add(cnt[3], 1) : -1;
    atomic_add(cnt[0], a ? 1 : 0);
    atomic_add(cnt[1], b ? 1 : 0);
    atomic_add(cnt[2], i < n ? pos(x, i) : 0);
    atomic_add(cnt[4], t >= 0 || v <= 0.0 ? 1 : 0);
}
