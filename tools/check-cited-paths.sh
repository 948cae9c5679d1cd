#!/usr/bin/env bash
# check-cited-paths.sh [ROOT] - every repository path that the docs and the comments cite
# exists: a token such as include/common/ita/ita_regs.def or docs/ev67.md in a tracked text file
# (Markdown, C, C++, Verilog, shell, make, .def) names a file or folder of the tree.  Prints
# each stale citation as FILE:LINE: PATH and exits 1 when there is one.
#
# What counts as a citation: a token that starts with one of the project's top folders,
# is not part of a longer path (build/tests/x, /usr/include/x), ends in a file name with
# an extension, and has no template characters (<family>, *, {a,b}, $(VAR)).  A token whose
# folder does not exist here cites another project's tree (libpfm's include/perfmon/,
# OSF/1's include/sys/, Linux's include/uapi/) and is left alone.  A header may be cited as
# code includes it, from include/ ("sw/ita/ita_drv.h" is include/sw/ita/ita_drv.h: the
# layers of include/ are named as the folders that implement them).  This script and its
# test are not read: their examples are made up.
set -u
root=${1:-.}
cd "$root" || exit 2
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "check-cited-paths: $root is not a git work tree (the check reads the tracked files)"
    exit 2
fi
tops='include|verilator|rtl|csim|sw|stream|tests|tools|systemc|sv_tests|docs|examples'
exts='c|h|cpp|hpp|sv|svh|vh|v|sh|mk|md|def|cfg|txt|gtkw|json|py|tcl|ys|sby|trace|bin|fst|vcd'
stale=$(git ls-files -z -- '*.md' '*.c' '*.h' '*.cpp' '*.sv' '*.svh' '*.vh' '*.sh' '*.mk' '*.def' 'Makefile' \
    ':!:tests/fuzz/corpus/*' ':!:tools/check-cited-paths.sh' ':!:tools/check-cited-paths-test.sh' |
    xargs -0 grep -noE "(^|[^A-Za-z0-9_./\$-])($tops)/[A-Za-z0-9_./-]*[A-Za-z0-9_]" /dev/null |
    awk -v exts="$exts" '
        {
            n = index($0, ":"); file = substr($0, 1, n - 1); rest = substr($0, n + 1)
            n = index(rest, ":"); line = substr(rest, 1, n - 1); tok = substr(rest, n + 1)
            sub(/^[^A-Za-z]/, "", tok)          # the character before the path
            k = split(tok, part, "/")
            if (part[k] !~ ("\\.(" exts ")$")) next
            print file ":" line ": " tok
        }' |
    while IFS= read -r hit; do
        path=${hit##*: }
        [ -e "$path" ] || [ -e "include/$path" ] && continue
        # Only a folder the repository has decides: a folder it lacks is another tree's.
        [ -d "${path%/*}" ] || continue
        echo "cited-paths: $hit: no such file"
    done)
[ -z "$stale" ] && exit 0
echo "$stale"
exit 1
