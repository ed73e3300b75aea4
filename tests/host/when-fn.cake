// A formula (grid(...), when (...), requires(...)) may call a file function whose body is
// one `return` of a formula over integer or i1 parameters: the launcher's host text is the
// body's, with the arguments in place and the instance's constants folded through
// (128 * U is 256 in pick_a). The body sees its parameters and the file's constants only.
// REQUIRES: cuda-h
// RUN: rm -rf %t && %cakec --emit=ptx,host -o %t %s
// RUN: FileCheck --check-prefix=SRC %s < %t/pick.c
// RUN: FileCheck --check-prefix=GRIDA %s < %t/pick_a.c
// RUN: FileCheck --check-prefix=GRIDB %s < %t/pick_b.c
// RUN: %cc %sanflags -std=c99 -Wall -Wextra -Werror -I%t -I%cudainc -c %t/pick.c -o %t/pick.o

const BM: i32 = 128;

// whether the tiles of width w fill at least 55% of the SMs
fn fills(m: i32, n: i32, w: i32, sms: i32) -> i1 {
    return cdiv(m, BM) * cdiv(n, w) * 20 >= 11 * sms;
}

fn waves(tiles: i32, sms: i32) -> i32 {
    return cdiv(tiles, sms);
}

// a function may call another
fn both(a: i1, t: i32) -> i1 {
    return a && waves(t, 2) > 1;
}

kernel pick<U: i32 = 1>(x: in f32[M, N], y: out f32[M, N])
    threads(128) grid(waves(M * N, 128 * U))
    requires(waves(N, 4) >= 1)
{
    let i = block.x * 128 + thread.x;
    if (i < M * N) {
        y[i / N, i % N] = x[i / N, i % N];
    }
}
instance pick<2> as pick_a when (both(fills(M, N, 128 * U, num_sms), M));
instance pick<1> as pick_b;

// SRC: /* Whether the condition of pick_a holds:
// SRC-NEXT:  *   both(fills(M, N, 128 * 2, num_sms), M)
// SRC: *holds = ((cakert_gmul(cakert_gmul(cakert_gcdiv(v_M, 128, &ok), cakert_gcdiv(v_N, 256, &ok), &ok), 20, &ok) >= cakert_gmul(11, g_num_sms, &ok)) && (cakert_gcdiv(v_M, 2, &ok) > 1));
// GRIDA: requires(cdiv(N, 4) >= 1)
// GRIDA: grid[0] = cakert_gcdiv(cakert_gmul(v_M, v_N, &ok), 256, &ok);
// GRIDB: grid[0] = cakert_gcdiv(cakert_gmul(v_M, v_N, &ok), 128, &ok);
