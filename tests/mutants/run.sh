#!/usr/bin/env bash
# run.sh - mutation testing of the RTL (docs/mutants.md), the engine of `make mutants`.
#
#   run.sh --out DIR [--only ID]   each mutation of tests/mutants/catalog (or only ID): a
#                                  copy of rtl/ with the one change, every Verilated variant
#                                  whose sources include the file built (tests/mutants/
#                                  mutants.mk), then the fast part of the suite against each
#                                  until a test fails (killed)
#   run.sh --check                 every mutation applies to today's RTL: its text is in its
#                                  file exactly once, and a Verilated variant uses the file
#                                  (make test runs this; it builds nothing)
#   run.sh --apply ID ROOT         only apply mutation ID to ROOT/<its file> (ROOT a copy of
#                                  the tree, rtl/ under it); make formal uses it (formal/run.sh)
#
# A mutant the tests do not kill is a survivor: add a test that kills it, or mark it
# `equivalent` in the catalog with the reason it cannot change what is visible.  A mutant
# marked equivalent that a test kills is a catalog error too.  Report: DIR/report.txt.
# Exit status: 0 every mutant killed or documented equivalent, 1 otherwise, 2 bad catalog.
set -uo pipefail
cd "$(dirname "$0")/../.."
catalog=${MUTANTS_CATALOG:-tests/mutants/catalog} # (another catalog: the tests of this script)
out= only= check=0 apply_id= apply_root=
while [ $# -gt 0 ]; do
    case $1 in
        --out) out=${2:?--out: expected a directory}; shift 2 ;;
        --only) only=${2:?--only: expected a mutant id}; shift 2 ;;
        --check) check=1; shift ;;
        --apply) apply_id=${2:?--apply: expected a mutant id and a directory}
                 apply_root=${3:?--apply: expected a mutant id and a directory}; shift 3 ;;
        *) echo "run.sh: unknown argument '$1' (expected --out DIR, --only ID, --check or --apply ID ROOT)" >&2; exit 2 ;;
    esac
done
[ "$check" = 1 ] || [ -n "$out" ] || [ -n "$apply_id" ] ||
    { echo "run.sh: expected --out DIR, --check or --apply ID ROOT" >&2; exit 2; }

# ---- the catalog: blocks "[id]" then "key value" lines ------------------------------------
ids=()
declare -A file from to what equiv line_of
id= n=0
bad() { echo "$catalog:$1: $2" >&2; exit 2; }
while IFS= read -r l || [ -n "$l" ]; do
    n=$((n + 1))
    [[ $l =~ ^[[:space:]]*(#|$) ]] && continue
    if [[ $l =~ ^\[([a-z0-9-]+)\]$ ]]; then
        id=${BASH_REMATCH[1]}
        [ -z "${line_of[$id]:-}" ] || bad "$n" "mutant '$id' defined twice (first at line ${line_of[$id]})"
        ids+=("$id"); line_of[$id]=$n
        continue
    fi
    [ -n "$id" ] || bad "$n" "expected a mutant header [id] before '$l'"
    [[ $l =~ ^variants\ + ]] &&
        bad "$n" "'variants' is not written: every Verilated variant whose sources include the file is tested"
    [[ $l =~ ^(file|from|to|what|equivalent)\ +(.*)$ ]] ||
        bad "$n" "expected 'file', 'from', 'to', 'what' or 'equivalent' and a value, found '$l'"
    key=${BASH_REMATCH[1]} val=${BASH_REMATCH[2]}
    case $key in
        file) file[$id]=$val ;; from) from[$id]=$val ;;
        to) to[$id]=$val ;; what) what[$id]=$val ;; equivalent) equiv[$id]=$val ;;
    esac
done < "$catalog"
[ ${#ids[@]} -gt 0 ] || bad "$n" "no mutants"
for id in "${ids[@]}"; do
    [ -n "${file[$id]:-}" ] || bad "${line_of[$id]}" "mutant '$id' has no 'file'"
    [ -n "${from[$id]:-}" ] || bad "${line_of[$id]}" "mutant '$id' has no 'from'"
    [ -n "${to[$id]:-}" ] || bad "${line_of[$id]}" "mutant '$id' has no 'to'"
    [ -n "${what[$id]:-}" ] || bad "${line_of[$id]}" "mutant '$id' has no 'what'"
    [ "${from[$id]}" != "${to[$id]}" ] || bad "${line_of[$id]}" "mutant '$id': 'to' is 'from'"
done
if [ -n "$only" ] && [ -z "${line_of[$only]:-}" ]; then
    echo "run.sh: --only: no mutant '$only' in $catalog" >&2; exit 2
fi

# The Verilated variants whose sources include file $1 (tests/mutants/mutants.mk), one line.
declare -A variants_of
variants_of() {
    [ -n "${variants_of[$1]+x}" ] ||
        variants_of[$1]=$(make -s --no-print-directory mutant-variants MUTANT_FILE="$1" 2>/dev/null)
    echo "${variants_of[$1]}"
}

# Applies mutant $1 to the file under root $2 (in place): 0, or 1 with the reason printed.
apply() {
    local id=$1 f=$2/${file[$1]}
    [ -f "$f" ] || { echo "$catalog:${line_of[$id]}: mutant '$id': no file ${file[$id]}"; return 1; }
    FROM=${from[$id]} TO=${to[$id]} perl -0777 -i -pe '
        BEGIN { $f = $ENV{FROM}; $t = $ENV{TO}; }
        my $n = () = /\Q$f\E/g;
        die "found $n times, expected once\n" if $n != 1;
        s/\Q$f\E/$t/;' "$f" 2>"$f.why" && { rm -f "$f.why"; return 0; }
    echo "$catalog:${line_of[$id]}: mutant '$id': 'from' text in ${file[$id]}: $(cat "$f.why")"
    rm -f "$f.why"
    return 1
}

if [ -n "$apply_id" ]; then
    [ -n "${line_of[$apply_id]:-}" ] || { echo "run.sh: --apply: no mutant '$apply_id' in $catalog" >&2; exit 2; }
    apply "$apply_id" "$apply_root" >&2 || exit 1
    echo "${file[$apply_id]}"
    exit 0
fi

if [ "$check" = 1 ]; then
    scratch=$(mktemp -d /tmp/pmusim_mutants.XXXXXX)
    trap 'rm -rf "$scratch"' EXIT
    fails=0
    for id in "${ids[@]}"; do
        mkdir -p "$scratch/$id/$(dirname "${file[$id]}")"
        cp "${file[$id]}" "$scratch/$id/${file[$id]}" 2>/dev/null || true
        if ! apply "$id" "$scratch/$id"; then
            fails=$((fails + 1))
        elif [ -z "$(variants_of "${file[$id]}")" ]; then
            echo "$catalog:${line_of[$id]}: mutant '$id': no Verilated variant uses ${file[$id]}"
            fails=$((fails + 1))
        fi
    done
    echo "mutants: ${#ids[@]} in the catalog, $fails do not apply"
    [ "$fails" -eq 0 ]
    exit
fi

# ---- the fast part of the suite, per family --------------------------------------------------
# Each family names, in its fragment (verilator/<family>/family.mk: MUTANT_KILL_TESTS_<variant>),
# the tests a mutant of each of its variants must fail: lock-step conformance with every
# configuration and both services, the built-in run, and (Itanium) the directed tests and the
# EAR, BTB and general-event unit tests on the RTL, (21264) the reference model's unit tests on
# the RTL; a mutant is killed by the first that fails.
kill_tests() { # variant -> lines "name|command"
    local t
    t=$(make -s --no-print-directory mutant-kill-tests MUTANT_VARIANT="$1" 2>/dev/null)
    if [ -n "$t" ]; then printf '%s\n' "$t"; else echo "unknown|false"; fi
}

mkdir -p "$out"
report=$out/report.txt
: > "$report.tmp"
killed=0 survived=0 equivalent=0 broken=0
for id in "${ids[@]}"; do
    [ -z "$only" ] || [ "$id" = "$only" ] || continue
    dir=$out/$id
    rm -rf "$dir/rtl"
    mkdir -p "$dir"
    cp -r rtl "$dir/rtl"
    start=$(date +%s)
    if ! apply "$id" "$dir" > "$dir/apply.log"; then
        echo "BROKEN   $id: $(cat "$dir/apply.log")" | tee -a "$report.tmp"; broken=$((broken + 1)); continue
    fi
    vs=$(variants_of "${file[$id]}")
    if [ -z "$vs" ]; then
        echo "BROKEN   $id: no Verilated variant uses ${file[$id]}" | tee -a "$report.tmp"; broken=$((broken + 1)); continue
    fi
    if ! make --no-print-directory mutant-build MUTANT_DIR="$dir" MUTANT_VARIANTS="$vs" > "$dir/build.log" 2>&1; then
        echo "BROKEN   $id: the mutant does not build (see $dir/build.log)" | tee -a "$report.tmp"; broken=$((broken + 1)); continue
    fi
    by=
    for v in $vs; do
        while IFS='|' read -r name cmd; do
            set -- $cmd
            prog=$dir/$1; shift
            if ! timeout 900 "$prog" "$@" > "$dir/$name.log" 2>&1; then by=$name; break 2; fi
        done < <(kill_tests "$v")
    done
    secs=$(( $(date +%s) - start ))
    if [ -n "$by" ] && [ -n "${equiv[$id]:-}" ]; then
        echo "KILLED   $id by $by, but the catalog calls it equivalent: ${equiv[$id]} ($dir/$by.log)" | tee -a "$report.tmp"
        broken=$((broken + 1))
    elif [ -n "$by" ]; then
        echo "killed   $id by $by (${secs} s): ${what[$id]}" | tee -a "$report.tmp"; killed=$((killed + 1))
    elif [ -n "${equiv[$id]:-}" ]; then
        echo "equiv    $id (${secs} s): ${what[$id]}; equivalent: ${equiv[$id]}" | tee -a "$report.tmp"; equivalent=$((equivalent + 1))
    else
        echo "SURVIVED $id (${secs} s): ${what[$id]}" | tee -a "$report.tmp"; survived=$((survived + 1))
    fi
done
echo "mutants: $killed killed, $survived survived, $equivalent equivalent (documented), $broken broken" | tee -a "$report.tmp"
mv "$report.tmp" "$report"
[ "$survived" -eq 0 ] && [ "$broken" -eq 0 ]
