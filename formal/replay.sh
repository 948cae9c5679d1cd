#!/usr/bin/env bash
# replay.sh - a property's counterexamples replayed in lock-step (docs/formal.md, "From a
# counterexample to a replay").
#
#   replay.sh [--mutant ID] DIR
#
# DIR is a property's folder of make formal (build/formal/<family>/<property>). For each
# counterexample there, DIR/cex.vcd (the property's own failure) and DIR/mutant/cex.vcd
# (its mutant's):
#   1. pmusim cex2replay writes replay-stream.txt and replay-writes.txt beside the VCD;
#   2. pmusim run replays them on the tree's RTL: the line it ends with (the waveform from
#      1000 cycles before the trace's first clock, the whole preamble of most);
#   3. for the mutant's: its pmusim (the catalog mutation on a copy of rtl/, built by
#      tests/mutants/mutants.mk as make mutants builds it, in DIR/mutant/build) replays
#      them: it must stop at a lock-step mismatch at or before the cycle of the failing
#      assertion's clock that cex2replay names.
# The mutant is the one the checker's block names ("killed by:"), or --mutant ID.
# PMUSIM: the tree's pmusim (default build/pmusim). One line per check, then
# "N passed, M failed"; exit 1 if any failed, 2 on bad usage.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

usage() { echo "replay.sh: $1 (usage: replay.sh [--mutant ID] DIR)" >&2; exit 2; }
mutant="" dir=""
while [ $# -gt 0 ]; do
    case $1 in
        --mutant) mutant=${2:-}; [ -n "$mutant" ] || usage "--mutant: expected a mutant id"; shift 2 ;;
        -*) usage "unknown option '$1'" ;;
        *) [ -z "$dir" ] || usage "expected one DIR, found '$dir' and '$1'"; dir=$1; shift ;;
    esac
done
[ -n "$dir" ] || usage "expected a property's folder (build/formal/<family>/<property>)"
[ -f "$dir/cex.vcd" ] || [ -f "$dir/mutant/cex.vcd" ] ||
    usage "$dir: no cex.vcd or mutant/cex.vcd, expected a property's folder of make formal"
pmusim=${PMUSIM:-build/pmusim}
[ -x "$pmusim" ] || { echo "replay.sh: $pmusim not found (make pmusim)" >&2; exit 2; }
prop=$(basename "$dir") fam=$(basename "$(dirname "$dir")")
# the family's checker that holds the property's block
props=$(grep -lx "\`ifdef PROP_$prop" formal/"$fam"/"$fam"_*_props.sv 2> /dev/null | head -1)
props=${props:-formal/$fam/${fam}_pmu_props.sv}
if [ -z "$mutant" ] && [ -f "$props" ]; then
    mutant=$(sed -n "/^\`ifdef PROP_$prop\$/,/^\`endif/s/.*killed by: \([a-z0-9-]*\).*/\1/p" "$props" | head -1)
fi

passed=0 failed=0
verdict() { # ok|FAIL TEXT
    echo "$1 $2"
    if [ "$1" = ok ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}

# replay VCD PMUSIM WAVES: converts (once) and runs with the waveform WAVES beside the VCD;
# sets $out, $rc and $cycle (cex2replay's cycle of the failing assertion's clock).
replay() {
    local vcd=$1 bin=$2 waves=$3 d fam_name model
    d=$(dirname "$vcd")
    if [ ! -s "$d/cex2replay.log" ] || [ "$vcd" -nt "$d/replay-stream.txt" ]; then
        if ! "$pmusim" cex2replay "$vcd" > "$d/cex2replay.log" 2>&1; then
            out=$(cat "$d/cex2replay.log") rc=2 cycle=
            return
        fi
    fi
    cycle=$(sed -n 's/.* is about the clock of step [0-9]*: cycle \([0-9]*\) .*/\1/p' "$d/cex2replay.log")
    # a write: which one of the cycle's ("REG 0xVALUE at address 0xADDR")
    write=$(sed -n 's/.* is about the clock of step [0-9]*: cycle [0-9]* (a write before record [0-9]*: \(.*\))$/\1/p' \
            "$d/cex2replay.log")
    fam_name=$(sed -n 's/.* run --family \([a-z0-9]*\) .*/\1/p' "$d/cex2replay.log")
    model=$(sed -n 's/.* run --family [a-z0-9]* --model \([a-z0-9]*\) .*/\1/p' "$d/cex2replay.log")
    # the waveform from 1000 cycles before the trace's first clock: a long preamble's last ones
    from=$(sed -n 's/.* --wave-from \([0-9]*\)$/\1/p' "$d/cex2replay.log")
    from=$(( ${from:-0} > 1000 ? ${from:-0} - 1000 : 0 ))
    out=$("$bin" run --family "$fam_name" ${model:+--model "$model"} --stream "$d/replay-stream.txt" \
          --writes "$d/replay-writes.txt" --waves "$d/$waves" --wave-from "$from" 2>&1)
    rc=$?
}

for vcd in "$dir/cex.vcd" "$dir/mutant/cex.vcd"; do
    [ -f "$vcd" ] || continue
    replay "$vcd" "$pmusim" replay.fst
    if [ "$rc" = 2 ]; then
        verdict FAIL "$vcd: cex2replay or run refused it: $(tail -1 <<< "$out")"; continue
    fi
    lock=$(grep '^lock-step:' <<< "$out")
    if [ "$vcd" = "$dir/cex.vcd" ]; then
        # The property's own failure on the tree's RTL: what lock-step says is the finding.
        verdict ok "$vcd on the tree's RTL: $lock$(grep -q 'expects failed' <<< "$out" && echo "; $(grep '^writes:' <<< "$out")")"
        continue
    fi
    if [ "$rc" = 0 ] && grep -q ' 0 mismatches' <<< "$lock" && grep -q ', 0 expects failed' <<< "$out"; then
        verdict ok "$vcd on the tree's RTL: $lock, the start state's expects held"
    else
        verdict FAIL "$vcd on the tree's RTL: exit $rc: $(grep -E '^lock-step:|expects failed|^mismatch|not applied' <<< "$out" | tr '\n' ' ')"
    fi
    if [ -z "$mutant" ]; then
        verdict FAIL "$vcd: no mutant named ('killed by:' in $props, or --mutant)"; continue
    fi
    m=$dir/mutant/build
    # the replay's --model: only its variants are built with the mutant (the others are the build's)
    model=$(sed -n 's/.* run --family [a-z0-9]* --model \([a-z0-9]*\) .*/\1/p' "$dir/mutant/cex2replay.log")
    if [ ! -x "$m/pmusim" ] || [ "$(cat "$m/model" 2> /dev/null)" != "$model" ]; then
        mkdir -p "$m"; rm -rf "$m/rtl" "$m/pmusim"; cp -r rtl "$m/rtl"
        if ! file=$(bash tests/mutants/run.sh --apply "$mutant" "$m" 2> "$m/apply.log"); then
            verdict FAIL "mutant $mutant does not apply ($m/apply.log)"; continue
        fi
        vs=$(make -s --no-print-directory mutant-variants MUTANT_FILE="$file" MUTANT_MODEL="$model")
        if ! make --no-print-directory MUTANT_DIR="$m" MUTANT_VARIANTS="$vs" "$m/pmusim" > "$m/build.log" 2>&1; then
            verdict FAIL "mutant $mutant does not build ($m/build.log)"; continue
        fi
        echo "$model" > "$m/model"
    fi
    replay "$vcd" "$m/pmusim" replay-mutant.fst
    at=$(sed -n 's/^mismatch at cycle \([0-9]*\) .*/\1/p' <<< "$out" | head -1)
    first=$(grep '^mismatch at cycle' <<< "$out")
    # the write the mismatch came at (the lock-step report: "register write NAME = 0x..." or
    # "register write address 0xA = 0x..."), the same as the failing clock's when its value and
    # its register (by name or address) are
    got=$(sed -n 's/^  record: *register write \(address \)\{0,1\}\([^ ]*\) = \(0x[0-9a-f]*\).*/\2 \3/p' <<< "$out" | head -1)
    same=0
    if [ -n "$at" ] && [ -n "$cycle" ] && [ "$at" -eq "$cycle" ]; then
        if [ -z "$write" ]; then
            same=1
        elif [ -n "$got" ]; then
            read -r w_reg w_val _ _ w_addr <<< "$write"
            read -r g_reg g_val <<< "$got"
            if [ $((w_val)) -eq $((g_val)) ] &&
               { [ "$g_reg" = "$w_reg" ] || { [[ $g_reg == 0x* ]] && [ $((g_reg)) -eq $((w_addr)) ]; }; }; then
                same=1
            fi
        fi
    fi
    if [ "$rc" = 1 ] && [ "$same" = 1 ]; then
        verdict ok "$vcd on mutant $mutant: $first, the clock the assertion fails on"
    elif [ "$rc" = 1 ] && [ -n "$at" ] && [ -n "$cycle" ] && [ "$at" -le "$cycle" ]; then
        verdict ok "$vcd on mutant $mutant: $first${got:+ ($got)}, before the assertion's clock (cycle $cycle${write:+, $write}): the mutant differs from the reference there already"
    else
        verdict FAIL "$vcd on mutant $mutant: exit $rc, expected a lock-step mismatch at cycle $cycle or before: $(grep -E '^lock-step:|^mismatch' <<< "$out" | tr '\n' ' ')"
    fi
    echo "     waveforms: $(dirname "$vcd")/replay.fst (the tree's RTL), $(dirname "$vcd")/replay-mutant.fst (the mutant's)"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
