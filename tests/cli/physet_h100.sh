#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# physet_h100.sh: the physet method on the project's H100 SM-count data
# (training/data/h100-sm): the launch shape turns the CU axis "bounded";
# the block bound caps what a grid smaller than the SM count can do; a
# busiest pipe keeps a pipe-bound kernel from running faster than its pipe
# allows (and a version 4 method file, without that floor, still loads and
# predicts as it did, and version 5, 6 and 7 files, without the time per
# wave, the narrower power interval for a measured floor or version 8's
# interval widths, predict exactly what the scalepredict that wrote them
# did); a measured floor narrows the power interval; a version 8 file
# carries its interval widths and the time's jitter; a model
# trained on 45-column counters refuses a
# 34-column file; --floor-w anchors power on
# the user's floor and refuses a value that is not a positive number.
# Skips (77) when the data is not in the source tree (a distribution
# tarball without it).
. "$(dirname "$0")/lib.sh"
H100=${SP_TOP_SRCDIR:-$sp_here/../..}/training/data/h100-sm
[ -f "$H100/runs.csv" ] || { echo "no $H100/runs.csv: skipped"; exit 77; }
HB=132cu/1980/2619

sp train --quiet --runs "$H100/runs.csv" --counters "$H100/counters.csv" \
  --base $HB --clusters 4 --epochs 50 --restarts 2 --floor-kernel idle_spin --out "$WORK/model"
[ "$rc" -eq 0 ] || fail "train on the H100 data: $(cat "$WORK/err")"
grep -Eq '^cu bounded( median)?$' "$WORK/model/method-physet.txt" || fail "the CU axis is not bounded"
grep -q '^pipes floor$' "$WORK/model/method-physet.txt" || fail "no pipe floor in the method file"
grep -q '^vocabulary nsight features 30$' "$WORK/model/method-physet.txt" ||
  fail "expected 30 nsight features: $(sed -n 2p "$WORK/model/method-physet.txt")"

# ratio FILE KERNEL CU: predicted time at CU SMs over the base time.
ratio() {
  awk -F, -v k="$2" -v c="$3cu/1980/2619" '$1 == k && $2 == c { print $4 / $3 }' "$1"
}

# stream_copy as launched (thousands of blocks) slows down at 8 SMs ...
sp predict --model "$WORK/model" --runs "$H100/runs.csv" --counters "$H100/counters.csv" \
  --kernel stream_copy --target all --format csv
[ "$rc" -eq 0 ] || fail "predict stream_copy: $(cat "$WORK/err")"
awk -v r="$(ratio "$WORK/out" stream_copy 8)" 'BEGIN { exit !(r > 2) }' ||
  fail "stream_copy at 8 SMs: ratio $(ratio "$WORK/out" stream_copy 8), expected > 2"

# ... but the same counters with a grid of 4 blocks cannot: 4 blocks fit on
# 8 SMs at once, so no SM count of the grid may predict more than the 5%
# slack over the base.
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i; print; next }
  $1 == "stream_copy" { $c["grid_blocks"] = 4; $c["work_groups"] = 4; $c["waves"] = 0.0038 }
  { print }' OFS=, "$H100/counters.csv" >small.csv
sp predict --model "$WORK/model" --runs "$H100/runs.csv" --counters small.csv \
  --kernel stream_copy --target all --format csv
[ "$rc" -eq 0 ] || fail "predict the 4-block stream_copy: $(cat "$WORK/err")"
for cu in 8 16 32 64 128; do
  awk -v r="$(ratio "$WORK/out" stream_copy $cu)" 'BEGIN { exit !(r <= 1.0501) }' ||
    fail "4 blocks at $cu SMs: ratio $(ratio "$WORK/out" stream_copy $cu) above the bound"
done

# The same thousands-of-blocks stream_copy with its FMA pipe busy 95% of
# the time on every SM: the pipe's work cannot be done on 8 SMs in less than
# 0.95 * 132 / 8 = 15.7 times the base time, whatever similar kernels do.
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i; print; next }
  $1 == "stream_copy" { $c["fma_busy_pct"] = 95; $c["sm_active_pct"] = 100 }
  { print }' OFS=, "$H100/counters.csv" >busy.csv
sp predict --model "$WORK/model" --runs "$H100/runs.csv" --counters busy.csv \
  --kernel stream_copy --target all --format csv
[ "$rc" -eq 0 ] || fail "predict the pipe-bound stream_copy: $(cat "$WORK/err")"
busy8=$(ratio "$WORK/out" stream_copy 8)
awk -v r="$busy8" 'BEGIN { exit !(r >= 0.95 * 132 / 8 * 0.9999) }' ||
  fail "pipe-bound stream_copy at 8 SMs: ratio $busy8, below the pipe floor 15.7"

# A version 4 method file (tests/data/physet-v4: 14 suite kernels, written
# by the scalepredict of commit fccea36, before the pipe floor and its
# feature) loads and predicts without either: the same pipe-bound kernel
# is not held at the floor.
V4=${SP_TOP_SRCDIR:-$sp_here/../..}/tests/data/physet-v4
grep -q '^physet 4$' "$V4/method-physet.txt" || fail "$V4 is not a version 4 method file"
sp predict --model "$V4" --runs "$H100/runs.csv" --counters busy.csv \
  --kernel stream_copy --target all --format csv --method physet
[ "$rc" -eq 0 ] || fail "predict with a version 4 method file: $(cat "$WORK/err")"
v4ratio=$(ratio "$WORK/out" stream_copy 8)
awk -v a="$v4ratio" 'BEGIN { exit !(a > 1 && a < 15) }' ||
  fail "the version 4 file predicts $v4ratio at 8 SMs: the pipe floor leaked into it"

# Version 5, 6 and 7 method files (tests/data/physet-v5, -v6 and -v7,
# written by the scalepredict of commits f8138c8, d99c8c7 and 3e52d0f with
# 29, 30 and 30 features) still load, and predict kernels they were not
# trained on exactly as that scalepredict did (their expected.csv): the
# version 6 and 7 files with a measured floor (--floor-w 117), whose power
# interval version 7 narrowed, and version 8 both intervals.
for v in 5 6 7; do
  V=${SP_TOP_SRCDIR:-$sp_here/../..}/tests/data/physet-v$v
  grep -q "^physet $v\$" "$V/method-physet.txt" || fail "$V is not a version $v method file"
  floor=
  [ $v -ge 6 ] && floor="--floor-w 117"
  : >old.csv
  for k in stream_add transpose_naive spmv_scalar_d32; do
    sp predict --model "$V" --runs "$H100/runs.csv" --counters "$H100/counters.csv" \
      --kernel $k --target all --format csv --method physet $floor
    [ "$rc" -eq 0 ] || fail "predict $k with a version $v method file: $(cat "$WORK/err")"
    if [ -s old.csv ]; then tail -n +2 "$WORK/out" >>old.csv; else cat "$WORK/out" >old.csv; fi
  done
  cmp -s old.csv "$V/expected.csv" ||
    fail "the version $v file's predictions changed: $(diff old.csv "$V/expected.csv" | head -4)"
done

# The bundled models/h100-sm predicts exactly what tests/data/h100-sm-
# expected.csv holds, with and without a floor (rewritten with the model:
# last when the median became physet's default, 2026-11-28).
HSM=${SP_TOP_SRCDIR:-$sp_here/../..}/models/h100-sm
if [ -f "$HSM/manifest.txt" ]; then
  : >old.csv
  for k in stream_add transpose_naive spmv_scalar_d32; do
    for floor in "" "--floor-w 117"; do
      # shellcheck disable=SC2086
      sp predict --model "$HSM" --runs "$H100/runs.csv" --counters "$H100/counters.csv" \
        --kernel $k --target all --format csv $floor
      [ "$rc" -eq 0 ] || fail "predict $k with models/h100-sm: $(cat "$WORK/err")"
      if [ -s old.csv ]; then tail -n +2 "$WORK/out" >>old.csv; else cat "$WORK/out" >old.csv; fi
    done
  done
  cmp -s old.csv "$SP_TEST_DATA/h100-sm-expected.csv" ||
    fail "models/h100-sm's predictions changed: $(diff old.csv "$SP_TEST_DATA/h100-sm-expected.csv" | head -4)"
fi

# A measured floor (--floor-w) narrows the power interval of a version 7
# or later file (its 'floor spread' line) relative to the same prediction's
# without the floor: the floor's share of the base power is then known.
# A version 8 file carries the interval widths it predicts with.
grep -q '^floor spread 0.69999999999999996$' "$WORK/model/method-physet.txt" ||
  fail "no 'floor spread 0.7' line in the method file"
grep -q '^widths time 0.80000000000000004 1 0.029999999999999999 0.059999999999999998 jitter 0.001$' \
  "$WORK/model/method-physet.txt" || fail "no version 8 'widths time' line with its jitter in the method file"
grep -q '^widths power 0.80000000000000004 1 0.02 0.050000000000000003$' \
  "$WORK/model/method-physet.txt" || fail "no version 8 'widths power' line in the method file"
# width FLOORARGS: log(hi / lo) of stream_add's power at 8 SMs.
width() {
  sp predict --model "$WORK/model" --runs "$H100/runs.csv" --counters "$H100/counters.csv" \
    --kernel stream_add --target 8cu/1980/2619 --format csv "$@"
  [ "$rc" -eq 0 ] || fail "predict stream_add $*: $(cat "$WORK/err")"
  awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i; next }
    { print log($c["power_hi90_w"] / $c["power_lo90_w"]) }' "$WORK/out"
}
wide=$(width)
narrow=$(width --floor-w 117)
awk -v a="$narrow" -v b="$wide" 'BEGIN { exit !(a > 0 && a < b) }' ||
  fail "power interval with --floor-w: width $narrow, without: $wide (expected narrower)"

# Counters without the launch and activity columns (the first 34): refused,
# naming the first missing column, since a feature read as 0 would describe
# another kernel (an SM balance of 0 is the worst critical path).
cut -d, -f1-34 "$H100/counters.csv" >old.csv
sp predict --model "$WORK/model" --runs "$H100/runs.csv" --counters old.csv \
  --kernel gemv_rowmajor --target 64cu/1980/2619 --format csv
[ "$rc" -ne 0 ] || fail "34-column counters were accepted by a 45-column model"
grep -q "grid_blocks" "$WORK/err" || fail "34-column counters: $(cat "$WORK/err")"

# --floor-w: a higher floor leaves less dynamic power to scale, so power at
# 8 SMs falls less.
power8() {
  sp predict --model "$WORK/model" --runs "$H100/runs.csv" \
    --counters "$H100/counters.csv" --kernel stream_copy --target 8cu/1980/2619 \
    --format csv "$@"
  [ "$rc" -eq 0 ] || fail "predict with $*: $(cat "$WORK/err")"
  awk -F, 'NR == 2 { print $8 }' "$WORK/out"
}
lo=$(power8 --floor-w 60)
hi=$(power8 --floor-w 300)
awk -v a="$lo" -v b="$hi" 'BEGIN { exit !(b > a * 1.2) }' ||
  fail "--floor-w 300 gave $hi W at 8 SMs, --floor-w 60 $lo W"
sp predict --model "$WORK/model" --runs "$H100/runs.csv" \
  --counters "$H100/counters.csv" --target all --floor-w -3
[ "$rc" -eq 1 ] || fail "--floor-w -3: exit status $rc, expected 1"
grep -q -- '--floor-w' "$WORK/err" || fail "--floor-w -3: the message does not name the option"

finish
