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
