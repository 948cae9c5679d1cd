#!/usr/bin/env bash
# def_checks.sh - proves that a slip in include/common/ita/ita_regs.def or an event table fails the build:
#
#   columns     a ITA_EVT (include/common/ita/ita2_events.def), PMU_DEF_REG, PMU_DEF_REG_MODEL or
#               PMU_DEF_FIELD row with two named columns swapped does not compile
#               (tools/ita/ita_defs.c and tools/gen_rows.c read every column through PMU_COL,
#               include/common/pmu_def.h),
#               and the compiler names the column that was found in the wrong place; nor
#               does an event-kind list whose NONE is not first;
#   generator   a .def that breaks a rule the generated RTL relies on (an ACCESS(QUAL) register
#               without a visible entry, counters that do not follow PMC0.ovf, a register
#               without its reset value and writable mask on a model; in
#               include/common/ev67/ev67_regs.def, a field narrower than the RTL reads or with its
#               MSB below its LSB, the checks every family's generator shares) makes the
#               Itanium generator (tools/gen_defs.c + tools/gen_rows.c + tools/ita/gen_ita.c) fail
#               with a message.
#
# Each case edits a copy of include/ under $BUILD/def-checks/ ($BUILD: build unless set) and
# compiles it there; the tree is never touched.  An unmodified copy must compile and generate, so a failure is the edit's.
#
# Usage: bash tools/tests/def_checks.sh [columns|generator]   (default both; ends with
#        "N passed, M failed")
set -u
cd "$(dirname "$0")/../.."

# The compiler may be a command with arguments ("ccache gcc", as make test passes it).
read -r -a cc <<< "${CC:-gcc}"
what=${1:-all}
work=${BUILD:-build}/def-checks
passed=0 failed=0

ok()   { passed=$((passed + 1)); echo "PASS $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }

# A fresh copy of include/; prints nothing.
fresh_copy() {
    rm -rf "$work/include"
    mkdir -p "$work"
    cp -r include "$work/include"
}

# The family's tables: ita_defs.c (registers, fields, the modelled events),
# ita_event_defs.c (the full event tables) and the generator's tables of the common rows
# (gen_rows.c, which reads the columns ita_defs.c does not: a register row's RESET).
compile_defs() {
    "${cc[@]}" -std=c11 -Wall -I"$work/include" -c tools/ita/ita_defs.c -o "$work/ita_defs.o" \
        > "$work/cc.log" 2>&1 &&
    "${cc[@]}" -std=c11 -Wall -I"$work/include" -DGEN_DEF='"common/ita/ita_regs.def"' -c tools/gen_rows.c \
        -o "$work/gen_rows.o" >> "$work/cc.log" 2>&1 &&
    "${cc[@]}" -std=c11 -Wall -I"$work/include" -c tools/ita/ita_event_defs.c \
        -o "$work/ita_event_defs.o" >> "$work/cc.log" 2>&1
}

build_generator() {
    compile_defs &&
    "${cc[@]}" -std=c11 -Wall -I"$work/include" -DGEN_DEF='"common/ita/ita_regs.def"' tools/gen_defs.c \
        tools/gen_rows.c tools/ita/gen_ita.c "$work/ita_defs.o" "$work/ita_event_defs.o" -o "$work/gen_defs" \
        >> "$work/cc.log" 2>&1
}

# The 21264's generator: the same generic parts with the register block (tools/gen_block.c).
build_ev67_generator() {
    "${cc[@]}" -std=c11 -Wall -I"$work/include" -DGEN_DEF='"common/ev67/ev67_regs.def"' tools/gen_defs.c \
        tools/gen_rows.c tools/gen_block.c tools/ev67/gen_ev67.c tools/ev67/ev67_defs.c \
        -o "$work/gen_defs_ev67" > "$work/cc.log" 2>&1
}

# swap_case NAME SED_EXPR EXPECTED [DEF]: the edited DEF (include/common/ita/ita_regs.def by default)
# must not compile, and the log must name EXPECTED (the PMU_COL_<place>_<found> the slip produced).
swap_case() {
    local name=$1 expr=$2 expected=$3 def=${4:-ita_regs.def}
    fresh_copy
    sed -i "$expr" "$work/include/common/ita/$def"
    if cmp -s "include/common/ita/$def" "$work/include/common/ita/$def"; then
        fail "$name (the edit changed nothing: the test is stale)"
    elif compile_defs; then
        fail "$name (compiled with the columns swapped)"
    elif ! grep -q "$expected" "$work/cc.log"; then
        fail "$name (failed, but the messages do not name $expected; see $work/cc.log)"
    else
        ok "$name: $expected"
    fi
}

# gen_case NAME SED_EXPR OUTPUT EXPECTED: with the edit the generator builds, but writing
# OUTPUT fails with a message containing EXPECTED.
# With FAM=ev67: the same with include/common/ev67/ev67_regs.def and the 21264's generator (the
# checks of the common rows, tools/gen_defs.c, serve every family).
gen_case() {
    local name=$1 expr=$2 output=$3 expected=$4 fam=${FAM:-ita}
    local def=common/$fam/${fam}_regs.def gen=$work/gen_defs build=build_generator
    [ "$fam" = ita ] || { gen=$work/gen_defs_$fam; build=build_${fam}_generator; }
    fresh_copy
    sed -i "$expr" "$work/include/$def"
    if cmp -s "include/$def" "$work/include/$def"; then
        fail "$name (the edit changed nothing: the test is stale)"
    elif ! $build; then
        fail "$name (the generator did not build; see $work/cc.log)"
    elif "$gen" "$output" > "$work/out" 2> "$work/err"; then
        fail "$name (gen_defs $output succeeded)"
    elif ! grep -q "$expected" "$work/err"; then
        fail "$name (gen_defs failed, but not with '$expected': $(cat "$work/err"))"
    else
        ok "$name: $(cat "$work/err")"
    fi
}

columns() {
    fresh_copy
    if compile_defs; then ok "unmodified .def compiles"; else fail "unmodified .def (see $work/cc.log)"; fi
    swap_case "ITA_EVT CODE <-> UMASK" \
        's/ITA_EVT(CPU_CYCLES, CODE(0x12), UMASK(0x0)/ITA_EVT(CPU_CYCLES, UMASK(0x0), CODE(0x12)/' \
        PMU_COL_CODE_UMASK ita2_events.def
    swap_case "ITA_EVT COUNTERS <-> MAXINCR" \
        's/\(ITA_EVT(CPU_CYCLES,.*\)COUNTERS(0xf0), MAXINCR(1)/\1MAXINCR(1), COUNTERS(0xf0)/' \
        PMU_COL_COUNTERS_MAXINCR ita2_events.def
    swap_case "ITA_EVT IAR <-> DAR" \
        's/\(ITA_EVT(LOADS_RETIRED,.*\)IAR(1), OPM(1), DAR(1)/\1DAR(1), OPM(1), IAR(1)/' \
        PMU_COL_IAR_DAR ita2_events.def
    swap_case "ITA_EVT a column left out" \
        's/\(ITA_EVT(CPU_CYCLES,.*\)MAXINCR(1), IAR(0)/\1IAR(0), IAR(0)/' \
        PMU_COL_MAXINCR_IAR ita2_events.def
    swap_case "PMU_DEF_REG ADDR <-> SPAN" \
        's/^PMU_DEF_REG(PMC6_7, ADDR(0x006), SPAN(2)/PMU_DEF_REG(PMC6_7, SPAN(2), ADDR(0x006)/' \
        PMU_COL_ADDR_SPAN
    swap_case "PMU_DEF_REG ACCESS <-> RESET" \
        's/^\(PMU_DEF_REG(PMC0, .*\)ACCESS(OVF_CTRL), RESET(0x1ull)/\1RESET(0x1ull), ACCESS(OVF_CTRL)/' \
        PMU_COL_ACCESS_RESET
    swap_case "PMU_DEF_REG_MODEL RESET <-> WMASK" \
        's/^\(PMU_DEF_REG_MODEL(PMC4, *MODEL(ITANIUM), *\)RESET(\([^)]*\)), *WMASK(\([^)]*\))/\1WMASK(\3), RESET(\2)/' \
        PMU_COL_RESET_WMASK
    swap_case "PMU_DEF_REG_MODEL register <-> MODEL" \
        's/^PMU_DEF_REG_MODEL(PMC5, *MODEL(ITANIUM2),/PMU_DEF_REG_MODEL(MODEL(ITANIUM2), PMC5,/' \
        PMU_COL_MODEL_PMC5
    # A model row finds its register by name (ITA_REG_<name>, include/common/ita/ita_regs.h).
    swap_case "PMU_DEF_REG_MODEL of a register the .def does not have" \
        's/^PMU_DEF_REG_MODEL(PMC5, *MODEL(ITANIUM),/PMU_DEF_REG_MODEL(PMC5_6, MODEL(ITANIUM),/' \
        ITA_REG_PMC5_6
    swap_case "PMU_DEF_FIELD MSB <-> LSB" \
        's/^PMU_DEF_FIELD(PMC0, *OVF, *MSB(7), *LSB(4),/PMU_DEF_FIELD(PMC0, OVF, LSB(4), MSB(7),/' \
        PMU_COL_MSB_LSB
    # Kind 0 counts nothing: the event kinds of the common schema list NONE first.
    swap_case "PMU_DEF_EVENT_KIND NONE not first" \
        '/^PMU_DEF_EVENT_KIND(NONE,/{h;d};/^PMU_DEF_EVENT_KIND(CYCLES,/G' \
        pmu_kind_none_is_first
}

generator() {
    fresh_copy
    if build_generator && "$work/gen_defs" ita_defs.vh > /dev/null && "$work/gen_defs" ita_qual_regs.svh > /dev/null
    then ok "unmodified .def generates"; else fail "unmodified .def (see $work/cc.log)"; fi
    gen_case "ACCESS(QUAL) register without a visible entry" \
        '/^ITA_VISIBLE(PMC15, PMC, 15, PMC15)$/d' ita_qual_regs.svh "PMU_DEF_REG(PMC15)"
    gen_case "counter configurations not where PMC0.ovf puts them" \
        's/^\(PMU_DEF_REG(PMC4, .*\)ACCESS(CNT_CFG)/\1ACCESS(QUAL)/' \
        ita_defs.vh "ACCESS(CNT_CFG) registers are PMC\[5..7\]"
    # Each register has its reset value and writable mask on each model, once, and its
    # register row's RESET is the default model's (tools/gen_defs.c, for every family).
    gen_case "register without its Itanium reset and writable mask" \
        '/^PMU_DEF_REG_MODEL(PMC5, *MODEL(ITANIUM),/d' \
        ita_defs.vh "PMU_DEF_REG(PMC5) has no PMU_DEF_REG_MODEL row for MODEL(ITANIUM)"
    gen_case "a register's model row twice" \
        '/^PMU_DEF_REG_MODEL(PMC5, *MODEL(ITANIUM),/p' \
        ita_defs.vh "PMU_DEF_REG_MODEL(PMC5, MODEL(ITANIUM)) twice"
    gen_case "register RESET other than the default model's" \
        's/^\(PMU_DEF_REG(PMC4, .*\)RESET(0x800000ull)/\1RESET(0x0ull)/' \
        ita_defs.vh "PMU_DEF_REG(PMC4): RESET(0x0), expected its default model's (MODEL(ITANIUM2)) RESET(0x800000)"
    # The RTL's register port finds a register by its visible entry, on a key of the address.
    gen_case "visible entry outside the register port's key" \
        's/^ITA_VISIBLE(PSR,  CPU, 0, PSR)$/ITA_VISIBLE(PSR,  CPU, 32, PSR)/' \
        ita_defs.vh "ITA_VISIBLE PSR: space 4 / index 32 do not fit the register port's key"
    gen_case "two visible entries at one address" \
        's/^ITA_VISIBLE(DCR,  CPU, 1, DCR)$/ITA_VISIBLE(DCR,  CPU, 0, DCR)/' \
        ita_defs.vh "ITA_VISIBLE PSR and DCR have one address"
    gen_case "register without a visible entry that is not constant 0" \
        '/^ITA_VISIBLE(IPSR, CPU, 2, PSR)$/d' \
        ita_defs.vh "PMU_DEF_REG(IPSR): index 2 has no ITA_VISIBLE entry but is not constant 0"
    fresh_copy
    if build_ev67_generator && "$work/gen_defs_ev67" ev67_defs.vh > /dev/null
    then ok "unmodified 21264 .def generates"; else fail "unmodified 21264 .def (see $work/cc.log)"; fi
    FAM=ev67 gen_case "21264 field narrower than the RTL reads" \
        's/^PMU_DEF_FIELD(I_CTL,      SPCE,      MSB(0),/PMU_DEF_FIELD(I_CTL,      SPCE,      MSB(1),/' \
        ev67_defs.vh "PMU_DEF_FIELD(I_CTL, SPCE): 2 bits, expected 1"
    FAM=ev67 gen_case "21264 register span not a power of two" \
        's/^PMU_DEF_REG(PCTX,       ADDR(0x40),  SPAN(32),/PMU_DEF_REG(PCTX,       ADDR(0x40),  SPAN(24),/' \
        ev67_defs.vh "PMU_DEF_REG(PCTX): expected a power-of-two SPAN at an ADDR aligned to it"
    FAM=ev67 gen_case "21264 field with MSB below LSB" \
        's/^PMU_DEF_FIELD(OBS_PM,     AGE,       MSB(4),  LSB(2),/PMU_DEF_FIELD(OBS_PM,     AGE,       MSB(1),  LSB(2),/' \
        ev67-register-map.md "PMU_DEF_FIELD(OBS_PM, AGE): MSB(1) LSB(2), expected LSB <= MSB <= 63"
}

case $what in
    columns) columns ;;
    generator) generator ;;
    all) columns; generator ;;
    *)
        echo "usage: bash tools/tests/def_checks.sh [columns|generator]" >&2
        exit 2
        ;;
esac
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
