#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# numbers.sh (issue 26, items 4 and 6): values no GPU measures are refused
# where they are read, with FILE:LINE:COLUMN and the field, by every command
# that reads them (runs.csv, counters.csv, a workload's weights, a profile's
# launch counts, a governor trace); dse never crashes on a workload that
# overflows (it named nothing and indexed an empty Pareto front); and a
# numerical failure (a model whose scaling values are extreme) writes
# nothing to standard output, leaves no file, and names the kernel and the
# configuration, in predict (table, CSV, JSON), export, dse and governor.
. "$(cd "$(dirname "$0")/../dse" && pwd)/lib.sh"

D="--runs $NEW/runs.csv --counters $NEW/counters.csv"

# ---- item 4: dse --weights with a weight near 1e308 (it crashed) ----
printf 'kernel,weight\nfft,1e308\n' >w.csv
for fmt in "" --json; do
  # shellcheck disable=SC2086
  sp dse --model "$MODEL" $D --weights w.csv $fmt
  expect_error "dse $fmt, weight 1e308" 2 "w.csv:2:2: field 'weight'" "'1e308'" \
    "outside the accepted range"
done
# shellcheck disable=SC2086
sp dse --model "$MODEL" $D --weights w.csv --report rep
expect_error "dse --report, weight 1e308" 2 "w.csv:2:2: field 'weight'"
no_leftovers "dse --report, weight 1e308" rep
printf 'kernel,count\nfft,-3\n' >wneg.csv
# shellcheck disable=SC2086
sp dse --model "$MODEL" $D --weights wneg.csv
expect_error "dse, negative weight" 2 "wneg.csv:2:2: field 'weight'" "not a positive finite number"
# At the bounds, a workload is explored as any other.
printf 'kernel,weight\nfft,1e15\nhistogram,1e-9\n' >wb.csv
# shellcheck disable=SC2086
sp dse --model "$MODEL" $D --weights wb.csv
expect_rc "dse, weights at the bounds" 0
expect_out "dse, weights at the bounds" "Pareto front, time vs energy: " "min-ed2p"
grep -qi 'inf\|nan' out && fail "dse, weights at the bounds: inf or nan in $(cat out)"

# A profile's launch counts are a workload too (predict --profile).
mkdir prof
cp "$NEW/runs.csv" "$NEW/counters.csv" prof/
printf 'kernel,count\nfft,3\nhistogram,2e300\n' >prof/launches.csv
sp predict --model "$MODEL" --profile prof --target all --format json
expect_error "predict --profile, a count of 2e300" 2 "prof/launches.csv:3:2: field 'weight'" "'2e300'"

# ---- item 6: a base time of 1e308 is refused by every command ----
awk -F, 'BEGIN { OFS = "," } $1 == "histogram" && $2 == 32 && $3 == 1000 && $4 == 1375 { $5 = "1e308" }
  { print }' "$NEW/runs.csv" >big.csv
line=$(grep -n '^histogram,32,1000,1375,1e308,' big.csv | cut -d: -f1)
[ -n "$line" ] || fail "the fixture has no histogram row at the base"
B="--runs big.csv --counters $NEW/counters.csv"
for f in table csv json; do
  # shellcheck disable=SC2086
  sp predict --model "$MODEL" $B --target all --format $f
  expect_error "predict --format $f, 1e308 ms" 2 "big.csv:$line:5: field 'time_ms'" "'1e308'" \
    "outside the accepted range, 1e-06 to 1e+07 ms"
done
# shellcheck disable=SC2086
sp export --model "$MODEL" $B
expect_error "export, 1e308 ms" 2 "big.csv:$line:5: field 'time_ms'"
# shellcheck disable=SC2086
sp dse --model "$MODEL" $B --json
expect_error "dse, 1e308 ms" 2 "big.csv:$line:5: field 'time_ms'"
# shellcheck disable=SC2086
sp train --quiet $B --base "$BASE" --out m2
expect_error "train, 1e308 ms" 2 "big.csv:$line:5: field 'time_ms'"
no_leftovers "train, 1e308 ms" m2
# A power, a clock and a counter far outside any GPU's, likewise.
sed 's/^fft,16,500,475,\([^,]*\),[^,]*$/fft,16,500,475,\1,2e5/' "$NEW/runs.csv" >watts.csv
pline=$(grep -n '^fft,16,500,475,.*,2e5$' watts.csv | cut -d: -f1)
sp predict --model "$MODEL" --runs watts.csv --counters "$NEW/counters.csv" --target all
expect_error "predict, 200 kW" 2 "watts.csv:$pline:6: field 'power_w'" "'2e5'"
sed 's/^fft,16,500,475,/fft,16,500000,475,/' "$NEW/runs.csv" >clock.csv
cline=$(grep -n '^fft,16,500000,475,' clock.csv | cut -d: -f1)
sp predict --model "$MODEL" --runs clock.csv --counters "$NEW/counters.csv" --target all
expect_error "predict, 500 GHz" 2 "clock.csv:$cline:3: field 'engine_mhz'" "'500000'"
awk -F, 'BEGIN { OFS = "," } NR == 2 { $5 = "1e300" } { print }' "$NEW/counters.csv" >ctr.csv
name=$(head -n 1 ctr.csv | cut -d, -f5)
sp predict --model "$MODEL" --runs "$NEW/runs.csv" --counters ctr.csv --target all
expect_error "predict, a counter of 1e300" 2 "ctr.csv:2:5: field '$name'" "'1e300'"
# A governor trace's own base columns.
printf 'order,kernel,base_time_ms,base_power_w,sq.valu_busy,ta.mem_busy,tcp.hit.rate\n' >tr.csv
printf '1,k,1e308,150,50,20,0.5\n' >>tr.csv
sp governor --model "$MODEL" --trace tr.csv --load-counters "$LOADS"
expect_error "governor, base_time_ms 1e308" 2 "tr.csv:2:3: field 'base_time_ms'" "'1e308'"
printf 'order,kernel\n1,fft\n2,histogram\n' >trace.csv
# shellcheck disable=SC2086
sp governor --model "$MODEL" $D --trace trace.csv --load-counters "$LOADS" --switch-latency-us 1e308
expect_error "governor, a switch of 1e308 us" 1 "switch-latency-us" "at most 1e+09"

# ---- item 6: a numerical failure writes nothing and names kernel and configuration ----
# A model whose time scaling values are edited to 1e150 (the manifest's
# checksum recomputed, as an editor who knows the format could): every
# prediction away from the base overflows.  The first kernel of the data,
# 'stencil "5pt"', fails first, at the first configuration of the grid.
# tamper DIR VALUE: every value of DIR's time centroids set to VALUE.
tamper() {
  awk -v v="$2" '/^submodel power/ { p = 1 }
    /^centroid / && !p { printf "centroid %s", $2; for (i = 3; i <= NF; i++) printf " %s", v; print ""; next }
    { print }' "$1/manifest.txt" | sed '$d' >body
  { cat body; echo "sha256 $(sha256sum body | cut -c1-64)"; } >"$1/manifest.txt"
}
cp -r "$MODEL" huge
tamper huge 1e150
H="--model huge --method wu2015"
FAILED="kernel 'stencil \"5pt\"': its predicted time at 16cu/500/475 is not a positive finite number"
for f in table csv json; do
  # shellcheck disable=SC2086
  sp predict $H $D --target all --format $f
  expect_error "predict --format $f, overflow" 5 "field 'kernel'" "$FAILED" "numerical failure"
  # shellcheck disable=SC2086
  sp predict $H $D --target 16cu/500/475 --kernel fft --format $f
  expect_error "predict --format $f --kernel fft, overflow" 5 "kernel 'fft'" "at 16cu/500/475"
done
# shellcheck disable=SC2086
sp export $H $D
expect_error "export, overflow" 5 "$FAILED"
# shellcheck disable=SC2086
sp export $H $D --out e.csv
expect_error "export --out, overflow" 5 "$FAILED"
no_leftovers "export --out, overflow" e.csv
# shellcheck disable=SC2086
sp dse $H $D --json
expect_error "dse, overflow" 5 "$FAILED"
# shellcheck disable=SC2086
sp governor $H $D --trace trace.csv --load-counters "$LOADS"
expect_error "governor, overflow" 5 "trace.csv:2: field 'kernel'" "kernel 'fft': its predicted time"

# A model whose predictions are finite but so large that the workload's
# energy-delay-squared product overflows once weighted: dse names the kernel
# (it used to leave objectives and fronts without a configuration).
cp -r "$MODEL" large
awk '/^submodel power/ { p = 1 } /^centroid / && !p { $3 = "1e-100" } { print }' \
  "$MODEL/manifest.txt" | sed '$d' >body
{ cat body; echo "sha256 $(sha256sum body | cut -c1-64)"; } >large/manifest.txt
# shellcheck disable=SC2086
sp predict --model large --method wu2015 $D --target all --format csv
expect_rc "predict, large but finite" 0
# shellcheck disable=SC2086
sp dse --model large --method wu2015 $D --weights wb.csv
expect_error "dse, a workload that overflows" 5 "field 'kernel'" "with kernel 'fft' (weight 1e+15"

finish
