# SPDX-License-Identifier: GPL-3.0-or-later
# AMD backend for sp-sweep (sourced): clocks through rocm-smi, the compute-
# unit count through HSA_CU_MASK in the runner's environment.
#
# amd_clock_method=levels (the default) selects DPM levels with --setsclk and
# --setmclk; a requested clock that is no level's frequency gets the nearest
# level, and the read-back then marks the mismatch.  amd_clock_method=range
# pins arbitrary clocks through overdrive (--setsrange/--setmrange), which
# needs overdrive enabled in the amdgpu driver.  Restoring is --resetclocks,
# then the original performance level if it was not "auto".
# shellcheck shell=sh
# sp-sweep reads the backend_* variables and sets plan_* and dry_run.
# shellcheck disable=SC2034,SC2154

backend_runner_default=opencl
backend_sets_clocks=yes
amd_levels='' # lines "sclk LEVEL MHZ" and "mclk LEVEL MHZ"

amd_query() {
	run_query rocm-smi -d "$plan_device" "$@"
}

amd_set() {
	run_setting rocm-smi -d "$plan_device" "$@"
}

# The levels of rocm-smi --showclkfrq, whose lines read "GPU[0] : 1: 1000Mhz *".
amd_parse_levels() {
	awk -F: '
	/Supported sclk frequencies/ { type = "sclk"; next }
	/Supported mclk frequencies/ { type = "mclk"; next }
	/Supported .* frequencies/ { type = ""; next }
	type != "" && NF >= 3 {
		level = $2; gsub(/[ \t]/, "", level)
		mhz = $3; sub(/^[ \t]*/, "", mhz)
		if (level ~ /^[0-9]+$/ && mhz ~ /^[0-9]+[Mm][Hh][Zz]/) {
			sub(/[Mm][Hh][Zz].*/, "", mhz)
			print type, level, mhz
		}
	}'
}

backend_init() { # FIXED
	if [ "$dry_run" = no ] && ! command -v rocm-smi >/dev/null 2>&1; then
		warn "rocm-smi not found (ROCm SMI)"
		return 1
	fi
	[ "$1" = yes ] && return 0
	answer=$(amd_query --showclkfrq) || return 1
	amd_levels=$(printf '%s\n' "$answer" | amd_parse_levels)
	if [ "$dry_run" = no ] && [ -z "$amd_levels" ]; then
		warn "rocm-smi --showclkfrq listed no sclk or mclk levels"
		return 1
	fi
}

amd_frequencies() { # TYPE
	printf '%s\n' "$amd_levels" | awk -v type="$1" '$1 == type { print $3 }' | paste -sd, -
}

backend_list_supported() {
	printf 'engine_mhz=%s\n' "$(amd_frequencies sclk)"
	printf 'memory_mhz=%s\n' "$(amd_frequencies mclk)"
}

backend_supports() { # ENGINE MEMORY
	[ -z "$amd_levels" ] || [ "$plan_amd_clock_method" = range ] && return 0
	printf '%s\n' "$amd_levels" | grep -qx "sclk [0-9]* $1" &&
		printf '%s\n' "$amd_levels" | grep -qx "mclk [0-9]* $2"
}

# amd_level TYPE MHZ: the level whose frequency is nearest MHZ.
amd_level() {
	found=$(printf '%s\n' "$amd_levels" | awk -v type="$1" -v want="$2" '
		$1 == type {
			d = $3 - want; if (d < 0) d = -d
			if (best == "" || d < bestd) { best = $2; bestd = d }
		}
		END { if (best != "") print best, bestd }')
	if [ -z "$found" ]; then
		if [ "$dry_run" = yes ]; then
			printf '<%s-level-of-%sMHz>' "$1" "$2"
			return 0
		fi
		warn "no $1 levels known"
		return 1
	fi
	[ "${found#* }" = 0 ] || warn "no $1 level runs at $2 MHz; using the nearest, level ${found% *}"
	printf '%s' "${found% *}"
}

backend_read_original() {
	answer=$(amd_query --showperflevel) || return 1
	[ -n "$answer" ] || return 0
	printf 'performance_level=%s\n' \
		"$(printf '%s\n' "$answer" | sed -n 's/.*Performance Level: *\([A-Za-z_]*\).*/\1/p' | head -n 1)"
}

backend_apply() { # ENGINE MEMORY
	if [ "$plan_amd_clock_method" = range ]; then
		amd_set --autorespond y --setsrange "$1" "$1" || return 1
		amd_set --autorespond y --setmrange "$2" "$2"
		return
	fi
	sclk=$(amd_level sclk "$1") || return 1
	mclk=$(amd_level mclk "$2") || return 1
	amd_set --setsclk "$sclk" || return 1
	amd_set --setmclk "$mclk"
}

# rocm-smi --showclocks prints "GPU[0] : sclk clock level: 1: (1000Mhz)"; the
# level index comes first, the frequency is the number in parentheses.
amd_clock() { # TYPE TEXT
	printf '%s\n' "$2" | sed -n "s/.*[: ]$1 clock level:.*(\([0-9]*\)[Mm][Hh][Zz]).*/\1/p" | head -n 1
}

backend_read_back() {
	answer=$(amd_query --showclocks) || return 1
	[ -n "$answer" ] || return 0
	sclk=$(amd_clock sclk "$answer")
	mclk=$(amd_clock mclk "$answer")
	if [ -z "$sclk" ] || [ -z "$mclk" ]; then
		warn "no sclk or mclk clock level in the rocm-smi --showclocks output"
		return 1
	fi
	printf '%s %s\n' "$sclk" "$mclk"
}

backend_restore() { # SAVED
	amd_set --resetclocks || return 1
	level=$(printf '%s\n' "$1" | sed -n 's/^performance_level=//p')
	case $level in
	'' | auto) return 0 ;;
	esac
	amd_set --setperflevel "$level"
}

# HSA_CU_MASK names physical CUs; the first N are taken.
backend_runner_env() { # CU
	if [ "$1" -eq 1 ]; then
		printf 'HSA_CU_MASK=%s:0\n' "$plan_device"
	else
		printf 'HSA_CU_MASK=%s:0-%s\n' "$plan_device" $(($1 - 1))
	fi
}
