// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// An entry point tries an instance only on a device it is built for, so the rules of
// `when` hold target by target: an instance takes another's arguments only on targets
// both are built for.

kernel hop<T: f32>(x: in T[N]) targets(sm_90a) threads(32) { }
kernel bw<T: f32>(x: in T[N]) targets(sm_100a, sm_103a) threads(32) { }

// on sm_100a and sm_103a nothing takes x when N < 1024
instance bw<f32> as bw_big entry hop when (N >= 1024);
instance hop<f32> as hop_f32;

// hop_any runs on sm_90a only: bw_when is tried on Blackwell, bw_all after it
kernel two<T: f32>(x: in T[N]) targets(sm_90a) threads(32) { }
instance two<f32> as hop_any;
instance bw<f32> as bw_when entry two when (N >= 1024);
instance bw<f32> as bw_all entry two;

// CHECK: err-entry-targets.cake:10:38: error: the entry point 'hop' selects nothing for the arguments 'bw_big' takes when 'N >= 1024' is false: declare an instance that takes them all, on its targets, without 'when' after 'bw_big'
