#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tables.sh (issue 26, tables): real kernel names in the text tables.  A
# demangled template of 247 characters, a UTF-8 name and a name holding a
# newline keep predict's and dse's columns straight: widths count
# characters, not bytes; a control character is shown escaped (\n), never
# raw; a name longer than the column is shortened in the middle, keeping
# both ends; CSV and JSON keep every name exactly.  The application of a
# profile has a 90% interval: its kernels' interval ends summed with their
# launch counts, low with low and high with high (docs/profile.md).
. "$(cd "$(dirname "$0")/../dse" && pwd)/lib.sh"

if ! have_python; then
  echo "no python3 for the table checks: skipped" >&2
  exit 77
fi

# Renames three kernels of tests/data/new in both files.
LONG="void very_long_namespace::detail::kernel<$(printf 'float, %.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 \
  14 15 16 17 18 19 20 21 22 23 24 25)int>(float const*, float*, int)"
export LONG
python3 - "$NEW" <<'EOF' || fail "cannot write the renamed fixtures"
import csv, os, sys
names = {"fft": "\u044f\u0434\u0440\u043e_fft", "histogram": "hist\nline2",
         'stencil "5pt"': os.environ["LONG"]}
for f in ("runs", "counters"):
    rows = list(csv.reader(open(os.path.join(sys.argv[1], f + ".csv"), newline="")))
    with open(f + ".csv", "w", newline="") as out:
        w = csv.writer(out, lineterminator="\n")
        for r in rows:
            r[0] = names.get(r[0], r[0])
            w.writerow(r)
EOF

# columns WHAT FILE HEADER_WORD: in FILE (a table), the cell after the name
# column starts at the same character in the header line (at HEADER_WORD)
# and in every row (at its first configuration, NNcu/...), and no row is
# cut by a raw line break.
columns() {
  python3 - "$2" "$3" <<'EOF' || fail "$1: the columns are not straight: $(cat "$2")"
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
head = [i for i, l in enumerate(lines) if l.startswith("kernel ") or l.startswith("rank ")][0]
at = lines[head].index(sys.argv[2])
rows = [l for l in lines[head + 1:] if l.strip()]
assert rows, "no rows"
for l in rows:
    m = re.search(r"\d+cu/\d+/\d+", l)
    assert m, "a row without a configuration (a broken line?): %r" % l
    assert m.start() == at, "%r: column at %d, header at %d" % (l, m.start(), at)
EOF
}

# ---- predict's table ----
sp predict --model "$MODEL" --runs runs.csv --counters counters.csv --target all
expect_rc "predict table" 0
columns "predict table" out target
grep -qF 'hist\nline2' out || fail "predict table: the newline is not shown escaped: $(cat out)"
grep -q '^line2' out && fail "predict table: a raw newline in a name"
grep -qF 'void very_long_namespace::detai...nt>(float const*, float*, int)' out ||
  fail "predict table: the long name is not shortened in the middle to 64 characters"
# CSV and JSON keep every name exactly.
sp predict --model "$MODEL" --runs runs.csv --counters counters.csv --target all --format csv
expect_rc "predict csv" 0
cp out pred.csv
sp predict --model "$MODEL" --runs runs.csv --counters counters.csv --target all --format json
expect_rc "predict json" 0
cp out pred.json
python3 - <<'EOF' || fail "predict csv/json: names not exact"
import csv, json, os
want = {os.environ["LONG"], "hist\nline2", "\u044f\u0434\u0440\u043e_fft"}
got = {r["kernel"] for r in csv.DictReader(open("pred.csv", encoding="utf-8", newline=""))}
assert want <= got, got
got = {p["kernel"] for p in json.load(open("pred.json", encoding="utf-8"))["predictions"]}
assert want <= got, got
EOF

# ---- dse's tables: elasticities per kernel, candidates ----
printf 'name,config\n\316\273-card,16cu/500/475\n%s,32cu/1000/1375\n' \
  "a product whose name runs on for far longer than any column ought to" >cands.csv
sp dse --model "$MODEL" --runs runs.csv --counters counters.csv --candidates cands.csv
expect_rc "dse" 0
python3 - out <<'EOF' || fail "dse: the elasticity rows are not aligned: $(cat out)"
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
head = [i for i, l in enumerate(lines) if l.startswith("elasticity")][0]
rows = lines[head + 1:head + 5]  # the workload and three kernels
assert len({len(l) - len(l.split()[-1]) for l in rows}) == 1, rows
assert any("hist\\nline2" in l for l in rows), rows
EOF
columns "dse candidates" out config

# ---- the application's interval ----
mkdir prof
cp "$NEW/runs.csv" "$NEW/counters.csv" prof/
printf 'kernel,count\nfft,3\nhistogram,2.5\n"stencil ""5pt""",7\n' >prof/launches.csv
sp predict --model "$MODEL" --profile prof --target all --format csv
expect_rc "predict --profile csv" 0
python3 - out <<'EOF' || fail "predict --profile: the application's interval is not the kernels' sums"
import csv, sys
count = {"fft": 3, "histogram": 2.5, 'stencil "5pt"': 7}
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
apps = [r for r in rows if r["kernel"] == "(application)"]
assert apps, "no application rows"
for a in apps:
    ks = [r for r in rows if r["target"] == a["target"] and r["kernel"] in count]
    assert len(ks) == 3, ks
    for col in ("time_lo90_ms", "time_hi90_ms"):
        want = sum(count[r["kernel"]] * float(r[col]) for r in ks)
        got = float(a[col])
        assert abs(got - want) <= 1e-4 * want, (a["target"], col, got, want)
    assert float(a["time_lo90_ms"]) <= float(a["time_ms"]) <= float(a["time_hi90_ms"]), a
EOF
sp predict --model "$MODEL" --profile prof --target 16cu/500/475
expect_rc "predict --profile table" 0
grep '^(application)' out | grep -q ' \.\. ' || fail "predict --profile: no interval in the table: $(cat out)"
sp predict --model "$MODEL" --method wu2015 --profile prof --target 16cu/500/475 --format csv
expect_rc "predict --profile, wu2015" 0
grep '^(application),' out | cut -d, -f11,12 | grep -qx ',' ||
  fail "predict --profile, wu2015: an interval from kernels that have none: $(cat out)"

finish
