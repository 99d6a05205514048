#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every portable kernel of the core suite and of the held-out suites, small
# size, through OpenCL (pocl's CPU device in CI): each result is checked
# against its host reference before its row is written, and every row has
# the runs.csv format; CUDA-only kernels are skipped without failing the
# run.
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
# CUDA-only kernels (.cu sources) are skipped, each with a message, and are
# not failures: the rows name every other kernel once.
sed -n 's/^sp-runner: \([a-z0-9_]*\): skipped: .*\.cu is CUDA C++.*/\1/p' "$scratch/out" |
  sort >"$scratch/cuda-only"
ncuda=$(wc -l <"$scratch/cuda-only")
grep -qx idle_spin "$scratch/cuda-only" || fail "idle_spin (CUDA only) not skipped"
rows=$(($(wc -l <"$scratch/runs.csv") - 1))
[ "$rows" -eq $((nk - ncuda)) ] || fail "$rows rows for $nk kernels, $ncuda CUDA-only"
"$SP_RUNNER" --list | awk '{print $1}' | sort >"$scratch/names"
{ tail -n +2 "$scratch/runs.csv" | cut -d, -f1; cat "$scratch/cuda-only"; } | sort >"$scratch/rows"
cmp -s "$scratch/names" "$scratch/rows" || fail "rows do not name every portable kernel once"
grep -q ',1,2385,1375,' "$scratch/runs.csv" || fail "cu/clock columns not as given"
grep -q '^backend: opencl$' "$scratch/meta.txt" || fail "metadata lacks the backend"
grep -q '^failures: 0$' "$scratch/meta.txt" || fail "metadata reports failures"
grep -qx "kernels_skipped_cuda_only: $ncuda" "$scratch/meta.txt" || fail "metadata lacks the skipped count"
[ "$(wc -l <"$scratch/details.csv")" -eq $((rows + 1)) ] || fail "details.csv rows"

# The held-out suites of the registry the same way (they are measured once
# and never trained on, so a kernel broken by a shared header must show up
# here, not on the device): every portable kernel checked, one row each.
"$SP_RUNNER" --list --suite heldout | cut -f1 | sort >"$scratch/held"
if [ -s "$scratch/held" ]; then
  POCL_CPU_MAX_CU_COUNT=1 "$SP_RUNNER" --backend opencl --suite heldout --kernels all --cu 1 \
    --engine-mhz 2385 --memory-mhz 1375 --runs "$scratch/held.csv" --size small \
    --min-time-ms 2 --power-window-ms 0 --warmup-ms 1 --power none >"$scratch/held.out" 2>&1 ||
    { cat "$scratch/held.out" >&2; fail "sp-runner failed on the held-out suites"; }
  check_runs "$scratch/held.csv"
  sed -n 's/^sp-runner: \([a-z0-9_]*\): skipped: .*\.cu is CUDA C++.*/\1/p' "$scratch/held.out" |
    sort >"$scratch/held-cuda"
  { tail -n +2 "$scratch/held.csv" | cut -d, -f1; cat "$scratch/held-cuda"; } | sort >"$scratch/held-rows"
  cmp -s "$scratch/held" "$scratch/held-rows" ||
    fail "held-out rows do not name every portable kernel once: $(tr '\n' ' ' <"$scratch/held-rows")"
fi
exit 0
