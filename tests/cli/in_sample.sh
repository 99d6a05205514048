#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# in_sample.sh (issue 12, item 5): predict says which rows are in-sample.
# On its own training kernels a model reports near-zero error; every format
# marks those rows (CSV in_training 1, JSON "in_training": true, the table a
# '*' and a note), and rows of new kernels are not marked.
. "$(cd "$(dirname "$0")/../dse" && pwd)/lib.sh"

# Two training kernels and one new one, in one runs.csv.
{
  cat "$NEW/runs.csv"
  grep -E '^(sgemm|spmv),' "$TRAIN/runs.csv"
} >mixed-runs.csv
{
  cat "$NEW/counters.csv"
  grep -E '^(sgemm|spmv),32,1000,1375,' "$TRAIN/counters.csv"
} >mixed-counters.csv
[ "$(grep -c '^sgemm,' mixed-runs.csv)" -gt 1 ] || fail "the fixture has no sgemm rows"
IN="--model $MODEL --runs mixed-runs.csv --counters mixed-counters.csv --target 16cu/500/475"

sp predict $IN --format csv
expect_rc "predict csv" 0
# in_training KERNEL: that kernel's in_training field, found by the header.
in_training() {
  awk -F, -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "in_training") c = i }
    NR > 1 && $1 == k { print $c }' out
}
head -n 1 out | grep -q ',in_training,' || fail "csv header lacks in_training: $(head -n 1 out)"
for k in sgemm spmv; do
  [ "$(in_training $k)" = 1 ] || fail "csv: training kernel $k not marked: $(grep "^$k," out)"
done
for k in fft histogram; do
  [ "$(in_training $k)" = 0 ] || fail "csv: new kernel $k marked: $(grep "^$k," out)"
done

sp predict $IN --format json
expect_rc "predict json" 0
if have_python; then
  python3 - out <<'PY' || fail "json in_training"
import json, sys
rows = json.load(open(sys.argv[1]))["predictions"]
marked = {r["kernel"]: r["in_training"] for r in rows}
assert marked == {'stencil "5pt"': False, "fft": False, "histogram": False,
                  "sgemm": True, "spmv": True}, marked
PY
else
  grep -q '"kernel":"sgemm".*"in_training":true' out || fail "json: sgemm not marked"
  grep -q '"kernel":"fft".*"in_training":false' out || fail "json: fft marked"
fi

sp predict $IN
expect_rc "predict table" 0
grep -q '^sgemm .*  \*$' out || fail "table: sgemm not marked: $(grep '^sgemm' out)"
grep -q '^fft .*\*$' out && fail "table: fft marked"
grep -q "^\* a kernel of the model's training data: its errors are in-sample" out ||
  fail "table: no note on the in-sample rows"
# New kernels only: no mark and no note.
sp predict --model "$MODEL" --runs "$NEW/runs.csv" --counters "$NEW/counters.csv" \
  --target 16cu/500/475
grep -q 'in-sample' out && fail "table of new kernels: a note on in-sample rows"

finish
