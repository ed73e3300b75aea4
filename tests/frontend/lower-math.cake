// The math library's calls become one op each, with the call's type: f32 scalars and
// vectors for the accurate and approximate functions, f32 and f64 for the rounding ones and
// copysign, i1 from isnan and isinf. exp(1) takes the constant as f32. Nothing is folded.
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s

kernel math(x: in f32[N], y: in f32[N], d: in f64[N], o: out f32[N], od: out f64[N],
            v: out f32[N], b: out i32[N]) threads(32) {
    let i = thread.x;
    let s = x[i];
    let t = y[i];
    o[i] = exp(s) + log(s) + sin(s) + cos(s) + tanh(s) + erf(s) + pow(s, t) + exp(1);
    o[i] = exp_approx(s) + log_approx(s) + sin_approx(s) + cos_approx(s) + tanh_approx(s);
    o[i] = floor(s) + ceil(s) + trunc(s) + round(s) + rint(s) + copysign(s, -0.0);
    let e = d[i];
    od[i] = floor(e) + ceil(e) + trunc(e) + round(e) + rint(e) + copysign(e, 1.0);
    let w = x[i : 4];
    v[i : 4] = exp(w) + pow(w, w) + tanh_approx(w) + floor(w) + copysign(w, w);
    let w2 = x[i : 2];
    v[i : 2] = sin(w2) + round(w2);
    b[i] = i32(isnan(s)) + i32(isinf(e));
}

// CHECK:      [[S:%[0-9]+]] = load[1] {{%[0-9]+}} : f32
// CHECK:      [[T:%[0-9]+]] = load[1] {{%[0-9]+}} : f32
// CHECK:      exp [[S]] : f32
// CHECK-NEXT: log [[S]] : f32
// CHECK:      sin [[S]] : f32
// CHECK:      cos [[S]] : f32
// CHECK:      tanh [[S]] : f32
// CHECK:      erf [[S]] : f32
// CHECK:      pow [[S]], [[T]] : f32
// CHECK:      [[ONE:%[0-9]+]] = const 0x1p+0 : f32
// CHECK-NEXT: exp [[ONE]] : f32
// CHECK:      exp.approx [[S]] : f32
// CHECK:      log.approx [[S]] : f32
// CHECK:      sin.approx [[S]] : f32
// CHECK:      cos.approx [[S]] : f32
// CHECK:      tanh.approx [[S]] : f32
// CHECK:      floor [[S]] : f32
// CHECK:      ceil [[S]] : f32
// CHECK:      trunc [[S]] : f32
// CHECK:      round [[S]] : f32
// CHECK:      rint [[S]] : f32
// CHECK:      [[NZ:%[0-9]+]] = const -0x0p+0 : f32
// CHECK-NEXT: copysign [[S]], [[NZ]] : f32
// CHECK:      [[E:%[0-9]+]] = load[1] {{%[0-9]+}} : f64
// CHECK:      floor [[E]] : f64
// CHECK:      ceil [[E]] : f64
// CHECK:      trunc [[E]] : f64
// CHECK:      round [[E]] : f64
// CHECK:      rint [[E]] : f64
// CHECK:      copysign [[E]], {{%[0-9]+}} : f64
// CHECK:      [[W:%[0-9]+]] = load[1] {{%[0-9]+}} : f32x4
// CHECK:      exp [[W]] : f32x4
// CHECK:      pow [[W]], [[W]] : f32x4
// CHECK:      tanh.approx [[W]] : f32x4
// CHECK:      floor [[W]] : f32x4
// CHECK:      copysign [[W]], [[W]] : f32x4
// CHECK:      [[W2:%[0-9]+]] = load[1] {{%[0-9]+}} : f32x2
// CHECK:      sin [[W2]] : f32x2
// CHECK:      round [[W2]] : f32x2
// CHECK:      isnan [[S]] : i1
// CHECK:      isinf [[E]] : i1
