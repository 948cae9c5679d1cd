#!/usr/bin/env bash
# run_fuzz.sh - the body of `make fuzz` (docs/fuzzing.md): runs each libFuzzer harness for
# a while from its in-tree corpus and prints one line of figures per harness.
#
#   tests/fuzz/run_fuzz.sh --out DIR --seconds N [--min-rate R] HARNESS...
#
# The harnesses are DIR/bin/<harness>; tests/fuzz/<harness>.options, when there is one,
# holds more libFuzzer flags for it (one a line).  New inputs go to DIR/corpus/<harness>/ (the tree's
# corpus is only read), crashes to DIR/crashes/<harness>/, logs to DIR/logs/.  Exit 1 when
# a harness found a crash (each one listed with the command that reproduces it), or ran
# fewer than R executions (default 1000) a second of its own CPU time: a harness that slow
# explores too little to be worth its minutes.  The CPU time (user + system, from bash's
# `time`), not the wall time, so that the verdict does not depend on what else the machine
# runs; libFuzzer's own exec/s (wall time) is printed beside it.
set -uo pipefail
cd "$(dirname "$0")/../.."

out="" seconds=60 min_rate=1000
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --min-rate) min_rate="$2"; shift 2 ;;
        --*) echo "run_fuzz.sh: unknown option '$1'" >&2; exit 2 ;;
        *) break ;;
    esac
done
[ -n "$out" ] && [ $# -gt 0 ] || { echo "usage: run_fuzz.sh --out DIR --seconds N [--min-rate R] HARNESS..." >&2; exit 2; }
[[ $min_rate =~ ^[0-9]+$ ]] || { echo "run_fuzz.sh: --min-rate: expected a whole number of executions a second, found '$min_rate'" >&2; exit 2; }

found=() slow=()
printf '%-20s %8s %12s %8s %8s %11s %8s %8s %8s\n' harness seconds execs exec/s cpu-s exec/cpu-s cov ft crashes
for h in "$@"; do
    bin=$out/bin/$h
    mkdir -p "$out/corpus/$h" "$out/crashes/$h" "$out/logs"
    log=$out/logs/$h.log
    # -max_len: the seeds are short texts; longer inputs only slow the search.  -timeout: a
    # parser that takes a second on a 4 KB input has a bug of its own.
    extra=()
    [ -f "tests/fuzz/$h.options" ] && mapfile -t extra < <(grep -v '^#' "tests/fuzz/$h.options")
    TIMEFORMAT='%3U %3S'
    { time "$bin" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$out/crashes/$h/" -print_final_stats=1 "${extra[@]}" \
        "$out/corpus/$h" "tests/fuzz/corpus/$h" >"$log" 2>&1; } 2>"$out/logs/$h.time"
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
    ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
    crashes=$(find "$out/crashes/$h" -type f | wc -l)
    cpu=$(awk 'NF == 2 { printf "%.1f", $1 + $2 }' "$out/logs/$h.time")
    cpu_rate=$(awk -v n="${execs:-0}" -v t="${cpu:-0}" 'BEGIN { if (t > 0) printf "%d", n / t }')
    printf '%-20s %8s %12s %8s %8s %11s %8s %8s %8s\n' "$h" "$seconds" "${execs:-?}" "${rate:-?}" "${cpu:-?}" \
        "${cpu_rate:-?}" "${cov:-?}" "${ft:-?}" "$crashes"
    if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
        found+=("$h")
    elif [ -z "$cpu_rate" ] || [ "$cpu_rate" -lt "$min_rate" ]; then
        slow+=("$h: ${cpu_rate:-no figure of} executions a CPU second, expected at least $min_rate (see $log)")
    fi
done

if [ ${#found[@]} -gt 0 ]; then
    echo
    for h in "${found[@]}"; do
        echo "$h: see $out/logs/$h.log; reproduce with"
        find "$out/crashes/$h" -type f | sort | while read -r f; do
            echo "  $out/bin/$h $f"
        done
    done
    echo "(docs/fuzzing.md: fix the parser, then add the input to tests/fuzz/corpus/<harness>/)"
fi
if [ ${#slow[@]} -gt 0 ]; then
    echo
    printf '%s\n' "${slow[@]}"
    echo "(docs/fuzzing.md, \"Speed\": make the per-input work cheaper, or narrow the harness's inputs)"
fi
[ ${#found[@]} -eq 0 ] && [ ${#slow[@]} -eq 0 ] || exit 1
echo "${#@} harnesses, no crash, each at least $min_rate executions a CPU second"
