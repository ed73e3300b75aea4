// RUN: %not %cakec %s 2>&1 | FileCheck %s --implicit-check-not=error:
// Inlining has a budget per kernel (docs/language.md, "Limits"): each function here calls
// the next twice, so 24 levels would copy 2^24 bodies (once: minutes and gigabytes).
fn g24(x: f32) -> f32 { return x * 2.0; }
fn g23(x: f32) -> f32 { return g24(x) + g24(x + 1.0); }
fn g22(x: f32) -> f32 { return g23(x) + g23(x + 1.0); }
fn g21(x: f32) -> f32 { return g22(x) + g22(x + 1.0); }
fn g20(x: f32) -> f32 { return g21(x) + g21(x + 1.0); }
fn g19(x: f32) -> f32 { return g20(x) + g20(x + 1.0); }
fn g18(x: f32) -> f32 { return g19(x) + g19(x + 1.0); }
fn g17(x: f32) -> f32 { return g18(x) + g18(x + 1.0); }
fn g16(x: f32) -> f32 { return g17(x) + g17(x + 1.0); }
fn g15(x: f32) -> f32 { return g16(x) + g16(x + 1.0); }
fn g14(x: f32) -> f32 { return g15(x) + g15(x + 1.0); }
fn g13(x: f32) -> f32 { return g14(x) + g14(x + 1.0); }
fn g12(x: f32) -> f32 { return g13(x) + g13(x + 1.0); }
fn g11(x: f32) -> f32 { return g12(x) + g12(x + 1.0); }
fn g10(x: f32) -> f32 { return g11(x) + g11(x + 1.0); }
fn g9(x: f32) -> f32 { return g10(x) + g10(x + 1.0); }
fn g8(x: f32) -> f32 { return g9(x) + g9(x + 1.0); }
fn g7(x: f32) -> f32 { return g8(x) + g8(x + 1.0); }
fn g6(x: f32) -> f32 { return g7(x) + g7(x + 1.0); }
fn g5(x: f32) -> f32 { return g6(x) + g6(x + 1.0); }
fn g4(x: f32) -> f32 { return g5(x) + g5(x + 1.0); }
fn g3(x: f32) -> f32 { return g4(x) + g4(x + 1.0); }
fn g2(x: f32) -> f32 { return g3(x) + g3(x + 1.0); }
fn g1(x: f32) -> f32 { return g2(x) + g2(x + 1.0); }
fn g0(x: f32) -> f32 { return g1(x) + g1(x + 1.0); }
kernel k(x: in f32[N], y: out f32[N]) threads(32) { y[0] = g0(x[0]); }
// CHECK: err-inline-size.cake:5:41: error: the kernel's calls copy more than 262144 syntax nodes when inlined (each call copies its function's body, and the calls in it theirs): call fewer times, or loop over one call
// CHECK: err-inline-size.cake:29:60: note: in the call of 'g0' here
