#!/usr/bin/env bash
# pfm_cli.sh - the Alpha 21064 family from the command line: `pmusim pfm` (one and
# several CPUs, every open mode, LOGSELECT, profiles, JSON), `pmusim run --family
# alpha21064` (what `make sim FAMILY=alpha21064` runs), random lock-step conformance
# with the harness's service and with the pfm driver, and every bad argument with its
# one-line message.  Each good run checks itself: the command exits 1 when the driver's
# results are not exact or lock-step broke (docs/ev4-pfm.md, "Exactness").
# Run from the repository root (make test does).  Ends with "N passed, M failed".
set -u

PMUSIM=${PMUSIM:-build/pmusim}
tmp=$(mktemp -d /tmp/pmusim_ev4.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../../../tests/cli_lib.sh"

pfm() { "$PMUSIM" pfm "$@"; }
A=(--family alpha21064)

need_binary "$PMUSIM"

# ---- good runs: each must be exact and in lock-step -----------------------------------
check pfm-default 0 "lock-step: 1 CPU, 200000 cycles, 0 mismatches" -- pfm --cycles 200000
check pfm-default-exact 0 "exact: on 1 CPU the driver's counts equal" -- pfm --cycles 200000
check pfm-default-profile 0 "PC profile (read, kernel mode" -- pfm --cycles 200000
check pfm-each-4cpus 0 "lock-step: 4 CPUs, 800000 cycles, 0 mismatches" -- pfm --cpus 4 --open each --cycles 200000
check pfm-all-3cpus 0 "exact: on 3 CPUs" -- pfm --cpus 3 --open all --cycles 200000 --mux0 PF_LOADI --mux1 PF_BRANCHMISS
check pfm-one-bound 0 "exact: on 2 CPUs" -- pfm --cpus 2 --open one --bind 1 --cycles 200000
check pfm-select-cycles 0 "counter 0 counted the selected processes' cycles" -- pfm --log select --mux0 PF_CYCLES --period0 4096 --cycles 300000
check pfm-all-cycles 0 "counter 0 every cycle" -- pfm --mux0 PF_CYCLES --cycles 100000
check pfm-user-profile 0 "PC profile (read, user mode" -- pfm --items counters,profiling --profile user --cycles 200000
check pfm-disabled-counter 0 "exact:" -- pfm --disable 1 --cycles 200000
check pfm-pass2 0 "exact:" -- pfm --model 21064-pass2 --log select --mux0 PF_CYCLES --cycles 100000
check pfm-json 0 '"counts":[{"pf_cntr0":' -- pfm --json --cycles 100000
check pfm-json-profile 0 '"profile":{"mode":"kernel"' -- pfm --json --cycles 100000
# The JSON's profile is the text's (docs/json.md): its samples, its range as 0x strings.
pfm --json --cycles 100000 >"$tmp/pfm.json" 2>/dev/null
range=$(pfm --cycles 100000 | sed -n 's/^PC profile (read, kernel mode, \(0x[0-9a-f]*\)\.\.\(0x[0-9a-f]*\), [0-9]* bytes): \([0-9]*\) samples$/\1 \2 \3/p')
ok pfm-json-values -- python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
start, end, n = sys.argv[2].split()
p = d["profile"]
assert (p["start"], p["end"], p["samples"]) == (start, end, int(n)), (p, sys.argv[2])
assert sum(f["ticks"] for f in p["functions"]) == p["samples"]
assert d["exact"] is True and d["lockstep"] == {"cycles": 100000, "mismatches": 0}, (d["exact"], d["lockstep"])' "$tmp/pfm.json" "${range:-none}"
# Counter 0 on PF_CYCLES under every open mode on 1 to 4 CPUs, logging all and selected
# processes: the harness checks the cycles counted on the CPUs the open covers only
# (PCNTOPENONE sets the mux of the bound CPU alone; the others count what their PALcode
# was left set to).
for n in 1 2 3 4; do
    for open in all each one; do
        for log in all select; do
            bind=() where=""
            if [ "$open" = one ]; then
                b=$([ "$log" = all ] && echo $((n - 1)) || echo 0)
                bind=(--bind "$b")
                [ "$n" -gt 1 ] && where=" on CPU $b, the one open"
            fi
            what=$([ "$log" = all ] && echo "counter 0 every cycle" || echo "counter 0 counted the selected processes' cycles")
            check "pfm-cycles-$open-$n-log-$log" 0 "the sampled PCs, and $what$where" -- \
                pfm --cpus "$n" --open "$open" "${bind[@]}" --log "$log" --mux0 PF_CYCLES --cycles 20000 --items counters --profile none
        done
    done
done
# Long random runs on each backend alone (the RTL and the reference), with the driver.
check pfm-rtl-random 0 "exact against the RTL alone: on 2 CPUs" -- pfm --backend rtl --mode random --cpus 2 --open each --cycles 500000 --seed 7 --items counters,ipl --profile none
check pfm-ref-random 0 "exact against the reference model alone: on 2 CPUs" -- pfm --backend ref --mode random --cpus 2 --open all --cycles 500000 --seed 8 --items counters,ipl --profile none
check pfm-ref-select 0 "counter 0 counted the selected processes' cycles" -- pfm --backend ref --log select --mux0 PF_CYCLES --cycles 500000 --seed 3
check pfm-rtl-select 0 "exact against the RTL alone: on 1 CPU" -- pfm --backend rtl --log select --mux0 PF_CYCLES --cycles 500000 --seed 3
# On one backend the check shows only that the software agrees with that backend: the line says so.
check pfm-rtl-alone-says-cosim 0 "the profile the sampled PCs (only --backend cosim checks the RTL against the reference model)" -- pfm --backend rtl --cycles 100000
check run-family-ref-alone 0 "exact against the reference model alone: on 1 CPU" -- "$PMUSIM" run --family alpha21064 --backend ref --cycles 100000
check run-family-rtl-alone 0 "exact against the RTL alone: on 1 CPU" -- "$PMUSIM" run --family alpha21064 --backend rtl --cycles 100000
check run-family 0 "lock-step: 200000 cycles, 0 mismatches" -- "$PMUSIM" run "${A[@]}" --cycles 200000
check run-family-ipl 0 "IPL histogram (PCNTGETIPLHIS)" -- "$PMUSIM" run "${A[@]}" --cycles 200000
check run-family-profile 0 "vmunix:" -- "$PMUSIM" run "${A[@]}" --cycles 200000
check run-family-timing 0 "overflow service: the OS takes each interrupt at the first record below IPL 6" -- "$PMUSIM" run "${A[@]}" --cycles 1000
check run-family-latency 2 "--irq-latency: not on the Alpha 21064" -- "$PMUSIM" run "${A[@]}" --irq-latency 3

# A stream file per CPU, written by the generator.
"$PMUSIM" gen "${A[@]}" --seed 5 --cycles 50000 -o "$tmp/cpu0.txt" >/dev/null 2>&1
check pfm-stream-file 0 "exact: on 1 CPU" -- pfm --stream "$tmp/cpu0.txt" --profile none --items counters,ipl
# A two-CPU system from files: CPU 0's and CPU 1's streams of one generated system.
check gen-cpu-regenerate 0 "--family alpha21064 --cpu 1 --cpus 2 -o" -- "$PMUSIM" gen "${A[@]}" --seed 6 --cycles 50000 --cpu 1 --cpus 2 -o "$tmp/s1.bin"
"$PMUSIM" gen "${A[@]}" --seed 6 --cycles 50000 --cpu 0 --cpus 2 -o "$tmp/s0.bin" >/dev/null 2>&1
check pfm-stream-2cpus 0 "exact: on 2 CPUs" -- pfm --stream "$tmp/s0.bin" --stream "$tmp/s1.bin" --open each --mux0 PF_CYCLES --log select
check gen-cpu-range 2 "--cpu 2: expected a CPU below --cpus (2)" -- "$PMUSIM" gen "${A[@]}" --cpu 2 --cpus 2 -o "$tmp/x.txt"
check gen-too-many-cpus 2 "expected 1..32 CPUs" -- "$PMUSIM" gen "${A[@]}" --cpus 33 -o "$tmp/x.txt"

# ---- conformance: random programming and random streams ---------------------------------
check conform-harness 0 "10 passed, 0 failed" -- "$PMUSIM" conform "${A[@]}" --runs 5 --cycles 100000 --model both --mode mixed
check conform-driver 0 "10 passed, 0 failed" -- "$PMUSIM" conform "${A[@]}" --runs 5 --cycles 100000 --model both --mode mixed --service driver

# ---- bad arguments and setups: exit 2, one line naming what is wrong ----------------------
check bad-mux0 2 "--mux0: expected one of PF_ISSUES" -- pfm --mux0 PF_BOGUS
check bad-mux-counter 2 "--mux1: PF_CYCLES is an event of counter 0" -- pfm --mux1 PF_CYCLES
check bad-period 2 "--period1: expected 4096 or 256" -- pfm --period1 1000
check bad-items 2 "--items: expected items counters, ipl and profiling" -- pfm --items counters,bogus
check bad-open 2 "--open: expected all, each or one, found 'some'" -- pfm --open some
check open-one-unbound 2 "open of /dev/pfcntr failed with EINVAL" -- pfm --open one --cycles 10
check disable-both 2 "ioctl PCNTSETMUX failed with EINVAL" -- pfm --disable 3 --cycles 10
check memlimit 2 "failed with ENOMEM" -- pfm --memlimit 16 --cycles 10
check profile-no-item 2 "expected profiling among the items" -- pfm --items counters --cycles 10
check bad-bind 2 "bind = 3: the system has 2 CPUs" -- pfm --cpus 2 --bind 3 --cycles 10
check bad-cpus 2 "--cpus: expected a number in 1..32" -- pfm --cpus 0
check stream-count 2 "--cpus 2: expected one --stream per CPU, found 1" -- pfm --cpus 2 --stream "$tmp/cpu0.txt"
check stream-seed 2 "not with --stream" -- pfm --stream "$tmp/cpu0.txt" --seed 3
check wrong-family 2 "pfm is the Alpha 21064's command" -- pfm --family itanium
# An unaligned profile range is refused, as PCNTSETKADDR/PCNTSETUADDR refuse it (EINVAL),
# not widened to whole buckets.
check profile-unaligned-start 2 "--profile: START 0xfffffc0000230004: expected a multiple of 16 (PCNTSETKADDR refuses" -- pfm --profile "kernel 0xfffffc0000230004 0xfffffc0000270000" --cycles 10
check profile-unaligned-end 2 "--profile: END 0x120000008: expected a multiple of 16 (PCNTSETUADDR refuses" -- pfm --items counters,profiling --profile "user 0x120000000 0x120000008" --cycles 10
printf 'profile = kernel 0xfffffc0000230000 0xfffffc000027000f\n' >"$tmp/unaligned.cfg"
check profile-unaligned-config 2 "unaligned.cfg:1: profile: END 0xfffffc000027000f: expected a multiple of 16" -- pfm --config "$tmp/unaligned.cfg" --cycles 10
check profile-aligned-range 0 "PC profile (read, kernel mode, 0xfffffc0000230010..0xfffffc0000270000, 65532 bytes)" -- pfm --profile "kernel 0xfffffc0000230010 0xfffffc0000270000" --cycles 20000
printf 'mux0 = PF_CYCLES\nperiod0 = 1234\n' >"$tmp/bad.cfg"
check config-line 2 "bad.cfg:2: period0: expected 65536 or 4096" -- pfm --config "$tmp/bad.cfg"
printf 'mux0 = PF_CYCLES\nfrobnicate = 1\n' >"$tmp/bad2.cfg"
check config-key 2 "bad2.cfg:2: frobnicate: unknown setting 'frobnicate'" -- "$PMUSIM" run "${A[@]}" --config "$tmp/bad2.cfg" --cycles 10
printf 'pid=5 mode=user ipl=3\n' >"$tmp/bad.txt"
check stream-user-ipl 2 "bad.txt:1" -- pfm --stream "$tmp/bad.txt" --profile none --items counters
check count-refused 2 "cannot be read by software" -- "$PMUSIM" count "${A[@]}" -e PF_CYCLES
check count-refused-help 0 "pmusim count --family alpha21064: not on the Alpha 21064: the 21064's counters cannot be read" -- "$PMUSIM" count --help "${A[@]}"
lacks count-refused-help-no-options "--event" -- "$PMUSIM" count "${A[@]}" --help
# Help: pfm is the 21064's; run shows the 21064's setup and models, no --irq-latency.
check pfm-help-family 0 "--family NAME      alpha21064 only (the default: pfm is the Alpha 21064's command)" -- pfm --help
lacks pfm-help-no-itanium "itanium" -- pfm --help
check pfm-help-models 0 "--model NAME       the Alpha 21064's model: 21064 (default), 21064-pass2" -- pfm --help
check pfm-help-profile-quoted 0 "--profile 'kernel|user START END'  (a range: one quoted argument)" -- pfm --help
check pfm-help-wrong-family 2 "--family: expected alpha21064 (pfm is the Alpha 21064's command), found 'itanium'" -- pfm --family itanium --help
check run-help-setup 0 "--config FILE      a pfm setup (docs/ev4-pfm.md" -- "$PMUSIM" run "${A[@]}" --help
check run-help-models 0 "the Alpha 21064's model: 21064 (default), 21064-pass2" -- "$PMUSIM" run --help "${A[@]}"
lacks run-help-no-latency "--irq-latency N" -- "$PMUSIM" run "${A[@]}" --help
lacks run-help-no-ita-config "ita-config-format" -- "$PMUSIM" run "${A[@]}" --help

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
