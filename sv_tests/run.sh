#!/usr/bin/env bash
# Builds and runs every sv_tests testbench under Verilator (--binary --timing) and Icarus
# (-g2012). Prints one line per testbench x simulator and ends with "N passed, M failed".
# Outputs (builds and logs) go to build/sv_tests/<simulator>/<testbench>/.
#
# Usage: bash sv_tests/run.sh [testbench ...]     (default: every sv_tests/tb_*.sv)
# Environment: VERILATOR, IVERILOG, VVP override the tools; SV_TESTS_SIMS="verilator icarus"
# selects the simulators.
set -u
cd "$(dirname "$0")/.."

VERILATOR=${VERILATOR:-verilator}
IVERILOG=${IVERILOG:-iverilog}
VVP=${VVP:-vvp}
SIMS=${SV_TESTS_SIMS:-verilator icarus}
OUT=build/sv_tests

# The RTL source list and the generated includes come from the Makefile (rtl/rtl.mk).
mkdir -p "$OUT"
if ! rtl_srcs=$(make --no-print-directory -s sv-test-rtl-srcs 2> "$OUT/make.log"); then
    echo "FAIL sv_tests: could not build the generated includes / list RTL_SRCS:" >&2
    cat "$OUT/make.log" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
read -r -a RTL_SRCS <<< "$rtl_srcs"
INC=(-Isv_tests -Ibuild/gen)

if [ $# -gt 0 ]; then
    TBS=("$@")
else
    TBS=()
    for f in sv_tests/tb_*.sv; do TBS+=("$(basename "$f" .sv)"); done
fi

passed=0
failed=0

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

# Runs one testbench on one simulator; sets the verdict line.
run_one() {
    local sim=$1 tb=$2
    local dir=$OUT/$sim/$tb
    local deps=("sv_tests/$tb.sv" sv_tests/tb_common.svh sv_tests/run.sh build/gen/pmu_defs.vh
                build/gen/pmu_defines.vh "${RTL_SRCS[@]}")
    local exe run_cmd
    mkdir -p "$dir"
    case $sim in
        verilator)
            exe=$dir/obj/tb
            # -O0 and little loop unrolling: the testbenches are short, the C++ build dominates.
            if ! up_to_date "$exe" "${deps[@]}"; then
                rm -rf "$dir/obj"
                if ! "$VERILATOR" --binary --timing -j 2 --unroll-count 4 \
                        -MAKEFLAGS "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0" \
                        "${INC[@]}" --top-module "$tb" -Mdir "$dir/obj" -o tb \
                        "sv_tests/$tb.sv" "${RTL_SRCS[@]}" > "$dir/build.log" 2>&1; then
                    verdict="FAIL $tb $sim (build failed, see $dir/build.log)"
                    return 1
                fi
            fi
            run_cmd=("$exe")
            ;;
        icarus)
            exe=$dir/tb.vvp
            if ! up_to_date "$exe" "${deps[@]}"; then
                if ! "$IVERILOG" -g2012 -Wall -Wno-floating-nets "${INC[@]}" -s "$tb" -o "$exe" \
                        "sv_tests/$tb.sv" "${RTL_SRCS[@]}" > "$dir/build.log" 2>&1; then
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

for tb in "${TBS[@]}"; do
    if [ ! -f "sv_tests/$tb.sv" ]; then
        echo "FAIL $tb (no sv_tests/$tb.sv)"
        failed=$((failed + 1))
        continue
    fi
    for sim in $SIMS; do
        verdict=""
        if run_one "$sim" "$tb"; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
        fi
        echo "$verdict"
    done
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
