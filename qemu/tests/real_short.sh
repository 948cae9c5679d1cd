#!/usr/bin/env bash
# real_short.sh - make test's short form of make real (qemu/real.sh with REAL_SHORT=1): every
# sample program recorded on every family with a timing model, run in lock-step, and the
# families' checks (docs/real-programs.md).
cd "$(dirname "$0")/../.." || exit 2
REAL_SHORT=1 exec bash qemu/real.sh
