// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// RUN: sed 's/f32\[17, M\] per_rank/f32[2, M] ranked/' %s > %t.cake
// RUN: %not %cakec %t.cake 2>&1 | FileCheck %s --check-prefix=WORD
// WORD: error: syntax error, unexpected identifier 'ranked', expecting 'per_rank' or ',' or ')'
// per_rank tensors (docs/language.md, "Tensors on other GPUs"): a count of tensors that is
// not a constant, no dimension after it, too many tensors, another word than per_rank (the
// sed line), a tensor map whose box takes more than one rank, a constant rank out of
// range, a fragment of a table, a parameter or a tensor map with the name of one of a
// table's tensors or maps.
kernel pr_err(a: in f32[W, M] per_rank, b: in f32[4] per_rank, c: in f32[17, M] per_rank,
// CHECK: err-per-rank.cake:[[@LINE-1]]:25: error: the first dimension of per_rank tensor 'a' is its count of tensors (a constant, 1 to 16), and another dimension must follow
// CHECK: err-per-rank.cake:[[@LINE-2]]:51: error: the first dimension of per_rank tensor 'b' is its count of tensors (a constant, 1 to 16), and another dimension must follow
// CHECK: err-per-rank.cake:[[@LINE-3]]:74: error: per_rank tensor 'c' has 17 tensors, more than 16
              e: inout f32[2, M, 64] per_rank, e_1: i32, o: out f32[M, 64])
    targets(sm_90a) threads(128) grid(1)
{
// CHECK: err-per-rank.cake:[[@LINE+1]]:31: error: the box of tensor map 'te' over per_rank tensor 'e' starts with 1 (one rank's tensor at a time: the first coordinate picks it), found 2
    tensormap te = tma(e, box[2, 64, 64]);
    tensormap tf = tma(e, box[1, 64, 64]);
    tensormap tf_1 = tma(o, box[64, 64]);
// CHECK: err-per-rank.cake:[[@LINE+1]]:17: error: index 1 of 'e' is out of bounds: 2, but the dimension has size 2
    o[0, 0] = e[2, 0, 0];
    var acc: f32acc[64, 64] = 0.0;
// CHECK: err-per-rank.cake:[[@LINE+1]]:20: error: fragment of per_rank tensor 'e': a table of tensors is read and written element by element or through a tensor map
    acc = fragment(e[0], [0, 0], 64);
    store(o, acc, [0, 0]);
}
// The names a table's parameters take (e_0, e_1; tf_0, tf_1), reported at the later
// declaration, once the kernel's tensor maps are known:
// CHECK: err-per-rank.cake:14:48: error: 'e_1' is the name of two parameters of the kernel (a per_rank table's tensors and maps are named name_0, name_1, ...): rename one
// CHECK: err-per-rank.cake:20:15: error: 'tf_1' is the name of two parameters of the kernel (a per_rank table's tensors and maps are named name_0, name_1, ...): rename one
