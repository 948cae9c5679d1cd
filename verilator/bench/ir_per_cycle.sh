#!/usr/bin/env bash
# ir_per_cycle.sh - host instructions per simulated cycle of `pmusim run`, counted by
# valgrind's callgrind (docs/bench.md, "Instructions per cycle").  Unlike cycles/s, the
# count does not depend on the machine's load, so it can be checked against a committed
# baseline: this is the regression check of `make test` and the callgrind column of
# `make bench`.
#
# Each backend runs twice on the same stream and configuration, over the first N1 and the
# first N2 records; (Ir(N2) - Ir(N1)) / (N2 - N1) is the cost of one more record, without
# the process start, the configuration and the report.
#
#   ir_per_cycle.sh --pmusim BIN --out DIR [--family NAME] [--config FILE] [--stream FILE]
#                   [--seed N] [--records N1,N2] [--backends "ref rtl cosim"] [--baseline FILE]
#
# Without --family, pmusim's default family (Itanium); without --config, the family's
# built-in configuration.  Without --stream it generates the seed's workload stream (N2
# records) of the family under DIR.
# It prints "ir: <backend> <instructions per cycle>" for each backend.  With --baseline
# (lines "<backend> <instructions per cycle>"), each figure more than 10% above its
# baseline is a failure; one more than 10% below it is reported, so that the baseline can
# be lowered with the change that earned it.
#
# Exit status: 0, 1 (a run failed or a figure regressed), 2 (bad arguments).
set -euo pipefail

usage() {
    echo "usage: $0 --pmusim BIN --out DIR [--family NAME] [--config FILE] [--stream FILE] [--seed N] [--records N1,N2] [--backends LIST] [--baseline FILE]" >&2
    exit 2
}

PMUSIM= FAMILY= CONFIG= OUT= STREAM= SEED=1 RECORDS=10000,40000 BACKENDS="ref rtl cosim" BASELINE=
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || { echo "ir_per_cycle.sh: $1: expected a value after it" >&2; usage; }
    case $1 in
        --pmusim) PMUSIM=$2 ;;
        --family) FAMILY=$2 ;;
        --config) CONFIG=$2 ;;
        --out) OUT=$2 ;;
        --stream) STREAM=$2 ;;
        --seed) SEED=$2 ;;
        --records) RECORDS=$2 ;;
        --backends) BACKENDS=$2 ;;
        --baseline) BASELINE=$2 ;;
        *) echo "ir_per_cycle.sh: unknown option '$1'" >&2; usage ;;
    esac
    shift 2
done
for v in PMUSIM OUT; do
    [ -n "${!v}" ] || { echo "ir_per_cycle.sh: --${v,,} is required" >&2; usage; }
done
[[ $RECORDS =~ ^([0-9]+),([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -ge 1 ] &&
    [ "${BASH_REMATCH[2]}" -gt "${BASH_REMATCH[1]}" ] ||
    { echo "ir_per_cycle.sh: --records: expected N1,N2 with 1 <= N1 < N2, found '$RECORDS'" >&2; exit 2; }
N1=${BASH_REMATCH[1]} N2=${BASH_REMATCH[2]}
[[ $SEED =~ ^[0-9]+$ ]] || { echo "ir_per_cycle.sh: --seed: expected a number, found '$SEED'" >&2; exit 2; }
for b in $BACKENDS; do
    case $b in ref | rtl | cosim) ;; *) echo "ir_per_cycle.sh: --backends: '$b', expected ref, rtl or cosim" >&2; exit 2 ;; esac
done
[ -z "$BASELINE" ] || [ -r "$BASELINE" ] || { echo "ir_per_cycle.sh: --baseline: cannot read '$BASELINE'" >&2; exit 2; }
command -v valgrind > /dev/null || { echo "ir_per_cycle.sh: valgrind is not installed (make deps installs it)" >&2; exit 1; }

mkdir -p "$OUT"
fail() { echo "ir: $*" >&2; exit 1; }
# The family and the configuration, as pmusim takes them (empty: its defaults).
fam_args=() cfg_args=()
[ -z "$FAMILY" ] || fam_args=(--family "$FAMILY")
[ -z "$CONFIG" ] || cfg_args=(--config "$CONFIG")

if [ -z "$STREAM" ]; then
    STREAM=$OUT/ir-stream.bin
    "$PMUSIM" gen "${fam_args[@]}" --seed "$SEED" --cycles "$N2" --format binary -o "$STREAM" > "$OUT/ir-gen.log" 2>&1 ||
        { cat "$OUT/ir-gen.log" >&2; fail "generating the stream failed"; }
fi

# Instructions of one run over the first n records: callgrind's "Collected" total.
collected() {
    local b=$1 n=$2 log=$OUT/ir-$1-$2.log
    if ! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$PMUSIM" run "${fam_args[@]}" --backend "$b" --stream "$STREAM" --cycles "$n" "${cfg_args[@]}" \
        > "$log.out" 2> "$log"; then
        cat "$log.out" "$log" >&2
        fail "'$PMUSIM run ${fam_args[*]} --backend $b --stream $STREAM --cycles $n ${cfg_args[*]}' failed under callgrind"
    fi
    grep -q "^Simulation speed: .*($n cycles in " "$log.out" ||
        fail "$log.out: the run did not step $n records (is the stream shorter?)"
    sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$log"
}

status=0
for b in $BACKENDS; do
    i1=$(collected "$b" "$N1")
    i2=$(collected "$b" "$N2")
    [ -n "$i1" ] && [ -n "$i2" ] || fail "no 'Collected' line from callgrind ($OUT/ir-$b-*.log)"
    per=$(( (i2 - i1 + (N2 - N1) / 2) / (N2 - N1) ))
    line="ir: $b $per"
    if [ -n "$BASELINE" ]; then
        base=$(awk -v b="$b" '$1 == b { print $2 }' "$BASELINE")
        [[ $base =~ ^[0-9]+$ ]] || fail "$BASELINE: no line '$b <instructions per cycle>'"
        if [ $((per * 10)) -gt $((base * 11)) ]; then
            line+="   REGRESSED: more than 10% above the baseline $base ($BASELINE)"
            status=1
        elif [ $((per * 10)) -lt $((base * 9)) ]; then
            line+="   (more than 10% below the baseline $base: lower it in $BASELINE)"
        else
            line+="   (baseline $base)"
        fi
    fi
    echo "$line"
done
exit $status
