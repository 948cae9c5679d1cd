#!/usr/bin/env bash
# Builds and runs every sv_tests testbench under Verilator (--binary --timing) and Icarus
# (-g2012). Prints one line per testbench x simulator and ends with "N passed, M failed".
# Testbenches live in one folder per family (sv_tests/<family>/tb_*.sv); each folder's testbenches compile with the sources and
# generated includes the Makefile names for it (make sv-test-families). Outputs (builds and
# logs) go to $BUILD/sv_tests/<simulator>/<family>/<testbench>/ ($BUILD: build unless set, as
# make test SAN=1 sets it); a build is redone only when
# one of its inputs is newer: the testbench, the RTL sources it instantiates (sources_used),
# the family's generated includes, tb_common.svh, this script and tools/sources-used.sh.  The
# Verilator runtime (verilated.cpp and the timing and thread support) is compiled once, in
# $BUILD/sv_tests/verilator-runtime/, and every testbench whose generated makefile would
# compile it alike links that archive (verilator/vlt_runtime.mk).
#
# Usage: bash sv_tests/run.sh [testbench ...]     (default: every sv_tests/*/tb_*.sv)
# Environment: VERILATOR, IVERILOG, VVP override the tools; SV_TESTS_SIMS="verilator icarus"
# selects the simulators; SV_TESTS_JOBS (default JOBS, else 1) how many builds and runs go at once.
set -u
cd "$(dirname "$0")/.."

VERILATOR=${VERILATOR:-verilator}
IVERILOG=${IVERILOG:-iverilog}
VVP=${VVP:-vvp}
SIMS=${SV_TESTS_SIMS:-verilator icarus}
OUT=${BUILD:-build}/sv_tests

mkdir -p "$OUT"
if ! families=$(make --no-print-directory -s sv-test-families 2> "$OUT/make.log"); then
    echo "FAIL sv_tests: could not build the generated includes / list the RTL sources:" >&2
    cat "$OUT/make.log" >&2
    echo "0 passed, 1 failed"
    exit 1
fi

# Per family folder: include directory, generated includes, RTL sources.
declare -A FAM_INC FAM_GEN FAM_SRCS
FAMILIES=()
while IFS='|' read -r fam inc gen srcs; do
    [ -n "$fam" ] || continue
    FAMILIES+=("$fam")
    FAM_INC[$fam]=$inc
    FAM_GEN[$fam]=$gen
    FAM_SRCS[$fam]=$srcs
done <<< "$families"

# The family folder of testbench $1 (its name), or nothing.
family_of() {
    local fam
    for fam in "${FAMILIES[@]}"; do
        if [ -f "sv_tests/$fam/$1.sv" ]; then
            echo "$fam"
            return
        fi
    done
}

if [ $# -gt 0 ]; then
    TBS=("$@")
else
    TBS=()
    for fam in "${FAMILIES[@]}"; do
        for f in sv_tests/"$fam"/tb_*.sv; do
            [ -e "$f" ] && TBS+=("$(basename "$f" .sv)")
        done
    done
fi

passed=0
failed=0

# sources_used TESTBENCH SOURCE...: the RTL sources it instantiates (tools/sources-used.sh).
. tools/sources-used.sh

# 0 when $1 exists and is newer than every other argument.
up_to_date() {
    local target=$1; shift
    [ -e "$target" ] || return 1
    local dep
    for dep in "$@"; do
        [ "$dep" -nt "$target" ] && return 1
    done
    return 0
}

# Verilator's settings for every testbench, and the shared runtime's.
# -O0 and no loop unrolling: the testbenches are short, the C++ build dominates.
# Verilator's -O3 shrinks that C++: tb_ita_pmu's from 100 files (25 MB, 128 CPU s
# to compile) to 23 (17 MB, 43 CPU s), for 3 s more of Verilator.  Unrolling copies a loop's
# body, and Verilator inlines every task into each call: --unroll-count 1 took
# tb_ev67_pmu's C++ from 20.7 MB to 12.5 (its check loops over the two instances).
# --main --exe --timing and the make that follows are --binary's, split to link the shared runtime.
VLT_ARGS=(--main --exe --timing -O3 --unroll-count 1)
VLT_MAKE=(OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0)
RT_DIR=$OUT/verilator-runtime
RT_LIB=$RT_DIR/obj/libverilated.a
RT_MK=$PWD/verilator/vlt_runtime.mk
RT_DEPS=(sv_tests/run.sh "$RT_MK" "$(command -v "$VERILATOR")")
# The runtime-key of the Verilated top $2 in folder $1 (verilator/vlt_runtime.mk).
runtime_key() {
    make -s --no-print-directory -C "$1" -f "$RT_MK" VM_MK="V$2.mk" "${VLT_MAKE[@]}" runtime-key
}
# Builds the shared runtime (once: kept while newer than RT_DEPS) with a tiny top's makefile;
# on failure each testbench compiles its own (the note says where to look).
build_runtime() {
    up_to_date "$RT_LIB" "${RT_DEPS[@]}" && [ -s "$RT_DIR/key" ] && return 0
    rm -rf "$RT_DIR"
    mkdir -p "$RT_DIR"
    # (a delay: with none, Verilator leaves the timing support out)
    printf 'module sv_tests_runtime;\ninitial #1 $finish;\nendmodule\n' > "$RT_DIR/sv_tests_runtime.sv"
    if "$VERILATOR" "${VLT_ARGS[@]}" --top-module sv_tests_runtime -Mdir "$RT_DIR/obj" \
            "$RT_DIR/sv_tests_runtime.sv" > "$RT_DIR/build.log" 2>&1 &&
       make --no-print-directory -j 2 -C "$RT_DIR/obj" -f "$RT_MK" VM_MK=Vsv_tests_runtime.mk \
            "${VLT_MAKE[@]}" libverilated.a >> "$RT_DIR/build.log" 2>&1 &&
       runtime_key "$RT_DIR/obj" sv_tests_runtime > "$RT_DIR/key.tmp" 2>> "$RT_DIR/build.log"; then
        mv "$RT_DIR/key.tmp" "$RT_DIR/key"
    else
        rm -f "$RT_LIB" "$RT_DIR/key.tmp"
        echo "note: the shared Verilator runtime did not build ($RT_DIR/build.log): each testbench compiles its own"
    fi
}
# Verilates testbench $1 into folder $2 (Verilator's other arguments follow) and builds its
# binary $2/tb: with the shared runtime when the testbench's makefile has its runtime-key,
# else with a runtime of its own.
vlt_build() {
    local tb=$1 obj=$2 rt=()
    shift 2
    "$VERILATOR" "${VLT_ARGS[@]}" --top-module "$tb" -Mdir "$obj" -o tb "$@" || return 1
    if [ -s "$RT_DIR/key" ] && [ -f "$RT_LIB" ] &&
       [ "$(runtime_key "$obj" "$tb" 2>/dev/null)" = "$(cat "$RT_DIR/key")" ]; then
        rt=(VK_GLOBAL_OBJS= LOADLIBES="$(realpath "$RT_LIB")")
        echo "linked with the shared runtime $RT_LIB"
    fi
    make --no-print-directory -j 2 -C "$obj" -f "V$tb.mk" "${VLT_MAKE[@]}" "${rt[@]}" tb
}

# Runs testbench $3 of family folder $2 on simulator $1; sets the verdict line.
run_one() {
    local sim=$1 fam=$2 tb=$3
    local dir=$OUT/$sim/$fam/$tb
    local src=sv_tests/$fam/$tb.sv
    local -a srcs gen inc
    read -r -a srcs <<< "$(sources_used "$src" ${FAM_SRCS[$fam]})"
    read -r -a gen <<< "${FAM_GEN[$fam]}"
    inc=(-Isv_tests)
    [ -n "${FAM_INC[$fam]}" ] && inc+=("-I${FAM_INC[$fam]}")
    # Every generated include of the family and tb_common.svh are inputs, whether or not
    # this testbench includes them: they change together, with the .def or the harness.
    local deps=("$src" sv_tests/tb_common.svh sv_tests/run.sh tools/sources-used.sh "${gen[@]}" "${srcs[@]}")
    local exe run_cmd
    mkdir -p "$dir"
    case $sim in
        verilator)
            exe=$dir/obj/tb
            if ! up_to_date "$exe" "${deps[@]}" "${RT_DEPS[@]}" $([ -f "$RT_LIB" ] && echo "$RT_LIB"); then
                rm -rf "$dir/obj"
                if ! vlt_build "$tb" "$dir/obj" "${inc[@]}" "$src" "${srcs[@]}" > "$dir/build.log" 2>&1; then
                    verdict="FAIL $tb $sim (build failed, see $dir/build.log)"
                    return 1
                fi
            fi
            run_cmd=("$exe")
            ;;
        icarus)
            exe=$dir/tb.vvp
            if ! up_to_date "$exe" "${deps[@]}"; then
                if ! "$IVERILOG" -g2012 -Wall -Wno-floating-nets "${inc[@]}" -s "$tb" -o "$exe" \
                        "$src" "${srcs[@]}" > "$dir/build.log" 2>&1; then
                    rm -f "$exe"
                    verdict="FAIL $tb $sim (build failed, see $dir/build.log)"
                    return 1
                fi
            fi
            run_cmd=("$VVP" -n "$exe")
            ;;
        *)
            verdict="FAIL $tb $sim (unknown simulator)"
            return 1
            ;;
    esac

    local rc=0
    # In a subshell so that a simulator killed by $fatal's abort is reported in the log only.
    ( "${run_cmd[@]}"; status=$?; exit $status ) > "$dir/run.log" 2>&1 || rc=$?
    local pass_line
    pass_line=$(grep -m1 "^PASS $tb (" "$dir/run.log")
    if [ $rc -eq 0 ] && [ -n "$pass_line" ] && ! grep -q "^FAIL" "$dir/run.log"; then
        verdict="PASS $tb $sim ${pass_line#PASS $tb }"
        return 0
    fi
    local why
    why=$(grep -m1 "^FAIL $tb (" "$dir/run.log" | sed 's/^FAIL [^ ]* (\(.*\))$/\1/')
    verdict="FAIL $tb $sim (exit $rc${why:+, $why}; see $dir/run.log)"
    grep "^FAIL" "$dir/run.log" | head -20 | sed 's/^/    /'
    return 1
}

# Each testbench x simulator runs in the background, up to SV_TESTS_JOBS (default JOBS, else
# 1) at a time, each in its own output folder; its lines are printed in the order above
# once it and every one before it have finished.
jobs=${SV_TESTS_JOBS:-${JOBS:-1}}
case $jobs in ''|*[!0-9]*|0) jobs=1 ;; esac
res=$(mktemp -d "$OUT/.results.XXXXXX") || exit 2
trap 'rm -rf "$res"' EXIT
. tests/jobs_lib.sh
n=0 shown=0
show() {
    local st
    while [ "$shown" -lt "$n" ] && [ -f "$res/$shown.status" ]; do
        cat "$res/$shown.out"
        read -r st < "$res/$shown.status"
        if [ "$st" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
        shown=$((shown + 1))
    done
}
[[ " $SIMS " == *" verilator "* ]] && build_runtime
for tb in "${TBS[@]}"; do
    fam=$(family_of "$tb")
    for sim in $SIMS; do
        job_slot "$jobs" show
        (
            if [ -z "$fam" ]; then
                echo "FAIL $tb (no sv_tests/<family>/$tb.sv for the families ${FAMILIES[*]})"
                st=1
            else
                verdict=""
                run_one "$sim" "$fam" "$tb"
                st=$?
                echo "$verdict"
            fi > "$res/$n.out"
            echo "$st" > "$res/$n.status.tmp"
            mv "$res/$n.status.tmp" "$res/$n.status"
        ) &
        running=$((running + 1))
        n=$((n + 1))
        # A testbench of no family is one failure, whatever the simulators.
        [ -z "$fam" ] && break
    done
done
job_slot 1 show
show
[ "$shown" -eq "$n" ] || { echo "FAIL sv_tests: $((n - shown)) runs gave no result"; failed=$((failed + n - shown)); }

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
