#!/bin/sh
# Nsight Compute raw CSV to counters.csv (sp-runner --import-ncu), on a
# fixture cut from the H100 collection: launches paired with the manifest in
# order, features computed, rows kept on a second import, mismatches and
# missing launches refused.
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
