# SPDX-License-Identifier: GPL-3.0-or-later
# NVIDIA backend for sp-sweep (sourced): clocks through nvidia-smi.
#
# Graphics and memory clocks are locked with -lgc/-lmc and unlocked with
# -rgc/-rmc; the SM count is not a device setting, the runner applies it
# through a CUDA green context (--cu).  nvidia-smi cannot report whether
# clocks were locked before the sweep, so "restore" means unlocking: the
# driver's default clock management.
# shellcheck shell=sh
# sp-sweep reads the backend_* variables and sets plan_* and dry_run.
# shellcheck disable=SC2034,SC2154

backend_runner_default=cuda
backend_sets_clocks=yes
nvidia_pairs=''

nvidia_query() {
	run_query nvidia-smi -i "$plan_device" "$@" --format=csv,noheader,nounits
}

nvidia_set() {
	run_setting nvidia-smi -i "$plan_device" "$@"
}

# backend_init FIXED: nvidia-smi must exist; unless FIXED, load the supported
# (memory, graphics) clock pairs as "MEMORY ENGINE" lines.
backend_init() {
	if [ "$dry_run" = no ] && ! command -v nvidia-smi >/dev/null 2>&1; then
		warn "nvidia-smi not found (NVIDIA driver utilities)"
		return 1
	fi
	[ "$1" = yes ] && return 0
	nvidia_pairs=$(nvidia_query --query-supported-clocks=memory,graphics | tr -d ' ' | tr ',' ' ') ||
		return 1
}

backend_list_supported() {
	printf 'engine_mhz=%s\n' "$(printf '%s\n' "$nvidia_pairs" | cut -d' ' -f2 | sort -nru | paste -sd, -)"
	printf 'memory_mhz=%s\n' "$(printf '%s\n' "$nvidia_pairs" | cut -d' ' -f1 | sort -nru | paste -sd, -)"
}

backend_supports() { # ENGINE MEMORY
	[ -z "$nvidia_pairs" ] || printf '%s\n' "$nvidia_pairs" | grep -qx "$2 $1"
}

backend_read_original() {
	answer=$(nvidia_query --query-gpu=clocks.sm,clocks.mem,clocks.applications.graphics,clocks.applications.memory) ||
		return 1
	[ -n "$answer" ] || return 0
	printf '%s\n' "$answer" | tr -d ' ' | {
		IFS=, read -r sm mem app_graphics app_memory
		printf 'sm_mhz=%s\nmem_mhz=%s\napplications_graphics_mhz=%s\napplications_memory_mhz=%s\n' \
			"$sm" "$mem" "$app_graphics" "$app_memory"
	}
}

backend_apply() { # ENGINE MEMORY
	nvidia_set -lgc "$1,$1" || return 1
	nvidia_set -lmc "$2,$2"
}

backend_read_back() {
	answer=$(nvidia_query --query-gpu=clocks.sm,clocks.mem) || return 1
	[ -n "$answer" ] || return 0
	printf '%s\n' "$answer" | tr -d ' ' | tr ',' ' '
}

backend_restore() { # SAVED
	nvidia_set -rgc
	graphics_status=$?
	nvidia_set -rmc || return 1
	return "$graphics_status"
}

# CUDA numbers devices fastest first unless told otherwise; PCI order makes
# the runner's --device agree with nvidia-smi -i.
backend_runner_env() { # CU
	printf 'CUDA_DEVICE_ORDER=PCI_BUS_ID\n'
}
