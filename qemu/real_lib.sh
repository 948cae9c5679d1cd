# real_lib.sh - shared by the families' checks on real programs (the CHECKS script each
# family names, run by qemu/real.sh): the environment they get and how a check reports.
#   PMUSIM  the pmusim binary        DIR  the family's recordings (NAME.bin, NAME.sym, NAME.record.txt)
#   BIN     the sample programs      FAMILY  the family
# ok/fail print "PASS|FAIL FAMILY what" and count; finish prints "N passed, M failed";
# field KEY FILE is the number after KEY at the start of a line of FILE (record's summary).
: "${PMUSIM:?}" "${DIR:?}" "${BIN:?}" "${FAMILY:?}"
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "PASS $FAMILY $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $FAMILY $1"; }
field() { awk -v k="$1" '$1 == k {print $2; exit}' "$2"; }
finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
# strided_check WHAT STRIDED SEQ N PER_LINE SLACK SEE: the matrix programs' cache misses
# against the geometry (N x N doubles, PER_LINE doubles a line): the strided order misses on
# each of B's N^3 loads, STRIDED in N^3 .. 1.1 N^3; the sequential once a line, SEQ in
# N^3 / PER_LINE .. 2 N^3 / PER_LINE (A and C add a few).  SLACK widens the lower bounds by
# a counter's granularity; SEE names the logs when a count is missing.
strided_check() {
    local what=$1 a=$2 b=$3 n=$4 per=$5 slack=$6 see=$7 n3 line
    n3=$((n * n * n))
    if [ -z "$a" ] || [ -z "$b" ] || [ "$b" -le 0 ]; then
        fail "$what: no counts (see $see)"
        return
    fi
    line="strided $a (B: $n3 loads), sequential $b (B: $((n3 / per)) lines): x$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", a / b}')"
    if [ "$a" -ge $((n3 - slack)) ] && [ "$a" -le $((n3 * 11 / 10)) ] &&
        [ "$b" -ge $((n3 / per - slack)) ] && [ "$b" -le $((2 * n3 / per)) ]; then
        ok "$what: $line"
    else
        fail "$what: $line; expected $n3..$((n3 * 11 / 10)) and $((n3 / per))..$((2 * n3 / per))"
    fi
}
