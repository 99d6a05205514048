#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The CUDA backend on a GPU: two portable kernels and the CUDA-only
# idle_spin (a .cu source) at two SM counts through green contexts.  Without a CUDA build, driver or GPU the runner exits 3 and this
# test is skipped.
. "${srcdir:-.}/lib.sh"

"$SP_RUNNER" --backend cuda --kernels stream_triad,mm_tiled16,idle_spin --cu 8,16 \
  --engine-mhz auto --memory-mhz auto --runs "$scratch/runs.csv" \
  --min-time-ms 20 --power-window-ms 0 >"$scratch/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "no backend 'cuda'" "$scratch/out"; then
  skip "built without the CUDA backend (no cuda.h)"
fi
[ $rc -eq 3 ] && skip "no CUDA driver or GPU: $(tail -1 "$scratch/out")"
[ $rc -eq 0 ] || { cat "$scratch/out" >&2; fail "sp-runner failed ($rc)"; }
check_runs "$scratch/runs.csv"
[ "$(wc -l <"$scratch/runs.csv")" -eq 7 ] || fail "expected 6 rows"
exit 0
