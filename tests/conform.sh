#!/usr/bin/env bash
# conform.sh - the random lock-step runs of `make test` (pmusim conform):
#   - 20 seeds x 200,000 cycles on each model, streams alternating between the
#     generator's random and workload modes, with random software register activity
#     and the harness's overflow service;
#   - 8 seeds x 200,000 cycles on each model with the overflow driver answering the
#     interrupts (--service driver): its 64-bit counts must equal the reference's exact
#     totals, per process.
# Each seed x model is one test; a mismatch prints the report and the replay command.
# Ends with "N passed, M failed" over both.
set -uo pipefail
cd "$(dirname "$0")/.."
seed=${CONFORM_SEED:-1} cycles=${CONFORM_CYCLES:-200000}
log=$(mktemp /tmp/pmusim_conform.XXXXXX)
trap 'rm -f "$log"' EXIT
status=0
"${PMUSIM:-build/pmusim}" conform --seed "$seed" --runs "${CONFORM_RUNS:-20}" --cycles "$cycles" \
    --model both --mode mixed | tee "$log" || status=1
"${PMUSIM:-build/pmusim}" conform --seed "$seed" --runs "${CONFORM_DRIVER_RUNS:-8}" --cycles "$cycles" \
    --model both --mode mixed --service driver | tee -a "$log" || status=1
awk '/^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3; n++ }
     END { if (n != 2) f++; printf "%d passed, %d failed\n", p, f }' "$log"
exit "$status"
