// cakec_torch writes each tensor's CakeTensor straight into the args struct (shape and
// strides from one array a call keeps): Kernel.grid runs the launcher's argument checks
// on stand-in tensors (Inputs/torch_args.py; no torch, no GPU), so the grid it returns
// and the checks' messages show the shapes, strides, element types, devices and data
// pointers the launcher received, and the parameter names the Python side checks.
// REQUIRES: cuda-h
// RUN: rm -rf %t && %cakec --emit=host --ptx-only -o %t %s
// RUN: env PYTHONPATH=%srcroot/python python3 %S/Inputs/torch_args.py %t %cudainc | FileCheck %s
// CHECK: ok: grid (3005, 1, 1)
// CHECK-NEXT: ok again: grid (3005, 1, 1)
// CHECK-NEXT: requires: CakeError: CAKE_ERR_SHAPE: pick: the arguments break requires(n == (N + 1)): n = 7, N = 5
// CHECK-NEXT: shape: CakeError: CAKE_ERR_SHAPE: pick: parameter 'y': expected shape[0] = N = 5 (bound by 'x' shape[1]), found 4
// CHECK-NEXT: dtype: CakeError: CAKE_ERR_DTYPE: pick: parameter 'x': expected dtype f32 (code 2, bits 32, lanes 1), found f16 (code 2, bits 16, lanes 1)
// CHECK-NEXT: strides: CakeError: CAKE_ERR_STRIDE: pick: parameter 'x': expected row-major contiguous strides [5, 1] (elements), found [1, 3]
// CHECK-NEXT: host tensor: CakeError: CAKE_ERR_DEVICE: pick: parameter 'x': expected a CUDA tensor (device type 2), found device type 1
// CHECK-NEXT: overlap: CakeError: CAKE_ERR_OVERLAP: pick: parameter 'y' (out, bytes 0x100008..0x10001c) overlaps parameter 'x' (in, bytes 0x100000..0x10003c)
// CHECK-NEXT: null data: CakeError: CAKE_ERR_NULL: pick: parameter 'x': data is NULL
// CHECK-NEXT: not a tensor: TypeError: pick: parameter 'x': expected a tensor, found int
// CHECK-NEXT: missing: TypeError: pick(x, y, s, n): missing parameter(s) y
// CHECK-NEXT: unknown: TypeError: pick(x, y, s, n): unknown parameter(s) z

kernel pick(x: in f32[M, N], y: out bf16[N, 2], s: f32, n: i32) threads(32) grid(M * 1000 + N)
    requires(n == N + 1)
{
    if (thread.x == 0) {
        y[0, 0] = bf16(s * x[0, 0]);
    }
}
