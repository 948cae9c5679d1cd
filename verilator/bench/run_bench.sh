#!/usr/bin/env bash
# run_bench.sh - the measurements of `make bench` (docs/bench.md).  bench/bench.mk builds
# the tools and calls this script; it can also be called by hand with the same options.
#
# On one stream and one configuration it measures the simulated cycles per second of
#   pmusim run --backend ref | rtl | cosim   (each REPEAT times, interleaved; median)
#   pmusim run --backend rtl | cosim on the generator's records of the same seed and
#                  length, as make sim runs them (REPEAT times; median)
#   pmusim-sc run (the SystemC platform, lock-step, at most 1,000,000 records; REPEAT
#                  times; median), when given, with its ratio to the C harness's lock-step
#                  against the target of a quarter (wall clock and host instructions)
#   Icarus (vvp) on the same RTL, first ICARUS_RECORDS records of the stream
# and the host instructions per simulated cycle of each pmusim row and of the SystemC row
# (callgrind, through ir_per_cycle.sh, which does not depend on the machine's load; the
# SystemC row against ir_baseline_systemc.txt); prints the ratios and
# the instruction counts against their targets, checks the counts against the committed
# baseline (--baseline), and cross-checks that Icarus and the Verilated RTL end the Icarus
# prefix with the same PMD4..7 counts.
#
# Exit status: 0 when every run succeeded and the cross-check agreed (a target that is
# not met is reported, not an error: speed depends on the machine and its load);
# 1 when a run failed, lock-step found a mismatch, the cross-check disagreed or an
# instruction count grew more than 10% over its baseline;
# 2 for bad arguments.
set -euo pipefail

usage() {
    cat >&2 <<EOF
usage: $0 --pmusim BIN --vmem BIN --tb VVP --config FILE --out DIR
          [--cycles N] [--seed N] [--icarus-records N] [--icarus-base N] [--repeat N] [--vvp BIN]
          [--pmusim-sc BIN] [--baseline FILE]
EOF
    exit 2
}

PMUSIM= VMEM= TB= CONFIG= QCONFIG= OUT= PMUSIM_SC= BASELINE=
CYCLES=5000000 SEED=1 ICARUS_RECORDS=50000 ICARUS_BASE=1000 REPEAT=3 VVP=vvp
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || { echo "run_bench.sh: $1: expected a value after it" >&2; usage; }
    case $1 in
        --pmusim) PMUSIM=$2 ;;
        --vmem) VMEM=$2 ;;
        --tb) TB=$2 ;;
        --config) CONFIG=$2 ;;
        --qual-config) QCONFIG=$2 ;;
        --out) OUT=$2 ;;
        --cycles) CYCLES=$2 ;;
        --seed) SEED=$2 ;;
        --icarus-records) ICARUS_RECORDS=$2 ;;
        --icarus-base) ICARUS_BASE=$2 ;;
        --repeat) REPEAT=$2 ;;
        --vvp) VVP=$2 ;;
        --pmusim-sc) PMUSIM_SC=$2 ;;
        --baseline) BASELINE=$2 ;;
        *) echo "run_bench.sh: unknown option '$1'" >&2; usage ;;
    esac
    shift 2
done
option_of() { local o=${1,,}; [ "$o" = qconfig ] && o=qual_config; echo "--${o//_/-}"; }
for v in PMUSIM VMEM TB CONFIG QCONFIG OUT; do
    [ -n "${!v}" ] || { echo "run_bench.sh: $(option_of $v) is required" >&2; usage; }
done
for v in CYCLES SEED ICARUS_RECORDS ICARUS_BASE REPEAT; do
    [[ ${!v} =~ ^[0-9]+$ ]] || { echo "run_bench.sh: $(option_of $v): expected a number, found '${!v}'" >&2; exit 2; }
done
[ "$REPEAT" -ge 1 ] || { echo "run_bench.sh: --repeat: expected at least 1" >&2; exit 2; }
[ "$ICARUS_BASE" -ge 1 ] && [ "$ICARUS_BASE" -lt "$ICARUS_RECORDS" ] ||
    { echo "run_bench.sh: --icarus-base: expected 1..$((ICARUS_RECORDS - 1)) (below --icarus-records $ICARUS_RECORDS)" >&2; exit 2; }
[ "$ICARUS_RECORDS" -le "$CYCLES" ] ||
    { echo "run_bench.sh: --icarus-records: expected at most --cycles ($CYCLES), found $ICARUS_RECORDS" >&2; exit 2; }

mkdir -p "$OUT"
STREAM=$OUT/stream.bin
VMEMFILE=$OUT/stream.vmem
RESULTS=$OUT/results.txt

fail() { echo "bench: $*" >&2; exit 1; }

# Runs a command, keeping its output in a log; on failure shows the log and stops.
logged() {
    local log=$1
    shift
    if ! "$@" > "$log" 2>&1; then
        cat "$log" >&2
        fail "'$*' failed (exit status above; output in $log)"
    fi
}

# "Simulation speed: X cycles/s (...)" -> X
speed_of() {
    local v
    v=$(sed -n 's/^Simulation speed: \([0-9.]*\) cycles\/s.*/\1/p' "$1")
    [ -n "$v" ] || fail "$1: no 'Simulation speed: X cycles/s' line"
    echo "$v"
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print ((NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

# Wall-clock seconds since the epoch, microsecond resolution (bash 5).
now() { echo "${EPOCHREALTIME/,/.}"; }

# ---- the stream --------------------------------------------------------------------
echo "bench: generating the workload stream: $PMUSIM gen --seed $SEED --cycles $CYCLES --format binary -o $STREAM"
logged "$OUT/gen.log" "$PMUSIM" gen --seed "$SEED" --cycles "$CYCLES" --format binary -o "$STREAM"

# ---- Verilator and reference: whole stream, interleaved rounds -----------------------
declare -A speeds=([ref]= [rtl]= [cosim]=)
for ((r = 1; r <= REPEAT; r++)); do
    for b in ref rtl cosim; do
        log=$OUT/$b-$r.log
        logged "$log" "$PMUSIM" run --backend "$b" --stream "$STREAM" --config "$CONFIG"
        s=$(speed_of "$log")
        speeds[$b]+="$s "
        printf 'bench: round %d/%d  %-6s %12.0f cycles/s\n' "$r" "$REPEAT" "$b" "$s"
    done
done
# The same stream with every qualification unit in use (bench/bench_qual.cfg).
declare -A qspeeds=([ref]= [rtl]= [cosim]=)
for ((r = 1; r <= REPEAT; r++)); do
    for b in ref rtl cosim; do
        log=$OUT/qual-$b-$r.log
        logged "$log" "$PMUSIM" run --backend "$b" --stream "$STREAM" --config "$QCONFIG"
        s=$(speed_of "$log")
        qspeeds[$b]+="$s "
        printf 'bench: round %d/%d  %-6s %12.0f cycles/s  (qualifiers on)\n' "$r" "$REPEAT" "$b" "$s"
    done
done
# The generator's records, as `make sim` runs them: no stream file, the same seed and length
# (the generator's work is in both runs).
declare -A gspeeds=([rtl]= [cosim]=)
for ((r = 1; r <= REPEAT; r++)); do
    for b in rtl cosim; do
        log=$OUT/generated-$b-$r.log
        logged "$log" "$PMUSIM" run --backend "$b" --seed "$SEED" --cycles "$CYCLES" --config "$CONFIG"
        s=$(speed_of "$log")
        gspeeds[$b]+="$s "
        printf 'bench: round %d/%d  %-6s %12.0f cycles/s  (generated records)\n' "$r" "$REPEAT" "$b" "$s"
    done
done
grep -q '^lock-step: [0-9]* cycles, 0 mismatches' "$OUT/generated-cosim-1.log" ||
    fail "$OUT/generated-cosim-1.log: no 'lock-step: N cycles, 0 mismatches' line"
# The SystemC platform (pmusim-sc): the same lock-step run with the software behind a
# TLM socket, the parts clocked by SystemC; the first million records at most (it runs at
# a fraction of the C harness's speed, and its speed does not depend on the length).
sc_speeds=
SC_RECORDS=$(( CYCLES < 1000000 ? CYCLES : 1000000 ))
if [ -n "$PMUSIM_SC" ]; then
    for ((r = 1; r <= REPEAT; r++)); do
        log=$OUT/systemc-$r.log
        logged "$log" "$PMUSIM_SC" run --backend cosim --stream "$STREAM" --cycles "$SC_RECORDS" --config "$CONFIG"
        s=$(speed_of "$log")
        sc_speeds+="$s "
        printf 'bench: round %d/%d  %-6s %12.0f cycles/s  (SystemC platform)\n' "$r" "$REPEAT" cosim "$s"
    done
    grep -q '^lock-step: [0-9]* cycles, 0 mismatches' "$OUT/systemc-1.log" ||
        fail "$OUT/systemc-1.log: no 'lock-step: N cycles, 0 mismatches' line"
fi
grep -q '^lock-step: [0-9]* cycles, 0 mismatches' "$OUT/qual-cosim-1.log" ||
    fail "$OUT/qual-cosim-1.log: no 'lock-step: N cycles, 0 mismatches' line"
qinterrupts=$(sed -n 's/^overflow interrupts serviced: //p' "$OUT/qual-cosim-1.log")

grep -q '^lock-step: [0-9]* cycles, 0 mismatches' "$OUT/cosim-1.log" ||
    fail "$OUT/cosim-1.log: no 'lock-step: N cycles, 0 mismatches' line"
interrupts=$(sed -n 's/^overflow interrupts serviced: //p' "$OUT/cosim-1.log")

# ---- Icarus: a prefix of the same stream ----------------------------------------------
logged "$OUT/vmem.log" "$VMEM" --config "$CONFIG" --stream "$STREAM" --records "$ICARUS_RECORDS" -o "$VMEMFILE"
read -r writes lines < <(sed -n 's/.* writes=\([0-9]*\) records=[0-9]* lines=\([0-9]*\)$/\1 \2/p' "$OUT/vmem.log")
[ -n "${lines:-}" ] || fail "$OUT/vmem.log: no 'writes=W records=N lines=L' line"

# Both runs load the whole file; the short one simulates only the register writes and the
# first ICARUS_BASE records, so the difference of the two wall times is the simulation of
# the ICARUS_RECORDS - ICARUS_BASE records in between (start-up and $readmemh cancel out).
echo "bench: Icarus: $VVP $TB on the first $ICARUS_RECORDS records (and a run of $ICARUS_BASE to subtract start-up)"
t0=$(now)
logged "$OUT/icarus-base.log" "$VVP" -n "$TB" +vmem="$VMEMFILE" +lines="$lines" +run=$((writes + ICARUS_BASE))
t1=$(now)
logged "$OUT/icarus.log" "$VVP" -n "$TB" +vmem="$VMEMFILE" +lines="$lines"
t2=$(now)
icarus_cycles=$((ICARUS_RECORDS - ICARUS_BASE))
read -r t_base t_full t_sim icarus_speed < <(awk -v a="$t0" -v b="$t1" -v c="$t2" -v n="$icarus_cycles" \
    'BEGIN { base = b - a; full = c - b; sim = full - base;
             printf "%.3f %.3f %.3f %.1f\n", base, full, sim, (sim > 0) ? n / sim : 0 }')
awk -v s="$t_sim" 'BEGIN { exit !(s > 0) }' ||
    fail "Icarus: the run of $ICARUS_RECORDS records ($t_full s) was not slower than the run of $ICARUS_BASE ($t_base s)"

# ---- cross-check: Icarus against the Verilated RTL on the prefix ----------------------
logged "$OUT/rtl-prefix.log" "$PMUSIM" run --backend rtl --stream "$STREAM" --cycles "$ICARUS_RECORDS" --config "$CONFIG"
check_ok=1
check_msgs=()
icarus_records=$(sed -n 's/^icarus: writes=[0-9]* records=\([0-9]*\) .*/\1/p' "$OUT/icarus.log")
icarus_pmi=$(sed -n 's/^icarus: writes=[0-9]* records=[0-9]* pmi=\([0-9]*\) .*/\1/p' "$OUT/icarus.log")
prefix_irq=$(sed -n 's/^overflow interrupts serviced: //p' "$OUT/rtl-prefix.log")
if [ "$icarus_records" != "$ICARUS_RECORDS" ]; then
    check_ok=0; check_msgs+=("Icarus simulated '${icarus_records}' records, expected $ICARUS_RECORDS")
fi
if [ "$icarus_pmi" != 0 ] || [ "$prefix_irq" != 0 ]; then
    check_ok=0
    check_msgs+=("the prefix raised overflow interrupts (Icarus pmi pulses: ${icarus_pmi:-?}, pmusim: ${prefix_irq:-?});"
                 "the Icarus testbench has no overflow service: shorten --icarus-records or lengthen the periods in $CONFIG")
fi
compared=()
while read -r pmd count overflows; do
    icount=$(sed -n "s/^icarus: $pmd start=.* count=\([0-9]*\)\$/\1/p" "$OUT/icarus.log")
    if [ "$icount" != "$count" ] || [ "$overflows" != 0 ]; then
        check_ok=0
        check_msgs+=("$pmd: Icarus counted '${icount}', the Verilated RTL $count (overflows $overflows)")
    fi
    compared+=("$pmd=$count")
done < <(awk '$1 ~ /^PMD[0-9]+$/ { print $1, $(NF - 1), $NF }' "$OUT/rtl-prefix.log")
if [ ${#compared[@]} -eq 0 ]; then
    check_ok=0; check_msgs+=("$OUT/rtl-prefix.log: no counter table to compare against")
fi

# ---- host instructions per simulated cycle (callgrind) -----------------------------------
# Records 10,000 to 40,000 of the same stream (fewer when the stream is shorter).
IR_N2=$(( CYCLES < 40000 ? CYCLES : 40000 ))
IR_N1=$(( IR_N2 / 4 ))
declare -A ir=() qir=()
ir_status=0
ir_of() { # config baseline-args... -> sets the array named by $1
    local -n into=$1
    local cfg=$2 log=$3
    shift 3
    local rc=0
    bash "$(dirname "$0")/ir_per_cycle.sh" --pmusim "$PMUSIM" --config "$cfg" --out "$OUT" \
        --stream "$STREAM" --records "$IR_N1,$IR_N2" "$@" > "$log" 2>&1 || rc=$?
    [ $rc -le 1 ] || { cat "$log" >&2; fail "ir_per_cycle.sh failed (output in $log)"; }
    local b v
    while read -r _ b v _; do into[$b]=$v; done < <(grep '^ir: ' "$log")
    [ -n "${into[ref]:-}" ] && [ -n "${into[rtl]:-}" ] && [ -n "${into[cosim]:-}" ] ||
        { cat "$log" >&2; fail "ir_per_cycle.sh gave no count for every backend (output in $log)"; }
    return $rc
}
# The SystemC platform's lock-step run (pmusim-sc run takes run's options), at its default
# quantum, against its own baseline (its "cosim" line is not the C harness's).
sc_ir=
SC_BASELINE=$(dirname "$0")/ir_baseline_systemc.txt
if [ $IR_N1 -ge 1 ]; then
    echo "bench: callgrind: instructions per cycle over records $IR_N1..$IR_N2"
    ir_of ir "$CONFIG" "$OUT/ir.log"
    ir_of qir "$QCONFIG" "$OUT/ir-qual.log" ${BASELINE:+--baseline "$BASELINE"} || ir_status=1
    if [ -n "$PMUSIM_SC" ]; then
        rc=0
        bash "$(dirname "$0")/ir_per_cycle.sh" --pmusim "$PMUSIM_SC" --config "$CONFIG" --out "$OUT/ir-systemc" \
            --stream "$STREAM" --records "$IR_N1,$IR_N2" --backends cosim --baseline "$SC_BASELINE" \
            > "$OUT/ir-systemc.log" 2>&1 || rc=$?
        [ $rc -le 1 ] || { cat "$OUT/ir-systemc.log" >&2; fail "ir_per_cycle.sh failed on $PMUSIM_SC (output in $OUT/ir-systemc.log)"; }
        [ $rc -eq 0 ] || ir_status=1
        sc_ir=$(sed -n 's/^ir: cosim \([0-9]*\).*/\1/p' "$OUT/ir-systemc.log")
        [ -n "$sc_ir" ] || { cat "$OUT/ir-systemc.log" >&2; fail "no SystemC instruction count (output in $OUT/ir-systemc.log)"; }
    fi
fi

# ---- report -----------------------------------------------------------------------------
ref_s=$(median ${speeds[ref]})
rtl_s=$(median ${speeds[rtl]})
cosim_s=$(median ${speeds[cosim]})
verdict() { awk -v r="$1" -v t="$2" 'BEGIN { print ((r >= t) ? "met" : "NOT met") }'; }
at_most() { awk -v r="$1" -v t="$2" 'BEGIN { print ((r <= t) ? "met" : "NOT met") }'; }
ratio() { awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { printf f, a / b }'; }
ratio_ls=$(ratio "$cosim_s" "$rtl_s" %.2f)
qref_s=$(median ${qspeeds[ref]})
qrtl_s=$(median ${qspeeds[rtl]})
qcosim_s=$(median ${qspeeds[cosim]})
ratio_qls=$(ratio "$qcosim_s" "$qrtl_s" %.2f)
ratio_rr=$(ratio "$ref_s" "$rtl_s" %.1f)
ratio_qrr=$(ratio "$qref_s" "$qrtl_s" %.1f)
grtl_s=$(median ${gspeeds[rtl]})
gcosim_s=$(median ${gspeeds[cosim]})
ratio_gls=$(ratio "$gcosim_s" "$grtl_s" %.2f)
ratio_vi=$(ratio "$rtl_s" "$icarus_speed" %.0f)
list() { local out=() s; for s in "$@"; do out+=("$(printf '%.0f' "$s")"); done; echo "${out[*]}"; }
row() { # name cycles speed ir runs...
    local name=$1 n=$2 sp=$3 i=$4
    shift 4
    printf '%-34s %10d %12.0f %11s   median of %d runs: %s\n' "$name" "$n" "$sp" "$i" "$REPEAT" "$(list "$@")"
}
{
    echo
    echo "make bench on $(hostname) ($(nproc) cores), $(date '+%Y-%m-%d %H:%M')"
    echo "stream:        $STREAM (pmusim gen --seed $SEED --cycles $CYCLES, workload mode)"
    echo "configuration: $CONFIG (Itanium 2); overflow interrupts in the full run: ${interrupts:-?}"
    echo "qualifiers on: $QCONFIG (code ranges, both opcode matchers, a data range); interrupts: ${qinterrupts:-?}"
    echo "instr/cycle:   host instructions per simulated cycle (callgrind), records $IR_N1..$IR_N2"
    echo
    printf '%-34s %10s %12s %11s   %s\n' "simulator" "cycles" "cycles/s" "instr/cycle" "notes"
    row "reference only (--backend ref)" "$CYCLES" "$ref_s" "${ir[ref]:--}" ${speeds[ref]}
    row "Verilator RTL only (--backend rtl)" "$CYCLES" "$rtl_s" "${ir[rtl]:--}" ${speeds[rtl]}
    row "lock-step (--backend cosim)" "$CYCLES" "$cosim_s" "${ir[cosim]:--}" ${speeds[cosim]}
    row "reference only, qualifiers on" "$CYCLES" "$qref_s" "${qir[ref]:--}" ${qspeeds[ref]}
    row "RTL only, qualifiers on" "$CYCLES" "$qrtl_s" "${qir[rtl]:--}" ${qspeeds[rtl]}
    row "lock-step, qualifiers on" "$CYCLES" "$qcosim_s" "${qir[cosim]:--}" ${qspeeds[cosim]}
    row "RTL only, generated records" "$CYCLES" "$grtl_s" - ${gspeeds[rtl]}
    row "lock-step, generated records" "$CYCLES" "$gcosim_s" - ${gspeeds[cosim]}
    if [ -n "$sc_speeds" ]; then
        sc_s=$(median $sc_speeds)
        printf '%-34s %10d %12.0f %11s   median of %d runs: %s; %s of the C harness lock-step\n' \
            "SystemC platform, lock-step" "$SC_RECORDS" "$sc_s" "${sc_ir:--}" "$REPEAT" "$(list $sc_speeds)" \
            "$(ratio "$sc_s" "$cosim_s" %.2f)"
    fi
    printf '%-34s %10d %12.0f %11s   first %d records; %.3f s - %.3f s (run of %d)\n' "Icarus RTL (vvp tb_icarus)" \
        "$icarus_cycles" "$icarus_speed" - "$ICARUS_RECORDS" "$t_full" "$t_base" "$ICARUS_BASE"
    echo
    printf 'lock-step / RTL-only:                    %8s  (target >= 0.9)   %s\n' "$ratio_ls" "$(verdict "$ratio_ls" 0.9)"
    printf 'lock-step / RTL-only, qualifiers on:     %8s  (target >= 0.9)   %s\n' "$ratio_qls" "$(verdict "$ratio_qls" 0.9)"
    printf 'lock-step / RTL-only, generated records: %8s  (target >= 0.9)   %s\n' "$ratio_gls" "$(verdict "$ratio_gls" 0.9)"
    # No target: the reference's instructions a cycle are the figure that counts (docs/bench.md).
    printf 'reference / RTL-only:                    %8s  (no target)\n' "$ratio_rr"
    printf 'reference / RTL-only, qualifiers on:     %8s  (no target)\n' "$ratio_qrr"
    printf 'Verilator RTL / Icarus:                  %8s  (target >= 200)   %s\n' "$ratio_vi" "$(verdict "$ratio_vi" 200)"
    if [ -n "$sc_speeds" ]; then
        ratio_sc=$(ratio "$sc_s" "$cosim_s" %.3f)
        printf 'SystemC / C harness, lock-step:          %8s  (target >= 0.25)  %s\n' "$ratio_sc" "$(verdict "$ratio_sc" 0.25)"
        if [ -n "$sc_ir" ] && [ -n "${ir[cosim]:-}" ]; then
            # The same ratio in host instructions, which the machine's load does not change.
            ratio_sci=$(ratio "${ir[cosim]}" "$sc_ir" %.3f)
            printf 'SystemC / C harness, instr/cycle:        %8s  (target >= 0.25)  %s  (%s / %s instructions a cycle)\n' \
                "$ratio_sci" "$(verdict "$ratio_sci" 0.25)" "${ir[cosim]}" "$sc_ir"
        fi
    fi
    if [ -n "${qir[ref]:-}" ]; then
        printf 'instr/cycle, reference, qualifiers on:   %8s  (target <= 400)   %s\n' "${qir[ref]}" "$(at_most "${qir[ref]}" 400)"
        printf 'instr/cycle, RTL only, qualifiers on:    %8s  (target <= 1600)  %s\n' "${qir[rtl]}" "$(at_most "${qir[rtl]}" 1600)"
        printf 'instr/cycle, lock-step, qualifiers on:   %8s  (target <= 2000)  %s\n' "${qir[cosim]}" "$(at_most "${qir[cosim]}" 2000)"
        if [ -n "$BASELINE" ]; then
            echo "instr/cycle against the baseline $BASELINE (fails above +10%):"
            sed -n 's/^ir: /  /p' "$OUT/ir-qual.log"
            [ -z "$sc_ir" ] || sed -n 's/^ir: cosim /  SystemC cosim /p' "$OUT/ir-systemc.log"
        fi
    fi
    echo
    if [ $check_ok = 1 ]; then
        echo "cross-check, first $ICARUS_RECORDS records: Icarus PMD counts = Verilated RTL counts (${compared[*]}), no interrupts: equal"
    else
        echo "cross-check, first $ICARUS_RECORDS records: Icarus and the Verilated RTL DIFFER"
        for m in "${check_msgs[@]}"; do echo "  $m"; done
        echo "  logs: $OUT/icarus.log, $OUT/rtl-prefix.log"
    fi
} | tee "$RESULTS"
echo "(logs and results in $OUT/)"
[ $check_ok = 1 ] || exit 1
[ $ir_status = 0 ] || fail "an instruction count grew more than 10% over its baseline ($BASELINE; see above)"
