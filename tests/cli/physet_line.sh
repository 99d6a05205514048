#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# physet_line.sh: physet's block-count line (docs/method.md, "physet: the
# block-count line"; src/model/physet_affine.h).  Trained on the H100 SM
# axis without the grid_shape family, the default model carries the
# line's check (a "line N" section in its method file; train
# --physet-no-line writes none); grid_big_g66, a kernel of that family
# whose time is a line in ceil(66 / SMs), measured at 132 and 24 SMs, is
# predicted on that line at every other SM count, with its interval
# around it, where the model without the line misses it by more than 10%
# at 64 SMs; with a third measured SM count, or from the base alone, the
# two models predict the same; a damaged line section is refused with
# its file and line.  Skips (77) when the data is not in the source tree.
. "$(dirname "$0")/lib.sh"
H100=${SP_TOP_SRCDIR:-$sp_here/../..}/training/data/h100-train
[ -f "$H100/runs.csv" ] || { echo "no $H100/runs.csv: skipped"; exit 77; }
HB=132cu/1980/2619

# The training data without the grid_shape family.
awk -F, 'NR == FNR { if ($2 == "grid_shape") out[$1] = 1; next } !($1 in out)' \
  "$H100/families.csv" "$H100/runs.csv" >"$WORK/runs.csv"
awk -F, 'NR == FNR { if ($2 == "grid_shape") out[$1] = 1; next } !($1 in out)' \
  "$H100/families.csv" "$H100/counters.csv" >"$WORK/counters.csv"
grep -q '^grid_big_g66,' "$WORK/runs.csv" && fail "grid_big_g66 still in the training data"

for m in line none; do
  opt=
  [ $m = none ] && opt=--physet-no-line
  # shellcheck disable=SC2086 # $opt is one option or none
  sp train --quiet --runs "$WORK/runs.csv" --counters "$WORK/counters.csv" --base $HB \
    --clusters 4 --epochs 20 --restarts 1 --floor-kernel idle_spin $opt --out "$WORK/$m"
  [ "$rc" -eq 0 ] || fail "train ($m): $(cat "$WORK/err")"
done
grep -q '^line [1-9][0-9]*$' "$WORK/line/method-physet.txt" || fail "the default: no 'line N' section"
grep -q '^line ' "$WORK/none/method-physet.txt" && fail "--physet-no-line: a 'line' section"

# The kernel's rows at SMS (a space-separated list of SM counts).
rows() {
  awk -F, -v sms=" $1 " 'NR == 1 || ($1 == "grid_big_g66" && index(sms, " " $2 " "))' \
    "$H100/runs.csv"
}
predict() { # MODEL RUNS: every SM count of grid_big_g66 into $WORK/MODEL.csv
  sp predict --model "$WORK/$1" --runs "$2" --counters "$WORK/g66.csv" \
    --kernel grid_big_g66 --target all --format csv --use-measured all
  [ "$rc" -eq 0 ] || fail "predict with $1: $(cat "$WORK/err")"
  cp "$WORK/out" "$WORK/$1.csv"
}
awk -F, 'NR == 1 || $1 == "grid_big_g66"' "$H100/counters.csv" >"$WORK/g66.csv"
rows "132 24" >"$WORK/two.csv"
for m in line none; do predict $m "$WORK/two.csv"; done
t132=$(awk -F, '$2 == 132 { print $5 }' "$WORK/two.csv")
t24=$(awk -F, '$2 == 24 { print $5 }' "$WORK/two.csv")

# line FILE: every SM count's prediction against a + b ceil(66 / SMs)
# through the two measurements, and its interval around it; prints the
# largest relative difference at SM counts not measured.
line() {
  awk -F, -v t1="$t132" -v t2="$t24" '
    function ceil(x) { return x == int(x) ? x : int(x) + 1 }
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    {
      split($c["target"], t, "cu"); s = t[1] + 0
      b = (t2 - t1) / (ceil(66 / 24) - ceil(66 / 132)); a = t1 - b * ceil(66 / 132)
      want = a + b * ceil(66 / s); got = $c["time_ms"]
      lo = $c["time_lo90_ms"]; hi = $c["time_hi90_ms"]
      if (!(lo <= got && got <= hi)) { print "interval " s; exit }
      d = got / want - 1; d = d < 0 ? -d : d
      if (s != 132 && s != 24 && d > worst) worst = d
    }
    END { printf "%.6f\n", worst }' "$1"
}
head -1 "$WORK/line.csv" | grep -q ",time_ms," || fail "no time_ms column"
got=$(line "$WORK/line.csv")
awk -v d="$got" 'BEGIN { exit !(d < 1e-6) }' ||
  fail "the default: grid_big_g66 off its line by $got (want < 1e-6)"
off=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["target"] == "64cu/1980/2619" { print $c["time_ms"] }' "$WORK/none.csv")
on=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["target"] == "64cu/1980/2619" { print $c["time_ms"] }' "$WORK/line.csv")
awk -v a="$off" -v b="$on" 'BEGIN { d = a / b - 1; exit !(d > 0.1 || d < -0.1) }' ||
  fail "--physet-no-line at 64 SMs: $off against the line's $on (want more than 10% apart)"

# Three measured SM counts, or the base alone: the line is not read.
rows "132 24 64" >"$WORK/three.csv"
rows "132" >"$WORK/one.csv"
for set in three one; do
  for m in line none; do predict $m "$WORK/$set.csv"; done
  cmp -s "$WORK/line.csv" "$WORK/none.csv" || fail "$set measured: the two models differ"
done

# A damaged section: a label that is not 0 or 1, the manifest resealed so
# that its checksums hold.
reseal() {
  h=$(sha256sum "$1/method-physet.txt" | cut -c1-64)
  sed -i "s/^\(method physet file method-physet.txt sha256 \).*/\1$h/" "$1/manifest.txt"
  sed '$d' "$1/manifest.txt" >"$WORK/man"
  printf 'sha256 %s\n' "$(sha256sum <"$WORK/man" | cut -c1-64)" >>"$WORK/man"
  cp "$WORK/man" "$1/manifest.txt"
}
n=$(grep -n '^y ' "$WORK/line/method-physet.txt" | cut -d: -f1)
sed -i "${n}s/^y [01]/y 2/" "$WORK/line/method-physet.txt"
reseal "$WORK/line"
predict_fails() {
  sp predict --model "$WORK/line" --runs "$WORK/two.csv" --counters "$WORK/g66.csv" \
    --kernel grid_big_g66 --target all --format csv --use-measured all
  [ "$rc" -ne 0 ] || fail "a damaged line section: exit 0"
  grep -q "method-physet.txt:$n.*$1" "$WORK/err" ||
    fail "a damaged line section: '$(cat "$WORK/err")' does not name line $n and '$1'"
}
predict_fails "not 0 or 1"
finish
