#!/usr/bin/env bash
# quantum_sc.sh - the SystemC platform's quantum (docs/systemc.md, "The quantum"): the same
# run clock by clock (--quantum 1) and loosely timed (a few quanta, one larger than the
# run) must exit alike, print the same report (counts, interrupts, exactness, lock-step
# line, and the SystemC line's simulated time, records and access clocks) and log the same
# register traffic (every access with its cycle and value, every change of the interrupt
# line, so every PMI at the same cycle), for every family on every backend and with
# --stop-at and an interrupt latency.  Then --quantum's own arguments.
# Run from the repository root (make test does).  Ends with "N passed, M failed".
set -u

PMUSIM_SC=${PMUSIM_SC:-build/pmusim-sc}
tmp=$(mktemp -d /tmp/pmusim_scq.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../tests/cli_lib.sh"

need_binary "$PMUSIM_SC"

# The report less the speed line, the SystemC line without its quantum.
report() { grep -v '^Simulation speed:' "$1" | sed 's/, quantum [0-9]*:/:/'; }

# same NAME RUN-ARGS...: --quantum 1 and each larger quantum give the same run.
same() {
    local name=$1
    shift
    "$PMUSIM_SC" run "$@" --quantum 1 --traffic "$tmp/1.traffic" >"$tmp/1.out" 2>&1
    local rc1=$? q bad=
    grep -q '^SystemC: .*, quantum 1:' "$tmp/1.out" || bad="no 'quantum 1' on the SystemC line"
    for q in 7 1000 100000000; do
        [ -z "$bad" ] || break
        "$PMUSIM_SC" run --quantum "$q" "$@" --traffic "$tmp/q.traffic" >"$tmp/q.out" 2>&1
        local rc=$?
        if [ "$rc" -ne "$rc1" ]; then
            bad="exit $rc with --quantum $q, $rc1 with --quantum 1"
        elif ! grep -q "^SystemC: .*, quantum $q:" "$tmp/q.out"; then
            bad="--quantum $q: no 'quantum $q' on the SystemC line"
        elif ! diff <(report "$tmp/1.out") <(report "$tmp/q.out") >"$tmp/d" 2>&1; then
            bad="the reports differ (< --quantum 1, > --quantum $q): $(head -6 "$tmp/d" | tr '\n' ' ')"
        elif ! cmp -s "$tmp/1.traffic" "$tmp/q.traffic"; then
            bad="the traffic differs (< --quantum 1, > --quantum $q): $(diff "$tmp/1.traffic" "$tmp/q.traffic" | head -4 | tr '\n' ' ')"
        fi
    done
    # Not a pass on nothing: the run stepped records, wrote registers and (where asked)
    # took interrupts.
    if [ -z "$bad" ] && [ "$rc1" -eq 0 ] && ! grep -q ' W ' "$tmp/1.traffic"; then
        bad="no register write in the traffic"
    fi
    if [ -n "$bad" ]; then
        echo "FAIL $name: $bad"
        failed=$((failed + 1))
    else
        echo "ok   $name ($(wc -l <"$tmp/1.traffic") lines of traffic, $(grep -c ' pmi 1' "$tmp/1.traffic") interrupts)"
        passed=$((passed + 1))
    fi
}

for fam in $families; do
    cycles=30000
    [ "$fam" = itanium ] && cycles=150000 # its built-in setup overflows after ~100,000
    for be in cosim rtl ref; do
        same "$fam-$be" --family "$fam" --backend "$be" --seed 1 --cycles "$cycles"
    done
done
same itanium-qualifiers --config verilator/bench/bench_qual.cfg --seed 5 --cycles 20000
same itanium-stop-at --seed 1 --cycles 150000 --stop-at 123457
same itanium-latency0 --irq-latency 0 --seed 9 --cycles 150000
same alpha21264-profileme --family alpha21264 --config verilator/cli/ev67/profileme.cfg --seed 6 --cycles 30000
"$PMUSIM_SC" run --seed 1 --cycles 150000 --quantum 1000 --traffic "$tmp/t" >/dev/null 2>&1
ok interrupts-taken -- grep -q ' pmi 1$' "$tmp/t"

# ---- --quantum's arguments --------------------------------------------------------------
check quantum-default 0 ", quantum 1000:" -- "$PMUSIM_SC" run --cycles 100
check quantum-equals 0 ", quantum 5:" -- "$PMUSIM_SC" run --cycles 100 --quantum=5
check quantum-zero 2 "--quantum: expected a number in 1..1000000000" -- "$PMUSIM_SC" run --quantum 0
check quantum-text 2 "--quantum: expected a decimal number or 0x hex, found 'abc'" -- "$PMUSIM_SC" run --quantum abc
check quantum-negative 2 "--quantum: expected an unsigned number without a sign, found '-3'" -- \
    "$PMUSIM_SC" run --quantum=-3
check quantum-too-large 2 "--quantum: expected a number in 1..1000000000" -- "$PMUSIM_SC" run --quantum 1000000001
check quantum-missing 2 "--quantum: expected a number of clocks after it" -- "$PMUSIM_SC" run --cycles 100 --quantum
check quantum-help 0 "--quantum N" -- "$PMUSIM_SC" --help
check quantum-run-help 0 "--quantum N" -- "$PMUSIM_SC" run --help

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
