#!/usr/bin/env bash
# ev67_cli.sh - the Alpha 21264/EV67 family from the command line: its streams (pmusim
# gen and conv, both forms, a stream broken across records refused with its line), run
# with the built-in setup and setup files (perf driver and ProfileMe), count, profile,
# profileme (text and JSON), conform with both services, encode, and every bad argument
# or setup line refused with one line naming it (docs/ev67-harness.md).  Run from the
# repository root (make test does).  Ends with "N passed, M failed".
set -u

PMUSIM=${PMUSIM:-build/pmusim}
tmp=$(mktemp -d /tmp/pmusim_ev67.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../../../tests/cli_lib.sh"

A=(--family alpha21264)

need_binary "$PMUSIM"

check gen-text 0 "regenerate: pmusim gen --seed 3 --cycles 20000 --mode workload --procs 4 --format text --family alpha21264" -- "$PMUSIM" gen "${A[@]}" --seed 3 --cycles 20000 -o "$tmp/w.txt"
check gen-binary 0 "seed 3" -- "$PMUSIM" gen "${A[@]}" --seed 3 --cycles 20000 -o "$tmp/w.bin"
check gen-random 0 "seed 4" -- "$PMUSIM" gen "${A[@]}" --seed 4 --cycles 20000 --mode random -o "$tmp/r.bin"
check conv-to-text 0 "" -- "$PMUSIM" conv "${A[@]}" "$tmp/w.bin" "$tmp/w2.txt"
ok   text-and-binary-agree -- cmp -s "$tmp/w.txt" "$tmp/w2.txt"
check conv-random 0 "" -- "$PMUSIM" conv "${A[@]}" "$tmp/r.bin" "$tmp/r.txt"
check conv-back 0 "" -- "$PMUSIM" conv "${A[@]}" "$tmp/r.txt" "$tmp/r2.bin"
ok   random-round-trip -- cmp -s "$tmp/r.bin" "$tmp/r2.bin"

# A record that retires an instruction never fetched breaks the stream's rules.
head -5 "$tmp/w.txt" >"$tmp/bad.txt"
echo "retire=999999" >>"$tmp/bad.txt"
check bad-stream-line 2 "bad.txt:6" -- "$PMUSIM" conv "${A[@]}" "$tmp/bad.txt" "$tmp/bad.bin"

# ---- run: the built-in setup (the perf driver) and setup files ----
check run-builtin 0 "exact: the 64-bit counts equal the reference model's counter totals" -- "$PMUSIM" run "${A[@]}" --cycles 30000
check run-table 0 "INSTRUCTIONS   PCTR0" -- "$PMUSIM" run "${A[@]}" --cycles 30000
check run-lockstep 0 "lock-step: 30000 cycles, 0 mismatches" -- "$PMUSIM" run "${A[@]}" --cycles 30000
check run-stream 0 "exact:" -- "$PMUSIM" run "${A[@]}" --stream "$tmp/r.bin"
check run-profileme 0 "exact: every ProfileMe sample equals the reference model's record" -- "$PMUSIM" run "${A[@]}" --cycles 30000 --config verilator/cli/ev67/profileme.cfg
check run-ref 0 "exact against the reference model alone: the 64-bit counts equal the reference model's counter totals (only --backend cosim checks the RTL against the reference model)" -- "$PMUSIM" run "${A[@]}" --cycles 20000 --backend ref
check count-ref 0 "exact against the reference model alone: the 64-bit counts equal" -- "$PMUSIM" count "${A[@]}" --cycles 20000 -e CYCLES --backend ref
check profile-ref 0 "exact against the reference model alone: the 64-bit counts equal" -- "$PMUSIM" profile "${A[@]}" --cycles 20000 -e CYCLES --period 1000 --backend ref
check profileme-ref 0 "exact against the reference model alone: every ProfileMe sample equals" -- "$PMUSIM" profileme --cycles 20000 --period 200 --backend ref
check run-rtl 0 "overflow interrupts taken" -- "$PMUSIM" run "${A[@]}" --cycles 20000 --backend rtl
printf 'mode = perf\nevents = CYCLES/100, MBOXREPLAY/16\n' >"$tmp/pair.cfg"
check run-pair 0 "MBOXREPLAY     PCTR1" -- "$PMUSIM" run "${A[@]}" --cycles 20000 --config "$tmp/pair.cfg"
printf 'mode = perf\nevents = CYCLES, BCACHEMISS\n' >"$tmp/conflict.cfg"
check bad-pair 2 "conflict.cfg:2: events: events CYCLES and BCACHEMISS conflict" -- "$PMUSIM" run "${A[@]}" --cycles 10 --config "$tmp/conflict.cfg"
printf 'events = FLOPS\n' >"$tmp/unknown.cfg"
check bad-event 2 "unknown.cfg:1: events: unknown event 'FLOPS'" -- "$PMUSIM" run "${A[@]}" --cycles 10 --config "$tmp/unknown.cfg"
printf '\nmode = sideways\n' >"$tmp/mode.cfg"
check bad-mode 2 "mode.cfg:2: mode: expected perf or profileme, found 'sideways'" -- "$PMUSIM" run "${A[@]}" --cycles 10 --config "$tmp/mode.cfg"
printf 'sl1 = 4\n' >"$tmp/sl1.cfg"
check bad-sl1 2 "sl1.cfg:1: sl1" -- "$PMUSIM" run "${A[@]}" --cycles 10 --config "$tmp/sl1.cfg"
printf 'frobs = 1\n' >"$tmp/key.cfg"
check bad-key 2 "key.cfg:1: frobs: unknown setting 'frobs'" -- "$PMUSIM" run "${A[@]}" --cycles 10 --config "$tmp/key.cfg"
printf 'events CYCLES\n' >"$tmp/noeq.cfg"
check bad-line 2 "noeq.cfg:1: expected 'key = value'" -- "$PMUSIM" run "${A[@]}" --cycles 10 --config "$tmp/noeq.cfg"
check irq-latency-refused 2 "--irq-latency" -- "$PMUSIM" run "${A[@]}" --cycles 10 --irq-latency 3

# ---- count and profile: the perf driver ----
check count 0 "exact: the 64-bit counts equal the reference model's counter totals" -- "$PMUSIM" count "${A[@]}" --cycles 30000 -e INSTRUCTIONS -e CYCLES
# At the largest period (the default) the counter restarts at 1 and has counted past it
# again when the handler runs: the carry is taken from the interrupt.  The RTL alone has
# no model to check against, so the count itself is matched.
check count-top-period-ref 0 "the 64-bit counts equal the reference model's counter totals" -- "$PMUSIM" count "${A[@]}" --cycles 2200000 -e CYCLES --backend ref
check count-top-period-rtl 0 "CYCLES               PCTR1                 2200000" -- "$PMUSIM" count "${A[@]}" --cycles 2200000 -e CYCLES --backend rtl
# A run that ends between that carry (record 1048575) and its interrupt: the count lacks
# the carry, and the check says so rather than calling the count exact or wrong.
check count-top-period-carry-in-flight 0 "note: CYCLES's count lacks its last carry on PCTR1 (2^20)" -- "$PMUSIM" count "${A[@]}" --cycles 1048577 -e CYCLES --backend ref
check count-bcache 0 "BCACHEMISS" -- "$PMUSIM" count "${A[@]}" --cycles 30000 -e BCACHEMISS --mode random
check count-conflict 2 "conflict" -- "$PMUSIM" count "${A[@]}" --cycles 10 -e CYCLES -e BCACHEMISS
check count-unknown 2 "-e FLOPS: expected CYCLES, INSTRUCTIONS, BCACHEMISS or MBOXREPLAY" -- "$PMUSIM" count "${A[@]}" --cycles 10 -e FLOPS
check count-pid 2 "--pid: not on the Alpha 21264/EV67: the records carry no process" -- "$PMUSIM" count "${A[@]}" --cycles 10 -e CYCLES --pid 3
check count-latency 2 "--irq-latency: not on the Alpha 21264/EV67: the perf driver takes each interrupt" -- "$PMUSIM" count "${A[@]}" --cycles 10 -e CYCLES --irq-latency 2
check count-dcr-pp 2 "--dcr-pp: not on the Alpha 21264/EV67" -- "$PMUSIM" count "${A[@]}" --cycles 10 -e CYCLES --dcr-pp 0
# Help: what the 21264 takes, before or after --help.
check help-count-events 0 "CYCLES, INSTRUCTIONS, BCACHEMISS or MBOXREPLAY: one, or an allowed pair" -- "$PMUSIM" count --help "${A[@]}"
check help-count-model 0 "the Alpha 21264/EV67's model: 21264-ev67 (default)" -- "$PMUSIM" count "${A[@]}" --help
lacks help-count-no-modifiers ":u :k" -- "$PMUSIM" count "${A[@]}" --help
lacks help-count-no-latency "--irq-latency N" -- "$PMUSIM" count "${A[@]}" --help
lacks help-count-no-pid "[--pid" -- "$PMUSIM" count "${A[@]}" --help
lacks help-profile-no-sample "--sample EV" -- "$PMUSIM" profile "${A[@]}" --help
check help-profile-period 0 "a sample every N events: 1..2^20-1 (a 20-bit counter)" -- "$PMUSIM" profile "${A[@]}" --help
check help-run-config 0 "a setup: the perf driver's events or the ProfileMe sampler (docs/ev67-harness.md" -- "$PMUSIM" run "${A[@]}" --help
lacks help-run-no-latency "--irq-latency N" -- "$PMUSIM" run --help "${A[@]}"
check help-profileme-family 0 "--family NAME      alpha21264 only" -- "$PMUSIM" profileme --help
lacks help-profileme-no-itanium "itanium" -- "$PMUSIM" profileme --help
check help-profileme-wrong-family 2 "--family: expected alpha21264 (profileme is the Alpha 21264/EV67's command), found 'itanium'" -- "$PMUSIM" profileme --help --family itanium
check profile 0 "vmunix:" -- "$PMUSIM" profile "${A[@]}" --cycles 60000 -e CYCLES --period 500
check profile-exact 0 "exact:" -- "$PMUSIM" profile "${A[@]}" --cycles 60000 -e INSTRUCTIONS --period 300
check profile-sample 2 "use pmusim profileme" -- "$PMUSIM" profile "${A[@]}" --cycles 10 --sample PROFILEME --period 100
check profile-period 2 "--period: expected 1..1048575" -- "$PMUSIM" profile "${A[@]}" --cycles 10 -e CYCLES --period 2000000

# ---- profileme ----
check profileme 0 "exact: every ProfileMe sample equals the reference model's record" -- "$PMUSIM" profileme --cycles 60000 --period 200
check profileme-tables 0 "by PC:" -- "$PMUSIM" profileme --cycles 60000 --period 200
check profileme-functions 0 "by function:" -- "$PMUSIM" profileme --cycles 60000 --period 200
check profileme-random 0 "exact:" -- "$PMUSIM" profileme --cycles 60000 --period 100 --mode random --sl1 0
check profileme-stream 0 "by address:" -- "$PMUSIM" profileme --stream "$tmp/r.bin" --period 100
"$PMUSIM" profileme --cycles 40000 --period 150 --json >"$tmp/pm.json" 2>"$tmp/pm.err"
ok   profileme-json -- python3 -c "import json,sys; d=json.load(open('$tmp/pm.json')); assert d['samples']>0 and d['pcs'] and d['functions'] and sum(p['samples'] for p in d['pcs'])==d['samples'] and all('dtb_miss' in p for p in d['pcs']) and d['exact'] is True and d['lockstep'] == {'cycles': 40000, 'mismatches': 0}"
ok   profileme-json-exact -- grep -q "exact: every ProfileMe sample" "$tmp/pm.err"
check profileme-family 2 "--family: expected alpha21264" -- "$PMUSIM" profileme --family itanium --cycles 10
check profileme-sl1 2 "--sl1" -- "$PMUSIM" profileme --cycles 10 --sl1 4
check profileme-period 2 "--period" -- "$PMUSIM" profileme --cycles 10 --period 0

# ---- conform, encode ----
check conform-harness 0 "0 mismatches" -- "$PMUSIM" conform "${A[@]}" --runs 2 --cycles 30000
check conform-driver 0 "0 mismatches" -- "$PMUSIM" conform "${A[@]}" --runs 4 --cycles 30000 --service driver
check encode 0 "PCTR_CTL = 0x" -- "$PMUSIM" encode "${A[@]}" -e CYCLES -e MBOXREPLAY
"$PMUSIM" encode "${A[@]}" -e CYCLES -e MBOXREPLAY --json >"$tmp/enc.json"
ok   encode-json-pair -- python3 -c "import json; d=json.load(open('$tmp/enc.json')); assert d['sl1'] == 3 and [(e['event'], e['counter']) for e in d['events']] == [('CYCLES', 'PCTR0'), ('MBOXREPLAY', 'PCTR1')], d"
check encode-list 0 "CYCLES+MBOXREPLAY" -- "$PMUSIM" encode "${A[@]}" --list
check encode-conflict 2 "conflict" -- "$PMUSIM" encode "${A[@]}" -e CYCLES -e BCACHEMISS

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
