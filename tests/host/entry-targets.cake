// An entry point over instances built for different targets tries an instance only on a
// device it is built for: one function over a Hopper design and Blackwell ones. Against
// the fake driver (fake_libcuda.c: device 0 is sm_90, 1 sm_103, 2 sm_100, 3 sm_89),
// scale_grid reports the chosen instance's grid (s90: cdiv(N, 256) blocks, sbw: cdiv(N,
// 128), s103: cdiv(N, 64)); a device no instance is built for gets CAKE_ERR_ARCH, naming
// each instance's targets, and without a context the choice stops with CAKE_ERR_CONTEXT.
// An entry whose instances share their targets never asks the driver (same), and the
// refusal of element types names each combination the instances take once.
// REQUIRES: cuda-h
// RUN: rm -rf %t && mkdir -p %t/fake
// RUN: %cc -std=c99 -Wall -Wextra -Werror -shared -fPIC -I%cudainc %S/fake_libcuda.c -o %t/fake/libcuda.so.1 -lpthread
// RUN: %cakec --emit=ptx,host --ptx-only -o %t/out %s
// RUN: %cc %sanflags -std=c99 -Wall -Wextra -Werror -I%t/out -I%cudainc %S/entry_targets_checks.c %t/out/scale.c %t/out/s90.c %t/out/sbw.c %t/out/s103.c %t/out/same.c %t/out/same_f32.c %t/out/same_bf16.c %t/out/cakert.c -ldl -lpthread -o %t/checks
// RUN: env LD_LIBRARY_PATH=%t/fake %t/checks | FileCheck %s
// RUN: %not grep -q cakert_built_for_device %t/out/same.c
// RUN: FileCheck --check-prefix=MAN %s < %t/out/manifest.json

kernel scale<T: f32>(x: in T[N], y: out f32[N]) targets(sm_90a) threads(256) grid(cdiv(N, 256)) {
    let i = block.x * 256 + thread.x;
    if (i < N) {
        y[i] = x[i] * 2.0;
    }
}

kernel scale_bw<T: f32>(x: in T[N], y: out f32[N]) targets(sm_100a, sm_103a) threads(128)
    grid(cdiv(N, 128))
{
    let i = block.x * 128 + thread.x;
    if (i < N) {
        y[i] = x[i] * 2.0;
    }
}

kernel scale_103<T: f32>(x: in T[N], y: out f32[N]) targets(sm_103a) threads(64) grid(cdiv(N, 64)) {
    let i = block.x * 64 + thread.x;
    if (i < N) {
        y[i] = x[i] * 2.0;
    }
}

instance scale_103<f32> as s103 entry scale when (N >= 1024);
instance scale_bw<f32> as sbw entry scale;
instance scale<f32> as s90;

kernel same<T: f32 | bf16>(x: in T[N]) targets(sm_90a, sm_100a) threads(32) grid(1) { }
instance same<f32>;
instance same<bf16>;

// CHECK: no context: CAKE_ERR_CONTEXT s103: the entry point chooses by the device's architecture: expected a current CUDA context, found none
// CHECK-NEXT: sm_90 N=4096: CAKE_OK grid 16
// CHECK-NEXT: sm_103 N=4096: CAKE_OK grid 64
// CHECK-NEXT: sm_103 N=512: CAKE_OK grid 4
// CHECK-NEXT: sm_100 N=4096: CAKE_OK grid 32
// CHECK-NEXT: sm_89 N=4096: CAKE_ERR_ARCH scale: no instance that takes these arguments is built for the current device (the instances' targets: s103 sm_103a; sbw sm_100a, sm_103a; s90 sm_90a)
// CHECK-NEXT: sm_89 bf16: CAKE_ERR_DTYPE scale: no instance takes these element types (x: DLPack code 4 bits 16, y: DLPack code 2 bits 32); the instances take x: f32, y: f32{{$}}

// MAN: "entry": "scale",
// MAN-NEXT: "rule": "the first instance, in this order, whose tensor element types match the arguments, that is built for the device, and whose condition (when, null: none) holds",
// MAN: "entry": "same",
// MAN-NEXT: "rule": "the first instance, in this order, whose tensor element types match the arguments and whose condition (when, null: none) holds",
