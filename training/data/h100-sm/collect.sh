#!/bin/sh
# collect.sh: how training/data/h100-sm was measured on the project's H100.
#
#   sh training/data/h100-sm/collect.sh PHASE OUTDIR
#
# PHASE probe: environment, green-context SM granularity, ncu inside green
#   contexts, the OpenCL path on the GPU.
# PHASE sweep: every suite kernel at every SM level (resumable: rows already
#   in OUTDIR/runs.csv, or in this folder's runs.csv, are skipped).
# PHASE sweep-each: the same, one runner process per kernel, so a kernel
#   that loses its CUDA context (an illegal access) costs only its own rows;
#   stops starting kernels once SP_TIME_LIMIT seconds have passed.
# PHASE counters: Nsight Compute counters at the 132-SM and 64-SM bases.
#   A counters file with the old 34-column header (before the launch
#   columns) is not appended to: OUTDIR/counters.csv starts afresh.
#
# Nothing here changes a GPU setting: clocks are only read (NVML), SM counts
# come from green contexts, and ncu runs with --clock-control none.
# Run from the repository root with training/runner/sp-runner built (or
# SP_RUNNER pointing at a build).  Optional environment: SP_TIME_LIMIT
# (seconds; stops a sweep between rows), SP_KERNELS and SP_LEVELS (subsets),
# SP_RUNNER_ARGS (extra sweep options, e.g. --power-window-ms 1000),
# SP_BASES (the counters' SM levels, default "132 64"), SP_SUITE (a suite of
# training/suites.txt, all, training or heldout: sp-runner --suite; default
# core, also called train), SP_NCU_TAG (a suffix for the folder of raw ncu
# files, so that counters collected in parts keep every part).  Only a sweep
# of the core suite starts from this folder's files; another suite's starts
# from OUTDIR's own, or from nothing.
set -u
phase=$1
out=$2
here=training/data/h100-sm
runner=${SP_RUNNER:-training/runner/sp-runner}
# Every suite's source folder: sp-runner finds it from the registry
# (training/suites.txt, compiled in), under the current directory when the
# build's source tree is not here: run from the repository root.
suite=${SP_SUITE:-core}
levels=8,16,24,32,40,48,56,64,80,96,112,128,132
mkdir -p "$out"

# The clocks recorded in every row: the device's maximum SM and memory
# clocks (the boost ceiling, read through NVML).  Actual clocks before and
# after every measurement are in details.csv.
clocks() {
  nvidia-smi --query-gpu=clocks.max.sm,clocks.max.mem --format=csv,noheader,nounits |
    head -1 | tr -d ' '
}

case $phase in
probe)
  {
    date -u; uname -a
    nvidia-smi
    nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,clocks.applications.graphics,clocks.applications.memory,clocks.default_applications.graphics,clocks.default_applications.memory,power.draw,power.limit,temperature.gpu --format=csv
    ncu --version
    ldconfig -p | grep -E 'libOpenCL|nvidia-opencl|nvrtc|nvidia-ml|libcuda'
    ls /etc/OpenCL/vendors 2>&1
  } >"$out/env.txt" 2>&1
  "$runner" --backend cuda --probe-cu >"$out/probe-cu.csv" 2>&1
  ;;
sweep|sweep-each)
  c=$(clocks); e=${c%,*}; m=${c#*,}
  if [ "$suite" = core ] || [ "$suite" = train ]; then
    [ -f "$out/runs.csv" ] || cp "$here/runs.csv" "$out/runs.csv" 2>/dev/null
    [ -f "$out/details.csv" ] || cp "$here/details.csv" "$out/details.csv" 2>/dev/null
    [ -f "$out/metadata.txt" ] || cp "$here/metadata.txt" "$out/metadata.txt" 2>/dev/null
  fi
  if [ "$phase" = sweep-each ]; then
    start=$(date +%s)
    names=${SP_KERNELS:-all}
    [ "$names" = all ] && names=$("$runner" --list --suite "$suite" | cut -f1)
    for k in $(echo "$names" | tr , ' '); do
      nlev=$(echo "${SP_LEVELS:-$levels}" | tr , '\n' | wc -l)
      have=$(grep -c "^$k," "$out/runs.csv" 2>/dev/null)
      if [ "${have:-0}" -ge "$nlev" ]; then
        continue # every level measured: skip without starting a process
      fi
      if [ $(($(date +%s) - start)) -ge "${SP_TIME_LIMIT:-540}" ]; then
        echo "sweep-each: time limit reached before $k"
        break
      fi
      # shellcheck disable=SC2086
      "$runner" --backend cuda --suite "$suite" --kernels "$k" \
        --cu "${SP_LEVELS:-$levels}" \
        --engine-mhz "$e" --memory-mhz "$m" --runs "$out/runs.csv" \
        --detail "$out/details.csv" --meta "$out/metadata.txt" ${SP_RUNNER_ARGS:-} \
        >>"$out/sweep.log" 2>&1 || echo "sweep-each: $k exit status $?"
    done
    exit 0
  fi
  # shellcheck disable=SC2086
  timeout -s TERM "${SP_TIME_LIMIT:-540}" "$runner" --backend cuda \
    --suite "$suite" --kernels "${SP_KERNELS:-all}" --cu "${SP_LEVELS:-$levels}" \
    --engine-mhz "$e" --memory-mhz "$m" --runs "$out/runs.csv" \
    --detail "$out/details.csv" --meta "$out/metadata.txt" ${SP_RUNNER_ARGS:-}
  echo "sweep exit status $?"
  ;;
counters)
  c=$(clocks); e=${c%,*}; m=${c#*,}
  # Resume from this folder's counters only for the core suite, and only
  # when they have the current columns (the last is l2_bw_gbs).
  if { [ "$suite" = core ] || [ "$suite" = train ]; } && [ ! -f "$out/counters.csv" ] &&
    head -1 "$here/counters.csv" | grep -q ',l2_bw_gbs$'; then
    cp "$here/counters.csv" "$out/counters.csv"
  fi
  for cu in ${SP_BASES:-132 64}; do
    SP_RUNNER=$runner training/runner/sp-counters --cu "$cu" --engine-mhz "$e" \
      --memory-mhz "$m" --counters "$out/counters.csv" --suite "$suite" \
      --kernels "${SP_KERNELS:-all}" --keep "$out/ncu${SP_NCU_TAG:-}"
    echo "counters at $cu SMs: exit status $?"
  done
  ;;
*)
  echo "collect.sh: unknown phase '$phase'" >&2
  exit 2
  ;;
esac
