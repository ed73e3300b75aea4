// Vector arithmetic on a target without packed f32x2 (sm_90a) is split into scalars by
// LLVM's scalarizer just before code generation, not by instruction selection's type
// legalizer (faster to compile, the same instructions); on sm_100a, which has add, mul and
// fma on f32x2, it stays vector, and the PTX keeps the packed instructions. Loads and
// stores stay vectors on both. -print-after shows the IR the code generator receives.
// RUN: env CAKEC_LLVM_ARGS=-print-after=scalarizer %cakec --target sm_90a --emit=ptx -o %t.90 %s 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: env CAKEC_LLVM_ARGS=-print-after=scalarizer %cakec --target sm_100a --emit=ptx -o %t.100 %s 2>&1 | FileCheck %s --check-prefix=KEEP --allow-empty
// RUN: FileCheck %s --check-prefix=PTX90 < %t.90/axpy4.sm_90a.ptx
// RUN: FileCheck %s --check-prefix=PTX100 < %t.100/axpy4.sm_100a.ptx
// RUN: %cakec --target sm_90a -O0 --emit=ptx -o %t.o0 %s
// RUN: %cakec --target sm_90a --emit=ptx -o %t.again %s
// RUN: diff %t.90/axpy4.sm_90a.ptx %t.again/axpy4.sm_90a.ptx

kernel axpy4(x: in f32[N], y: inout f32[N], a: f32) targets(sm_90a, sm_100a) threads(64) grid(N / 256) {
    let i = (block.x * 64 + thread.x) * 4;
    y[i : 4] = fma(f32x4(a), x[i : 4], y[i : 4]);
}

// SPLIT: IR Dump After ScalarizerPass
// SPLIT: load <4 x float>
// SPLIT: call float @llvm.fma.f32
// SPLIT-NOT: @llvm.fma.v4f32
// SPLIT: store <4 x float>

// KEEP-NOT: IR Dump After ScalarizerPass

// PTX90: ld.global.v4.b32
// PTX90-COUNT-4: fma.rn.f32
// PTX90: st.global.v4.b32

// PTX100: fma.rn.f32x2
// PTX100: fma.rn.f32x2
