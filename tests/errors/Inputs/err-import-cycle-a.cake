// err-import-cycle.cake -> a -> b -> a
import "err-import-cycle-b.cake";

fn a(x: f32) -> f32 {
    return x;
}
