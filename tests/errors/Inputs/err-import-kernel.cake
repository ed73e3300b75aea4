// A kernel file is not a library.
const C: f32 = 1.0;

kernel other(x: inout f32[N]) threads(32) {
    x[thread.x] = C;
}

kernel gen<E: f32 | f16>(x: inout E[N]) threads(32) {
    x[thread.x] = E(C);
}

instance gen<f32> as gen_f32;
