#!/usr/bin/env bash
# no_records.sh - a stream with no records is refused, never a pass: an empty file, one of
# comments and blank lines only, one of CR characters only (text), and a binary stream whose
# header holds no records, given to every command that runs a stream, on every family and
# backend (docs/ita-stream-format.md).  Each must exit 2 with one line naming the file, and
# print no verdict ("exact:", "0 mismatches").  Ends with "N passed, M failed".
set -u
cd "$(dirname "$0")/.."
PMUSIM=${PMUSIM:-build/pmusim}
PMUSIM_SC=${PMUSIM_SC:-build/pmusim-sc}
tmp=$(mktemp -d /tmp/pmusim_norec.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. tests/cli_lib.sh

: >"$tmp/empty.txt"
printf '# comments only\n\n   # and blank lines\n' >"$tmp/comments.txt"
printf '\r\r\r' >"$tmp/cr.txt"

# Every command that runs a stream, by family (the options each needs besides --stream); a
# registered family not named here has `run`, as every family does.
cmds_itanium=("run" "run --backend rtl" "run --backend ref"
    "count -e IA64_INST_RETIRED:k:u --backend ref" "profile -e IA64_INST_RETIRED --period 100")
cmds_alpha21064=("run" "run --backend ref" "pfm" "pfm --backend rtl")
cmds_alpha21264=("run" "run --backend rtl" "count -e CYCLES" "profile -e INSTRUCTIONS --period 300"
    "profileme --period 200")

# A verdict printed for a run of no records fails the check, whatever the exit.
refused() {
    local name=$1 file=$2
    shift 2
    check "$name" 2 "$file: no records (empty, or only comments and blank lines); a run needs at least one" -- "$@"
    if "$@" 2>/dev/null | grep -q '^exact:\|0 mismatches'; then
        echo "FAIL $name-no-verdict: a verdict was printed"; failed=$((failed + 1))
    fi
}

for fam in $families; do
    # A binary stream of the family whose header holds no records: conv of an empty file.
    check "$fam-conv-empty-binary" 0 "conv: 0 cycles, text -> binary" -- \
        "$PMUSIM" conv --family "$fam" --to binary "$tmp/empty.txt" "$tmp/$fam.bin"
    [ -v "cmds_$fam" ] || declare -a "cmds_$fam=(run)"
    declare -n cmds="cmds_$fam"
    for c in "${cmds[@]}"; do
        read -ra words <<<"$c"
        for f in empty.txt comments.txt cr.txt "$fam.bin"; do
            refused "$fam-${c// /_}-${f//./-}" "$tmp/$f" \
                "$PMUSIM" "${words[0]}" --family "$fam" "${words[@]:1}" --stream "$tmp/$f"
        done
    done
done
# A stream with no records beside one with records, on two CPUs.
"$PMUSIM" gen --family alpha21064 --cycles 100 --seed 3 -o "$tmp/cpu0.bin" >/dev/null
refused alpha21064-pfm-2cpus-one-empty "$tmp/cr.txt" \
    "$PMUSIM" pfm --cpus 2 --open each --stream "$tmp/cpu0.bin" --stream "$tmp/cr.txt"
# The SystemC platform's run reads its records through the same source.
refused systemc-run-cr "$tmp/cr.txt" "$PMUSIM_SC" run --stream "$tmp/cr.txt"

# A stream with one record still runs.
"$PMUSIM" gen --family alpha21264 --cycles 1 --seed 3 -o "$tmp/one.bin" >/dev/null
check alpha21264-one-record 0 "lock-step: 1 cycles, 0 mismatches" -- "$PMUSIM" run --family alpha21264 --stream "$tmp/one.bin"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
