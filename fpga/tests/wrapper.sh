#!/usr/bin/env bash
# wrapper.sh - the FPGA tops `make fpga` generates (fpga/run.sh --wrapper, docs/fpga.md): for
# every family and model `make fpga` synthesizes, the wrapper around the PMU lints clean with
# Verilator -Wall together with the PMU's sources (a port left out, or a slice of the wrong
# width, is a PINMISSING or WIDTH warning), and its shift registers are exactly as wide as
# the PMU's inputs and outputs; a bad line is one error and exit 2.  Ends with
# "N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
VERILATOR=${VERILATOR:-verilator}
tmp=$(mktemp -d /tmp/pmusim_fpga.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. tests/cli_lib.sh

lines=$(make -s fpga-lines) || { echo "FAIL: make fpga-lines"; echo "0 passed, 1 failed"; exit 1; }
# lint_wrapper LINE DIR: generate LINE's wrapper in DIR and lint it with the PMU.
lint_wrapper() {
    local fam model top srcs inc params
    IFS='|' read -r fam model top srcs inc params <<< "$1"
    bash fpga/run.sh --wrapper "$1" "$2/fpga_top.v" || return 1
    # shellcheck disable=SC2086
    "$VERILATOR" --lint-only -Wall $inc --top-module fpga_top rtl/lint/waivers.vlt $srcs "$2/fpga_top.v"
}
# widths_match LINE DIR: in_sr and out_sr are as wide as the PMU's inputs and outputs less clk_i
# and rst_ni, counted from Verilator's XML of the PMU (a source other than the generator's).
widths_match() {
    local fam model top srcs inc params gp="" p want got
    IFS='|' read -r fam model top srcs inc params <<< "$1"
    for p in $params; do gp+=" -G$p"; done
    # shellcheck disable=SC2086
    "$VERILATOR" --xml-only -Wno-WIDTH --xml-output "$2/pmu.xml" $inc $gp --top-module "$top" $srcs || return 1
    want=$(python3 - "$2/pmu.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
types = {d.get("id"): d for d in root.iter() if d.get("id") and d.tag.endswith("dtype")}
def width(t):
    d = types[t]
    if d.get("left") is None: return 1
    return abs(int(d.get("left")) - int(d.get("right"))) + 1
top = root.find(".//module[@topModule='1']")
w = {"input": 0, "output": 0}
for v in top.findall("var"):
    if v.get("dir") in w and v.get("name") not in ("clk_i", "rst_ni"):
        w[v.get("dir")] += width(v.get("dtype_id"))
print(w["input"], w["output"])
PY
) || return 1
    got=$(awk '/reg \[[0-9]+:0\] in_sr;/ { split($2, a, /[\[:]/); i = a[2] + 1 }
               /reg \[[0-9]+:0\] out_sr;/ { split($2, a, /[\[:]/); o = a[2] + 1 }
               END { print i, o }' "$2/fpga_top.v")
    [ "$want" = "$got" ] || { echo "inputs, outputs of the PMU: $want; the wrapper's shift registers: $got"; return 1; }
}

n=0
while IFS= read -r line; do
    [ -n "$line" ] || continue
    n=$((n + 1)); d=$tmp/$n; mkdir -p "$d"
    name=$(cut -d'|' -f1,2 <<< "$line" | tr '|' '-')
    ok "wrapper-lints-$name" -- lint_wrapper "$line" "$d"
    ok "wrapper-widths-$name" -- widths_match "$line" "$d"
done <<< "$lines"
[ $n -gt 0 ] || { echo "FAIL: make fpga-lines printed no line"; failed=$((failed + 1)); }

check bad-line 2 "bad line 'ev4|pme'" -- bash fpga/run.sh --wrapper "ev4|pme" "$tmp/x.v"
check bad-parameter 2 "bad parameter 'HasPme' in line" -- \
    bash fpga/run.sh --wrapper "ev4|pme|ev4_pmu|rtl/ev4/ev4_pmu.sv||HasPme" "$tmp/x.v"
check usage 2 "usage: fpga/run.sh" -- bash fpga/run.sh --wrapper "ev4|pme"
check no-lines 2 "usage: fpga/run.sh" -- bash fpga/run.sh

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
