#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# doc_examples.sh (issue 12, item 6): the example outputs in docs/dse.md are
# what the tool prints.  Each command shown there ("    scalepredict ...")
# is run on the bundled model and sample kernels, and every line of the
# output blocks that follow it must be a line of what it prints ("..." lines
# are elisions; a "(...)" inside a line elides its middle).  Skipped when
# the bundled model is not built.
. "$(dirname "$0")/../cli/lib.sh"

top_src=${SP_TOP_SRCDIR:-$sp_here/../..}
doc=$top_src/docs/dse.md
models=$SP_TOP_BUILDDIR/models
if [ ! -f "$models/hd7970-synth/manifest.txt" ] || [ ! -f "$doc" ]; then
  echo "no bundled model or no docs/dse.md: skipped" >&2
  exit 77
fi
if ! have_python; then
  echo "no python3 to read the document: skipped" >&2
  exit 77
fi

python3 - "$doc" "$SCALEPREDICT" "$SP_TOP_BUILDDIR" "$top_src/docs/examples/dse" <<'PY' ||
import os, re, shlex, subprocess, sys
doc, prog, build, examples = sys.argv[1:5]
lines = open(doc, encoding="utf-8").read().splitlines()
checks, cmd, i = [], None, 0
while i < len(lines):
    line = lines[i]
    if line.startswith("    scalepredict ") and "..." not in line:
        cmd = line.strip()
        while cmd.endswith("\\"):
            i += 1
            cmd = cmd[:-1] + " " + lines[i].strip()
    elif line.startswith("```"):
        block = []
        i += 1
        while not lines[i].startswith("```"):
            block.append(lines[i])
            i += 1
        if line.strip() == "```" and cmd:
            checks.append((cmd, block))
    elif line.startswith("## "):
        cmd = None
    i += 1
os.environ.update(S=os.path.join(build, "models/hd7970-synth-samples"), E=examples)
env = os.environ
outputs, bad = {}, 0
for cmd, block in checks:
    words = [os.path.expandvars(w) for w in shlex.split(cmd)]
    args, skip = [], False
    for w in words[1:]:
        if skip:
            skip = False
        elif w in ("--out", "--report"):
            skip = True  # to standard output, as the document shows it
        else:
            args.append(w)
    if cmd not in outputs:
        r = subprocess.run([prog] + args, cwd=build, env=env, capture_output=True, text=True)
        if r.returncode:
            print("FAIL: %s: exit %d: %s" % (cmd, r.returncode, r.stderr))
            bad += 1
        outputs[cmd] = [l.rstrip("\r") for l in r.stdout.splitlines()]
    got = outputs[cmd]
    for want in block:
        if want.strip() in ("...", ""):
            continue
        if "(...)" in want:
            head, tail = want.split("(...)", 1)
            ok = any(g.startswith(head) and g.endswith(tail) for g in got)
        else:
            ok = want in got
        if not ok:
            print("FAIL: docs/dse.md, '%s': the tool does not print\n  %s" % (cmd[:60], want))
            bad += 1
print("%d example blocks checked" % len(checks))
sys.exit(1 if bad or not checks else 0)
PY
  fail "docs/dse.md's examples differ from the tool's output"

finish
