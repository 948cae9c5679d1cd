#!/usr/bin/env bash
# sim_sc.sh - the SystemC platform against the C harness: `pmusim-sc run` and `pmusim run`
# on the same records and configuration must print the same counts, interrupts,
# exactness and lock-step lines and log the same register traffic (--traffic: every
# register access with its cycle, every change of the interrupt line), for every family,
# every backend, generated and file streams, and the configurations with their own
# software (qualifiers, ProfileMe); run --json's document the same (less the seconds).
# Then the program's own arguments and files.
# Run from the repository root (make test does).  Ends with "N passed, M failed".
set -u

PMUSIM=${PMUSIM:-build/pmusim}
PMUSIM_SC=${PMUSIM_SC:-build/pmusim-sc}
tmp=$(mktemp -d /tmp/pmusim_sc.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../tests/cli_lib.sh"

need_binary "$PMUSIM" "$PMUSIM_SC"

# The report without the lines that differ by nature (speed, SystemC time).
report() { grep -v -e '^Simulation speed:' -e '^SystemC:' "$1"; }

# identical NAME RUN-ARGS...: both programs exit alike, print the same report and the
# same traffic, and the traffic is not empty.
identical() {
    local name=$1
    shift
    "$PMUSIM" run "$@" --traffic "$tmp/c.traffic" >"$tmp/c.out" 2>&1
    local rc_c=$?
    "$PMUSIM_SC" run "$@" --traffic "$tmp/s.traffic" >"$tmp/s.out" 2>&1
    local rc_s=$?
    if [ "$rc_c" -ne "$rc_s" ]; then
        echo "FAIL $name: exit $rc_s on SystemC, $rc_c on the C harness"
        sed 's/^/    /' "$tmp/s.out" | head -20
        failed=$((failed + 1))
    elif ! diff <(report "$tmp/c.out") <(report "$tmp/s.out") >"$tmp/d" 2>&1; then
        echo "FAIL $name: the reports differ (< C harness, > SystemC)"
        sed 's/^/    /' "$tmp/d" | head -20
        failed=$((failed + 1))
    elif ! cmp -s "$tmp/c.traffic" "$tmp/s.traffic"; then
        echo "FAIL $name: the register traffic differs (< C harness, > SystemC)"
        diff "$tmp/c.traffic" "$tmp/s.traffic" | sed 's/^/    /' | head -20
        failed=$((failed + 1))
    elif [ "$rc_s" -eq 0 ] && { ! grep -q ' W ' "$tmp/s.traffic" || ! grep -q '^SystemC: ' "$tmp/s.out"; }; then
        echo "FAIL $name: no register write in the traffic, or no SystemC line"
        failed=$((failed + 1))
    else
        echo "ok   $name ($(wc -l <"$tmp/s.traffic") lines of traffic, $(grep -c ' pmi 1' "$tmp/s.traffic") interrupts)"
        passed=$((passed + 1))
    fi
}

# ---- identity with the C harness ---------------------------------------------------
# (The Itanium 2 built-in setup overflows first after ~100,000 cycles.)
for fam in $families; do
    cycles=40000
    [ "$fam" = itanium ] && cycles=200000
    for be in cosim ref rtl; do
        identical "$fam-$be" --family "$fam" --backend "$be" --seed 1 --cycles "$cycles"
    done
    identical "$fam-random" --family "$fam" --mode random --seed 3 --cycles 20000
done
identical itanium-itanium1 --model itanium --seed 2 --cycles 30000
identical itanium-qualifiers --config verilator/bench/bench_qual.cfg --seed 5 --cycles 40000
identical itanium-latency0 --irq-latency 0 --seed 9 --cycles 30000
identical alpha21064-pass2 --family alpha21064 --model 21064-pass2 --seed 4 --cycles 30000
identical alpha21064-latency9 --family alpha21064 --irq-latency 9 --seed 4 --cycles 30000
identical alpha21264-profileme --family alpha21264 --config verilator/cli/ev67/profileme.cfg --seed 6 --cycles 40000
identical itanium-stop-at --seed 1 --cycles 30000 --stop-at 12345

# --json (docs/json.md): the platform's document is the C harness's, less the seconds.
for fam in $families; do
    "$PMUSIM" run --family "$fam" --seed 1 --cycles 20000 --json --dump-regs --traffic "$tmp/cj.traffic" >"$tmp/c.json" 2>/dev/null
    "$PMUSIM_SC" run --family "$fam" --seed 1 --cycles 20000 --json --dump-regs --traffic "$tmp/sj.traffic" >"$tmp/s.json" 2>/dev/null
    if python3 -c '
import json, sys
c, s = (json.load(open(f)) for f in sys.argv[1:3])
for d in (c, s):
    del d["seconds"]
assert c == s and c["service"] and c["traffic"] and c["registers"], "the documents differ"' "$tmp/c.json" "$tmp/s.json"; then
        echo "ok   $fam-json"
        passed=$((passed + 1))
    else
        echo "FAIL $fam-json: run --json differs between the C harness and SystemC"
        failed=$((failed + 1))
    fi
done

# A stream file (text), read by the player.
"$PMUSIM" gen --family alpha21264 --seed 8 --cycles 5000 --format text -o "$tmp/s.txt" >/dev/null
identical alpha21264-text-stream --family alpha21264 --stream "$tmp/s.txt"
"$PMUSIM" gen --seed 8 --cycles 5000 -o "$tmp/s.bin" >/dev/null
identical itanium-binary-stream --stream "$tmp/s.bin"

# The traffic names the configuration's registers: the built-in Itanium 2 setup programs
# PMC4 before the first record, and every interrupt serviced shows the line rising.
"$PMUSIM_SC" run --seed 1 --cycles 200000 --quiet --traffic "$tmp/t" >/dev/null
ok traffic-programs-pmc4-at-0 -- grep -q '^0 W PMC4 0x' "$tmp/t"
ok traffic-line-rises -- grep -q ' pmi 1$' "$tmp/t"

# ---- the program's arguments and files -----------------------------------------------
check sc-no-command 2 "expected the command 'run', found nothing" -- "$PMUSIM_SC"
check sc-other-command 2 "expected the command 'run', found 'count'" -- "$PMUSIM_SC" count
check sc-help 0 "on the SystemC/TLM-2.0 platform" -- "$PMUSIM_SC" --help
check sc-run-help 0 "--traffic FILE" -- "$PMUSIM_SC" run --help
check sc-run-help-usage 0 "usage: pmusim-sc run" -- "$PMUSIM_SC" run --help
check sc-run-help-family 0 "Another family's: pmusim-sc run --family F --help" -- "$PMUSIM_SC" run --help
check sc-version 0 "pmusim-sc 1." -- "$PMUSIM_SC" --version
check sc-short-version 0 "pmusim-sc 1." -- "$PMUSIM_SC" -V
check sc-run-version 0 "pmusim 1." -- "$PMUSIM_SC" run --version
check sc-bad-option 2 "unknown argument '--bogus'" -- "$PMUSIM_SC" run --bogus
check sc-bad-backend 2 "--backend: expected cosim, rtl or ref, found 'spice'" -- "$PMUSIM_SC" run --backend spice
printf 'bogus\n' >"$tmp/bad.txt"
check sc-bad-stream 2 "bad.txt:1:1: field 'bogus'" -- "$PMUSIM_SC" run --stream "$tmp/bad.txt"
cp "$tmp/s.bin" "$tmp/s.bin.orig"
check sc-traffic-is-the-stream 2 "--traffic: '$tmp/s.bin' is the same file as the input of --stream" -- \
    "$PMUSIM_SC" run --stream "$tmp/s.bin" --traffic "$tmp/s.bin"
ok sc-stream-untouched -- cmp -s "$tmp/s.bin" "$tmp/s.bin.orig"
# Waves: the RTL's FST and the SystemC signals' VCD beside it, both from --wave-from; clock
# by clock (the clock's edges are in the VCD), then loosely timed (no clock: the VCD still
# starts at the window, whose start and end sync the quantum keeper).
mkdir "$tmp/w"
check sc-waves 0 "waveform: $tmp/w/w.vcd" -- "$PMUSIM_SC" run --quantum 1 --cycles 3000 --waves "$tmp/w/w.fst" --wave-from 1000
ok sc-waves-fst-written -- test -s "$tmp/w/w.fst"
ok sc-vcd-has-the-lines -- grep -q 'rtl.irq\|irq' "$tmp/w/w.vcd"
ok sc-vcd-names-the-parts -- grep -q '\$scope module rtl' "$tmp/w/w.vcd"
first_ps=$(grep -m1 '^#' "$tmp/w/w.vcd" | tr -d '#')
ok sc-vcd-starts-at-the-window -- test "${first_ps:-0}" -ge 1000000 -a "${first_ps:-0}" -lt 1100000
ok sc-waves-leave-no-temporary-files -- test "$(ls -A "$tmp/w" | sort | tr '\n' ' ')" = "w.fst w.gtkw w.vcd "
ok sc-waves-layout-views-the-window -- grep -qx '\[timestart\] 1000000' "$tmp/w/w.gtkw"
mkdir "$tmp/wq"
check sc-waves-loosely-timed 0 "waveform: $tmp/wq/w.vcd" -- "$PMUSIM_SC" run --quantum 100000 --cycles 3000 \
    --waves "$tmp/wq/w.fst" --wave-from 1000
dumped_ps=$(sed -n 's/^All initial values are dumped below at time .* = \([0-9]*\) timescale units\.$/\1/p' "$tmp/wq/w.vcd")
ok sc-vcd-loosely-timed-starts-at-the-window -- test "${dumped_ps:-0}" -ge 1000000 -a "${dumped_ps:-0}" -lt 1100000
# The RTL's waveform is on its own time axis (a nanosecond a record): the same either way.
fst2vcd -f "$tmp/w/w.fst" 2>/dev/null | sed '/^\$date/,/^\$end/d' >"$tmp/w1.vcd"
fst2vcd -f "$tmp/wq/w.fst" 2>/dev/null | sed '/^\$date/,/^\$end/d' >"$tmp/wq.vcd"
ok sc-waves-loosely-timed-same-fst -- bash -c "grep -q '^#1000' '$tmp/w1.vcd' && cmp -s '$tmp/w1.vcd' '$tmp/wq.vcd'"
mkdir "$tmp/w2"
check sc-waves-window-never-opened 0 "before the waveform started; no waveform written" -- \
    "$PMUSIM_SC" run --cycles 300 --waves "$tmp/w2/w.fst" --wave-from 1000
ok sc-waves-unopened-leave-nothing -- test -z "$(ls -A "$tmp/w2")"
# A signal mid-run removes the SystemC waveform's files too (the VCD SystemC names itself).
sc_abs=$(cd "$(dirname "$PMUSIM_SC")" && pwd)/$(basename "$PMUSIM_SC")
here=$PWD
cd "$tmp" || exit 1
interrupted sc-waves-TERM TERM '.w.vcd.pmusim-*.vcd' -- "$sc_abs" run --cycles 1000000000 --waves w.fst
cd "$here" || exit 1
check sc-no-banner 0 "" -- bash -c "'$PMUSIM_SC' run --cycles 100 --quiet 2>&1 | grep -qv -i copyright"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
