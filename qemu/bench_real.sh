#!/usr/bin/env bash
# bench_real.sh - `make bench-real` (docs/real-programs.md, "Speed"): how fast a real program
# records, and what its stream costs.  For every family with a timing model it records one
# long sample program (make real's, built with the family's compiler) and reports
#   - recording speed: QEMU's instructions per second of wall time, QEMU, the plugin, the
#     trace reader, the timing model and the stream writer together (target: 5 M/s);
#   - the stream: bytes per instruction and per cycle of the binary form (repeat compression);
#   - the reference model's speed on the recording (pmusim run --backend ref).
# A measurement, not a test: the numbers depend on the machine and its load.
#
# Environment: BUILD, PMUSIM, BENCH_REAL_ARGS (the program and its arguments, default
# "interp 20000": about 100 M instructions).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
PMUSIM=${PMUSIM:-$BUILD/pmusim}
read -r -a prog <<< "${BENCH_REAL_ARGS:-interp 20000}"
out=$BUILD/bench/real
mkdir -p "$out"
status=0
printf '%-12s %12s %12s %10s %10s %8s %8s %12s  %s\n' family instructions cycles record_s "M insn/s" "B/insn" "B/cycle" "ref Mcyc/s" "5 M insn/s"
for fam in $(CC=${CC:-gcc} bash tools/families.sh); do
    target=$("$PMUSIM" record --family "$fam" --print-target 2>/dev/null) || continue
    QEMU_ARCH= CC=
    eval "$target"
    bin=$out/$QEMU_ARCH
    mkdir -p "$bin"
    if [ ! -x "$bin/${prog[0]}" ] || [ "qemu/programs/${prog[0]}.c" -nt "$bin/${prog[0]}" ]; then
        "$CC" -O2 -o "$bin/${prog[0]}" "qemu/programs/${prog[0]}.c" || { status=1; continue; }
    fi
    rec=$out/$fam.bin
    t0=$(date +%s.%N)
    if ! env -i PATH="$PATH" "$PMUSIM" record --family "$fam" -o "$rec" -- "$bin/${prog[0]}" "${prog[@]:1}" \
        > "$out/$fam.record.txt" 2>&1; then
        echo "$fam: record failed: $(tail -1 "$out/$fam.record.txt")"
        status=1
        continue
    fi
    t1=$(date +%s.%N)
    insns=$(awk '$1 == "instructions" {print $2; exit}' "$out/$fam.record.txt")
    cycles=$(awk '$1 == "cycles" {print $2; exit}' "$out/$fam.record.txt")
    bytes=$(stat -c %s "$rec")
    t2=$(date +%s.%N)
    "$PMUSIM" run --family "$fam" --backend ref --stream "$rec" --cycles "$cycles" > "$out/$fam.ref.txt" 2>&1 || status=1
    t3=$(date +%s.%N)
    awk -v f="$fam" -v i="$insns" -v c="$cycles" -v b="$bytes" -v r="$t0" -v s="$t1" -v u="$t2" -v w="$t3" \
        'BEGIN {m = i / (s - r) / 1e6
               printf "%-12s %12d %12d %10.2f %10.2f %8.2f %8.2f %12.2f  %s\n", f, i, c, s - r, m, b / i, b / c,
                   c / (w - u) / 1e6, (m >= 5 ? "met" : "NOT met")}'
done
exit $status
