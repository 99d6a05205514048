#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# second-sms.sh: the second SM count a model's profiles are measured at
# (docs/profile.md, "Two points"): for each SM count of the grid below the
# base, physet's held-out error (leave one family out) when held-out kernels
# count as measured there too (evaluate --also-measured); the count whose
# error summed over every other configuration (the measured one counting 0)
# is least.  Writes second-sms.txt for the model's directory, the table in
# its comments:
#
#   D=training/data/h100-train SP=src/scalepredict BASE=132cu/1980/2619 \
#     docs/examples/profile/second-sms.sh >second-sms.txt
#
# A CPU job (about 3 minutes a level on a 2-core machine for h100-train).
# EXTRA: further evaluate options, word-split: for the model of both
# memory systems, from each card's base,
#
#   D=training/data/h100h200 BASE=132cu/1980/3201 \
#     EXTRA="--memory training/data/h100h200/memory.csv --epochs 1 --restarts 1" ...
#
# (--epochs 1 --restarts 1 train wu2015's networks, which physet does not
# use: the figures are the same, each level a minute or two).
set -eu
SP=${SP:-scalepredict}
D=${D:?give D, the training data directory: runs.csv, counters.csv, families.csv}
BASE=${BASE:?give BASE, the base configuration, e.g. 132cu/1980/2619}
FLOOR=${FLOOR:-idle_spin}
cu=${BASE%%cu/*}
clocks=${BASE#*cu/}
levels=${LEVELS:-$(cut -d, -f2-4 "$D/runs.csv" | awk -F, -v c="$clocks" -v b="$cu" \
  'NR > 1 && $2 "/" $3 == c && $1 < b { print $1 }' | sort -un)}
echo "# second-sms.txt: the SM count 'scalepredict profile' measures second"
echo "# (docs/profile.md, \"Two points\"), chosen by docs/examples/profile/second-sms.sh"
echo "# on $D${EXTRA:+ ($EXTRA)}, base $BASE: physet's leave-one-family-out error"
echo "# with each level measured too;"
echo "# total: the summed absolute time error, time_mape x n (the measured"
echo "# level is not scored: its error is 0)."
echo "# level time_mape n power_mape total"
tmp=${TMPDIR:-/tmp}/second-sms.$$
for l in $levels; do
  # shellcheck disable=SC2086 # EXTRA is a list of options
  "$SP" evaluate --runs "$D/runs.csv" --counters "$D/counters.csv" --base "$BASE" \
    --families "$D/families.csv" --floor-kernel "$FLOOR" --quiet --methods physet \
    --also-measured "${l}cu/$clocks" ${EXTRA:-} >"$tmp"
  awk -v l="$l" '$1 == "physet" && $2 ~ /%$/ { gsub(/%/, ""); print l, $2, $5, $6; exit }' "$tmp"
done >"$tmp.rows"
awk '{ t = $2 * $3 / 100; printf "# %s %s%% %s %s%% %.1f\n", $1, $2, $3, $4, t
  if (best == "" || t < bt) { best = $1; bt = t } } END { print "second_sms " best }' "$tmp.rows"
rm -f "$tmp" "$tmp.rows"
