#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# accuracy.sh: docs/accuracy.md's memory-axis tables (issue 28), from the
# repository root of a built checkout:
#
#   sh training/data/h100h200/accuracy.sh [WORK_DIR]
#
# Nine leave-one-family-out evaluations of physet on this set (a kernel's
# rows on both cards are held out together), each from one card's run at
# 132 SMs (the kernels with counters there): from the H100 and from the
# H200; the same with the base card measured at every SM count
# (--also-measured: the memory step alone); from the H100 with the user's
# floor known at the base (--floor-known, as predict --floor-w); and the
# first and the third without memory.csv (method file version 8: the
# memory clock ratio instead of the peak bandwidth ratio); and from each
# card with its 24-SM row measured too (a second SM count, the one
# `scalepredict profile` takes for models/h100-sm).  The reports go to
# WORK_DIR (default: a new temporary folder).
#
# The first table gives each report's figures.sh rows, one row per
# quantity (the floor changes power alone, and version 8's memory step
# alone is quoted for time): physet's MAPE (%) with its 90% interval
# coverage (%) in parentheses, and beside it the two baselines of
# figures.sh (its header), on the other card's rows at 132 SMs and at all
# 13 SM counts, and on the base card's own SM counts ("-" where they were
# measured).  The second:
# physet's time MAPE (%) on the other card's rows per SM count, with the
# base card measured at every SM count.
#
# --epochs 1 --restarts 1 train wu2015's networks, which physet does not
# use: its figures are the same with the defaults, and each evaluation
# takes a minute or two on two busy cores instead of several.
set -eu
here=$(dirname "$0")
tool=${SCALEPREDICT:-src/scalepredict}
work=${1:-$(mktemp -d)}
mkdir -p "$work"
h1=132cu/1980/2619
h2=132cu/1980/3201

# ev NAME ARGS...: one evaluation into $work/NAME.
ev() {
  name=$1
  shift
  "$tool" evaluate --quiet --runs "$here/runs.csv" --counters "$here/counters.csv" \
    --families "$here/families.csv" --floor-kernel idle_spin --methods physet --epochs 1 \
    --restarts 1 --report "$work/$name" --report-predictions "$@" >/dev/null
}

# sms MHZ: the 12 SM counts below 132 at memory clock MHZ, comma-separated.
sms() { printf "%scu/1980/$1\n" 8 16 24 32 40 48 56 64 80 96 112 128 | paste -sd, -; }

# rows LABEL NAME [QUANTITY]: figures.sh's rows of report NAME as one row
# per quantity (or QUANTITY's alone).
rows() {
  sh "$here/figures.sh" "$work/$2" >"$work/$2.md"
  awk -F'|' -v from="$1" -v only="${3:-}" '
    function trim(s) { gsub(/^ +| +$/, "", s); return s }
    function get(a, k) { return (k in a) ? a[k] : "-" }
    NR > 2 {
      l = trim($2); c = index(l, ", ")
      k = substr(l, 1, c - 1) SUBSEP substr(l, c + 2)
      v[k] = trim($4) " (" trim($5) ")"; nc[k] = trim($6); rl[k] = trim($7)
    }
    END {
      for (i = 1; i <= 2; i++) {
        q = i == 1 ? "time" : "power"
        o = q SUBSEP "other card, 132 SMs"; a = q SUBSEP "other card, all SM counts"
        s = q SUBSEP "base card, all SM counts"
        if (!(o in v) || (only != "" && q != only)) continue
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", from, q, v[o], nc[o], rl[o],
          get(v, a), get(nc, a), get(rl, a), get(v, s)
      }
    }' "$work/$2.md"
}

# bysm LABEL NAME: physet's time MAPE on the other card's rows per SM count.
bysm() {
  awk -F, -v from="$1" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["method"] == "physet" && $c["quantity"] == "time" {
      split($c["target"], t, "/"); split($c["base"], b, "/")
      if (t[3] == b[3]) next
      cu = t[1] + 0; d = $c["predicted"] - $c["measured"]
      n[cu]++; e[cu] += (d < 0 ? -d : d) / $c["measured"]
    }
    END {
      split("8 16 24 32 40 48 56 64 80 96 112 128 132", cus, " ")
      line = "| " from
      for (i = 1; i <= 13; i++) line = line sprintf(" | %.2f", 100 * e[cus[i]] / n[cus[i]])
      print line " |"
    }' "$work/$2/predictions.csv"
}

m="--memory $here/memory.csv"
# shellcheck disable=SC2086
{
  ev h100 $m --base $h1
  ev h200 $m --base $h2
  ev h100-all $m --base $h1 --also-measured "$(sms 2619)"
  ev h200-all $m --base $h2 --also-measured "$(sms 3201)"
  ev h100-floor $m --base $h1 --floor-known
  ev h100-v8 --base $h1
  ev h100-all-v8 --base $h1 --also-measured "$(sms 2619)"
  ev h100-24 $m --base $h1 --also-measured 24cu/1980/2619
  ev h200-24 $m --base $h2 --also-measured 24cu/1980/3201
}

echo "| from | quantity | other card, 132 SMs | no change | rule | other card, all SM counts | no change | rule | base card |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
rows H100 h100
rows H200 h200
rows "H100, all SMs measured" h100-all
rows "H200, all SMs measured" h200-all
rows "H100, floor known" h100-floor power
rows "H100, version 8" h100-v8
rows "H100, all SMs measured, version 8" h100-all-v8 time
rows "H100, 24 SMs measured too" h100-24
rows "H200, 24 SMs measured too" h200-24
echo
echo "| time, other card, per SM count | 8 | 16 | 24 | 32 | 40 | 48 | 56 | 64 | 80 | 96 | 112 | 128 | 132 |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
bysm "H200 from the H100" h100-all
bysm "H100 from the H200" h200-all
