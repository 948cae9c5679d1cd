#!/usr/bin/env bash
# check-layers-test.sh - the layering check (tools/check-layers.sh) passes on a copy of
# the tree and fails, naming the file, on each violation planted in a fresh copy.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/pmusim_layers.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/base"
# Every folder, as the check scans every folder (the build and the repository aside).
(cd "$here" && tar cf - --exclude=./build --exclude=./.git .) | tar xf - -C "$tmp/base"
failed=0

if ! bash "$tmp/base/tools/check-layers.sh" "$tmp/base" >"$tmp/out" 2>&1; then
    echo "FAIL: the unchanged tree is not clean:"; cat "$tmp/out"; failed=1
fi

# plant NAME FILE LINE EXPECTED: append LINE to FILE in the copy (a new file, and folders,
# when it has none); the check must fail and print EXPECTED. The copy is put back afterwards,
# so each case is the unchanged tree plus its one line (one copy for all: copying the tree
# for each case was most of this test's time).
plant() {
    local name=$1 file=$2 line=$3 want=$4 f=$tmp/base/$2 made=$tmp/base/$2 d
    # made: what to remove afterwards, the file or the first of its folders the copy lacks
    d=$(dirname "$file")
    while [ "$d" != . ] && [ ! -d "$tmp/base/$d" ]; do made=$tmp/base/$d; d=$(dirname "$d"); done
    rm -f "$tmp/saved"
    [ -f "$f" ] && cp -p "$f" "$tmp/saved"
    mkdir -p "$(dirname "$f")"
    printf '%s\n' "$line" >>"$f"
    if bash "$tmp/base/tools/check-layers.sh" "$tmp/base" >"$tmp/out" 2>&1; then
        echo "FAIL $name: the check passed with '$line' in $file"; failed=1
    elif ! grep -qF -- "$want" "$tmp/out"; then
        echo "FAIL $name: the output lacks '$want':"; sed 's/^/    /' "$tmp/out"; failed=1
    else
        echo "ok   $name"
    fi
    if [ -f "$tmp/saved" ]; then mv "$tmp/saved" "$f"; else rm -rf "$made"; fi
}

plant sw-stream sw/ita/drv.c '#include "stream/pmu_stream.h"' 'sw/ita/drv.c: the software under test includes the stream header'
plant sw-harness sw/ita/ita_evlib_range.c '#include "harness/pmu_cosim.h"' 'includes the harness header "harness/pmu_cosim.h"'
plant sw-cli sw/ita/ita_evlib_range.c '#include "cli/pmu_cli.h"' 'includes the cli header "cli/pmu_cli.h"'
plant sw-header include/sw/ita/ita_drv.h '#include "harness/ita/ita_rtl.h"' 'include/sw/ita/ita_drv.h: the software under test includes the harness header'
plant csim-cli csim/ita/ref_qual.c '#include "cli/pmu_cli.h"' 'the reference model includes the cli header "cli/pmu_cli.h"'
plant sw-csim sw/ita/drv.c '#include "csim/ita/ita_ref.h"' 'includes the csim header "csim/ita/ita_ref.h"'
plant csim-sw csim/ita/ref_qual.c '#include "sw/ita/ita_drv.h"' 'csim/ita/ref_qual.c: the reference model includes the sw header'
plant csim-rtl csim/ita/ref_qual.c '#include "harness/ita/ita_rtl.h"' 'the reference model includes the harness header "harness/ita/ita_rtl.h"'
plant generic-cli verilator/cli/loop.c '#include "common/ita/ita_regs.h"' 'verilator/cli/loop.c: generic code includes the family header'
plant generic-cosim verilator/harness/cosim.c '#include "harness/ita/ita_isr.h"' 'verilator/harness/cosim.c: generic code includes the family header'
plant generic-stream stream/source.c '#include "common/ita/ita_cycle.h"' 'stream/source.c: generic code includes the family header'
plant dotdot verilator/cli/streams.c '#include "../../stream/stream_internal.h"' 'reaches another folder'
plant other-folder verilator/cli/streams.c '#include "stream_internal.h"' 'is neither beside it nor in include/'
plant systemc-dotdot systemc/pmu_rtl_sc.cpp '#include "../verilator/harness/family.c"' 'systemc/pmu_rtl_sc.cpp: #include "../verilator/harness/family.c" reaches another folder'
plant generic-systemc systemc/pmu_sc_platform.cpp '#include "common/ev67/ev67_regs.h"' 'systemc/pmu_sc_platform.cpp: generic code includes the family header'
plant harness-cli verilator/ita/isr.c '#include "cli/ita/ita_config.h"' 'verilator/ita/isr.c: the harness includes the command-line header "cli/ita/ita_config.h"'
plant harness-generic-cli verilator/harness/family.c '#include "cli/pmu_cli.h"' 'verilator/harness/family.c: the harness includes the command-line header'
plant harness-systemc verilator/cli/loop.c '#include "sc/pmu_sc.h"' "verilator/cli/loop.c: includes the SystemC platform's header"
loose=pmu_new.h # a header at the top of include/ (a variable: no path the docs cite)
plant loose-header "include/$loose" '/* a header at the top of include/ */' "include/$loose: a header outside the layer folders"
plant unknown-layer include/misc/ita/ita_new.h '/* a folder that is no layer */' 'include/misc/ita/ita_new.h: a header outside the layer folders'
plant new-folder newfolder/x.c '#include "../sw/ita/drv.c"' 'newfolder/x.c: #include "../sw/ita/drv.c" reaches another folder'
plant include-path sw/sw.mk '$(BUILD)/obj/sw/ita/drv.o: CFLAGS += -Isw' 'a per-object include path: -Isw'

# every case put back: the copy is clean again
if ! bash "$tmp/base/tools/check-layers.sh" "$tmp/base" >"$tmp/out" 2>&1; then
    echo "FAIL: the copy is not clean after the cases were put back:"; cat "$tmp/out"; failed=1
fi
[ "$failed" -eq 0 ] && echo "check-layers: every planted violation caught"
exit "$failed"
