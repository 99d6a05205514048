#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Nsight Compute raw CSV to counters.csv (sp-runner --import-ncu), on a
# fixture cut from the H100 collection: launches paired with the manifest in
# order, features and launch columns computed, launch metrics missing from
# the raw CSV left empty, an old-format counters file refused, rows kept on a
# second import, mismatches and missing launches refused.
. "${srcdir:-.}/lib.sh"
data=$SP_HARNESS_DATA
out=$scratch/counters.csv

"$SP_RUNNER" --import-ncu "$data/ncu-raw.csv" --manifest "$data/ncu-manifest.csv" \
  --counters "$out" >"$scratch/log" 2>&1 || { cat "$scratch/log" >&2; fail "import failed"; }
head -1 "$out" | grep -q '^kernel,cu,engine_mhz,memory_mhz,valu_insts_pct,' ||
  fail "counters header: $(head -1 "$out")"
[ "$(wc -l <"$out")" -eq 4 ] || fail "expected 3 rows"
cols=$(head -1 "$out" | awk -F, '{print NF}')
awk -F, -v n="$cols" 'NF != n { exit 1 }' "$out" || fail "ragged rows"
# stream_copy: one global load and one store per 16 warp instructions,
# every lane active.
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i }
  $1 == "stream_copy" {
    ok = $2 == 64 && $(c["vfetch_insts_pct"]) == 6.25 &&
         $(c["vwrite_insts_pct"]) == 6.25 && $(c["valu_utilization_pct"]) == 100
    exit !ok
  }' "$out" || fail "stream_copy features wrong: $(grep stream_copy "$out")"

# The launch columns, from the launch statistics ncu reports with every
# launch: 131072 blocks of 256 threads, 16 registers, no shared memory, 8
# blocks per SM (the warp limit), 256 waves over 64 SMs; the 30 features
# keep columns 5-34, the launch columns follow.
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i }
  $1 == "stream_copy" {
    ok = $(c["grid_blocks"]) == 131072 && $(c["block_threads"]) == 256 &&
         $(c["regs_per_thread"]) == 16 && $(c["smem_per_block"]) == 0 &&
         $(c["blocks_per_sm"]) == 8 && $(c["waves"]) == 256 &&
         $(c["theoretical_occupancy_pct"]) == 100 && c["write_bw_gbs"] == 34 &&
         c["grid_blocks"] == 35 && c["theoretical_occupancy_pct"] == 41 &&
         c["l2_bw_gbs"] == NF
    exit !ok
  }' "$out" || fail "stream_copy launch columns wrong: $(head -1 "$out"; grep stream_copy "$out")"

# Hand-made fixtures (tests/harness/data/ncu-raw-launch.csv and
# ncu-raw-nolaunch.csv): the ratio metrics are stream_copy's from the H100
# fixture; the launch metrics are invented for a shared-memory-limited
# launch at 132 SMs (96 KiB static + 2 KiB dynamic shared memory, limits
# 32/6/2/8 blocks by block count/registers/shared memory/warps), and the
# "nolaunch" file has only the launch metrics an older metric list
# collected (grid and block size).  Shared memory is static + dynamic, and
# blocks_per_sm the tightest limit.
hm=$data/ncu-manifest-handmade.csv
"$SP_RUNNER" --import-ncu "$data/ncu-raw-launch.csv" --manifest "$hm" \
  --counters "$scratch/c5.csv" >"$scratch/log" 2>&1 || { cat "$scratch/log" >&2; fail "hand-made import"; }
[ "$(tail -1 "$scratch/c5.csv" | cut -d, -f35-)" = "264,256,40,100352,2,1,25,,,," ] ||
  fail "launch columns: $(tail -1 "$scratch/c5.csv")"
# Launch metrics missing from the raw CSV leave their columns empty.
"$SP_RUNNER" --import-ncu "$data/ncu-raw-nolaunch.csv" --manifest "$hm" \
  --counters "$scratch/c6.csv" >"$scratch/log" 2>&1 || { cat "$scratch/log" >&2; fail "import without launch metrics"; }
[ "$(tail -1 "$scratch/c6.csv" | cut -d, -f35-)" = "1056,128,,,,,,,,," ] ||
  fail "absent launch metrics: $(tail -1 "$scratch/c6.csv")"
awk -F, -v n="$cols" 'NF != n { exit 1 }' "$scratch/c6.csv" || fail "ragged rows without launch metrics"

# The SM activity columns (ncu-raw-activity.csv: the hand-made launch plus
# invented activity metrics): the average SM active 250k of the 1M cycles
# that the busiest was (and that elapsed), the tensor pipe 12.5% busy, the
# L2 moving 2e12 bytes/s.
"$SP_RUNNER" --import-ncu "$data/ncu-raw-activity.csv" --manifest "$hm" \
  --counters "$scratch/c7.csv" >"$scratch/log" 2>&1 || { cat "$scratch/log" >&2; fail "import with activity metrics"; }
[ "$(tail -1 "$scratch/c7.csv" | cut -d, -f42-)" = "25,25,12.5,2000" ] ||
  fail "activity columns: $(head -1 "$scratch/c7.csv"; tail -1 "$scratch/c7.csv")"

# A counters file of the previous sp-runner (the launch columns, no activity
# columns) is refused like the older one below.
head -1 "$out" | cut -d, -f1-41 >"$scratch/prev.csv"
"$SP_RUNNER" --import-ncu "$data/ncu-raw.csv" --manifest "$data/ncu-manifest.csv" \
  --counters "$scratch/prev.csv" >"$scratch/log" 2>&1 && fail "previous-format counters file appended to"
grep -q 'older sp-runner.*SM activity.*import into a new file' "$scratch/log" ||
  fail "previous format not explained: $(cat "$scratch/log")"

# A counters.csv written before the launch columns existed (30 features) is
# refused, untouched, with a message saying to write a new file.
head -1 "$out" | cut -d, -f1-34 >"$scratch/old.csv"
echo "stream_triad,64,1980,2619$(printf ',1%.0s' $(seq 30))" >>"$scratch/old.csv"
cp "$scratch/old.csv" "$scratch/old-copy.csv"
"$SP_RUNNER" --import-ncu "$data/ncu-raw.csv" --manifest "$data/ncu-manifest.csv" \
  --counters "$scratch/old.csv" >"$scratch/log" 2>&1 && fail "old-format counters file appended to"
grep -q 'older sp-runner.*import into a new file' "$scratch/log" || fail "old format not explained: $(cat "$scratch/log")"
cmp -s "$scratch/old.csv" "$scratch/old-copy.csv" || fail "old-format counters file modified"

# Importing again keeps the rows it has.
cp "$out" "$scratch/first.csv"
"$SP_RUNNER" --import-ncu "$data/ncu-raw.csv" --manifest "$data/ncu-manifest.csv" \
  --counters "$out" >"$scratch/log" 2>&1 || fail "second import failed"
cmp -s "$out" "$scratch/first.csv" || fail "second import changed the file"

# A launch that failed its check contributes no row.
sed 's/^stream_scale,\(.*\),1$/stream_scale,\1,0/' "$data/ncu-manifest.csv" >"$scratch/m1.csv"
"$SP_RUNNER" --import-ncu "$data/ncu-raw.csv" --manifest "$scratch/m1.csv" \
  --counters "$scratch/c1.csv" >"$scratch/log" 2>&1 || fail "import with a failed check"
grep -q '^stream_scale,' "$scratch/c1.csv" && fail "row for a launch that failed its check"
[ "$(wc -l <"$scratch/c1.csv")" -eq 3 ] || fail "expected 2 rows"

# Launch order that does not match the manifest.
awk 'NR == 2 { l = $0; next } NR == 3 { print; print l; next } { print }' \
  "$data/ncu-manifest.csv" >"$scratch/m2.csv"
"$SP_RUNNER" --import-ncu "$data/ncu-raw.csv" --manifest "$scratch/m2.csv" \
  --counters "$scratch/c2.csv" >"$scratch/log" 2>&1 && fail "mismatched order accepted"
grep -q 'does not match the manifest' "$scratch/log" || fail "mismatch not named"

# A manifest listing more launches than ncu profiled.
{ cat "$data/ncu-manifest.csv"; echo "stream_triad,64,1980,2619,stream_triad,1"; } >"$scratch/m3.csv"
"$SP_RUNNER" --import-ncu "$data/ncu-raw.csv" --manifest "$scratch/m3.csv" \
  --counters "$scratch/c3.csv" >"$scratch/log" 2>&1 && fail "missing launch accepted"
grep -q 'has 3 launches, the manifest 4' "$scratch/log" || fail "missing launch not named"

# Not an ncu raw CSV.
printf 'a,b\n1,2\n' >"$scratch/bad.csv"
"$SP_RUNNER" --import-ncu "$scratch/bad.csv" --manifest "$data/ncu-manifest.csv" \
  --counters "$scratch/c4.csv" >"$scratch/log" 2>&1 && fail "non-ncu CSV accepted"
exit 0
