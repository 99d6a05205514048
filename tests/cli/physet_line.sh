#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# physet_line.sh: physet's block-count lines (docs/method.md, "physet: the
# block-count line"; src/model/physet_affine.h).  Trained on the H100 SM
# axis without the grid_shape and read families, the default model
# carries the lines' checks ("line N" and "line waves N" sections in its
# method file; train --physet-no-line writes neither).  grid_big_g66, of
# grid_shape, whose time is a line in ceil(66 / SMs), and rd_ilp1_g264,
# of read, whose time is a line in its waves ceil(264 / (8 SMs)) (8
# blocks fit on an SM), each measured at 132 and 24 SMs, are predicted on
# their lines at every other SM count, with the interval around it, where
# the model without the lines misses each by more than 10% at some SM
# count; from the base alone the two models predict the same; with 64
# SMs measured too, the default follows the least-squares line through
# the three between 24 and 132 SMs ("line fit") and predicts as the
# other below; a damaged line section is refused with its file and line.  Skips (77) when the data is not in the source tree.
. "$(dirname "$0")/lib.sh"
H100=${SP_TOP_SRCDIR:-$sp_here/../..}/training/data/h100-train
[ -f "$H100/runs.csv" ] || { echo "no $H100/runs.csv: skipped"; exit 77; }
HB=132cu/1980/2619

# The training data without the grid_shape and read families.
for f in runs counters; do
  awk -F, 'NR == FNR { if ($2 == "grid_shape" || $2 == "read") out[$1] = 1; next } !($1 in out)' \
    "$H100/families.csv" "$H100/$f.csv" >"$WORK/$f.csv"
done
grep -q '^grid_big_g66,' "$WORK/runs.csv" && fail "grid_big_g66 still in the training data"
grep -q '^rd_ilp1_g264,' "$WORK/runs.csv" && fail "rd_ilp1_g264 still in the training data"

for m in line none; do
  opt=
  [ $m = none ] && opt=--physet-no-line
  # shellcheck disable=SC2086 # $opt is one option or none
  sp train --quiet --runs "$WORK/runs.csv" --counters "$WORK/counters.csv" --base $HB \
    --clusters 4 --epochs 20 --restarts 1 --floor-kernel idle_spin $opt --out "$WORK/$m"
  [ "$rc" -eq 0 ] || fail "train ($m): $(cat "$WORK/err")"
done
grep -q '^line [1-9][0-9]*$' "$WORK/line/method-physet.txt" || fail "the default: no 'line N' section"
grep -q '^line waves [1-9][0-9]*$' "$WORK/line/method-physet.txt" ||
  fail "the default: no 'line waves N' section"
grep -q '^line fit 0.02$' "$WORK/line/method-physet.txt" || fail "the default: no 'line fit 0.02'"
grep -q '^line ' "$WORK/none/method-physet.txt" && fail "--physet-no-line: a 'line' section"

# rows KERNEL SMS: the kernel's rows at SMS (a space-separated list of SM
# counts).
rows() {
  awk -F, -v k="$1" -v sms=" $2 " 'NR == 1 || ($1 == k && index(sms, " " $2 " "))' \
    "$H100/runs.csv"
}
predict() { # MODEL RUNS KERNEL: every SM count of KERNEL into $WORK/MODEL.csv
  awk -F, -v k="$3" 'NR == 1 || $1 == k' "$H100/counters.csv" >"$WORK/counters1.csv"
  sp predict --model "$WORK/$1" --runs "$2" --counters "$WORK/counters1.csv" \
    --kernel "$3" --target all --format csv --use-measured all
  [ "$rc" -eq 0 ] || fail "predict $3 with $1: $(cat "$WORK/err")"
  cp "$WORK/out" "$WORK/$1.csv"
}

# line FILE B UNIT: every SM count's prediction in FILE against
# a + b ceil(B / (UNIT SMs)) through the measurements at 132 and 24 SMs
# (t132, t24), and its interval around it; prints the largest relative
# difference at SM counts not measured.
line() {
  awk -F, -v t1="$t132" -v t2="$t24" -v B="$2" -v u="$3" '
    function ceil(x) { return x == int(x) ? x : int(x) + 1 }
    function r(s) { return ceil(B / (u * s)) }
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    {
      split($c["target"], t, "cu"); s = t[1] + 0
      b = (t2 - t1) / (r(24) - r(132)); a = t1 - b * r(132)
      want = a + b * r(s); got = $c["time_ms"]
      lo = $c["time_lo90_ms"]; hi = $c["time_hi90_ms"]
      if (!(lo <= got && got <= hi)) { print "interval " s; exit }
      d = got / want - 1; d = d < 0 ? -d : d
      if (s != 132 && s != 24 && d > worst) worst = d
    }
    END { printf "%.6f\n", worst }' "$1"
}

# lsline RUNS B UNIT: with 132, 24 and 64 SMs measured (RUNS), the
# line a + b ceil(B / (UNIT SMs)) that least squares fits to the three
# relative times (the sum of ((a + b x) / y - 1)^2), each within 2% of
# it; the default model's time (line.csv) at the SM counts not measured
# between 24 and 132 against it, below 24 against the model without the
# lines (none.csv); prints the largest relative difference.
lsline() {
  awk -F, -v B="$2" -v u="$3" '
    function ceil(x) { return x == int(x) ? x : int(x) + 1 }
    function r(s) { return ceil(B / (u * s)) }
    function abs(x) { return x < 0 ? -x : x }
    FILENAME == ARGV[1] && FNR > 1 { t[$2] = $5; next }
    FILENAME == ARGV[2] && FNR == 1 {
      for (s in t) {
        y = t[s] / t[132]; uu = 1 / y; v = r(s) / y
        suu += uu * uu; suv += uu * v; svv += v * v; su += uu; sv += v
      }
      det = suu * svv - suv * suv
      a = (su * svv - sv * suv) / det; b = (suu * sv - suv * su) / det
      for (s in t) if (abs((a + b * r(s)) / (t[s] / t[132]) - 1) > 0.02) { print "not a line"; exit }
    }
    FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    FILENAME == ARGV[3] { none[$c["target"]] = $c["time_ms"]; next }
    FILENAME == ARGV[2] { split($c["target"], tt, "cu"); s = tt[1] + 0; got[s] = $c["time_ms"]; tg[s] = $c["target"] }
    END {
      for (s in got) {
        if (s in t) continue
        want = (s + 0 >= 24) ? t[132] * (a + b * r(s)) : none[tg[s]]
        d = abs(got[s] / want - 1)
        if (d > worst) worst = d
      }
      printf "%.6f\n", worst
    }' "$1" "$WORK/line.csv" "$WORK/none.csv"
}

# The largest relative difference between the two models' times.
apart() {
  awk -F, 'NR == FNR { if (FNR == 1) for (i = 1; i <= NF; i++) c[$i] = i; else t[FNR] = $c["time_ms"]; next }
    FNR > 1 { d = $c["time_ms"] / t[FNR] - 1; d = d < 0 ? -d : d; if (d > m) m = d }
    END { printf "%.4f\n", m }' "$WORK/line.csv" "$WORK/none.csv"
}

# kernel B UNIT: the kernel on its line through 132 and 24 SMs, the model
# without the lines more than 10% from it somewhere, and with a third
# measured SM count, or from the base alone, the two models the same.
kernel() {
  rows "$1" "132 24" >"$WORK/two.csv"
  for m in line none; do predict $m "$WORK/two.csv" "$1"; done
  t132=$(awk -F, '$2 == 132 { print $5 }' "$WORK/two.csv")
  t24=$(awk -F, '$2 == 24 { print $5 }' "$WORK/two.csv")
  head -1 "$WORK/line.csv" | grep -q ",time_ms," || fail "no time_ms column"
  got=$(line "$WORK/line.csv" "$2" "$3")
  # (the CSV's times carry 6 significant digits)
  awk -v d="$got" 'BEGIN { exit !(d < 1e-5) }' ||
    fail "the default: $1 off its line by $got (want < 1e-5)"
  d=$(apart)
  awk -v d="$d" 'BEGIN { exit !(d > 0.1) }' ||
    fail "$1: --physet-no-line at most $d from the line (want more than 10% somewhere)"
  rows "$1" "132" >"$WORK/one.csv"
  for m in line none; do predict $m "$WORK/one.csv" "$1"; done
  cmp -s "$WORK/line.csv" "$WORK/none.csv" || fail "$1, the base alone: the two models differ"
  rows "$1" "132 24 64" >"$WORK/three.csv"
  for m in line none; do predict $m "$WORK/three.csv" "$1"; done
  got=$(lsline "$WORK/three.csv" "$2" "$3")
  awk -v d="$got" 'BEGIN { exit !(d < 1e-5) }' ||
    fail "three measured: $1 off its least-squares line by $got (want < 1e-5)"
}
bps=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $1 == "rd_ilp1_g264" && $2 == 132 { print $c["blocks_per_sm"] }' "$H100/counters.csv")
[ "$bps" = 8 ] || fail "rd_ilp1_g264: $bps blocks per SM in the counters (want 8)"
kernel grid_big_g66 66 1
kernel rd_ilp1_g264 264 8

# Damaged sections, each in a copy of the model with the manifest resealed
# so that its checksums hold: a label that is not 0 or 1; the waves'
# section before the blocks'; a fit of 2.
reseal() {
  h=$(sha256sum "$1/method-physet.txt" | cut -c1-64)
  sed -i "s/^\(method physet file method-physet.txt sha256 \).*/\1$h/" "$1/manifest.txt"
  sed '$d' "$1/manifest.txt" >"$WORK/man"
  printf 'sha256 %s\n' "$(sha256sum <"$WORK/man" | cut -c1-64)" >>"$WORK/man"
  cp "$WORK/man" "$1/manifest.txt"
}
rows grid_big_g66 "132 24" >"$WORK/two.csv"
awk -F, 'NR == 1 || $1 == "grid_big_g66"' "$H100/counters.csv" >"$WORK/g66.csv"
# damaged SED_SCRIPT LINE WHAT: the model with SED_SCRIPT applied is
# refused naming method-physet.txt, LINE and WHAT.
damaged() {
  rm -rf "$WORK/bad"
  cp -r "$WORK/line" "$WORK/bad"
  sed -i "$1" "$WORK/bad/method-physet.txt"
  reseal "$WORK/bad"
  sp predict --model "$WORK/bad" --runs "$WORK/two.csv" --counters "$WORK/g66.csv" \
    --kernel grid_big_g66 --target all --format csv --use-measured all
  [ "$rc" -ne 0 ] || fail "a damaged line section ($3): exit 0"
  grep -q "method-physet.txt:$2:.*$3" "$WORK/err" ||
    fail "a damaged line section: '$(cat "$WORK/err")' does not name line $2 and '$3'"
}
n=$(grep -n '^y ' "$WORK/line/method-physet.txt" | head -1 | cut -d: -f1)
damaged "${n}s/^y [01]/y 2/" "$n" "not 0 or 1"
n=$(grep -n '^line [0-9]' "$WORK/line/method-physet.txt" | cut -d: -f1)
w=$(grep -n '^line waves ' "$WORK/line/method-physet.txt" | cut -d: -f1)
# the blocks' section renamed the waves', then the waves' own: out of order
damaged "${n}s/^line /line waves /" "$w" "expected 'end', 'line', 'line waves' or 'line fit' in that order"
n=$(grep -n '^line fit ' "$WORK/line/method-physet.txt" | cut -d: -f1)
damaged "${n}s/^line fit .*/line fit 2/" "$n" "not between 0 and 1"
finish
