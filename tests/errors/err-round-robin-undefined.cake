// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// An assignment to a name that does not exist, in a round_robin loop: the loop's check of
// what its body assigns skips the unresolved name (it dereferenced its missing symbol, a
// crash the fuzzer found); the error is the name's.
// CHECK: err-round-robin-undefined.cake:12:13: error: undefined name 'y'
// CHECK-NEXT: {{^}}            y = 1.0;
kernel rr_undefined(o: inout f32[N], n: i32)
    targets(sm_90a) threads(384)
{
    role pair(warpgroups 1 .. 2) {
        for (i in 0 .. n) round_robin {
            y = 1.0;
            o[i] = 2.0;
        }
    }
}
