#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# sp-sweep --shard I/N: for several N the shards cover every configuration
# of the grid exactly once, in sizes that differ by at most one clock pair
# (N up to the pair count, and then every pair's clocks are set by one shard
# only) or by at most one configuration (more shards than pairs).  A shard
# writes only to STATE/shards/III/ and the campaign file beside it, resumes
# like any sweep, refuses a state folder split another way, and takes over a
# lock on another host only when it was left by its own (requeued) Slurm job;
# --restore --shard restores the shard's saved settings.
. "$(dirname "$0")/lib.sh"
cd "$work" || fail "cannot enter $work"

# 3 CU counts x 3 engine clocks x 2 memory clocks: 18 configurations, 6
# clock pairs.
cat >nv.plan <<'PLAN'
backend=nvidia
cu=8,16,32
engine_mhz=1005,1410,1600
memory_mhz=1593,2000
runs=out/runs.csv
meta=out/meta.txt
PLAN

# listing I N: the configurations shard I of N would measure ('cu engine
# memory' lines) and, on descriptor 4, its clock settings.
listing() {
	run_sweep --dry-run --shard "$1/$2" nv.plan
	expect_status 0 "shard $1/$2"
	sed -n 's/.* --cu \([0-9]*\) --engine-mhz \([0-9]*\) --memory-mhz \([0-9]*\) .*/\1 \2 \3/p' "$work/stdout"
	grep -c -- ' -lgc ' "$work/stdout" >&4
}

listing 0 1 >grid 4>/dev/null
[ "$(wc -l <grid)" -eq 18 ] || fail "the whole grid: $(wc -l <grid) configurations, expected 18"
for count in 1 2 3 4 6 7 9 18; do
	: >all
	: >sizes
	: >settings
	at=0
	while [ "$at" -lt "$count" ]; do
		listing "$at" "$count" >part 4>>settings
		wc -l <part >>sizes
		cat part >>all
		at=$((at + 1))
	done
	sort all | uniq -d >twice
	[ ! -s twice ] || fail "$count shards: measured twice: $(cat twice)"
	sort all | cmp -s - "$(sort grid >grid.sorted && echo grid.sorted)" ||
		fail "$count shards: the union is not the grid"
	smallest=$(sort -n sizes | head -n 1) largest=$(sort -n sizes | tail -n 1)
	clock_sets=$(awk '{ n += $1 } END { print n }' settings)
	if [ "$count" -le 6 ]; then
		[ $((largest - smallest)) -le 3 ] || fail "$count shards: sizes $(paste -sd' ' sizes) differ by more than a pair"
		[ "$clock_sets" -eq 6 ] || fail "$count shards: $clock_sets clock settings, expected one per pair (6)"
	else
		[ $((largest - smallest)) -le 1 ] || fail "$count shards: sizes $(paste -sd' ' sizes) differ by more than one"
	fi
	[ "$smallest" -ge 1 ] || fail "$count shards: an empty shard"
done

# More shards than configurations, and malformed specifications.
refused() { # MESSAGE ARG...
	message=$1
	shift
	run_sweep "$@"
	expect_status 1 "$message"
	grep -qF -- "$message" "$work/stderr" || fail "no '$message' in: $(cat "$work/stderr")"
}
refused "nv.plan: 19 shards of a grid of 18 configurations would leave shards empty" --shard 3/19 nv.plan
for spec in 4/4 1/0 x/2 1 /2 1/ 01/2 1/2/3 -1/2; do
	refused "--shard wants I/N with 0 <= I < N, got '$spec'" --shard "$spec" nv.plan
done
refused "--shard needs a value" --shard

# The h100-sm plan (fixed clocks, 17 SM counts) in 4 shards: 4, 4, 4, 5.
sizes=
for at in 0 1 2 3; do
	run_sweep --dry-run --shard "$at/4" "$SP_PLANS/h100-sm.plan"
	expect_status 0 "h100-sm shard $at/4"
	sizes="$sizes $(grep -c -- ' --cu ' "$work/stdout")"
done
[ "$sizes" = " 4 4 4 5" ] || fail "h100-sm in 4 shards: sizes$sizes, expected 4 4 4 5"

# A shard for real: its runs, metadata and state in its own folder.
[ ! -s "$SP_FAKE_LOG" ] || fail "a dry run called: $(cat "$SP_FAKE_LOG")"
run_sweep --shard 1/4 nv.plan
expect_status 0 "shard 1/4"
expect_grep "shard 1/4: 6 of the grid's 18 configurations, in $work/out/shards/001" "$work/stderr" "shard 1/4"
(cd out && find . | sort) >files
expect_file files "shard 1/4: its files" <<EOF
.
./shards
./shards/001
./shards/001/meta.txt
./shards/001/runs.csv
./shards/001/sweep-log.csv
./shards/campaign
EOF
expect_rows_once out/shards/001/runs.csv 12 "shard 1/4"
[ "$(grep -c -- '-lgc' "$SP_FAKE_LOG")" -eq 2 ] || fail "shard 1/4: expected the clocks of its 2 pairs set once each"
expect_file out/shards/campaign "shard 1/4: the campaign file" <<EOF
# The grid split by sp-sweep --shard I/4 (docs/sweeps.md); sp-merge reads it.
shards=4
runs=$work/out/runs.csv
meta=$work/out/meta.txt
kernels=all
grid=0,8,1005,1593
grid=0,16,1005,1593
grid=0,32,1005,1593
grid=1,8,1410,1593
grid=1,16,1410,1593
grid=1,32,1410,1593
grid=1,8,1600,1593
grid=1,16,1600,1593
grid=1,32,1600,1593
grid=2,8,1005,2000
grid=2,16,1005,2000
grid=2,32,1005,2000
grid=3,8,1410,2000
grid=3,16,1410,2000
grid=3,32,1410,2000
grid=3,8,1600,2000
grid=3,16,1600,2000
grid=3,32,1600,2000
EOF
: >"$SP_FAKE_LOG"
run_sweep --shard 1/4 nv.plan
expect_status 0 "shard 1/4 again"
expect_grep "6 of 6 configurations already measured; resuming" "$work/stderr" "shard 1/4 again"
expect_no_grep '^sp-runner ' "$SP_FAKE_LOG" "shard 1/4 again"

# --restore with --shard restores what that shard's killed sweep saved.
echo 'sm=1410 mem=1593' >out/shards/001/sweep-original
: >"$SP_FAKE_LOG"
run_sweep --restore --shard 1/4 nv.plan
expect_status 0 "--restore --shard 1/4"
expect_log "--restore --shard 1/4" <<EOF
nvidia-smi -i 0 -rgc
nvidia-smi -i 0 -rmc
EOF
[ ! -e out/shards/001/sweep-original ] || fail "--restore --shard 1/4: the saved settings stayed"

# Shards of another split, or of another plan, do not mix with these.
refused "$work/out/shards holds the shards of another split or plan" --shard 0/3 nv.plan
refused "$work/out/shards holds the shards of another split or plan" --shard 0/4 --set cu=8,16 nv.plan
[ "$(find out/shards -name 'campaign.*' | wc -l)" -eq 0 ] || fail "a refused shard left its campaign temporary"
refused "a shard keeps runs and meta in one folder" --shard 0/4 --set meta=meta/runs.csv nv.plan

# A lock in a shared state folder, left on another host: refused, unless
# this is the same Slurm job started again (a requeue ends the first run).
lock=out/shards/002/sweep.lock
mkdir -p "$lock"
echo "$$" >"$lock/pids"
printf 'host=elsewhere\nslurm_job=77\n' >"$lock/owner"
refused "a sweep on elsewhere (pids $$) holds $work/$lock; if it has ended, remove that folder" --shard 2/4 nv.plan
export SLURM_JOB_ID=78
refused "a sweep on elsewhere (pids $$) holds" --shard 2/4 nv.plan
SLURM_JOB_ID=77
run_sweep --shard 2/4 nv.plan
expect_status 0 "the lock of the same Slurm job"
expect_grep "taking over the lock left by a sweep that was killed" "$work/stderr" "the lock of the same Slurm job"
[ ! -e "$lock" ] || fail "the lock of the same Slurm job: the lock stayed"
# On this host the pids decide, whatever the job.
mkdir -p "$lock"
echo "$$" >"$lock/pids"
printf 'host=%s\nslurm_job=77\n' "$(uname -n)" >"$lock/owner"
refused "another sweep or its runner (pid $$) is still using $work/out/shards/002" --shard 2/4 nv.plan
exit 0
