#!/bin/sh
# gdp_ptx_snapshot.sh CAKEC OUTDIR: compiles every variant of the gdp designs that the build
# (tests/gpu/gdp.cmake: its -D constants, dtype, -O3 and --no-staging-elision twins), the
# kernel tests (tests/kernels/gdp-designs.test) and each design's defaults use, to PTX for
# every target, into OUTDIR/<variant>/. Two snapshots, taken with different sources or
# compilers, are compared with `diff -r`: the check that a rewrite of kernels_src/gdp (such
# as moving the shared math into gdp_math.cake) leaves the generated code unchanged.
# The f16 variants are the design respelled as gdp_variant.cmake respells it, compiled from
# a temporary folder with -I kernels_src/gdp (where the designs' imports are). A kernel's
# symbol is its name and a hash of its IR, which records source lines, so any edit of a
# design changes it: the snapshot writes it as NAME_HASH, leaving the code to compare.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$2"
cakec=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$(cd "$2" && pwd)
src=$root/kernels_src/gdp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
jobs=$tmp/jobs
: > "$jobs"
# one job: NAME DESIGN DTYPE FLAGS (FLAGS: -D ... and options, commas for spaces)
add() { echo "$1 $2 $3 $4" >> "$jobs"; }

sed -n 's/^ *"\(gdp_[^|]*\)|\([^|]*\)|\([^|]*\)|\([^|"]*\)|\{0,1\}\([a-z]*\)".*/\1 \2 \3 \4 \5/p' \
    "$root/tests/gpu/gdp.cmake" |
while read -r name consts dtype use design; do
    [ -n "$design" ] || design=base
    [ "$design" = entry ] && continue       # gdp_decode_multi.cake's entry point: multi's, tma's and fused's code
    defs=$(echo "$consts" | sed 's/\([^,]*\)/-D,\1/g')
    case $design in multi|tma|fused)
        # generic over T and NH: the instance, not -D, fixes them (variants of an instance
        # the file does not declare are left out: tma's and fused's files declare <1, 1>)
        t=$(echo "$consts" | sed -n 's/.*\bT=\([0-9]*\).*/\1/p')
        nh=$(echo "$consts" | sed -n 's/.*\bNH=\([0-9]*\).*/\1/p')
        grep -q "^instance gdp_decode_$design<$t, $nh>;" "$src/gdp_decode_$design.cake" || continue
        defs=$(echo "$defs" | sed -E 's/-D,(T|NH)=[0-9]+,?//g; s/,$//')",--kernel,gdp_decode_${design}_${t}_${nh}" ;;
    esac
    o3=
    if [ "$design" = base ] || [ "$design" = warp ]; then o3=,-O3; fi
    add "$name" "$design" "$dtype" "$defs$o3"
    if [ "$design" = base ] || { [ "$use" = test ] && [ "$design" != tma ]; }; then
        add "${name}_staged" "$design" "$dtype" "$defs$o3,--no-staging-elision"
    fi
done
for d in base rows fused warp tma; do
    add "default_$d" "$d" bf16 "-O2"
    add "default_${d}_O0" "$d" bf16 "-O0"
done
add designs_fused_l2 fused bf16 "-D,BV=32,-D,L2NORM=true"
add designs_rows32 rows bf16 "-D,BV=32"
add designs_rows16 rows bf16 "-D,BV=16"
add designs_warp32_l2 warp bf16 "-D,BV=32,-D,L2NORM=true"
add designs_warp128 warp bf16 "-D,BV=128"
add designs_tma128 tma bf16 "-D,BV=128,-D,CPS=1,-D,STAGES=3"
add designs_tma32_l2 tma bf16 "-D,BV=32,-D,CPS=3,-D,STAGES=4,-D,L2NORM=true"

n=0
while read -r name design dtype flags; do
    if [ "$design" = base ]; then file=gdp_decode.cake; else file=gdp_decode_$design.cake; fi
    # relative input paths: the kernel's symbol hashes its IR, which records the path
    dir=$root
    in=kernels_src/gdp/$file
    if [ "$dtype" = f16 ]; then
        dir=$tmp
        in=$name/$file
        mkdir -p "$tmp/$name"
        sed 's/bf16/f16/g' "$src/$file" > "$tmp/$in"
    fi
    # shellcheck disable=SC2046
    (cd "$dir" && "$cakec" -I "$src" $(echo "$flags" | tr ',' ' ') --emit=ptx -o "$out/$name" "$in")
    n=$((n + 1))
done < "$jobs"
find "$out" -name '*.ptx' -exec sed -i -E 's/(gdp_decode[a-z_]*)_[0-9a-f]{12}/\1_HASH/g' {} +
echo "gdp_ptx_snapshot: $n variants into $out"
