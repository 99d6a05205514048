#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# score-heldout-memory.sh: predicts a held-out validation suite measured on
# both cards of the memory axis (issue 28: an H100, HBM3 at 2619 MHz, and
# an H200, HBM3e at 3201 MHz) with a two-card model, from one card's run to
# the other's, and scores the predictions once, as docs/accuracy.md
# reports them.
#
#   sh training/score-heldout-memory.sh MODEL DATADIR OUTDIR
#
# MODEL: a saved model with both memory systems in its grid and a base on
# each card (models/h100-h200); DATADIR: the suite's measured folder, with
# h100/ and h200/ each holding runs.csv, counters.csv (132 SMs at least)
# and idle/runs.csv (idle_spin at the 13 SM counts, one session: the card's
# floor in the call that measured the suite).  Seven ways, one predict run
# each (all kernels, --target all):
#
#   h200_from_h100        the H100 run at 132 SMs alone, --floor-w the H100's
#                         floor at 132 SMs (a user who measured one card)
#   h200_from_h100_tfloor the same with --target-floor-w the H200's floor at
#                         132 SMs (the user has the other card's idle floor)
#   h200_from_h100_64     the same as the first with the H100's 64-SM row
#                         measured too (--use-measured; a second SM count)
#   h200_from_h100_step   the H100 measured at all 13 SM counts
#                         (--use-measured all): the memory step alone
#   h100_from_h200, h100_from_h200_64, h100_from_h200_step   the reverse
#
# Writes OUTDIR/predictions.csv (every predicted row with its way, the
# measured value on its card and the two baselines) and OUTDIR/notes.txt
# (what predict said on standard error), and prints, per way, the mean
# absolute percentage error of time and power and the share of measured
# values inside the 90% interval, on the other card at 132 SMs, on the
# other card over the 13 SM counts, and on the base card's own SM counts
# other than the base; beside physet's time and power, on the same rows:
#
# - none: the base card's value at the same SM count as this prediction
#   gave it (at 132 SMs the base measurement itself; with --use-measured,
#   the measured value): predicting that the other card changes nothing;
# - rule: that value with the kernel's DRAM-busy share u of the base run
#   (counters' mem_time_pct at 132 SMs) sped up by the peak bandwidth
#   ratio of the two memory systems (the model's `info`), T' = T (u B_base /
#   B_target + 1 - u); for power, the other card's measured floor at that
#   SM count plus the base card's dynamic power (its value less its floor)
#   times T / T'.
#
# Then, for the step ways, the time MAPE on the other card per SM count.
# Run from the repository root; the tool is src/scalepredict unless SP
# names another.  OUTDIR must not exist.
set -eu
[ $# -eq 3 ] || {
  echo "usage: sh training/score-heldout-memory.sh MODEL DATADIR OUTDIR" >&2
  exit 2
}
model=$1 data=$2 out=$3
sp=${SP:-src/scalepredict}
[ -e "$out" ] && {
  echo "score-heldout-memory.sh: $out exists; give a new folder" >&2
  exit 1
}
for c in h100 h200; do
  for f in runs.csv counters.csv idle/runs.csv; do
    [ -f "$data/$c/$f" ] || {
      echo "score-heldout-memory.sh: $data/$c/$f is missing" >&2
      exit 1
    }
  done
done
mkdir -p "$out"

# The idle floor of a card at 132 SMs (W).
floor132() { awk -F, '$1 == "idle_spin" && $2 == 132 { print $6 }' "$data/$1/idle/runs.csv"; }
f100=$(floor132 h100)
f200=$(floor132 h200)
if [ -z "$f100" ] || [ -z "$f200" ]; then
  echo "score-heldout-memory.sh: no idle_spin row at 132 SMs in $data/*/idle/runs.csv" >&2
  exit 1
fi
# The peak bandwidth of each memory clock, from the model's info.
"$sp" info --model "$model" | awk '
  /^  [0-9]+ MHz: / { for (i = 3; i <= NF; i++) if ($i == "GB/s") print $1 + 0 "," $(i - 1) }' \
  >"$out/peaks.csv"
[ "$(wc -l <"$out/peaks.csv")" -ge 2 ] || {
  echo "score-heldout-memory.sh: $model describes fewer than two memory systems ('info')" >&2
  exit 1
}

: >"$out/notes.txt"
for way in h200_from_h100 h200_from_h100_tfloor h200_from_h100_64 h200_from_h100_step \
  h100_from_h200 h100_from_h200_64 h100_from_h200_step; do
  case $way in
  h200_*) card=h100 fw=$f100 tw=$f200 sec=64cu/1980/2619 ;;
  h100_*) card=h200 fw=$f200 tw=$f100 sec=64cu/1980/3201 ;;
  esac
  set -- --floor-w "$fw"
  case $way in
  *_tfloor) set -- "$@" --target-floor-w "$tw" ;;
  *_64) set -- "$@" --use-measured "$sec" ;;
  *_step) set -- "$@" --use-measured all ;;
  esac
  echo "== $way: predict $*" >>"$out/notes.txt"
  "$sp" predict --model "$model" --runs "$data/$card/runs.csv" \
    --counters "$data/$card/counters.csv" --target all --format csv "$@" \
    2>>"$out/notes.txt" | awk -v w="$way" -v OFS=, 'NR == 1 { print "way", $0; next } { print w, $0 }' \
    >"$out/$way.csv"
done

awk -F, -v OFS=, -v out="$out" '
  function key(c) { split(c, a, "/"); return a[1] + 0 "," a[3] + 0 }
  FILENAME ~ /peaks\.csv$/ { peak[$1] = $2; next }
  FILENAME ~ /idle\/runs\.csv$/ { if (FNR > 1) fl[$2 + 0 "," $4 + 0] = $6; next }
  FILENAME ~ /\/runs\.csv$/ {
    if (FNR > 1) { T[$1, $2 + 0 "," $4 + 0] = $5; P[$1, $2 + 0 "," $4 + 0] = $6 }
    next
  }
  FILENAME ~ /counters\.csv$/ {
    if (FNR == 1) { for (i = 1; i <= NF; i++) col[$i] = i; next }
    if ($2 == 132) u[$1, $4 + 0] = $col["mem_time_pct"] / 100
    next
  }
  FNR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
  {
    n++
    w[n] = $h["way"]; k[n] = $h["kernel"]; tgs[n] = $h["target"]
    tg[n] = key(tgs[n]); bs[n] = key($h["base"])
    split(tg[n], a, ","); cu[n] = a[1]; mt[n] = a[2]
    split(bs[n], a, ","); mb[n] = a[2]
    pt[n] = $h["time_ms"]; pp[n] = $h["power_w"]
    tl[n] = $h["time_lo90_ms"]; th[n] = $h["time_hi90_ms"]
    pl[n] = $h["power_lo90_w"]; ph[n] = $h["power_hi90_w"]
    same[w[n], k[n], cu[n] "," mt[n]] = n
    ways[w[n]] = 1
  }
  function err(v, x) { return (v > x ? v - x : x - v) / x * 100 }
  function add(g, e, inside) { S[g] += e; N[g]++; C[g] += inside }
  function tally(g, i, mt_, mp, v0t, v0p, v1t, v1p) {
    add(g SUBSEP "time", err(pt[i], mt_), mt_ >= tl[i] && mt_ <= th[i])
    add(g SUBSEP "power", err(pp[i], mp), mp >= pl[i] && mp <= ph[i])
    if (v0t != "") {
      add(g SUBSEP "time_none", err(v0t, mt_), 0); add(g SUBSEP "time_rule", err(v1t, mt_), 0)
      add(g SUBSEP "power_none", err(v0p, mp), 0); add(g SUBSEP "power_rule", err(v1p, mp), 0)
    }
  }
  END {
    print "way,kernel,target,time_ms,measured_time_ms,time_none_ms,time_rule_ms,power_w,measured_power_w,power_none_w,power_rule_w" >(out "/predictions.csv")
    for (i = 1; i <= n; i++) {
      mt_ = T[k[i], tg[i]]; mp = P[k[i], tg[i]]
      if (mt_ == "" || mp == "") { missing++; continue }
      v0t = v0p = v1t = v1p = ""
      if (mt[i] != mb[i]) {
        j = same[w[i], k[i], cu[i] "," mb[i]]
        v0t = pt[j]; v0p = pp[j]; uu = u[k[i], mb[i]]
        if (uu > 1) uu = 1
        v1t = v0t * (uu * peak[mb[i]] / peak[mt[i]] + 1 - uu)
        v1p = fl[cu[i] "," mt[i]] + (v0p - fl[cu[i] "," mb[i]]) * v0t / v1t
        g = w[i] SUBSEP "all"; tally(g, i, mt_, mp, v0t, v0p, v1t, v1p)
        if (cu[i] == 132) tally(w[i] SUBSEP "132", i, mt_, mp, v0t, v0p, v1t, v1p)
        E[w[i], cu[i]] += err(pt[i], mt_); EN[w[i], cu[i]]++
      } else if (cu[i] != 132) {
        tally(w[i] SUBSEP "own", i, mt_, mp, "", "", "", "")
      }
      print w[i], k[i], tgs[i], pt[i], mt_, v0t, v1t, pp[i], mp, v0p, v1p >(out "/predictions.csv")
    }
    if (missing) printf "(%d predicted rows without a measured value on their card: left out)\n", missing
    print "way | rows | time @132 (none, rule) | power @132 (none, rule) | time all 13 (none, rule) | power all 13 (none, rule) | base card: time, power"
    nw = split("h200_from_h100 h200_from_h100_tfloor h200_from_h100_64 h200_from_h100_step h100_from_h200 h100_from_h200_64 h100_from_h200_step", order, " ")
    for (o = 1; o <= nw; o++) {
      x = order[o]
      if (!(x in ways)) continue
      line = x " | " N[x, "all", "time"]
      for (s = 1; s <= 2; s++) {
        g = s == 1 ? "132" : "all"
        for (q = 1; q <= 2; q++) {
          qq = q == 1 ? "time" : "power"
          line = line sprintf(" | %.2f%% [%.0f%%] (%.2f, %.2f)", S[x, g, qq] / N[x, g, qq],
            100 * C[x, g, qq] / N[x, g, qq], S[x, g, qq "_none"] / N[x, g, qq "_none"],
            S[x, g, qq "_rule"] / N[x, g, qq "_rule"])
        }
      }
      if (N[x, "own", "time"] > 0)
        line = line sprintf(" | %.2f%% [%.0f%%], %.2f%% [%.0f%%]", S[x, "own", "time"] / N[x, "own", "time"],
          100 * C[x, "own", "time"] / N[x, "own", "time"], S[x, "own", "power"] / N[x, "own", "power"],
          100 * C[x, "own", "power"] / N[x, "own", "power"])
      else line = line " | - (measured)"
      print line
    }
    print ""
    print "time MAPE on the other card per SM count, the base card measured at all 13:"
    ncu = split("8 16 24 32 40 48 56 64 80 96 112 128 132", L, " ")
    for (o = 1; o <= nw; o++) {
      x = order[o]
      if (x !~ /_step$/ || !(x in ways)) continue
      line = x ":"
      for (l = 1; l <= ncu; l++) line = line sprintf(" %d %.2f", L[l], E[x, L[l]] / EN[x, L[l]])
      print line
    }
  }' "$out/peaks.csv" "$data/h100/idle/runs.csv" "$data/h200/idle/runs.csv" \
  "$data/h100/runs.csv" "$data/h200/runs.csv" "$data/h100/counters.csv" "$data/h200/counters.csv" \
  "$out"/h*_from_*.csv | tee "$out/summary.txt"
