// requires(COND): a condition the arguments must meet, which the launcher checks with the
// other argument checks (no driver needed) and refuses with CAKE_ERR_SHAPE, naming the
// condition and the values it read. In a generic kernel each instance checks its own
// (KT = 64 and 128 below); through the entry point, the instance the rule picks refuses.
// Division by zero in the condition is a refusal too, not a crash. The manifest and the
// IR carry the condition; the interpreter checks it as the launcher does.
// REQUIRES: cuda-h
// RUN: rm -rf %t && %cakec --emit=ptx,host,ir -o %t %s
// RUN: %cc %sanflags -std=c99 -Wall -Wextra -Werror -I%t -I%cudainc %S/requires_checks.c %t/rows.c %t/rows_64.c %t/rows_128.c %t/ratio.c %t/spread.c %t/cakert.c -ldl -lpthread -o %t/checks
// RUN: %t/checks | FileCheck %s
// RUN: FileCheck --check-prefix=MAN %s < %t/manifest.json
// RUN: FileCheck --check-prefix=IR %s < %t/rows_64.ir
// RUN: python3 %S/../interp/Inputs/npy.py make %t/x.npy '<f4' 4,100 'i + 1'
// RUN: %not %builddir/cakec-run %t/rows_64.ir rows_64 x=%t/x.npy y=%t/y.npy 2>&1 | FileCheck --check-prefix=INTERP %s
// The interpreter evaluates && and || as C does: the right side of a guard that the left
// side decides is not evaluated (d = 0 below divides by zero only there).
// RUN: python3 %S/../interp/Inputs/npy.py make %t/v.npy '<f4' 10 'i + 1'
// RUN: %builddir/cakec-run %t/guarded.ir guarded x=%t/v.npy y=%t/w.npy d=0
// RUN: %not %builddir/cakec-run %t/guarded.ir guarded x=%t/v.npy y=%t/w.npy d=6 2>&1 | FileCheck --check-prefix=GUARD %s
// GUARD: error: {{.*}}the arguments break requires(((d == 0) || ((N / d) >= 2)))
// RUN: %cakec --emit=ptx,host,ir -o %t/again %s && diff %t/rows_64.c %t/again/rows_64.c && diff %t/manifest.json %t/again/manifest.json

kernel rows<KT: i32>(x: in f32[B, K], y: out f32[B, K]) threads(KT) grid(B)
    requires(K <= KT && K % 4 == 0)
{
    if (thread.x < K) {
        y[block.x, thread.x] = 2.0 * x[block.x, thread.x];
    }
}

instance rows<64> as rows_64 when (K <= 64);
instance rows<128> as rows_128;

kernel ratio(x: in f32[N], y: out f32[N], d: i32) threads(32) grid(cdiv(N, 32))
    requires(N / d >= 2)
{
    let i = block.x * 32 + thread.x;
    if (i < N) {
        y[i] = x[i];
    }
}

kernel guarded(x: in f32[N], y: out f32[N], d: i32) threads(32) grid(cdiv(N, 32))
    requires(d == 0 || N / d >= 2)
{
    let i = block.x * 32 + thread.x;
    if (i < N) {
        y[i] = x[i];
    }
}

// A persistent grid asks the device for num_sms: the condition is checked before that, so
// that a bad call is refused without a driver or a context.
kernel spread(x: in f32[N], y: out f32[N]) threads(32) grid(min(num_sms, cdiv(N, 32)))
    requires(N % 4 == 0)
{
    for (i in block.x * 32 + thread.x .. N step grid_dim.x * 32) {
        y[i] = x[i];
    }
}

// CHECK: rows_64 K=64: CAKE_OK grid 3
// CHECK-NEXT: rows_64 K=68: CAKE_ERR_SHAPE rows_64: the arguments break requires((K <= 64) && ((K % 4) == 0)): K = 68
// CHECK-NEXT: rows_64 K=62: CAKE_ERR_SHAPE rows_64: the arguments break requires((K <= 64) && ((K % 4) == 0)): K = 62
// CHECK-NEXT: rows_128 K=100: CAKE_OK grid 3
// CHECK-NEXT: rows_128 K=132: CAKE_ERR_SHAPE rows_128: the arguments break requires((K <= 128) && ((K % 4) == 0)): K = 132
// CHECK-NEXT: entry K=100: CAKE_OK grid 3
// CHECK-NEXT: entry K=200: CAKE_ERR_SHAPE rows_128: the arguments break requires((K <= 128) && ((K % 4) == 0)): K = 200
// CHECK-NEXT: ratio N=10 d=5: CAKE_OK grid 1
// CHECK-NEXT: ratio N=10 d=6: CAKE_ERR_SHAPE ratio: the arguments break requires((N / d) >= 2): d = 6, N = 10
// CHECK-NEXT: ratio N=10 d=0: CAKE_ERR_SHAPE ratio: the arguments break requires((N / d) >= 2): d = 0, N = 10
// CHECK-NEXT: spread N=10: CAKE_ERR_SHAPE spread: the arguments break requires((N % 4) == 0): N = 10
// CHECK-NEXT: spread N=12: past requires (asks the device for num_sms)

// MAN: "kernel": "ratio",
// MAN: "requires": "((N / d) >= 2)",
// MAN: "kernel": "rows_128",
// MAN: "requires": "((K <= 128) && ((K % 4) == 0))",

// IR: requires "((K <= 64) && ((K % 4) == 0))"

// INTERP: error: {{.*}}the arguments break requires(((K <= 64) && ((K % 4) == 0)))
