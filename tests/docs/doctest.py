#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""doctest.py: runs the commands the documentation marks as checked and
compares what they print with what the documentation shows (issue 26).

    python3 doctest.py --top SRC --build BUILD --tool PROGRAM [FILE.md ...]
    python3 doctest.py --self-test

The marker is the word doc-test after the language of a fenced block (the
rest of the info string is options; renderers show only the language):

    ```sh doc-test [OPTION ...]        the block is a script: it runs whole,
                                       with bash -e -o pipefail
    ```console doc-test [OPTION ...]   a transcript: each "$ COMMAND" line
                                       (continued by a trailing backslash)
                                       runs, and the lines after it, up to
                                       the next "$ ", are what it prints

or the same words in an HTML comment on the line just before a fence,
<!-- doc-test OPTION ... -->, for a block whose info string stays plain.

Options:
    slow                 run only with SP_DOCTEST_SLOW=1 (say how long in
                         the text: a checked command takes seconds)
    needs=A,B            skip unless each is a program in PATH or, when it
                         holds a '/', a path from the repository root
    exit=N               the exit status expected (default 0)
    expect=next          the next fenced block holds lines it prints
    expect=table[:N]     the next N (default 1) Markdown tables hold lines
                         it prints (their |---| lines are left out)
    contains="TEXT"      a line it prints contains TEXT (repeatable)
    tol=X or tol=X%      numbers may also differ by X (or X percent)
    root=PATH            the scratch root's path reads as PATH in the
                         output (for output that shows where it ran)
    id=NAME              names the block for checks elsewhere

A comment anywhere, <!-- doc-test from=NAME contains="TEXT" ... -->, checks
that the output of the block NAME (in any checked file) contains TEXT, so a
figure quoted in prose or in another file is held to the command too.

The output is standard output and standard error as they interleave.
Expected lines must appear in the output in order, not necessarily next to
each other; a line "..." is skipped, a line ending in " ..." matches a line
that starts with the rest.  Runs of blanks count as one.  A number in the
documentation matches a number in the output when they agree to the
decimals the documentation shows (2.2 matches 2.2371, not 2.26), plus tol.

Every block runs in a scratch folder that mirrors the repository root (each
top-level entry a symbolic link; in a VPATH build the build tree's files
win), so relative paths resolve as from the root and what a command writes
at the root stays in the scratch folder; ../shared beside the root is
linked beside it too.  The tree's own folders are links to it, so a checked
command must not write into them.  PATH starts with the built scalepredict
(src/scalepredict works too), LC_ALL is C, and a block is stopped after
SP_DOCTEST_TIMEOUT seconds (600; a slow one 3600).  SP_DOCTEST_ONLY=ID,ID
runs only the blocks of those ids (to rerun a few slow ones after a change);
SP_DOCTEST_SAVE=DIR writes what each block printed to DIR/ID.out (or
FILE-LINE.out; DIR is made if missing), whole, for updating a document's figures.  Output: one line per block as it ends,
"ok (seconds)", "skipped (why)" or "FAIL" with what differs and what it
printed; exit status 1 when any check failed or none ran.

To check a command: put it in a ```sh doc-test block (or a console one)
with the figures it prints below it (expect=next), in a table after it
(expect=table) or in contains="..." options; run
    SP_DOCTEST_FILES=docs/X.md sh tests/docs/doc-commands.sh
from the built tree.  For a command of minutes, add slow."""
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

NUMBER = re.compile(r"([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)")
FENCE = re.compile(r"^(```+)\s*(\S*)\s*(.*)$")
COMMENT = re.compile(r"^\s*<!--\s*doc-test\b(.*?)-->\s*$")
TIMEOUT = int(os.environ.get("SP_DOCTEST_TIMEOUT", "600"))
SLOW_TIMEOUT = int(os.environ.get("SP_DOCTEST_TIMEOUT", "3600"))


class Block:
    def __init__(self, path, line, lang, text, opts):
        self.path, self.line, self.lang, self.text, self.opts = path, line, lang, text, opts
        self.expected = []  # lines it must print, in order
        self.contains = list(opts.get("contains", []))
        self.output = None  # what it printed, once run

    def where(self):
        return "%s:%d" % (self.path, self.line)


def parse_options(words, where):
    opts = {"contains": []}
    for w in shlex.split(words):
        key, _, value = w.partition("=")
        if key in ("slow",) and not value:
            opts[key] = True
        elif key == "contains" and value:
            opts["contains"].append(value)
        elif key in ("needs", "exit", "expect", "tol", "id", "from", "root") and value:
            opts[key] = value
        else:
            raise SystemExit("%s: doc-test: unknown option '%s'" % (where, w))
    return opts


def split_fences(lines):
    """Yields (start, info, body lines, end) of each fenced block."""
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, start, body = m.group(1), i, []
        i += 1
        while i < len(lines) and not lines[i].startswith(fence):
            body.append(lines[i])
            i += 1
        yield start, (m.group(2), m.group(3)), body, i
        i += 1


def tables_after(lines, i, n):
    """The rows of the next n Markdown tables from line i on."""
    rows, found = [], 0
    while i < len(lines) and found < n:
        if lines[i].startswith("|"):
            while i < len(lines) and lines[i].startswith("|"):
                if not re.fullmatch(r"[|:\- ]+", lines[i]):
                    rows.append(lines[i])
                i += 1
            found += 1
        else:
            i += 1
    return rows if found == n else None


def read_doc(path, rel):
    """The checked blocks of one file, and its from= checks."""
    lines = open(path, encoding="utf-8").read().splitlines()
    fences = list(split_fences(lines))
    blocks, refs = [], []
    starts = {f[0] for f in fences}
    for n, line in enumerate(lines):
        m = COMMENT.match(line)
        if not m:
            continue
        opts = parse_options(m.group(1), "%s:%d" % (rel, n + 1))
        if "from" in opts:
            refs.append(("%s:%d" % (rel, n + 1), opts))
        elif n + 1 not in starts:
            raise SystemExit("%s:%d: doc-test comment not followed by a fence" % (rel, n + 1))
    for k, (start, (lang, info), body, end) in enumerate(fences):
        words = info.split(None, 1) if info else []
        where = "%s:%d" % (rel, start + 1)
        if words and words[0] == "doc-test":
            opts = parse_options(words[1] if len(words) > 1 else "", where)
        else:
            m = COMMENT.match(lines[start - 1]) if start else None
            if not m or "from=" in m.group(1):
                continue
            opts = parse_options(m.group(1), where)
        if lang == "console" and not transcript(body):
            raise SystemExit("%s: a console doc-test block without a '$ ' line" % where)
        b = Block(rel, start + 1, lang, body, opts)
        expect = opts.get("expect")
        if expect == "next":
            if k + 1 >= len(fences):
                raise SystemExit("%s: expect=next but no block follows" % where)
            b.expected = fences[k + 1][2]
        elif expect and expect.startswith("table"):
            count = int(expect.split(":")[1]) if ":" in expect else 1
            rows = tables_after(lines, end + 1, count)
            if rows is None:
                raise SystemExit("%s: expect=%s but fewer tables follow" % (where, expect))
            b.expected = rows
        elif expect:
            raise SystemExit("%s: expect=%s: next or table[:N]" % (where, expect))
        blocks.append(b)
    return blocks, refs


# ---- comparing ------------------------------------------------------------


def atoms(text):
    """Text and numbers alternating: [text, number, text, ..., text]."""
    return NUMBER.split(" ".join(text.split()))


def number_matches(doc, out, tol):
    d, o = float(doc), float(out)
    mant = doc.lower().split("e")[0]
    decimals = len(mant.split(".")[1]) if "." in mant else 0
    exp = int(doc.lower().split("e")[1]) if "e" in doc.lower() else 0
    slack = 0.5 * 10.0 ** (exp - decimals) + abs(d) * 1e-12
    if tol:
        slack += abs(d) * tol[1] / 100.0 if tol[0] == "%" else tol[1]
    return abs(d - o) <= slack


def atoms_match(want, got, tol, head=False, tail=False):
    """want against got, atom by atom.  head: want's first text may be the
    end of got's; tail: want's last text may be the start of got's."""
    if len(want) != len(got):
        return False
    last = len(want) - 1
    for i, (w, g) in enumerate(zip(want, got)):
        if i % 2:
            if not number_matches(w, g, tol):
                return False
        elif i == 0 and head and i == last and tail:
            if w not in g:
                return False
        elif i == 0 and head:
            if not g.endswith(w):
                return False
        elif i == last and tail:
            if not g.startswith(w):
                return False
        elif w != g:
            return False
    return True


def line_matches(want, got, tol):
    prefix = want.rstrip().endswith(" ...")
    if prefix:
        want = want.rstrip()[:-4]
    w, g = atoms(want), atoms(got)
    if prefix:
        return len(g) >= len(w) and atoms_match(w, g[: len(w)], tol, tail=True)
    return atoms_match(w, g, tol)


def contains(text, got, tol):
    w, g = atoms(text), atoms(got)
    for at in range(0, len(g) - len(w) + 1, 2):
        if atoms_match(w, g[at : at + len(w)], tol, head=True, tail=True):
            return True
    return False


def parse_tol(opts):
    t = opts.get("tol")
    if not t:
        return None
    return ("%", float(t[:-1])) if t.endswith("%") else ("abs", float(t))


def check_lines(expected, out, tol):
    """The first expected line not found in order, or None."""
    at = 0
    for want in expected:
        if not want.strip() or want.strip() == "...":
            continue
        while at < len(out) and not line_matches(want, out[at], tol):
            at += 1
        if at == len(out):
            return want
        at += 1
    return None


def check_contains(texts, out, tol):
    return [t for t in texts if not any(contains(t, line, tol) for line in out)]


# ---- running --------------------------------------------------------------


def mirror(root, trees):
    """root: every entry of the trees (the first one's wins), as links."""
    os.makedirs(root, exist_ok=True)
    names = {}
    for t in trees:
        for name in os.listdir(t):
            if name != ".git":
                names.setdefault(name, []).append(os.path.join(t, name))
    for name, paths in names.items():
        dirs = [p for p in paths if os.path.isdir(p) and not os.path.islink(p)]
        if len(dirs) > 1:
            mirror(os.path.join(root, name), dirs)
        else:
            os.symlink(paths[0], os.path.join(root, name))


def transcript(body):
    """[(command, expected lines)] of a console block."""
    steps, cmd = [], None
    lines = iter(body)
    for line in lines:
        if line.startswith("$ "):
            cmd = line[2:]
            while cmd.endswith("\\"):
                cmd = cmd[:-1] + "\n" + next(lines, "")
            steps.append((cmd, []))
        elif steps:
            steps[-1][1].append(line)
    return steps


def run(cmd, cwd, env, timeout):
    """Runs cmd in a process group of its own, stopped whole after timeout."""
    p = subprocess.Popen(["bash", "-e", "-o", "pipefail", "-c", cmd], cwd=cwd, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         encoding="utf-8", errors="replace", start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return None, ["(stopped after %d s: SP_DOCTEST_TIMEOUT)" % timeout]
    return p.returncode, out.splitlines()


def missing(needs, top):
    for n in needs.split(","):
        if "/" in n:
            if not os.path.exists(os.path.join(top, n)):
                return n
        elif not shutil.which(n):
            return n
    return None


def run_block(b, top, env, scratch):
    """Runs b and returns a list of what differs (empty: it holds)."""
    cwd = tempfile.mkdtemp(prefix="root-", dir=scratch)
    mirror(cwd, env["SP_DOCTEST_TREES"].split(os.pathsep))
    tol = parse_tol(b.opts)
    want_rc = int(b.opts.get("exit", "0"))
    problems, out = [], []
    paths = sorted({cwd, os.path.realpath(cwd)}, key=len, reverse=True)

    def run_here(cmd):
        rc, got = run(cmd, cwd, env, SLOW_TIMEOUT if b.opts.get("slow") else TIMEOUT)
        if "root" in b.opts:
            for p in paths:
                got = [line.replace(p, b.opts["root"]) for line in got]
        return rc, got

    if b.lang == "console":
        for cmd, expected in transcript(b.text):
            rc, got = run_here(cmd)
            out += got
            if rc != want_rc:
                problems.append("'%s' exited %s, not %d:\n    %s" % (
                    cmd.split("\n")[0], rc, want_rc, "\n    ".join(got[-10:])))
                break
            miss = check_lines(expected, got, tol)
            if miss is not None:
                problems.append("'%s' does not print\n    %s" % (cmd.split("\n")[0], miss))
    else:
        rc, out = run_here("\n".join(b.text))
        if rc != want_rc:
            problems.append("exited %s, not %d:\n    %s" % (rc, want_rc, "\n    ".join(out[-10:])))
    b.output = out
    if not problems:
        miss = check_lines(b.expected, out, tol)
        if miss is not None:
            problems.append("does not print\n    %s" % miss)
        for t in check_contains(b.contains, out, tol):
            problems.append("prints no line containing\n    %s" % t)
    return problems


def main(argv):
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--top", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("files", nargs="*")
    a = ap.parse_args(argv)
    top, build = os.path.abspath(a.top), os.path.abspath(a.build)
    files = a.files or ["README.md"] + sorted(
        os.path.join("docs", f) for f in os.listdir(os.path.join(top, "docs")) if f.endswith(".md"))
    slow = os.environ.get("SP_DOCTEST_SLOW") == "1"
    only = set(filter(None, os.environ.get("SP_DOCTEST_ONLY", "").split(",")))
    save = os.environ.get("SP_DOCTEST_SAVE")
    if save:
        os.makedirs(save, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="sp-doctest-")
    env = dict(os.environ)
    bindir = os.path.join(scratch, "bin")
    os.makedirs(bindir)
    os.symlink(os.path.abspath(a.tool), os.path.join(bindir, "scalepredict"))
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    env["SP_DOCTEST_TREES"] = os.pathsep.join([build] if build == top else [build, top])
    env["LC_ALL"] = "C"  # the numbers as the documentation shows them
    if os.path.isdir(os.path.join(top, "..", "shared")):
        os.symlink(os.path.realpath(os.path.join(top, "..", "shared")),
                   os.path.join(scratch, "shared"))
    blocks, refs = [], []
    for f in files:
        b, r = read_doc(os.path.join(top, f), f)
        blocks += b
        refs += r
    ids = {b.opts["id"]: b for b in blocks if "id" in b.opts}
    failed = checked = skipped = 0
    try:
        for b in blocks:
            why = None
            if only and b.opts.get("id") not in only:
                why = "not in SP_DOCTEST_ONLY"
            elif b.opts.get("slow") and not slow:
                why = "slow: SP_DOCTEST_SLOW=1 runs it"
            elif "needs" in b.opts:
                n = missing(b.opts["needs"], top)
                why = n and "needs %s" % n
            if why:
                print("%s: skipped (%s)" % (b.where(), why), flush=True)
                skipped += 1
                continue
            t0 = time.time()
            problems = run_block(b, top, env, scratch)
            checked += 1
            if save and b.output is not None:
                name = b.opts.get("id") or re.sub(r"[^A-Za-z0-9.-]+", "-", b.where())
                with open(os.path.join(save, name + ".out"), "w") as f:
                    f.write("\n".join(b.output) + "\n")
            if problems:
                failed += 1
                for p in problems:
                    print("FAIL: %s: %s" % (b.where(), p), flush=True)
                shown = b.output[:40]
                print("  it printed (%d lines%s):\n    %s" % (
                    len(b.output), ", the first 40" if len(b.output) > 40 else "",
                    "\n    ".join(shown)), flush=True)
            else:
                print("%s: ok (%.1f s)" % (b.where(), time.time() - t0), flush=True)
        for where, opts in refs:
            b = ids.get(opts["from"])
            if b is None and a.files:
                print("%s: skipped (block %s is not in the files checked)" % (where, opts["from"]))
                continue
            if b is None:
                raise SystemExit("%s: from=%s: no block of that id" % (where, opts["from"]))
            if b.output is None:
                print("%s: skipped (block %s did not run)" % (where, opts["from"]), flush=True)
                continue
            checked += 1
            lost = check_contains(opts["contains"], b.output, parse_tol(opts))
            for t in lost:
                print("FAIL: %s: %s (%s) prints no line containing\n    %s" % (
                    where, opts["from"], b.where(), t), flush=True)
            failed += bool(lost)
            if not lost:
                print("%s: ok (from %s)" % (where, opts["from"]), flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("doc-test: %d checked, %d failed, %d skipped" % (checked, failed, skipped))
    return 1 if failed or not checked else 0


def self_test():
    """The comparison rules on fixed cases, so a broken checker cannot pass
    every document."""
    ok = [("1.4", "1.43"), ("2.2", "2.2"), ("0.0877053", "0.0877053"), ("1.25e8", "1.2549e8"),
          ("| application | 1.6 | 1.4 |", "| application | 1.6 | 1.4 |"),
          ("a   b 3", "a b 3"), ("x 1 ...", "x 1 2 3"), ("-1.2", "-1.2")]
    bad = [("1.4", "1.46"), ("2.2", "2.3"), ("| application | 1.6 |", "| application | 1.7 |"),
           ("a 3", "a 3 4"), ("8cu/1980/2619", "8cu/1980/2618"), ("1.4", "x 1.4")]
    errors = [(w, g) for w, g in ok if not line_matches(w, g, None)]
    errors += [(w, g) for w, g in bad if line_matches(w, g, None)]
    if not contains("application: 1.4-2.2%", "whole application: 1.4-2.2% at all", None):
        errors.append(("contains", "1.4-2.2%"))
    if contains("application: 1.4-3.0%", "whole application: 1.4-2.2% at all", None):
        errors.append(("contains", "1.4-3.0%"))
    if not number_matches("12.0", "12.3", ("abs", 0.5)) or number_matches("12", "14", ("%", 5)):
        errors.append(("tol", "12"))
    if check_lines(["a", "...", "c"], ["a", "b", "c"], None) is not None:
        errors.append(("order", "a c"))
    if check_lines(["c", "a"], ["a", "b", "c"], None) is None:
        errors.append(("order", "c a"))
    for w, g in errors:
        print("FAIL: self-test: '%s' against '%s'" % (w, g))
    return 1 if errors else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    sys.exit(main(sys.argv[1:]))
