// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A function called in a formula must be one `return` of a formula over integer or i1
// parameters, see only its parameters and the file's constants, and take its arguments
// and give its value of the declared kinds.

const BM: i32 = 128;

fn two(m: i32) -> i32 {
    let t = m * 2;
    return t;
}
fn half(x: f32) -> i32 {
    return 1;
}
fn shape(m: i32) -> i32 {
    return m + M;
}
fn flag(a: i1) -> i1 {
    return a;
}
fn cond(m: i32) -> i32 {
    return m > BM;
}
fn sms(m: i32) -> i1 {
    return m > num_sms;
}

kernel k<U: i32 = 1>(x: in f32[M], y: out f32[M]) threads(128) grid(cdiv(M, 128))
{
    let i = block.x * 128 + thread.x;
    if (i < M) {
        y[i] = x[i];
    }
}
instance k<2> when (two(M) > 1);
instance k<3> when (half(1) > 1);
instance k<4> when (shape(M) > 1);
instance k<5> when (flag(M));
instance k<6> when (cond(M) > 1);
instance k<7> when (flag(M > 1, 2));
instance k<8> when (sms(M));
instance k<1>;
// CHECK: err-when-fn.cake:35:21: error: when (...) can call a function whose body is one 'return' of a formula, with integer or i1 parameters and value; 'two' is not one
// CHECK: err-when-fn.cake:8:4: note: 'two' is declared here
// CHECK: err-when-fn.cake:36:21: error: when (...) can call a function with integer or i1 parameters; 'x' of 'half' is not one
// CHECK: err-when-fn.cake:16:16: error: a function called in when (...) sees only its parameters and the file's constants: 'M' is neither
// CHECK: err-when-fn.cake:38:26: error: parameter 'a' of 'flag' is an i1, found an integer
// CHECK: err-when-fn.cake:22:5: error: 'cond' returns an integer, but its formula is a condition
// CHECK: err-when-fn.cake:40:21: error: 'flag' takes 1 argument, found 2
// CHECK: err-when-fn.cake:25:16: error: a function called in when (...) sees only its parameters and the file's constants: 'num_sms' is neither
