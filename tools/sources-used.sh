# sources-used.sh - sourced (not run) by the scripts that compile a top with only the RTL
# files it uses: sv_tests/run.sh (a testbench) and formal/run.sh (a checker).
#
# sources_used TOP SOURCE...: the files among SOURCE... that TOP (a file) instantiates,
# directly or through them (docs/ita-rtl.md, "Testbenches"): each file holds the module of its
# name, and a file uses a module when the name appears in it as a word outside // comments (a
# mention in a block comment only adds a dependency).  A top is compiled with these files
# alone, so a module this misses fails the build instead of leaving a stale one, and a change
# to a module the top does not use rebuilds (or reproves) nothing.  Printed on one line in
# the order given (leaves first).
sources_used() {
    local tb=$1; shift
    local -A used=() file_of=()
    local -a todo=("$tb")
    local f m n
    for m in "$@"; do n=${m##*/}; file_of[${n%.sv}]=$m; done
    while [ ${#todo[@]} -gt 0 ]; do
        f=${todo[0]}
        todo=("${todo[@]:1}")
        # the file's words (grep -w's: letters, digits, '_') outside // comments, once each
        while read -r n; do
            m=${file_of[$n]:-}
            [ -n "$m" ] && [ -z "${used[$m]:-}" ] || continue
            used[$m]=1
            todo+=("$m")
        done < <(sed 's://.*::' "$f" | grep -oE '[[:alnum:]_]+' | sort -u)
    done
    local out=()
    for m in "$@"; do
        [ -n "${used[$m]:-}" ] && out+=("$m")
    done
    echo "${out[*]}"
}
