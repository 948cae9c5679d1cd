#!/usr/bin/env bash
# json.sh - the --json outputs of run, count, profile and encode on every registered
# family (docs/json.md): stdout is one JSON document with the documented members and
# types, and its numbers are the text output's: run's registers are --dump-regs's, its
# traffic the --traffic file's lines, its service's interrupts the text's; count's counts
# the text table's; encode's events and registers the text's.  (record's JSON is checked
# in qemu/tests/record_cli.sh, pfm's and profileme's in their families' scripts.)  Run from the repository root (make test does); PMUSIM overrides the binary.
# Ends with "N passed, M failed".
set -u

PMUSIM=${PMUSIM:-build/pmusim}
tmp=$(mktemp -d /tmp/pmusim_json.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../../tests/cli_lib.sh"
p() { "$PMUSIM" "$@"; }
# pair_encodes FAMILY EV0 EV1 SL1: encode -e EV0 -e EV1 --json puts EV0 on PCTR0, EV1 on
# PCTR1, with that SL1.
pair_encodes() {
    p encode --family "$1" -e "$2" -e "$3" --json > "$tmp/pair.json" 2>&1 && jcheck "$tmp/pair.json" "
c = {e['event']: e['counter'] for e in d['events']}
assert d['sl1'] == $4 and c == {'$2': 'PCTR0', '$3': 'PCTR1'}, d"
}

need_binary "$PMUSIM"

# The members every run, count and profile has (verilator/cli/json.c).
common='typed(d, family=str, model=str, backend=str, source=dict, records=int)
nullable(d, "exact", bool)
nullable(d, "lockstep", dict)
assert d["family"] == fam, d["family"]'

N=20000
for fam in $families; do
    A=(--family "$fam" --cycles $N)
    # ---- run: the document, the verdicts, the software's results against the text ----
    p run "${A[@]}" --json >"$tmp/run.json" 2>"$tmp/run.err"
    rc=$?
    p run "${A[@]}" >"$tmp/run.txt" 2>&1
    irq=$(sed -n 's/^overflow interrupts [a-z]*: \([0-9]*\)$/\1/p' "$tmp/run.txt")
    ok "$fam: run --json" -- jcheck "$tmp/run.json" "fam = '$fam'
$common
typed(d, service=dict)
assert $rc == 0, 'exit $rc'
assert d['records'] == $N, d['records']
assert d['exact'] is True and d['lockstep'] == {'cycles': $N, 'mismatches': 0}, (d['exact'], d['lockstep'])
assert d['mismatch'] is None and d['registers'] is None and d['traffic'] is None
assert d['source'] == {'generated': 'workload', 'seed': 1, 'cycles': $N}, d['source']
# (a family's text without an interrupts line, e.g. a scaffold's, has its own check)
assert '$irq' == '' or d['service']['interrupts'] == int('$irq'), (d['service'], '$irq')"
    check "$fam: run --json: the lock-step line on stderr" 0 "lock-step: $N cycles, 0 mismatches" -- cat "$tmp/run.err"

    # ---- run --dump-regs --traffic: the members equal the text and the log ----
    p run "${A[@]}" --json --dump-regs --traffic "$tmp/traffic.txt" >"$tmp/regs.json" 2>/dev/null
    p run "${A[@]}" --dump-regs >"$tmp/regs.txt" 2>&1
    sed -n '/^registers after/,$p' "$tmp/regs.txt" | tail -n +2 >"$tmp/regs.lines"
    ok "$fam: run --json --dump-regs --traffic" -- jcheck "$tmp/regs.json" "fam = '$fam'
$common
r = d['registers']
typed(r, cycles=int, of=str, visible=list, pmi=dict)
assert r['cycles'] == $N
# --dump-regs's lines: NAME ADDR RTL REFERENCE, then pmi - RTL REFERENCE
lines = [l.split() for l in open('$tmp/regs.lines') if l.strip()]
assert len(lines) == len(r['visible']) + 1, (len(lines), len(r['visible']))
for l, v in zip(lines, r['visible']):
    assert [v['name'], v['addr'], v['value'], v['reference']] == l[:4], (v, l)
assert lines[-1][0] == 'pmi' and [str(r['pmi']['value']), str(r['pmi']['reference'])] == lines[-1][2:4], lines[-1]
# the traffic's entries are the log's lines
t = d['traffic']
assert isinstance(t, list) and t, 'no traffic'
def line(e):
    if 'pmi' in e:
        return '%d pmi %d' % (e['cycle'], e['pmi'])
    return '%d %s %s %s' % (e['cycle'], e['op'], e['register'], e['value'])
log = open('$tmp/traffic.txt').read().splitlines()
assert [line(e) for e in t] == log, 'the traffic differs from the log'"

    # ---- run on the RTL alone: nothing compared, no lock-step ----
    p run "${A[@]}" --backend rtl --json >"$tmp/rtl.json" 2>/dev/null
    ok "$fam: run --backend rtl --json: exact and lockstep null" -- jcheck "$tmp/rtl.json" "fam = '$fam'
$common
assert d['backend'] == 'rtl' and d['exact'] is None and d['lockstep'] is None, (d['exact'], d['lockstep'])"

    # ---- count: where the family has an event library (encode --list's first event) ----
    ev=$(p encode --family "$fam" --list 2>/dev/null | awk '$1 != "event" { print $1; exit }')
    if [ -z "$ev" ]; then
        check "$fam: count --json refused as count is" 2 "pmusim count:" -- p count "${A[@]}" -e CYCLES --json
        continue
    fi
    # ---- encode: the event list and an event's registers, against the text ----
    p encode --family "$fam" --list --json >"$tmp/list.json" 2>/dev/null
    p encode --family "$fam" --list >"$tmp/list.txt" 2>&1
    ok "$fam: encode --list --json" -- jcheck "$tmp/list.json" "
typed(d, events=list)
names = [e['name'] for e in d['events']]
text = [l.split()[0] for l in open('$tmp/list.txt') if l.split() and l.split()[0] not in ('event', 'pairs:')]
assert names == text, (names[:5], text[:5])"
    # A family whose counters pair events (the 21264) lists the pairs in both forms, and
    # each listed pair encodes with its SL1.
    if grep -q '^pairs:' "$tmp/list.txt"; then
        ok "$fam: encode --list --json pairs" -- jcheck "$tmp/list.json" "
typed(d, pairs=list)
line = [l for l in open('$tmp/list.txt') if l.startswith('pairs:')][0]
text = [x.strip() for x in line[len('pairs:'):].split(',')]
js = ['%s+%s (SL1=%d)' % (q['pctr0'], q['pctr1'], q['sl1']) for q in d['pairs']]
assert d['pairs'] and js == text, (js, text)"
        python3 -c "import json,sys; [print(q['pctr0'], q['pctr1'], q['sl1']) for q in json.load(open(sys.argv[1]))['pairs']]" \
            "$tmp/list.json" > "$tmp/pairs.txt"
        while read -r a b sl1; do
            ok "$fam: pair $a+$b encodes with SL1=$sl1" -- pair_encodes "$fam" "$a" "$b" "$sl1"
        done < "$tmp/pairs.txt"
    fi
    p encode --family "$fam" -e "$ev" --json >"$tmp/enc.json" 2>/dev/null
    p encode --family "$fam" -e "$ev" >"$tmp/enc.txt" 2>&1
    ok "$fam: encode -e $ev --json" -- jcheck "$tmp/enc.json" "
typed(d, model=str, events=list, registers=list)
text = {l.split()[0]: l.split()[2] for l in open('$tmp/enc.txt') if len(l.split()) == 3 and l.split()[1] == '='}
assert d['registers'] and all(text[r['name']] == r['value'] for r in d['registers']), (d['registers'], text)
assert d['events'][0]['event'] == '$ev'"

    p count "${A[@]}" -e "$ev" --json >"$tmp/count.json" 2>/dev/null
    text=$(p count "${A[@]}" -e "$ev" 2>&1 | awk -v ev="$ev" '$1 == ev { print $3; exit }')
    ok "$fam: count --json" -- jcheck "$tmp/count.json" "fam = '$fam'
$common
typed(d, session=str, events=list, one_context=bool, contexts=int, context_switches=int, interrupts=int)
e = d['events'][0]
typed(e, event=str, counter=str, count=int)
assert e['event'] == '$ev' and e['count'] == int('${text:-none}'), (e, '$text')
assert d['exact'] is True and d['lockstep']['mismatches'] == 0 and d['processes'] is None"

    # ---- profile: the shared members and the samples adding up ----
    p profile "${A[@]}" -e "$ev" --period 100 --json >"$tmp/profile.json" 2>/dev/null
    ok "$fam: profile --json" -- jcheck "$tmp/profile.json" "fam = '$fam'
$common
typed(d, event=str, period=int, total=int, samples=list, functions=list)
assert d['total'] == sum(f['samples'] for f in d['functions'])
assert d['exact'] is True"
done

# A bad argument under --json is still one line on stderr and nothing on stdout.
check "run --json: a bad argument is one line" 2 "--cycles" -- p run --json --cycles 0
out=$(p run --json --cycles 0 2>/dev/null)
ok "run --json: nothing on stdout after a bad argument" -- test -z "$out"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
