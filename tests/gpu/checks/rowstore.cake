// RUN: %cakec --target sm_90a --emit=ptx -o %t %s
// store(tensor, r, [row, col]) of a register array on the GPU (tests/gpu/checks/
// check_rowstore.c): each thread owns a row and writes it in chunks of the array's length,
// so that the last chunk of a row is clipped when C is not a multiple of it, rows start
// misaligned when C is odd (the predicated path) and aligned when it is a multiple of the
// chunk (16-byte stores). The grid has one block more than the rows need: its rows are all
// past R, and store writes nothing of them.

kernel rs_f32x4(x: in f32[R, C], y: out f32[R, C]) threads(128) grid(cdiv(R, 128) + 1) {
    let r = block.x * 128 + thread.x;
    for (c0 in 0 .. C step 4) {
        var v: f32[4] = 0.0;
        for (j in 0 .. 4) unroll {
            if (r < R && c0 + j < C) {
                v[j] = x[r, c0 + j] * 2.0 + 1.0;
            }
        }
        store(y, v, [r, c0]);
    }
}

kernel rs_bf16x8(x: in f32[R, C], y: out bf16[R, C]) threads(128) grid(cdiv(R, 128) + 1) {
    let r = block.x * 128 + thread.x;
    for (c0 in 0 .. C step 8) {
        var v: f32[8] = 0.0;
        for (j in 0 .. 8) unroll {
            if (r < R && c0 + j < C) {
                v[j] = x[r, c0 + j] * 2.0 + 1.0;
            }
        }
        store(y, v, [r, c0]);
    }
}

kernel rs_f16x3(x: in f32[R, C], y: out f16[R, C]) threads(128) grid(cdiv(R, 128) + 1) {
    let r = block.x * 128 + thread.x;
    for (c0 in 0 .. C step 3) {
        var v: f32[3] = 0.0;
        for (j in 0 .. 3) unroll {
            if (r < R && c0 + j < C) {
                v[j] = x[r, c0 + j] * 2.0 + 1.0;
            }
        }
        store(y, v, [r, c0]);
    }
}

// a bf16 register array into an f32 tensor: each value widened
kernel rs_wide(x: in f32[R, C], y: out f32[R, C]) threads(128) grid(cdiv(R, 128) + 1) {
    let r = block.x * 128 + thread.x;
    for (c0 in 0 .. C step 32) {
        var v: bf16[32] = 0.0;
        for (j in 0 .. 32) unroll {
            if (r < R && c0 + j < C) {
                v[j] = bf16(x[r, c0 + j] * 2.0 + 1.0);
            }
        }
        store(y, v, [r, c0]);
    }
}
