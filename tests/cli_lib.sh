# cli_lib.sh - shared by the command-line test scripts (verilator/cli/tests/cli.sh,
# verilator/cli/tests/files.sh, sw/tests/cmd_count_profile.sh): `check` and `ok` run one
# command and count it.
#
# ok NAME -- COMMAND...: COMMAND succeeds (its own checks print why when it does not).
# jcheck FILE PYTHON: FILE is one JSON document (d) for which the Python assertions hold.
# lacks NAME TEXT -- COMMAND...: COMMAND succeeds and its output lacks TEXT.
# need_binary PATH...: each PATH is an executable, or the script stops with one failure
# (the build did not make it: counting nothing would read as a pass).
#
# check NAME EXPECTED_EXIT EXPECTED_TEXT -- COMMAND...
# EXPECTED_TEXT must appear in stdout+stderr (fixed string; empty = no check).  A
# usage error (exit 2) must put exactly one line on stderr: the project's rule for bad
# input (a run that had started may have printed its header on stdout before).
#
# $families: the registered families, one a line (tools/families.sh reads
# include/common/pmu_families.def); $families_or_list: "itanium, alpha21064 or alpha21264", as a
# message lists them.  Scripts loop over these, never over a list of their own.
passed=0 failed=0
families=$(bash "${BASH_SOURCE[0]%/*}/../tools/families.sh") &&
    families_or_list=$(bash "${BASH_SOURCE[0]%/*}/../tools/families.sh" --or-list) || {
    echo "FAIL: tools/families.sh could not read the registered families"
    echo "0 passed, 1 failed"
    exit 1
}
need_binary() {
    local b
    for b in "$@"; do
        [ -x "$b" ] && continue
        echo "FAIL: $b not built"
        echo "0 passed, 1 failed"
        exit 1
    done
}
cli_err=${tmp:?the sourcing script sets tmp to its scratch directory}/.cli_stderr
check() {
    local name=$1 want_rc=$2 want_text=$3
    shift 4
    local out rc
    out=$("$@" 2>"$cli_err")
    rc=$?
    out=$(printf '%s\n%s' "$out" "$(cat "$cli_err")")
    if [ "$rc" -ne "$want_rc" ]; then
        echo "FAIL $name: exit $rc, expected $want_rc"
        echo "$out" | sed 's/^/    /' | head -20
        failed=$((failed + 1))
    elif [ -n "$want_text" ] && ! grep -qF -- "$want_text" <<<"$out"; then
        echo "FAIL $name: output lacks: $want_text"
        echo "$out" | sed 's/^/    /' | head -20
        failed=$((failed + 1))
    elif [ "$want_rc" -eq 2 ] && [ "$(wc -l <"$cli_err")" -ne 1 ]; then
        echo "FAIL $name: expected one line on stderr, got:"
        echo "$out" | sed 's/^/    /' | head -20
        failed=$((failed + 1))
    else
        echo "ok   $name"
        passed=$((passed + 1))
    fi
}

# lacks NAME TEXT -- COMMAND...: COMMAND exits 0 and its stdout+stderr lack TEXT (fixed string).
lacks() {
    local name=$1 text=$2
    shift 3
    local out
    if ! out=$("$@" 2>&1); then
        echo "FAIL $name: exit $?, expected 0"
        failed=$((failed + 1))
    elif grep -qF -- "$text" <<<"$out"; then
        echo "FAIL $name: output has: $text"
        grep -F -- "$text" <<<"$out" | sed 's/^/    /' | head -5
        failed=$((failed + 1))
    else
        echo "ok   $name"
        passed=$((passed + 1))
    fi
}

ok() {
    local name=$1
    shift 2
    if "$@"; then
        echo "ok   $name"
        passed=$((passed + 1))
    else
        echo "FAIL $name"
        failed=$((failed + 1))
    fi
}

# interrupted NAME SIG GLOB -- COMMAND...: COMMAND in a new empty directory "sig" (in the
# current one), sent SIG once a file matches GLOB (the write is under way); the status must
# be 128 + SIG and the directory empty again.  Job control gives the command its own group
# with SIGINT not ignored, which a script's background job would have ignored.
interrupted() {
    local name=$1 sig=$2 glob=$3
    shift 4
    mkdir sig && cd sig || return
    set -m
    # The signal at its default action in the command, even when this script was started
    # with it ignored (a background job inherits SIGINT ignored, and a shell cannot undo that).
    env --default-signal="$sig" "$@" >/dev/null 2>&1 &
    local pid=$! i=0 j=0 rc want=$((128 + $(kill -l "$sig")))
    set +m
    until compgen -G "$glob" >/dev/null || [ $i -ge 1000 ]; do
        sleep 0.01
        i=$((i + 1))
    done
    kill -s "$sig" "$pid"
    # A command that outlives the signal would otherwise write until its $many records.
    while kill -0 "$pid" 2>/dev/null && [ $j -lt 1000 ]; do
        sleep 0.01
        j=$((j + 1))
    done
    [ $j -lt 1000 ] || kill -s KILL "$pid"
    { wait "$pid"; } 2>/dev/null # no "Hangup" from the shell
    rc=$?
    local left
    left=$(find . -mindepth 1 | head -5)
    if [ $i -ge 1000 ]; then
        echo "FAIL $name: no file matched $glob within 10 s"
        failed=$((failed + 1))
    elif [ $j -ge 1000 ]; then
        echo "FAIL $name: still running 10 s after SIG$sig (killed)"
        failed=$((failed + 1))
    elif [ "$rc" -ne "$want" ] || [ -n "$left" ]; then
        echo "FAIL $name: exit $rc, expected $want; left behind: ${left:-nothing}"
        failed=$((failed + 1))
    else
        echo "ok   $name"
        passed=$((passed + 1))
    fi
    cd .. && rm -rf sig
}

# jcheck FILE PYTHON: FILE parses as one JSON document (d) and the Python assertions hold;
# the failed assertion is printed.
jcheck() {
    python3 - "$1" <<EOF
import json, sys
d = json.load(open(sys.argv[1]))
def typed(obj, **members):
    for k, t in members.items():
        assert k in obj, "no member " + k
        assert isinstance(obj[k], t) and not (t is int and isinstance(obj[k], bool)), \
            "%s: %r is not %s" % (k, obj[k], t)
def nullable(obj, k, t):
    assert k in obj, "no member " + k
    assert obj[k] is None or isinstance(obj[k], t), "%s: %r is not null or %s" % (k, obj[k], t)
$2
EOF
}
