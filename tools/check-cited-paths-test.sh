#!/usr/bin/env bash
# check-cited-paths-test.sh - the cited-paths check (tools/check-cited-paths.sh) fails on a
# small repository whose doc and comment cite a missing file, naming each with its line,
# and leaves alone what is no citation of this tree: an existing file, another project's
# folder, a build product, a template.  Ends with "N passed, M failed".
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/pmusim_cited.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
mkdir -p "$tmp/docs" "$tmp/sw" "$tmp/include/sw"
cat >"$tmp/docs/a.md" <<'DOC'
See docs/b.md, then docs/gone.md for the details.
libpfm's include/perfmon/pfmlib.h, build/tests/x.c and include/<family>/<family>_regs.def.
DOC
echo "x" >"$tmp/docs/b.md"
printf '/* sw/old_name.c once did this (docs/b.md). */\n' >"$tmp/sw/x.c"
# A header cited as code includes it (from include/): sw/api.h exists, sw/gone.h does not.
echo "x" >"$tmp/include/sw/api.h"
printf '#include "sw/api.h"\n#include "sw/gone.h"\n' >"$tmp/sw/y.c"
(cd "$tmp" && git init -q && git add -A) || exit 1
out=$(bash "$here/tools/check-cited-paths.sh" "$tmp" 2>&1)
rc=$?
expect() { # name condition...
    local name=$1; shift
    if "$@"; then echo "ok   $name"; pass=$((pass + 1)); else echo "FAIL $name"; printf '%s\n' "$out" | sed 's/^/    /'; fail=$((fail + 1)); fi
}
expect exits-1 test "$rc" -eq 1
expect names-the-doc-line grep -qF "docs/a.md:1: docs/gone.md: no such file" <<<"$out"
expect names-the-comment-line grep -qF "sw/x.c:1: sw/old_name.c: no such file" <<<"$out"
expect names-the-missing-header grep -qF "sw/y.c:2: sw/gone.h: no such file" <<<"$out"
expect only-those-three test "$(printf '%s\n' "$out" | grep -c .)" -eq 3
rm "$tmp/docs/a.md" "$tmp/sw/x.c" "$tmp/sw/y.c"
(cd "$tmp" && git add -A)
bash "$here/tools/check-cited-paths.sh" "$tmp" >/dev/null 2>&1
expect clean-tree-exits-0 test $? -eq 0
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
