// launch(dependent): the kernel's first instructions let the next kernel on the stream
// start (griddepcontrol.launch_dependents) and then wait for the one ahead of it
// (griddepcontrol.wait), before anything of the body: the load of x below stays after the
// wait even though x is a read-only input LLVM may load early. Without the clause neither
// instruction appears. The PTX assembles for every target; the IR prints the clause and
// parses it back (another mode, or the item twice, is a parse error); the launcher's descriptor and the manifest carry it.
// RUN: %cakec --emit=ptx -o %t %s
// RUN: FileCheck %s < %t/dep.sm_90a.ptx
// RUN: FileCheck %s < %t/dep.sm_100a.ptx
// RUN: FileCheck %s --check-prefix=PLAIN < %t/plain.sm_90a.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t/dep.sm_90a.ptx -o %t/dep90.cubin %}
// RUN: %if ptxas %{ %ptxas -arch=sm_100a %t/dep.sm_100a.ptx -o %t/dep100.cubin %}
// RUN: %if ptxas %{ %ptxas -arch=sm_103a %t/dep.sm_103a.ptx -o %t/dep103.cubin %}
// RUN: %cakec --emit=ir --kernel dep %s | FileCheck %s --check-prefix=IR
// RUN: %cakec --emit=ir --kernel dep %s > %t/dep.ir && %cakec --input=ir --emit=ir --passes= %t/dep.ir | FileCheck %s --check-prefix=IR
// RUN: %not %cakec --input=ir --emit=ir --passes= %S/../ir/Inputs/err-launch.ir 2>&1 | FileCheck %S/../ir/Inputs/err-launch.ir
// RUN: %not %cakec --input=ir --emit=ir --passes= %S/../ir/Inputs/err-launch-twice.ir 2>&1 | FileCheck %S/../ir/Inputs/err-launch-twice.ir
// RUN: %cakec --emit=host -o %t/h %s
// RUN: FileCheck %s --check-prefix=DESC < %t/h/dep.c
// RUN: FileCheck %s --check-prefix=MAN < %t/h/manifest.json

// CHECK-LABEL: .entry dep_
// CHECK-NOT: ld.global
// CHECK: griddepcontrol.launch_dependents;
// CHECK-NEXT: griddepcontrol.wait;
// CHECK: ld.global
// PLAIN-LABEL: .entry plain_
// PLAIN-NOT: griddepcontrol
// IR: kernel @dep {
// IR: launch dependent
// DESC: 1,	/* launch(dependent) */
// MAN: "kernel": "dep",
// MAN: "launch": "dependent",
// MAN: "kernel": "plain",
// MAN-NOT: "launch"
kernel dep(x: in f32[N], y: out f32[N]) threads(256) grid(cdiv(N, 256)) launch(dependent) {
    let i = block.x * 256 + thread.x;
    if (i < N) {
        y[i] = x[i] * 2.0;
    }
}

kernel plain(x: in f32[N], y: out f32[N]) threads(256) grid(cdiv(N, 256)) {
    let i = block.x * 256 + thread.x;
    if (i < N) {
        y[i] = x[i] * 2.0;
    }
}
