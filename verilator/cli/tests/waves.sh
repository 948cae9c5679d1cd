#!/usr/bin/env bash
# waves.sh - the waveform outputs.  `make sim WAVES=1` dumps only the last WAVE_CYCLES
# records, WAVES=all the whole run (checked on make's command lines).  The save file
# `pmusim run --waves` writes, opened in GTKWave itself (on a virtual X server, xvfb-run):
# the wave pane shows the whole window the FST holds, not more than four times wider, and
# the primary marker (the mismatch's clock, here the last record's) lies inside it.
# GTKWave reports what it shows through its Tcl commands (gtkwave -S).  Run from the
# repository root; PMUSIM overrides the binary.  Ends with "N passed, M failed"; without
# gtkwave or xvfb-run the GTKWave checks say "skip" and count nothing.
set -u

PMUSIM=${PMUSIM:-build/pmusim}
tmp=$(mktemp -d /tmp/pmusim_gtkwave.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../../tests/cli_lib.sh"

need_binary "$PMUSIM"

# ---- make sim WAVES -------------------------------------------------------------------
# make's recursive build of pmusim is left out (MAKE=true): only the run's line matters.
sim_line() { make -n --no-print-directory sim MAKE=true "$@" 2>&1 | grep -E '^[^ ]*pmusim run '; }
check sim-waves-window 0 "--cycles 50000 --waves build/sim.fst --wave-from 40000" -- sim_line WAVES=1 CYCLES=50000
check sim-waves-window-n 0 "--cycles 0x3000 --waves build/sim.fst --wave-from 12188" -- \
    sim_line WAVES=1 STREAM=x.trace CYCLES=0x3000 WAVE_CYCLES=100
check sim-waves-short-run 0 "--cycles 300 --waves build/sim.fst --wave-from 0" -- sim_line WAVES=1 CYCLES=300
# the whole run: the waves without a --wave-from window (make sim's --plot may follow)
waves_all() { sim_line WAVES=all CYCLES=50000 | grep -- '--cycles 50000 --waves build/sim.fst\( --plot [^ ]*\)\?$' | grep -qv -- --wave-from; }
ok sim-waves-all -- waves_all

# ---- the layout in GTKWave ------------------------------------------------------------
if ! command -v gtkwave >/dev/null || ! command -v xvfb-run >/dev/null; then
    echo "skip gtkwave-view: gtkwave or xvfb-run is not installed (tools/install-deps.sh installs both)"
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi

cat >"$tmp/view.tcl" <<'EOF'
puts "VIEW [gtkwave::getWindowStartTime] [gtkwave::getWindowEndTime] [gtkwave::getMarker]"
puts "FIRST [gtkwave::getTraceFlagsFromIndex 0] [gtkwave::getTraceNameFromIndex 0]"
gtkwave::/File/Quit
EOF

# The windows: 59 records (a short repro window), 200 (the repro command's), 2000.
windows="241:300 800:1000 1000:3000"
for w in $windows; do
    from=${w%:*} to=${w#*:}
    "$PMUSIM" run --cycles "$to" --waves "$tmp/w$from.fst" --wave-from "$from" --quiet >"$tmp/run$from.out" 2>&1 &
done
wait
for w in $windows; do
    from=${w%:*}
    if [ ! -s "$tmp/w$from.gtkw" ]; then
        echo "FAIL gtkwave-run-$from: pmusim run --waves wrote no $tmp/w$from.gtkw:"; sed 's/^/    /' "$tmp/run$from.out"
        failed=$((failed + 1))
    fi
done

# One X server for the GTKWave runs, side by side; each prints its VIEW line.
cat >"$tmp/views.sh" <<EOF
for w in $windows; do
    from=\${w%:*}
    timeout 60 gtkwave -S "$tmp/view.tcl" "$tmp/w\$from.fst" "$tmp/w\$from.gtkw" >"$tmp/view\$from.out" 2>&1 &
done
wait
for w in $windows; do
    echo "window \$w"
    grep '^VIEW\|^FIRST' "$tmp/view\${w%:*}.out"
done
EOF
timeout 120 xvfb-run -a -s "-screen 0 1920x1200x24" bash "$tmp/views.sh" >"$tmp/views.out" 2>&1

for w in $windows; do
    from=${w%:*} to=${w#*:}
    # GTKWave's time is the FST's ps: record T from T ns, clocked at T.5 ns.
    first=$((from * 1000)) last=$((to * 1000)) marker=$(((to - 1) * 1000 + 500))
    read -r start end shown_marker < <(grep -A1 -x "window $w" "$tmp/views.out" | sed -n 's/^VIEW //p')
    if [ -z "${end:-}" ]; then
        echo "FAIL gtkwave-view-$from: GTKWave reported no view of $tmp/w$from.gtkw:"
        sed 's/^/    /' "$tmp/views.out" | head -20
        failed=$((failed + 1))
    elif [ "$shown_marker" -ne "$marker" ] || [ "$marker" -lt "$start" ] || [ "$marker" -gt "$end" ] ||
        [ "$start" -gt "$first" ] || [ "$end" -lt "$last" ] ||
        [ $((end - start)) -gt $((4 * (last - first))) ]; then
        echo "FAIL gtkwave-view-$from: GTKWave shows $start..$end ps, marker $shown_marker; expected" \
            "$first..$last ps on screen (at most 4 times wider) and the marker $marker inside"
        failed=$((failed + 1))
    else
        echo "ok   gtkwave-view-$from: records $from..$((to - 1)) shown as $start..$end ps, marker $marker inside"
        passed=$((passed + 1))
    fi
done

# Without a mismatch the layout's first group, the cycle record, opens closed (GTKWave's
# TR_CLOSED, 0x400000): its 30 signals take no room.
read -r flags name < <(grep -A2 -x "window ${windows%% *}" "$tmp/views.out" | sed -n 's/^FIRST //p')
if [ "${name:-}" = "Cycle record (stream inputs)" ] && [ $((${flags:-0} & 0x400000)) -ne 0 ]; then
    echo "ok   gtkwave-cycle-record-closed"; passed=$((passed + 1))
else
    echo "FAIL gtkwave-cycle-record-closed: GTKWave's first trace is '${name:-}' with flags ${flags:-none}," \
        "expected the closed group 'Cycle record (stream inputs)'"
    failed=$((failed + 1))
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
