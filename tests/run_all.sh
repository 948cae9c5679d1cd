#!/usr/bin/env bash
# run_all.sh - the body of `make test`.  Runs every suite, counts individual tests
# across them, and ends with the line "N passed, M failed" (exit 1 when M > 0).
#
#   tests/run_all.sh --gtest "bin1 bin2" --scripts "s1.sh s2.sh" --checks "name=cmd;..." \
#                    [--skipped "name1 name2" --skip-reason "why"] [--first "name1 name2"]
#
# Skipped tests (those a build cannot run, e.g. callgrind under SAN=1) are named with the
# reason and counted on a line of their own, neither passed nor failed.  BUILD (default
# build) is the build directory: the logs go to $BUILD/test-logs.
#
# GoogleTest binaries contribute their test counts; scripts contribute the counts of
# their own final "N passed, M failed" line; each check is one test (exit code).
#
# The suites run concurrently, up to JOBS at a time (default: the number of cores; JOBS=1
# runs them one after another).  Each suite's line is printed in the order the suites are
# given, as soon as it and every suite before it have finished, so the output is the same
# whatever order they finish in.  The longest suites start first: those of the last run's
# $BUILD/test-logs/durations (per suite: wall seconds, name, CPU seconds), else those named by --first (a fresh
# build's guess), then the rest in the order given.  Suites that run at once must not write
# the same file: each writes its own log here and its own temporary or output directory.
set -uo pipefail

gtests="" scripts="" checks="" skipped="" skip_reason="skipped" first=""
while [ $# -gt 0 ]; do
    case "$1" in
        --gtest) gtests="$2"; shift 2 ;;
        --scripts) scripts="$2"; shift 2 ;;
        --checks) checks="$2"; shift 2 ;;
        --skipped) skipped="$2"; shift 2 ;;
        --skip-reason) skip_reason="$2"; shift 2 ;;
        --first) first="$2"; shift 2 ;;
        *) echo "run_all.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done

jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
case $jobs in ''|*[!0-9]*|0) echo "run_all.sh: JOBS='$jobs': expected a positive number" >&2; exit 2 ;; esac

logdir=${BUILD:-build}/test-logs
mkdir -p "$logdir"
res=$(mktemp -d "$logdir/.results.XXXXXX") || exit 2
trap 'rm -rf "$res"' EXIT

note() { printf '%-58s %s\n' "$1" "$2"; }

# Every suite is one entry: its kind (gtest, script, check), its name, and what it runs.
kinds=() names=() cmds=()
for bin in $gtests; do kinds+=(gtest); names+=("$(basename "$bin")"); cmds+=("$bin"); done
for s in $scripts; do kinds+=(script); names+=("$s"); cmds+=("$s"); done
IFS=';' read -ra items <<<"$checks"
for item in "${items[@]}"; do
    [ -z "${item//[[:space:]]/}" ] && continue
    name=${item%%=*}
    kinds+=(check); names+=("${name//[[:space:]]/}"); cmds+=("${item#*=}")
done
n=${#names[@]}

# Runs suite $1 and writes its result to $res/$1: line 1 "P F", line 2 the line printed,
# line 3 the failure's pointer to its log (empty when it passed).
run_suite() {
    local i=$1 name=${names[$1]} cmd=${cmds[$1]} log p f rc line start cpu
    start=$SECONDS
    case ${kinds[$i]} in
        gtest)
            log="$logdir/$name.log"
            "$cmd" --gtest_brief=1 >"$log" 2>&1
            rc=$?
            p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
            f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
            p=${p:-0} f=${f:-0}
            if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # crashed or no summary
            line=$(note "$name" "$p passed, $f failed")
            ;;
        script)
            log="$logdir/$(echo "$name" | tr '/' '_').log"
            bash "$cmd" >"$log" 2>&1
            rc=$?
            line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
            p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
            f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed$/\1/p')
            p=${p:-0} f=${f:-0}
            if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
            line=$(note "$name" "$p passed, $f failed")
            ;;
        check)
            log="$logdir/check-$name.log"
            if bash -c "$cmd" >"$log" 2>&1; then
                p=1 f=0; line=$(note "$name" "passed")
            else
                p=0 f=1; line=$(note "$name" "FAILED")
            fi
            ;;
    esac
    # Its wall seconds and the user + sys CPU seconds of what it ran (times: the children's).
    # (times in this shell: in a pipe or $(...) it would be a new shell's, without children.)
    times > "$res/$i.times"
    cpu=$(sed -n 2p "$res/$i.times" | awk '{ split($1, u, "m"); split($2, s, "m");
        printf "%.0f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }')
    printf '%s %s\n%s\n%s\n%s %s\n' "$p" "$f" "$line" "$([ "$f" -ne 0 ] && echo "$name: see $log")" \
        "$((SECONDS - start))" "$cpu" > "$res/$i.tmp"
    mv "$res/$i.tmp" "$res/$i"
}

# The order they start in: the last run's durations, longest first; then --first; then
# the rest as given.
declare -A last=()
if [ -f "$logdir/durations" ]; then
    while read -r secs name _; do [ -n "$name" ] && last[$name]=$secs; done < "$logdir/durations"
fi
order=()
declare -A queued=()
if [ ${#last[@]} -gt 0 ]; then
    while read -r _ i; do order+=("$i"); queued[$i]=1; done < <(
        for ((i = 0; i < n; i++)); do
            [ -n "${last[${names[$i]}]:-}" ] && echo "${last[${names[$i]}]} $i"
        done | sort -k1,1nr -k2,2n)
fi
for want in $first; do
    for ((i = 0; i < n; i++)); do
        if [ "${names[$i]}" = "$want" ] && [ -z "${queued[$i]:-}" ]; then order+=("$i"); queued[$i]=1; fi
    done
done
for ((i = 0; i < n; i++)); do [ -z "${queued[$i]:-}" ] && order+=("$i"); done

passed=0 failed=0
failures=()
durations=()
shown=0
# Prints every finished suite not yet printed that has no unfinished suite before it.
flush() {
    local p f line fail secs cpu
    while [ "$shown" -lt "$n" ] && [ -f "$res/$shown" ]; do
        { read -r p f; IFS= read -r line; IFS= read -r fail; read -r secs cpu; } < "$res/$shown"
        passed=$((passed + p)) failed=$((failed + f))
        echo "$line"
        [ -n "$fail" ] && failures+=("$fail")
        durations+=("$secs ${names[$shown]} ${cpu:-?}")
        shown=$((shown + 1))
    done
}

. "$(dirname "$0")/jobs_lib.sh"
for i in "${order[@]}"; do
    job_slot "$jobs" flush
    run_suite "$i" &
    running=$((running + 1))
done
job_slot 1 flush
flush
if [ "$shown" -lt "$n" ]; then
    # A suite's runner died without a result: count it as failed, never as passed.
    for ((i = shown; i < n; i++)); do
        [ -f "$res/$i" ] && continue
        printf '0 1\n%s\n%s\n0 0\n' "$(note "${names[$i]}" "FAILED")" "${names[$i]}: no result" > "$res/$i"
    done
    flush
fi
printf '%s\n' "${durations[@]}" > "$logdir/durations.tmp" && mv "$logdir/durations.tmp" "$logdir/durations"

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
