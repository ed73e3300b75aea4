// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py make %t/x.npy '<f4' 32 'i - 7.5'
// RUN: python3 %S/Inputs/npy.py make %t/d.npy '<f4' 32 '0'
// RUN: python3 %S/Inputs/npy.py make %t/f.npy '<u4' 32 '4'
// RUN: %builddir/cakec-run --seeds 4 %s handoff x=%t/x.npy data=%t/d.npy flags=%t/f.npy o=%t/o.npy seen=%t/s.npy epoch=5 mode=0
// RUN: python3 %S/Inputs/npy.py print %t/o.npy | FileCheck %s --check-prefix=OUT
// RUN: python3 %S/Inputs/npy.py print %t/s.npy | FileCheck %s --check-prefix=SEEN
// RUN: python3 %S/Inputs/npy.py print %t/f.npy | FileCheck %s --check-prefix=FLAGS
// RUN: python3 %S/Inputs/npy.py make %t/f.npy '<u4' 32 '4'
// RUN: %not %builddir/cakec-run --seeds 2 %s handoff x=%t/x.npy data=%t/d.npy flags=%t/f.npy o=%t/o.npy seen=%t/s.npy epoch=5 mode=1 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: python3 %S/Inputs/npy.py make %t/f.npy '<u4' 32 '4'
// RUN: %not %builddir/cakec-run --seeds 2 %s handoff x=%t/x.npy data=%t/d.npy flags=%t/f.npy o=%t/o.npy seen=%t/s.npy epoch=5 mode=2 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: python3 %S/Inputs/npy.py make %t/f4.npy '<u4' 4 '[7, 3, 2, 4294967295][i]'
// RUN: python3 %S/Inputs/npy.py make %t/st.npy '<i4' 1 '0'
// RUN: %builddir/cakec-run --seeds 3 %s lonely flags=%t/f4.npy status=%t/st.npy epoch=5
// RUN: python3 %S/Inputs/npy.py print %t/st.npy | FileCheck %s --check-prefix=LATE2
// RUN: python3 %S/Inputs/npy.py make %t/st.npy '<i4' 1 '0'
// RUN: %builddir/cakec-run %s lonely flags=%t/f4.npy status=%t/st.npy epoch=4294967294
// RUN: python3 %S/Inputs/npy.py print %t/st.npy | FileCheck %s --check-prefix=LATE0

// Flags between warps (docs/language.md, "Flags between blocks and GPUs"). Warp 1 writes
// data and then publishes each element with store_release; warp 0 waits for its lane's
// flag with wait_ge and then reads the element. Whichever warp the schedule runs first,
// the waiter sees the data (o = 2 x + 1) and its flag (seen = 1), and the race check
// orders the write before the read through the release and the acquire that read it.
// OUT: shape (32,)
// OUT-NEXT: -14
// OUT-NEXT: -12
// OUT-NEXT: -10
// SEEN: shape (32,)
// SEEN-COUNT-32: {{^1$}}
// FLAGS: shape (32,)
// FLAGS-COUNT-32: {{^5$}}
// Planted bugs: the reader does not wait (mode 1), or the writer publishes before it
// writes (mode 2): the write and the read are unordered.
// RACE: flags.cake:{{[0-9]+:[0-9]+}}: error: data race on global memory: this {{load|store}} and the {{load|store}} at line {{[0-9]+}}:{{[0-9]+}} (warp {{[01]}}, lane 0) touch element 0 of tensor 'data' (32 elements of 4 bytes) with no barrier between them
kernel handoff(x: in f32[32], data: inout f32[32], flags: inout u32[32], o: out f32[32], seen: out i32[32],
               epoch: u32, mode: i32)
    targets(sm_90a)
    threads(64)
    grid(1)
{
    if (warp == 1) {
        if (mode == 2) {
            store_release(flags[lane], epoch);
        }
        data[lane] = x[lane] * 2.0;
        if (mode != 2) {
            store_release(flags[lane], epoch);
        }
    } else {
        var ok = true;
        if (mode != 1) {
            ok = wait_ge(flags[lane], epoch, i64(1000000000));
        }
        seen[lane] = i32(ok);
        o[lane] = data[lane] + 1.0;
    }
}

// A flag that nothing sets in time: wait_ge gives false once nothing else can run (the
// interpreter's clock), in every block. A flag is seen when flag - epoch >= 0 as a signed
// 32-bit number, so counters that wrap still compare: with epoch 5, flag 7 is seen, 3
// and 2 are behind, and 2^32 - 1 is -1, behind too (3 late); with epoch 2^32 - 2 every
// flag is at most 9 ahead (none late).
// LATE2: shape (1,)
// LATE2-NEXT: {{^3$}}
// LATE0: shape (1,)
// LATE0-NEXT: {{^0$}}
kernel lonely(flags: inout u32[4], status: inout i32[1], epoch: u32)
    targets(sm_90a)
    threads(32)
    grid(4)
{
    if (lane == 0) {
        if (!wait_ge(flags[block.x], epoch, i64(1000000), scope: system)) {
            atomic_add(status[0], 1);
        }
    }
}
