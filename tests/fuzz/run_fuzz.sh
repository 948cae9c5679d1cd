#!/usr/bin/env bash
# run_fuzz.sh - the body of `make fuzz` (docs/fuzzing.md): runs each libFuzzer harness for
# a while from its in-tree corpus and prints one line of figures per harness.
#
#   tests/fuzz/run_fuzz.sh --out DIR --seconds N HARNESS...
#
# The harnesses are DIR/bin/<harness>; tests/fuzz/<harness>.options, when there is one,
# holds more libFuzzer flags for it (one a line).  New inputs go to DIR/corpus/<harness>/ (the tree's
# corpus is only read), crashes to DIR/crashes/<harness>/, logs to DIR/logs/.  Exit 1 when
# a harness found a crash (each one listed with the command that reproduces it).
set -uo pipefail
cd "$(dirname "$0")/../.."

out="" seconds=60
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --*) echo "run_fuzz.sh: unknown option '$1'" >&2; exit 2 ;;
        *) break ;;
    esac
done
[ -n "$out" ] && [ $# -gt 0 ] || { echo "usage: run_fuzz.sh --out DIR --seconds N HARNESS..." >&2; exit 2; }

found=()
printf '%-20s %8s %12s %8s %8s %8s %8s\n' harness seconds execs exec/s cov ft crashes
for h in "$@"; do
    bin=$out/bin/$h
    mkdir -p "$out/corpus/$h" "$out/crashes/$h" "$out/logs"
    log=$out/logs/$h.log
    # -max_len: the seeds are short texts; longer inputs only slow the search.  -timeout: a
    # parser that takes a second on a 4 KB input has a bug of its own.
    extra=()
    [ -f "tests/fuzz/$h.options" ] && mapfile -t extra < <(grep -v '^#' "tests/fuzz/$h.options")
    "$bin" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$out/crashes/$h/" -print_final_stats=1 "${extra[@]}" \
        "$out/corpus/$h" "tests/fuzz/corpus/$h" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
    ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
    crashes=$(find "$out/crashes/$h" -type f | wc -l)
    printf '%-20s %8s %12s %8s %8s %8s %8s\n' "$h" "$seconds" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$crashes"
    if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
        found+=("$h")
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
    exit 1
fi
echo "${#@} harnesses, no crash"
