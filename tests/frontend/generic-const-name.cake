// A constant generic parameter takes an integer or the name of a file's integer constant,
// as its default and as an instance's argument; -D changes the constant and so the default.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s
// RUN: %cakec --emit=ir --passes= -D W=48 %s | FileCheck %s --check-prefix=D48

const W: i32 = 32;
const DEEP: i32 = 6;

kernel fill<S: i32, N: i32 = W>(y: out i32[M]) threads(N) {
    y[thread.x] = S;
}

instance fill<2> as fill_default;
instance fill<DEEP, 64> as fill_named;

// CHECK-LABEL: kernel @fill_default
// CHECK: threads 32 1 1
// CHECK: const 2 : i32
// CHECK-LABEL: kernel @fill_named
// CHECK: threads 64 1 1
// CHECK: const 6 : i32
// D48-LABEL: kernel @fill_default
// D48: threads 48 1 1
