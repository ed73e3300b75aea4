// Functions and early exits on the GPU (tests/gpu/checks/check_lang.c): a function with a
// return inside a loop, one with break and continue in a while loop, a warp reduction in a
// function called by whole warps, returns in the kernels.

fn first_negative(x: in f32[R, C], r: i32) -> i32 {
    for (j in 0 .. C) {
        if (x[r, j] < 0.0) {
            return j;
        }
    }
    return C;
}

// the sum of x[r, 0 .. stop) without the elements above 0.5
fn small_sum(x: in f32[R, C], r: i32, stop: i32) -> f32 {
    var s: f32 = 0.0;
    var j = 0;
    while (true) {
        if (j >= stop) {
            break;
        }
        let v = x[r, j];
        j += 1;
        if (v > 0.5) {
            continue;
        }
        s += v;
    }
    return s;
}

// uses shfl_xor: every lane of the warp calls it
fn warp_sum(v: f32) -> f32 {
    var acc = v;
    for (o in 0 .. 5) unroll {
        acc += shfl_xor(acc, 16 >> o);
    }
    return acc;
}

kernel lang_exits(x: in f32[R, C], first: out i32[R], sums: out f32[R])
    threads(128) grid(cdiv(R, 128))
{
    let r = block.x * 128 + thread.x;
    if (r >= R) {
        return;
    }
    let f = first_negative(x, r);
    first[r] = f;
    sums[r] = small_sum(x, r, f);
}

kernel lang_rowsum(x: in f32[R, C], sums: out f32[R]) threads(128) grid(cdiv(R, 4)) {
    let r = block.x * 4 + warp;
    if (r >= R) {
        return;
    }
    var acc: f32 = 0.0;
    for (j in lane .. C step 32) {
        acc += x[r, j];
    }
    let s = warp_sum(acc);
    if (lane == 0) {
        sums[r] = s;
    }
}
