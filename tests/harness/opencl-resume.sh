#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A sweep killed with SIGKILL and restarted: no duplicated rows, no half
# rows, no lost rows; a torn last line (as a crash of an older writer would
# leave) is cut off and that configuration measured again.
. "${srcdir:-.}/lib.sh"
have_opencl || skip "no OpenCL device (install pocl-opencl-icd)"

kernels=stream_copy,stream_triad,reduce_sum_f32,hist_local_256,transpose_tiled,poly_f32_d64
set -- --backend opencl --kernels "$kernels" --cu 1,2,3 --engine-mhz 1000 \
  --memory-mhz 1375 --runs "$scratch/runs.csv" --size small --min-time-ms 150 \
  --power-window-ms 0 --warmup-ms 1

# The runner itself in the background (not a subshell), so kill hits it.
"$SP_RUNNER" "$@" >>"$scratch/out" 2>&1 &
pid=$!
# Kill it once a few rows are on disk (about 0.2 s per row).
i=0
while [ "$({ wc -l <"$scratch/runs.csv"; } 2>/dev/null || echo 0)" -lt 5 ]; do
  i=$((i + 1))
  [ $i -lt 600 ] || { kill -9 $pid; fail "no rows appeared"; }
  sleep 0.1
done
kill -9 $pid
wait $pid 2>/dev/null
check_runs "$scratch/runs.csv"
before=$(($(wc -l <"$scratch/runs.csv") - 1))
[ "$before" -lt 18 ] || fail "the run finished before it could be killed"
cp "$scratch/runs.csv" "$scratch/killed.csv"

# A torn last line from an older crash.
printf 'poly_f32_d64,3,1000,1375,0.12' >>"$scratch/runs.csv"
"$SP_RUNNER" "$@" >>"$scratch/out" 2>&1 ||
  { cat "$scratch/out" >&2; fail "the resumed run failed"; }
grep -q 'cut off a torn last line' "$scratch/out" || fail "torn line not reported"
check_runs "$scratch/runs.csv"
after=$(($(wc -l <"$scratch/runs.csv") - 1))
[ "$after" -eq 18 ] || fail "$after rows after resuming, expected 18"
# The rows written before the kill are still there, unchanged, first.
head -n $((before + 1)) "$scratch/runs.csv" | cmp -s - "$scratch/killed.csv" ||
  fail "rows written before the kill changed"
grep -q "$((18 - before)) rows written, $before already present" "$scratch/out" ||
  fail "the resumed run did not skip the finished rows"
exit 0
