#!/usr/bin/env bash
# formal.sh - make test's quick version of make formal (docs/formal.md): every family's
# properties (make formal-families) at a small depth (formal/run.sh --quick, depth 8; the
# Itanium's at 3: each proven or BMC-passed, its cover reached, its mutant caught with a
# counterexample, the counterexample's replay files written beside it for a checker
# pmusim cex2replay knows), and the refusals of bad usage (run.sh, make formal-files).
# The proofs keep their results in $BUILD/formal-cache (run.sh --cache): a property whose
# inputs have not changed since it passed is not proven again. The cache's own checks, on a
# copy of the files run.sh reads with a scratch cache, one property a family: a copy reuses the
# result, an edit of an RTL file the checker does not use too, and an edit of one it uses, of
# the checker or of the mutant's catalog block proves it again.
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
cache=${BUILD:-build}/formal-cache
for fam in $fams; do
    case $fam in ita) opt=(--depth 3 --skip ctr_step_maxincr) ;; *) opt=(--quick) ;; esac
    check "quick-proofs-$fam" 0 " 0 failed" -- bash formal/run.sh "${opt[@]}" --cache "$cache" --out "$tmp/out" "$fam"
    for d in "$tmp/out/$fam"/*/mutant; do
        p=$(basename "$(dirname "$d")")
        # the property's checker (the file with its block): a replay where cex2replay knows it
        props=$(grep -lx "\`ifdef PROP_$p" formal/"$fam"/"$fam"_*_props.sv | head -1)
        grep -qw "$(basename "$props" .sv)" <<< "$known" || continue
        ok "replay-files-$fam-$p" -- test -s "$d/replay-writes.txt" -a -s "$d/replay-stream.txt"
    done
done

# ---- the cache ------------------------------------------------------------------------------
# only FAMILY NAME: run.sh's options that leave out every property of the family but NAME.
only() {
    local n
    for n in $(sed -n 's/^`ifdef PROP_\([a-z0-9_]*\)$/\1/p' formal/"$1"/"$1"_*_props.sv); do
        [ "$n" = "$2" ] || printf -- '--skip %s ' "$n"
    done
}
# one_prop reused|proven LINE_FILE ARGS...: run.sh ARGS (on one property) passes it, its result
# reused from the cache or proven anew as expected; the property's line goes to LINE_FILE.
one_prop() {
    local want=$1 lines=$2 out got=proven
    shift 2
    out=$(bash "$@" 2>&1)
    grep -q '^ok ' <<< "$out" && grep -q '^1 passed, 0 failed$' <<< "$out" ||
        { echo "    expected one property passed:"; sed 's/^/    /' <<< "$out" | head -5; return 1; }
    grep -q 'inputs unchanged since .*: result reused from ' <<< "$out" && got=reused
    grep '^ok ' <<< "$out" > "$lines"
    [ "$got" = "$want" ] || { echo "    expected it $want, it was $got:"; sed 's/^/    /' "$lines"; return 1; }
}
# The copy: what run.sh reads (a stub Makefile answers formal-files as the tree's does).
t=$tmp/tree c=$tmp/cache
mkdir -p "$t/tools" "$t/tests/mutants" "$c"
cp -r formal rtl "$t/" && cp tools/sources-used.sh "$t/tools/" && cp tests/mutants/run.sh tests/mutants/catalog "$t/tests/mutants/"
printf 'formal-files:\n\t@cat formal-files.$(FORMAL_FAMILY)\n' > "$t/Makefile"
. tools/sources-used.sh
for fam in ev4 ita; do
    make -s --no-print-directory formal-files FORMAL_FAMILY="$fam" > "$t/formal-files.$fam"
    inc=$(sed -n 's/^-I//p' "$t/formal-files.$fam")
    mkdir -p "$t/$inc" && cp -r "$inc/." "$t/$inc/"
done
# ev4's first property (its run above kept its result), and the first of the Itanium's
# counters checker with a family source the checker does not use.
p4=$(sed -n 's/^`ifdef PROP_\([a-z0-9_]*\)$/\1/p' formal/ev4/ev4_pmu_props.sv | head -1)
pi=$(sed -n 's/^`ifdef PROP_\([a-z0-9_]*\)$/\1/p' formal/ita/ita_counters_props.sv | head -1)
ita_srcs=$(head -1 "$t/formal-files.ita")
unused=$(comm -23 <(tr ' ' '\n' <<< "$ita_srcs" | sort) \
    <(sources_used formal/ita/ita_counters_props.sv $ita_srcs | tr ' ' '\n' | sort) | head -1)
mkdir -p "$c/ev4/$p4" "$c/ita/$pi"
cp -r "$cache/ev4/$p4/." "$c/ev4/$p4/" && cp -r "$cache/ita/$pi/." "$c/ita/$pi/"
run4=("$t/formal/run.sh" --quick --cache "$c" --out "$tmp/c4" $(only ev4 "$p4") ev4)
ok cache-reused-in-a-copy -- one_prop reused "$tmp/l" "${run4[@]}"
if [ -z "$unused" ]; then
    echo "FAIL cache-reused-after-an-unused-edit: formal/ita/ita_counters_props.sv uses every source"
    failed=$((failed + 1))
else
    echo '// an edit' >> "$t/$unused"
    ok "cache-reused-after-an-unused-edit ($unused; ita/$pi)" -- \
        one_prop reused "$tmp/l" "$t/formal/run.sh" --depth 3 --cache "$c" --out "$tmp/ci" $(only ita "$pi") ita
fi
# a source the checker uses other than the one the mutant changes (that one is a key input too)
m=$(sed -n "/^\`ifdef PROP_$p4\$/,/^\`endif/s/.*killed by: \([a-z0-9-]*\).*/\1/p" formal/ev4/ev4_pmu_props.sv | head -1)
mfile=$(sed -n "/^\[$m\]\$/,/^file /s/^file *//p" tests/mutants/catalog)
used=$(sources_used formal/ev4/ev4_pmu_props.sv $(head -1 "$t/formal-files.ev4") | tr ' ' '\n' | grep -vx "$mfile" | head -1)
echo '// an edit' >> "$t/${used:-nosuch}"
ok "cache-proves-after-an-rtl-edit ($used)" -- one_prop proven "$tmp/l1" "${run4[@]}"
ok cache-reused-on-the-next-run -- one_prop reused "$tmp/l2" "${run4[@]}"
ok cache-reused-line-is-the-proven-one -- test "$(sed 's/ \[[0-9]* s\]$//' "$tmp/l1")" = "$(sed 's/ (inputs unchanged since .*//' "$tmp/l2")"
echo '// an edit' >> "$t/formal/ev4/ev4_pmu_props.sv"
ok cache-proves-after-a-checker-edit -- one_prop proven "$tmp/l" "${run4[@]}"
perl -0777 -i -pe "s/^(\\[\Q$m\E\\]\n(?:.*\n)*?what +.*)\$/\$1 (an edit)/m" "$t/tests/mutants/catalog"
ok "cache-proves-after-editing-mutant-$m" -- one_prop proven "$tmp/l" "${run4[@]}"

check bad-depth 2 "run.sh: --depth: expected a positive number of steps, got 'x'" -- bash formal/run.sh --depth x ev4
check unknown-family 2 "run.sh: no family 'nosuch'" -- bash formal/run.sh nosuch
check formal-files-unknown 2 "formal-files: no family 'nosuch'" -- make -s --no-print-directory formal-files FORMAL_FAMILY=nosuch
check no-family 2 "run.sh: expected a family" -- bash formal/run.sh --quick
check skip-unknown 2 "run.sh: --skip: no property 'nosuch' in ev4" -- bash formal/run.sh --skip nosuch ev4
check skip-bad-name 2 "run.sh: --skip: expected a property name, got ''" -- bash formal/run.sh ev4 --skip
check cache-no-dir 2 "run.sh: --cache: expected a directory" -- bash formal/run.sh ev4 --cache
check cache-in-out 2 "run.sh: --cache: '$tmp/o/c' and --out '$tmp/o' must be apart" -- bash formal/run.sh --out "$tmp/o" --cache "$tmp/o/c" ev4
check out-in-cache 2 "run.sh: --cache: '$tmp/c' and --out '$tmp/c/o' must be apart" -- bash formal/run.sh --out "$tmp/c/o" --cache "$tmp/c" ev4

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
