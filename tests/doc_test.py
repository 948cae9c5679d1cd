#!/usr/bin/env python3
"""doc_test.py - the README and docs/ agree with the tools (docs/README.md, "Examples that are
tested").

Every fenced block of README.md and docs/*.md with a line that starts with "$ " is an
example: each "$ " line (with its "\\"-continued lines) is a command, and the lines after it,
up to the next command or the end of the block, are what it prints (its stdout, then its
stderr: the order a terminal shows them in when the error ends the command).  The test runs each block's commands in order, in a scratch directory of its own
where the repository's top-level entries are linked (so `build/pmusim`, `qemu/programs/...`
and `examples/...` resolve and what a command writes stays there), with `build/` first in
PATH (so `pmusim` resolves too) and a fixed environment (env -i: PATH, HOME, LC_ALL=C; its
size does not depend on where the repository is), and
compares what each prints with what the block shows:

  - a line "..." stands for any number of lines (none included);
  - "..." inside a line stands for any text (a pid, a time);
  - otherwise lines must be equal (trailing blanks aside), the whole output through.

A block whose output cannot be the same on another machine (speeds, wall times) or that
takes minutes is marked on the line before its fence with
    <!-- doctest: skip REASON -->
and reported as "skip" with the reason (not counted as passed).  Every page of docs/ must be
linked from docs/README.md (one more test).

Usage: tests/doc_test.py [FILE...]   (default: README.md and docs/*.md; run from the
repository root).  Ends with "N passed, M failed"; exit 1 on a failure.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TIMEOUT = 300  # seconds a block may take
SKIP = re.compile(r"^<!--\s*doctest:\s*skip\s+(.+?)\s*-->\s*$")


def blocks(path):
    """(line number of the first command, skip reason or None, [(command, [expected])])."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("```"):
            i += 1
            continue
        start = i
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        body = lines[start + 1:j]
        i = j + 1
        if not any(l.startswith("$ ") for l in body):
            continue
        k = start - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        m = SKIP.match(lines[k]) if k >= 0 else None
        cmds = []
        n = 0
        while n < len(body) and not body[n].startswith("$ "):
            n += 1
        first = start + 2 + n
        while n < len(body):
            cmd = body[n][2:]
            while cmd.endswith("\\") and n + 1 < len(body):
                n += 1
                cmd = cmd[:-1] + " " + body[n].strip()
            n += 1
            out = []
            while n < len(body) and not body[n].startswith("$ "):
                out.append(body[n])
                n += 1
            cmds.append((cmd, out))
        yield first, (m.group(1) if m else None), cmds


def line_re(want):
    return re.compile("^" + ".*".join(re.escape(p) for p in want.rstrip().split("...")) + "$")


def matches(want, got):
    """want (with "..." lines and inline "...") against got, whole: True or a message."""
    want = [w.rstrip() for w in want]
    while want and not want[-1]:
        want.pop()
    got = [g.rstrip() for g in got]
    while got and not got[-1]:
        got.pop()
    memo = {}

    def m(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(want):
            r = j == len(got)
        elif want[i] == "...":
            r = any(m(i + 1, k) for k in range(j, len(got) + 1))
        else:
            r = j < len(got) and bool(line_re(want[i]).match(got[j])) and m(i + 1, j + 1)
        memo[(i, j)] = r
        return r

    if m(0, 0):
        return True
    # the first shown line that is not printed where expected, for the message
    j = 0
    for w in want:
        if w == "...":
            continue
        rx = line_re(w)
        k = j
        while k < len(got) and not rx.match(got[k]):
            k += 1
        if k == len(got):
            return "shown but not printed: %r" % w
        j = k + 1
    return "printed lines the block does not show (after %r)" % (got[j] if j < len(got) else got[-1:])


def scratch():
    d = tempfile.mkdtemp(prefix="pmusim_doc.")
    for e in os.listdir(ROOT):
        if e not in (".git",):
            os.symlink(os.path.join(ROOT, e), os.path.join(d, e))
    return d


def run_block(path, first, cmds):
    d = scratch()
    # build/ by a relative PATH entry (the scratch directory links it): the environment's size
    # must not depend on where the repository is, since a recorded program's stack, and the
    # loader's work with it, move with it.
    env = {"PATH": "build:/usr/local/bin:/usr/bin:/bin", "HOME": d, "LC_ALL": "C"}
    try:
        for cmd, want in cmds:
            try:
                p = subprocess.run(["bash", "-c", cmd], cwd=d, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                return "$ %s: took over %d s" % (cmd, TIMEOUT)
            out, err = (x.decode("utf-8", "replace") for x in (p.stdout, p.stderr))
            if out and err and not out.endswith("\n"):
                out += "\n"
            got = (out + err).split("\n")
            r = matches(want, got)
            if r is not True:
                shown = "\n".join("      " + g for g in got[:40])
                return "$ %s: %s\n    printed (exit %d):\n%s" % (cmd, r, p.returncode, shown)
        return True
    finally:
        shutil.rmtree(d, ignore_errors=True)


def index_check():
    """Every page of docs/ is linked from docs/README.md."""
    index = open(os.path.join(ROOT, "docs", "README.md"), encoding="utf-8").read()
    missing = [f for f in sorted(os.listdir(os.path.join(ROOT, "docs")))
               if f.endswith(".md") and f != "README.md" and "(%s)" % f not in index]
    return True if not missing else "docs/README.md does not link: " + ", ".join(missing)


def main():
    os.chdir(ROOT)
    files = sys.argv[1:] or ["README.md"] + sorted(
        os.path.join("docs", f) for f in os.listdir("docs") if f.endswith(".md"))
    passed = failed = 0
    for f in files:
        for first, skip, cmds in blocks(f):
            where = "%s:%d" % (f, first)
            if skip:
                print("skip %s: %s" % (where, skip))
                continue
            r = run_block(f, first, cmds)
            if r is True:
                passed += 1
                print("ok   %s (%d command%s)" % (where, len(cmds), "" if len(cmds) == 1 else "s"))
            else:
                failed += 1
                print("FAIL %s: %s" % (where, r))
    if not sys.argv[1:]:
        r = index_check()
        if r is True:
            passed += 1
            print("ok   docs/README.md links every page of docs/")
        else:
            failed += 1
            print("FAIL %s" % r)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
