#!/usr/bin/env bash
# real_checks.sh - the Alpha 21264/EV67's checks on real programs (docs/real-programs.md,
# "Checks that do not trust the model"; docs/real-programs-ev67.md), run by qemu/real.sh on
# the recordings it made in $DIR.  Counts come from the perf driver's 64-bit counts
# (pmusim count), samples from ProfileMe (pmusim profileme).
#
# Environment: qemu/real_lib.sh.  Ends with "N passed, M failed".
set -u
. qemu/real_lib.sh

# 1. Retired instructions: INSTRUCTIONS counts retires.  The 21264 fetches a CMOV as two
# instructions that both retire (HRM Table 6-12) and squashes NOPs, UNOPs, FNOPs and TRAPB
# before retire (HRM §6.10.3): what QEMU ran, plus the CMOVs, minus those, which record
# reads from the instructions' encodings (the "retiring" line).
for name in sort interp loop-b; do
    qemu=$(field instructions "$DIR/$name.record.txt")
    want=$(field retiring "$DIR/$name.record.txt")
    want=${want:-$qemu}
    "$PMUSIM" count --family alpha21264 --stream "$DIR/$name.bin" --cycles 4000000000 -e INSTRUCTIONS \
        > "$DIR/$name.count.txt" 2>&1
    got=$(awk '$1 == "INSTRUCTIONS" {print $3}' "$DIR/$name.count.txt")
    if grep -q '^exact: ' "$DIR/$name.count.txt" && [ "${got:-x}" = "$want" ]; then
        ok "$name: INSTRUCTIONS $got = the $qemu instructions QEMU ran, CMOVs twice, squashed NOPs not at all $(grep -m1 '^retiring' "$DIR/$name.record.txt" | sed 's/^retiring [0-9]* //')"
    else
        fail "$name: INSTRUCTIONS ${got:-?} (see $DIR/$name.count.txt), expected $want from QEMU's $qemu"
    fi
done

# 2. The hot function: the matrix program's multiply ranks first in ProfileMe's samples
# (at N = 64 it runs 262144 multiply-adds, far more than the loader and the C library).
name=matmul-stride-64
if env -i PATH="$PATH" "$PMUSIM" record --family alpha21264 -o "$DIR/$name.bin" --symbols "$DIR/$name.sym" \
    -- "$BIN/matmul" stride 64 > "$DIR/$name.record.txt" 2>&1 &&
    "$PMUSIM" profileme --stream "$DIR/$name.bin" --symbols "$DIR/$name.sym" --period 200 \
    --cycles 4000000000 > "$DIR/matmul-stride.pm.txt" 2>&1; then
    top=$(awk '/^ *samples/ && /function/ {getline; print $NF; exit}' "$DIR/matmul-stride.pm.txt")
    if [ "$top" = "matmul:multiply_strided" ]; then
        ok "hot function: matmul:multiply_strided ranks first in ProfileMe's samples"
    else
        fail "hot function: ProfileMe ranks '$top' first, expected matmul:multiply_strided (see $DIR/matmul-stride.pm.txt)"
    fi
else
    fail "hot function: pmusim profileme failed (see $DIR/matmul-stride.pm.txt)"
fi

# 3. Cache misses, strided against sequential, from the cache geometry alone.  The 21264's
# aggregate counters count cycles, retires, Bcache misses and Mbox replays (HRM Table 5-16),
# so the misses counted are the Bcache's (BCACHEMISS, PCTR1), with caches made small enough
# that the matrices do not fit: B's rows are N x 8 bytes apart, and a column's N lines fold
# onto fewer sets than they need in both the 2-way D-cache and the direct-mapped Bcache
# (64-byte lines), so the strided order misses the Bcache on each of its N^3 loads of B; the
# sequential one once a line, N^3 x 8 / 64 (B is larger than the Bcache).  A and C add a few:
# strided N^3 .. 1.1 N^3, sequential N^3 / 8 .. N^3 / 4 (a factor of about 8).
#   full:  N = 128, a 64 KB Bcache (B is 128 KB), the 64 KB D-cache: 16 rows to a D-cache set
#          of 2 ways, 2 rows to a Bcache set;
#   short: N = 64, a 16 KB Bcache and a 16 KB D-cache (B is 32 KB): 4 rows to a D-cache set,
#          4 to a Bcache set.
if [ -n "${REAL_SHORT:-}" ]; then
    n=64 caches=(--param l1d_size=16384 --param bcache_size=16384)
else
    n=128 caches=(--param bcache_size=65536)
fi
misses=()
for order in stride seq; do
    name=matmul-$order-$n-small
    if env -i PATH="$PATH" "$PMUSIM" record --family alpha21264 "${caches[@]}" -o "$DIR/$name.bin" \
        -- "$BIN/matmul" "$order" "$n" > "$DIR/$name.record.txt" 2>&1 &&
        "$PMUSIM" count --family alpha21264 --stream "$DIR/$name.bin" --cycles 4000000000 -e BCACHEMISS \
        > "$DIR/$name.count.txt" 2>&1 && grep -q '^exact: ' "$DIR/$name.count.txt"; then
        misses+=("$(awk '$1 == "BCACHEMISS" {print $3}' "$DIR/$name.count.txt")")
    else
        misses+=("")
    fi
done
strided_check "Bcache misses (BCACHEMISS; $(echo "${caches[*]}" | sed "s/--param //g"), N = $n)" "${misses[0]}" "${misses[1]}" "$n" 8 0 \
    "$DIR/matmul-*-$n-small.*.txt"

# 4. Branches: the aggregate counters do not count them; a counted loop's branches are the
# timing model's own test (stream/ev67/tests/test_ev67_timing.cpp), not counted here.
finish
