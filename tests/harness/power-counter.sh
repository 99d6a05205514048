#!/bin/sh
# Power from an energy counter that moves in steps, as NVML's and RAPL's do:
# a stand-in powercap counter gains 20 J every 0.1 s (200 W); the runner's
# power must come out near 200 W from the counter changes it saw.
. "${srcdir:-.}/lib.sh"
have_opencl || skip "no OpenCL device (install pocl-opencl-icd)"

dom=$scratch/powercap/intel-rapl:0
mkdir -p "$dom"
echo 262143328850 >"$dom/max_energy_range_uj"
echo 1000000 >"$dom/energy_uj"
(
  uj=1000000
  while [ -d "$dom" ]; do
    sleep 0.1
    uj=$((uj + 20000000))
    echo $uj >"$dom/energy_uj.new" && mv "$dom/energy_uj.new" "$dom/energy_uj"
  done
) 2>/dev/null &
ticker=$!

SP_POWERCAP_ROOT=$scratch/powercap "$SP_RUNNER" --backend opencl \
  --kernels stream_copy,mm_tiled16 --cu 1 --engine-mhz 1 --memory-mhz 1 \
  --runs "$scratch/runs.csv" --detail "$scratch/details.csv" --size small \
  --power rapl --power-window-ms 1500 --meta "$scratch/meta.txt" \
  >"$scratch/out" 2>&1
rc=$?
rm -rf "$scratch/powercap"
wait $ticker 2>/dev/null
[ $rc -eq 0 ] || { cat "$scratch/out" >&2; fail "sp-runner failed"; }
check_runs "$scratch/runs.csv"
grep -q '^energy_counter_period_ms: 1[01][0-9]\.' "$scratch/meta.txt" ||
  fail "counter period not near the stand-in's 0.1 s: $(grep period "$scratch/meta.txt")"
# Each row: power within 20% of 200 W, derived from counter updates.
awk -F, 'NR > 1 {
  if ($6 < 160 || $6 > 240) { print "power " $6 " W for " $1; bad = 1 }
}
END { exit bad }' "$scratch/runs.csv" || fail "power off the stand-in counter's 200 W"
tail -n +2 "$scratch/details.csv" | cut -d, -f17 | grep -Evx 'updates|periodic' &&
  fail "power not computed from counter updates"
exit 0
