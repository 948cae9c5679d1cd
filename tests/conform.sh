#!/usr/bin/env bash
# conform.sh - the random lock-step runs of `make test`: 20 seeds x 200,000 cycles on
# each model, streams alternating between the generator's random and workload modes,
# with random software register activity and the overflow service (pmusim conform).
# Each seed x model is one test; a mismatch prints the report and the replay command.
set -uo pipefail
cd "$(dirname "$0")/.."
exec build/pmusim conform --seed "${CONFORM_SEED:-1}" --runs "${CONFORM_RUNS:-20}" \
    --cycles "${CONFORM_CYCLES:-200000}" --model both --mode mixed
