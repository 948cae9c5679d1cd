#!/usr/bin/env bash
# real_checks.sh - Itanium's checks on real programs (docs/real-programs.md, "Checks that do
# not trust the model"; docs/real-programs-ita.md), run by qemu/real.sh on the recordings of
# IA-32 programs it made in $DIR.  The counts are the 64-bit virtual counts of the event
# library and the overflow driver (pmusim count), exact.
#
# Environment: qemu/real_lib.sh.  Ends with "N passed, M failed".
set -u
. qemu/real_lib.sh

# count NAME EVENT...: "EVENT COUNT" lines of recording NAME's counts.
count() {
    local name=$1 args=()
    shift
    for e in "$@"; do args+=(-e "$e"); done
    "$PMUSIM" count --family itanium --stream "$DIR/$name.bin" --cycles 4000000000 "${args[@]}" \
        > "$DIR/$name.count.txt" 2>&1 || return 1
    grep -q '^exact: ' "$DIR/$name.count.txt" || return 1
    awk 'NF == 3 && $3 ~ /^[0-9]+$/ {print $1, $3}' "$DIR/$name.count.txt"
}
get() { awk -v e="$1" '$1 == e {print $2}'; }

# 1. Retired instructions: IA32_INST_RETIRED (ism: IA-32 and IA-64 alike) counts every
# IA-32 instruction retired; QEMU's own counter counted the instructions it ran.
for name in sort interp loop-b; do
    qemu=$(field instructions "$DIR/$name.record.txt")
    got=$(count "$name" IA32_INST_RETIRED | get IA32_INST_RETIRED)
    if [ -n "$got" ] && [ "$got" = "$qemu" ]; then
        ok "$name: IA32_INST_RETIRED $got = the $qemu instructions QEMU ran"
    else
        fail "$name: IA32_INST_RETIRED ${got:-?} (see $DIR/$name.count.txt), QEMU ran $qemu"
    fi
done

# The matrix programs at N = 64 (the recordings of checks 2 and 3).
n=64
for order in stride seq; do
    env -i PATH="$PATH" "$PMUSIM" record --family itanium -o "$DIR/matmul-$order-$n.bin" \
        --symbols "$DIR/matmul-$order-$n.sym" -- "$BIN/matmul" "$order" "$n" \
        > "$DIR/matmul-$order-$n.record.txt" 2>&1 || fail "record matmul $order $n"
done

# 2. The hot function: the matrix program's multiply ranks first in the CPU_CYCLES profile
# (at N = 64 it runs 262144 multiply-adds, far more than the loader and the C library).
if "$PMUSIM" profile --family itanium --stream "$DIR/matmul-stride-$n.bin" --symbols "$DIR/matmul-stride-$n.sym" \
    --cycles 4000000000 -e CPU_CYCLES --period 1000 > "$DIR/matmul-stride.hot.txt" 2>&1; then
    top=$(awk '/samples +% +function/ {getline; print $3; exit}' "$DIR/matmul-stride.hot.txt")
    if [ "$top" = "matmul:multiply_strided" ]; then
        ok "hot function: matmul:multiply_strided ranks first in the CPU_CYCLES profile"
    else
        fail "hot function: the CPU_CYCLES profile ranks '$top' first, expected matmul:multiply_strided"
    fi
else
    fail "hot function: pmusim profile failed (see $DIR/matmul-stride.hot.txt)"
fi

# 3. L1D misses, strided against sequential, from the geometry alone.  For N = 64, B's rows
# are 512 bytes apart: a column's 64 lines fold onto 16384 / 4 / 512 x 64 = 8 sets of the
# 4-way 16 KB L1D (32 lines), so the strided order misses on each of its N^3 loads of B;
# the sequential one once a 64-byte line, N^3 x 8 / 64.  A and C add a few: strided
# N^3 .. 1.1 N^3, sequential N^3 / 8 .. N^3 / 4 (a factor of about 8).
a=$(count "matmul-stride-$n" L1D_READ_MISSES_ALL | get L1D_READ_MISSES_ALL)
b=$(count "matmul-seq-$n" L1D_READ_MISSES_ALL | get L1D_READ_MISSES_ALL)
strided_check "L1D misses (L1D_READ_MISSES_ALL)" "$a" "$b" "$n" 8 0 "$DIR/matmul-*-$n.count.txt"

# 4. Branches: no Itanium event counts IA-32 branches (the branch events count IA-64 ones);
# the exact branch count of a counted loop is the timing model's own test
# (stream/ita/tests/test_ita_timing.cpp), not counted here.
finish
