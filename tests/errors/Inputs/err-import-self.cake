// imports itself
import "err-import-self.cake";

kernel k(x: inout f32[N]) threads(32) {
    x[thread.x] = 1.0;
}
