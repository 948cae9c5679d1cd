#!/usr/bin/env bash
# formal.sh - make test's quick version of make formal (docs/formal.md): every family's
# properties at depth 8 (formal/run.sh --quick: each proven or BMC-passed, its cover
# reached, its mutant caught with a counterexample, the counterexample's replay files
# written beside it), and run.sh's refusals of bad usage.
# Ends with "N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d /tmp/pmusim_formal.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. tests/cli_lib.sh

fams=$(for f in formal/*/*_pmu_props.sv; do basename "${f%_pmu_props.sv}"; done)
# shellcheck disable=SC2086 # one argument a family
check quick-proofs 0 " 0 failed" -- bash formal/run.sh --quick --out "$tmp/out" $fams
# each mutant's counterexample left its replay beside it (formal/tests/replay.sh runs one), for
# the families whose checker pmusim cex2replay knows (its --help lists them)
known=$(${PMUSIM:-build/pmusim} cex2replay --help 2>/dev/null)
for f in $fams; do
    grep -q "${f}_pmu_props" <<< "$known" || continue
    for d in "$tmp/out/$f"/*/mutant; do
        ok "replay-files-$f-$(basename "$(dirname "$d")")" -- test -s "$d/replay-writes.txt" -a -s "$d/replay-stream.txt"
    done
done
check bad-depth 2 "run.sh: --depth: expected a positive number of steps, got 'x'" -- bash formal/run.sh --depth x ev4
check unknown-family 2 "run.sh: no family 'nosuch'" -- bash formal/run.sh nosuch
check no-family 2 "run.sh: expected a family" -- bash formal/run.sh --quick

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
