#!/usr/bin/env bash
# real.sh - `make real` (docs/real-programs.md): the sample programs of qemu/programs/ through
# every family that has a timing model.  For each family it
#   1. builds the programs with the family's cross compiler (pmusim record --print-target),
#   2. records each under QEMU (pmusim record: the stream and the program's functions),
#   3. runs each recording in lock-step, reference against RTL (0 mismatches, exact),
#   4. prints each recording's per-function table from the family's software,
#   5. checks that the counted loop's branches are exactly its trip count,
#   6. runs the family's own checks on the recordings (its CHECKS script).
# Programs run with an empty environment (PATH aside), so that a recording does not depend
# on the caller's: the environment's size moves the stack.  Every step is one test: "PASS name" or "FAIL name: why"; the last line is
# "N passed, M failed", and the exit status is 1 when one failed.
#
# Environment: BUILD (default build), PMUSIM (default $BUILD/pmusim), REAL_SHORT=1 (smaller
# inputs: the form make test runs), REAL_FAMILIES (default: every registered family).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
PMUSIM=${PMUSIM:-$BUILD/pmusim}
short=${REAL_SHORT:-}
out=$BUILD/real
passed=0 failed=0

ok() { passed=$((passed + 1)); echo "PASS $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }

# The recordings: NAME PROGRAM ARGS..., in the full and the short form.  loop-a and loop-b
# differ only in the trip count of one loop, by 1000 (2000 and 3000: sums of seven digits
# each, so that printf runs the same code).
if [ -n "$short" ]; then
    runs=("sort sort 2000" "matmul-stride matmul stride 24" "matmul-seq matmul seq 24" "interp interp 300"
          "chase chase 1024 2" "loop-a loop 2000" "loop-b loop 3000")
else
    runs=("sort sort 20000" "matmul-stride matmul stride 64" "matmul-seq matmul seq 64" "interp interp 2000"
          "chase chase 4096 8" "loop-a loop 2000" "loop-b loop 3000")
fi
programs="sort matmul interp chase loop"

families=${REAL_FAMILIES:-$(CC=${CC:-gcc} bash tools/families.sh)}
[ -x "$PMUSIM" ] || { echo "real.sh: $PMUSIM: not built (make pmusim)"; exit 2; }

for fam in $families; do
    if ! target=$("$PMUSIM" record --family "$fam" --print-target 2>&1); then
        echo "== $fam: no timing model for real programs ($target)"
        continue
    fi
    QEMU_ARCH= CC= SYSROOT= PACKAGES= PROFILE= CHECKS=
    eval "$target"
    echo "== $fam: programs for $QEMU_ARCH, built with $CC"
    if ! command -v "$CC" > /dev/null; then
        fail "$fam: build the programs: $CC not found; install it: apt-get install $PACKAGES"
        continue
    fi
    bin=$out/$QEMU_ARCH
    dir=$out/$fam
    mkdir -p "$bin" "$dir"
    built=1
    for p in $programs; do
        # Built again when the source is newer; written beside and renamed into place.
        if [ ! -x "$bin/$p" ] || [ "qemu/programs/$p.c" -nt "$bin/$p" ]; then
            if ! "$CC" -O2 -Wall -o "$bin/$p.tmp" "qemu/programs/$p.c" 2> "$bin/$p.log" ||
                ! mv -f "$bin/$p.tmp" "$bin/$p"; then
                fail "$fam: build $p: $(head -1 "$bin/$p.log")"
                rm -f "$bin/$p.tmp"
                built=0
            fi
        fi
    done
    [ "$built" = 1 ] || continue
    for r in "${runs[@]}"; do
        set -- $r
        name=$1 prog=$2
        shift 2
        rec=$dir/$name.bin sym=$dir/$name.sym
        # A fixed environment: its size moves the stack, and with it the addresses.
        if env -i PATH="$PATH" "$PMUSIM" record --family "$fam" -o "$rec" --symbols "$sym" -- "$bin/$prog" "$@" \
            > "$dir/$name.record.txt" 2> "$dir/$name.record.err"; then
            ok "$fam $name: recorded ($(grep -m1 '^instructions ' "$dir/$name.record.txt"), $(grep -m1 '^cycles ' "$dir/$name.record.txt"))"
        else
            fail "$fam $name: record: $(tail -1 "$dir/$name.record.err")"
            continue
        fi
        # Lock-step, reference against RTL, over the whole recording.
        cycles=$(awk '/^cycles /{print $2}' "$dir/$name.record.txt")
        if "$PMUSIM" run --family "$fam" --stream "$rec" --cycles "$cycles" > "$dir/$name.run.txt" 2>&1 &&
            grep -q "^lock-step: $cycles cycles, 0 mismatches" "$dir/$name.run.txt"; then
            ok "$fam $name: lock-step, $cycles cycles, 0 mismatches"
        else
            fail "$fam $name: lock-step: $(grep -m1 -E 'mismatch|error|lock-step' "$dir/$name.run.txt")"
        fi
        if [ -n "$PROFILE" ]; then
            args=${PROFILE//\{stream\}/$rec}
            args=${args//\{symbols\}/$sym}
            # shellcheck disable=SC2086 # the family's arguments, split as written
            if "$PMUSIM" $args > "$dir/$name.profile.txt" 2>&1; then
                echo "-- $fam $name: pmusim $args"
                sed -n '1,40p' "$dir/$name.profile.txt"
            else
                fail "$fam $name: pmusim $args: $(grep -m1 -iE 'error|expected|mismatch|not exact' "$dir/$name.profile.txt")"
            fi
        fi
    done
    # The counted loop: 1000 more iterations, each one conditional branch, taken; nothing
    # else differs (the recordings' own counts: QEMU's instructions as the model decodes them).
    br() { awk -v k="$2" '$1 == "conditional" {gsub(",", ""); print (k == "all" ? $3 : $5); exit}' "$dir/$1.record.txt"; }
    if [ -f "$dir/loop-a.record.txt" ] && [ -f "$dir/loop-b.record.txt" ]; then
        d=$(($(br loop-b all) - $(br loop-a all))) dt=$(($(br loop-b taken) - $(br loop-a taken)))
        if [ "$d" -eq 1000 ] && [ "$dt" -eq 1000 ]; then
            ok "$fam loop: 1000 more iterations, exactly 1000 more conditional branches, 1000 more taken"
        else
            fail "$fam loop: 1000 more iterations gave $d more conditional branches, $dt more taken (expected 1000, 1000)"
        fi
    fi
    if [ -n "$CHECKS" ]; then
        log=$dir/checks.txt
        PMUSIM=$PMUSIM DIR=$dir BIN=$bin FAMILY=$fam REAL_SHORT=$short bash "$CHECKS" > "$log" 2>&1
        grep -E '^(PASS|FAIL) ' "$log"
        p=$(tail -1 "$log" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
        f=$(tail -1 "$log" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
        if [ -z "$p" ]; then
            fail "$fam: $CHECKS did not end with 'N passed, M failed' (see $log)"
        else
            passed=$((passed + p))
            failed=$((failed + f))
        fi
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
