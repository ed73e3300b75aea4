// A library with a mistake in a function and a constant the importer defines too.
const SCALE: f32 = 2.0;

fn scaled(x: f32) -> f32 {
    return x * SCALE + undefined_name;
}
