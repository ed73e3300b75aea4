// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// An entry point's one argument struct holds a per_rank table as an array of its tensors:
// instances whose tables have other sizes (one per world size) share no entry point. By
// default they have none (tests/host/per-rank.cake); an instance that names the entry
// point is an error.

kernel relay<W: i32>(a: in f32[W, N] per_rank, o: out f32[N], rank: i32)
    threads(32) grid(1)
{
    o[thread.x] = a[rank, thread.x];
}
instance relay<2> as relay_w2 entry relay;
instance relay<4> as relay_w4 entry relay;
// CHECK: err-entry-tables.cake:[[@LINE-1]]:10: error: the instance 'relay_w4' cannot join the entry point 'relay': its per_rank table 'a' holds 4 tensors, the first instance's 2 (one argument struct serves every instance)
// CHECK-NEXT: instance relay<4> as relay_w4 entry relay;
// CHECK-NEXT:          ^
// CHECK-NEXT: err-entry-tables.cake:[[@LINE-5]]:10: note: the entry point's first instance, 'relay_w2', is here
