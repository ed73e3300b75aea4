// A register-array index through lets that each use the one before several times: the
// walk that marks the loops to unroll visits each let once (it was exponential: 2^60).
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s
kernel k(x: in f32[N], y: out f32[N]) threads(32) {
    var r: f32[4] = 0.0;
    let a0 = 1;
    let a1 = a0 - a0 + a0;
    let a2 = a1 - a1 + a1;
    let a3 = a2 - a2 + a2;
    let a4 = a3 - a3 + a3;
    let a5 = a4 - a4 + a4;
    let a6 = a5 - a5 + a5;
    let a7 = a6 - a6 + a6;
    let a8 = a7 - a7 + a7;
    let a9 = a8 - a8 + a8;
    let a10 = a9 - a9 + a9;
    let a11 = a10 - a10 + a10;
    let a12 = a11 - a11 + a11;
    let a13 = a12 - a12 + a12;
    let a14 = a13 - a13 + a13;
    let a15 = a14 - a14 + a14;
    let a16 = a15 - a15 + a15;
    let a17 = a16 - a16 + a16;
    let a18 = a17 - a17 + a17;
    let a19 = a18 - a18 + a18;
    let a20 = a19 - a19 + a19;
    let a21 = a20 - a20 + a20;
    let a22 = a21 - a21 + a21;
    let a23 = a22 - a22 + a22;
    let a24 = a23 - a23 + a23;
    let a25 = a24 - a24 + a24;
    let a26 = a25 - a25 + a25;
    let a27 = a26 - a26 + a26;
    let a28 = a27 - a27 + a27;
    let a29 = a28 - a28 + a28;
    let a30 = a29 - a29 + a29;
    let a31 = a30 - a30 + a30;
    let a32 = a31 - a31 + a31;
    let a33 = a32 - a32 + a32;
    let a34 = a33 - a33 + a33;
    let a35 = a34 - a34 + a34;
    let a36 = a35 - a35 + a35;
    let a37 = a36 - a36 + a36;
    let a38 = a37 - a37 + a37;
    let a39 = a38 - a38 + a38;
    let a40 = a39 - a39 + a39;
    let a41 = a40 - a40 + a40;
    let a42 = a41 - a41 + a41;
    let a43 = a42 - a42 + a42;
    let a44 = a43 - a43 + a43;
    let a45 = a44 - a44 + a44;
    let a46 = a45 - a45 + a45;
    let a47 = a46 - a46 + a46;
    let a48 = a47 - a47 + a47;
    let a49 = a48 - a48 + a48;
    let a50 = a49 - a49 + a49;
    let a51 = a50 - a50 + a50;
    let a52 = a51 - a51 + a51;
    let a53 = a52 - a52 + a52;
    let a54 = a53 - a53 + a53;
    let a55 = a54 - a54 + a54;
    let a56 = a55 - a55 + a55;
    let a57 = a56 - a56 + a56;
    let a58 = a57 - a57 + a57;
    let a59 = a58 - a58 + a58;
    let a60 = a59 - a59 + a59;
    for (i in 0 .. 3) unroll {
        r[a60 + i] = x[i];
    }
    y[0] = r[3];
}
// CHECK-LABEL: kernel @k
// CHECK-NOT: for
// CHECK: ret
