#!/usr/bin/env bash
# conform_shards.sh - conformance at scale (docs/conformance.md): `pmusim conform --matrix`
# split into shards runs exactly the cases of the whole plan, each once; the JSON summaries
# and JUnit XML say what ran; `pmusim conform-merge` puts the shards together, reports a
# failed case with its replay command, a missing shard, and refuses shards of other plans,
# a shard given twice, a file whose cases are not its shard's (relabelled, a case twice, an
# index past the plan) or disagree with its totals, and files that are not summaries.
# Every JUnit report, a failed case's included, is valid against tests/junit/junit.xsd
# (every attribute the JUnit schemas of Ant and Jenkins require), with the shard's timestamp
# and host; a replay's waveform files are ignored by git.  Ends with "N passed, M failed".
set -u
cd "$(dirname "$0")/.."
PMUSIM=${PMUSIM:-build/pmusim}
tmp=$(mktemp -d /tmp/pmusim_shards.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. tests/cli_lib.sh

conform() { "$PMUSIM" conform "$@"; }
merge() { "$PMUSIM" conform-merge "$@"; }
# junit NAME FILE [FAILURES]: FILE is valid against the schema; its suite counts FAILURES
# failed cases (default 0), and says when (a UTC time of this test) and where (this host) it ran.
started=$(date -u +%Y-%m-%dT%H:%M:%S)
junit() {
    local name=$1 file=$2 fails=${3:-0} why="" stamp
    stamp=$(grep -o ' timestamp="[^"]*"' "$file" | cut -d'"' -f2)
    if ! why=$(xmllint --noout --schema tests/junit/junit.xsd "$file" 2>&1); then
        :
    elif ! grep -q "<testsuites name=\"pmusim conform\" tests=\"[0-9]*\" failures=\"$fails\" errors=\"0\"" "$file" ||
        ! grep -q "<testsuite .* failures=\"$fails\" errors=\"0\" skipped=\"0\"" "$file"; then
        why="the suites do not count $fails failures"
    elif [ "$(grep -c '<failure ' "$file")" -ne "$fails" ]; then
        why="$(grep -c '<failure ' "$file") <failure> elements, expected $fails"
    elif [[ ! "$stamp" > "$started" && "$stamp" != "$started" ]] || [[ "$stamp" > "$(date -u +%Y-%m-%dT%H:%M:%S)" ]]; then
        why="timestamp '$stamp' is not a time of this test (from $started)"
    elif ! grep -qF " hostname=\"$(uname -n)\"" "$file"; then
        why="hostname is not this host's ($(uname -n))"
    fi
    if [ -z "$why" ] || [ "$why" = "$file validates" ]; then
        echo "ok   $name"; passed=$((passed + 1))
    else
        echo "FAIL $name: $why" | head -5; failed=$((failed + 1))
    fi
}
plan=(--matrix --seed 7 --runs 2 --cycles 1500)

# ---- arguments ------------------------------------------------------------------------
check shard-zero 2 "--shard: I: expected a number in 1..4294967295 (0xffffffff), found '0'" -- conform --shard 0/3
check shard-past-n 2 "--shard: expected I/N with I <= N, found '4/3'" -- conform --shard 4/3
check shard-no-slash 2 "--shard: expected I/N (the I-th of N shards, 1 <= I <= N), found '3'" -- conform --shard 3
check shard-n-zero 2 "--shard: N: expected a number in 1..4294967295 (0xffffffff), found '0'" -- conform --shard 1/0
check matrix-with-model 2 "--matrix: runs every model, configuration and service; expected no --model, --mode or --service with it" \
    -- conform --matrix --model itanium
check qual-without-qualifiers 2 "--mode: qual: the Alpha 21064 has no event qualifiers" \
    -- conform --family alpha21064 --mode qual
check qual-itanium 0 "seed 3 model itanium2 (qual, workload): 4000 cycles" -- conform --mode qual --seed 3 --runs 1 --cycles 4000
check junit-unwritable 2 "--junit: cannot write '/nonexistent-dir/x.xml'" -- conform --runs 1 --cycles 10 --junit /nonexistent-dir/x.xml

# ---- the whole plan, then three shards of it --------------------------------------------
check plan-whole 0 "passed, 0 failed" -- conform "${plan[@]}" --json "$tmp/whole.json" --junit "$tmp/whole.xml"
for k in 1 2 3; do
    check "plan-shard-$k" 0 ", shard $k/3" -- conform "${plan[@]}" --shard "$k/3" --json "$tmp/s$k.json" --junit "$tmp/s$k.xml"
done
cases() { grep -ho '"family": "[^"]*", "model": "[^"]*", "config": "[^"]*", "service": "[^"]*", "seed": [0-9]*' "$@" | sort; }
whole=$(cases "$tmp/whole.json" | wc -l)
if [ "$whole" -ge 40 ] && diff <(cases "$tmp/whole.json") <(cases "$tmp/s1.json" "$tmp/s2.json" "$tmp/s3.json") >/dev/null &&
    [ "$(cases "$tmp/s1.json" "$tmp/s2.json" "$tmp/s3.json" | uniq -d | wc -l)" -eq 0 ]; then
    echo "ok   shards-run-the-plan-once"; passed=$((passed + 1))
else
    echo "FAIL shards-run-the-plan-once: the shards' cases are not the plan's ($whole cases), each once"; failed=$((failed + 1))
fi
testcases=$(cat "$tmp/s1.xml" "$tmp/s2.xml" "$tmp/s3.xml" | grep -c '<testcase ')
if [ "$testcases" -eq "$whole" ] && grep -q "<testsuite name=\"pmusim conform, shard 2/3\" .* tests=\"$(grep -c '<testcase ' "$tmp/s2.xml")\" failures=\"0\"" "$tmp/s2.xml"; then
    echo "ok   junit-one-testcase-a-case"; passed=$((passed + 1))
else
    echo "FAIL junit-one-testcase-a-case: $testcases testcases in the shards' XML, $whole cases"; failed=$((failed + 1))
fi
junit junit-valid-whole "$tmp/whole.xml"
junit junit-valid-shard "$tmp/s2.xml"
check merge-complete 0 "$whole passed, 0 failed" -- merge -o "$tmp/merged.json" --junit "$tmp/merged.xml" "$tmp/s3.json" "$tmp/s1.json" "$tmp/s2.json"
if diff <(cases "$tmp/whole.json") <(cases "$tmp/merged.json") >/dev/null && grep -q "tests=\"$whole\" failures=\"0\"" "$tmp/merged.xml"; then
    echo "ok   merged-files-hold-every-case"; passed=$((passed + 1))
else
    echo "FAIL merged-files-hold-every-case: merged.json / merged.xml are not the plan's cases"; failed=$((failed + 1))
fi
junit junit-valid-merged "$tmp/merged.xml"
# The merge says when the first shard started and, when the shards ran on several hosts, so.
sed 's/"timestamp": "[^"]*"/"timestamp": "2001-02-03T04:05:06"/; s/"hostname": "[^"]*"/"hostname": "node-2"/' \
    "$tmp/s2.json" > "$tmp/early2.json"
check merge-hosts 0 "$whole passed" -- merge -o "$tmp/hosts.json" --junit "$tmp/hosts.xml" "$tmp/s1.json" "$tmp/early2.json" "$tmp/s3.json"
if grep -q '"timestamp": "2001-02-03T04:05:06",' "$tmp/hosts.json" && grep -q '"hostname": "several hosts",' "$tmp/hosts.json" &&
    grep -q ' timestamp="2001-02-03T04:05:06" hostname="several hosts" ' "$tmp/hosts.xml" &&
    xmllint --noout --schema tests/junit/junit.xsd "$tmp/hosts.xml" 2>/dev/null; then
    echo "ok   merge-earliest-start-several-hosts"; passed=$((passed + 1))
else
    echo "FAIL merge-earliest-start-several-hosts: $tmp/hosts.json/.xml lack the first shard's start or 'several hosts'"; failed=$((failed + 1))
fi
check merge-report 0 "cases: $whole of $whole;" -- merge "$tmp/s1.json" "$tmp/s2.json" "$tmp/s3.json"
check merge-missing 1 "missing: 2/3" -- merge "$tmp/s1.json" "$tmp/s3.json"
check merge-twice 2 "$tmp/s1.json: shard 1/3 given twice" -- merge "$tmp/s1.json" "$tmp/s1.json"
check merge-other-shards 2 "whole.json: shard 1 of 1, expected shards of 3" -- merge "$tmp/s1.json" "$tmp/whole.json"
check plan-other 0 "passed, 0 failed" -- conform --matrix --seed 7 --runs 2 --cycles 1000 --shard 1/3 --json "$tmp/other.json"
check merge-other-plan 2 "other.json: plan \"seed 7, runs 2, cycles 1000, matrix of every family\", expected \"seed 7, runs 2, cycles 1500, matrix of every family\"" \
    -- merge "$tmp/s1.json" "$tmp/other.json"
check merge-output-is-input 2 "expected another file (an input is never overwritten)" -- merge -o "$tmp/s1.json" "$tmp/s1.json"

# ---- a shard's file must hold that shard's cases, each once, with its own totals -------
# Shards 1 to 3 of 4, and shard 1's file relabelled as shard 4: shard 4's cases never ran
# and shard 1's would count twice.
for k in 1 2 3; do
    check "plan4-shard-$k" 0 ", shard $k/4" -- conform "${plan[@]}" --shard "$k/4" --json "$tmp/q$k.json"
done
sed 's/"shard": 1,/"shard": 4,/' "$tmp/q1.json" > "$tmp/q4.json"
check merge-wrong-shard 2 "$tmp/q4.json: field 'cases[0].index' (itanium/itanium/random/harness/seed 7): case 0 of the plan belongs to shard 1/4, not to this file's shard 4/4" \
    -- merge "$tmp/q1.json" "$tmp/q2.json" "$tmp/q3.json" "$tmp/q4.json"
check merge-missing-shard 1 "missing: 4/4" -- merge "$tmp/q1.json" "$tmp/q2.json" "$tmp/q3.json"
awk '/^    {"family"/ && !done { a = $0; getline b; print a; print b; print a; print b; done = 1; next } { print }' \
    "$tmp/s1.json" > "$tmp/dup1.json"
check merge-duplicated-case 2 "$tmp/dup1.json: field 'cases[1].index' (itanium/itanium/random/harness/seed 7): case 0 of the plan after case 0: expected each case once" \
    -- merge "$tmp/dup1.json" "$tmp/s2.json" "$tmp/s3.json"
sed '0,/"cycles": 1500,/s//"cycles": 1499,/' "$tmp/s2.json" > "$tmp/sum2.json"
n2=$(grep -c '"index": ' "$tmp/s2.json")
check merge-totals-disagree 2 "$tmp/sum2.json: field 'totals.cycles': expected $((n2 * 1500 - 1)) (that of its $n2 cases), found $((n2 * 1500))" \
    -- merge "$tmp/s1.json" "$tmp/sum2.json" "$tmp/s3.json"
sed '0,/"index": 2,/s//"index": 4000,/' "$tmp/s3.json" > "$tmp/past3.json"
check merge-index-past-plan 2 "$tmp/past3.json: field 'cases[0].index' (itanium/itanium/workload/harness/seed 7): expected an index below plan_cases ($whole), found 4000" \
    -- merge "$tmp/s1.json" "$tmp/s2.json" "$tmp/past3.json"

# ---- a failed case: reported with its replay command, in the merged JUnit XML too -------
sed '0,/"status": "passed"/s//"status": "mismatch"/; 0,/"replay": "\([^"]*\)"}/s//"replay": "\1", "message": "mismatch at cycle 219 (step of record 219)\\n  register: PMD5"}/;
     s/"failed": 0, "mismatches": 0,/"failed": 1, "mismatches": 1,/' \
    "$tmp/s2.json" > "$tmp/bad2.json"
check merge-failed-case 1 "mismatch: mismatch at cycle 219 (step of record 219)" -- merge --junit "$tmp/bad.xml" "$tmp/s1.json" "$tmp/bad2.json" "$tmp/s3.json"
check merge-failed-replay 1 "  reproduce: $PMUSIM conform --seed " -- merge "$tmp/s1.json" "$tmp/bad2.json" "$tmp/s3.json"
if grep -q '<failure type="mismatch" message="mismatch at cycle 219 (step of record 219); reproduce: ' "$tmp/bad.xml" &&
    grep -q "failures=\"1\"" "$tmp/bad.xml"; then
    echo "ok   junit-failure-with-replay"; passed=$((passed + 1))
else
    echo "FAIL junit-failure-with-replay: $tmp/bad.xml has no failure with the report and the replay command"; failed=$((failed + 1))
fi
junit junit-valid-failed-case "$tmp/bad.xml" 1

# ---- a replay's waveform (FILE.fst and its layout FILE.gtkw where it is run) is no change
# to the repository; the project's own layout is tracked ------------------------------------
wave=$(grep -o -- '--waves [^ "]*' "$tmp/s1.json" | head -1 | cut -d' ' -f2)
if ! git rev-parse --git-dir >/dev/null 2>&1; then
    echo "skip replay-waves-ignored: not a git checkout"
elif [ -n "$wave" ] && git check-ignore -q --no-index "$wave" && git check-ignore -q --no-index "${wave%.fst}.gtkw" &&
    git check-ignore -q --no-index "sub/${wave%.fst}.gtkw" && ! git check-ignore -q --no-index docs/pmusim.gtkw; then
    echo "ok   replay-waves-ignored"; passed=$((passed + 1))
else
    echo "FAIL replay-waves-ignored: git does not ignore '$wave' and '${wave%.fst}.gtkw', or ignores docs/pmusim.gtkw"; failed=$((failed + 1))
fi

# ---- files that are not summaries --------------------------------------------------------
printf '{\n  "format": "pmusim-conform-3",\n  "plan": [1, 2,\n  ]}\n' > "$tmp/broken.json"
check merge-broken-json 2 "$tmp/broken.json:4: expected a value" -- merge "$tmp/broken.json"
printf '{"format": "something-else"}' > "$tmp/foreign.json"
check merge-foreign-json 2 "$tmp/foreign.json: field 'format': expected \"pmusim-conform-3\"" -- merge "$tmp/foreign.json"
sed 's/"seed": 7,/"seed": -7,/' "$tmp/s1.json" > "$tmp/negative.json"
check merge-bad-field 2 "$tmp/negative.json: field 'cases[0].seed': expected an unsigned integer" -- merge "$tmp/negative.json"
sed 's/"timestamp": "[^"]*"/"timestamp": "2026-02-30T10:00:00"/' "$tmp/s1.json" > "$tmp/badtime.json"
check merge-bad-timestamp 2 "$tmp/badtime.json: field 'timestamp': expected a UTC time YYYY-MM-DDTHH:MM:SS" -- merge "$tmp/badtime.json"
sed 's/"hostname": "[^"]*"/"hostname": " "/' "$tmp/s1.json" > "$tmp/nohost.json"
check merge-bad-hostname 2 "$tmp/nohost.json: field 'hostname': expected a host name" -- merge "$tmp/nohost.json"
check merge-no-files 2 "expected the shards' JSON summaries" -- merge

# ---- the last seed survives the JSON round trip ------------------------------------------
check last-seed 0 "1 passed, 0 failed" -- conform --seed 0xffffffffffffffff --runs 1 --cycles 500 --json "$tmp/last.json"
check last-seed-merged 0 "itanium/itanium2/workload/harness/seed 18446744073709551615" -- merge "$tmp/last.json"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
