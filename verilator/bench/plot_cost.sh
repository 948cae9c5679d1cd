#!/usr/bin/env bash
# plot_cost.sh - what --plot costs a long run (docs/bench.md, "The cost of --plot"): the same
# `pmusim run` of N records with and without --plot FILE, compared two ways.
#
#   - host instructions (valgrind's callgrind) of the whole run on the reference backend:
#     the count does not depend on the machine's load;
#   - wall time on each backend: REPEAT runs of each, with and without in turn, the median
#     of the ratios of each pair (pairs keep the ratio when the machine's speed drifts).
#
# The goal is a run less than 10% longer with --plot; each row says "met" or "NOT met".
#
#   plot_cost.sh --pmusim BIN --out DIR [--cycles N] [--repeat N] [--backends "ref rtl cosim"]
#                [--format png|svg|pdf] [--no-callgrind]
#
# Exit status: 0 (every row met), 1 (a row not met, or a run failed), 2 (bad arguments).
set -euo pipefail

usage() {
    echo "usage: $0 --pmusim BIN --out DIR [--cycles N] [--repeat N] [--backends LIST] [--format png|svg|pdf] [--no-callgrind]" >&2
    exit 2
}

PMUSIM= OUT= CYCLES=10000000 REPEAT=3 BACKENDS="ref rtl cosim" FORMAT=png CALLGRIND=1
while [ $# -gt 0 ]; do
    case $1 in
        --no-callgrind) CALLGRIND=0; shift; continue ;;
    esac
    [ $# -ge 2 ] || { echo "plot_cost.sh: $1: expected a value after it" >&2; usage; }
    case $1 in
        --pmusim) PMUSIM=$2 ;;
        --out) OUT=$2 ;;
        --cycles) CYCLES=$2 ;;
        --repeat) REPEAT=$2 ;;
        --backends) BACKENDS=$2 ;;
        --format) FORMAT=$2 ;;
        *) echo "plot_cost.sh: unknown option '$1'" >&2; usage ;;
    esac
    shift 2
done
[ -n "$PMUSIM" ] && [ -n "$OUT" ] || usage
[[ $CYCLES =~ ^[1-9][0-9]*$ ]] || { echo "plot_cost.sh: --cycles: expected a number, found '$CYCLES'" >&2; exit 2; }
[[ $REPEAT =~ ^[1-9][0-9]*$ ]] || { echo "plot_cost.sh: --repeat: expected a number, found '$REPEAT'" >&2; exit 2; }
case $FORMAT in png | svg | pdf) ;; *) echo "plot_cost.sh: --format: expected png, svg or pdf, found '$FORMAT'" >&2; exit 2 ;; esac
mkdir -p "$OUT"
plot=$OUT/plot-cost.$FORMAT
status=0

# verdict LABEL RATIO: one row, "met" below 1.10.
verdict() {
    local ok
    ok=$(awk -v r="$2" 'BEGIN { print (r < 1.10) ? "met" : "NOT met" }')
    printf 'plot-cost: %-34s %s  (goal < 1.10: %s)\n' "$1" "$2" "$ok"
    [ "$ok" = met ] || status=1
}

run() { "$PMUSIM" run --seed 1 --cycles "$CYCLES" --quiet "$@" >/dev/null; }

if [ "$CALLGRIND" = 1 ]; then
    command -v valgrind >/dev/null || { echo "plot_cost.sh: valgrind is not installed (make deps installs it)" >&2; exit 1; }
    ir() {
        local f=$OUT/plot-cost.callgrind
        valgrind --tool=callgrind --callgrind-out-file="$f" "$PMUSIM" run --seed 1 --cycles "$CYCLES" \
            --quiet --backend ref "$@" >/dev/null 2>"$OUT/plot-cost.vg" ||
            { echo "plot_cost.sh: callgrind run failed:" >&2; tail -5 "$OUT/plot-cost.vg" >&2; exit 1; }
        awk '/^summary:|^totals:/ {print $2; exit}' "$f"
    }
    without=$(ir) with=$(ir --plot "$plot")
    verdict "ref, callgrind instructions" "$(awk -v a="$with" -v b="$without" 'BEGIN { printf "%.3f", a / b }')"
    echo "plot-cost:   ($without instructions without, $with with --plot $FORMAT, $CYCLES cycles)"
fi

for b in $BACKENDS; do
    ratios=()
    for ((i = 0; i < REPEAT; i++)); do
        t0=$(date +%s.%N); run --backend "$b"; t1=$(date +%s.%N)
        run --backend "$b" --plot "$plot"; t2=$(date +%s.%N)
        ratios+=("$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "%.4f", (c - b) / (b - a) }')")
    done
    median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ r[NR] = $1 } END { printf "%.3f", r[int((NR + 1) / 2)] }')
    verdict "$b, wall time (median of $REPEAT)" "$median"
done
exit "$status"
