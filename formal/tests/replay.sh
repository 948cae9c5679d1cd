#!/usr/bin/env bash
# replay.sh - make test's checks of a formal counterexample's replay (docs/formal.md, "From a
# counterexample to a replay"): pmusim cex2replay on a counterexample of make formal kept in
# the tree (ev4_ctr_step_bounded.vcd: ev4/ctr_step_bounded on mutant
# ev4-whole-event-plus-half; ev67_agg_ctr0_continues.vcd: ev67/agg_ctr0_continues on mutant
# ev67-ctr-stops-at-overflow; ev67_pm_end_stops.vcd and ev67_pm_stopped_holds.vcd: the
# ProfileMe machine mid-window and stopped, on mutants ev67-pm-end-rearms and
# ev67-pm-stopped-counts-fetches, and the first with its start's machine rewritten to other
# shapes (a window, a trap with KBM, a stopped machine's results); ita_ovf_sticky.vcd:
# ita/ovf_sticky on mutant ovf-not-sticky, a trace of the Itanium's counters checker, whose inputs are a part's; its I-EAR checker's,
# ita_iear_captures_only_armed.vcd, its D-EAR checker's, ita_dear_captures_only_armed.vcd, and
# its BTB checker's, ita_btb_writes_at_pointer.vcd, and its ranges checker's,
# ita_dbr_range_qualifies.vcd, converted and replayed on the tree's RTL only; its event-select
# checker's, ita_ctr_step_maxincr.vcd on mutant br-detail-any-slot), its replay on the
# tree's RTL (0 mismatches, the start state's expects held, a waveform) and on the mutant's
# (formal/replay.sh: a mismatch at the clock the assertion fails on), and the refusals of bad
# VCDs and bad --writes schedules.
# Ends with "N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d /tmp/pmusim_replay.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. tests/cli_lib.sh
P=${PMUSIM:-build/pmusim}
vcd=formal/tests/ev4_ctr_step_bounded.vcd
d=$tmp/ev4/ctr_step_bounded/mutant
mkdir -p "$d"
cp "$vcd" "$d/cex.vcd"

# ---- the conversion: the preamble, the trace's clocks, the cycle of the failing clock ----
check convert 0 "the assertion failing at step 2 (the solver's step) is about the clock of step 0: cycle 49408 (the step of record 49408)" -- \
    "$P" cex2replay "$d/cex.vcd"
check convert-preamble 0 "start state (step 0): reached by a preamble of 49408 records and 4 writes; checked by expects at cycle 49408" -- \
    "$P" cex2replay "$d/cex.vcd"
check convert-notes 0 "note: trace step 0: nissue_i 3 is more than the 21064 issues; the RTL counts it as 2" -- \
    "$P" cex2replay "$d/cex.vcd"
check convert-command 0 "run --family alpha21064 --stream $d/replay-stream.txt --writes $d/replay-writes.txt --waves $d/replay.fst --wave-from 49408" -- \
    "$P" cex2replay "$d/cex.vcd"
check start-expects 0 "at 49408 expect CTR0 0xc100" -- cat "$d/replay-writes.txt"

# ---- the replay on the tree's RTL: in lock-step to the end, the start state reached ----
run=("$P" run --family alpha21064 --stream "$d/replay-stream.txt" --writes "$d/replay-writes.txt")
check clean-lockstep 0 "lock-step: 49411 cycles, 0 mismatches" -- "${run[@]}"
check clean-expects 0 "writes: 4 writes and 5 expects of $d/replay-writes.txt applied, 0 expects failed" -- "${run[@]}"
# the RTL alone and the reference alone take the schedule alike (no pair checks their clocks)
for b in rtl ref; do
    check "backend-$b" 0 "writes: 4 writes and 5 expects of $d/replay-writes.txt applied, 0 expects failed" -- \
        "${run[@]}" --backend "$b"
done
check clean-waves 0 "waveform: $tmp/replay.fst" -- "${run[@]}" --waves "$tmp/replay.fst"
ok clean-waves-file -- test -s "$tmp/replay.fst"
# an expect that does not hold, a line the records never reach
printf 'at 0 expect CTR0 0x1\n' > "$tmp/expect.txt"
check expect-fails 1 "$tmp/expect.txt:1: at 0: expect CTR0 0x1: it reads 0x0" -- \
    "$P" run --family alpha21064 --stream "$d/replay-stream.txt" --writes "$tmp/expect.txt"
printf 'at 0 write ICCSR 0x0\nat 60000 write ICCSR 0x0\n' > "$tmp/late.txt"
check late-line 1 "$tmp/late.txt:2: at 60000: not applied: the records ended first (1 of 2 lines applied)" -- \
    "$P" run --family alpha21064 --stream "$d/replay-stream.txt" --writes "$tmp/late.txt"

# ---- the replay on the mutant's RTL: the mismatch at the failing clock ----
# (the mutant's pmusim links the default build's objects: not under another BUILD, SAN=1's)
if [ "${BUILD:-build}" != build ]; then
    echo "skip mutant: BUILD=$BUILD (formal/replay.sh builds the mutant from build/'s objects)"
else
check mutant 0 "on mutant ev4-whole-event-plus-half: mismatch at cycle 49408 (step of record 49408), the clock the assertion fails on" -- \
    env PMUSIM="$P" bash formal/replay.sh "$tmp/ev4/ctr_step_bounded"
fi

# ---- the 21264/EV67: ev67_agg_ctr0_continues.vcd (ev67/agg_ctr0_continues on mutant
# ev67-ctr-stops-at-overflow): counters loaded by a PCTR_CTL write, a cut ProfileMe output ----
vcd67=formal/tests/ev67_agg_ctr0_continues.vcd
d67=$tmp/ev67/agg_ctr0_continues/mutant
mkdir -p "$d67"
cp "$vcd67" "$d67/cex.vcd"
check ev67-convert 0 "the assertion failing at step 2 (the solver's step) is about the clock of step 0: cycle 51 (the step of record 51)" -- \
    "$P" cex2replay "$d67/cex.vcd"
check ev67-convert-preamble 0 "start state (step 0): reached by a preamble of 51 records and 6 writes; checked by expects at cycle 51" -- \
    "$P" cex2replay "$d67/cex.vcd"
check ev67-convert-cut 0 "note: trace step 0: the ProfileMe window ends (win_end, a cut output the solver chose) in aggregate mode" -- \
    "$P" cex2replay "$d67/cex.vcd"
check ev67-start-expects 0 "at 51 expect OBS_CTR 0xfffff" -- cat "$d67/replay-writes.txt"
check ev67-counters-loaded 0 "at 51 write PCTR_CTL 0xfffff0000004" -- cat "$d67/replay-writes.txt"
# the stream is the dialect's: the reader's rules (docs/ev67-stream.md) hold for it
check ev67-stream-valid 0 "lock-step: 53 cycles, 0 mismatches" -- \
    "$P" run --family alpha21264 --stream "$d67/replay-stream.txt" --writes "$d67/replay-writes.txt"
check ev67-clean-expects 0 "writes: 7 writes and 12 expects of $d67/replay-writes.txt applied, 0 expects failed" -- \
    "$P" run --family alpha21264 --stream "$d67/replay-stream.txt" --writes "$d67/replay-writes.txt"
if [ "${BUILD:-build}" = build ]; then
check ev67-mutant 0 "on mutant ev67-ctr-stops-at-overflow: mismatch at cycle 51 (step of record 51), the clock the assertion fails on" -- \
    env PMUSIM="$P" bash formal/replay.sh "$tmp/ev67/agg_ctr0_continues"
fi
check ev67-family 2 "top module 'ev67_pmu_props': expected a family's checker" -- \
    "$P" cex2replay --family alpha21064 --out "$tmp" "$vcd67"
sed 's/ nretire_i \$end/ nretire_x $end/' "$vcd67" > "$tmp/nosig67.vcd"
check ev67-signal 2 "signal 'nretire_i' of checker ev67_pmu_props: not in the trace" -- \
    "$P" cex2replay --out "$tmp" "$tmp/nosig67.vcd"

# ---- the 21264's ProfileMe machine at the trace's start: ev67_pm_end_stops.vcd
# (ev67/pm_end_stops on mutant ev67-pm-end-rearms: SELECTED, its end event two steps back, the
# window ending in the trace's first step) and ev67_pm_stopped_holds.vcd (ev67/pm_stopped_holds
# on mutant ev67-pm-stopped-counts-fetches: STOPPED, PCTR0 0xffffb, which a window of cycles
# reaches). The preamble runs the real machine through a window: P fetched as PCTR0 wraps, an
# abort covering it (its end event); the expects check OBS_PM and the counts ----
# ev67_pm NAME PROPERTY MUTANT CYCLE PREAMBLE LINE WRITE EXPECT LOCKSTEP: the kept trace's
# conversion (the failing clock's CYCLE, the preamble's report, a LINE of the stream, a WRITE and
# an EXPECT of the schedule), the tree's RTL (LOCKSTEP) and the mutant's
ev67_pm() {
    local name=$1 prop=$2 mutant=$3 cyc=$4 dpm=$tmp/ev67/$2/mutant
    mkdir -p "$dpm"
    cp "formal/tests/ev67_$prop.vcd" "$dpm/cex.vcd"
    check "$name-convert" 0 "is about the clock of step 0: cycle $cyc (the step of record $cyc)" -- \
        "$P" cex2replay "$dpm/cex.vcd"
    check "$name-convert-preamble" 0 "$5" -- "$P" cex2replay "$dpm/cex.vcd"
    check "$name-window" 0 "$6" -- cat "$dpm/replay-stream.txt"
    check "$name-write" 0 "$7" -- cat "$dpm/replay-writes.txt"
    check "$name-start-expects" 0 "$8" -- cat "$dpm/replay-writes.txt"
    check "$name-lockstep" 0 "$9" -- \
        "$P" run --family alpha21264 --stream "$dpm/replay-stream.txt" --writes "$dpm/replay-writes.txt"
    check "$name-expects" 0 ", 0 expects failed" -- \
        "$P" run --family alpha21264 --stream "$dpm/replay-stream.txt" --writes "$dpm/replay-writes.txt"
    if [ "${BUILD:-build}" = build ]; then
        check "$name-mutant" 0 "on mutant $mutant: mismatch at cycle $cyc (step of record $cyc), the clock the assertion fails on" -- \
            env PMUSIM="$P" bash formal/replay.sh "$tmp/ev67/$prop"
    fi
}
ev67_pm ev67-pm-end pm_end_stops ev67-pm-end-rearms 4 \
    "start state (step 0): reached by a preamble of 4 records and 9 writes; checked by expects at cycle 4" \
    "pal=0 tag=0 fetch=intop@0x0:n abort=0" "at 2 write PCTR_CTL 0xfffff0000014" "at 4 expect OBS_PM 0x65" \
    "lock-step: 6 cycles, 0 mismatches"
ev67_pm ev67-pm-stopped pm_stopped_holds ev67-pm-stopped-counts-fetches 1048577 \
    "start state (step 0): reached by a preamble of 1048577 records and 8 writes; checked by expects at cycle 1048577" \
    "repeat=1048571 pal=0" "at 1048577 write HW_INT_CLR 0x20000000" "at 1048577 expect OBS_CTR 0x8000ffffb" \
    "lock-step: 1048580 cycles, 0 mismatches"
check ev67-pm-stopped-note 0 "note: start state: OBS_PM.AGE 0 is not reached by a window to the trace's phase: replayed as 2" -- \
    "$P" cex2replay --out "$tmp" formal/tests/ev67_pm_stopped_holds.vcd
# ev67_pm_shape NAME OBS_PM OBS_PMPC OBS_CTR PCTR_CTL: the kept pm_end_stops trace with those
# registers of its start state (dut.obs_vis_o at step 0) replaced, converted and replayed on the
# tree's RTL: the window reaches that OBS_PM exactly (the expect, no note) and every expect holds
ev67_pm_shape() {
    local v=$tmp/shape_$1
    mkdir -p "$v"
    python3 - formal/tests/ev67_pm_end_stops.vcd "$v/cex.vcd" "$2" "$3" "$4" "$5" << 'EOF'
import sys
src, out, pm, pmpc, ctr, pctr = sys.argv[1], sys.argv[2], *(int(a, 0) for a in sys.argv[3:])
lines = open(src).read().split('\n')
codes = {l.split()[3] for l in lines if l.startswith('$var') and l.split()[4] == 'obs_vis_o'}
for i, l in enumerate(lines):
    w = l.split()
    if len(w) == 2 and w[1] in codes and w[0].startswith('b'):
        v = int(w[0][1:], 2)
        for k, x in ((10, pm), (11, pmpc), (7, ctr), (4, pctr)):  # the visible registers' order
            v = v & ~(((1 << 64) - 1) << (64 * k)) | x << (64 * k)
        lines[i] = 'b' + format(v, '0768b') + ' ' + w[1]
        codes.discard(w[1])
open(out, 'w').write('\n'.join(lines))
EOF
    check "ev67-pm-$1-convert" 0 "checked by expects" -- "$P" cex2replay "$v/cex.vcd"
    lacks "ev67-pm-$1-reached" "note: start state: OBS_PM" -- "$P" cex2replay "$v/cex.vcd"
    check "ev67-pm-$1-expect" 0 "expect OBS_PM $2" -- cat "$v/replay-writes.txt"
    check "ev67-pm-$1-lockstep" 0 ", 0 expects failed" -- \
        "$P" run --family alpha21264 --stream "$v/replay-stream.txt" --writes "$v/replay-writes.txt"
}
# SELECTED in the window: OVR 5, ICM, STALLED, PCTR0 counting cycles from OVR to 0x40 (3 steps
# before the window and 59 in it, one repeated record), PCTR1 kept
ev67_pm_shape window 0x3e800200d15 0x2001 0x12300000040 0x14
check ev67-pm-window-line 0 "repeat=62 pal=0" -- cat "$tmp/shape_window/replay-stream.txt"
# SELECTED after its end event, a replay trap with LSO and an abort with KBM, in step s + 2
ev67_pm_shape trap 0x1f40040a26d 0x3000 0x2 0x1c
check ev67-pm-trap-line 0 "trap=500:replay:lso abort=500/500" -- cat "$tmp/shape_trap/replay-stream.txt"
# STOPPED after an arith trap: REQ[0] and the results (PMPC, I_STAT) of its window end
ev67_pm_shape stopped 0x5000c27aa 0x5001 0x7 0x14
check ev67-pm-stopped-istat 0 "expect I_STAT 0xb1c0000000" -- cat "$tmp/shape_stopped/replay-writes.txt"

# ---- the Itanium: ita_ovf_sticky.vcd (ita/ovf_sticky on mutant ovf-not-sticky), a trace of
# the counters checker: each counter's n as a general event's count, the model whose
# assertion fails, a write with the record in flight, a PMC rewritten for a record's oi ----
vita=formal/tests/ita_ovf_sticky.vcd
dita=$tmp/ita/ovf_sticky/mutant
mkdir -p "$dita"
cp "$vita" "$dita/cex.vcd"
# ita_says NAME TEXT...: cex2replay's report on the kept trace has each TEXT
ita_says() {
    local name=$1 i=0; shift
    for text in "$@"; do
        check "$name-$((i += 1))" 0 "$text" -- "$P" cex2replay "$dita/cex.vcd"
    done
}
ita_says ita-convert \
    "model: itanium (ovf_sticky fails in u_itanium at step 2, and in the other model; --model to choose)" \
    "the assertion failing at step 2 (the solver's step) is about the clock of step 1: cycle 1 (the step of record 1)" \
    "start state (step 0): reached by a preamble of 0 records and 9 writes; checked by expects at cycle 0" \
    "note: trace step 1: PMD7's table (en_tab) disables it at cpl 3, is 1, up 1, pp 0, where the replay's PMC counts: its 4 occurrences replayed as a count of 0" \
    "run --family itanium --model itanium --stream $dita/replay-stream.txt --writes $dita/replay-writes.txt --waves $dita/replay.fst --wave-from 0"
# the start counts (a read sign-extends the 32-bit count), PMD5's write with record 0 in flight,
# PMC4 rewritten with oi 1 for record 1, which counts on it
for line in "at 0 expect PMD4 0xfffffffffffffff8" "at 1 write PMD5 0x1ffffff" "at 1 write PMC4 0x562f"; do
    check "ita-writes-${line// /-}" 0 "$line" -- cat "$dita/replay-writes.txt"
done
check ita-counts 0 "cpl=3 is=ia32 up=1 ev=BUS_SNOOPQ_REQ:4,BUS_BRQ_LIVE_REQ_LO:4,INST_DISPERSED:4,IA64_TAGGED_INST_RETIRED_PMC8:2" -- \
    cat "$dita/replay-stream.txt"
runita=("$P" run --family itanium --model itanium --stream "$dita/replay-stream.txt" --writes "$dita/replay-writes.txt")
check ita-lockstep 0 "lock-step: 3 cycles, 0 mismatches" -- "${runita[@]}"
check ita-expects 0 "writes: 12 writes and 5 expects of $dita/replay-writes.txt applied, 0 expects failed" -- "${runita[@]}"
# the other model, as --model asks: its own instance's signals, its own events
check ita-model2 0 "model: itanium2 (--model)" -- "$P" cex2replay --model itanium2 --out "$tmp" "$vita"
check ita-model2-lockstep 0 "lock-step: 3 cycles, 0 mismatches" -- \
    "$P" run --family itanium --model itanium2 --stream "$tmp/replay-stream.txt" --writes "$tmp/replay-writes.txt"
check ita-model2-events 0 "ev=RSE_CURRENT_REGS_5_TO_3" -- cat "$tmp/replay-stream.txt"
if [ "${BUILD:-build}" = build ]; then
check ita-mutant 0 "on mutant ovf-not-sticky: mismatch at cycle 1 (register write before record 1), the clock the assertion fails on" -- \
    env PMUSIM="$P" bash formal/replay.sh "$tmp/ita/ovf_sticky"
fi
# the I-EAR checker's kept trace (ita/iear_captures_only_armed on mutant unit-monitor-swapped):
# PMC10 and PMC0.fr written before the record, the fetch and the PSR on it
viear=formal/tests/ita_iear_captures_only_armed.vcd
check ita-iear-model 0 "model: itanium (iear_captures_only_armed fails in u_itanium at step 2, and in the other model; --model to choose)" -- \
    "$P" cex2replay --out "$tmp" "$viear"
check ita-iear-fetch 0 "cpl=2 is=ia64 up=1 pp=0 if_addr=0x20 if_lat=1 if_tlb=1" -- cat "$tmp/replay-stream.txt"
check ita-iear-pmc10 0 "at 0 write PMC10 0x300c4" -- cat "$tmp/replay-writes.txt"
check ita-iear-lockstep 0 "writes: 6 writes and 2 expects of $tmp/replay-writes.txt applied, 0 expects failed" -- \
    "$P" run --family itanium --model itanium --stream "$tmp/replay-stream.txt" --writes "$tmp/replay-writes.txt"
# ita_unit NAME VCD MODEL NOTE LINE WRITE WRITES1 WRITES2: a unit checker's kept trace: the model
# whose assertion fails and a NOTE in cex2replay's report, a LINE of the stream and a WRITE of
# the schedule, the replay on the tree's RTL (WRITES1: its "N writes and M expects"), and the
# other model's conversion and replay (WRITES2)
ita_unit() {
    local name=$1 v=$2
    check "ita-$name-model" 0 "$3" -- "$P" cex2replay --out "$tmp" "$v"
    check "ita-$name-note" 0 "$4" -- "$P" cex2replay --out "$tmp" "$v"
    check "ita-$name-line" 0 "$5" -- cat "$tmp/replay-stream.txt"
    check "ita-$name-write" 0 "$6" -- cat "$tmp/replay-writes.txt"
    check "ita-$name-lockstep" 0 "writes: $7 of $tmp/replay-writes.txt applied, 0 expects failed" -- \
        "$P" run --family itanium --model itanium --stream "$tmp/replay-stream.txt" --writes "$tmp/replay-writes.txt"
    check "ita-$name-model2" 0 "writes: $8 of $tmp/replay-writes.txt applied, 0 expects failed" -- \
        env P="$P" tmp="$tmp" v="$v" bash -c '"$P" cex2replay --model itanium2 --out "$tmp" "$v" > /dev/null &&
            "$P" run --family itanium --model itanium2 --stream "$tmp/replay-stream.txt" --writes "$tmp/replay-writes.txt"'
}
# the D-EAR checker's kept trace (ita/dear_captures_only_armed on mutant dear-freeze-ignored):
# PMC11 (the Itanium's pt set) and PMC0.fr written before the record, each slot with what the
# D-EAR reads of it (the first candidate its access), a qualification the replay cannot fail
# replayed as no access
check ita-dear-freeze 0 "at 1 write PMC0 0x1" -- \
    env P="$P" tmp="$tmp" bash -c '"$P" cex2replay --out "$tmp" formal/tests/ita_dear_captures_only_armed.vcd > /dev/null &&
        cat "$tmp/replay-writes.txt"'
ita_unit dear formal/tests/ita_dear_captures_only_armed.vcd \
    "model: itanium (dear_captures_only_armed fails in u_itanium at step 2, and in the other model; --model to choose)" \
    "note: trace step 1: slot 1 hits PMC11's mode but fails DATA_EAR_EVENTS' qualification (qual 0)" \
    "cpl=3 is=ia64 up=1 pp=0 | ip=0x0 s=0 | ip=0x0 s=0 load da=0x0 lat=1972 tlb=3 | ip=0x0 s=0 | ip=0x0 s=0 | ip=0x80000100000100 s=0 | ip=0xfff7f29ffdfff7f0 s=2" \
    "at 0 write PMC11 0x11080080" "8 writes and 3 expects" "9 writes and 3 expects"
# the BTB checker's kept trace (ita/btb_writes_at_pointer on mutant btb-target-entry-skips):
# PMC12 written before the record, the first branch PMC12 takes on unit B, the other slots'
# ips (slot 0's the window) aligned to their bundles
ita_unit btb formal/tests/ita_btb_writes_at_pointer.vcd \
    "model: itanium (btb_writes_at_pointer fails in u_itanium at step 2, and in the other model; --model to choose)" \
    "note: trace step 1: slot 1's ip 0x1ffffffffffffff1 is off its bundle, which no IA-64 record carries: replayed as 0x1ffffffffffffff0" \
    "cpl=1 is=ia64 up=1 pp=1 | ip=0x1ffffffffffffff0 s=2 | ip=0x2000000084000800 s=0 u=B br=2 pred=0 taken tgt=0x0" \
    "at 0 write PMC12 0x3f06" "13 writes and 9 expects" "13 writes and 9 expects"
# the ranges checker's kept trace (ita/dbr_range_qualifies on mutant dbr-top-bits-ignored): no
# register, its tags made counts (PMD6 counts LOADS_RETIRED), the slot's record after writes
# of the step's IBRs, DBRs and qualification PMCs, the Itanium's PMC13.ta set (no IBR check)
ita_unit ranges formal/tests/ita_dbr_range_qualifies.vcd \
    "model: itanium (dbr_range_qualifies fails in u_itanium at step 1, and in the other model; --model to choose)" \
    "note: trace step 0: PMC13 0x0 constrains instruction addresses, which the memory events' tag (iar and opm) would then also need: replayed with 0x1 set" \
    "cpl=3 is=ia64 up=1 | ip=0xff00000000000000 s=0 u=M enc=0x0 load da=0xff00000000000000" \
    "at 0 write DBR3 0x800000000000000" "47 writes and 0 expects" "51 writes and 0 expects"
check ita-ranges-event 0 "# PMD6 counts LOADS_RETIRED" -- \
    env P="$P" tmp="$tmp" bash -c '"$P" cex2replay --out "$tmp" formal/tests/ita_dbr_range_qualifies.vcd > /dev/null &&
        cat "$tmp/replay-writes.txt"'
# the Itanium's opcode matchers (no range bit there) written as reset leaves them, every unit and
# opcode, so that no opcode match hides the data-address part
check ita-ranges-opcode-note 0 "note: trace step 0: PMC8 0x8dddfffe3777fff8, the Itanium's opcode matcher" -- \
    "$P" cex2replay --out "$tmp" formal/tests/ita_dbr_range_qualifies.vcd
check ita-ranges-opcode 0 "at 0 write PMC8 0xf00000003ffffff8" -- cat "$tmp/replay-writes.txt"
# the event-select checker's kept trace (ita/ctr_step_maxincr on mutant br-detail-any-slot): PMC4
# written with the trace's event (BR_MISPRED_DETAIL, umask 0), PMD4's start count, the slots with
# the trace's flags, a slot whose tag fails left out; immediate assertions: the failing clock is
# the last step's own record. On the mutant's RTL every slot counts: more than the 3 branches
vsel=formal/tests/ita_ctr_step_maxincr.vcd
dsel=$tmp/ita/ctr_step_maxincr/mutant
mkdir -p "$dsel"
cp "$vsel" "$dsel/cex.vcd"
nsel=0
for text in "model: itanium2 (ctr_step_maxincr fails in u_itanium2 at step 2; --model to choose)" \
    "the assertion failing at step 2 (the solver's step) is about the clock of step 2: cycle 0 (the step of record 0)" \
    "note: trace step 2: slot 4 fails PMC4's event's qualification (its tag 0)" \
    "start state (step 0): reached by a preamble of 0 records and 1 writes; checked by expects at cycle 0"; do
    check "ita-evtsel-convert-$((nsel += 1))" 0 "$text" -- "$P" cex2replay "$dsel/cex.vcd"
done
check ita-evtsel-line 0 "cpl=1 is=ia32 power=normal pid=0 up=1 pp=0 | ip=0x8048000 s=0 u=B fp br=1 pred=2 | ip=0x8048001 s=0 u=B fp br=1 pred=2 | ip=0x8048002 s=0 u=B load fp l2_ref br=2 pred=2 | ip=0x8048003 s=0 u=M load l2_ref | ip=0x8048004 s=0 u=M store fp l2_ref l2_miss" -- \
    cat "$dsel/replay-stream.txt"
check ita-evtsel-pmc4 0 "at 0 write PMC4 0x1005b02" -- cat "$dsel/replay-writes.txt"
check ita-evtsel-lockstep 0 "lock-step: 1 cycles, 0 mismatches" -- \
    "$P" run --family itanium --model itanium2 --stream "$dsel/replay-stream.txt" --writes "$dsel/replay-writes.txt"
check ita-evtsel-expects 0 "writes: 4 writes and 1 expects of $dsel/replay-writes.txt applied, 0 expects failed" -- \
    "$P" run --family itanium --model itanium2 --stream "$dsel/replay-stream.txt" --writes "$dsel/replay-writes.txt"
# the other model: its own PMC4 (a general event, L2_INST_DEMAND_READS, over its maxincr: the
# checker's bound is free), the stream's per-cycle limits, a write of a counter not watched
for text in "note: trace step 2: 6 branches, more than a record carries (3, the maxincr of BR_MISPRED_DETAIL_ALL_ALL_PRED): the last 3 replayed without them" \
    "note: trace step 2: 134 occurrences of L2_INST_DEMAND_READS (the checker's bound mi_gen is free), more than a record carries (its maxincr, 1): replayed as 1" \
    "note: trace step 0: the write of PMD6 0x0, a register the checker does not watch"; do
    check "ita-evtsel-model1-$((nsel += 1))" 0 "$text" -- "$P" cex2replay --model itanium --out "$tmp" "$vsel"
done
check ita-evtsel-model1-event 0 "cpl=1 is=ia32 power=normal pid=0 up=1 pp=1 ev=L2_INST_DEMAND_READS | ip=0x8048000 s=0 u=B br=2 pred=1" -- \
    cat "$tmp/replay-stream.txt"
check ita-evtsel-model1-lockstep 0 "writes: 4 writes and 1 expects of $tmp/replay-writes.txt applied, 0 expects failed" -- \
    env P="$P" tmp="$tmp" v="$vsel" bash -c '"$P" cex2replay --model itanium --out "$tmp" "$v" > /dev/null &&
        "$P" run --family itanium --model itanium --stream "$tmp/replay-stream.txt" --writes "$tmp/replay-writes.txt"'
if [ "${BUILD:-build}" = build ]; then
check ita-evtsel-mutant 0 "on mutant br-detail-any-slot: mismatch at cycle 0 (step of record 0), the clock the assertion fails on" -- \
    env PMUSIM="$P" bash formal/replay.sh "$tmp/ita/ctr_step_maxincr"
fi
check ita-bad-model 2 "$vita: --model: the Itanium / Itanium 2 has no model 'foo', expected one of: itanium, itanium2" -- \
    "$P" cex2replay --model foo --out "$tmp" "$vita"
sed 's/ ok_ovf_sticky \$end/ ok_x $end/' "$vita" > "$tmp/nook.vcd"
check ita-no-property 2 "$tmp/nook.vcd: no signal u_itanium.ok_<property> (ovf_set_by_wrap, ...), expected a counterexample of formal/ita/ita_counters_props.sv" -- \
    "$P" cex2replay --out "$tmp" "$tmp/nook.vcd"
sed 's/ g_cnt<1> \$end/ g_cnt_1 $end/' "$vita" > "$tmp/noinc.vcd"
check ita-signal 2 "signal 'u_itanium.g_cnt<1>.u_counter.cnt_q' of checker ita_counters_props: not in the trace" -- \
    "$P" cex2replay --out "$tmp" "$tmp/noinc.vcd"

# ---- bad VCDs: where and what was expected ----
printf 'hello\n' > "$tmp/text.vcd"
check vcd-not 2 "$tmp/text.vcd: no \$enddefinitions, expected a VCD" -- "$P" cex2replay --out "$tmp" "$tmp/text.vcd"
grep -v smt_step "$vcd" > "$tmp/nostep.vcd"
check vcd-no-step 2 "no 'smt_step' variable, expected a VCD written by yosys-smtbmc --dump-vcd" -- \
    "$P" cex2replay --out "$tmp" "$tmp/nostep.vcd"
sed 's/module ev4_pmu_props/module foo_props/' "$vcd" > "$tmp/top.vcd"
check vcd-top 2 "$tmp/top.vcd: top module 'foo_props': expected a family's checker: ita_counters_props (itanium), ita_iear_props (itanium), ita_dear_props (itanium), ita_btb_props (itanium), ita_ranges_props (itanium), ita_evtsel_props (itanium), ev4_pmu_props (alpha21064)" -- \
    "$P" cex2replay --out "$tmp" "$tmp/top.vcd"
check vcd-family 2 "--family: no family 'nosuch'" -- "$P" cex2replay --family nosuch --out "$tmp" "$vcd"
check vcd-family-other 2 "top module 'ev4_pmu_props': expected a family's checker" -- \
    "$P" cex2replay --family itanium --out "$tmp" "$vcd"
# the VCD identifier of the checker's port $1 (a $var of the top's scope, depth 1)
code() { awk -v n="$1" '/^\$scope/ { d++ } /^\$upscope/ { d-- } /^\$var/ && d == 1 && $5 == n { print $4; exit }' "$vcd"; }
we=$(code reg_we_i) valid=$(code cyc_valid_i)
awk -v c="$we" '!done && $2 == c && /^b/ { print "bx " c; done = 1; next } { print }' "$vcd" > "$tmp/x.vcd"
check vcd-x 2 "value 'x': expected bits 0 and 1 (a counterexample has no x or z)" -- \
    "$P" cex2replay --out "$tmp" "$tmp/x.vcd"
awk -v c="$we" -v v="$valid" '/^#10$/ { t = 1 } !t && $2 == c && /^b/ { print "b1 " c; next }
    !t && $2 == v && /^b/ { print "b1 " v; next } { print }' "$vcd" > "$tmp/both.vcd"
check vcd-write-and-step 2 "step 0: a register write and a step in one clock, expected one or the other" -- \
    "$P" cex2replay --out "$tmp" "$tmp/both.vcd"
awk '/^#20$/ { exit } { print }' "$vcd" > "$tmp/short.vcd"
check vcd-short 2 "the trace has 2 steps, expected 3 or more" -- "$P" cex2replay --out "$tmp" "$tmp/short.vcd"
sed 's/ nissue_i \$end/ nissue_x $end/' "$vcd" > "$tmp/nosig.vcd"
check vcd-signal 2 "signal 'nissue_i' of checker ev4_pmu_props: not in the trace" -- \
    "$P" cex2replay --out "$tmp" "$tmp/nosig.vcd"
check vcd-out-missing 2 "cannot write '$tmp/none/replay-stream.txt'" -- "$P" cex2replay --out "$tmp/none" "$vcd"

# ---- bad --writes schedules: file:line, the field, what was expected ----
bad_writes() { # NAME TEXT EXPECTED
    printf '%b' "$2" > "$tmp/w.txt"
    check "$1" 2 "$3" -- "$P" run --family alpha21064 --stream "$d/replay-stream.txt" --writes "$tmp/w.txt"
}
bad_writes writes-verb 'at 3 wrote ICCSR 0x1\n' \
    "$tmp/w.txt:1: expected 'at CYCLE write REG VALUE' or 'at CYCLE expect REG VALUE', found 'at 3 wrote ICCSR 0x1'"
bad_writes writes-register '# a comment\nat 0 write FOO 1\n' \
    "$tmp/w.txt:2: register 'FOO': expected a visible register or one of the Alpha 21064's register map (ICCSR, HIRR, HIER, SL_CLR, CTR0, CTR1), or an address"
bad_writes writes-order 'at 5 write ICCSR 0\nat 3 write ICCSR 0\n' \
    "$tmp/w.txt:2: cycle 3 is before line 1's 5, expected cycles in order"
bad_writes writes-write-only 'at 0 expect SL_CLR 0\n' "$tmp/w.txt:1: register SL_CLR: write-only (it reads 0)"
bad_writes writes-value 'at 0 write ICCSR zz\n' "$tmp/w.txt:1: value: expected a decimal number or 0x hex, found 'zz'"
bad_writes writes-cycle 'at -1 write ICCSR 0\n' "$tmp/w.txt:1: cycle: expected an unsigned number without a sign, found '-1'"
bad_writes writes-empty '# nothing\n' "$tmp/w.txt: no 'at CYCLE write|expect REG VALUE' line, expected at least one"
check writes-config 2 "--writes: the schedule is the run's whole software, expected no --config" -- \
    "$P" run --family alpha21064 --stream "$d/replay-stream.txt" --writes "$d/replay-writes.txt" --config /dev/null

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
