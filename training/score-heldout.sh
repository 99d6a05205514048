#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# score-heldout.sh: predicts every kernel of a held-out validation suite
# measured on the H100 and scores the predictions, once, as docs/accuracy.md
# reports them.
#
#   sh training/score-heldout.sh MODEL DATADIR SUITE OUTDIR
#
# MODEL: a saved model (models/h100-sm); DATADIR: the suite's measured
# folder (runs.csv, counters.csv, details.csv, idle-floor.csv); SUITE: its
# sp-runner suite name (the kernels and their expected classes come from
# `sp-runner --list --suite SUITE`).  From the 132-SM base, four ways: the
# model's recommended method with power anchored on the session's idle
# floor (physet; --floor-w: idle_spin's power at 132 SMs in the session that
# measured the kernel; idle-floor.csv may hold several sessions, column
# `session`, each starting at its first idle_spin row's date), the same
# without a measured floor (physet_nofloor: a user who measured none), the
# same with the floor and the 64-SM row measured too (physet64,
# --use-measured), the same with the model's own second SM count instead
# (physetN, N from MODEL/second-sms.txt, what `scalepredict profile`
# measures second; when it names one other than 64), and wu2015.  Writes
# OUTDIR/predictions.csv (every prediction, with way and class),
# OUTDIR/per_kernel.csv, OUTDIR/per_class.csv and OUTDIR/notes.txt (what
# predict said on standard error: kernels outside the training data), and
# prints the summary:
# mean absolute time, power and energy error over the SM counts other than
# the base (and other than the measured one for physet64 and physetN), and how many measured
# values the 90% intervals hold (empty for a method without intervals).  Run from the repository root.
set -eu
[ $# -eq 4 ] || { echo "usage: sh training/score-heldout.sh MODEL DATADIR SUITE OUTDIR" >&2; exit 2; }
model=$1 data=$2 suite=$3 out=$4
sp=${SP:-src/scalepredict}
runner=${SP_RUNNER:-training/runner/sp-runner}
base=132cu/1980/2619
[ -e "$out" ] && { echo "score-heldout.sh: $out exists; give a new folder" >&2; exit 1; }
mkdir -p "$out"
"$runner" --list --suite "$suite" | cut -f1,2 | tr '\t' , >"$out/classes.csv"

# floor KERNEL: the idle floor at 132 SMs of the session that measured it.
floor() {
  awk -F, -v k="$1" '
    FILENAME == ARGV[1] {
      if (FNR == 1) { for (i = 1; i <= NF; i++) h[$i] = i; sess = ("session" in h); next }
      s = sess ? $h["session"] : 1
      if ($h["cu"] == 132) fl[s] = $h["power_w"]
      d = ("date" in h) ? $h["date"] : ""
      if (!(s in start) || d < start[s]) start[s] = d
      next
    }
    FNR == 1 { for (i = 1; i <= NF; i++) g[$i] = i; next }
    $1 == k && $2 == 132 { day = $g["date"] }
    END {
      best = ""
      for (s in start) if (start[s] <= day && (best == "" || start[s] > start[best])) best = s
      if (best == "") for (s in fl) best = s
      print fl[best]
    }' "$data/idle-floor.csv" "$data/details.csv"
}

# The model's own second SM count (second-sms.txt: what 'scalepredict
# profile' measures second), when it has one other than 64.
second=$(awk '$1 == "second_sms" { print $2 }' "$model/second-sms.txt" 2>/dev/null || true)
ways="physet physet_nofloor physet64"
[ -n "$second" ] && [ "$second" != 64 ] && ways="$ways physet$second"
cut -d, -f1 "$out/classes.csv" | while IFS= read -r k; do
  fw=$(floor "$k")
  for way in $ways wu2015; do
    case $way in
    physet) extra="--floor-w $fw" ;;
    physet_nofloor) extra= ;;
    physet64) extra="--floor-w $fw --use-measured 64cu/1980/2619" ;;
    physet"$second") extra="--floor-w $fw --use-measured ${second}cu/1980/2619" ;;
    wu2015) extra="--method wu2015" ;;
    esac
    hdr=
    if [ -s "$out/predictions.csv" ]; then hdr=1; fi
    # shellcheck disable=SC2086 # the options are words
    "$sp" predict --model "$model" --runs "$data/runs.csv" --counters "$data/counters.csv" \
      --kernel "$k" --target all --format csv $extra 2>>"$out/notes.txt" |
      awk -v w="$way" -v hdr="$hdr" -v OFS=, 'NR == 1 { if (!hdr) print "way", $0; next } { print w, $0 }' \
        >>"$out/predictions.csv"
  done
done

awk -F, -v OFS=, -v base="$base" -v dir="$out" '
  FILENAME == ARGV[1] { cls[$1] = $2; next }
  FNR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
  {
    w = $h["way"]; k = $h["kernel"]; t = $h["target"]
    if (t == base || (w ~ /^physet[0-9]+$/ && t == substr(w, 7) "cu/1980/2619")) next
    if ($h["measured_time_ms"] == "") next
    te = $h["time_error_pct"]; te = te < 0 ? -te : te
    pe = $h["power_error_pct"]; pe = pe < 0 ? -pe : pe
    e = ($h["time_ms"] * $h["power_w"]) / ($h["measured_time_ms"] * $h["measured_power_w"]) - 1
    e = 100 * (e < 0 ? -e : e)
    cin = $h["time_lo90_ms"] != "" && $h["measured_time_ms"] >= $h["time_lo90_ms"] && $h["measured_time_ms"] <= $h["time_hi90_ms"]
    pin = $h["power_lo90_w"] != "" && $h["measured_power_w"] >= $h["power_lo90_w"] && $h["measured_power_w"] <= $h["power_hi90_w"]
    c = cls[k]
    for (g = 0; g < 3; g++) {
      key = g == 0 ? w SUBSEP "kernel" SUBSEP k : g == 1 ? w SUBSEP "class" SUBSEP c : w SUBSEP "all" SUBSEP "all"
      n[key]++; T[key] += te; P[key] += pe; E[key] += e; CT[key] += cin; CP[key] += pin
      NI[key] += $h["time_lo90_ms"] != ""
      if (g == 0) kc[key] = c
    }
  }
  END {
    print "way", "kernel", "class", "n", "time_mape", "power_mape", "energy_mape", "time_cov90", "power_cov90" >dir "/per_kernel.csv"
    print "way", "class", "n", "time_mape", "power_mape", "energy_mape", "time_cov90", "power_cov90" >dir "/per_class.csv"
    for (key in n) {
      split(key, a, SUBSEP)
      m = sprintf("%d,%.2f,%.2f,%.2f", n[key], T[key] / n[key], P[key] / n[key], E[key] / n[key])
      m = m (NI[key] ? sprintf(",%.1f,%.1f", 100 * CT[key] / NI[key], 100 * CP[key] / NI[key]) : ",,")
      if (a[2] == "kernel") print a[1], a[3], kc[key], m >dir "/per_kernel.csv"
      else if (a[2] == "class") print a[1], a[3], m >dir "/per_class.csv"
      else all[a[1]] = m
    }
    for (w in all) print w, all[w] >dir "/summary.csv"
  }' "$out/classes.csv" "$out/predictions.csv"
echo "way,n,time_mape,power_mape,energy_mape,time_cov90,power_cov90"
sort "$out/summary.csv"
rm -f "$out/summary.csv"
