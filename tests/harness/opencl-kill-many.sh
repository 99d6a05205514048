#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A sweep killed with SIGKILL at many random moments (issue 6): after every
# kill the file holds only complete rows, no configuration twice, and every
# row written before stays as it was; the sweep then finishes with each of
# its configurations measured exactly once.
. "${srcdir:-.}/lib.sh"
have_opencl || skip "no OpenCL device (install pocl-opencl-icd)"

KILLS=${SP_KILLS:-25}
kernels=stream_copy,stream_triad,reduce_sum_f32,hist_local_256,transpose_tiled,poly_f32_d64
set -- --backend opencl --kernels "$kernels" --cu 1,2,3 --engine-mhz 1000 \
  --memory-mhz 1375 --runs "$scratch/runs.csv" --size small --min-time-ms 200 \
  --power-window-ms 0 --warmup-ms 1
total=18

rows() { if [ -f "$scratch/runs.csv" ]; then echo $(($(wc -l <"$scratch/runs.csv") - 1)); else echo 0; fi; }

# A row takes over 0.2 s, longer than most delays below, so a run that ends
# before its kill is one that had at most a row or two left.
kills=0
i=0
while [ $i -lt "$KILLS" ] && [ "$(rows)" -lt $total ]; do
  i=$((i + 1))
  # A delay from 0.03 to 0.33 s, different every round, the same every run.
  delay=$(awk -v s="$i" 'BEGIN { srand(s * 7919); printf "%.2f", 0.03 + 0.3 * rand() }')
  [ -f "$scratch/runs.csv" ] && cp "$scratch/runs.csv" "$scratch/before.csv"
  "$SP_RUNNER" "$@" >>"$scratch/out" 2>&1 &
  pid=$!
  sleep "$delay"
  if kill -9 $pid 2>/dev/null; then kills=$((kills + 1)); fi
  wait $pid 2>/dev/null
  [ -f "$scratch/runs.csv" ] || continue
  check_runs "$scratch/runs.csv"
  if [ -f "$scratch/before.csv" ]; then
    n=$(wc -l <"$scratch/before.csv")
    head -n "$n" "$scratch/runs.csv" | cmp -s - "$scratch/before.csv" ||
      fail "kill $i: rows written before it changed or went missing"
  fi
done

"$SP_RUNNER" "$@" >>"$scratch/out" 2>&1 || { cat "$scratch/out" >&2; fail "the final run failed"; }
check_runs "$scratch/runs.csv"
[ "$(rows)" -eq $total ] || fail "$(rows) rows at the end, expected $total"
[ "$kills" -ge 15 ] || fail "only $kills kills landed; the test did not test"
echo "opencl-kill-many: survived $kills SIGKILLs with no row lost, torn or repeated"
exit 0
