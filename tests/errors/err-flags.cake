// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// Flags (docs/language.md, "Flags between blocks and GPUs"): a scope that is not one of
// the four, another named argument, the wrong count, an element that is not a 32- or
// 64-bit integer, a store into an 'in' tensor, a place that is not an element, a vector
// access, values that do not convert.
kernel flags_err(flags: inout u32[8], fx: inout f32[8], inflag: in u32[8], epoch: u32)
    targets(sm_90a) threads(32) grid(1)
{
// CHECK: err-flags.cake:[[@LINE+1]]:43: error: the scope of 'store_release' is cta, cluster, gpu or system
    store_release(flags[0], epoch, scope: galaxy);
// CHECK: err-flags.cake:[[@LINE+1]]:36: error: 'load_acquire' takes no argument 'order:' (only scope:)
    let a = load_acquire(flags[1], order: 1);
// CHECK: err-flags.cake:[[@LINE+1]]:13: error: 'wait_ge' takes 3 arguments (and scope:), found 2
    let b = wait_ge(flags[2], epoch);
// CHECK: err-flags.cake:[[@LINE+1]]:28: error: 'load_acquire' works on one i32, u32, i64 or u64 element, found f32
    let c = load_acquire(fx[0]);
// CHECK: err-flags.cake:[[@LINE+1]]:19: error: cannot write to 'inflag': it is an 'in' tensor (declare it 'inout' to read and write it)
    store_release(inflag[0], epoch);
// CHECK: err-flags.cake:[[@LINE+1]]:26: error: the first argument of 'load_acquire' must be a tensor or shared array element, as in flags[i]
    let d = load_acquire(epoch);
// CHECK: err-flags.cake:[[@LINE+1]]:5: error: 'fence_acq_rel' takes 0 arguments (and scope:), found 1
    fence_acq_rel(1);
// CHECK: err-flags.cake:[[@LINE+1]]:31: error: 'load_acquire' works on one element, found a u32x2 access
    let e = load_acquire(flags[2 : 2]);
// CHECK: err-flags.cake:[[@LINE+1]]:29: error: cannot use the float constant 1.5 as u32 (convert it with u32(...))
    store_release(flags[3], 1.5);
// CHECK: err-flags.cake:[[@LINE+1]]:38: error: cannot use the float constant 2.5 as i64 (convert it with i64(...))
    let f = wait_ge(flags[4], epoch, 2.5);
}
