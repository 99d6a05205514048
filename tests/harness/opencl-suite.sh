#!/bin/sh
# Every suite kernel, small size, through OpenCL (pocl's CPU device in CI):
# each result is checked against its host reference before its row is
# written, and every row has the runs.csv format.
. "${srcdir:-.}/lib.sh"

"$SP_RUNNER" --backend opencl --kernels stream_copy --cu 1 --engine-mhz 0 \
  --memory-mhz 0 --runs "$scratch/probe.csv" --size small --min-time-ms 1 \
  --power none >/dev/null 2>"$scratch/probe.err"
[ $? -eq 3 ] && skip "no OpenCL device (install pocl-opencl-icd)"

nk=$("$SP_RUNNER" --list | wc -l)
[ "$nk" -ge 60 ] || fail "only $nk kernels in the suite"

POCL_CPU_MAX_CU_COUNT=1 "$SP_RUNNER" --backend opencl --kernels all --cu 1 \
  --engine-mhz 2385 --memory-mhz 1375 --runs "$scratch/runs.csv" \
  --detail "$scratch/details.csv" --meta "$scratch/meta.txt" --size small \
  --min-time-ms 2 --power-window-ms 0 --warmup-ms 1 >"$scratch/out" 2>&1 ||
  { cat "$scratch/out" >&2; fail "sp-runner failed"; }

check_runs "$scratch/runs.csv"
rows=$(($(wc -l <"$scratch/runs.csv") - 1))
[ "$rows" -eq "$nk" ] || fail "$rows rows for $nk kernels"
"$SP_RUNNER" --list | awk '{print $1}' | sort >"$scratch/names"
tail -n +2 "$scratch/runs.csv" | cut -d, -f1 | sort >"$scratch/rows"
cmp -s "$scratch/names" "$scratch/rows" || fail "rows do not name every kernel once"
grep -q ',1,2385,1375,' "$scratch/runs.csv" || fail "cu/clock columns not as given"
grep -q '^backend: opencl$' "$scratch/meta.txt" || fail "metadata lacks the backend"
grep -q '^failures: 0$' "$scratch/meta.txt" || fail "metadata reports failures"
[ "$(wc -l <"$scratch/details.csv")" -eq $((nk + 1)) ] || fail "details.csv rows"
exit 0
