#!/bin/sh
# consumer.sh [BUILD]: cakec used from an outside project, as issue "cakec in other projects"
# asks: installs BUILD (default build/) into a temporary prefix, then builds
# examples/consumer against the prefix alone, both ways, and runs it against the emulated
# driver (BUILD/tests/gpu/emu):
#   1. cakec at build time (cakec_add_kernels); touching scale.cake regenerates, an
#      untouched one does not;
#   2. a checked-in generated folder (cakec_add_checked_in_kernels) with the prefix's cakec
#      removed; cakec --check-generated passes on the folder and fails on a stale copy;
# and renders the installed man page, and checks that cakec --version is the package's.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
work=$build/consumer-test
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
export LD_LIBRARY_PATH="$build/tests/gpu/emu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
run_demo() {
	# the emulated driver runs the kernel's IR through the interpreter: it finds it here
	EMU_IR_PATH="$1" "$2/scale_demo"
}

# 1. cakec at build time
cmake -S "$root/examples/consumer" -B "$work/b1" -DCMAKE_PREFIX_PATH="$prefix" > "$work/b1.log"
cmake --build "$work/b1" >> "$work/b1.log"
"$prefix/bin/cakec" --emit=ir -o "$work/ir" "$root/examples/consumer/scale.cake"
run_demo "$work/ir" "$work/b1"
cmake --build "$work/b1" > "$work/b1-again.log"
if grep -q "cakec: scale.cake" "$work/b1-again.log"; then
	echo "consumer: an unchanged scale.cake was regenerated"; exit 1
fi
mkdir -p "$work/edited" && cp "$root/examples/consumer/scale.cake" "$work/edited/scale.cake"
touch "$root/examples/consumer/scale.cake"
cmake --build "$work/b1" > "$work/b1-touched.log"
grep -q "cakec: scale.cake" "$work/b1-touched.log" || { echo "consumer: a touched scale.cake was not regenerated"; exit 1; }
echo "consumer: build-time way: built, ran, regenerates on edit only"

# 2. checked-in sources, no cakec
gen=$work/generated
"$prefix/bin/cakec" --emit=ptx,host -o "$gen" "$root/examples/consumer/scale.cake"
mv "$prefix/bin/cakec" "$work/cakec.hidden"
cmake -S "$root/examples/consumer" -B "$work/b2" -DCMAKE_PREFIX_PATH="$prefix" -DSCALE_GENERATED="$gen" > "$work/b2.log"
cmake --build "$work/b2" >> "$work/b2.log"
run_demo "$work/ir" "$work/b2"
mv "$work/cakec.hidden" "$prefix/bin/cakec"
"$prefix/bin/cakec" --emit=ptx,host --check-generated "$gen" "$root/examples/consumer/scale.cake"
cp -r "$gen" "$work/stale"
sed -i 's/y\[i\] = a \* x\[i\];/y[i] = a * x[i] + 0.0;/' "$work/edited/scale.cake"
if "$prefix/bin/cakec" --emit=ptx,host --check-generated "$work/stale" "$work/edited/scale.cake" 2> "$work/stale.err"; then
	echo "consumer: the drift check passed a stale folder"; exit 1
fi
grep -q "is stale" "$work/stale.err"
echo "consumer: checked-in way: built without cakec, ran; drift check 0 on the folder, 1 when stale"

# the man page and the version
man -l "$prefix/share/man/man1/cakec.1" > /dev/null 2>&1 || groff -man -Tutf8 -z "$prefix/share/man/man1/cakec.1"
want=$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")/\1/p' "$prefix/lib/cmake/cakec/cakecConfigVersion.cmake")
"$prefix/bin/cakec" --version | grep -q "^cakec $want " || { echo "consumer: cakec --version is not $want"; exit 1; }
echo "consumer: man page renders; cakec --version is the package's $want"
