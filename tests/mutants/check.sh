#!/usr/bin/env bash
# check.sh - the mutation catalog against today's RTL, without building a mutant: every
# mutation of tests/mutants/catalog applies (its text is in its file exactly once), and the
# check itself refuses a stale mutation and a malformed block, naming the catalog line.
# Ends with "N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d /tmp/pmusim_mutcheck.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. tests/cli_lib.sh

check catalog-applies 0 "0 do not apply" -- bash tests/mutants/run.sh --check
printf '[stale]\nfile rtl/ita/ita_cnt_qual.sv\nfrom no such line\nto x\nwhat a stale mutation\n' > "$tmp/stale"
check stale-mutation 1 "$tmp/stale:1: mutant 'stale': 'from' text in rtl/ita/ita_cnt_qual.sv: found 0 times, expected once" \
    -- env MUTANTS_CATALOG="$tmp/stale" bash tests/mutants/run.sh --check
printf '[twice]\nfile rtl/ita/ita_ibr_match.sv\nfrom logic\nto wire\nwhat a text found more than once\n' > "$tmp/twice"
check ambiguous-mutation 1 "found $(grep -o 'logic' rtl/ita/ita_ibr_match.sv | wc -l) times, expected once" -- env MUTANTS_CATALOG="$tmp/twice" bash tests/mutants/run.sh --check
printf '[a]\nfile rtl/ita/ita_cnt_qual.sv\nfrob y\n' > "$tmp/malformed"
check malformed-block 2 "$tmp/malformed:3: expected 'file', 'from', 'to', 'what' or 'equivalent' and a value, found 'frob y'" \
    -- env MUTANTS_CATALOG="$tmp/malformed" bash tests/mutants/run.sh --check
printf '[a]\nfile rtl/ita/ita_cnt_qual.sv\nvariants ita2\n' > "$tmp/variants"
check variants-not-written 2 "$tmp/variants:3: 'variants' is not written: every Verilated variant whose sources include the file is tested" \
    -- env MUTANTS_CATALOG="$tmp/variants" bash tests/mutants/run.sh --check
printf '[unused]\nfile rtl/lint/waivers.vlt\nfrom `verilator_config\nto `verilog\nwhat a file no variant Verilates\n' > "$tmp/unused"
check file-no-variant-uses 1 "$tmp/unused:1: mutant 'unused': no Verilated variant uses rtl/lint/waivers.vlt" \
    -- env MUTANTS_CATALOG="$tmp/unused" bash tests/mutants/run.sh --check
printf '[a]\nfile rtl/ita/ita_cnt_qual.sv\nto x\nwhat no from\n' > "$tmp/incomplete"
check incomplete-block 2 "$tmp/incomplete:1: mutant 'a' has no 'from'" \
    -- env MUTANTS_CATALOG="$tmp/incomplete" bash tests/mutants/run.sh --check

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
