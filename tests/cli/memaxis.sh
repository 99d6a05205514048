#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# memaxis.sh: the memory axis on the two-card set (training/data/h100h200,
# issue 28), on 24 of its entries and the floor kernel so that it runs in
# seconds.  train --memory with two bases writes a model that info shows
# with both memory systems and both bases; predict from H100 rows gives
# the H200's rows at every SM count (time, power, intervals, speedup) and
# from H200 rows the H100's, says which base each kernel came from (and
# that --base chooses when a kernel has rows at both), refuses wu2015 from
# the H200 base naming physet; a memory clock off the grid is refused
# naming --target-memory, predicted through its description when given
# (between the two cards, flagged outside the measured grid, in the table,
# CSV and JSON); --target-floor-w anchors the H200's power on the user's
# floor; evaluate --base 132cu/1980/3201 leaves out the kernels without
# counters there with a note; memory.csv's errors name file, line and
# field; a base of a nanosecond keeps bounded intervals.  The bundled
# model h100-h200, when built, is checked the same way.
# Skips (77) when the data is not in the source tree.
. "$(dirname "$0")/lib.sh"
TOP=${SP_TOP_SRCDIR:-$sp_here/../..}
D=$TOP/training/data/h100h200
if [ ! -f "$D/runs.csv" ] || [ ! -f "$D/memory.csv" ]; then
  echo "no $D: skipped"
  exit 77
fi
H1=132cu/1980/2619
H2=132cu/1980/3201

# 24 entries with H200 counters, and idle_spin (the floor).
awk -F, '$2 == 132 && $4 == 3201 { print $1 }' "$D/counters.csv" | head -n 24 >keep
echo idle_spin >>keep
awk -F, 'NR == FNR { k[$1] = 1; next } FNR == 1 || ($1 in k)' keep "$D/runs.csv" >runs.csv
awk -F, 'NR == FNR { k[$1] = 1; next } FNR == 1 || ($1 in k)' keep "$D/counters.csv" >counters.csv
# The H100 rows alone (counters at 132 and 64 SMs), and the H200 rows alone.
awk -F, 'FNR == 1 || $4 == 2619' runs.csv >r100.csv
awk -F, 'FNR == 1 || $4 == 2619' counters.csv >c100.csv
awk -F, 'FNR == 1 || $4 == 3201' runs.csv | grep -v '^idle_spin,' >r200.csv
awk -F, 'FNR == 1 || $4 == 3201' counters.csv >c200.csv
K=$(sed -n 1p keep)

sp train --runs runs.csv --counters counters.csv --memory "$D/memory.csv" --base $H1,$H2 \
  --clusters 3 --epochs 20 --restarts 1 --floor-kernel idle_spin --name two-cards --out model
expect_rc "train two bases" 0
expect_out "train two bases" "further base $H2: physet (24 of 25 training kernels" \
  "memory 3201 MHz: NVIDIA H200, HBM3e, 6144 bits, 4800 GB/s, 141 GB"
head -n 1 model/manifest.txt | grep -qx 'scalepredict-model 3' || fail "manifest: not format 3"
[ -f "model/method-physet@132cu-1980-3201.txt" ] || fail "no physet file for the H200 base"
head -n 1 model/method-physet.txt | grep -qx 'physet 11' || fail "physet file: not version 11"

sp info --model model
expect_rc "info" 0
expect_out "info" "base $H1" "base $H2 too, for physet (fitted on the 24 training kernels" \
  "measured on: NVIDIA H100 80GB HBM3, NVIDIA H200" \
  "2619 MHz: NVIDIA H100 80GB HBM3, HBM3, 5120-bit bus, 3352 GB/s peak, 80 GB" \
  "3201 MHz: NVIDIA H200, HBM3e, 6144-bit bus, 4800 GB/s peak, 141 GB"

# ---- from an H100 run: the H200's rows at all 13 SM counts ----
sp predict --model model --runs r100.csv --counters c100.csv --kernel "$K" --target all \
  --format csv
expect_rc "predict from the H100" 0
cp out h100.csv
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i; next }
  $c["target"] ~ /\/3201$/ {
    n++
    if ($c["base"] != "132cu/1980/2619") bad = bad " base:" $c["target"]
    if (!($c["time_lo90_ms"] < $c["time_ms"] && $c["time_ms"] < $c["time_hi90_ms"])) bad = bad " time:" $c["target"]
    if (!($c["power_lo90_w"] < $c["power_w"] && $c["power_w"] < $c["power_hi90_w"])) bad = bad " power:" $c["target"]
    if (($c["speedup"] - $c["base_time_ms"] / $c["time_ms"]) ^ 2 > 1e-8 * $c["speedup"] ^ 2) bad = bad " speedup:" $c["target"]
    if ($c["measured_time_ms"] != "" || $c["outside_grid"] != 0) bad = bad " measured:" $c["target"]
  }
  END { if (n != 13 || bad) { print n " rows;" bad; exit 1 } }' h100.csv >awk.log ||
  fail "the H200 rows from an H100 run: $(cat awk.log)"
[ "$(awk -F, '$2 ~ /\/2619$/' h100.csv | wc -l)" -eq 13 ] || fail "the H100 rows from an H100 run"

# The same kernel measured at a nanosecond, far under the microsecond of
# timing jitter the intervals hold: every interval on the H200 stays
# within a few factors of e (the jitter's share of a time is at most 1).
awk -F, -v k="$K" 'NR == 1 || $1 != k || $2 != 132 { print; next } { $5 = "0.000001"; print }' \
  OFS=, r100.csv >r100-ns.csv
sp predict --model model --runs r100-ns.csv --counters c100.csv --kernel "$K" --target all \
  --format csv
expect_rc "predict a nanosecond's base" 0
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i; next }
  $c["target"] ~ /\/3201$/ {
    n++
    if (!($c["time_lo90_ms"] > 0 && $c["time_hi90_ms"] / $c["time_lo90_ms"] < exp(8))) bad = bad " time:" $c["target"]
    if (!($c["power_lo90_w"] > 0 && $c["power_hi90_w"] / $c["power_lo90_w"] < exp(8))) bad = bad " power:" $c["target"]
  }
  END { if (n != 13 || bad) { print n " rows;" bad; exit 1 } }' out >awk.log ||
  fail "the H200 rows from a nanosecond's base: $(cat awk.log) $(head -3 out)"

# ---- from an H200 run: the H100's rows, with the state fitted there ----
sp predict --model model --runs r200.csv --counters c200.csv --kernel "$K" --target all \
  --format csv
expect_rc "predict from the H200" 0
awk -F, 'NR > 1 && ($20 != "132cu/1980/3201" || $4 <= 0 || $11 > $4 || $4 > $12) { bad = 1 }
  NR > 1 && $2 == "132cu/1980/3201" && ($4 != $3 || $19 != 1) { bad = 1 }
  END { exit bad || NR != 27 }' out || fail "predict from the H200: $(head -3 out)"
# In-sample, from the H200 base the kernel's own H100 time comes back.
t8=$(awk -F, -v k="$K" '$1 == k && $2 == 8 && $4 == 2619 { print $5 }' runs.csv)
awk -F, -v t="$t8" '$2 == "8cu/1980/2619" { if (($4 / t - 1) ^ 2 > 1e-12) exit 1 }' out ||
  fail "from the H200: the training kernel's H100 time at 8 SMs, $t8"

# wu2015 predicts from the first base only, and says which method does.
sp predict --model model --runs r200.csv --counters c200.csv --kernel "$K" --target all \
  --method wu2015
expect_error "wu2015 from the H200" 2 "is measured at $H2, which the method wu2015 does not" \
  "--method physet predicts from there"

# Rows at both bases: the first is used, a note says so; --base chooses.
sp predict --model model --runs runs.csv --counters counters.csv --target $H2 --format csv
expect_rc "rows at both bases" 0
grep -qF "24 kernels have rows at several of the model's bases" err ||
  fail "no note of the kernels with rows at both bases: $(cat err)"
grep -q ",$H2,0\$" out && fail "rows at both bases: not predicted from the first base"
sp predict --model model --runs runs.csv --counters counters.csv --target $H1 --base $H2 \
  --kernel "$K" --format csv
expect_rc "--base chooses" 0
tail -n 1 out | grep -q ",$H2,0\$" || fail "--base $H2: $(tail -n 1 out)"
sp predict --model model --runs runs.csv --counters counters.csv --target $H1 \
  --base 64cu/1980/2619
expect_error "--base not a base of the model" 2 "64cu/1980/2619 is not one of the model's bases" \
  "$H1, $H2"

# ---- a memory system the model has not measured ----
sp predict --model model --runs r100.csv --counters c100.csv --kernel "$K" \
  --target 132cu/1980/2900
expect_error "off-grid memory clock" 2 "memory clock 2900 of 132cu/1980/2900" \
  "2619 MHz (NVIDIA H100 80GB HBM3), 3201 MHz (NVIDIA H200)" "--target-memory bus=BITS"
for fmt in table csv json; do
  sp predict --model model --runs r100.csv --counters c100.csv --kernel "$K" \
    --target 132cu/1980/2900 --target-memory bus=6144,type=HBM3e --format $fmt
  expect_rc "described memory system ($fmt)" 0
  cp out off.$fmt
done
grep -q 'outside the measured grid$' off.table || fail "table: no flag: $(cat off.table)"
tail -n 1 off.csv | grep -q ',1$' || fail "csv: no flag: $(tail -n 1 off.csv)"
grep -q '"outside_grid":true' off.json || fail "json: no flag"
# Between the two cards' predictions at 132 SMs (2 x 2900 x 6144 / 8 =
# 4454 GB/s lies between 3352 and 4800), with a wider interval.
t1=$(awk -F, '$2 == "132cu/1980/2619" { print $4 }' h100.csv)
t2=$(awk -F, '$2 == "132cu/1980/3201" { print $4 }' h100.csv)
w2=$(awk -F, '$2 == "132cu/1980/3201" { print log($12 / $11) }' h100.csv)
awk -F, -v a="$t1" -v b="$t2" -v w="$w2" 'NR == 2 {
  lo = a < b ? a : b; hi = a < b ? b : a
  if (!($4 >= lo && $4 <= hi) || !(log($12 / $11) > w)) exit 1 }' off.csv ||
  fail "2900 MHz: $(tail -n 1 off.csv), the cards: $t1 $t2"
sp predict --model model --runs r100.csv --counters c100.csv --kernel "$K" --target all \
  --target-memory mhz=2900,bus=6144 --format csv
expect_rc "--target all with a described memory system" 0
[ "$(grep -c ',1$' out)" -eq 13 ] || fail "--target all: $(grep -c ',1$' out) described rows"
[ "$(wc -l <out)" -eq 40 ] || fail "--target all: $(wc -l <out) lines, want 40"
sp predict --model model --runs r100.csv --counters c100.csv --target $H2 \
  --target-memory bus=6144
expect_error "a measured target described" 1 "--target-memory" "is on the model's grid"
sp predict --model model --runs r100.csv --counters c100.csv --target 132cu/1980/2900 \
  --target-memory bus=6144,type=HBM\ 3
expect_error "a bad description" 1 "field '--target-memory'" "not a memory type"
sp predict --model model --runs r100.csv --counters c100.csv --target 132cu/1980/2900 \
  --target-memory bus=6144,bus=5120
expect_error "a key given twice" 1 "field '--target-memory'" "'bus' is given twice"

# ---- the H200's own floor ----
power() {
  sp predict --model model --runs r100.csv --counters c100.csv --kernel "$K" --target $H2 \
    --format csv "$@"
  [ "$rc" -eq 0 ] || fail "predict $*: $(cat err)"
  awk -F, 'NR == 2 { print $8 }' out
}
plain=$(power --floor-w 117.5)
lowf=$(power --floor-w 117.5 --target-floor-w 100)
highf=$(power --floor-w 117.5 --target-floor-w 180)
awk -v a="$lowf" -v b="$highf" -v p="$plain" 'BEGIN { exit !(a != p && b != p && a != b) }' ||
  fail "--target-floor-w changes nothing: $lowf $plain $highf"
# Two boards read apart by a factor: the H200's power goes onto the user's
# board in proportion to its floor (180 W against 100 W: 1.8 times), over
# the ratio of --floor-w to the training floor at the base (twice the
# floor there: half).
awk -v a="$lowf" -v b="$highf" 'BEGIN { r = b / a; exit !(r > 1.8 - 1e-4 && r < 1.8 + 1e-4) }' ||
  fail "--target-floor-w 180 against 100: $highf / $lowf, expected 1.8 times"
sp predict --model model --runs r100.csv --counters c100.csv --kernel "$K" --target all \
  --floor-w 117.5 --target-floor-w 180 --format csv
expect_rc "--target all --target-floor-w" 0
awk -F, -v p="$highf" '$2 == "132cu/1980/3201" && $8 != p { exit 1 }' out ||
  fail "--target all --target-floor-w: not the H200's floor: $(grep 132cu/1980/3201 out)"
sp predict --model model --runs r100.csv --counters c100.csv --target 132cu/1980/2900 \
  --target-memory bus=6144 --target-floor-w 130
expect_error "--target-floor-w on a described memory system" 1 "applies to a measured one"

# ---- profile: which card, never guessed ----
sp profile --model model --out prof --import no-such.csv
expect_error "profile with a model of two bases" 1 "give --base" "$H1: NVIDIA H100 80GB HBM3" \
  "$H2: NVIDIA H200"
no_leftovers "profile with a model of two bases" prof

# ---- evaluate from the H200's base ----
sp evaluate --quiet --runs runs.csv --counters counters.csv --memory "$D/memory.csv" \
  --base $H2 --leave-one-out --methods physet --floor-kernel idle_spin --clusters 2 \
  --epochs 2 --restarts 1 --threads 2 --report rep
expect_rc "evaluate --base $H2" 0
expect_out "evaluate --base $H2" "physet" "25 kernel-base pairs in 25 of 25 jobs" \
  "have no counters, or empty counter fields, at that base configuration"
# The report's memory-axis plots: what the H100's memory gives each kernel
# against the H200's (the base), measured (from runs.csv) and predicted.
for f in memory_speedup.svg memory_speedup_by_cu.svg; do
  [ -s "rep/$f" ] || fail "evaluate --report: no $f"
  grep -q "<img src=\"$f\"\|($f)\|href=\"$f\"" rep/index.html || fail "index.html does not show $f"
done
want=$(awk -F, -v k="$K" '$1 == k && $2 == 132 { t[$4] = $5 } END { printf "%.3f", t[3201] / t[2619] }' runs.csv)
grep -q "<title>$K at 132 CUs: measured ${want}x, predicted [0-9.]*x</title>" rep/memory_speedup.svg ||
  fail "memory_speedup.svg: $K's measured speedup is not ${want}x"
n=$(grep -c '<title>[^<]* at 132 CUs: measured' rep/memory_speedup.svg)
[ "$n" -eq 24 ] || fail "memory_speedup.svg: $n kernels, not the 24 held out with counters"
for cu in 8 64 132; do
  grep -q ">$cu CUs<" rep/memory_speedup_by_cu.svg || fail "memory_speedup_by_cu.svg: no series of $cu CUs"
done
# One memory system: no such plot.
sp evaluate --quiet --runs r100.csv --counters c100.csv --base $H1 --leave-one-out \
  --methods physet --floor-kernel idle_spin --clusters 2 --epochs 2 --restarts 1 --threads 2 \
  --report rep1
expect_rc "evaluate on the H100 alone" 0
[ -f rep1/index.html ] && [ ! -e rep1/memory_speedup.svg ] || fail "a memory plot without a memory axis"

# ---- memory.csv's errors ----
sed '3d' "$D/memory.csv" >short.csv
sp train --runs runs.csv --counters counters.csv --memory short.csv --base $H1 --out bad
expect_error "memory.csv without the H200" 2 "short.csv" "no row describes the memory clock 3201"
no_leftovers "memory.csv without the H200" bad
sed 's/,HBM3e,/,HBM 3e,/' "$D/memory.csv" >space.csv
sp train --runs runs.csv --counters counters.csv --memory space.csv --base $H1 --out bad
expect_error "a memory type with a space" 2 "space.csv:3:3: field 'type'" "not a memory type"

# ---- the bundled model, when built ----
if [ -f "$TOP/models/h100-h200/manifest.txt" ]; then
  sp info --model "$TOP/models/h100-h200"
  expect_rc "info h100-h200" 0
  expect_out "info h100-h200" "base $H1" "base $H2 too" "measured on: NVIDIA H100 80GB HBM3, NVIDIA H200"
  sp predict --model "$TOP/models/h100-h200" --runs r100.csv --counters c100.csv --kernel "$K" \
    --target all --format csv
  expect_rc "predict with h100-h200" 0
  [ "$(awk -F, '$2 ~ /\/3201$/ && $11 < $4 && $4 < $12 && $13 < $8 && $8 < $14' out | wc -l)" -eq 13 ] ||
    fail "h100-h200: the 13 H200 rows with intervals"
  # Pinned byte for byte (tests/data/h100-h200-pinned, what the branch
  # that built the memory axis printed): the columns a model with a memory
  # axis adds (speedup, base, outside_grid; JSON's bases; the table's
  # speedup and 'from'), from the H100's rows in CSV, from the H200's in
  # JSON with a described memory system, and from both cards' rows in the
  # table.  SP_GOLDEN_UPDATE=1 rewrites them instead.
  P=$SP_TEST_DATA/h100-h200-pinned
  sed -n 2,3p keep >two
  awk -F, 'NR == FNR { k[$1] = 1; next } FNR == 1 || ($1 in k)' two r100.csv >p-r100.csv
  awk -F, 'NR == FNR { k[$1] = 1; next } FNR == 1 || ($1 in k)' two c100.csv >p-c100.csv
  awk -F, 'NR == FNR { k[$1] = 1; next } FNR == 1 || ($1 in k)' two r200.csv >p-r200.csv
  awk -F, 'NR == FNR { k[$1] = 1; next } FNR == 1 || ($1 in k)' two c200.csv >p-c200.csv
  awk -F, 'NR == FNR { k[$1] = 1; next } FNR == 1 || ($1 in k)' two runs.csv >p-runs.csv
  awk -F, 'NR == FNR { k[$1] = 1; next } FNR == 1 || ($1 in k)' two counters.csv >p-counters.csv
  pinned() {
    name=$1
    shift
    sp predict --model "$TOP/models/h100-h200" "$@"
    expect_rc "h100-h200 pinned $name" 0
    if [ -n "${SP_GOLDEN_UPDATE:-}" ]; then
      cp out "$P/$name"
    elif ! cmp -s out "$P/$name"; then
      fail "h100-h200 pinned $name: $(diff "$P/$name" out | head -4)"
    fi
  }
  pinned predict-h100.csv --runs p-r100.csv --counters p-c100.csv --target all --format csv \
    --floor-w 117.5
  pinned predict-h200.json --runs p-r200.csv --counters p-c200.csv --target all --format json \
    --target-memory mhz=2900,bus=6144
  pinned predict-both.txt --runs p-runs.csv --counters p-counters.csv --target 64cu/1980/3201 \
    --use-measured 64cu/1980/2619
fi

finish
