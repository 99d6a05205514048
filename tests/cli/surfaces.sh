#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# surfaces.sh: scaling surfaces as CSV, checked against the fixture tables
# (tests/data/README.md), where every ratio is known by hand.
. "$(dirname "$0")/lib.sh"

sp surfaces --runs "$TRAIN/runs.csv" --out surf
expect_rc "surfaces" 0
expect_out "surfaces" "wrote surf/time.csv"
[ ! -e surf/power.csv ] || fail "surfaces wrote power without --quantity"
header='kernel,quantity,kind,cu_from,engine_from,memory_from,cu_to,engine_to,memory_to,ratio'
[ "$(head -n 1 surf/time.csv)" = "$header" ] || fail "surfaces header: $(head -n 1 surf/time.csv)"
# Per kernel: 2 CU regions x (2 engine + 2 memory ratios) + 2 x 2 CU ratios.
[ "$(wc -l <surf/time.csv)" -eq $((1 + 9 * 12)) ] || fail "surfaces: $(wc -l <surf/time.csv) lines"
[ "$(grep -c '^"sgemm",' surf/time.csv)" -eq 12 ] || fail "surfaces: sgemm rows"
[ "$(grep -c '^"sgemm",time,engine,' surf/time.csv)" -eq 4 ] || fail "surfaces: engine rows"
[ "$(grep -c '^"sgemm",time,cu,' surf/time.csv)" -eq 4 ] || fail "surfaces: cu rows"

# Compute class: doubling the engine clock or the CUs halves the time; the
# memory clock moves it by 1/1.05 (tables 2.1 -> 2 and 1.05 -> 1).
for row in \
  '"sgemm",time,engine,32,500,1375,32,1000,1375,0.5' \
  '"sgemm",time,cu,16,500,475,32,500,475,0.5' \
  '"sgemm",time,memory,32,1000,475,32,1000,1375,0.952380952' \
  '"reduce<float, 256>",time,memory,32,1000,475,32,1000,1375,0.4' \
  '"kmeans.assign",time,engine,16,500,475,16,1000,475,0.741935484'; do
  grep -qxF -- "$row" surf/time.csv || fail "surfaces: no row $row"
done

# Every ratio is positive and finite; rows parse as 10 CSV fields.
if have_python; then
  python3 - surf/time.csv <<'PY' || fail "surfaces CSV does not parse"
import csv, math, sys
rows = list(csv.reader(open(sys.argv[1])))
assert all(len(r) == 10 for r in rows), [r for r in rows if len(r) != 10][:1]
for r in rows[1:]:
    v = float(r[9])
    assert v > 0 and math.isfinite(v), r
PY
fi

sp surfaces --runs "$TRAIN/runs.csv" --kernel spmv --quantity both --out surf2
expect_rc "surfaces both" 0
expect_out "surfaces both" "wrote surf2/time.csv" "wrote surf2/power.csv"
[ "$(wc -l <surf2/power.csv)" -eq 13 ] || fail "surfaces: power rows"
grep -qxF '"spmv",power,cu,16,1000,1375,32,1000,1375,1.42857143' surf2/power.csv ||
  fail "surfaces: spmv power CU ratio"
no_leftovers "surfaces" surf2/time.csv.tmp

sp surfaces --runs "$TRAIN/runs.csv" --kernel nosuch --out surf3
expect_error "surfaces of an unknown kernel" 2 "'nosuch'"
[ ! -e surf3 ] || fail "surfaces of an unknown kernel created its directory"

finish
