#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# sp-merge joins the shards of a sharded sweep into the plan's runs file and
# metadata: the result equals a single sweep of the plan; a shard that has
# not run, or a configuration without every kernel, is named and exits 3; a
# row found twice is kept once and reported; the same kernel and
# configuration with other values is a conflict naming both files and lines
# (exit 1, nothing written, no temporary left); an existing runs file is
# replaced only when none of its rows would be lost; labels read back with
# 'current' count per shard.
. "$(dirname "$0")/lib.sh"
cd "$work" || fail "cannot enter $work"

cat >pocl.plan <<'PLAN'
backend=pocl
fixed_clocks=yes
cu=1,2,3,4,5,6
engine_mhz=1000
memory_mhz=3200
runs=out/runs.csv
meta=out/metadata.txt
PLAN
shards=$work/out/shards

# shard_all N [ARG...]: run every shard of N.
shard_all() {
	count=$1
	shift
	at=0
	while [ "$at" -lt "$count" ]; do
		run_sweep --shard "$at/$count" "$@" pocl.plan
		expect_status 0 "shard $at/$count"
		at=$((at + 1))
	done
}

no_temporaries() { # WHAT
	leftovers=$(find "$work/out" "$work/elsewhere" -name '*.sp-merge.*' 2>/dev/null)
	[ -z "$leftovers" ] || fail "$1: temporaries left: $leftovers"
}

# The reference: the same plan swept in one go.
run_sweep --set runs=single/runs.csv pocl.plan
expect_status 0 "the single sweep"
shard_all 3

run_merge out/shards
expect_status 0 "merge"
expect_file "$work/stdout" "merge: the summary" <<EOF
shard 000: 4 rows, 2 of its 2 configurations
shard 001: 4 rows, 2 of its 2 configurations
shard 002: 4 rows, 2 of its 2 configurations
merged 12 rows: 6 of the grid's 6 configurations, 2 kernels, from 3 shards into $work/out/runs.csv
EOF
cmp -s single/runs.csv out/runs.csv || fail "merge: the merged runs differ from the single sweep's: $(diff single/runs.csv out/runs.csv)"
expect_grep "metadata of the shards in $work/out/metadata.txt" "$work/stderr" "merge"
[ "$(grep -c '^\[session\]' out/metadata.txt)" -eq 6 ] || fail "merge: expected the 6 runner sessions in the metadata"
for at in 000 001 002; do
	expect_grep "^# shard $at: $shards/$at/metadata.txt\$" out/metadata.txt "merge: the metadata"
done
no_temporaries "merge"

# Merging again replaces the file with the same rows (and the metadata that
# sp-merge wrote).  A dry run writes nothing, the folder above the shards
# names them too.
run_merge out
expect_status 0 "merge again"
cmp -s single/runs.csv out/runs.csv || fail "merge again: the runs changed"
cp out/runs.csv before.csv
rm out/metadata.txt
run_merge --dry-run out
expect_status 0 "dry run"
expect_grep "^would merge 12 rows: " "$work/stdout" "dry run"
[ ! -e out/metadata.txt ] || fail "dry run: the metadata was written"
run_merge out

# A shard that has not run: the merge would lose its rows from the runs file
# merged earlier, so it refuses; elsewhere it writes what there is, exit 3.
mv "$shards/001/runs.csv" runs-001.csv
run_merge out/shards
expect_status 1 "a shard missing, over the earlier merge"
expect_grep "$work/out/runs.csv:6: this row is in no shard: replacing $work/out/runs.csv would lose it" "$work/stderr" "a shard missing, over the earlier merge"
expect_grep "error: nothing written" "$work/stderr" "a shard missing, over the earlier merge"
cmp -s before.csv out/runs.csv || fail "a shard missing: the earlier merge was changed"
no_temporaries "a shard missing"
run_merge --out elsewhere/runs.csv --meta-out elsewhere/meta.txt out/shards
expect_status 3 "a shard missing"
expect_file "$work/stdout" "a shard missing: the summary" <<EOF
shard 000: 4 rows, 2 of its 2 configurations
shard 001: 0 rows, 0 of its 2 configurations (no runs file: the shard has not run)
  missing: 3cu/1000/3200 4cu/1000/3200
shard 002: 4 rows, 2 of its 2 configurations
merged 8 rows: 4 of the grid's 6 configurations, 2 kernels, from 3 shards into $work/elsewhere/runs.csv; 2 configurations missing or incomplete
EOF
expect_rows_once elsewhere/runs.csv 8 "a shard missing"
[ -s elsewhere/meta.txt ] || fail "a shard missing: no metadata in --meta-out"
mv runs-001.csv "$shards/001/runs.csv"

# A configuration without every kernel.
cp "$shards/000/runs.csv" saved.csv
grep -v '^stream_triad,2,' saved.csv >"$shards/000/runs.csv"
run_merge --out elsewhere/incomplete.csv out/shards
expect_status 3 "incomplete"
expect_grep '^  incomplete (not every kernel): 2cu/1000/3200$' "$work/stdout" "incomplete"
cp saved.csv "$shards/000/runs.csv"

# The same row twice (a shard copied by hand): kept once, reported.
sed -n 2p "$shards/000/runs.csv" >>"$shards/002/runs.csv"
run_merge out/shards
expect_status 0 "a duplicate"
expect_file "$work/stderr" "a duplicate: the report" <<EOF
sp-merge: duplicate row: $shards/002/runs.csv:6 repeats $shards/000/runs.csv:2 (kept once)
sp-merge: metadata of the shards in $work/out/metadata.txt
EOF
expect_grep '^shard 002: 4 rows, 2 of its 2 configurations, 1 duplicate rows dropped$' "$work/stdout" "a duplicate"
expect_grep '; 1 duplicate rows dropped$' "$work/stdout" "a duplicate"
cmp -s single/runs.csv out/runs.csv || fail "a duplicate: the merged runs differ from the single sweep's"

# The same kernel and configuration with another time: a conflict, named
# with both places, and nothing written.
echo 'stream_copy,3,1000,3200,9.75,71.25' >>"$shards/002/runs.csv"
echo 'stream_triad,4,1000,3200,2.385,' >>"$shards/000/runs.csv"
cp out/metadata.txt meta-before.txt
run_merge out/shards
expect_status 1 "conflicts"
expect_grep "conflict: kernel stream_triad at 4cu/1000/3200: $shards/001/runs.csv:5 has 2.385,71.25 but $shards/000/runs.csv:6 has 2.385,\$" "$work/stderr" "conflicts"
expect_grep "conflict: kernel stream_copy at 3cu/1000/3200: $shards/002/runs.csv:7 has 9.75,71.25 but $shards/001/runs.csv:2 has 2.385,71.25\$" "$work/stderr" "conflicts"
expect_grep "error: nothing written" "$work/stderr" "conflicts"
[ ! -s "$work/stdout" ] || fail "conflicts: a summary of a merge that did not happen"
cmp -s single/runs.csv out/runs.csv || fail "conflicts: the runs file was changed"
cmp -s meta-before.txt out/metadata.txt || fail "conflicts: the metadata was changed"
no_temporaries "conflicts"
cp saved.csv "$shards/000/runs.csv"
sed -i '$d' "$shards/002/runs.csv"
sed -i '$d' "$shards/002/runs.csv"

# A row outside the shard's part of the grid is kept and named.
echo 'stream_copy,7,1000,3200,2.385,71.25' >>"$shards/002/runs.csv"
run_merge --out elsewhere/runs.csv out/shards
expect_status 0 "a stray row"
expect_grep '^  outside its part of the grid (kept): 7cu/1000/3200$' "$work/stdout" "a stray row"
expect_no_grep 'metadata of the shards' "$work/stderr" "a stray row: --out alone writes no metadata"
expect_rows_once elsewhere/runs.csv 13 "a stray row"
sed -i '$d' "$shards/002/runs.csv"

# Malformed shards.
cp "$shards/001/runs.csv" saved.csv
sed -i '1s/.*/kernel,cu,engine_mhz,memory_mhz,time_ms/' "$shards/001/runs.csv"
run_merge out/shards
expect_status 1 "another header"
expect_grep "$shards/001/runs.csv:1: the header differs from that of $shards/000/runs.csv" "$work/stderr" "another header"
cp saved.csv "$shards/001/runs.csv"
echo 'stream_copy,4,1000' >>"$shards/001/runs.csv"
run_merge out/shards
expect_status 1 "a short row"
expect_grep "$shards/001/runs.csv:6: 3 fields, the header has 6" "$work/stderr" "a short row"
cp saved.csv "$shards/001/runs.csv"
cmp -s single/runs.csv out/runs.csv || fail "malformed shards: the runs file was changed"

# Files sp-merge did not write are not replaced.
echo '[session]' >elsewhere/own-meta.txt
run_merge --out elsewhere/runs.csv --meta-out elsewhere/own-meta.txt out/shards
expect_status 1 "foreign metadata"
expect_grep "elsewhere/own-meta.txt was not written by sp-merge; replacing it would lose it" "$work/stderr" "foreign metadata"

# Usage.
run_merge
expect_status 1 "no folder"
expect_grep "expected one shards folder" "$work/stderr" "no folder"
run_merge --bogus out
expect_status 1 "a bad option"
expect_grep "unknown option '--bogus'" "$work/stderr" "a bad option"
run_merge single
expect_status 1 "not a shards folder"
expect_grep "no campaign file in 'single'" "$work/stderr" "not a shards folder"

# 'current' labels are read by each shard on its own node: the grid is
# checked against what each shard read.
root=$work/root
mkdir -p "$root/sys/devices/system/cpu/cpu0/cpufreq"
export SP_SYSFS_ROOT="$root"
rm -r out
for at in 0 1; do
	echo "$((2394000 + at * 1000))" >"$root/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq"
	run_sweep --shard "$at/2" --set engine_mhz=current --set cu=1,2,3 pocl.plan
	expect_status 0 "current, shard $at"
done
run_merge out/shards
expect_status 0 "current"
expect_file "$work/stdout" "current: the summary" <<EOF
shard 000: 2 rows, 1 of its 1 configurations
shard 001: 4 rows, 2 of its 2 configurations
merged 6 rows: 3 of the grid's 3 configurations, 2 kernels, from 2 shards into $work/out/runs.csv
EOF
[ "$(cut -d, -f2,3 out/runs.csv | sort -u | tr '\n' ' ')" = "1,2394 2,2395 3,2395 cu,engine_mhz " ] ||
	fail "current: each shard's rows carry its own label: $(cat out/runs.csv)"
exit 0
