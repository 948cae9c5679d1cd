#!/usr/bin/env bash
# kit.sh - the installable kit (docs/kit.md): `make install PREFIX=<scratch>`, then, using
# nothing of the tree but the installed prefix and pkg-config:
#   - the installed programs run, the headers and pkg-config files are there;
#   - an install leaves what else is under PREFIX alone and replaces an earlier install's files;
#   - a relative PREFIX is refused; DESTDIR stages an install;
#   - tests/kit/pmu_kit_example.c (reference model + software, pkg-config pmusim) and
#     systemc/example/pmu_sc_example.cpp (the SystemC part, pkg-config pmusim-systemc),
#     copied out of the tree, build and run: the counts equal the reference model's totals,
#     the RTL part's counts equal the reference part's;
#   - every installed FuseSoC core parses, lists files that exist, and its lint target's
#     Verilator lint over its own file list is clean (tests/kit/check_cores.py); a core with
#     a source left out fails that check;
#   - README's command beside build/examples/pmu_sc_example builds it.
# Run from the repository root after the build (make test does both).
set -u
# Its own make runs, whatever make runs it (no jobserver or flags of the outer make).
unset MAKEFLAGS MFLAGS MAKELEVEL
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source tests/cli_lib.sh
BUILD=${BUILD:-build}
prefix=$tmp/prefix
mk() { make --no-print-directory -s "$@"; }
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

# Something of the user's already under the prefix, and an earlier install's pmusim.
mkdir -p "$prefix/lib" "$prefix/bin"
echo mine > "$prefix/lib/user-file"
echo mine > "$prefix/bin/user-tool"
printf '#!/bin/sh\necho old\n' > "$prefix/bin/pmusim"

ok "make install PREFIX=<scratch>" -- mk install PREFIX="$prefix"
ok "the user's files under the prefix are left alone" -- \
    bash -c '[ "$(cat "$1/lib/user-file")$(cat "$1/bin/user-tool")" = minemine ]' _ "$prefix"
ok "no temporary file left behind" -- bash -c '! find "$1" -name "*.tmp*" | grep -q .' _ "$prefix"
check "a relative PREFIX is refused" 2 "expected an absolute directory" -- \
    bash tools/kit/install.sh relative/dir 1.0 --share "$BUILD/kit"
ok "DESTDIR stages the install, the .pc files naming the final prefix" -- bash -c '
    DESTDIR=$1/stage bash tools/kit/install.sh /opt/pmusim 1.0 --share "$2/kit" >/dev/null &&
    [ -f "$1/stage/opt/pmusim/include/pmusim/sc/pmu_sc.h" ] &&
    grep -qx "prefix=/opt/pmusim" "$1/stage/opt/pmusim/lib/pkgconfig/pmusim.pc" && [ ! -e /opt/pmusim ]' _ "$tmp" "$BUILD"
check "installed pmusim runs (the earlier one replaced)" 0 "pmusim " -- "$prefix/bin/pmusim" --version
ok "installed pmusim-sc, libraries and headers" -- bash -c '
    for f in bin/pmusim-sc lib/libpmuref.a lib/libpmusw.a lib/libpmustream.a lib/libpmudefs.a \
             lib/libpmuharness.a lib/libpmurtl.a lib/libpmusc.a include/pmusim/sc/pmu_sc.h \
             include/pmusim/common/pmu_families.def include/pmusim/sw/ita/ita_evlib.h \
             share/pmusim/examples/pmu_kit_example.c share/pmusim/examples/pmu_sc_example.cpp; do
        [ -f "$1/$f" ] || { echo "missing $f"; exit 1; }
    done' _ "$prefix"

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
ok "pkg-config finds pmusim and pmusim-systemc at the prefix" -- bash -c '
    [ "$(pkg-config --variable=prefix pmusim)" = "$1" ] && pkg-config --exists pmusim-systemc' _ "$prefix"

# The examples outside the tree, with nothing but pkg-config's flags.
work=$tmp/work
mkdir -p "$work"
cp "$prefix/share/pmusim/examples/"* "$work/"
cd "$work" || exit 1
ok "pmu_kit_example.c builds with pkg-config --cflags --libs pmusim" -- bash -c \
    'gcc -std=c11 -Wall -Werror pmu_kit_example.c $(pkg-config --cflags --libs pmusim) -o pmu_kit_example'
check "pmu_kit_example: both counters equal the model's exact totals" 0 "IA64_INST_RETIRED" -- ./pmu_kit_example 30000
ok "pmu_kit_example: the counts it prints are the totals" -- bash -c \
    '[ "$(./pmu_kit_example 30000 | grep -c " equal$")" = 2 ]'
check "pmu_kit_example: a bad argument is refused" 2 "expected a number of records" -- ./pmu_kit_example x
ok "pmu_sc_example.cpp builds with pkg-config --cflags --libs pmusim-systemc" -- bash -c \
    'g++ -std=c++17 pmu_sc_example.cpp $(pkg-config --cflags --libs pmusim-systemc) -o pmu_sc_example'
check "pmu_sc_example on the reference part" 0 "10 interrupts" -- ./pmu_sc_example ref
ok "pmu_sc_example: the RTL part counts as the reference part" -- bash -c \
    'diff <(./pmu_sc_example | sed -e "s/(RTL)//" -e "s/, [0-9]* ns$//") \
          <(./pmu_sc_example ref | sed -e "s/(reference model)//" -e "s/, [0-9]* ns$//")'
cd - >/dev/null || exit 1

# The FuseSoC cores as installed, and a core with a source left out.
cores=$prefix/share/pmusim/fusesoc
ok "the installed FuseSoC cores (tests/kit/check_cores.py)" -- \
    bash -c 'python3 tests/kit/check_cores.py "$1" > "$2/cores.log" || { cat "$2/cores.log"; exit 1; }' _ "$cores" "$tmp"
ok "every family's RTL (rtl/<family>/family.mk) has a core" -- bash -c '
    for d in rtl/*/family.mk; do
        f=${d#rtl/}; f=${f%/family.mk}
        [ -f "$1/$f/pmusim_${f}_pmu.core" ] || { echo "no core for $f"; exit 1; }
    done' _ "$cores"
fam=$(ls "$cores" | head -1)
cp -r "$cores/$fam" "$tmp/broken"
core=$(ls "$tmp/broken"/*.core)
sed -i '0,/^      - rtl\//{/^      - rtl\//d}' "$core"
ok "a core missing a source fails its lint check" -- bash -c '! python3 tests/kit/check_cores.py "$1" >/dev/null' _ "$tmp/broken"

# README's SystemC section: the make target it names beside build/examples/pmu_sc_example
# is one that builds it (make -n with the example's source taken as changed).
target=$(sed -n 's/^make \([a-z-]*\) .*build\/examples\/pmu_sc_example.*/\1/p' README.md)
ok "README's 'make ${target:-?}' builds build/examples/pmu_sc_example" -- bash -c \
    '[ -n "$1" ] && make --no-print-directory -n -W systemc/example/pmu_sc_example.cpp "$1" | grep -q -- "-o $2/examples/pmu_sc_example "' _ "$target" "$BUILD"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
