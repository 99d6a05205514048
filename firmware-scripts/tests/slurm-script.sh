#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# sp-sweep --slurm without Slurm: the job-array script it writes (the array
# range, one GPU or the given gres per task, the #SBATCH options, requeue,
# and each task's 'sp-sweep --shard $SLURM_ARRAY_TASK_ID/N'), the campaign
# file and shard folders beside it, --submit through a stand-in sbatch, the
# refusals; and the script run by hand once per task, whose shards sp-merge
# joins into exactly what a single sweep of the plan writes.
. "$(dirname "$0")/lib.sh"
cd "$work" || fail "cannot enter $work"

cat >nv.plan <<'PLAN'
backend=nvidia
cu=8,16
engine_mhz=1005,1410,1600
memory_mhz=1593
runs=out/runs.csv
PLAN
sweep=$(cd "$(dirname "$SP_SWEEP")" && pwd)/$(basename "$SP_SWEEP")

# The default: one task per clock pair, one GPU each.
run_sweep --slurm --dry-run nv.plan
expect_status 0 "the default job"
expect_file "$work/stdout" "the default job script" <<EOF
#!/bin/sh
# A Slurm job array written by sp-sweep --slurm (docs/sweeps.md, "Shards and
# Slurm") for the plan $work/nv.plan:
# its 6 configurations (CU counts x clock pairs: 2 x 3) in 3 shards.
#
# Array task I sweeps shard I with 'sp-sweep --shard I/3' on the node Slurm
# gives it, and writes only to its own folder (I in three digits)
#   $work/out/shards/III
# its runs, metadata, sweep log, lock and Slurm output.  A task that is
# requeued (--requeue) or submitted again resumes: what its sweep log holds
# is not measured again.  When every task has finished, merge the shards
# into the plan's runs file with
#   sp-merge $work/out/shards
#SBATCH --job-name=sp-sweep-nv
#SBATCH --array=0-2
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --gres=gpu:1
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=$work/out/shards/%3a/slurm-%A_%a.out

: "\${SLURM_ARRAY_TASK_ID:?submit this script with sbatch (or set SLURM_ARRAY_TASK_ID)}"
# The plan's relative paths are relative to the folder sp-sweep --slurm ran in.
cd $work || exit 1
exec $sweep --shard "\$SLURM_ARRAY_TASK_ID/3" $work/nv.plan
EOF
[ ! -e out ] || fail "a dry run wrote files"

# Every option in its #SBATCH line; the options that shape the sweep reach
# each task's sp-sweep.
run_sweep --slurm --dry-run --shards 5 --gres gpu:h100:1 --partition gpu --account=proj7 \
	--qos high --time 2:00:00 --constraint h100 --job-name calib --cpus-per-task 4 \
	--sbatch-arg --exclusive --sbatch-arg=--mem=0 --runner /opt/sp/sp-runner --fixed-clocks \
	--set cu=8,16,32,64,128 --set engine_mhz=1005 --set "meta=out/my meta.txt" nv.plan
expect_status 0 "options"
sed -n '/^#SBATCH/p; /^exec /p' "$work/stdout" >lines
expect_file lines "options: the #SBATCH lines and the command" <<EOF
#SBATCH --job-name=calib
#SBATCH --array=0-4
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --gres=gpu:h100:1
#SBATCH --cpus-per-task=4
#SBATCH --partition=gpu
#SBATCH --account=proj7
#SBATCH --qos=high
#SBATCH --time=2:00:00
#SBATCH --constraint=h100
#SBATCH --exclusive
#SBATCH --mem=0
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=$work/out/shards/%3a/slurm-%A_%a.out
exec $sweep --shard "\$SLURM_ARRAY_TASK_ID/5" --runner /opt/sp/sp-runner --fixed-clocks --set cu=8,16,32,64,128 --set engine_mhz=1005 --set 'meta=out/my meta.txt' $work/nv.plan
EOF
expect_grep "^# its 5 configurations (CU counts x clock pairs: 5 x 1) in 5 shards\.\$" "$work/stdout" "options"
run_sweep --slurm --dry-run --gres none nv.plan
expect_status 0 "--gres none"
expect_no_grep '^#SBATCH --gres' "$work/stdout" "--gres none"

# pocl measures the CPU: no GPU, and as many CPUs as the largest CU count.
run_sweep --slurm --dry-run --set runs=out/runs.csv "$SP_PLANS/pocl-ci.plan"
expect_status 0 "pocl"
expect_no_grep '^#SBATCH --gres' "$work/stdout" "pocl"
expect_grep '^#SBATCH --cpus-per-task=2$' "$work/stdout" "pocl"
expect_grep '^#SBATCH --array=0-0$' "$work/stdout" "pocl: fixed clocks are one clock pair"
run_sweep --slurm --dry-run --shards 2 --cpus-per-task 1 --gres gpu:1 --set runs=out/runs.csv "$SP_PLANS/pocl-ci.plan"
expect_grep '^#SBATCH --cpus-per-task=1$' "$work/stdout" "pocl, --cpus-per-task"
expect_grep '^#SBATCH --gres=gpu:1$' "$work/stdout" "pocl, --gres"
expect_grep '^#SBATCH --array=0-1$' "$work/stdout" "pocl, --shards"

# Refusals.
refused() { # MESSAGE ARG...
	message=$1
	shift
	run_sweep "$@"
	expect_status 1 "$message"
	grep -qF -- "$message" "$work/stderr" || fail "no '$message' in: $(cat "$work/stderr")"
}
refused "--gres needs --slurm" --gres gpu:2 nv.plan
refused "--partition needs --slurm" --partition=gpu nv.plan
refused "--submit needs --slurm" --submit nv.plan
refused "--slurm and --shard contradict each other" --slurm --shard 0/2 nv.plan
refused "--slurm cannot be combined with --restore or --list-supported" --slurm --restore nv.plan
refused "--shards wants a positive number, got '0'" --slurm --shards 0 nv.plan
refused "--cpus-per-task wants a positive number, got 'all'" --slurm --cpus-per-task all nv.plan
refused "--partition wants a value on one line" --slurm --partition= nv.plan
refused "nv.plan: 7 shards of a grid of 6 configurations would leave shards empty" --slurm --shards 7 nv.plan
refused "Slurm's #SBATCH lines cannot name the folder '$work/my out/shards'" --slurm --set "runs=my out/runs.csv" nv.plan
[ ! -s "$SP_FAKE_LOG" ] || fail "a refused --slurm called: $(cat "$SP_FAKE_LOG")"

# For real: the script, the campaign and a folder per task; nothing runs.
run_sweep --slurm nv.plan
expect_status 0 "the job written"
expect_grep "wrote $work/out/shards/sp-sweep.sbatch: a job array of 3 tasks over the 6 configurations of nv.plan" "$work/stderr" "the job written"
expect_grep "submit it with 'sbatch $work/out/shards/sp-sweep.sbatch'; when every task has finished, run 'sp-merge $work/out/shards'" "$work/stderr" "the job written"
(cd out && find . | sort) >files
expect_file files "the job written: the files" <<EOF
.
./shards
./shards/000
./shards/001
./shards/002
./shards/campaign
./shards/sp-sweep.sbatch
EOF
[ ! -s "$SP_FAKE_LOG" ] || fail "--slurm called: $(cat "$SP_FAKE_LOG")"
refused "$work/out/shards holds the shards of another split or plan" --slurm --shards 2 nv.plan

run_sweep --slurm --submit --slurm-script "$work/job.sh" nv.plan
expect_status 0 "--submit"
expect_file "$work/stdout" "--submit: the job id" <<EOF
4242
EOF
expect_log "--submit" <<EOF
sbatch --parsable $work/job.sh
EOF
cmp -s job.sh out/shards/sp-sweep.sbatch || fail "--slurm-script: another script than the default one"
PATH=$work/none:/usr/bin:/bin
command -v sbatch >/dev/null 2>&1 ||
	refused "sbatch not found; submit $work/out/shards/sp-sweep.sbatch where Slurm is installed" --slurm --submit nv.plan
PATH=$tests_dir/bin:$PATH

# The script run by hand, task by task, is the whole sweep.
: >"$SP_FAKE_LOG"
sh out/shards/sp-sweep.sbatch >"$work/stdout" 2>"$work/stderr"
status=$?
expect_status 2 "the script outside Slurm"
expect_grep "SLURM_ARRAY_TASK_ID: submit this script with sbatch" "$work/stderr" "the script outside Slurm"
for task in 0 1 2; do
	SLURM_ARRAY_TASK_ID=$task sh out/shards/sp-sweep.sbatch >"$work/stdout" 2>"$work/stderr"
	status=$?
	expect_status 0 "task $task"
done
[ "$(grep -c '^sp-runner ' "$SP_FAKE_LOG")" -eq 6 ] || fail "the tasks: expected 6 runner calls"
run_merge out/shards
expect_status 0 "the tasks merged"
run_sweep --set runs=single/runs.csv nv.plan
expect_status 0 "the single sweep"
cmp -s single/runs.csv out/runs.csv || fail "the tasks merged differ from the single sweep: $(diff single/runs.csv out/runs.csv)"
exit 0
