// A kernel file imported for its generic kernel.
const C: f32 = 1.0;
const W: i32 = 32;

kernel other(x: inout f32[N]) threads(32) {
    x[thread.x] = C;
}

kernel gen<E: f32 | f16>(x: inout E[N]) threads(W) {
    x[thread.x] = E(C);
}

instance gen<f32> as gen_f32;
instance gen<f16> as gen_f16;
