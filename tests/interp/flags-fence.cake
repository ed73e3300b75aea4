// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py make %t/x.npy '<f4' 64 'i - 7.5'
// RUN: python3 %S/Inputs/npy.py make %t/d.npy '<f4' 64 '0'
// RUN: python3 %S/Inputs/npy.py make %t/f.npy '<u4' 1 '0'
// RUN: python3 %S/Inputs/npy.py make %t/c.npy '<i4' 1 '0'
// RUN: %builddir/cakec-run --seeds 4 %s publish x=%t/x.npy data=%t/d.npy flag=%t/f.npy ctr=%t/c.npy o=%t/o.npy seen=%t/s.npy epoch=5 mode=0
// RUN: python3 %S/Inputs/npy.py print %t/o.npy | FileCheck %s --check-prefix=OUT
// RUN: python3 %S/Inputs/npy.py print %t/s.npy | FileCheck %s --check-prefix=SEEN
// RUN: python3 %S/Inputs/npy.py make %t/c.npy '<i4' 1 '0'
// RUN: %builddir/cakec-run --seeds 4 %s publish x=%t/x.npy data=%t/d.npy flag=%t/f.npy ctr=%t/c.npy o=%t/o.npy seen=%t/s.npy epoch=5 mode=1
// RUN: python3 %S/Inputs/npy.py print %t/o.npy | FileCheck %s --check-prefix=OUT
// RUN: python3 %S/Inputs/npy.py make %t/c.npy '<i4' 1 '0'
// RUN: %not %builddir/cakec-run %s publish x=%t/x.npy data=%t/d.npy flag=%t/f.npy ctr=%t/c.npy o=%t/o.npy seen=%t/s.npy epoch=5 mode=2 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: python3 %S/Inputs/npy.py make %t/c.npy '<i4' 1 '0'
// RUN: %not %builddir/cakec-run %s publish x=%t/x.npy data=%t/d.npy flag=%t/f.npy ctr=%t/c.npy o=%t/o.npy seen=%t/s.npy epoch=5 mode=3 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: python3 %S/Inputs/npy.py make %t/c.npy '<i4' 1 '0'
// RUN: %not %builddir/cakec-run %s publish x=%t/x.npy data=%t/d.npy flag=%t/f.npy ctr=%t/c.npy o=%t/o.npy seen=%t/s.npy epoch=5 mode=4 2>&1 | FileCheck %s --check-prefix=RACE

// Publishing a block's writes to another block (docs/language.md, "Flags between blocks
// and GPUs"), the ways PTX's memory model allows. The first block to start (a counter,
// so it always runs first) has both its warps write data, a barrier, then thread 0 sets
// the flag; the other reads the flag in thread 0, a barrier, then both warps read data.
// The race check must follow the barriers on both sides (a release passes on what its
// thread observed; an acquire covers what its CTA does after the next barrier) and the
// fence patterns:
//   mode 0: a gpu-scope fence, then a relaxed atomic write; a relaxed atomic read, then a
//           gpu-scope fence (CUDA's __threadfence() + atomicExch, atomicAdd + __threadfence())
//   mode 1: store_release and wait_ge
// OUT: shape (64,)
// OUT-NEXT: -14
// OUT-NEXT: -12
// SEEN: shape (1,)
// SEEN-NEXT: {{^1$}}
// Planted bugs, each a race on data: the reader's fence missing (mode 2), the writer's
// fence of cta scope, which orders nothing for another block (mode 3), the writer's fence
// missing (mode 4).
// RACE: flags-fence.cake:{{[0-9]+:[0-9]+}}: error: data race on global memory: this load and the store at line {{[0-9]+}}:{{[0-9]+}} (block ({{[01]}},0,0), warp {{[01]}}, lane {{[0-9]+}}) touch element {{[0-9]+}} of tensor 'data' (64 elements of 4 bytes) from different blocks, which nothing orders
kernel publish(x: in f32[64], data: inout f32[64], flag: inout u32[1], ctr: inout i32[1],
               o: out f32[64], seen: out i32[1], epoch: u32, mode: i32)
    targets(sm_90a)
    threads(64)
    grid(2)
{
    shared su: i32[1];
    if (thread.x == 0) {
        su[0] = atomic_add(ctr[0], 1);
    }
    barrier();
    if (su[0] == 0) {
        data[thread.x] = x[thread.x] * 2.0;
        barrier();
        if (thread.x == 0) {
            if (mode == 0 || mode == 2) {
                fence_acq_rel(scope: gpu);
            } else if (mode == 3) {
                fence_acq_rel(scope: cta);
            }
            if (mode == 1) {
                store_release(flag[0], epoch);
            } else {
                atomic_xchg(flag[0], epoch);
            }
        }
    } else {
        if (thread.x == 0) {
            var ok = false;
            if (mode == 1) {
                ok = wait_ge(flag[0], epoch, i64(1000000000));
            } else {
                ok = atomic_add(flag[0], u32(0)) == epoch;
                if (mode != 2) {
                    fence_acq_rel(scope: gpu);
                }
            }
            seen[0] = i32(ok);
        }
        barrier();
        o[thread.x] = data[thread.x] + 1.0;
    }
}
