// math.cake: the GPU check of the math library (docs/language.md, "Math functions");
// check_math.c sweeps the inputs and compares with the C library in double.
//
// math_f32 writes every f32 function of x (and of x, y for pow and copysign) into one row
// of o each; math_f64 the f64 rounding functions; math_vec the vector forms (f32x4 and
// f32x2), which must equal the scalar forms lane by lane.
//
// lit compiles it (ptxas assembles it for every target, with no local memory); the check
// itself runs on a GPU: build/tests/gpu/test_check_math.
// RUN: rm -rf %t && %cakec --emit=ptx -o %t %s
// RUN: %if ptxas %{ for f in %t/*.ptx; do a=$(echo $f | sed 's/.*\.\(sm_[0-9a-z]*\)\.ptx/\1/'); %ptxas -v -arch=$a $f -o %t/a.cubin > %t/log 2>&1 && grep -q "0 bytes stack frame" %t/log || exit 1; done %}

const BLOCK: i32 = 256;

kernel math_f32(x: in f32[n], y: in f32[n], o: out f32[m, n])
    targets(sm_90a, sm_100a, sm_103a)
    threads(BLOCK)
    grid(cdiv(n, BLOCK))
{
    let i = block.x * BLOCK + thread.x;
    if (i < n) {
        let v = x[i];
        let w = y[i];
        o[0, i] = exp(v);
        o[1, i] = log(v);
        o[2, i] = sin(v);
        o[3, i] = cos(v);
        o[4, i] = tanh(v);
        o[5, i] = erf(v);
        o[6, i] = pow(v, w);
        o[7, i] = exp_approx(v);
        o[8, i] = log_approx(v);
        o[9, i] = sin_approx(v);
        o[10, i] = cos_approx(v);
        o[11, i] = tanh_approx(v);
        o[12, i] = floor(v);
        o[13, i] = ceil(v);
        o[14, i] = trunc(v);
        o[15, i] = round(v);
        o[16, i] = rint(v);
        o[17, i] = copysign(v, w);
        o[18, i] = f32(i32(isnan(v)) + 2 * i32(isinf(v)));
    }
}

kernel math_f64(d: in f64[n], e: in f64[n], o: out f64[m, n])
    targets(sm_90a, sm_100a, sm_103a)
    threads(BLOCK)
    grid(cdiv(n, BLOCK))
{
    let i = block.x * BLOCK + thread.x;
    if (i < n) {
        let v = d[i];
        o[0, i] = floor(v);
        o[1, i] = ceil(v);
        o[2, i] = trunc(v);
        o[3, i] = round(v);
        o[4, i] = rint(v);
        o[5, i] = copysign(v, e[i]);
        o[6, i] = f64(i32(isnan(v)) + 2 * i32(isinf(v)));
    }
}

// n is a multiple of 4
kernel math_vec(x: in f32[n], y: in f32[n], o: out f32[m, n])
    targets(sm_90a, sm_100a, sm_103a)
    threads(BLOCK)
    grid(cdiv(n, BLOCK * 4))
{
    let i = (block.x * BLOCK + thread.x) * 4;
    if (i < n) {
        let v = x[i : 4];
        let w = y[i : 4];
        o[0, i : 4] = exp(v);
        o[2, i : 4] = sin(v);
        o[4, i : 4] = tanh(v);
        o[5, i : 4] = erf(v);
        o[6, i : 4] = pow(v, w);
        o[11, i : 4] = tanh_approx(v);
        o[15, i : 4] = round(v);
        o[17, i : 4] = copysign(v, w);
        let v2 = x[i : 2];
        o[1, i : 2] = log(v2);
        o[3, i : 2] = cos(v2);
        o[12, i : 2] = floor(v2);
        let u2 = x[i + 2 : 2];
        o[1, i + 2 : 2] = log(u2);
        o[3, i + 2 : 2] = cos(u2);
        o[12, i + 2 : 2] = floor(u2);
    }
}
