#!/usr/bin/env bash
# formal.sh - make test's quick version of make formal (docs/formal.md): every family's
# properties (make formal-families) at a small depth (formal/run.sh --quick, depth 8; the
# Itanium's at 3: each proven or BMC-passed, its cover reached, its mutant caught with a
# counterexample, the counterexample's replay files written beside it for a checker
# pmusim cex2replay knows), and the refusals of bad usage (run.sh, make formal-files).
# Ends with "N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d /tmp/pmusim_formal.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. tests/cli_lib.sh

fams=$(make -s --no-print-directory formal-families)
[ -n "$fams" ] || { echo "formal.sh: make formal-families lists no family" >&2; exit 1; }
# Depth 8 (--quick) for each family, but 3 for the Itanium: its properties over both models
# cost about 130 s of CPU at depth 8 (docs/formal.md); at 3 each is still proven by k-induction,
# its covers (steps 1-2) reached and its mutant caught. The Itanium's ctr_step_maxincr (event
# select and counter, about 40 s of CPU even at depth 3) is make formal's only.
# Each mutant's counterexample left its replay beside it (formal/tests/replay.sh runs one), for
# the families whose checker pmusim cex2replay knows (its --help lists them).
known=$(${PMUSIM:-build/pmusim} cex2replay --help 2>/dev/null)
for fam in $fams; do
    case $fam in ita) opt=(--depth 3 --skip ctr_step_maxincr) ;; *) opt=(--quick) ;; esac
    check "quick-proofs-$fam" 0 " 0 failed" -- bash formal/run.sh "${opt[@]}" --out "$tmp/out" "$fam"
    for d in "$tmp/out/$fam"/*/mutant; do
        p=$(basename "$(dirname "$d")")
        # the property's checker (the file with its block): a replay where cex2replay knows it
        props=$(grep -lx "\`ifdef PROP_$p" formal/"$fam"/"$fam"_*_props.sv | head -1)
        grep -qw "$(basename "$props" .sv)" <<< "$known" || continue
        ok "replay-files-$fam-$p" -- test -s "$d/replay-writes.txt" -a -s "$d/replay-stream.txt"
    done
done
check bad-depth 2 "run.sh: --depth: expected a positive number of steps, got 'x'" -- bash formal/run.sh --depth x ev4
check unknown-family 2 "run.sh: no family 'nosuch'" -- bash formal/run.sh nosuch
check formal-files-unknown 2 "formal-files: no family 'nosuch'" -- make -s --no-print-directory formal-files FORMAL_FAMILY=nosuch
check no-family 2 "run.sh: expected a family" -- bash formal/run.sh --quick
check skip-unknown 2 "run.sh: --skip: no property 'nosuch' in ev4" -- bash formal/run.sh --skip nosuch ev4
check skip-bad-name 2 "run.sh: --skip: expected a property name, got ''" -- bash formal/run.sh ev4 --skip

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
