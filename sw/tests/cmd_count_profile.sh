#!/usr/bin/env bash
# cmd_count_profile.sh - `pmusim count` and `pmusim profile` from the command line:
# every bad argument gets exit 2 and one line naming it; good runs exit 0 with exact
# counts and a profile whose percentages add up.  Run from the repository root (make
# test does).  PMUSIM names the binary (default build/pmusim).
# Ends with "N passed, M failed".
set -u

PMUSIM=${PMUSIM:-build/pmusim}
GEN=${GEN:-build/pmusim}  # for `pmusim gen`
tmp=$(mktemp -d /tmp/pmusim_cmd.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../tests/cli_lib.sh"


count() { "$PMUSIM" count "$@"; }
profile() { "$PMUSIM" profile "$@"; }

need_binary "$PMUSIM"

# ---- count: arguments -----------------------------------------------------------------
check count-no-event 2 "pmusim count: expected at least one -e EVENT[:mod...]" -- count --cycles 10
check count-unknown-arg 2 "pmusim count: unknown argument '--bogus' (see pmusim count --help)" -- count -e CPU_CYCLES --bogus
check count-event-missing-value 2 "pmusim count: -e: expected a value" -- count -e
check count-event-empty 2 "--event: expected EVENT[:mod...], found ''" -- count --event=
check count-unknown-event 2 "unknown event 'CPU_CYCLE'" -- count -e CPU_CYCLE
check count-bad-modifier 2 "pmusim count: -e CPU_CYCLES:bogus:" -- count -e CPU_CYCLES:bogus
check count-threshold 2 "pmusim count: -e NOPS_RETIRED:thres=6:" -- count -e NOPS_RETIRED:thres=6
check count-five-events 2 "at most 4 events" -- count -e CPU_CYCLES -e CPU_CYCLES -e CPU_CYCLES -e CPU_CYCLES -e CPU_CYCLES
check count-seed-nan 2 "--seed: expected a decimal number or 0x hex, found 'abc'" -- count -e CPU_CYCLES --seed abc
check count-cycles-zero 2 "--cycles: expected a number >= 1, found '0'" -- count -e CPU_CYCLES --cycles 0
check count-cycles-negative 2 "--cycles: expected an unsigned number without a sign, found '-5'" -- count -e CPU_CYCLES --cycles -5
check count-mode 2 "--mode: expected workload or random, found 'fast'" -- count -e CPU_CYCLES --mode fast
check count-procs-zero 2 "--procs: expected a number in 1..64 (0x40), found '0'" -- count -e CPU_CYCLES --procs 0
check count-procs-random 2 "--procs: expected --mode workload" -- count -e CPU_CYCLES --mode random --procs 3
check count-backend 2 "--backend: expected cosim, rtl or ref, found 'spice'" -- count -e CPU_CYCLES --backend spice
check count-model 2 "--model: expected itanium or itanium2, found 'itanium3'" -- count -e CPU_CYCLES --model itanium3
check count-seed-with-stream 2 "--seed: not used with --stream" -- count -e CPU_CYCLES --stream x.txt --seed 3
check count-mode-with-stream 2 "--mode: not used with --stream" -- count -e CPU_CYCLES --stream x.txt --mode random
check count-procs-with-stream 2 "--procs: not used with --stream" -- count -e CPU_CYCLES --stream x.txt --procs 2
check count-stream-empty 2 "--stream: expected a file name" -- count -e CPU_CYCLES --stream ""
check count-stream-missing 2 "$tmp/none.txt" -- count -e CPU_CYCLES --stream "$tmp/none.txt"
check count-pid-nan 2 "--pid: expected a decimal number or 0x hex, found 'abc'" -- count -e CPU_CYCLES --pid abc
check count-pid-range 2 "--pid: expected a number in 0..65535 (0xffff), found '70000'" -- count -e CPU_CYCLES --pid 70000
check count-pid-twice 2 "--pid: process 5 listed twice" -- count -e CPU_CYCLES --pid 5,5
check count-pid-trailing-comma 2 "--pid: trailing ',' in '5,'" -- count -e CPU_CYCLES --pid 5,
check count-pid-empty-item 2 "--pid: expected process ids 0..65535 separated by commas, found '5,,6'" -- count -e CPU_CYCLES --pid 5,,6
check count-pid-system-wide 2 "--pid: not used with --system-wide" -- count -e CPU_CYCLES --system-wide --pid 5
check count-dcr-pp-alone 2 "--dcr-pp: expected --system-wide too" -- count -e CPU_CYCLES --dcr-pp 0
check count-dcr-pp-value 2 "--dcr-pp: expected 0 or 1, found '2'" -- count -e CPU_CYCLES --system-wide --dcr-pp 2
check count-latency-range 2 "--irq-latency: expected a number in 0..1000000 (0xf4240), found '2000000'" -- count -e CPU_CYCLES --irq-latency 2000000
check count-flag-with-value 2 "--per-process: takes no value" -- count -e CPU_CYCLES --per-process=1
check count-help 0 "usage: pmusim count -e EVENT" -- count --help
check count-option-twice 2 "--backend: given twice; expected it once" -- count -e CPU_CYCLES --backend ref --backend rtl
check count-pid-repeated 2 "--pid: process 5 listed twice" -- count -e CPU_CYCLES --pid 5 --pid 4,5
check count-family 2 "--family: expected $families_or_list, found 'alpha'" -- count -e CPU_CYCLES --family alpha

# a bad stream line is bad input: exit 2, its file:line
printf 'cpl=3 bogus=1\n' >"$tmp/bad.txt"
check count-bad-stream 2 "bad.txt:1" -- count -e CPU_CYCLES --backend ref --stream "$tmp/bad.txt"

# ---- count: runs ------------------------------------------------------------------------
check count-lockstep 0 "exact: the 64-bit counts equal the reference's exact per-process totals" -- \
    count -e CPU_CYCLES:u:k -e IA64_INST_RETIRED --cycles 200000
check count-lockstep-clean 0 "lock-step: 200000 cycles, 0 mismatches" -- \
    count -e CPU_CYCLES:u:k --cycles 200000
check count-per-process 0 "exact against the reference model alone: the 64-bit counts equal the reference's exact per-process totals (only --backend cosim checks the RTL against the reference model)" -- \
    count -e CPU_CYCLES -e NOPS_RETIRED:k --per-process --backend ref --cycles 300000
check count-system-wide 0 "exact against the reference model alone: the 64-bit counts equal the reference's exact event totals (only --backend cosim checks the RTL against the reference model)" -- \
    count -e CPU_CYCLES:u:k --system-wide --dcr-pp 0 --backend ref --cycles 300000
check count-system-wide-per-process 0 "processes monitored: 5" -- \
    count -e CPU_CYCLES:u:k --system-wide --per-process --backend ref --cycles 300000
check count-itanium 0 "exact against the reference model alone: the 64-bit counts equal" -- count -e IA64_INST_RETIRED:k:u --model itanium --backend ref --cycles 100000
check count-rtl 0 "CPU_CYCLES" -- count -e CPU_CYCLES --backend rtl --cycles 50000

# --pid: only the listed process has a context; the per-process table shows its row.
first_pid=$(count -e CPU_CYCLES --per-process --backend ref --cycles 100000 | awk '$1 ~ /^[1-9][0-9]*$/ {print $1; exit}')
check count-pid 0 "processes monitored: 1" -- count -e CPU_CYCLES --pid "$first_pid" --backend ref --cycles 100000

# The per-process rows add up to the "all" row, and the "all" row to the total count.
per_process_sums() {
    local out total
    out=$(count -e CPU_CYCLES:u:k -e IA64_INST_RETIRED --per-process --backend ref --cycles 300000) || return 1
    total=$(count -e CPU_CYCLES:u:k -e IA64_INST_RETIRED --backend ref --cycles 300000 | awk '$1 == "CPU_CYCLES:u:k" {print $3}')
    awk -v total="$total" '
        $1 ~ /^[0-9]+$/ { a += $2; b += $3; rows++ }
        $1 == "all"     { all_a = $2; all_b = $3 }
        END {
            if (rows < 3 || a != all_a || b != all_b || all_a != total || total == 0) {
                printf "    rows %d: sums %d %d, all %d %d, total %d\n", rows, a, b, all_a, all_b, total
                exit 1
            }
        }' <<<"$out"
}
ok count-per-process-rows-add-up -- per_process_sums

# System-wide with DCR.pp = 0 counts less than with DCR.pp = 1 (handlers left out).
dcr_pp_order() {
    local with without
    with=$(count -e CPU_CYCLES:k --system-wide --dcr-pp 1 --backend ref --cycles 300000 | awk '$1 == "CPU_CYCLES:k" {print $3}')
    without=$(count -e CPU_CYCLES:k --system-wide --dcr-pp 0 --backend ref --cycles 300000 | awk '$1 == "CPU_CYCLES:k" {print $3}')
    if [ -z "$with" ] || [ -z "$without" ] || [ "$without" -ge "$with" ]; then
        echo "    DCR.pp=1: '$with', DCR.pp=0: '$without'"
        return 1
    fi
}
ok count-dcr-pp-leaves-out-handlers -- dcr_pp_order

# ---- profile: arguments -----------------------------------------------------------------
check profile-no-period 2 "pmusim profile: --period: expected --period N" -- profile -e CPU_CYCLES
check profile-period-zero 2 "--period: expected a number >= 1, found '0'" -- profile -e CPU_CYCLES --period 0
check profile-period-too-big 2 "--period: expected 1..2^47 (the counter width of Itanium 2), found 140737488355329" -- \
    profile -e CPU_CYCLES --period 140737488355329
check profile-period-hex-as-typed 2 "--period: expected 1..2^47 (the counter width of Itanium 2), found 0x800000000001" -- \
    profile -e CPU_CYCLES --period 0x800000000001
check profile-period-itanium 2 "--period: expected 1..2^32 (the counter width of Itanium), found 4294967297" -- \
    profile -e CPU_CYCLES --period 4294967297 --model itanium
check profile-two-events 2 "-e NOPS_RETIRED: expected one event (a profile samples one), found 2" -- \
    profile -e CPU_CYCLES -e NOPS_RETIRED --period 10
check profile-no-event 2 "expected at least one -e" -- profile --period 10
check profile-unknown-arg 2 "unknown argument '--bogus' (see pmusim profile --help)" -- profile -e CPU_CYCLES --period 10 --bogus
check profile-top-zero 2 "--top: expected a number in 1..1000000 (0xf4240), found '0'" -- profile -e CPU_CYCLES --period 10 --top 0
check profile-symbols-empty 2 "--symbols: expected a file name" -- profile -e CPU_CYCLES --period 10 --symbols=
check profile-symbols-missing 2 "none.sym: cannot open: No such file or directory" -- profile -e CPU_CYCLES --period 10 --symbols "$tmp/none.sym"
printf '# functions\n1000 2000 f\nzz 3000 g\n' >"$tmp/bad1.sym"
check profile-symbols-bad-start 2 "bad1.sym:3: start: expected 'START END NAME' with hexadecimal addresses" -- \
    profile -e CPU_CYCLES --period 10 --symbols "$tmp/bad1.sym"
printf '1000 2000\n' >"$tmp/bad2.sym"
check profile-symbols-no-name 2 "bad2.sym:1: name: expected a function name" -- profile -e CPU_CYCLES --period 10 --symbols "$tmp/bad2.sym"
printf '2000 1000 f\n' >"$tmp/bad3.sym"
check profile-symbols-backwards 2 "bad3.sym:1: end: expected an end above the start 0x2000" -- \
    profile -e CPU_CYCLES --period 10 --symbols "$tmp/bad3.sym"
printf '1000 2000 f\n1800 2800 g\n' >"$tmp/bad4.sym"
check profile-symbols-overlap 2 "bad4.sym:2: g [0x1800, 0x2800) overlaps f [0x1000, 0x2000) of line 1" -- \
    profile -e CPU_CYCLES --period 10 --symbols "$tmp/bad4.sym"
check profile-bad-event 2 "unknown event 'NOPS'" -- profile -e NOPS --period 10
check profile-help 0 "usage: pmusim profile -e EVENT" -- profile --help
check profile-symbols-directory 2 "$tmp: cannot read: Is a directory" -- profile -e CPU_CYCLES --period 10 --symbols "$tmp"
check profile-symbols-too-big 2 "/dev/zero: larger than 67108864 bytes, the limit for a symbol file" -- profile -e CPU_CYCLES --period 10 --symbols /dev/zero
: >"$tmp/empty.sym"
check profile-symbols-empty-file 0 "[outside every function]" -- profile -e CPU_CYCLES --period 997 --cycles 20000 --backend ref --symbols "$tmp/empty.sym"

# ---- encode: the event library's programming, reached through the family --------------------
check encode-inverse-alone 2 "pmusim encode: --inverse: without a code range (--irange A..B) there is nothing to apply it to" -- \
    "$PMUSIM" encode -e NOPS_RETIRED --inverse
check encode-family 0 "PMC4 = 0x0000000000800828" -- "$PMUSIM" encode --family itanium -e IA64_INST_RETIRED
check encode-family-unknown 2 "pmusim encode: --family: expected $families_or_list, found 'alpha'" -- "$PMUSIM" encode --family=alpha -e IA64_INST_RETIRED
check encode-range-leading-zero 2 "--irange start: expected a decimal number without leading zeros, or 0x hex, found '0100'" -- \
    "$PMUSIM" encode -e NOPS_RETIRED --irange 0100..0x200

# ---- profile: runs ------------------------------------------------------------------------
# The percentages add up to 100 and the samples to the header's count.
profile_adds_up() {
    local out
    out=$(profile "$@") || { echo "    exit $?"; return 1; }
    awk '
        /^profile:/ { for (i = 1; i <= NF; i++) if ($(i+1) == "samples,") want = $i }
        $2 ~ /%$/   { n += $1; p += substr($2, 1, length($2) - 1); rows++ }
        END {
            if (rows == 0 || n != want || p < 99.9 || p > 100.1) {
                printf "    rows %d, samples %d of %d, percent %.2f\n", rows, n, want, p
                exit 1
            }
        }' <<<"$out" || { echo "$out" | sed 's/^/    /' | head -20; return 1; }
    # the verdict names what it compared: the pair, or the reference model alone
    grep -qE "^exact( against the reference model alone)?: the 64-bit counts equal" <<<"$out" || { echo "    not exact"; return 1; }
}
"$GEN" gen --seed 3 --cycles 200000 --symbols "$tmp/w.sym" -o "$tmp/w.bin" --format binary >/dev/null 2>&1
ok profile-generated-functions -- profile_adds_up -e IA64_INST_RETIRED --period 500 --seed 3 --cycles 200000
ok profile-symbol-file -- profile_adds_up -e IA64_INST_RETIRED --period 500 --stream "$tmp/w.bin" --symbols "$tmp/w.sym"
ok profile-addresses -- profile_adds_up -e CPU_CYCLES --period 997 --stream "$tmp/w.bin" --backend ref
ok profile-system-wide-kernel -- profile_adds_up -e CPU_CYCLES:k --period 300 --system-wide --seed 3 --cycles 200000 --backend ref
check profile-names-functions 0 ":main" -- profile -e IA64_INST_RETIRED --period 500 --stream "$tmp/w.bin" --symbols "$tmp/w.sym" --backend ref
check profile-top 0 "more functions with samples" -- profile -e IA64_INST_RETIRED --period 200 --seed 3 --cycles 200000 --backend ref --top 2
# The same stream profiled from the file with its symbols and from the generator
# directly gives the same profile.
same_profile() {
    local a b
    a=$(profile -e IA64_INST_RETIRED --period 500 --stream "$tmp/w.bin" --symbols "$tmp/w.sym" --backend ref | sed -n '2,/^records/p')
    b=$(profile -e IA64_INST_RETIRED --period 500 --seed 3 --cycles 200000 --backend ref | sed -n '2,/^records/p')
    [ -n "$a" ] && [ "$a" = "$b" ] || { diff <(echo "$a") <(echo "$b") | head -10 | sed 's/^/    /'; return 1; }
}
ok profile-file-equals-generator -- same_profile

# ---- profile --sample: a capture unit (EAR or BTB, docs/ita-ear-btb.md) --------------------
check profile-sample-counter-event 2 "--sample CPU_CYCLES: expected an EAR or BTB event (e.g. DATA_EAR_CACHE_LAT64, BRANCH_EVENT); CPU_CYCLES is a counter event: sample it with -e" -- \
    profile --sample CPU_CYCLES --period 10
check profile-sample-unknown 2 "--sample DATA_EAR_CACHE_LAT5: unknown event 'DATA_EAR_CACHE_LAT5' on Itanium 2" -- \
    profile --sample DATA_EAR_CACHE_LAT5 --period 10
check profile-sample-model-name 2 "--sample L1I_EAR_CACHE_LAT4: unknown event 'L1I_EAR_CACHE_LAT4' on Itanium" -- \
    profile --sample L1I_EAR_CACHE_LAT4 --period 10 --model itanium
check profile-sample-and-event 2 "--sample BRANCH_EVENT: expected either -e or --sample" -- \
    profile --sample BRANCH_EVENT -e CPU_CYCLES --period 10
check profile-sample-bad-modifier 2 "-e DATA_EAR_EVENTS:bogus:" -- profile --sample DATA_EAR_CACHE_LAT64:bogus --period 10
check profile-sample-runs 0 "profile: INSTRUCTION_EAR_CACHE_LAT4:u (capture unit), a sample every 7 captures" -- \
    profile --sample INSTRUCTION_EAR_CACHE_LAT4:u --period 7 --model itanium --cycles 5000 --backend ref
json_ok() {
    local out
    out=$(profile "$@" 2>/dev/null) || { echo "    exit $?"; return 1; }
    printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["total"] == sum(f["samples"] for f in d["functions"]), "functions do not add up"
for s in d["samples"]:
    assert "regs" in s and "unit" in s, s
if len(sys.argv) > 1:
    assert d["samples"] and all(sys.argv[1] in s for s in d["samples"]), "no decoded " + sys.argv[1]
' $JSON_FIELD || { echo "    not the expected JSON"; return 1; }
}
JSON_FIELD= ok profile-json -- json_ok -e CPU_CYCLES --period 997 --cycles 20000 --backend ref --json

# Decoded samples end to end.  These need the hardware's EAR and BTB capture logic
# (csim/ita/ref_ear.c, ref_btb.c and the RTL's ita_iear/ita_dear/ita_btb) and a workload
# with L1I misses, load latencies and branches.
samples_decoded() {
    local want=$1 out
    shift
    out=$(profile "$@") || { echo "    exit $?"; return 1; }
    printf '%s\n' "$out" | grep -q -- "$want" || { echo "    no '$want' line"; printf '%s\n' "$out" | head -5 | sed 's/^/    /'; return 1; }
    printf '%s\n' "$out" | awk '/^profile:/ { for (i = 1; i <= NF; i++) if ($(i+1) == "samples,") n = $i }
        END { exit !(n > 0) }' || { echo "    no samples"; return 1; }
}
ok profile-sample-dear -- samples_decoded "^sample .*: D-EAR: instruction 0x[0-9a-f]* data 0x[0-9a-f]* latency [0-9]" \
    --sample DATA_EAR_CACHE_LAT4 --period 5 --seed 3 --cycles 200000
ok profile-sample-iear -- samples_decoded "^sample .*: I-EAR: fetch 0x[0-9a-f]* latency [0-9]" \
    --sample L1I_EAR_CACHE_LAT4 --period 5 --seed 3 --cycles 200000
ok profile-sample-btb -- samples_decoded "^  0x[0-9a-f]* -> 0x[0-9a-f]* taken" \
    --sample BRANCH_EVENT --period 20 --seed 3 --cycles 200000
ok profile-sample-btb-itanium -- samples_decoded "^sample .*: BTB: [1-4] branch" \
    --sample BRANCH_EVENT --period 20 --seed 3 --cycles 200000 --model itanium
JSON_FIELD=daddr ok profile-sample-json -- json_ok --sample DATA_EAR_CACHE_LAT4 --period 5 --seed 3 --cycles 200000 --backend ref --json

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
