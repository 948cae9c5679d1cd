#!/usr/bin/env bash
# ev67_cli.sh - the Alpha 21264/EV67 family from the command line, as far as it goes
# today: its streams (pmusim gen and conv, both forms, a stream broken across records
# refused with its line) and the commands that need its software refusing it with one
# line.  Run from the repository root (make test does).  Ends with "N passed, M failed".
set -u

PMUSIM=${PMUSIM:-build/pmusim}
tmp=$(mktemp -d /tmp/pmusim_ev67.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../../tests/cli_lib.sh"

A=(--family alpha21264)

if [ ! -x "$PMUSIM" ]; then
    echo "FAIL: $PMUSIM not built"
    echo "0 passed, 1 failed"
    exit 1
fi

check gen-text 0 "regenerate: pmusim gen --seed 3 --cycles 20000 --mode workload --procs 4 --format text --family alpha21264" -- "$PMUSIM" gen "${A[@]}" --seed 3 --cycles 20000 -o "$tmp/w.txt"
check gen-binary 0 "seed 3" -- "$PMUSIM" gen "${A[@]}" --seed 3 --cycles 20000 -o "$tmp/w.bin"
check gen-random 0 "seed 4" -- "$PMUSIM" gen "${A[@]}" --seed 4 --cycles 20000 --mode random -o "$tmp/r.bin"
check conv-to-text 0 "" -- "$PMUSIM" conv "${A[@]}" "$tmp/w.bin" "$tmp/w2.txt"
ok   text-and-binary-agree -- cmp -s "$tmp/w.txt" "$tmp/w2.txt"
check conv-random 0 "" -- "$PMUSIM" conv "${A[@]}" "$tmp/r.bin" "$tmp/r.txt"
check conv-back 0 "" -- "$PMUSIM" conv "${A[@]}" "$tmp/r.txt" "$tmp/r2.bin"
ok   random-round-trip -- cmp -s "$tmp/r.bin" "$tmp/r2.bin"

# A record that retires an instruction never fetched breaks the stream's rules.
head -5 "$tmp/w.txt" >"$tmp/bad.txt"
echo "retire=999999" >>"$tmp/bad.txt"
check bad-stream-line 2 "bad.txt:6" -- "$PMUSIM" conv "${A[@]}" "$tmp/bad.txt" "$tmp/bad.bin"
check run-refused 2 "--family alpha21264: the family has no commands yet" -- "$PMUSIM" run "${A[@]}" --cycles 10
check conform-refused 2 "--family alpha21264: the family has no commands yet" -- "$PMUSIM" conform "${A[@]}" --runs 1

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
