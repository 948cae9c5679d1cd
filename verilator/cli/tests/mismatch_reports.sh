#!/usr/bin/env bash
# mismatch_reports.sh - the mismatch reports end to end, on real disagreements: a pmusim whose
# RTL is told to go wrong (build/tests/pmusim_faulty, verilator/cli/tests/fault_backend.c:
# PMUSIM_TEST_FAULT=drop-step@N loses record N on the RTL's side, pmi-lost@N its interrupt
# line after record N) must report the disagreement where it is, in every form a user
# reads: run's report on stderr and its --json "mismatch", the replay line (which must
# reproduce it, with the waveform), conform's lines, JSON and JUnit, and conform-merge.
# Unfaulted, the same binary is in lock-step (the wrapper alone changes nothing).
# Run from the repository root (make test does); PMUSIM_FAULTY overrides the binary.
# Ends with "N passed, M failed".
set -u

PF=$(realpath -m "${PMUSIM_FAULTY:-build/tests/pmusim_faulty}")
tmp=$(mktemp -d /tmp/pmusim_mismatch.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../../tests/cli_lib.sh"

need_binary "$PF"
fault() { local f=$1; shift; PMUSIM_TEST_FAULT=$f "$PF" "$@"; }

# ---- the wrapper itself --------------------------------------------------------------------
check unfaulted-in-lock-step 0 "lock-step: 3000 cycles, 0 mismatches" -- "$PF" run --seed 1 --cycles 3000
check bad-fault-one-line 2 "PMUSIM_TEST_FAULT: expected drop-step@N or pmi-lost@N (N a decimal record number), found 'drop-step@x'" \
    -- fault drop-step@x run --seed 1 --cycles 10

# ---- run: a lost record on every family ----------------------------------------------------
# Each family's built-in setup counts every record on one counter, so losing record 500
# leaves that counter one behind from the step of record 500 on, and the run stops there.
for fam in $families; do
    fault drop-step@500 run --family "$fam" --seed 1 --cycles 3000 --json >"$tmp/run.json" 2>"$tmp/run.err"
    rc=$?
    check "$fam: run stops at the lost record, exit 1" 1 "mismatch at cycle 500 (step of record 500)" -- \
        bash -c "cat '$tmp/run.err'; exit $rc"
    ok "$fam: run --json: the mismatch, the lock-step counts, no verdict on counts" -- jcheck "$tmp/run.json" "
m = d['mismatch']
assert m['cycle'] == 500 and m['clock'] == 'step', m
assert m['register'] and m['fields'] and m['expected'] != m['actual'], m
assert 'record 500' in m['where'], m['where']
assert d['records'] == 501 and d['lockstep'] == {'cycles': 501, 'mismatches': 1}, d['lockstep']
assert d['exact'] is None and d['service'] is None, (d['exact'], d['service'])
assert d['reproduce'].endswith('--stop-at 501'), d['reproduce']"
    # the text report names the same register as the JSON
    reg=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['mismatch']['register'])" "$tmp/run.json")
    check "$fam: the text report names $reg" 1 "register: $reg" -- bash -c "cat '$tmp/run.err'; exit 1"
    check "$fam: the text report's lock-step line" 1 "lock-step: 501 cycles, 1 mismatch (stopped at the first)" -- \
        bash -c "cat '$tmp/run.err'; exit 1"
    # and the rest a report must name: both values, the record, the seed
    ok "$fam: the text report has both values, the record and the seed" -- \
        grep -qzE "expected: 0x[0-9a-f]+ \(reference\).*actual: +0x[0-9a-f]+ \(RTL\).*record: .*seed 1" "$tmp/run.err"
    # the replay line, with the fault, reproduces it and writes the waveform before it
    replay=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['reproduce'])" "$tmp/run.json")
    replay=${replay:-false no replay line}
    replay=${replay/--waves mismatch.fst/--waves $tmp/$fam.fst}
    check "$fam: the replay line reproduces it" 1 "mismatch at cycle 500 (step of record 500)" -- \
        env PMUSIM_TEST_FAULT=drop-step@500 $replay
    ok "$fam: the replay's waveform is written" -- test -s "$tmp/$fam.fst"
done

# ---- run: a lost interrupt -----------------------------------------------------------------
for fam in $families; do
    fault pmi-lost@0 run --family "$fam" --seed 1 --cycles 100000 --json >"$tmp/pmi.json" 2>/dev/null
    ok "$fam: a lost interrupt is the pmi line's mismatch" -- jcheck "$tmp/pmi.json" "
m = d['mismatch']
assert m['register'] == 'pmi' and m['expected'] == '0x0000000000000001' and m['actual'] == '0x0000000000000000', m
assert d['lockstep']['mismatches'] == 1 and d['lockstep']['cycles'] == m['cycle'] + 1, d['lockstep']"
done

# ---- conform: the lines, the JSON, the JUnit, the replay -----------------------------------
# Seeds 5..12 on the Itanium 2 with record 700 lost: only seed 12 (index 7) counts an event
# of record 700, so it alone fails (the others' counters see nothing of that record).
(cd "$tmp" && fault drop-step@700 conform --seed 5 --runs 8 --cycles 2000 --json c.json --junit c.xml \
    >c.out 2>&1; echo $? >c.rc)
check "conform: exit 1 and the case's MISMATCH line" 1 "seed 12 model itanium2 (random): MISMATCH" -- \
    bash -c "cat '$tmp/c.out'; exit \$(cat '$tmp/c.rc')"
check "conform: the count line" 0 "7 passed, 1 failed" -- cat "$tmp/c.out"
ok "conform --json: one mismatch, its report and replay" -- jcheck "$tmp/c.json" "
t = d['totals']
assert t['cases'] == 8 and t['failed'] == 1 and t['mismatches'] == 1, t
bad = [c for c in d['cases'] if c['status'] != 'passed']
assert len(bad) == 1 and bad[0]['seed'] == 12 and bad[0]['status'] == 'mismatch', bad
assert 'mismatch at cycle 700 (step of record 700)' in bad[0]['message'], bad[0]
assert bad[0]['cycles'] == 701, bad[0]['cycles']
assert '--seed 12 --runs 1' in bad[0]['replay'], bad[0]['replay']"
check "conform --junit: one failure, on seed 12" 0 'failures="1"' -- cat "$tmp/c.xml"
ok "conform --junit: the failure element carries the report" -- \
    python3 -c "
import sys, xml.etree.ElementTree as ET
cases = ET.parse(sys.argv[1]).getroot().iter('testcase')
bad = [c for c in cases if c.find('failure') is not None]
assert len(bad) == 1 and bad[0].get('name') == 'seed 12', [c.get('name') for c in bad]
assert 'mismatch at cycle 700' in (bad[0].find('failure').text or '') + bad[0].find('failure').get('message', '')
" "$tmp/c.xml"
replay=$(python3 -c "import json,sys; print([c for c in json.load(open(sys.argv[1]))['cases'] if c['status'] != 'passed'][0]['replay'])" "$tmp/c.json")
replay=${replay:-false no replay line}
replay=${replay/--waves mismatch.fst/--waves $tmp/conform.fst}
check "conform: the case's replay reproduces it" 1 "mismatch at cycle 700 (step of record 700)" -- \
    env PMUSIM_TEST_FAULT=drop-step@700 $replay
ok "conform: the replay's waveform is written" -- test -s "$tmp/conform.fst"

# ---- conform-merge: a failed case in one shard fails the merge ------------------------------
for s in 1 2; do
    fault drop-step@700 conform --seed 5 --runs 8 --cycles 2000 --shard $s/2 --json "$tmp/s$s.json" >/dev/null 2>&1
done
check "conform-merge: exit 1 with the failed case" 1 "" -- "$PF" conform-merge -o "$tmp/merged.json" "$tmp/s1.json" "$tmp/s2.json"
ok "conform-merge: the merged totals keep the mismatch" -- jcheck "$tmp/merged.json" "
t = d['totals']
assert t['cases'] == 8 and t['failed'] == 1 and t['mismatches'] == 1, t
assert [c['seed'] for c in d['cases'] if c['status'] == 'mismatch'] == [12], d['cases']"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
