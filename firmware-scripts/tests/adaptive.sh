#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# An adaptive sweep, end to end without a GPU: the replay backend and
# sp-replay-runner over a recording of two synthetic kernels on the
# paper's 448-configuration grid.  Fewer rows are measured than the grid
# holds, each exactly as recorded and once; the completion covers the
# grid; a finished sweep run again measures nothing; a larger budget
# resumes; the shared surrogate plans and completes a sweep of its own;
# the dry run lists the first round and writes nothing; bad options are
# refused.
. "$(dirname "$0")/lib.sh"

for tool in "${SP_SCALEPREDICT:-}" "${SP_SYNTH:-}"; do
	if [ -z "$tool" ] || [ ! -x "$tool" ]; then
		echo "$test_name: skipped: needs the built scalepredict and synth (make check sets them)" >&2
		exit 77
	fi
done
"$SP_SYNTH" --seed 3 --kernels 2 --samples 0 --out "$work/rec" || fail "synth"
recording=$work/rec/runs.csv
SP_REPLAY_RUNS=$recording
export SP_REPLAY_RUNS SP_SCALEPREDICT
runs=$work/out/runs.csv completed=$work/out/runs-completed.csv
plan=$work/replay.plan
cat >"$plan" <<PLAN
backend=replay
cu=4,8,12,16,20,24,28,32
engine_mhz=300,400,500,600,700,800,900,1000
memory_mhz=475,625,775,925,1075,1225,1375
runs=$runs
PLAN

# Every measured row is the recording's row, as it was written.
expect_recorded() { # WHAT
	tail -n +2 "$runs" | while IFS= read -r row; do
		grep -q -x -F -- "$row" "$recording" || fail "$1: '$row' is not a recorded row"
	done
}

run_sweep --runner "$SP_REPLAY_RUNNER" --plan adaptive --budget 12 --batch 4 "$plan"
expect_status 0 "budget 12"
expect_rows_once "$runs" 24 "budget 12"
expect_recorded "budget 12"
for kernel in $(tail -n +2 "$recording" | cut -d, -f1 | sort -u); do
	grep -q "^$kernel,16,600,925," "$runs" || fail "budget 12: $kernel's base (the middle) not measured"
done
[ "$(wc -l <"$completed")" -eq 897 ] || fail "the completion has $(wc -l <"$completed") lines, not 1 + 2 x 448"
[ "$(grep -c ',measured$' "$completed")" -eq 24 ] || fail "the completion marks other than 24 rows measured"
[ "$(grep -c ',completed$' "$completed")" -eq 872 ] || fail "the completion marks other than 872 rows completed"
grep ',measured$' "$completed" | sed 's/,measured$//' | sort >"$work/measured-in-completion"
tail -n +2 "$runs" | sort | diff - "$work/measured-in-completion" >&2 ||
	fail "the completion's measured rows differ from the runs file"
expect_grep 'round 4: ' "$work/stderr" "budget 12: rounds"
expect_no_grep 'round 5: ' "$work/stderr" "budget 12: rounds"

# Done: run again, nothing is measured and nothing changes.
cp "$runs" "$work/before"
run_sweep --runner "$SP_REPLAY_RUNNER" --plan adaptive --budget 12 --batch 4 "$plan"
expect_status 0 "again"
cmp -s "$runs" "$work/before" || fail "again: the runs file changed"
expect_grep 'done: 0 configurations measured' "$work/stderr" "again"

# A larger budget resumes from the rows there.
run_sweep --runner "$SP_REPLAY_RUNNER" --plan adaptive --budget 1/32 --batch 4 "$plan"
expect_status 0 "budget 1/32"
expect_rows_once "$runs" 28 "budget 1/32"
expect_recorded "budget 1/32"
head -n 25 "$runs" | cmp -s - "$work/before" || fail "budget 1/32: the earlier rows changed"

# The shared surrogate: its own sweep to the same budget, each round's first
# configuration common to both kernels, the completion over the grid.
run_sweep --runner "$SP_REPLAY_RUNNER" --plan adaptive --budget 12 --batch 4 \
	--surrogate shared --set "runs=$work/shared/runs.csv" "$plan"
expect_status 0 "shared"
expect_rows_once "$work/shared/runs.csv" 24 "shared"
[ "$(($(wc -l <"$work/shared/runs-completed.csv") - 1))" -eq $((2 * 448)) ] ||
	fail "shared: the completion does not cover both grids"
expect_recorded_in() { # FILE WHAT
	tail -n +2 "$1" | while IFS= read -r row; do
		grep -q -x -F -- "$row" "$recording" || fail "$2: '$row' is not a recorded row"
	done
}
expect_recorded_in "$work/shared/runs.csv" "shared"
# shellcheck disable=SC2046 # kernel names hold no blanks
set -- $(tail -n +2 "$recording" | cut -d, -f1 | sort -u)
for kernel in "$@"; do
	grep -q "^$kernel,16,600,925," "$work/shared/runs.csv" || fail "shared: $kernel's base not measured"
done
# Each round gave both kernels a common configuration besides the base.
configs() { grep "^$1," "$work/shared/runs.csv" | cut -d, -f2-4 | grep -v '^16,600,925$' | sort; }
configs "$1" >"$work/c1"
configs "$2" >"$work/c2"
[ "$(comm -12 "$work/c1" "$work/c2" | wc -l)" -ge 2 ] ||
	fail "shared: fewer than 2 configurations common to both kernels besides the base"

# A total budget over both kernels: exactly that many rows, then done.
run_sweep --runner "$SP_REPLAY_RUNNER" --plan adaptive --total-budget 30 --batch 4 \
	--set "runs=$work/total/runs.csv" "$plan"
expect_status 0 "total budget 30"
expect_rows_once "$work/total/runs.csv" 30 "total budget 30"
expect_recorded_in "$work/total/runs.csv" "total budget 30"

# The dry run: the first round (the bases), nothing written.
run_sweep --runner "$SP_REPLAY_RUNNER" --dry-run --plan adaptive --budget 12 \
	--set "runs=$work/dry/runs.csv" --set kernels=a,b "$plan"
expect_status 0 "dry run"
[ ! -e "$work/dry" ] || fail "dry run: wrote $work/dry"
[ "$(grep -c -- '--backend ' "$work/stdout")" -eq 1 ] || fail "dry run: other than one runner call listed"
expect_grep "--kernels a,b --cu 16 --engine-mhz 600 --memory-mhz 925 " "$work/stdout" "dry run"
expect_grep "complete --runs $work/dry/runs.csv" "$work/stdout" "dry run"

# Refusals.
run_sweep --plan sometimes "$plan"
expect_status 1 "--plan sometimes"
expect_grep "plan must be grid or adaptive" "$work/stderr" "--plan sometimes"
run_sweep --budget 12 "$plan"
expect_status 1 "--budget alone"
expect_grep "need --plan adaptive" "$work/stderr" "--budget alone"
run_sweep --plan adaptive --budget 1x "$plan"
expect_status 1 "--budget 1x"
run_sweep --plan adaptive --surrogate dynamic-trees "$plan"
expect_status 1 "--surrogate dynamic-trees"
expect_grep "surrogate must be gp or shared" "$work/stderr" "--surrogate dynamic-trees"
run_sweep --surrogate shared "$plan"
expect_status 1 "--surrogate alone"
expect_grep "need --plan adaptive" "$work/stderr" "--surrogate alone"
SP_SCALEPREDICT=$work/no-such-scalepredict run_sweep --runner "$SP_REPLAY_RUNNER" --plan adaptive "$plan"
expect_status 1 "no scalepredict"
expect_grep "scalepredict not found" "$work/stderr" "no scalepredict"
SP_REPLAY_RUNS='' run_sweep --runner "$SP_REPLAY_RUNNER" --plan adaptive --budget 12 "$plan"
expect_status 1 "no recording"
expect_grep "SP_REPLAY_RUNS" "$work/stderr" "no recording"
exit 0
