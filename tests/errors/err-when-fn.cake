// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A function called in a formula must be one `return` of a formula over integer or i1
// parameters, see only its parameters and the file's constants, and take its arguments
// and give its value of the declared kinds; an expansion may not grow past 64 KiB of host
// text (each h below doubles its argument's) nor nest past 64 calls (r calls itself).

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
instance k<9> when (h15(M) > 1);
instance k<10> when (r(M) > 1);
instance k<1>;
// CHECK: err-when-fn.cake:36:21: error: when (...) can call a function whose body is one 'return' of a formula, with integer or i1 parameters and value; 'two' is not one
// CHECK: err-when-fn.cake:9:4: note: 'two' is declared here
// CHECK: err-when-fn.cake:37:21: error: when (...) can call a function with integer or i1 parameters; 'x' of 'half' is not one
// CHECK: err-when-fn.cake:17:16: error: a function called in when (...) sees only its parameters and the file's constants: 'M' is neither
// CHECK: err-when-fn.cake:39:26: error: parameter 'a' of 'flag' is an i1, found an integer
// CHECK: err-when-fn.cake:23:5: error: 'cond' returns an integer, but its formula is a condition
// CHECK: err-when-fn.cake:41:21: error: 'flag' takes 1 argument, found 2
// CHECK: err-when-fn.cake:26:16: error: a function called in when (...) sees only its parameters and the file's constants: 'num_sms' is neither
// CHECK: err-when-fn.cake:100:12: error: the call of 'h13' in when (...) expands to more than 65536 bytes of host formula
// CHECK: err-when-fn.cake:106:12: error: function calls in when (...) nest more than 64 deep

fn h0(x: i32) -> i32 {
    return x + x;
}
fn h1(x: i32) -> i32 {
    return h0(x) * h0(x);
}
fn h2(x: i32) -> i32 {
    return h1(x) * h1(x);
}
fn h3(x: i32) -> i32 {
    return h2(x) * h2(x);
}
fn h4(x: i32) -> i32 {
    return h3(x) * h3(x);
}
fn h5(x: i32) -> i32 {
    return h4(x) * h4(x);
}
fn h6(x: i32) -> i32 {
    return h5(x) * h5(x);
}
fn h7(x: i32) -> i32 {
    return h6(x) * h6(x);
}
fn h8(x: i32) -> i32 {
    return h7(x) * h7(x);
}
fn h9(x: i32) -> i32 {
    return h8(x) * h8(x);
}
fn h10(x: i32) -> i32 {
    return h9(x) * h9(x);
}
fn h11(x: i32) -> i32 {
    return h10(x) * h10(x);
}
fn h12(x: i32) -> i32 {
    return h11(x) * h11(x);
}
fn h13(x: i32) -> i32 {
    return h12(x) * h12(x);
}
fn h14(x: i32) -> i32 {
    return h13(x) * h13(x);
}
fn h15(x: i32) -> i32 {
    return h14(x) * h14(x);
}
fn r(x: i32) -> i32 {
    return r(x) + 1;
}
