#!/usr/bin/env bash
# time-to-check.sh - how long a change takes to check (docs/bench.md, "Time to check"):
# clones the repository's HEAD into a scratch directory and times, there,
#   1. `make test` on the fresh clone (what CI runs: .ci/run),
#   2. `make test` again after an edit of one RTL file (--rtl, default below): a comment line
#      appended to it, so that its content changes (a bare touch would not model an edit: the
#      formal proofs reuse the results of unchanged inputs, formal/run.sh --cache),
#   3. `make sim` after a second such edit.
# Each step prints its wall time, the user + sys CPU seconds of everything it ran, and the
# wall time that CPU would take on JOBS idle cores (CPU / JOBS): on a machine others are
# using, the wall time is inflated and the estimate is the figure to compare with the
# targets.  Each step's output goes to a log in the scratch directory (kept with --keep).
#
#   tools/time-to-check.sh [--keep] [--only STEP,...] [--rtl FILE]    (STEP: fresh, edit, sim)
#
# Environment: JOBS (default: the number of cores) is passed to make.  Uncommitted changes
# are not in the clone: commit first.  Exit 1 when a step fails (its log is named).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
repo=$PWD

keep=0 steps="fresh,edit,sim" rtl=rtl/ita/ita_cnt_qual.sv
usage() { echo "time-to-check.sh: $1 (usage: time-to-check.sh [--keep] [--only STEP,...] [--rtl FILE])" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
        --keep) keep=1; shift ;;
        --only) steps=${2:-}; [ -n "$steps" ] || usage "--only: expected steps (fresh,edit,sim)"; shift 2 ;;
        --rtl) rtl=${2:-}; [ -n "$rtl" ] || usage "--rtl: expected a file"; shift 2 ;;
        *) usage "unknown argument '$1'" ;;
    esac
done
for s in ${steps//,/ }; do
    case $s in fresh|edit|sim) ;; *) usage "--only: unknown step '$s', expected fresh, edit or sim" ;; esac
done
[ -f "$rtl" ] || usage "--rtl: no file '$rtl'"
case $rtl in *.sv|*.v|*.svh|*.vh) ;; *) usage "--rtl: expected a Verilog file (.sv, .v, .svh or .vh), got '$rtl'" ;; esac
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

tmp=$(mktemp -d /tmp/pmusim_ttc.XXXXXX) || exit 2
if [ "$keep" = 1 ]; then echo "scratch directory: $tmp (kept)"; else trap 'rm -rf "$tmp"' EXIT; fi
git clone -q "$repo" "$tmp/pmusim" || { echo "time-to-check.sh: git clone failed" >&2; exit 2; }
cd "$tmp/pmusim" || exit 2
echo "clone of $(git log -1 --format='%h %s' | cut -c1-70)"
echo "JOBS=$jobs, $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# The user + sys seconds of this shell's finished children in FILE, the output of bash's
# times (its second line).  times must run in this shell: in a pipe or $(...) it would be
# a new shell's, without children.
cpu_of() {
    sed -n 2p "$1" | awk '{ split($1, u, "m"); split($2, s, "m");
        printf "%.2f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }'
}

rc=0
# step NAME LOG COMMAND...: runs the command, prints the step's figures.
step() {
    local name=$1 log=$2; shift 2
    local t0 t1 st
    t0=$(date +%s.%N)
    times > "$tmp/times0"
    "$@" > "$log" 2>&1
    st=$?
    times > "$tmp/times1"
    t1=$(date +%s.%N)
    awk -v n="$name" -v t0="$t0" -v t1="$t1" -v c0="$(cpu_of "$tmp/times0")" -v c1="$(cpu_of "$tmp/times1")" \
        -v j="$jobs" -v l="$(cut -d' ' -f1 /proc/loadavg)" -v st="$st" 'BEGIN {
        w = t1 - t0; c = c1 - c0
        printf "%-36s wall %5.0f s (%4.1f min)  user+sys %5.0f s  CPU/%d %5.0f s (%4.1f min)  load %s%s\n",
               n, w, w / 60, c, j, c / j, c / j / 60, l, (st ? "  FAILED" : "") }'
    [ "$st" -eq 0 ] || { echo "  $name failed (exit $st): see $log"; tail -3 "$log" | sed 's/^/  /'; rc=1; }
}

for s in ${steps//,/ }; do
    case $s in
        fresh) step "make test (fresh clone)" "$tmp/fresh.log" make test JOBS="$jobs"
               tail -1 "$tmp/fresh.log" | sed 's/^/  /' ;;
        edit)  echo "// time-to-check.sh: an edit" >> "$rtl"
               step "make test (edited $(basename "$rtl"))" "$tmp/edit.log" make test JOBS="$jobs"
               tail -1 "$tmp/edit.log" | sed 's/^/  /' ;;
        sim)   echo "// time-to-check.sh: another edit" >> "$rtl"
               step "make sim (edited $(basename "$rtl"))" "$tmp/sim.log" make sim JOBS="$jobs" ;;
    esac
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $rc
