#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# pinned.sh: every command's output on the tests/data fixtures, byte for
# byte: predict (CSV, JSON, table), train's manifest, surfaces, dse (text,
# JSON, the report's HTML and SVG), governor (text, JSON, the report),
# export on a refined space, and evaluate (JSON and report tables).
#
# The golden files (golden/pinned-*) were written by the code as it stood
# before the source tree was split into module folders (issue 9); those of
# the physet method (the recommended one of a trained model, so the default
# of predict and export) and the manifest's format 2 when physet was merged
# into the split tree.  They pin behaviour, not accuracy: a change that
# alters an output on purpose updates them deliberately (SP_GOLDEN_UPDATE=1
# rewrites them, see lib.sh).
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"

PRED="predict --model $MODEL --runs $NEW/runs.csv --counters $NEW/counters.csv"
DSE="dse --model $MODEL --runs $NEW/runs.csv --counters $NEW/counters.csv"

# pin WHAT GOLDEN ARGS...: runs scalepredict ARGS, which must succeed, and
# compares its standard output with golden/pinned-GOLDEN (the fixtures'
# directory, which JSON output names, written DATA).
pin() {
  what=$1
  golden=$2
  shift 2
  sp "$@"
  expect_rc "$what" 0 || return
  sed "s|$SP_TEST_DATA|DATA|g" out >pinned.out
  same_as_golden "$what" pinned.out "pinned-$golden"
}

# The model itself: training is deterministic, so its manifest is pinned
# with every number and the checksum line (the paths are the fixtures').
sed "s|$SP_TEST_DATA|DATA|g; /^created /d; /^sha256 /d" "$MODEL/manifest.txt" >manifest
same_as_golden "train manifest" manifest pinned-manifest.txt

pin "predict csv" predict-all-physet.csv $PRED --target all --format csv
pin "predict csv wu2015" predict-all.csv $PRED --method wu2015 --target all --format csv
pin "predict json wu2015" predict-all.json $PRED --method wu2015 --target all --format json
pin "predict table" predict-table.txt $PRED --target 16cu/500/475
sp surfaces --runs "$NEW/runs.csv" --quantity both --out surfaces
expect_rc "surfaces" 0
same_as_golden "surfaces time" surfaces/time.csv pinned-surfaces-time.csv
same_as_golden "surfaces power" surfaces/power.csv pinned-surfaces-power.csv

printf 'kernel,weight\nfft,2\n"stencil ""5pt""",1\nhistogram,0.5\n' >weights.csv
pin "dse text" dse.txt $DSE --weights weights.csv --power-cap 120
# The fixtures' kernels scale exactly, so wu2015 and physet agree at the
# precision dse and governor print.
pin "dse text wu2015" dse.txt $DSE --method wu2015 --weights weights.csv --power-cap 120
pin "dse json" dse-interp3.json $DSE --weights weights.csv --grid-interp 3 --json
sp $DSE --weights weights.csv --power-cap 120 --time-budget 1.5 --report report
expect_rc "dse report" 0
for f in index.html pareto-energy.svg pareto-power.svg axis-cu.svg axis-engine.svg \
  axis-memory.svg kernel-classes.svg heatmap-time.svg heatmap-energy.svg; do
  same_as_golden "dse report $f" "report/$f" "pinned-dse-report-$f"
done

{
  echo "order,kernel"
  for i in 1 2 3; do echo "$i,fft"; done
  echo '4,"stencil ""5pt"""'
  echo '5,histogram'
  echo '6,fft'
} >trace.csv
GOV="governor --model $MODEL --trace trace.csv --runs $NEW/runs.csv --counters $NEW/counters.csv"
pin "governor text" governor.txt $GOV --load-counters $LOADS --slowdown 1.2
pin "governor json" governor.json $GOV --load-counters $LOADS --slowdown 1.2 --json
pin "governor json wu2015" governor.json $GOV --method wu2015 --load-counters $LOADS \
  --slowdown 1.2 --json
sp $GOV --load-counters $LOADS --slowdown 1.2 --report greport
expect_rc "governor report" 0
for f in index.html policies.svg power-timeline.svg engine-timeline.svg; do
  same_as_golden "governor report $f" "greport/$f" "pinned-governor-report-$f"
done

pin "export refined" export-interp2-physet.csv export --model "$MODEL" --runs "$NEW/runs.csv" \
  --counters "$NEW/counters.csv" --grid-interp 2 --with-measured
pin "export refined wu2015" export-interp2.csv export --model "$MODEL" --method wu2015 \
  --runs "$NEW/runs.csv" --counters "$NEW/counters.csv" --grid-interp 2 --with-measured

EVAL="evaluate --runs $TRAIN/runs.csv --counters $TRAIN/counters.csv --base $BASE"
pin "evaluate json" evaluate.json $EVAL --clusters 2:3 --repeats 2 --seed 5 --quiet --json
sp $EVAL --clusters 2:3 --repeats 2 --seed 5 --quiet --report ereport --report-predictions
expect_rc "evaluate report" 0
for f in summary.csv by_clusters.csv by_base.csv per_kernel.csv histogram.csv predictions.csv; do
  same_as_golden "evaluate report $f" "ereport/$f" "pinned-evaluate-report-$f"
done

# Leave one family out, with further measurements and a floor kernel
# (physet's inputs), on the training fixture less the kernel whose name holds
# a comma (as the pinned output was made).
mkdir -p fam
grep -v '^"reduce' "$TRAIN/runs.csv" >fam/runs.csv
grep -v '^"reduce' "$TRAIN/counters.csv" >fam/counters.csv
printf '%s\n' kernel,family sgemm,dense spmv,sparse nbody,dense stream.copy,stream bfs,sparse \
  mandelbrot,compute transpose,stream kmeans.assign,compute >fam/families.csv
pin "evaluate families" evaluate-families.txt evaluate --runs fam/runs.csv \
  --counters fam/counters.csv --base "$BASE" --clusters 2 --families fam/families.csv \
  --also-measured 16cu/500/475,32cu/1000/475 --floor-kernel nbody --quiet --threads 1
"$SCALEPREDICT" train --quiet --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" \
  --base "$BASE" --clusters 3 --seed 1 --floor-kernel nbody --out "$WORK/model-floor" ||
  fail "train --floor-kernel"
pin "predict use-measured" predict-use-measured.csv predict --model "$WORK/model-floor" \
  --runs "$NEW/runs.csv" --counters "$NEW/counters.csv" --target all --format csv \
  --use-measured 16cu/500/475

finish
