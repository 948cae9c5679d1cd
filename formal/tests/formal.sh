#!/usr/bin/env bash
# formal.sh - make test's quick version of make formal (docs/formal.md): every family's
# properties (make formal-families) at depth 8 (formal/run.sh --quick: each proven or
# BMC-passed, its cover reached, its mutant caught with a counterexample), and the refusals
# of bad usage (run.sh, make formal-files).
# Ends with "N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d /tmp/pmusim_formal.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. tests/cli_lib.sh

fams=$(make -s --no-print-directory formal-families)
[ -n "$fams" ] || { echo "formal.sh: make formal-families lists no family" >&2; exit 1; }
# shellcheck disable=SC2086 # one argument a family
check quick-proofs 0 " 0 failed" -- bash formal/run.sh --quick --out "$tmp/out" $fams
check bad-depth 2 "run.sh: --depth: expected a positive number of steps, got 'x'" -- bash formal/run.sh --depth x ev4
check unknown-family 2 "run.sh: no family 'nosuch'" -- bash formal/run.sh nosuch
check formal-files-unknown 2 "formal-files: no family 'nosuch'" -- make -s --no-print-directory formal-files FORMAL_FAMILY=nosuch
check no-family 2 "run.sh: expected a family" -- bash formal/run.sh --quick

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
