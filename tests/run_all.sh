#!/usr/bin/env bash
# run_all.sh - the body of `make test`.  Runs every suite, counts individual tests
# across them, and ends with the line "N passed, M failed" (exit 1 when M > 0).
#
#   tests/run_all.sh --gtest "bin1 bin2" --scripts "s1.sh s2.sh" --checks "name=cmd;..." \
#                    [--skipped "name1 name2" --skip-reason "why"]
#
# Skipped tests (those a build cannot run, e.g. callgrind under SAN=1) are named with the
# reason and counted on a line of their own, neither passed nor failed.  BUILD (default
# build) is the build directory: the logs go to $BUILD/test-logs.
#
# GoogleTest binaries contribute their test counts; scripts contribute the counts of
# their own final "N passed, M failed" line; each check is one test (exit code).
set -uo pipefail

gtests="" scripts="" checks="" skipped="" skip_reason="skipped"
while [ $# -gt 0 ]; do
    case "$1" in
        --gtest) gtests="$2"; shift 2 ;;
        --scripts) scripts="$2"; shift 2 ;;
        --checks) checks="$2"; shift 2 ;;
        --skipped) skipped="$2"; shift 2 ;;
        --skip-reason) skip_reason="$2"; shift 2 ;;
        *) echo "run_all.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done

logdir=${BUILD:-build}/test-logs
mkdir -p "$logdir"
passed=0 failed=0
failures=()

note() { printf '%-58s %s\n' "$1" "$2"; }

for bin in $gtests; do
    name=$(basename "$bin")
    log="$logdir/$name.log"
    "$bin" --gtest_brief=1 >"$log" 2>&1
    rc=$?
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
    p=${p:-0} f=${f:-0}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # crashed or no summary
    passed=$((passed + p)) failed=$((failed + f))
    note "$name" "$p passed, $f failed"
    [ "$f" -ne 0 ] && failures+=("$name: see $log")
done

for s in $scripts; do
    name=$(echo "$s" | tr '/' '_')
    log="$logdir/$name.log"
    bash "$s" >"$log" 2>&1
    rc=$?
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
    p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
    f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed$/\1/p')
    p=${p:-0} f=${f:-0}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    passed=$((passed + p)) failed=$((failed + f))
    note "$s" "$p passed, $f failed"
    [ "$f" -ne 0 ] && failures+=("$s: see $log")
done

IFS=';' read -ra items <<<"$checks"
for item in "${items[@]}"; do
    [ -z "${item//[[:space:]]/}" ] && continue
    name=${item%%=*}
    name=${name//[[:space:]]/}
    cmd=${item#*=}
    log="$logdir/check-$name.log"
    if bash -c "$cmd" >"$log" 2>&1; then
        passed=$((passed + 1)); note "$name" "passed"
    else
        failed=$((failed + 1)); note "$name" "FAILED"; failures+=("$name: see $log")
    fi
done

nskipped=0
for name in $skipped; do
    nskipped=$((nskipped + 1)); note "$name" "$skip_reason"
done

if [ ${#failures[@]} -gt 0 ]; then
    echo
    echo "Failures:"
    for f in "${failures[@]}"; do echo "  $f"; done
fi
[ "$nskipped" -gt 0 ] && echo "$nskipped skipped ($skip_reason)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
