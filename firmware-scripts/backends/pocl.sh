# SPDX-License-Identifier: GPL-3.0-or-later
# pocl CPU-device backend for sp-sweep (sourced).
#
# The compute-unit count is POCL_CPU_MAX_CU_COUNT in the runner's
# environment.  CPU clocks are not set here, so plans for this backend use
# fixed_clocks=yes; the engine clock reads back from cpufreq (or
# /proc/cpuinfo) and the memory clock cannot be read: give it in the plan.
# SP_SYSFS_ROOT prefixes the /sys and /proc paths, for tests.
# shellcheck shell=sh
# sp-sweep reads the backend_* variables and sets plan_* and dry_run.
# shellcheck disable=SC2034,SC2154

backend_runner_default=opencl
backend_sets_clocks=no

pocl_root=${SP_SYSFS_ROOT:-}

backend_init() { # FIXED
	return 0
}

backend_list_supported() {
	warn "the pocl backend does not set clocks"
}

backend_supports() { # ENGINE MEMORY
	return 0
}

backend_read_original() {
	return 0
}

backend_apply() { # ENGINE MEMORY
	warn "the pocl backend cannot set clocks"
	return 1
}

backend_read_back() {
	cpufreq=$pocl_root/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq
	if [ -r "$cpufreq" ]; then
		khz=$(run_query cat "$cpufreq") || return 1
		[ -n "$khz" ] || return 0
		printf '%s -\n' $((khz / 1000))
		return 0
	fi
	mhz=$(run_query cat "$pocl_root/proc/cpuinfo" | sed -n 's/^cpu MHz[[:space:]]*:[[:space:]]*\([0-9]*\).*/\1/p' | head -n 1)
	[ -n "$mhz" ] || [ "$dry_run" = yes ] || {
		warn "no cpufreq and no 'cpu MHz' in $pocl_root/proc/cpuinfo"
		return 1
	}
	[ -z "$mhz" ] || printf '%s -\n' "$mhz"
}

backend_restore() { # SAVED
	return 0
}

backend_runner_env() { # CU
	printf 'POCL_CPU_MAX_CU_COUNT=%s\n' "$1"
}
