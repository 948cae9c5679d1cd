#!/usr/bin/env bash
# run.sh - the formal properties of the RTL (docs/formal.md), the engine of `make formal`.
#
#   run.sh [--depth N] [--quick] [--out DIR] [--cache DIR] [--skip NAME]... FAMILY...
#
# FAMILY is a folder of formal/ (ev4, ev67, ita): its checkers formal/<family>/<family>_*_props.sv
# (each one's top is the module named as its file) wrap unchanged RTL modules, each property in
# an `ifdef PROP_<name>` block with its cover and a "killed by: <mutant>" line naming a mutation
# of tests/mutants/catalog; a name is used once in a family. For each property:
#   1. Yosys (read_verilog -formal -sv, prep, write_smt2) with its checker and the family's
#      sources the checker uses (tools/sources-used.sh: by module name, among the sources
#      rtl/<family>/family.mk lists, asked of make, never copied here);
#   2. yosys-smtbmc: BMC for N steps (a failure leaves a counterexample VCD), then
#      k-induction of length N (an unbounded proof when it closes);
#   3. the cover in cover mode: it must be reached within N steps (no vacuous proof);
#   4. the named mutant applied to a scratch copy of rtl/ (tests/mutants/run.sh --apply):
#      the BMC must fail, with a counterexample VCD.
# A block may also hold a "// yosys: <commands>" line (run after prep, e.g. a cutpoint) and a
# "// smtbmc: <options>" line (given to every yosys-smtbmc run of the property: --unroll, and
# for the Itanium's checkers z3's combined_solver.solver2_timeout, without which z3 stalls on
# their counter arithmetic). After those, Yosys drops the flop bits no property reads.
# Each counterexample of a checker `pmusim cex2replay` knows (the whole-top <family>_pmu_props;
# the Itanium's counters, I-EAR, D-EAR, BTB, ranges and event-select checkers)
# becomes a replay beside it (when PMUSIM, default
# build/pmusim, is built: replay-stream.txt and replay-writes.txt), and the line after the
# property's prints the `pmusim run` that replays it (docs/formal.md, "From a
# counterexample to a replay"; formal/replay.sh runs it on the mutant's RTL too).
# One line per property, then "N passed, M failed"; exit 1 if any failed, 2 on bad usage.
# --quick: depth 8 (make test). Default depth 20. Solver: z3 (FORMAL_SOLVER to change).
# --skip NAME: leave property NAME out (a property of one of the families; make test leaves
# out the ones too slow for it, formal/tests/formal.sh).
# --cache DIR: a passing property whose inputs are byte for byte those of a pass kept in
# DIR/<family>/<name>/depth-<N>/ is not proven again: its line and files are that pass's, the
# line saying so ("inputs unchanged since ..."); its replays are converted anew. The inputs
# (key_inputs below, kept beside the result as inputs.txt): this script and
# tools/sources-used.sh, the checker and the sources it uses, the family's list of sources,
# every file of its generated include folder, the files its yosys lines name, the mutant's
# catalog block, tests/mutants/run.sh and the file it mutates, the depth, the solver, and the
# versions of Yosys, yosys-smtbmc and the solver. A failure is never kept.
set -uo pipefail
cd "$(dirname "$0")/.."

depth=20 out=build/formal cache= fams=() skips=()
solver=${FORMAL_SOLVER:-z3}
usage() { echo "run.sh: $1 (usage: run.sh [--depth N] [--quick] [--out DIR] [--cache DIR] [--skip NAME]... FAMILY...)" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
        --depth) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || usage "--depth: expected a positive number of steps, got '${2:-}'"
                 depth=$2; shift 2 ;;
        --quick) depth=8; shift ;;
        --out) out=${2:?--out: expected a directory}; shift 2 ;;
        --cache) [ -n "${2:-}" ] || usage "--cache: expected a directory"
                 cache=$2; shift 2 ;;
        --skip) [[ ${2:-} =~ ^[a-z0-9_]+$ ]] || usage "--skip: expected a property name, got '${2:-}'"
                skips+=("$2"); shift 2 ;;
        -*) usage "unknown option '$1'" ;;
        *) compgen -G "formal/$1/$1_*_props.sv" > /dev/null ||
               usage "no family '$1' (expected one of: $(cd formal && for d in */; do d=${d%/}
                   compgen -G "$d/${d}_*_props.sv" > /dev/null && printf '%s ' "$d"; done))"
           fams+=("$1"); shift ;;
    esac
done
[ ${#fams[@]} -gt 0 ] || usage "expected a family"
for sk in ${skips[@]+"${skips[@]}"}; do
    grep -qx "\`ifdef PROP_$sk" $(for f in "${fams[@]}"; do echo formal/"$f"/"$f"_*_props.sv; done) ||
        usage "--skip: no property '$sk' in ${fams[*]}"
done
command -v yosys-smtbmc > /dev/null || { echo "run.sh: yosys-smtbmc not found (make deps)" >&2; exit 2; }
command -v "$solver" > /dev/null || { echo "run.sh: solver '$solver' not found (make deps)" >&2; exit 2; }
if [ -n "$cache" ]; then
    # the results are deleted and rewritten under --out: the cache must not be in it, nor it in the cache
    c=$(realpath -m "$cache") o=$(realpath -m "$out")
    [[ "$c/" == "$o/"* || "$o/" == "$c/"* ]] && usage "--cache: '$cache' and --out '$out' must be apart"
    # the tools' versions (yosys-smtbmc is a script of Yosys's: its text and Yosys's version)
    tools_id="yosys: $(yosys -V 2>&1)
yosys-smtbmc: $(sha256sum < "$(command -v yosys-smtbmc)" | cut -d' ' -f1), $(python3 --version 2>&1)
solver $solver: $("$solver" --version 2>&1 | head -1)"
fi

. tools/sources-used.sh

# smt2 FILE_OUT PROPERTY ROOT: the model of checker $props (top $top) with one property, from
# the sources under ROOT (the tree, or a mutant's copy) that the checker uses, with the block's
# yosys commands; the log beside it.
smt2() {
    local srcs=() s
    for s in $rtl_srcs; do srcs+=("$3/$s"); done
    read -r -a srcs <<< "$(sources_used "$props" "${srcs[@]}")"
    yosys -q -l "$1.log" -p "read_verilog -formal -sv -DPROP_$2 -I$inc ${srcs[*]} $props; \
        prep -flatten -top $top; $ycmds opt -full; opt_dff; wreduce; opt_clean; async2sync; dffunmap; \
        write_smt2 -wires $1" > /dev/null 2>&1
}

# smtbmc LOG ARGS...: runs yosys-smtbmc with the block's options; prints PASSED, FAILED or ERROR.
smtbmc() {
    local log=$1; shift
    # shellcheck disable=SC2086 # the block's options, one word each
    yosys-smtbmc -s "$solver" $sopts "$@" > "$log" 2>&1
    if grep -q 'Status: PASSED' "$log"; then echo PASSED
    elif grep -q 'Status: FAILED' "$log"; then echo FAILED
    else echo ERROR; fi
}

pmusim=${PMUSIM:-build/pmusim}
# The checkers cex2replay converts (its --help lists them); without pmusim, the whole-top ones.
replayable=
[ -x "$pmusim" ] && replayable=$("$pmusim" cex2replay --help 2>&1 | grep -o '[a-z0-9_]*_props' | tr '\n' ' ')
# replay_line VCD [TAIL]: the replay of a counterexample, as a line under the property's: the
# run that replays it (converted now when pmusim is built), then TAIL; or how to convert it.
replay_line() {
    local d log
    d=$(dirname "$1") log=$(dirname "$1")/cex2replay.log
    if [ ! -x "$pmusim" ]; then
        echo "     replay: $pmusim cex2replay $1 (make pmusim first), then the run it prints"
    elif "$pmusim" cex2replay "$1" > "$log" 2>&1; then
        echo "     replay: $(sed -n '/^replay /{n;s/^ *//p}' "$log")$2"
    else
        echo "     replay: pmusim cex2replay failed: $(tail -1 "$log")"
    fi
}

# key_inputs: what the verdict of property $p of family $fam (checker $props, its block's
# mutant $mutant and yosys commands $ycmds) depends on, a line each, files by their sha256;
# the sha256 of these lines is its key in the cache.
key_inputs() {
    local mblock mfile
    echo "property $fam/$p, depth $depth"
    echo "$tools_id"
    echo "sources of $fam: $rtl_srcs"
    mblock=$(awk -v h="[$mutant]" '$0 == h { on = 1; print; next } /^\[/ { on = 0 }
        on && !/^[[:space:]]*(#|$)/' "${MUTANTS_CATALOG:-tests/mutants/catalog}")
    echo "mutant $mutant, its block of ${MUTANTS_CATALOG:-tests/mutants/catalog}:"
    printf '%s\n' "$mblock"
    mfile=$(sed -n 's/^file *//p' <<< "$mblock")
    # shellcheck disable=SC2046 # file names, one word each
    sha256sum formal/run.sh tools/sources-used.sh tests/mutants/run.sh "$props" \
        $(sources_used "$props" $rtl_srcs) $(find "$inc" -type f | LC_ALL=C sort) \
        $(grep -o 'script [^;]*' <<< "$ycmds" | cut -d' ' -f2) ${mfile:+"$mfile"} 2>&1
}

# keep: stores the pass of property $p (its files $d, its line $line, the out folder in it
# written $dir_mark) as cache entry $e: built beside it with its key written last, then renamed
# into place, so that an interrupted run leaves no half entry (a missing one: proven again).
dir_mark='{dir}'
keep() {
    local t=$e.tmp.$$
    rm -rf "$t"
    { mkdir -p "$t" && cp -r "$d" "$t/files" && printf '%s\n' "${line//"$d"/$dir_mark}" > "$t/verdict" &&
      date -u '+%Y-%m-%d %H:%M UTC' > "$t/date" && printf '%s\n' "$key" > "$t/key" &&
      rm -rf "$e" && mv -T "$t" "$e"; } 2> /dev/null || rm -rf "$t"
}

# prove: proves property $p of checker $props in folder $d (its block's mutant $mutant,
# yosys commands $ycmds, smtbmc options $sopts): sets its line and ok (1 when it passed).
prove() {
    line="$fam/$p:"
    ok=1
    if ! smt2 "$d/model.smt2" "$p" .; then
        line+=" yosys failed ($d/model.smt2.log)"; ok=0
    else
        case $(smtbmc "$d/bmc.log" -t "$depth" --dump-vcd "$d/cex.vcd" "$d/model.smt2") in
            PASSED)
                if [ "$(smtbmc "$d/induction.log" -i -t "$depth" "$d/model.smt2")" = PASSED ]; then
                    line+=" proven (k-induction, k=$depth)"
                else
                    line+=" bmc depth $depth passed (k-induction did not close)"
                fi ;;
            FAILED) line+=" FAILED, counterexample $d/cex.vcd"; ok=0 ;;
            *) line+=" solver error ($d/bmc.log)"; ok=0 ;;
        esac
        if [ "$(smtbmc "$d/cover.log" -c -t "$depth" "$d/model.smt2")" = PASSED ] &&
           step=$(sed -n 's/.*Reached cover statement.* in step \([0-9]*\)\..*/\1/p' "$d/cover.log" | head -1) &&
           [ -n "$step" ]; then
            line+="; cover reached at step $step"
        else
            line+="; cover NOT reached in $depth steps ($d/cover.log)"; ok=0
        fi
    fi
    if [ -z "$mutant" ]; then
        line+="; no 'killed by:' mutant"; ok=0
    else
        m=$d/mutant
        mkdir -p "$m"; cp -r rtl "$m/rtl"
        if ! bash tests/mutants/run.sh --apply "$mutant" "$m" > /dev/null 2> "$m/apply.log"; then
            line+="; mutant $mutant does not apply ($m/apply.log)"; ok=0
        elif ! smt2 "$m/model.smt2" "$p" "$m"; then
            line+="; mutant $mutant: yosys failed ($m/model.smt2.log)"; ok=0
        elif [ "$(smtbmc "$m/bmc.log" -t "$depth" --dump-vcd "$m/cex.vcd" "$m/model.smt2")" = FAILED ] &&
             [ -s "$m/cex.vcd" ]; then
            line+="; killed by $mutant ($m/cex.vcd)"
        else
            line+="; mutant $mutant SURVIVES $depth steps ($m/bmc.log)"; ok=0
        fi
        rm -rf "$m/rtl"
    fi
}

passed=0 failed=0
for fam in "${fams[@]}"; do
    vars=$(make -s --no-print-directory formal-files FORMAL_FAMILY="$fam" 2>&1) ||
        { echo "run.sh: make formal-files for $fam failed: $vars" >&2; exit 2; }
    rtl_srcs=$(sed -n 1p <<< "$vars")
    inc=$(sed -n 2p <<< "$vars"); inc=${inc#-I}
    [ -n "$rtl_srcs" ] && [ -d "$inc" ] ||
        { echo "run.sh: $fam: no sources or no generated includes ($inc): run make formal" >&2; exit 2; }
    # Every checker's properties, as "file name" (a name once in the family).
    jobs=() seen=
    for props in formal/"$fam"/"$fam"_*_props.sv; do
        names=$(sed -n 's/^`ifdef PROP_\([a-z0-9_]*\)$/\1/p' "$props")
        [ -n "$names" ] || { echo "run.sh: $props: no \`ifdef PROP_<name> block" >&2; exit 2; }
        for p in $names; do
            grep -qx "$p" <<< "$seen" && { echo "run.sh: $props: property $p is defined twice in $fam" >&2; exit 2; }
            seen+=$p$'\n'
            [[ " ${skips[*]-} " == *" $p "* ]] || jobs+=("$props $p")
        done
    done
    for job in "${jobs[@]}"; do
        props=${job% *} p=${job#* }
        top=$(basename "$props" .sv)
        d=$out/$fam/$p
        rm -rf "$d"; mkdir -p "$d"
        start=$(date +%s)
        block=$(sed -n "/^\`ifdef PROP_$p\$/,/^\`endif/p" "$props")
        mutant=$(sed -n 's/.*killed by: \([a-z0-9-]*\).*/\1/p' <<< "$block" | head -1)
        ycmds=$(sed -n 's|.*// yosys: \(.*\)|\1;|p' <<< "$block" | tr '\n' ' ')
        sopts=$(sed -n 's|.*// smtbmc: \(.*\)|\1|p' <<< "$block" | tr '\n' ' ')
        e=
        if [ -n "$cache" ]; then
            e=$cache/$fam/$p/depth-$depth
            key_inputs > "$d/inputs.txt"
            key=$(sha256sum < "$d/inputs.txt" | cut -d' ' -f1)
        fi
        if [ -n "$e" ] && [ "$(cat "$e/key" 2> /dev/null)" = "$key" ] && cp -r "$e/files/." "$d/" 2> /dev/null; then
            v=$(cat "$e/verdict")
            line="${v//"$dir_mark"/$d} (inputs unchanged since $(cat "$e/date"): result reused from $e)"
            ok=1
        else
            prove
            [ -n "$e" ] && [ "$ok" = 1 ] && keep
            line+=" [$(( $(date +%s) - start )) s]"
        fi
        if [ "$ok" = 1 ]; then echo "ok   $line"; passed=$((passed + 1))
        else echo "FAIL $line"; failed=$((failed + 1)); fi
        # a checker cex2replay does not know (a sub-block's, with no mapping to a stream): no replay
        if [ -n "$replayable" ]; then [[ " $replayable " == *" $top "* ]] || continue
        else [ "$top" = "${fam}_pmu_props" ] || continue; fi
        [ -s "$d/cex.vcd" ] && replay_line "$d/cex.vcd"
        [ -s "$d/mutant/cex.vcd" ] && replay_line "$d/mutant/cex.vcd" " (on the mutant's RTL too: bash formal/replay.sh $d)"
    done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
