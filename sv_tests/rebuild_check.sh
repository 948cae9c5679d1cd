#!/usr/bin/env bash
# Checks sv_tests/run.sh's rebuild rule (docs/ita-rtl.md, "Testbenches"): a testbench is rebuilt
# when an RTL source it instantiates or tb_common.svh changes, and not when a module of its
# folder that it does not use changes.  Runs on a copy (sv_tests/run.sh, tb_common.svh,
# ita/tb_ita_counter.sv and the ita folder's sources and generated includes, as
# `make sv-test-families` lists them) in a temporary directory, so the tree's own timestamps
# are never touched.
# Icarus only: both simulators take the same input list from run.sh.
# Prints one line per check and ends with "N passed, M failed".
set -u
cd "$(dirname "$0")/.."

passed=0
failed=0
check() {  # check <name> <0 when it holds>
    if [ "$2" -eq 0 ]; then
        echo "PASS $1"
        passed=$((passed + 1))
    else
        echo "FAIL $1"
        failed=$((failed + 1))
    fi
}

if ! line=$(make --no-print-directory -s sv-test-families 2> /dev/null | grep '^ita|'); then
    echo "FAIL sv-test-families lists no ita folder"
    echo "0 passed, 1 failed"
    exit 1
fi
IFS='|' read -r _ inc gen srcs <<< "$line"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/sv_tests/ita"
cp sv_tests/run.sh sv_tests/tb_common.svh "$tmp/sv_tests/"
mkdir -p "$tmp/tests" "$tmp/tools" && cp tests/jobs_lib.sh "$tmp/tests/" && cp tools/sources-used.sh "$tmp/tools/"
cp sv_tests/ita/tb_ita_counter.sv "$tmp/sv_tests/ita/"
for s in $gen $srcs; do
    mkdir -p "$tmp/$(dirname "$s")"
    cp "$s" "$tmp/$s"
done
printf 'sv-test-families:\n\t@echo "ita|%s|%s|%s"\n' "$inc" "$gen" "$srcs" > "$tmp/Makefile"

# Timestamps are set explicitly (no sleeps, no same-second races): every input at hour 0;
# after each run the testbench's build is set to the next hour, and an input "changes" by
# moving to the hour after that.
hour=0
at() { echo "2000-01-01 $(printf '%02d' "$1"):00:00"; }
find "$tmp" -type f -exec touch -d "$(at 0)" {} +
exe=$tmp/${BUILD:-build}/sv_tests/icarus/ita/tb_ita_counter/tb.vvp
exe_set=none   # the build's timestamp as last set

# run <name> <expect: rebuilt | kept>: runs the testbench and checks it passed and was or
# was not rebuilt.
run() {
    local name=$1 expect=$2 out
    out=$(SV_TESTS_SIMS=icarus bash "$tmp/sv_tests/run.sh" tb_ita_counter 2>&1)
    check "$name: tb_ita_counter passes" "$(grep -q '^PASS tb_ita_counter icarus' <<< "$out"; echo $?)"
    local mtime
    mtime=$(stat -c %Y "$exe" 2> /dev/null || echo none)
    if [ "$expect" = rebuilt ]; then
        check "$name: rebuilt" "$([ "$mtime" != none ] && [ "$mtime" != "$exe_set" ]; echo $?)"
    else
        check "$name: not rebuilt" "$([ "$mtime" = "$exe_set" ]; echo $?)"
    fi
    hour=$((hour + 1))
    [ -e "$exe" ] && touch -d "$(at "$hour")" "$exe"
    exe_set=$(date -d "$(at "$hour")" +%s)
    hour=$((hour + 1))
}
changed() { touch -d "$(at "$hour")" "$tmp/$1"; }

run "first run" rebuilt
run "nothing changed" kept
changed rtl/ita/ita_ovf_ctrl.sv
run "an unused module changed (ita_ovf_ctrl.sv)" kept
changed rtl/ita/ita_counter.sv
run "the module under test changed (ita_counter.sv)" rebuilt
changed sv_tests/tb_common.svh
run "the shared include changed (tb_common.svh)" rebuilt
changed sv_tests/ita/tb_ita_counter.sv
run "the testbench changed" rebuilt

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
