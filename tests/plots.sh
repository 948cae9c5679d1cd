#!/usr/bin/env bash
# plots.sh - --plot (docs/plots.md): every picture of every command is made and is what its
# extension says (the SVG parses as XML with an <svg> root, the PNG decodes at the size the
# layout gives, the PDF has its header and trailer); on a tiny run the counter's line passes
# the values the registers held at known cycles; a long run plots in the memory of a short
# one; a bad --plot is refused with one line.  Ends with "N passed, M failed".
set -u
cd "$(dirname "$0")/.."
PMUSIM=${PMUSIM:-build/pmusim}
tmp=$(mktemp -d /tmp/pmusim_plots.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. tests/cli_lib.sh

# picture FILE: the file is a well-formed picture of the kind its extension names.  A PNG's
# width is checked against $want_width when set, its height against $want_height.
picture() {
    python3 - "$1" "${want_width:-}" "${want_height:-}" <<'EOF'
import struct, sys, xml.etree.ElementTree as ET
path, width, height = sys.argv[1], sys.argv[2], sys.argv[3]
data = open(path, 'rb').read()
if path.endswith('.svg'):
    root = ET.fromstring(data)
    if not root.tag.endswith('svg'):
        sys.exit(f'{path}: root element {root.tag}, expected svg')
elif path.endswith('.png'):
    if data[:8] != b'\x89PNG\r\n\x1a\n' or data[12:16] != b'IHDR':
        sys.exit(f'{path}: no PNG signature and IHDR')
    w, h = struct.unpack('>II', data[16:24])
    if (width and w != int(width)) or (height and h != int(height)):
        sys.exit(f'{path}: {w}x{h}, expected {width or w}x{height or h}')
    if not data.rstrip(b'\0').endswith(b'IEND\xaeB`\x82'):
        sys.exit(f'{path}: no IEND chunk')
elif path.endswith('.pdf'):
    if not data.startswith(b'%PDF-') or b'%%EOF' not in data[-64:]:
        sys.exit(f'{path}: no PDF header and trailer')
else:
    sys.exit(f'{path}: unknown kind')
EOF
}

# made NAME FILE -- COMMAND...: COMMAND succeeds and writes FILE, a well-formed picture.
made() {
    local name=$1 file=$2
    shift 3
    rm -f "$file"
    if ! "$@" >"$tmp/out" 2>&1; then
        echo "FAIL $name: exit $?"; sed 's/^/    /' "$tmp/out" | head -10; failed=$((failed + 1))
    elif ! err=$(picture "$file" 2>&1); then
        echo "FAIL $name: $err"; failed=$((failed + 1))
    else
        echo "ok   $name"; passed=$((passed + 1))
    fi
}

# ---- every picture ----------------------------------------------------------------------
for fam in $families; do
    for ext in svg png pdf; do
        made "run-$fam-$ext" "$tmp/run-$fam.$ext" -- "$PMUSIM" run --family "$fam" --cycles 20000 --quiet \
            --plot "$tmp/run-$fam.$ext"
    done
done
made count-itanium "$tmp/count.svg" -- "$PMUSIM" count -e CPU_CYCLES -e LOADS_RETIRED --cycles 20000 --plot "$tmp/count.svg"
made count-alpha21264 "$tmp/count67.png" -- "$PMUSIM" count --family alpha21264 -e CYCLES --cycles 20000 \
    --plot "$tmp/count67.png"
made profile "$tmp/profile.png" -- "$PMUSIM" profile -e CPU_CYCLES --period 1000 --cycles 50000 --plot "$tmp/profile.png"
made profileme "$tmp/profileme.svg" -- "$PMUSIM" profileme --cycles 50000 --plot "$tmp/profileme.svg"
made pfm "$tmp/pfm.pdf" -- "$PMUSIM" pfm --cpus 2 --cycles 50000 --plot "$tmp/pfm.pdf"
made conform "$tmp/conform.svg" -- "$PMUSIM" conform --matrix --runs 1 --cycles 5000 --plot "$tmp/conform.svg"

# ---- the timeline's size: 1200 pixels wide; under a 64-pixel head and a 30-pixel privilege
# band, 122 a panel (a counter's raw value and its 64-bit count are two), then a 46-pixel
# cycle axis and an 18-pixel legend of the band --------------------------------------------
"$PMUSIM" run --cycles 20000 --quiet --plot-data "$tmp/size.txt" >/dev/null
panels=$(awk '$1 !~ /^#/ && $4 ~ /^(raw|64-bit)$/ {print $3, $4}' "$tmp/size.txt" | sort -u | wc -l)
want_width=1200 want_height=$((64 + 30 + panels * 122 + 46 + 18)) \
    made png-size "$tmp/size.png" -- "$PMUSIM" run --cycles 20000 --quiet --plot "$tmp/size.png"
[ "$panels" -ge 2 ] || { echo "FAIL png-size: $panels panels in the plot data"; failed=$((failed + 1)); }

# ---- the privilege band: a 300-cycle run's plot data names the PSR.cpl of each of its 300
# records (the last column, after them, has none); the workload runs at cpl 0 and 3 -------
"$PMUSIM" run --cycles 300 --quiet --plot-data "$tmp/band.txt" >/dev/null
levels=$(awk '$3 == "level" {print $4, $5}' "$tmp/band.txt" | sort -u | tr '\n' ,)
cols=$(awk '$3 == "level" {print $1}' "$tmp/band.txt" | sort -u | wc -l)
if [ "$levels" = "cpl 0,cpl 3," ] && [ "$cols" -eq 300 ]; then
    echo "ok   privilege-band"; passed=$((passed + 1))
else
    echo "FAIL privilege-band: levels '$levels' in $cols of 300 columns"; failed=$((failed + 1))
fi

# ---- wraps: on each model, each counter's wrap marks are the overflows the run's counter
# table counts (the built-in configuration loads each counter near its top; the wraps of a
# run of a million cycles are far apart, one a column) --------------------------------------
for model in itanium itanium2; do
    "$PMUSIM" run --model "$model" --backend ref --cycles 1000000 --plot-data "$tmp/wraps.txt" >"$tmp/wraps.out"
    want=$(awk '$1 ~ /^PMD[4-7]$/ {print $1, $NF}' "$tmp/wraps.out" | tr '\n' ,)
    got=$(for r in PMD4 PMD5 PMD6 PMD7; do
        echo "$r $(awk -v r="$r" '$3 == "wrap" && $4 == r' "$tmp/wraps.txt" | wc -l)"; done | tr '\n' ,)
    if [ -n "$want" ] && [ "$want" = "$got" ] && [ "$want" != "PMD4 0,PMD5 0,PMD6 0,PMD7 0," ]; then
        echo "ok   wraps-$model ($got)"; passed=$((passed + 1))
    else
        echo "FAIL wraps-$model: overflows '$want', wrap marks '$got'"; failed=$((failed + 1))
    fi
done

# ---- geometry: a 300-cycle run, a column a cycle.  At cycles 1, 150 and 299 the plot data
# holds PMD4's raw value as `run --stop-at C --dump-regs` reads it after C cycles (its 47
# count bits), and the 64-bit count C (the built-in configuration counts CPU_CYCLES at every
# privilege level, from 0); the three points lie on one line of the panel's scale, higher
# values higher up; and the SVG's line passes each of them. --------------------------------
"$PMUSIM" run --cycles 300 --quiet --plot "$tmp/geo.svg" --plot-data "$tmp/geo.txt" >/dev/null
regs=""
for c in 1 150 299; do
    v=$("$PMUSIM" run --cycles 300 --stop-at "$c" --dump-regs --quiet | awk '$1 == "PMD4" {print $3}')
    regs="$regs $c=$((v))"
done
if err=$(python3 - "$tmp/geo.txt" "$tmp/geo.svg" $regs <<'EOF' 2>&1
import re, sys, xml.etree.ElementTree as ET
data, svg, regs = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = {}
for line in open(data):
    f = line.split()
    if f[0].startswith('#') or len(f) != 9:
        continue
    rows[(int(f[0]), f[2] + ' ' + f[3])] = (int(f[4]), int(f[5]), float(f[6]), float(f[7]), float(f[8]))
head = open(data).readline()
if ' of 1 cycle;' not in head:
    sys.exit('expected a column a cycle: ' + head)
points = {}
for r in regs:
    c, v = (int(x) for x in r.split('='))
    raw = v & ((1 << 47) - 1)
    lo, hi, x, ylo, yhi = rows[(c, 'PMD4 raw')]
    if not (lo <= raw <= hi):
        sys.exit(f'cycle {c}: PMD4 raw {lo}..{hi} in the plot, {raw} in the register')
    clo, chi = rows[(c, 'PMD4 64-bit')][:2]
    if clo != c or chi != c:
        sys.exit(f'cycle {c}: 64-bit count {clo}..{chi}, expected {c}')
    points[c] = (raw, x, ylo)
(v0, x0, y0), (v1, x1, y1), (v2, x2, y2) = points[1], points[150], points[299]
if not (y2 < y1 < y0 and x0 < x1 < x2):
    sys.exit(f'points not rising to the right: {points}')
# one scale: y is affine in the value
k = (y2 - y0) / (v2 - v0)
if abs(y0 + k * (v1 - v0) - y1) > 0.02:
    sys.exit(f'cycle 150 is off the line through cycles 1 and 299: {points}')
# the SVG's line passes each point: it lies on a segment of a path (cairo writes coordinates
# in user units, and leaves out a vertex between two segments in line)
segs = []
for el in ET.parse(svg).iter():
    d = el.get('d') or ''
    prev = None
    for op, x, y in re.findall(r'([ML]) (-?[\d.]+) (-?[\d.]+)', d):
        pt = (float(x), float(y))
        if op == 'L' and prev:
            segs.append((prev, pt))
        prev = pt
def near(p, a, b):
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = 0 if dx == dy == 0 else max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return ((ax + t * dx - px) ** 2 + (ay + t * dy - py) ** 2) ** 0.5 < 0.05
for c, (v, x, y) in points.items():
    if not any(near((x, y), a, b) for a, b in segs):
        sys.exit(f'cycle {c}: the SVG has no line through ({x}, {y})')
EOF
); then
    echo "ok   geometry"; passed=$((passed + 1))
else
    echo "FAIL geometry: $err"; failed=$((failed + 1))
fi

# ---- bounded memory: a run 100 times longer plots in the same memory (the reference alone,
# a few seconds) -------------------------------------------------------------------------
rss() { /usr/bin/time -f '%M' "$PMUSIM" run --backend ref --cycles "$1" --quiet --plot "$tmp/m.png" 2>&1 >/dev/null | tail -1; }
short=$(rss 30000) long=$(rss 3000000)
if [ -n "$short" ] && [ -n "$long" ] && [ "$long" -le $((short + 2048)) ]; then
    echo "ok   bounded-memory ($short KB for 30000 cycles, $long KB for 3000000)"; passed=$((passed + 1))
else
    echo "FAIL bounded-memory: $short KB for 30000 cycles, $long KB for 3000000"; failed=$((failed + 1))
fi

# ---- bad --plot ----------------------------------------------------------------------------
check unknown-extension 2 "--plot '$tmp/x.gif': expected a file name ending .svg, .png or .pdf" -- \
    "$PMUSIM" run --cycles 100 --plot "$tmp/x.gif"
check unwritable 2 "--plot: cannot write '$tmp/no/such/dir/x.svg'" -- \
    "$PMUSIM" run --cycles 100 --plot "$tmp/no/such/dir/x.svg"
cp examples/kloads.cfg "$tmp/k.svg"
check plot-is-config 2 "is the same file as the input of --config" -- \
    "$PMUSIM" run --cycles 100 --config "$tmp/k.svg" --plot "$tmp/k.svg"
cmp -s examples/kloads.cfg "$tmp/k.svg" || { echo "FAIL plot-is-config: the input was changed"; failed=$((failed + 1)); }
"$PMUSIM" gen --cycles 100 -o "$tmp/s.pdf" >/dev/null
check plot-is-stream 2 "is the same file as the input of --stream" -- \
    "$PMUSIM" count -e CPU_CYCLES --stream "$tmp/s.pdf" --plot "$tmp/s.pdf"
check plot-data-is-plot 2 "--plot-data" -- \
    "$PMUSIM" run --cycles 100 --plot "$tmp/same.svg" --plot-data "$tmp/same.svg"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
