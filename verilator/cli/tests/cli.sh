#!/usr/bin/env bash
# cli.sh - `pmusim run` from the command line: every bad argument, bad configuration
# line and bad stream line gets exit 2 and a message naming what was wrong; good runs
# exit 0.  Run from the repository root (make test does); PMUSIM overrides the binary.
# Ends with "N passed, M failed".
set -u

PMUSIM=${PMUSIM:-build/pmusim}
tmp=$(mktemp -d /tmp/pmusim_cli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../../tests/cli_lib.sh"

run() { "$PMUSIM" run "$@"; }

need_binary "$PMUSIM"

# ---- arguments ------------------------------------------------------------------
check no-command 2 "pmusim: expected a command: run, gen, conv" -- "$PMUSIM"
check program-version 0 "pmusim 1." -- "$PMUSIM" --version
check program-help 0 "pmusim <command> --help shows the options of a command" -- "$PMUSIM" --help
check unknown-command 2 "unknown command 'frob': expected run, gen, conv, conform, conform-merge, encode, count, profile, record, cex2replay, pfm or profileme" -- "$PMUSIM" frob
check unknown-option 2 "pmusim run: unknown argument '--bogus'" -- run --bogus
check missing-value 2 "pmusim run: --seed: expected a value" -- run --seed
check seed-not-a-number 2 "--seed: expected a decimal number or 0x hex, found 'abc'" -- run --seed abc
check seed-leading-zero 2 "--seed: expected a decimal number without leading zeros, or 0x hex, found '010'" -- run --seed 010
check seed-overflow 2 "--seed: expected a number that fits in 64 bits, found '18446744073709551616'" -- run --seed 18446744073709551616
check cycles-zero 2 "--cycles: expected a number >= 1, found '0'" -- run --cycles 0
check cycles-negative 2 "--cycles: expected an unsigned number without a sign, found '-5'" -- run --cycles -5
check cycles-tab-minus 2 "--cycles: expected a number without surrounding white space, found '\\t-1'" -- run --cycles "$(printf '\t-1')"
check cycles-space 2 "--cycles: expected a number without surrounding white space, found ' 5'" -- run --cycles " 5"
check cycles-junk 2 "--cycles: expected a decimal number or 0x hex, found '10k'" -- run --cycles 10k
check mode 2 "--mode: expected workload or random, found 'fast'" -- run --mode fast
check backend 2 "--backend: expected cosim, rtl or ref, found 'spice'" -- run --backend spice
check model 2 "--model: expected itanium or itanium2, found 'itanium3'" -- run --model itanium3
check irq-latency-range 2 "--irq-latency: expected a number in 0..1000000 (0xf4240), found '2000000'" -- run --irq-latency 2000000
check stop-at-zero 2 "--stop-at: expected a number >= 1, found '0'" -- run --stop-at 0
check option-twice 2 "pmusim run: --cycles: given twice; expected it once" -- run --cycles 10 --cycles 20
check option-ambiguous 2 "ambiguous argument '--c': --cycles, --config" -- run --c 10
check option-abbreviated 0 "lock-step: 300 cycles, 0 mismatches" -- run --cyc=300 --qui
check escaped-message 2 "--mode: expected workload or random, found '\\x1b[31mred\\n.'" -- run --mode "$(printf '\033[31mred\n.')"
check family-unknown 2 "--family: expected $families_or_list, found 'alpha'" -- run --family alpha
check family-itanium 0 "lock-step: 300 cycles, 0 mismatches" -- run --family itanium --cycles 300 --quiet
check version 0 "pmusim 1." -- run --version
check short-help 0 "usage: pmusim run" -- run -h
check quiet-with-value 2 "--quiet: takes no value" -- run --quiet=1
check seed-with-stream 2 "--seed: not used with --stream" -- run --stream x.txt --seed 3
check mode-with-stream 2 "--mode: not used with --stream" -- run --stream x.txt --mode random
check wave-from-without-waves 2 "--wave-from: expected --waves FILE too" -- run --wave-from 5
check waves-on-ref 2 "--waves: expected --backend cosim or rtl" -- run --backend ref --waves "$tmp/x.fst"
check empty-window 2 "--wave-from: expected a cycle before --stop-at 5, found 10" \
    -- run --waves "$tmp/x.fst" --wave-from 10 --stop-at 5
check waves-unwritable 2 "--waves: cannot write '/nonexistent-dir/w.fst'" \
    -- run --cycles 10 --waves /nonexistent-dir/w.fst
check waves-unwritable-late 2 "--waves: cannot write '/nonexistent-dir/w.fst'" \
    -- run --cycles 10 --waves /nonexistent-dir/w.fst --wave-from 5
check stream-missing 2 "$tmp/none.txt" -- run --stream "$tmp/none.txt"
check config-missing 2 "$tmp/none.cfg: cannot open: No such file or directory" -- run --config "$tmp/none.cfg"
check config-directory 2 "$tmp: cannot read: Is a directory" -- run --config "$tmp"
check config-too-big 2 "/dev/zero: larger than 1048576 bytes, the limit for a configuration file" -- run --config /dev/zero
check config-stdin 0 "NOPS_RETIRED" -- bash -c "printf 'PMC6 event=NOPS_RETIRED plm=0xf period=50\nPSR up=1\n' | \"\$0\" run --cycles 3000 --config -" "$PMUSIM"
check config-stdin-error 2 "<stdin>:1: plm: expected 0..15 (4 bits), found 99" -- bash -c "echo 'PMC4 plm=99' | \"\$0\" run --cycles 10 --config -" "$PMUSIM"
check config-and-stream-stdin 2 "--config: '-' (stdin) is the stream's already" -- run --stream - --config -
check help 0 "usage: pmusim run" -- run --help
check program-short-version 0 "pmusim 1." -- "$PMUSIM" -V

# ---- help that fits the family ------------------------------------------------------
# Without --family: the default family's view, and where the others' help is.
check help-default-config 0 "--config FILE      a PMU configuration (docs/ita-config-format.md)" -- run --help
check help-default-latency 0 "--irq-latency N    cycles from the interrupt pulse" -- run --help
check help-default-models 0 "--model NAME       the Itanium / Itanium 2's model: itanium, itanium2 (default)" -- run --help
check help-default-others 0 "Another family's: pmusim run --family F --help" -- run --help
check help-count-modifiers 0 "modifiers :u :k :plm=N" -- "$PMUSIM" count --help
check help-count-latency 0 "[--irq-latency N]" -- "$PMUSIM" count --help
check help-unknown-family 2 "pmusim count: --family: expected $families_or_list, found 'x86'" -- "$PMUSIM" count --family x86 --help
check help-after-error 2 "pmusim run: unknown argument '--bogus'" -- run --bogus --help
# Each family's help, --family before or after --help: every option it leaves out as
# refused is absent from its options and usage, and the command refuses it, naming the
# family and its help.
help_fits() {
    local fam=$1 cmd=$2 help other refused opt out rc
    help=$("$PMUSIM" "$cmd" --family "$fam" --help) || { echo "$cmd --family $fam --help failed"; return 1; }
    other=$("$PMUSIM" "$cmd" --help --family "$fam") || return 1
    [ "$help" = "$other" ] || { echo "$cmd: --help --family $fam differs from --family $fam --help"; return 1; }
    grep -qF "This help is the " <<<"$help" && grep -qF "(--family $fam)." <<<"$help" ||
        { echo "$cmd --family $fam --help: does not say whose help it is"; return 1; }
    if grep -q "^pmusim $cmd --family $fam: not on the " <<<"$help"; then
        out=$("$PMUSIM" "$cmd" --family "$fam" 2>&1)
        rc=$?
        [ $rc -eq 2 ] && grep -qF "pmusim $cmd: not on the " <<<"$out" ||
            { echo "$cmd --family $fam: help says refused, the command says (exit $rc): $out"; return 1; }
        return 0
    fi
    refused=$(sed -n '/^Not on this family:$/,/^$/s/^  --\([a-z0-9-]*\): .*/\1/p' <<<"$help")
    for opt in $refused; do
        if sed '/^Not on this family:$/,$d' <<<"$help" | grep -qE -- "--$opt([] =]|$)"; then
            echo "$cmd --family $fam --help: refused --$opt is shown as an option"
            return 1
        fi
        out=$("$PMUSIM" "$cmd" --family "$fam" "--$opt" 2>&1)
        rc=$?
        if grep -qF -- "--$opt: expected a value" <<<"$out"; then
            out=$("$PMUSIM" "$cmd" --family "$fam" "--$opt" 1 2>&1)
            rc=$?
        fi
        [ $rc -eq 2 ] && grep -qF -- "--$opt: not on the " <<<"$out" && grep -qF "(see pmusim $cmd --family $fam --help)" <<<"$out" ||
            { echo "$cmd --family $fam --$opt: help says refused, the command says (exit $rc): $out"; return 1; }
    done
}
for fam in $families; do
    for cmd in run count profile; do
        ok "help-fits-$cmd-$fam" -- help_fits "$fam" "$cmd"
    done
done

# ---- configuration lines ------------------------------------------------------------
cfg() { printf '%b' "$2" >"$tmp/$1.cfg"; echo "$tmp/$1.cfg"; }
check cfg-range 2 "bad1.cfg:2: plm: expected 0..15 (4 bits), found 99" \
    -- run --cycles 10 --config "$(cfg bad1 '# counters\nPMC4 plm=99\n')"
check cfg-register 2 "bad2.cfg:1: register: unknown register 'PMC16'" \
    -- run --cycles 10 --config "$(cfg bad2 'PMC16 = 0\n')"
check cfg-field 2 "bad3.cfg:1: colour: unknown field of PMC5" \
    -- run --cycles 10 --config "$(cfg bad3 'PMC5 colour=1\n')"
check cfg-event 2 "bad4.cfg:3: event: unknown event 'IA64_INST_RETIRE'; did you mean IA64_INST_RETIRED?" \
    -- run --cycles 10 --config "$(cfg bad4 'PSR up=1\n\nPMC5 event=IA64_INST_RETIRE\n')"
check cfg-counter-mask 2 "bad5.cfg:1: event: L2_FORCE_RECIRC_ANY can only be counted on PMC4" \
    -- run --cycles 10 --config "$(cfg bad5 'PMC5 event=L2_FORCE_RECIRC_ANY\n')"
check cfg-threshold 2 "bad6.cfg:1: thres: expected 0..5 for NOPS_RETIRED (maxincr 6), found 6" \
    -- run --cycles 10 --config "$(cfg bad6 'PMC6 event=NOPS_RETIRED thres=6\n')"
check cfg-reserved 2 "bad7.cfg:1: PMC4: expected no bits outside the writable mask" \
    -- run --cycles 10 --config "$(cfg bad7 'PMC4 = 0x40000000\n')"
check cfg-duplicate 2 "bad8.cfg:2: PMC4: duplicate register line (first at line 1)" \
    -- run --cycles 10 --config "$(cfg bad8 'PMC4 plm=1\nPMC4 plm=2\n')"
check cfg-model-conflict 2 "bad9.cfg:1: model: itanium conflicts with --model itanium2" \
    -- run --cycles 10 --model itanium2 --config "$(cfg bad9 'model = itanium\n')"
check cfg-itanium-event 2 "bad10.cfg:2: event: FP_OPS_RETIRED is not implemented on Itanium" \
    -- run --cycles 10 --config "$(cfg bad10 'model = itanium\nPMC7 event=FP_OPS_RETIRED\n')"

# ---- qualification lines (docs/ita-config-format.md, "Event qualification") -----------------
check cfg-irange-misaligned 2 "q1.cfg:2: range: expected both ends 16-byte aligned (code ranges are whole bundles), found 0x1008..0x2000" \
    -- run --cycles 10 --config "$(cfg q1 '# code\nirange 0x1008..0x2000 pair=0\n')"
check cfg-irange-block 2 "q2.cfg:1: range: expected an aligned power-of-two block (a pair covers one): 0x1000..0x3000 needs 2 blocks (0x1000..0x2000, 0x2000..0x3000; one pair each) or the covering block 0x0..0x4000" \
    -- run --cycles 10 --config "$(cfg q2 'irange 0x1000..0x3000 pair=0\n')"
check cfg-fine-page 2 "q3.cfg:1: range: expected a fine range within one 4 KB page, found 0x4000000000000ff0..0x4000000000001010 (it crosses 0x4000000000001000)" \
    -- run --cycles 10 --config "$(cfg q3 'irange 0x4000000000000ff0..0x4000000000001010 fine pair=0\n')"
check cfg-pair-range 2 "q4.cfg:1: pair: expected 0..3, found 7" \
    -- run --cycles 10 --config "$(cfg q4 'drange 0x1000..0x2000 pair=7\n')"
check cfg-pair-twice 2 "q5a.cfg:3: pair: IBR pair 2 is already programmed by the irange on line 1" \
    -- run --cycles 10 --config "$(cfg q5a 'irange 0x1000..0x2000 pair=2\nPSR up=1\nirange 0x8000..0x9000 pair=2\n')"
check cfg-fine-upper-twice 2 "q5b.cfg:2: IBR4: IBR pair 2 is already programmed by the irange on line 1" \
    -- run --cycles 10 --config "$(cfg q5b 'irange 0x1000..0x1100 fine pair=0\nIBR4 = 0x8000\n')"
check cfg-fine-pair 2 "q5.cfg:3: pair: expected 0 or 1 for a fine range" \
    -- run --cycles 10 --config "$(cfg q5 'irange 0x1000..0x1100 fine pair=0\nPSR up=1\nirange 0x8000..0x8100 fine pair=2\n')"
check cfg-pair-and-ibr 2 "q6.cfg:2: IBR3: IBR pair 1 is already programmed by the irange on line 1" \
    -- run --cycles 10 --config "$(cfg q6 'irange 0x1000..0x2000 pair=1\nIBR3 plm=1\n')"
check cfg-pmc14-itanium 2 "q7.cfg:1: PMC14: expected a register that Itanium implements" \
    -- run --cycles 10 --model itanium --config "$(cfg q7 'PMC14 ibrp0=0\n')"
check cfg-field-itanium 2 "q8.cfg:1: cfg_dbrp0: expected a field that Itanium implements" \
    -- run --cycles 10 --model itanium --config "$(cfg q8 'PMC13 cfg_dbrp0=2\n')"
check cfg-fine-itanium 2 "q9.cfg:1: fine: expected no fine on Itanium" \
    -- run --cycles 10 --model itanium --config "$(cfg q9 'irange 0x1000..0x1100 fine pair=0\n')"
check cfg-reserved-ibr 2 "q10.cfg:1: IBR5: expected no bits outside the writable mask 0x8fffffffffffffff on Itanium 2" \
    -- run --cycles 10 --config "$(cfg q10 'IBR5 = 0x4000000000000000\n')"
check cfg-opcode-class 2 "q11.cfg:1: class: unknown class 'br.cloops'; expected one of nop, nop.b" \
    -- run --cycles 10 --config "$(cfg q11 'opcode PMC8 class=br.cloops\n')"
check cfg-opcode-tie 2 "q12.cfg:1: tie: expected none or ibrp1 and/or ibrp3 for PMC9" \
    -- run --cycles 10 --config "$(cfg q12 'opcode PMC9 class=nop tie=ibrp0\n')"
check cfg-opcode-inv-pmc9 2 "q13.cfg:1: inv: expected inv only on PMC8" \
    -- run --cycles 10 --config "$(cfg q13 'opcode PMC9 class=nop inv=1\n')"
check cfg-drange-cfg-itanium 2 "q14.cfg:1: cfg: expected no cfg on Itanium" \
    -- run --cycles 10 --model itanium --config "$(cfg q14 'drange 0x1000..0x2000 pair=0 cfg=2\n')"
check cfg-drange-cfg-pmc13 2 "q15.cfg:2: cfg: expected no cfg: PMC13 is given on line 1" \
    -- run --cycles 10 --config "$(cfg q15 'PMC13 ena_dbrp0=1\ndrange 0x1000..0x2000 pair=0 cfg=0\n')"
check cfg-match-width 2 "q16.cfg:1: match: expected 0..0x7ffffff (27 bits" \
    -- run --cycles 10 --config "$(cfg q16 'opcode PMC8 match=0x8000000 mask=0\n')"

# ---- stream lines -------------------------------------------------------------------
printf 'cpl=3 | ip=0x10 s=0 u=M nop\ncpl=0 recirc=9\n' >"$tmp/bad1.txt"
check stream-range 2 "bad1.txt:2:" -- run --stream "$tmp/bad1.txt"
check stream-range-field 2 "recirc" -- run --stream "$tmp/bad1.txt"
printf 'cpl=3\ncpl=1\ncpl=0 bogus=1\n' >"$tmp/bad2.txt"
check stream-key 2 "bad2.txt:3:" -- run --stream "$tmp/bad2.txt" --backend rtl

# ---- good runs -----------------------------------------------------------------------
check run-cosim 0 "lock-step: 20000 cycles, 0 mismatches" -- run --cycles 20000
check run-quiet 0 "lock-step: 5000 cycles, 0 mismatches" -- run --cycles 5000 --quiet
check run-ref-totals 0 "totals: the 64-bit virtual counts equal the reference totals" \
    -- run --cycles 20000 --backend ref
check run-rtl 0 "Simulation speed:" -- run --cycles 20000 --backend rtl
check run-itanium 0 "lock-step: 20000 cycles, 0 mismatches" -- run --cycles 20000 --model itanium
check run-random 0 "lock-step: 20000 cycles, 0 mismatches" -- run --cycles 20000 --mode random --seed 7
check run-latency0 0 "lock-step: 20000 cycles, 0 mismatches" -- run --cycles 20000 --irq-latency 0
check run-config 0 "NOPS_RETIRED" \
    -- run --cycles 20000 --config "$(cfg good1 'model = itanium2\nPMC6 event=NOPS_RETIRED plm=0xf thres=2 period=50\nPSR up=1\n')"
# Qualification: the run lists what is programmed and the tags of each counter.
qual='PMC5 event=IA64_INST_RETIRED plm=0x8 period=20000\nPMC6 event=IA64_TAGGED_INST_RETIRED_IBRP1_PMC9 plm=0x8 ism=ia64 period=500\nPMC7 event=L1D_READ_MISSES_ALL plm=0x1 pm=1 period=50\nirange 0x4000000000000000..0x4000000000001000 pair=1\nopcode PMC9 class=ld\ndrange 0xe000000010000000..0xe000000010100000 pair=0\nPSR up=1\nDCR pp=1\n'
check run-qual-setup 0 "qualification: irange[1] 0x4000000000000000..0x4000000000001000 plm=0,1,2,3 (IBR2, IBR3)" \
    -- run --cycles 50000 --config "$(cfg qual "$qual")"
check run-qual-tags 0 "ism=ia64 irange[1]=0x4000000000000000..0x4000000000001000 opcode=PMC9(ld)" \
    -- run --cycles 50000 --config "$(cfg qual "$qual")"
check run-qual-mem 0 "mem:drange[0]=0xe000000010000000..0xe000000010100000" \
    -- run --cycles 50000 --config "$(cfg qual "$qual")"
check run-qual-random 0 "lock-step: 30000 cycles, 0 mismatches" \
    -- run --cycles 30000 --mode random --seed 3 --config "$(cfg qual "$qual")"
check run-qual-itanium 0 "lock-step: 30000 cycles, 0 mismatches" \
    -- run --cycles 30000 --model itanium --config "$(cfg qual1 'PMC4 event=NOPS_RETIRED period=1000\nPMC5 event=LOADS_RETIRED period=500\nirange 0x4000000000000000..0x4000000000001000 pair=2\nopcode PMC8 class=nop\ndrange 0x6000000000000000..0x6000000100000000 pair=3\nPSR up=1\n')"
check run-builtin-range 0 "thres=1 ism=ia64 irange[1]=fine:0x4000000000000000..0x4000000000000120" -- run --cycles 20000
check run-builtin-opcode 0 "thres=1 ism=ia64 opcode=PMC8" -- run --cycles 20000 --model itanium
check run-builtin-dear 0 "DATA_EAR_EVENTS                     plm=kernel pm=1 thres=0 ism=both dear=PMC11(cache,lat>=16,plm=kernel,pm=1)" -- run --cycles 20000
check run-builtin-btb 0 "opcode=PMC8 btb=PMC12(tm=3,ptm=3,ppm=3,plm=user,pm=0)" -- run --cycles 20000 --model itanium
check run-stop-at 0 "lock-step: 1234 cycles, 0 mismatches" -- run --cycles 5000 --stop-at 1234
printf 'cpl=3 up=1 repeat=500 | ip=0x10 s=0 u=M nop\ncpl=0 repeat=300\n' >"$tmp/good.txt"
check run-stream 0 "lock-step: 800 cycles, 0 mismatches" -- run --stream "$tmp/good.txt"
check run-stream-cycles-cap 0 "lock-step: 600 cycles, 0 mismatches" -- run --stream "$tmp/good.txt" --cycles 600
check run-waves 0 "waveform: $tmp/w.fst (" \
    -- run --cycles 5000 --waves "$tmp/w.fst" --wave-from 1000 --stop-at 3000
if [ -s "$tmp/w.fst" ]; then
    echo "ok   waves-file-written"; passed=$((passed + 1))
else
    echo "FAIL waves-file-written: $tmp/w.fst is missing or empty"; failed=$((failed + 1))
fi
# The layout beside the FST: docs/pmusim.gtkw with the run's dump file, its window (from
# record 1000) and the marker on the last record's clock (2999.5 ns).
if [ -s "$tmp/w.gtkw" ] && grep -qxF "[dumpfile] \"$tmp/w.fst\"" "$tmp/w.gtkw" &&
    grep -qx '\[timestart\] 1000000' "$tmp/w.gtkw" && grep -q '^\*-[0-9.]* 2999500 ' "$tmp/w.gtkw" &&
    diff <(grep -v '^\[\*\]\|^\[dumpfile\]\|^\[timestart\]\|^\*' "$tmp/w.gtkw") \
        <(grep -v '^\[\*\]\|^\[dumpfile\]\|^\[timestart\]\|^\*' docs/pmusim.gtkw) >/dev/null; then
    echo "ok   waves-layout-written"; passed=$((passed + 1))
else
    echo "FAIL waves-layout-written: $tmp/w.gtkw is missing or is not docs/pmusim.gtkw on the window with the marker"
    failed=$((failed + 1))
fi
check run-waves-late 0 "before the waveform started" \
    -- run --cycles 100 --waves "$tmp/late.fst" --wave-from 500
# --dump-regs: every visible register and the interrupt line after the last record; the
# lock-step pair shows the RTL and the reference side by side, each equal to its own run.
check run-dump-regs 0 "registers after 1234 cycles (RTL, reference):" -- run --cycles 5000 --stop-at 1234 --dump-regs
regs() { "$PMUSIM" run --cycles 5000 --stop-at 1234 --dump-regs --quiet "$@" | sed -n '/^registers after/,$p' | tail -n +2; }
regs > "$tmp/regs.pair"; regs --backend rtl > "$tmp/regs.rtl"; regs --backend ref > "$tmp/regs.ref"
nvis=$(grep -c '^  P\|^  D\|^  I' "$tmp/regs.pair")
if [ "$nvis" -ge 40 ] && ! grep -q differs "$tmp/regs.pair" && grep -q '^  PMD4 .*0x' "$tmp/regs.pair" &&
    diff <(awk '{print $1, $2, $3}' "$tmp/regs.pair" | sed 's/ *$//') <(awk '{print $1, $2, $3}' "$tmp/regs.rtl") >/dev/null &&
    diff <(awk '{print $1, $2, (NF > 3 ? $4 : $3)}' "$tmp/regs.pair") <(awk '{print $1, $2, $3}' "$tmp/regs.ref") >/dev/null; then
    echo "ok   dump-regs-both-models"; passed=$((passed + 1))
else
    echo "FAIL dump-regs-both-models: the pair's columns are not the rtl and ref runs' registers"
    diff "$tmp/regs.rtl" "$tmp/regs.ref" | head -5 | sed 's/^/    /'
    failed=$((failed + 1))
fi
check dump-regs-alpha 0 "registers after 300 cycles (RTL, reference):" -- run --family alpha21064 --cycles 300 --dump-regs --quiet

# ---- Itanium 2's I-EAR at a bin floor (docs/ita-ear-btb.md, "I-EAR") --------------------------
# PMC10 in cache mode with LAT8 (umask 0xfe: bins 1..7, bin 1 = [8,16)) at user level, PMD4
# counting the I-EAR's captures: a user fetch of 8 cycles is captured (PMD0 = its line
# address with stat 1, PMD1 = 8) and counted; one of 7 (bin 0) is neither.  The lock-step
# pair must agree, and both must hold these values.
printf 'model = itanium2\nPMC10 plm=0x8 pm=0 ct=2 umask=0xfe\nPMC4 event=L1I_EAR_EVENTS plm=0x8\nPSR up=1 pp=0\nPMC0 fr=0\n' \
    > "$tmp/iear.cfg"
iear_floor() { # if_lat count pmd0 pmd1
    local name=iear-lat8-if-lat-$1 out
    printf 'if_addr=0x4000000000001240 if_lat=%s\n' "$1" > "$tmp/iear$1.txt"
    out=$(run --config "$tmp/iear.cfg" --stream "$tmp/iear$1.txt" --backend cosim --dump-regs 2>&1)
    if grep -qx 'lock-step: 1 cycles, 0 mismatches' <<<"$out" &&
        awk -v n="$2" -v d0="$3" -v d1="$4" '
            $1 == "PMD4" && $2 == "L1I_EAR_EVENTS" { counted = $(NF - 1) == n }
            $1 == "PMD0" && $2 == "0x100" { pmd0 = $3 == d0 && $4 == d0 }
            $1 == "PMD1" && $2 == "0x101" { pmd1 = $3 == d1 && $4 == d1 }
            END { exit !(counted && pmd0 && pmd1) }' <<<"$out"; then
        echo "ok   $name"; passed=$((passed + 1))
    else
        echo "FAIL $name: expected the lock-step pair in step, PMD4 counting $2, PMD0 = $3 and PMD1 = $4 on both"
        echo "$out" | grep -E '^(lock-step|mismatch|  register|  expected|  actual|PMD4 |  PMD[01] )' | sed 's/^/    /'
        failed=$((failed + 1))
    fi
}
iear_floor 8 1 0x4000000000001241 0x0000000000000008
iear_floor 7 0 0x0000000000000000 0x0000000000000000
check gen-dispatch 0 "" -- "$PMUSIM" gen --seed 3 --cycles 100 -o "$tmp/g.txt"
check run-generated-file 0 "lock-step: 100 cycles, 0 mismatches" -- run --stream "$tmp/g.txt"

# ---- pmusim conform ----------------------------------------------------------------
conform() { "$PMUSIM" conform "$@"; }
check conform-bad-model 2 "--model: expected itanium, itanium2 or both, found 'ia64'" -- conform --model ia64
check conform-bad-runs 2 "--runs: expected a number >= 1, found '0'" -- conform --runs 0
check conform-unknown 2 "unknown argument '--frob'" -- conform --frob 1
check conform-wave-from-alone 2 "--wave-from: expected --waves FILE too" -- conform --wave-from 10
check conform-seed-leading-zero 2 "--seed: expected a decimal number without leading zeros, or 0x hex, found '010'" -- conform --seed 010
check conform-seed-overflow 2 "--seed: expected a number that fits in 64 bits, found '99999999999999999999'" -- conform --seed 99999999999999999999
check conform-runs-overflow 2 "--runs: 3 runs from seed 18446744073709551614 pass the last seed, 2^64-1; expected at most 2" -- conform --seed 0xfffffffffffffffe --runs 3
check conform-last-seed 0 "1 passed, 0 failed" -- conform --seed 0xffffffffffffffff --runs 1 --cycles 500
check conform-waves-unwritable 2 "pmusim conform: --waves: cannot write '/nonexistent-dir/d/x.fst': No such file or directory" \
    -- conform --runs 1 --cycles 500 --waves /nonexistent-dir/d/x.fst
check conform-bad-service 2 "--service: expected harness or driver, found 'kernel'" -- conform --service kernel
check conform-driver 0 "2 passed, 0 failed" -- conform --seed 3 --runs 1 --cycles 20000 --model both --service driver
check conform-missing-value 2 "--cycles: expected a value" -- conform --cycles
check conform-run 0 "2 passed, 0 failed" -- conform --seed 5 --runs 1 --cycles 3000 --model both
check conform-waves 0 "1 passed, 0 failed" \
    -- conform --seed 5 --runs 1 --cycles 3000 --model itanium2 --waves "$tmp/c.fst" --wave-from 100
if [ -s "$tmp/c.fst" ]; then
    echo "ok   conform-waves-file-written"; passed=$((passed + 1))
else
    echo "FAIL conform-waves-file-written: $tmp/c.fst is missing or empty"; failed=$((failed + 1))
fi
if grep -qxF "[dumpfile] \"$tmp/c.fst\"" "$tmp/c.gtkw" 2>/dev/null && grep -qx '\[timestart\] 100000' "$tmp/c.gtkw"; then
    echo "ok   conform-waves-layout-written"; passed=$((passed + 1))
else
    echo "FAIL conform-waves-layout-written: $tmp/c.gtkw is missing or does not view $tmp/c.fst from record 100"
    failed=$((failed + 1))
fi

# ---- encode: the event tables, EARs and BTB --------------------------------------------
encode() { "$PMUSIM" encode "$@"; }
# The number of event objects in `encode --list --json` and whether it parses as JSON.
json_events() {
    encode --list --json "$@" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["events"]))'
}
check encode-list 0 "DATA_EAR_ALAT                             0xc8  0x00 dear-alat" -- encode --list
check encode-list-itanium 0 "LOADS_RETIRED                             0x6c  0x00 normal" -- encode --list --model itanium
check encode-list-json 0 "497" -- json_events
check encode-list-json-itanium 0 "230" -- json_events --model itanium
check encode-ear-event 0 "PMC10 = 0x0000000000003fe8" -- encode -e L1I_EAR_CACHE_LAT4
check encode-ear-itanium 0 "PMC4 = 0x0000000000002328" -- encode -e INSTRUCTION_EAR_CACHE_LAT4 --model itanium
# A threshold against the model's own maxincr (L2_MISSES: 2 on Itanium, 1 on Itanium 2);
# the Itanium value is libpfm-3.10's Itanium encoder's.
check encode-thres-itanium 0 "PMC4 = 0x0000000000106a28" -- encode --model itanium -e L2_MISSES:u:thres=1
check encode-thres-itanium-over 2 "threshold 2 >= maxincr 2 of L2_MISSES on Itanium (allowed 0..1)" -- encode --model itanium -e L2_MISSES:u:thres=2
check encode-thres-itanium2-over 2 "threshold 1 >= maxincr 1 of L2_MISSES on Itanium 2 (allowed 0..0)" -- encode -e L2_MISSES:u:thres=1
check count-thres-itanium 0 "L2_MISSES:thres=1" -- "$PMUSIM" count --model itanium -e L2_MISSES:thres=1 --cycles 2000
check encode-btb-all 0 "PMC12 = 0x0000000000003f08" -- encode -e BRANCH_EVENT
check encode-dear-free 0 "PMC11 = 0x00000000000e0081" -- encode --dear mode=tlb,umask=0xe,plm=1
check encode-ear-disagree 2 "I-EAR: events INSTRUCTION_EAR_TLB_SW (TLB mode, umask 0x8, plm 0x8) and INSTRUCTION_EAR_CACHE_LAT1024 (cache mode, umask 0x8, plm 0x8) ask for different configurations of the one unit" -- encode --model itanium -e INSTRUCTION_EAR_TLB_SW -e INSTRUCTION_EAR_CACHE_LAT1024
check encode-ear-disagree-iear 0 "PMC10 = 0x0000000000080088" -- encode --model itanium -e INSTRUCTION_EAR_TLB_SW -e INSTRUCTION_EAR_CACHE_LAT1024 --iear mode=tlb,umask=8
check encode-dear-tlb-btb 2 "cannot be used with the branch trace buffer" -- encode -e DATA_EAR_TLB_ALL -e BRANCH_EVENT
check encode-iear-alat 2 "I-EAR: mode 2" -- encode --iear mode=alat,umask=0
check encode-btb-bad-key 2 "unknown key 'foo'" -- encode --btb foo=1
check encode-ozq-cancels 2 "only one L2_OZQ_CANCELS0/1/2" -- encode -e L2_OZQ_CANCELS0_ANY -e L2_OZQ_CANCELS1_REL

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
