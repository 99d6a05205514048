#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# figures.sh: docs/accuracy.md's memory-axis figures from one evaluate report
# on this set, beside the two baselines on the same rows (issue 28):
#
#   sh training/data/h100h200/figures.sh REPORT_DIR     (from the repository root)
#
# REPORT_DIR is what `scalepredict evaluate --methods physet --report` wrote
# from one base of this set (docs/accuracy.md, "The memory axis").  For the
# rows of the other card's memory system (the target's memory clock is not
# the base's) at 132 SMs and at all 13 SM counts, and for the base card's
# own rows, it prints physet's mean absolute percentage error and 90%
# interval coverage, and beside them, on the same rows:
#
# - no change: the base card's value at the same SM count, the one physet
#   predicted there in the same evaluation (from one base run: the SM-axis
#   prediction; at 132 SMs the base measurement itself), or the measured one
#   where the base card's SM counts were measured (--also-measured: they are
#   then not in the report);
# - the bandwidth rule: that value with the kernel's DRAM-busy share of the
#   time (counters' mem_time_pct at the base) sped up by the peak bandwidth
#   ratio (memory.csv), T' = T (u B_base / B_target + 1 - u); for power,
#   the floor kernel's (idle_spin) power on the target's card plus the base
#   card's dynamic power (its value less idle_spin's there) times T / T'.
set -eu
if [ $# -ne 1 ] || [ ! -f "$1/predictions.csv" ]; then
  echo "usage: sh training/data/h100h200/figures.sh REPORT_DIR (an evaluate report)" >&2
  exit 1
fi
here=$(dirname "$0")
awk -F, -v OFS=, '
  FILENAME ~ /memory\.csv$/ { if (FNR > 1) peak[$1] = $5; next }
  FILENAME ~ /runs\.csv$/ {
    if (FNR > 1) { T[$1, $2 "cu/" $3 "/" $4] = $5; P[$1, $2 "cu/" $3 "/" $4] = $6 }
    next
  }
  FILENAME ~ /counters\.csv$/ {
    if (FNR == 1) { for (i = 1; i <= NF; i++) col[$i] = i; next }
    u[$1, $2 "cu/" $3 "/" $4] = $col["mem_time_pct"] / 100
    next
  }
  FNR == 1 { for (i = 1; i <= NF; i++) pc[$i] = i; next }
  $pc["method"] == "physet" {
    n++
    q[n] = $pc["quantity"]; k[n] = $pc["kernel"]; b[n] = $pc["base"]; t[n] = $pc["target"]
    pred[n] = $pc["predicted"]; meas[n] = $pc["measured"]; lo[n] = $pc["lo90"]; hi[n] = $pc["hi90"]
    seen[q[n], k[n], t[n]] = pred[n]
  }
  function clk(c) { split(c, a, "/"); return a[3] }
  function cus(c) { split(c, a, "cu"); return a[1] + 0 }
  function same(c, m) { split(c, a, "/"); return a[1] "/" a[2] "/" m }
  # The base card at the target SM count: predicted in this evaluation, or measured.
  function basecard(i, c) {
    c = same(t[i], clk(b[i]))
    if ((q[i], k[i], c) in seen) return seen[q[i], k[i], c]
    return q[i] == "time" ? T[k[i], c] : P[k[i], c]
  }
  function err(v, x) { return (v > x ? v - x : x - v) / x }
  # Row i into group g: physet, its interval, and the baselines v0 and v1.
  function tally(g, i, v0, v1) {
    cnt[g]++
    ape[g] += err(pred[i], meas[i])
    cov[g] += lo[i] <= meas[i] && meas[i] <= hi[i]
    nc[g] += err(v0, meas[i])
    rl[g] += err(v1, meas[i])
  }
  END {
    for (i = 1; i <= n; i++) {
      if (clk(t[i]) == clk(b[i])) {
        tally(q[i] " same", i, meas[i], meas[i])
        continue
      }
      v0 = basecard(i)
      ub = u[k[i], b[i]]
      r = ub * peak[clk(b[i])] / peak[clk(t[i])] + 1 - ub
      if (q[i] == "time")
        v1 = v0 * r
      else
        v1 = P["idle_spin", t[i]] + (v0 - P["idle_spin", same(t[i], clk(b[i]))]) / r
      tally(q[i] " otherall", i, v0, v1)
      if (cus(t[i]) == 132) tally(q[i] " other132", i, v0, v1)
    }
    split("time other132,time otherall,time same,power other132,power otherall,power same", order, ",")
    print "| rows | n | physet | coverage | no change | bandwidth rule |"
    print "| --- | --- | --- | --- | --- | --- |"
    for (o = 1; o <= 6; o++) {
      g = order[o]
      if (!cnt[g]) continue
      split(g, w, " ")
      label = w[1] (w[2] == "other132" ? ", other card, 132 SMs" : w[2] == "otherall" ? ", other card, all SM counts" : ", base card, all SM counts")
      printf "| %s | %d | %.2f | %.1f | %s | %s |\n", label, cnt[g], 100 * ape[g] / cnt[g],
        100 * cov[g] / cnt[g], w[2] == "same" ? "-" : sprintf("%.2f", 100 * nc[g] / cnt[g]),
        w[2] == "same" ? "-" : sprintf("%.2f", 100 * rl[g] / cnt[g])
    }
  }' "$here/memory.csv" "$here/runs.csv" "$here/counters.csv" "$1/predictions.csv"
