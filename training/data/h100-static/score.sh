#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# score.sh: the static method's errors on the H100, split into the base time
# and the scaling surface (issue 14, item 2), which `evaluate` does not
# split: it scores every target but the base, where a static estimate's error
# is the base time's and the surface's together.
#
#   sh training/data/h100-static/score.sh lofo          (from the repository
#   sh training/data/h100-static/score.sh validation2    root, after make.sh)
#
# Only the 298 kernels of h100-train that counters.csv has static features
# of are used (the suite and the retired first validation set; the later
# sets were retired into h100-train without their PTX features).
# lofo: leave one family out over those kernels (families.csv): for each of
# their 51 families a static model is trained on the other families and
# predicts the family's kernels.  validation2: one static model trained on
# all of them predicts the 32 kernels of training/kernels/validation2.  Both
# use `train --methods static` at the 132-SM base with its defaults (seed 1)
# and `predict --method static --target all`, then print, as absolute
# percentage errors (mean, median, 90th percentile, count):
#   base      the time at 132 SMs, predicted from the code alone;
#   absolute  the time at the 12 other SM counts (what evaluate scores);
#   surface   the predicted ratio to the predicted base against the measured
#             ratio to the measured base, at the 12 other SM counts;
#   constant  the measured base time at every SM count (the floor a
#             method with a measured run must beat), at the same 12.
# A failed step (its message), no prediction or a value that is not a
# positive number stops it with a message and a non-zero exit status.
set -eu
here=training/data/h100-static
sp=${SCALEPREDICT:-src/scalepredict}
train=training/data/h100-train
base=132cu/1980/2619
tmp=$(mktemp -d "${TMPDIR:-/tmp}/h100-static-score-XXXXXX")
cleanup() {
  st=$?
  rm -rf "$tmp"
  [ "$st" -eq 0 ] || echo "score.sh: failed (exit status $st)" >&2
}
trap cleanup EXIT

# model RUNS COUNTERS DIR: a static model of those kernels.
model() {
  "$sp" train --runs "$1" --counters "$2" --base "$base" --methods static --out "$3" --quiet
}

# predict DIR RUNS COUNTERS: predict's CSV rows (no header) of every kernel
# (through a file: a pipeline would hide predict's exit status).
predict() {
  "$sp" predict --model "$1" --runs "$2" --counters "$3" --base "$base" --target all \
    --method static --format csv >"$tmp/predicted.csv"
  tail -n +2 "$tmp/predicted.csv"
}

# only KERNELS FILE [keep]: FILE's header and its rows whose kernel is
# (keep) or is not (otherwise) listed in KERNELS.
only() {
  awk -F, -v keep="${3:-}" 'FNR == NR { k[$1] = 1; next }
    FNR == 1 || (keep != "") == ($1 in k)' "$1" "$2"
}

# The kernels with static features, their runs and their families.
tail -n +2 "$here/counters.csv" | cut -d, -f1 >"$tmp/covered"
only "$tmp/covered" "$train/runs.csv" keep >"$tmp/all-runs.csv"
only "$tmp/covered" "$train/families.csv" keep >"$tmp/families.csv"

lofo() {
  for fam in $(tail -n +2 "$tmp/families.csv" | cut -d, -f2 | sort -u); do
    awk -F, -v f="$fam" '$2 == f { print $1 }' "$tmp/families.csv" >"$tmp/out"
    only "$tmp/out" "$tmp/all-runs.csv" >"$tmp/runs.csv"
    only "$tmp/out" "$here/counters.csv" >"$tmp/counters.csv"
    only "$tmp/out" "$tmp/all-runs.csv" keep >"$tmp/held-runs.csv"
    only "$tmp/out" "$here/counters.csv" keep >"$tmp/held-counters.csv"
    rm -rf "$tmp/model"
    model "$tmp/runs.csv" "$tmp/counters.csv" "$tmp/model"
    predict "$tmp/model" "$tmp/held-runs.csv" "$tmp/held-counters.csv"
  done
}

validation2() {
  model "$tmp/all-runs.csv" "$here/counters.csv" "$tmp/model"
  predict "$tmp/model" training/kernels/validation2/data/h100/runs.csv "$here/validation2-counters.csv"
}

# Summary of predict's rows: kernel,target,base_time_ms,time_ms,measured.
# Exit status 1, with a message, when a row's time is not a positive number
# or a statistic has no value to summarise.
summary() {
  awk -F, -v base="$base" '
    function bad(msg) { print "score.sh: " msg > "/dev/stderr"; failed = 1; exit 1 }
    function stats(name, a, n,   i, j, t, s) {
      for (i = 2; i <= n; i++)
        for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
      for (i = 1; i <= n; i++) s += a[i]
      printf "%-9s %8.2f %8.2f %8.2f %6d\n", name, s / n, a[int((n + 1) / 2)],
        a[int(0.9 * n + 0.5)], n
    }
    function ape(p, m) { return 100 * (p > m ? p - m : m - p) / m }
    $4 !~ /^[0-9.e+-]+$/ || !($4 + 0 > 0) || ($5 != "" && ($5 !~ /^[0-9.e+-]+$/ || !($5 + 0 > 0))) {
      bad("line " NR ": kernel " $1 " at " $2 ": predicted " $4 ", measured " $5 \
        " (not a positive number)")
    }
    { pred[$1, $2] = $4; meas[$1, $2] = $5; if ($2 == base) kernels[$1] = 1; else targets[$1, $2] = 1 }
    END {
      if (failed) exit 1
      for (k in kernels) b[++nb] = ape(pred[k, base], meas[k, base])
      for (kt in targets) {
        split(kt, p, SUBSEP)
        k = p[1]
        if (!(k in kernels) || meas[kt] == "") continue
        a[++n] = ape(pred[kt], meas[kt])
        s[n] = ape(pred[kt] / pred[k, base], meas[kt] / meas[k, base])
        c[n] = ape(meas[k, base], meas[kt])
      }
      if (nb < 1 || n < 1) bad("no prediction to score (" nb + 0 " at the base, " n + 0 " elsewhere)")
      print "error     mean(%)  median   p90      n"
      stats("base", b, nb); stats("absolute", a, n); stats("surface", s, n); stats("constant", c, n)
    }'
}

# The predictions go to a file first, so that a failed step stops the script
# (set -e; a pipeline would pass on only the summary's status).
case ${1:-} in
lofo) lofo >"$tmp/rows" ;;
validation2) validation2 >"$tmp/rows" ;;
*) echo "usage: sh $0 lofo|validation2" >&2; exit 2 ;;
esac
summary <"$tmp/rows"
