#!/usr/bin/env bash
# new_family.sh - a new family is its own files plus one registration line
# (docs/adding-a-family.md): in a copy of the tree, tools/new-family.sh toy scaffolds a fourth
# family, which must build, run in lock-step (`pmusim run --family toy`: 0 mismatches over a
# nonzero number of records, the driver exact), pass its own tests (which `make test` would
# run), lint clean, and leave `git status` with only new files under the family's own paths
# (and tests/fuzz/config_<name>.c, its part of the configuration fuzz harness) and
# include/common/pmu_families.def with exactly one added line.
#
# The copy holds the files git tracks, as they are in the working tree (so a committed HEAD is
# what is tested, and uncommitted edits to tracked files too; untracked files are left out,
# as a commit would leave them), committed in a scratch repository of its own so that its
# `git status` shows the scaffold's changes alone.  The build ($BUILD, default build/) is
# copied in with its times, newer than the sources, so that only what the new family adds is
# built: its objects, its Verilated top, and the links.  Run from the repository root after
# the build (make test does).  Ends with "N passed, M failed".  KEEP_TMP=1 keeps the copy to look
# into (its folder is printed).
set -u
# Its own make runs, whatever make runs it (no jobserver or flags of the outer make).
unset MAKEFLAGS MFLAGS MAKELEVEL

BUILD=${BUILD:-build}
JOBS=${JOBS:-2}
name=toy
root=$(pwd)
passed=0 failed=0
tmp=$(mktemp -d /tmp/pmusim_new_family.XXXXXX)
cleanup() { [ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"; }
trap cleanup EXIT
trap 'cleanup; trap - INT; kill -INT $$' INT
trap 'cleanup; exit 143' TERM
trap 'cleanup; exit 129' HUP

ok() { echo "ok   $1"; passed=$((passed + 1)); }
fail() {
    echo "FAIL $1"
    [ -z "${2:-}" ] || sed 's/^/    /' "$2" | tail -25
    failed=$((failed + 1))
}
finish() {
    [ -z "${KEEP_TMP:-}" ] || echo "kept: $tmp"
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}

if [ ! -x "$BUILD/pmusim" ]; then
    fail "$BUILD/pmusim not built"
    finish
fi

# ---- the copy ---------------------------------------------------------------------------
tree=$tmp/tree
mkdir -p "$tree"
if ! git ls-files -z | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf - | tar -xf - -C "$tree"; then
    fail "copy the tracked files"
    finish
fi
# What the family's build and tests need of the build: the objects, generated files, Verilated
# variants, archives (not the test binaries, benches, synthesis or examples, nor what the
# suites make test runs beside this one write meanwhile: their logs, make real's outputs).
mkdir -p "$tree/$BUILD"
tar -C "$BUILD" --exclude=./sv_tests --exclude=./tests --exclude=./bench --exclude='./ir*' \
    --exclude=./test-logs --exclude=./real --exclude=./sim.png --exclude=./rtl \
    --exclude=./examples --exclude=./synth --exclude=./fuzz/bin --exclude=./fuzz/obj --exclude=./fuzz/corpus \
    --exclude=./fuzz/crashes --exclude=./conformance --exclude=./def-checks -cf - . | tar -xf - -C "$tree/$BUILD"
cd "$tree" || exit 1
git init -q && git add -A && git -c user.name=test -c user.email=test@localhost commit -qm base ||
    { fail "a scratch repository of the copy"; finish; }

# ---- the scaffold -----------------------------------------------------------------------
if bash tools/new-family.sh "$name" >"$tmp/scaffold.log" 2>&1; then ok scaffold-$name; else fail scaffold-$name "$tmp/scaffold.log"; finish; fi

# Refusals: an existing name, a name that is not a C identifier; nothing written either time.
before=$(git status --porcelain | md5sum)
for bad in "$name" itanium 2fast Toy; do
    if bash tools/new-family.sh "$bad" >"$tmp/refuse.log" 2>&1; then
        fail "refuses-$bad (it succeeded)" "$tmp/refuse.log"
    elif [ "$(wc -l <"$tmp/refuse.log")" -ne 1 ] || ! grep -q "^new-family.sh: '$bad': " "$tmp/refuse.log"; then
        fail "refuses-$bad: one line naming it expected" "$tmp/refuse.log"
    elif [ "$(git status --porcelain | md5sum)" != "$before" ]; then
        fail "refuses-$bad: the tree changed"
    else
        ok "refuses-$bad"
    fi
done

# Only the family's new files, and one added registry line.  A file of the family's own has
# the family's name as a folder of its path or as a word of its file name (its page in docs/,
# its instruction-count baseline ir_baseline_<name>.txt, config_<name>.c of the fuzz harness,
# include/<layer>/<name>/..., tools/<name>/), and every template of the scaffold gave one.
git status --porcelain --untracked-files=all >"$tmp/status"
sed -n 's/^?? //p' "$tmp/status" | sort >"$tmp/new"
(cd tools/new-family && find . -type f -name '*.in' | sed -e 's|^\./||' -e 's|\.in$||' -e "s/NAME/$name/g") | sort >"$tmp/templates"
{
    grep -v -x ' M include/common/pmu_families.def' "$tmp/status" | grep -v '^?? '
    grep -v -E "(^|[/_])$name[/._-]" "$tmp/new" | sed 's/^/not the family'"'"'s: /'
    diff "$tmp/templates" "$tmp/new" | sed -n 's/^[<>] /not the templates'"'"' files: /p'
} >"$tmp/bad"
if [ ! -s "$tmp/bad" ] && grep -q -x ' M include/common/pmu_families.def' "$tmp/status" && [ -s "$tmp/new" ]; then
    ok "status-only-family-files ($(wc -l <"$tmp/new") new files)"
else
    fail "status-only-family-files:" "$tmp/bad"
fi
git diff --numstat include/common/pmu_families.def >"$tmp/numstat"
if [ "$(cat "$tmp/numstat")" = "$(printf '1\t0\tinclude/common/pmu_families.def')" ] &&
    git diff include/common/pmu_families.def | grep -q -x "+PMU_FAMILY($name)"; then
    ok registry-one-added-line
else
    git diff include/common/pmu_families.def >"$tmp/diff"
    fail registry-one-added-line "$tmp/diff"
fi

# ---- build, lock-step, tests ----------------------------------------------------------
san=()
[ "$BUILD" = build-san ] && san=(SAN=1)
fuzzers=(fuzz_config fuzz_stream_text fuzz_stream_binary fuzz_roundtrip)
bins=("$BUILD/pmusim" "$BUILD/tests/${name}_tests" "$BUILD/tests/${name}_rtl_unit_tests" "$BUILD/tests/csim_tests"
    "${fuzzers[@]/#/$BUILD/fuzz/replay/}")
if make --no-print-directory -j"$JOBS" "${san[@]}" "${bins[@]}" >"$tmp/make.log" 2>&1; then
    ok "build ($(grep -c -E '^(gcc|g\+\+|verilator) ' "$tmp/make.log") compiler and Verilator runs)"
else
    fail build "$tmp/make.log"
    finish
fi
# Only what the family adds was built: each compile is of one of the family's new files or of a
# file that expands the registry (include/common/pmu_families.def), each Verilator run is of the
# family's top (no other family's RTL includes regenerated, no other variant Verilated).
# (The files that include it, directly or through headers that do.)
pattern='pmu_families\.def' seen=' ' generic=''
while :; do
    hits=$(git grep -l -E "#[[:space:]]*include[[:space:]]*\"([^\"]*/)?($pattern)\"" -- '*.c' '*.cpp' '*.h')
    generic+=" $(printf '%s\n' $hits | grep -E '\.(c|cpp)$' | paste -sd' ')"
    more=()
    for h in $(printf '%s\n' $hits | grep '\.h$'); do
        b=${h##*/}
        [[ $seen == *" $b "* ]] || { seen+="$b "; more+=("$b"); }
    done
    [ ${#more[@]} -eq 0 ] && break
    pattern=$(printf '%s\n' "${more[@]}" | sed 's/\./\\./g' | paste -sd'|')
done
generic=$(printf '%s\n' $generic | sort -u | paste -sd'|')
# (Verilator's own makefiles compile with "-c -o OBJECT SOURCE" in the variant's folder.)
outside=$(grep -E '^(gcc|g\+\+) .* -c ' "$tmp/make.log" |
    sed -E -e 's/.* -c -o [^ ]+ ([^ ]+).*/\1/' -e 's/.* -c ([^ ]+) .*/\1/' |
    grep -v -x -F -f "$tmp/new" | grep -v -E "^(V${name}_pmu[_.].*|$generic)$")
outside+=$(grep -E '^verilator ' "$tmp/make.log" | grep -v -E -- "--top-module ${name}_pmu( |$)" | sed -E 's/.*--top-module ([^ ]+).*/\nverilator \1/')
if [ -z "$outside" ]; then
    ok "built-only-the-family"
else
    printf '%s\n' "$outside" | sort -u | head -20 >"$tmp/outside"
    fail "built-only-the-family: also built" "$tmp/outside"
fi
# Registered: make test would run the family's binaries and its command-line script.
printf 'print-tests:\n\t@echo $(GTEST_BINS) $(TEST_SCRIPTS)\n' >"$tmp/print.mk"
make --no-print-directory -s "${san[@]}" -f Makefile -f "$tmp/print.mk" print-tests >"$tmp/tests" 2>&1
for t in "$BUILD/tests/${name}_tests" "$BUILD/tests/${name}_rtl_unit_tests" "verilator/cli/$name/tests/${name}_cli.sh"; do
    if tr ' ' '\n' <"$tmp/tests" | grep -q -x -F "$t"; then ok "make-test-runs-$t"; else fail "make-test-runs-$t" "$tmp/tests"; fi
done

if "$BUILD/pmusim" run --family "$name" --cycles 100000 >"$tmp/run.log" 2>&1 &&
    grep -q -E '^lock-step: [1-9][0-9]* cycles, 0 mismatches$' "$tmp/run.log" &&
    grep -q '^exact: ' "$tmp/run.log"; then
    ok "lock-step: $(grep '^lock-step' "$tmp/run.log")"
else
    fail lock-step "$tmp/run.log"
fi
# run --json (docs/json.md): the scaffold's service member, the driver's count of the text.
"$BUILD/pmusim" run --family "$name" --cycles 100000 --json >"$tmp/run.json" 2>"$tmp/run.err"
if python3 -c '
import json, re, sys
d = json.load(open(sys.argv[1]))
n = int(re.search(r"^driver: (\d+) events", open(sys.argv[2]).read(), re.M).group(1))
assert d["lockstep"]["mismatches"] == 0 and d["exact"] is True and d["service"]["events"] == n > 0, d' \
    "$tmp/run.json" "$tmp/run.log" >"$tmp/json.log" 2>&1; then
    ok "run --json"
else
    cat "$tmp/run.json" "$tmp/run.err" >>"$tmp/json.log"
    fail "run --json" "$tmp/json.log"
fi
for t in "${name}_tests" "${name}_rtl_unit_tests"; do
    if "$BUILD/tests/$t" >"$tmp/$t.log" 2>&1 && grep -q -E '^\[  PASSED  \] [1-9]' "$tmp/$t.log"; then
        ok "$t ($(grep '^\[  PASSED' "$tmp/$t.log"))"
    else
        fail "$t" "$tmp/$t.log"
    fi
done
# The fuzz harnesses read the new family's records and its configuration too (their lists
# are the registry's), and its corpus replays hold.
for h in "${fuzzers[@]}"; do
    sym=pmu_family_dialect_$name
    [ "$h" = fuzz_config ] && sym=fuzz_config_$name
    if ! nm "$BUILD/fuzz/replay/$h" 2>/dev/null | grep -q " [TDR] $sym$"; then
        nm "$BUILD/fuzz/replay/$h" >"$tmp/nm" 2>&1
        fail "$h-covers-$name: $sym not linked"
    elif "$BUILD/fuzz/replay/$h" "tests/fuzz/corpus/$h" >"$tmp/$h.log" 2>&1; then
        ok "$h-covers-$name ($(tail -1 "$tmp/$h.log" | sed 's|.*: ||'))"
    else
        fail "$h-covers-$name" "$tmp/$h.log"
    fi
done
# The messages and help that list the families list the new one, as the registry orders them.
want="--family: expected $(bash tools/families.sh --or-list), found 'alpha'"
"$BUILD/pmusim" run --family alpha >"$tmp/unknown.log" 2>&1
if [[ $want == *", $name, found 'alpha'" || $want == *" or $name, found 'alpha'" ]] && grep -q -F "pmusim run: $want" "$tmp/unknown.log"; then
    ok "unknown-family-message-lists-$name"
else
    echo "expected: pmusim run: $want" >>"$tmp/unknown.log"
    fail "unknown-family-message-lists-$name" "$tmp/unknown.log"
fi
if make --no-print-directory -s help 2>/dev/null | grep -q -E "^make sim FAMILY=NAME .*: .* $name$"; then
    ok "make-help-lists-$name"
else
    fail "make-help-lists-$name"
fi
uname=${name^^}
if "$BUILD/tests/csim_tests" --gtest_filter="${uname}*" >"$tmp/csim.log" 2>&1 && grep -q -E '^\[  PASSED  \] [1-9]' "$tmp/csim.log"; then
    ok "csim_tests ${uname}* ($(grep '^\[  PASSED' "$tmp/csim.log"))"
else
    fail "csim_tests ${uname}*" "$tmp/csim.log"
fi
if PMUSIM=$BUILD/pmusim bash "verilator/cli/$name/tests/${name}_cli.sh" >"$tmp/cli.log" 2>&1; then
    ok "${name}_cli.sh ($(tail -1 "$tmp/cli.log"))"
else
    fail "${name}_cli.sh" "$tmp/cli.log"
fi
if make --no-print-directory "${san[@]}" "lint-$name" >"$tmp/lint.log" 2>&1 && ! grep -q '%Warning' "$tmp/lint.log"; then
    ok "lint-$name"
else
    fail "lint-$name" "$tmp/lint.log"
fi
# The layering rules and the cited paths hold for the new family's files too.
git add -A >/dev/null 2>&1
if bash tools/check-layers.sh >"$tmp/layers.log" 2>&1; then ok "layers-with-$name"; else fail "layers-with-$name" "$tmp/layers.log"; fi
if bash tools/check-cited-paths.sh >"$tmp/cited.log" 2>&1; then ok "cited-paths-with-$name"; else fail "cited-paths-with-$name" "$tmp/cited.log"; fi
cd "$root" || exit 1
finish
