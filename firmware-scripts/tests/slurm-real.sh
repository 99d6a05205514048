#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Sharded sweeps through a real Slurm on this host.  munged, slurmctld and
# slurmd run as root from a slurm.conf written into the test's scratch
# folder (no systemd, no cgroups: proctrack/linuxproc, task/none; one node,
# localhost, with the CPUs 'slurmd -C' finds, and no GPU), and two campaigns
# go through 'sp-sweep --slurm --submit':
#  1. the stand-in runner, whose rows are deterministic: 5 configurations in
#     3 array tasks.  Task 1 is requeued (scontrol requeue) in the middle of
#     its second configuration, after one of its two rows; it runs again,
#     resumes, and measures nothing twice.  Every task ends COMPLETED, and
#     sp-merge joins the shards into exactly the file a single-host sweep of
#     the plan writes.
#  2. the pocl-ci plan with the real runner on pocl, in 2 tasks: every shard
#     lands, and the merge holds the same kernels and configurations as a
#     single-host sweep (the times are measured, so they differ).  Left out,
#     saying so, without the runner or a pocl platform.
# Skipped (77) when not root or without Debian's slurm-wlm and munge
# (./install-deps --slurm installs them).  The daemons are stopped whatever
# ends the test.
. "$(dirname "$0")/lib.sh"

skip() {
	echo "$test_name: skipped: $*" >&2
	exit 77
}
[ "$(id -u)" -eq 0 ] || skip "slurmd and munged are started as root (SlurmUser=root); this runs as $(id -un)"
for tool in munged slurmctld slurmd sbatch scontrol squeue sinfo scancel; do
	command -v "$tool" >/dev/null 2>&1 ||
		skip "no $tool on PATH: install Debian's slurm-wlm and munge (./install-deps --slurm)"
done

# The real sbatch, not the stand-in; the stand-in runner by its path.
PATH=$(printf '%s' "$PATH" | sed "s|^$tests_dir/bin:||")
cd "$work" || fail "cannot enter $work"

# ---- the daemons ------------------------------------------------------------

slurm=$work/slurm
mkdir "$slurm" "$slurm/state" "$slurm/spool" || fail "cannot create $slurm"
# munged wants its socket's folder open to all (x) and its key private.  It
# also checks the folders above, which may be private (a TMPDIR in a home
# folder): --force starts it all the same, and every client here is root.
chmod 755 "$slurm"
SLURM_CONF=$slurm/slurm.conf
export SLURM_CONF
munged_pid='' slurmctld_pid='' slurmd_pid=''

# Ports nobody listens on, near a number of this process's own.
port_in_use() { # PORT
	grep -q ":$(printf '%04X' "$1") " /proc/net/tcp /proc/net/tcp6 2>/dev/null
}
port=$((20000 + $$ % 20000))
while port_in_use "$port" || port_in_use $((port + 1)); do
	port=$((port + 2))
done

host=$(uname -n | cut -d. -f1)
cpus=$(slurmd -C 2>/dev/null | sed -n 's/.* CPUs=\([0-9]*\) .*/\1/p')
[ -n "$cpus" ] || fail "'slurmd -C' gave no CPU count: $(slurmd -C 2>&1)"
cat >"$SLURM_CONF" <<EOF
# A one-node cluster on localhost for $test_name, without cgroups or systemd.
ClusterName=sptest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# A requeued job waits cred_expire + 1 seconds (default 120) to start again.
AuthInfo=socket=$slurm/munge.sock,cred_expire=10
MailProg=/bin/true
StateSaveLocation=$slurm/state
SlurmdSpoolDir=$slurm/spool
SlurmctldPidFile=$slurm/slurmctld.pid
SlurmdPidFile=$slurm/slurmd.pid
SlurmctldLogFile=$slurm/slurmctld.log
SlurmdLogFile=$slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
# The main scheduling loop every second (default 60): it starts the
# requeued job once its wait is over.
SchedulerParameters=sched_interval=1
ReturnToService=2
MinJobAge=3600
KillWait=5
NodeName=spnode NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$cpus State=UNKNOWN
PartitionName=sptest Nodes=spnode Default=YES MaxTime=INFINITE State=UP
EOF

# shellcheck disable=SC2317 # called by the trap
stop_slurm() {
	if [ -n "$slurmctld_pid" ]; then
		scancel --user=root 2>/dev/null
		tries=0
		while [ -n "$(squeue -h -o %i 2>/dev/null)" ] && [ "$tries" -lt 100 ]; do
			sleep 0.1
			tries=$((tries + 1))
		done
	fi
	for pid in $slurmd_pid $slurmctld_pid $munged_pid; do
		kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	done
}
trap 'stop_slurm; rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# daemon_logs: what the daemons said, for a failure message.
daemon_logs() {
	for name in munged slurmctld slurmd; do
		for file in "$slurm/$name.out" "$slurm/$name.log"; do
			[ -s "$file" ] || continue
			echo "--- the end of $file:"
			tail -n 15 "$file"
		done
	done
}

# await SECONDS WHAT TEST...: poll TEST until it succeeds.
await() {
	limit=$(($1 * 10)) what=$2 tries=0
	shift 2
	until "$@"; do
		tries=$((tries + 1))
		if [ "$tries" -ge "$limit" ]; then
			daemon_logs >&2
			squeue >&2 2>&1
			fail "timed out after $((limit / 10)) s waiting for $what"
		fi
		sleep 0.1
	done
}

if ! dd if=/dev/urandom of="$slurm/munge.key" bs=1024 count=1 2>/dev/null ||
	! chmod 600 "$slurm/munge.key"; then
	fail "cannot write a munge key"
fi
munged -F --force --key-file="$slurm/munge.key" --socket="$slurm/munge.sock" --pid-file="$slurm/munged.pid" \
	--seed-file="$slurm/munged.seed" --log-file="$slurm/munged.log" >"$slurm/munged.out" 2>&1 &
munged_pid=$!
await 10 "munged's socket" test -S "$slurm/munge.sock"
slurmctld -D -f "$SLURM_CONF" >"$slurm/slurmctld.out" 2>&1 &
slurmctld_pid=$!
slurmd -D -N spnode -f "$SLURM_CONF" >"$slurm/slurmd.out" 2>&1 &
slurmd_pid=$!
# shellcheck disable=SC2317 # called through await
node_idle() {
	kill -0 "$slurmctld_pid" 2>/dev/null || fail "slurmctld ended: $(daemon_logs)"
	kill -0 "$slurmd_pid" 2>/dev/null || fail "slurmd ended: $(daemon_logs)"
	[ "$(sinfo -h -N -o %t 2>/dev/null)" = idle ]
}
await 30 "the node to come up idle" node_idle
echo "$test_name: slurmctld and slurmd up on port $port, $cpus CPUs"

# ---- jobs -------------------------------------------------------------------

# shellcheck disable=SC2317 # called through await
job_over() { # JOB: none of its tasks is pending or running any more
	tasks=$(squeue -h -j "$1" -o %i 2>/dev/null) || return 1
	[ -z "$tasks" ]
}

# job_tasks JOB: one 'TASK STATE RESTARTS EXIT' line per array task.
job_tasks() {
	scontrol -o show job "$1" | awk '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = substr($i, length(kv[1]) + 2) }
		print f["ArrayTaskId"], f["JobState"], f["Restarts"], f["ExitCode"]
	}' | sort -n
}

# expect_completed JOB COUNT WHAT: every task COMPLETED, exit 0.
expect_completed() {
	job_tasks "$1" >"$work/tasks"
	[ "$(grep -c ' COMPLETED [0-9]* 0:0$' "$work/tasks")" -eq "$2" ] ||
		fail "$3: not every task completed: $(cat "$work/tasks")"
}

submit() { # WHAT ARG...: sp-sweep --slurm --submit ARG...; sets job
	what=$1
	shift
	run_sweep --slurm --submit "$@"
	expect_status 0 "$what: submitting"
	job=$(cat "$work/stdout")
	case $job in
	'' | *[!0-9]*) fail "$what: sbatch answered '$job'" ;;
	esac
	echo "$test_name: $what: job array $job"
}

# ---- 1: the stand-in runner, a requeue in the middle ------------------------

cat >stub.plan <<'PLAN'
backend=pocl
fixed_clocks=yes
cu=1,2,3,4,5
engine_mhz=1000
memory_mhz=3200
runs=stub/runs.csv
meta=stub/metadata.txt
PLAN
# Task 1's first run writes one of the two rows of its second configuration
# (the stand-in skips the other kernel), then holds until it is requeued.
cat >runner <<EOF
#!/bin/sh
if [ "\${SLURM_ARRAY_TASK_ID:-}" = 1 ] && [ "\${SLURM_RESTART_COUNT:-0}" = 0 ] &&
	[ -s "$work/stub/shards/001/sweep-log.csv" ]; then
	n=\$# previous=''
	while [ "\$n" -gt 0 ]; do
		word=\$1
		shift
		n=\$((n - 1))
		if [ "\$previous" = --kernels ]; then
			set -- "\$@" stream_copy
		else
			set -- "\$@" "\$word"
		fi
		previous=\$word
	done
	"$tests_dir/bin/sp-runner" "\$@"
	touch "$work/held"
	while :; do sleep 1; done
fi
exec "$tests_dir/bin/sp-runner" "\$@"
EOF
chmod +x runner

started=$(date +%s)
submit "stand-in" --shards 3 --gres none --cpus-per-task 1 --runner "$work/runner" stub.plan
await 60 "task 1 to hold in its second configuration" test -e "$work/held"
if [ "$(grep -c '^stream_copy,3,' stub/shards/001/runs.csv)" -ne 1 ] ||
	grep -q '^stream_triad,3,' stub/shards/001/runs.csv; then
	fail "stand-in: task 1 did not stop half-way through cu=3: $(cat stub/shards/001/runs.csv)"
fi
scontrol requeue "${job}_1" || fail "stand-in: scontrol requeue ${job}_1 failed"
await 120 "job $job to end" job_over "$job"
expect_completed "$job" 3 "stand-in"
grep -q '^1 COMPLETED 1 0:0$' "$work/tasks" || fail "stand-in: task 1 was not requeued once: $(cat "$work/tasks")"
out1=$(ls stub/shards/001/slurm-*.out)
expect_grep 'caught SIGTERM; stopping the runner' "$out1" "stand-in: task 1's first run"
expect_grep '1 of 2 configurations already measured; resuming' "$out1" "stand-in: task 1 after the requeue"
for at in 000 001 002; do
	[ -s "stub/shards/$at/runs.csv" ] || fail "stand-in: shard $at has no rows"
	[ ! -e "stub/shards/$at/sweep.lock" ] || fail "stand-in: shard $at left its lock"
done
expect_rows_once stub/shards/001/runs.csv 4 "stand-in: shard 1"

run_merge stub/shards
expect_status 0 "stand-in: the merge"
expect_grep "^merged 10 rows: 5 of the grid's 5 configurations, 2 kernels, from 3 shards into $work/stub/runs.csv\$" \
	"$work/stdout" "stand-in: the merge"
run_sweep --runner "$tests_dir/bin/sp-runner" --set runs=single/runs.csv --set meta=single/metadata.txt stub.plan
expect_status 0 "stand-in: the single-host sweep"
cmp -s single/runs.csv stub/runs.csv ||
	fail "stand-in: the merge differs from the single-host sweep: $(diff single/runs.csv stub/runs.csv)"
echo "$test_name: stand-in campaign with a requeue: $(($(date +%s) - started)) s"

# ---- 2: pocl for real -------------------------------------------------------

: "${SP_REAL_RUNNER:=$tests_dir/../../training/runner/sp-runner}"
if [ ! -x "$SP_REAL_RUNNER" ]; then
	echo "$test_name: the pocl campaign is left out: no runner at $SP_REAL_RUNNER" >&2
	exit 0
fi
if ! command -v clinfo >/dev/null 2>&1 || ! clinfo -l 2>/dev/null | grep -qi 'portable computing language'; then
	echo "$test_name: the pocl campaign is left out: clinfo shows no pocl platform" >&2
	exit 0
fi
kernels=$("$SP_REAL_RUNNER" --list | awk '{ print $1 }' | head -n 2 | paste -sd, -)
[ -n "$kernels" ] || fail "'$SP_REAL_RUNNER --list' lists no kernels"
started=$(date +%s)
set -- --runner "$SP_REAL_RUNNER" --set "kernels=$kernels" --set engine_mhz=1000 --set min_time_ms=1
# Each task asks for the CPUs of the largest CU count (2), or what there is.
cpus_per_task=''
[ "$cpus" -ge 2 ] || cpus_per_task=--cpus-per-task=$cpus
submit "pocl" --shards 2 ${cpus_per_task:+"$cpus_per_task"} "$@" --set runs=pocl/runs.csv "$SP_PLANS/pocl-ci.plan"
await 300 "job $job to end" job_over "$job"
expect_completed "$job" 2 "pocl"
run_merge pocl/shards
expect_status 0 "pocl: the merge"
expect_grep "^merged 4 rows: 2 of the grid's 2 configurations, 2 kernels, from 2 shards" "$work/stdout" "pocl: the merge"
expect_rows_once pocl/runs.csv 4 "pocl: the merge"
run_sweep "$@" --set runs=single-pocl/runs.csv "$SP_PLANS/pocl-ci.plan"
expect_status 0 "pocl: the single-host sweep"
cut -d, -f1-4 single-pocl/runs.csv | sort >keys.single
cut -d, -f1-4 pocl/runs.csv | sort >keys.merged
cmp -s keys.single keys.merged ||
	fail "pocl: the merge's kernels and configurations differ from the single-host sweep's: $(diff keys.single keys.merged)"
echo "$test_name: pocl campaign: $(($(date +%s) - started)) s"
exit 0
