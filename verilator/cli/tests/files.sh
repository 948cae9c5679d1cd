#!/usr/bin/env bash
# files.sh - no pmusim command destroys or half-writes a file (include/cli/pmu_outfile.h):
# an output that is one of the inputs (however spelled: ./x, a symbolic or hard link)
# is refused; a failed command (a bad input, a full disk, a file too large, an
# unwritable second output) leaves every existing file byte-for-byte as it was and no
# temporary file behind; devices and FIFOs are written straight and never removed.
# Run from the repository root (make test does); PMUSIM overrides the binary.
# Ends with "N passed, M failed".
set -u

PMUSIM=${PMUSIM:-build/pmusim}
PMUSIM=$(cd "$(dirname "$PMUSIM")" && pwd)/$(basename "$PMUSIM")
tmp=$(mktemp -d /tmp/pmusim_files.XXXXXX)
trap 'mountpoint -q "$tmp/disk" && umount "$tmp/disk"; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../../tests/cli_lib.sh"
cd "$tmp" || exit 1

need_binary "$PMUSIM"
p() { "$PMUSIM" "$@"; }


# The state of the scratch directory: every name, its type and its checksum.
snapshot() {
    find . -mindepth 1 -not -name .cli_stderr -printf '%p %y %l\n' | sort
    find . -type f -not -name .cli_stderr -print0 | sort -z | xargs -0 -r md5sum
}
# unchanged NAME -- COMMAND...: COMMAND fails, and the scratch directory is as it was.
unchanged() {
    local name=$1
    shift 2
    local before after
    before=$(snapshot)
    if "$@" >/dev/null 2>"$tmp/.cli_stderr"; then
        echo "FAIL $name: succeeded: $*"
        failed=$((failed + 1))
        return
    fi
    after=$(snapshot)
    if [ "$before" != "$after" ]; then
        echo "FAIL $name: files changed:"
        diff <(echo "$before") <(echo "$after") | sed 's/^/    /' | head -10
        failed=$((failed + 1))
    else
        echo "ok   $name"
        passed=$((passed + 1))
    fi
}
is_char_device() { [ -c "$1" ]; }

# Device nodes of our own (as root): a command that wrongly removed its output would
# otherwise take the system's /dev/null with it.  Without root, /dev/null and /dev/full
# themselves (which a command could not remove then).
if mknod null c 1 3 2>/dev/null && mknod full c 1 7 2>/dev/null && echo x >null 2>/dev/null; then
    NULL=$tmp/null FULL=$tmp/full
elif [ "$(id -u)" -ne 0 ]; then
    rm -f null full
    NULL=/dev/null FULL=/dev/full
else
    echo "FAIL: cannot make device nodes in $tmp (mounted nodev?): the device tests would risk /dev/null"
    echo "0 passed, 1 failed"
    exit 1
fi

p gen --seed 5 --cycles 3000 -o big.txt >/dev/null
p gen --seed 5 --cycles 3000 -o big.bin >/dev/null
printf 'PMC5 event=IA64_INST_RETIRED plm=0xf period=500\nPSR up=1\n' >c.cfg
echo "old contents" >old.txt
ln -s big.txt link.txt
ln big.txt hard.txt
mkdir sub

# ---- an output that is an input ---------------------------------------------------------
check conv-same-spelling 2 "OUT: './big.txt' is the same file as the input of IN ('big.txt')" -- p conv big.txt ./big.txt
check conv-symlink 2 "is the same file as the input of IN" -- p conv big.txt link.txt
check conv-hard-link 2 "is the same file as the input of IN" -- p conv big.txt hard.txt
check conv-dir-spelling 2 "is the same file as the input of IN" -- p conv big.txt sub/../big.txt
check run-waves-is-stream 2 "--waves: 's.txt' is the same file as the input of --stream" \
    -- bash -c 'cp big.txt s.txt && "$0" run --stream s.txt --waves s.txt' "$PMUSIM"
check run-waves-is-config 2 "--waves: './c.cfg' is the same file as the input of --config" -- p run --cycles 100 --config c.cfg --waves ./c.cfg
check gen-outputs-same 2 "--symbols: './new.txt' is the same file as the output of -o ('new.txt')" \
    -- p gen --seed 1 --cycles 10 -o new.txt --symbols ./new.txt
check gen-outputs-same-new-name 2 "is the same file as the output of -o" -- p gen --seed 1 --cycles 10 -o sub/x --symbols sub/../sub/x
ok nothing-new-left -- test ! -e new.txt -a ! -e sub/x
ok big-unchanged -- cmp -s big.txt hard.txt

# ---- failures leave every file as it was --------------------------------------------------
unchanged gen-symbols-unwritable -- p gen --seed 1 --cycles 100 -o old.txt --symbols /nonexistent-dir/s.txt
unchanged gen-symbols-full -- p gen --seed 1 --cycles 100 -o old.txt --symbols "$FULL"
unchanged gen-stream-full-with-symbols -- p gen --seed 1 --cycles 100 -o "$FULL" --symbols old.txt
unchanged conv-bad-input -- bash -c 'printf "cpl=1\ncpl=1 | ip=0x3\n" >bad.txt.in; "$0" conv bad.txt.in old.txt; s=$?; rm bad.txt.in; exit $s' "$PMUSIM"
unchanged run-bad-stream-waves -- bash -c 'printf "cpl=3\ncpl=0 bogus=1\n" >bad.s; "$0" run --stream bad.s --waves old.txt; s=$?; rm bad.s; exit $s' "$PMUSIM"
unchanged run-waves-in-missing-dir -- p run --cycles 100 --waves sub/none/w.fst
unchanged run-waves-directory -- p run --cycles 100 --waves sub
unchanged conform-waves-unwritable -- p conform --runs 1 --cycles 500 --waves /nonexistent-dir/d/x.fst
# A file too large (EFBIG): the size limit, with SIGXFSZ ignored so that write() fails.
unchanged gen-efbig -- bash -c 'trap "" XFSZ; ulimit -f 8; exec "$0" gen --seed 1 --cycles 100000 -o old.txt' "$PMUSIM"
unchanged conv-efbig -- bash -c 'trap "" XFSZ; ulimit -f 8; exec "$0" conv big.txt old.txt' "$PMUSIM"
check gen-enospc 1 "pmusim gen: $FULL: write error" -- p gen --seed 1 --cycles 1000 -o "$FULL"
ok dev-full-stays -- is_char_device "$FULL"
check gen-enospc-message 1 "No space left on device" -- p gen --seed 1 --cycles 1000 -o "$FULL"

# ---- devices and FIFOs: streamed straight, never removed ------------------------------------
check gen-dev-null 0 "" -- p gen --seed 1 --cycles 100 -o "$NULL"
check conv-dev-null-fails 2 "bad.txt:1" -- bash -c 'printf "cpl=9\n" >bad.txt; "$0" conv bad.txt "$1"' "$PMUSIM" "$NULL"
check run-waves-dev-null 0 "waveform: $NULL" -- p run --cycles 300 --waves "$NULL"
ok dev-null-stays -- is_char_device "$NULL"
mkfifo fifo
fifo_gen() {
    cat fifo >from_fifo.txt &
    local reader=$!
    p gen --seed 5 --cycles 3000 -o fifo >/dev/null || return 1
    wait "$reader"
    cmp -s from_fifo.txt big.txt
}
ok gen-into-fifo -- fifo_gen
fifo_conv_fails() {
    cat fifo >/dev/null &
    local reader=$!
    printf 'cpl=1 bogus\n' >bad2.txt
    p conv bad2.txt fifo 2>/dev/null
    local s=$?
    wait "$reader"
    [ "$s" -eq 2 ] && [ -p fifo ]
}
ok conv-into-fifo-fails-fifo-stays -- fifo_conv_fails
fifo_waves() {
    cat fifo >from_fifo.fst &
    local reader=$!
    p run --cycles 300 --waves fifo >/dev/null || return 1
    wait "$reader"
    p run --cycles 300 --waves regular.fst >/dev/null && [ -s from_fifo.fst ] &&
        [ "$(stat -c %s from_fifo.fst)" = "$(stat -c %s regular.fst)" ]
}
ok run-waves-into-fifo -- fifo_waves

# ---- success replaces, keeps the mode, leaves no temporary file --------------------------
echo "stale" >w.fst
chmod 640 w.fst
check run-waves-replaces 0 "waveform: w.fst" -- p run --cycles 300 --waves w.fst
ok waves-replaced-mode-kept -- bash -c '! cmp -s w.fst <(echo stale) && [ "$(stat -c %a w.fst)" = 640 ]'
echo "stale" >late.fst
check run-waves-never-started 0 "no waveform written" -- p run --cycles 100 --waves late.fst --wave-from 500
ok late-waves-untouched -- grep -qx stale late.fst
check conform-waves 0 "1 passed, 0 failed" -- p conform --runs 1 --cycles 2000 --waves cw.fst --wave-from 100
ok conform-waves-written -- test -s cw.fst
ok no-temporary-files -- bash -c '! find . -name ".*pmusim-*" | grep -q .'

# ---- every writing command, its output equal to each of its inputs ----------------------------
# (spelled through a symbolic link, so that only the file's identity can tell), and each with
# a failing output; nothing may change.
ln -s c.cfg cfg.link
ln -s big.bin bin.link
unchanged every-run-waves-stream -- p run --stream big.txt --waves link.txt
unchanged every-run-waves-config -- p run --cycles 100 --config c.cfg --waves cfg.link
unchanged every-run-waves-failing -- p run --cycles 100 --config c.cfg --waves /nonexistent-dir/w.fst
unchanged every-conv-out-in -- p conv big.bin bin.link
unchanged every-conv-out-failing -- p conv big.bin "$FULL"
unchanged every-gen-symbols-is-out -- p gen --seed 1 --cycles 10 -o old.txt --symbols ./old.txt
unchanged every-gen-second-failing -- p gen --seed 1 --cycles 10 -o old.txt --symbols sub/none/s.txt
unchanged every-conform-waves-failing -- p conform --runs 1 --cycles 100 --waves sub/none/w.fst

# ---- a full disk: the reason, and nothing left behind ----------------------------------------
# The text outputs name the reason of a failed write.
check conform-json-enospc 1 "--json: cannot write '$FULL': No space left on device" -- p conform --runs 1 --cycles 100 --json "$FULL"
check conform-junit-enospc 1 "--junit: cannot write '$FULL': No space left on device" -- p conform --runs 1 --cycles 100 --junit "$FULL"
check run-traffic-enospc 1 "--traffic: cannot write '$FULL': No space left on device" -- p run --cycles 100 --traffic "$FULL"
# The FST writer maps its files into memory: a full file system is a SIGBUS inside it, which
# must become the error.  A 64 KiB file system holds less than 2000 cycles of the Itanium
# waveform (about 270 KB); the Alpha 21064's hierarchy fits, and its 4000 cycles do not (the
# writer drops that fwrite error: the file would be cut short).  Mounting one needs root (CI
# runs as root).
full_disk_waves() {
    local name=$1
    shift
    check "$name" 1 "disk/w.fst: cannot write the waveform: No space left on device" -- p "$@" --waves disk/w.fst
    ok "$name-old-kept" -- grep -qx stale disk/w.fst
    ok "$name-no-litter" -- test "$(find disk -mindepth 1 -not -name w.fst | wc -l)" = 0
}
mkdir disk
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=64k tmpfs disk 2>/dev/null; then
    echo stale >disk/w.fst
    full_disk_waves run-waves-full-disk run --cycles 2000
    full_disk_waves conform-waves-full-disk conform --runs 1 --cycles 2000
    full_disk_waves run-waves-full-disk-fst-cut-short run --family alpha21064 --cycles 4000
    umount disk
else
    echo "skip waves-full-disk: needs root to mount a 64 KiB tmpfs (not counted)"
fi

# ---- a stream output is one temporary file, renamed once ----------------------------------
# The stream writer writes the command's temporary file in place (include/stream/pmu_tmpfiles.h).
# one_temporary COMMAND...: COMMAND in a new empty directory, stopped once it wrote
# something; succeeds when the directory then holds one file (else lists them).
one_temporary() {
    mkdir once && cd once || return 1
    "$@" >/dev/null 2>&1 &
    local pid=$! i=0 files
    until [ $i -ge 1000 ] || [ -n "$(find . -mindepth 1 -size +0c)" ]; do
        sleep 0.01
        i=$((i + 1))
    done
    files=$(find . -mindepth 1 | sort)
    kill "$pid" && { wait "$pid"; } 2>/dev/null
    cd .. && rm -rf once
    [ $i -lt 1000 ] && [ "$(wc -l <<<"$files")" -eq 1 ] && return 0
    echo "files for one output (expected one temporary file): ${files:-none written in 10 s}"
    return 1
}
check gen-text-one-temporary 0 "" -- one_temporary "$PMUSIM" gen --seed 1 --cycles 1000000000 -o s.txt
check gen-binary-one-temporary 0 "" -- one_temporary "$PMUSIM" gen --seed 1 --cycles 1000000000 -o s.bin

# ---- a signal mid-write: the temporary files go, the status is 128 + signal ----------------
many=1000000000
for sig in INT TERM HUP; do
    interrupted "gen-$sig" "$sig" '.s.txt.pmusim-*' -- "$PMUSIM" gen --seed 1 --cycles $many -o s.txt --symbols f.txt
done
interrupted gen-binary-INT INT '.s.bin.pmusim-*' -- "$PMUSIM" gen --seed 1 --cycles $many -o s.bin
mkfifo endless
exec 7<>endless # a stream that never ends: conv waits in its middle
cat big.txt >endless 7>&- &
feeder=$!
interrupted conv-TERM TERM '.c.bin.pmusim-*' -- "$PMUSIM" conv ../endless c.bin 7>&-
exec 7>&-
kill "$feeder" 2>/dev/null
wait "$feeder" 2>/dev/null
interrupted run-waves-HUP HUP '.w.fst.pmusim-*.hier' -- "$PMUSIM" run --cycles $many --waves w.fst
interrupted run-traffic-INT INT '.t.txt.pmusim-*' -- "$PMUSIM" run --cycles $many --traffic t.txt
interrupted conform-outputs-TERM TERM '.c.fst.pmusim-*.hier' -- "$PMUSIM" conform --runs 9 --cycles $many --waves c.fst --json c.json --junit c.xml

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
