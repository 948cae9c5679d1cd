#!/usr/bin/env bash
# record_cli.sh - `pmusim record`'s bad inputs and failures (docs/real-programs.md,
# "Recording"): each gets one clear line and the right exit status, and nothing a user had
# is lost: a missing program, a file that is not ELF, a program for another architecture,
# a missing QEMU, a bad --param, an output that is the program; a program that fails or
# crashes keeps its recording and reports its status; Ctrl-C leaves no file behind; the
# guest's loader reads an empty ld.so.cache of the run's own root, not the host's.
# Run from the repository root (make test does); PMUSIM overrides the binary.
# Ends with "N passed, M failed".
set -u

PMUSIM=${PMUSIM:-build/pmusim}
PMUSIM=$(cd "$(dirname "$PMUSIM")" && pwd)/$(basename "$PMUSIM")
tmp=$(mktemp -d /tmp/pmusim_record.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../tests/cli_lib.sh"
cd "$tmp" || exit 1
p() { "$PMUSIM" "$@"; }
# No retired instruction outside every function: a function-table row "[outside every
# function]" may only hold wrong-path fetches (the 21264's ProfileMe samples fetched
# instructions, and a mispredicted target can be any address: its "retired" column is 0).
no_sample_outside() {
    p "$@" 2>&1 | awk '/ retired / && !col { for (i = 1; i <= NF; i++) if ($i == "retired") col = i }
        / \[outside every function\]$/ && !/0x[0-9a-f]+  \[outside/ { bad = !col || $col != 0 }
        END { exit bad }'
}

need_binary "$PMUSIM"

for fam in $families; do
    target=$(p record --family "$fam" --print-target 2>&1) || {
        check "$fam: no timing model is one line" 2 "has no timing model" -- p record --family "$fam" -o x.bin -- /bin/true
        continue
    }
    QEMU_ARCH= CC= SYSROOT= PACKAGES= PROFILE= CHECKS=
    eval "$target"
    command -v "$CC" >/dev/null || { echo "FAIL $fam: $CC not installed (apt-get install $PACKAGES)"; failed=$((failed + 1)); continue; }
    # Programs of this family's architecture: one that exits with status 3 after a loop, one
    # that dies of SIGSEGV, one that prints and succeeds.
    cat > prog.c <<'EOF'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
    volatile long s = 0;
    for (long i = 0; i < 20000; i++)
        s += i;
    if (argc > 1 && strcmp(argv[1], "fail") == 0)
        return 3;
    if (argc > 1 && strcmp(argv[1], "crash") == 0)
        *(volatile int *)(long)s = 1;
    if (argc > 1 && strcmp(argv[1], "thread") == 0) {
        pthread_t t;
        pthread_create(&t, NULL, (void *(*)(void *))puts, "a second thread");
        pthread_join(t, NULL);
    }
    if (argc > 1 && strcmp(argv[1], "cache") == 0) {
        FILE *f = fopen("/etc/ld.so.cache", "rb");
        long n = -1;
        if (f && fseek(f, 0, SEEK_END) == 0)
            n = ftell(f);
        printf("ld.so.cache %ld bytes\n", n);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "spin") == 0)
        for (;;)
            s++;
    printf("ok %ld\n", (long)s);
    return 0;
}
EOF
    "$CC" -O1 -pthread -o "prog.$QEMU_ARCH" prog.c || { echo "FAIL $fam: cannot build the test program"; failed=$((failed + 1)); continue; }
    prog=./prog.$QEMU_ARCH

    check "$fam: a program that runs" 0 "exited with status 0" -- p record --family "$fam" -o ok.bin --symbols ok.sym -- "$prog"
    check "$fam: the symbols name main" 0 "" -- grep -qE '^[0-9a-fx]+ [0-9a-fx]+ prog[.][a-z0-9]+:main$' ok.sym
    check "$fam: the symbols name the C library's functions" 0 "" -- grep -qE ' libc[.]so[.0-9]*:__libc_start_main$' ok.sym
    check "$fam: the loader's code without a symbol is named as its file's" 0 "" -- grep -qE ' ld-linux[^ ]*:\[no symbol\]$' ok.sym
    check "$fam: the recording runs in lock-step" 0 " 0 mismatches" -- p run --family "$fam" --stream ok.bin --cycles 100000000
    # The guest's loader reads an empty cache of pmusim's, not the host's (whose entries
    # would move the instruction count from machine to machine), and the root that holds
    # it goes when the recording ends.
    mkdir troot
    check "$fam: the guest sees an empty /etc/ld.so.cache" 0 "ld.so.cache 0 bytes" -- env TMPDIR="$tmp/troot" "$PMUSIM" record --family "$fam" -o c.bin -- "$prog" cache
    ok "$fam: the guest's root is removed after the run" -- test -z "$(ls -A troot)"
    rmdir troot
    check "$fam: an unusable TMPDIR is one line" 1 "cannot make the guest's root in $tmp/nosuch" -- env TMPDIR="$tmp/nosuch" "$PMUSIM" record --family "$fam" -o c.bin -- "$prog"
    # --json (docs/json.md): the summary alone on stdout (the program's output on stderr),
    # its numbers the text summary's; a failing program's status in it.
    text=$(p record --family "$fam" -o okt.bin -- "$prog" 2>/dev/null)
    p record --family "$fam" -o okj.bin --symbols okj.sym --json -- "$prog" >ok.json 2>ok.err
    ok "$fam: record --json" -- python3 - ok.json "$fam" "$text" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
for k, t in dict(program=str, arch=str, family=str, pid=int, exit=dict, instructions=int, qemu_count=int, retiring=int,
                 split=int, squashed=int, cycles=int, branches=dict, loads=int, stores=int, misses=dict, stream=dict,
                 symbols=dict).items():
    assert isinstance(d[k], t), (k, d[k])
assert d["family"] == sys.argv[2] and d["exit"] == {"status": 0, "signal": None, "text": "exited with status 0"}, d["exit"]
insns, qemu = map(int, re.search(r"instructions (\d+) \(QEMU's own count (\d+)\)", sys.argv[3]).groups())
cycles = int(re.search(r"^cycles (\d+)$", sys.argv[3], re.M).group(1))
assert (d["instructions"], d["qemu_count"], d["cycles"]) == (insns, qemu, cycles), (d, sys.argv[3])
assert d["stream"] == {"file": "okj.bin", "format": "binary", "records": cycles}, d["stream"]
assert d["symbols"]["file"] == "okj.sym" and d["symbols"]["functions"] > 0, d["symbols"]
PY
    check "$fam: record --json: the program's output on stderr" 0 "ok 199990000" -- cat ok.err
    p record --family "$fam" -o failj.bin --json -- "$prog" fail >fail.json 2>/dev/null
    ok "$fam: record --json: a failing program's status" -- python3 -c '
import json
d = json.load(open("fail.json"))
assert d["exit"]["status"] == 3 and d["symbols"] is None, d["exit"]'
    # The family's profile (make real's) attributes every sample to a file: the stripped
    # loader's local functions are its "[no symbol]", counted as one function (pfm's PC
    # profile covers the program's own code only).
    read -r -a prof <<< "${PROFILE//\{stream\}/ok.bin}"
    prof=("${prof[@]//\{symbols\}/ok.sym}")
    unnamed="ld-linux.so.2:[no symbol]"
    [ "${prof[0]}" = pfm ] && unnamed=""
    check "$fam: the profile names a file for every sample${unnamed:+ ($unnamed)}" 0 "$unnamed" -- p "${prof[@]}"
    ok "$fam: no retired instruction outside every function" -- no_sample_outside "${prof[@]}"
    check "$fam: missing program" 2 "missing: cannot open" -- p record --family "$fam" -o x.bin -- ./missing
    echo "not a program" > notelf
    check "$fam: not an ELF file" 2 "notelf: not an ELF program (expected a program built with $CC)" -- p record --family "$fam" -o x.bin -- ./notelf
    check "$fam: a program for another architecture" 2 "expected" -- p record --family "$fam" -o x.bin -- /bin/true
    check "$fam: QEMU missing" 2 "not found; install it: apt-get install" -- env PMUSIM_QEMU=qemu-none "$PMUSIM" record --family "$fam" -o x.bin -- "$prog"
    check "$fam: unknown parameter" 2 "--param nosuch: not a parameter of the timing model" -- p record --family "$fam" --param nosuch=1 -o x.bin -- "$prog"
    check "$fam: parameter out of range" 2 "expected" -- p record --family "$fam" --param "$(p record --family "$fam" --list-params | awk 'NR == 2 {print $1}')=0x7fffffffffffffff" -o x.bin -- "$prog"
    check "$fam: no program" 2 "expected the program to record" -- p record --family "$fam" -o x.bin
    check "$fam: no output" 2 "expected -o FILE" -- p record --family "$fam" -- "$prog"
    cp "$prog" keep
    check "$fam: the output is the program" 2 "is the same file as the input of PROGRAM" -- p record --family "$fam" -o keep -- ./keep
    check "$fam: the program is untouched" 0 "" -- cmp keep "$prog"
    [ -e x.bin ] && { echo "FAIL $fam: a refused command left x.bin"; failed=$((failed + 1)); }
    check "$fam: a failing program: status reported, recording kept" 1 "exited with status 3; its recording up to there is kept in fail.bin" -- p record --family "$fam" -o fail.bin -- "$prog" fail
    check "$fam: the failed program's recording is a stream" 0 " 0 mismatches" -- p run --family "$fam" --stream fail.bin --cycles 100000000
    check "$fam: a crashing program: signal reported, recording kept" 1 "was killed by signal 11" -- p record --family "$fam" -o crash.bin -- "$prog" crash
    check "$fam: the crashed program's recording is a stream" 0 " 0 mismatches" -- p run --family "$fam" --stream crash.bin --cycles 100000000
    # A second thread stops the recording; only where QEMU runs the threaded program at all
    # (Debian's qemu-i386 7.2 hangs in it, with or without the plugin: not counted then).
    if timeout 20 "qemu-$QEMU_ARCH" -L "$SYSROOT" "$prog" thread > /dev/null 2>&1; then
        check "$fam: a second thread: one line, nothing written" 1 "the program started a second thread" -- p record --family "$fam" -o thr.bin -- "$prog" thread
        [ -e thr.bin ] && { echo "FAIL $fam: a refused recording left thr.bin"; failed=$((failed + 1)); }
    else
        echo "skip $fam: a second thread (qemu-$QEMU_ARCH does not run the threaded program: not counted)"
    fi
    interrupted "$fam: Ctrl-C while recording leaves nothing (the guest's root included)" INT '.int.bin.pmusim-*' -- \
        env TMPDIR="$tmp/sig" "$PMUSIM" record --family "$fam" -o int.bin -- "$tmp/$prog" spin
    rm -f ok.bin ok.sym fail.bin crash.bin keep notelf c.bin
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
