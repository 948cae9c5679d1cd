#!/usr/bin/env bash
# real_checks.sh - the Alpha 21064's checks on real programs (docs/real-programs.md, "Checks
# that do not trust the model"; docs/real-programs-ev4.md), run by qemu/real.sh on the
# recordings it made in $DIR.  The counts are read the only way the 21064's software can:
# through the OSF/1 pfm pseudo-device (pmusim pfm), as interrupts times the period, so a
# count is known to within one period (the chip's counters cannot be read, pfm(7)).
#
# Environment: qemu/real_lib.sh.  Ends with "N passed, M failed".
set -u
. qemu/real_lib.sh

# pfm NAME MUX0 MUX1 [more pfm options]: the driver's counts of recording NAME; prints
# "events0 events1" (interrupts x period of each counter) and leaves the report in
# $DIR/NAME.pfm.txt.
pfm() {
    local name=$1 mux0=$2 mux1=$3
    shift 3
    "$PMUSIM" pfm --stream "$DIR/$name.bin" --symbols "$DIR/$name.sym" --mux0 "$mux0" --mux1 "$mux1" \
        --cycles 4000000000 "$@" > "$DIR/$name.pfm.txt" 2>&1 || return 1
    awk '/^  cpu +counter 0/ {getline; print $3, $5; exit}' "$DIR/$name.pfm.txt"
}

# 1. Instructions: PF_ISSUES counts issues in halves (docs/ev4.md), an interrupt every 4096
# whole events.  A recording made without load replays (--param load_replay=0) issues
# each instruction QEMU ran once, plus one instruction per PALcode cycle of its TLB-miss
# flows, which PF_PALMODE counts.  So 2 x the events is within 2 x 4096 of QEMU's count
# plus the PAL cycles, each read through pfm.
name=loop-noreplay
if env -i PATH="$PATH" "$PMUSIM" record --family alpha21064 --param load_replay=0 -o "$DIR/$name.bin" --symbols "$DIR/$name.sym" \
    -- "$BIN/loop" 30000 > "$DIR/$name.record.txt" 2>&1; then
    qemu=$(field instructions "$DIR/$name.record.txt")
    read -r issues _ < <(pfm "$name" PF_ISSUES PF_DCACHE --period0 4096)
    read -r pal _ < <(pfm "$name" PF_PALMODE PF_DCACHE --period0 4096)
    if [ -n "${issues:-}" ] && [ -n "${pal:-}" ]; then
        lo=$((2 * issues)) hi=$((2 * issues + 2 * 4096))
        want_lo=$qemu want_hi=$((qemu + pal + 4096))
        if [ "$want_lo" -lt "$hi" ] && [ "$lo" -le "$want_hi" ]; then
            ok "issues: pfm's PF_ISSUES gives $lo..$hi instructions, QEMU ran $qemu (+ $pal..$((pal + 4096)) PAL cycles)"
        else
            fail "issues: pfm's PF_ISSUES gives $lo..$hi instructions, QEMU ran $qemu (+ $pal..$((pal + 4096)) PAL cycles)"
        fi
    else
        fail "issues: pmusim pfm failed (see $DIR/$name.pfm.txt)"
    fi
else
    fail "issues: record $name: $(tail -1 "$DIR/$name.record.txt")"
fi

# 2. The hot function: the matrix program's multiply ranks first in pfm's PC profile.
if pfm matmul-stride PF_CYCLES PF_DCACHE --profile user > /dev/null; then
    top=$(awk '/^PC profile/ {getline; print $3; exit}' "$DIR/matmul-stride.pfm.txt")
    if [ "$top" = "matmul:multiply_strided" ]; then
        ok "hot function: matmul:multiply_strided ranks first in the pfm PC profile"
    else
        fail "hot function: pfm's PC profile ranks '$top' first, expected matmul:multiply_strided"
    fi
else
    fail "hot function: pmusim pfm failed (see $DIR/matmul-stride.pfm.txt)"
fi

# 3. D-cache misses, strided against sequential, from the cache's geometry alone.  B is
# N x N doubles, rows N x 8 = 512 bytes apart for N = 64: a column's 64 lines fold onto
# 8192 / 512 = 16 lines of the direct-mapped 8 KB D-cache (dc21064.h CACHE_SIZE), so the
# strided order misses on each of its N^3 loads of B; the sequential order loads B along
# rows, one miss a 32-byte line (CACHE_BLOCK_SIZE): N^3 x 8 / 32.  A and C add a few: the
# strided count must be N^3 .. 1.1 N^3, the sequential N^3 / 4 .. 2 x N^3 / 4, so the
# factor is about line / 8 = 4 (at least 2).  Stores never allocate (write-through).
n=64
for order in stride seq; do
    env -i PATH="$PATH" "$PMUSIM" record --family alpha21064 -o "$DIR/matmul-$order-$n.bin" --symbols "$DIR/matmul-$order-$n.sym" \
        -- "$BIN/matmul" "$order" "$n" > "$DIR/matmul-$order-$n.record.txt" 2>&1 || fail "record matmul $order $n"
done
read -r _ dstride < <(pfm "matmul-stride-$n" PF_CYCLES PF_DCACHE --period1 256)
read -r _ dseq < <(pfm "matmul-seq-$n" PF_CYCLES PF_DCACHE --period1 256)
strided_check "D-cache misses (PF_DCACHE)" "${dstride:-}" "${dseq:-}" "$n" 4 256 "$DIR/matmul-*-$n.pfm.txt"

# 4. Branches: loop-b runs 2000 more iterations than loop-a, one conditional branch each.
# PF_BRANCHI counts branch instructions an interrupt every 4096, too coarse for 2000; the
# 21064's check of the exact branch count is the timing model's own test
# (stream/ev4/tests/test_ev4_timing.cpp), not counted here.
finish
