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

# 3. Branches and D-cache misses: the 21264's aggregate counters count cycles, retires,
# Bcache misses and Mbox replays only (HRM Table 5-16); a counted loop's branches and the
# D-cache misses of the matrix programs are the timing model's own tests
# (stream/ev67/tests/test_ev67_timing.cpp), not counted here.
finish
