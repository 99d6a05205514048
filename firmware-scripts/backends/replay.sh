# SPDX-License-Identifier: GPL-3.0-or-later
# replay backend for sp-sweep (sourced): "measures" by reading a recorded
# runs.csv, so that a sweep -- an adaptive one above all -- runs end to end
# without a GPU (tests, studies of how many measurements a model needs).
#
# SP_REPLAY_RUNS names the recording.  Clocks are remembered, not set: the
# read-back returns the last request.  The runner must be sp-replay-runner
# (sp-sweep --runner sp-replay-runner), which appends the recorded rows of
# the kernels and configuration it is asked for; the recording's path
# reaches it through its environment (so it must not contain spaces).
# shellcheck shell=sh
# sp-sweep reads the backend_* variables and sets plan_* and dry_run.
# shellcheck disable=SC2034,SC2154

backend_runner_default=cuda
backend_sets_clocks=yes
replay_engine=- replay_memory=-

backend_init() { # FIXED
	if [ -z "${SP_REPLAY_RUNS:-}" ] || [ ! -r "$SP_REPLAY_RUNS" ]; then
		warn "the replay backend needs SP_REPLAY_RUNS, a readable recorded runs.csv"
		return 1
	fi
	case $SP_REPLAY_RUNS in
	*[[:space:]]*)
		warn "SP_REPLAY_RUNS must not contain spaces"
		return 1
		;;
	esac
}

# The recording's clocks, in plan syntax.
backend_list_supported() {
	for column in engine_mhz memory_mhz; do
		awk -F, -v want="$column" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == want) c = i; next }
			c { print $c }' "$SP_REPLAY_RUNS" | sort -n -u | paste -sd, - | sed "s/^/$column=/"
	done
}

backend_supports() { # ENGINE MEMORY
	return 0
}

backend_read_original() {
	echo replay=yes
}

backend_apply() { # ENGINE MEMORY
	replay_engine=$1 replay_memory=$2
}

backend_read_back() {
	printf '%s %s\n' "$replay_engine" "$replay_memory"
}

backend_restore() { # SAVED
	replay_engine=- replay_memory=-
}

backend_runner_env() { # CU
	printf 'SP_REPLAY_RUNS=%s\n' "$SP_REPLAY_RUNS"
}
