#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# study.sh: the accuracy study of docs/sweeps.md ("How many measurements a
# model needs"): the held-out error of models whose training kernels'
# surfaces were completed from a few measured configurations each, chosen
# by adaptive plans or at random, against the exhaustive sweep, on the
# synthetic set and the shared GTX 980 and V100 sets.  One CSV row per
# set, plan and number of points on standard output; plot.sh draws them.
#   sh docs/img/adaptive/study.sh [DATASETS] >docs/img/adaptive/study.csv
# from the root of a built tree; DATASETS is the shared sets' folder
# (default ../shared/datasets).  SURROGATE=shared replays the plans with
# the shared surrogate (evaluate --train-surrogate shared; default gp), and
# SETS names the sets to run (default: synth gtx980 v100):
#   SURROGATE=shared sh docs/img/adaptive/study.sh >docs/img/adaptive/study-shared.csv
set -eu
shared=${1:-../shared/datasets}
sp=${SCALEPREDICT:-src/scalepredict}

# evaluate SET PLAN FRACTION RUNS COUNTERS [ARGS...]: one row.  The plain
# evaluation (every measurement) is plan "all"; plan "target" is an
# adaptive plan that stops each kernel at the target error FRACTION (%).
evaluate() {
	set_name=$1 plan=$2 fraction=$3 runs=$4 counters=$5
	shift 5
	case $plan in
	adaptive | random) set -- "$@" --train-plan "$plan" --train-points "$fraction" ;;
	target) set -- "$@" --train-plan adaptive --train-target "$fraction" ;;
	esac
	[ "$plan" = all ] || set -- "$@" --train-surrogate "${SURROGATE:-gp}"
	"$sp" evaluate --runs "$runs" --counters "$counters" --methods physet,wu2015 --quiet "$@" |
		awk -v set="$set_name" -v plan="$plan" -v fraction="$fraction" -v grid="$grid" '
		{ sub(/%$/, "", $2) }
		$1 == "physet" && NF > 8 { pt = $2; pp = $6; sub(/%$/, "", pp) }
		$1 == "wu2015" && NF > 8 { wt = $2 }
		/^training surfaces:/ { points = $5 }
		$1 == "time" && NF == 3 { ct = $2; et = $3; sub(/%$/, "", et) }
		END {
			if (plan == "all") { points = grid; ct = et = "" }
			printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", set, plan, fraction, points, grid, pt, wt, pp, ct, et
		}'
}

# study SET DIR [ARGS...] -- FRACTION... -- TARGET...
study() {
	set_name=$1 dir=$2
	shift 2
	args=
	while [ "$1" != -- ]; do
		args="$args $1"
		shift
	done
	shift
	fractions=
	while [ "$1" != -- ]; do
		fractions="$fractions $1"
		shift
	done
	shift
	grid=$(awk -F, 'NR > 1 { c[$2]; e[$3]; m[$4] }
		END { n = 0; for (i in c) n++; x = 0; for (i in e) x++; y = 0; for (i in m) y++; print n * x * y }' "$dir/runs.csv")
	# shellcheck disable=SC2086 # the extra arguments are words
	evaluate "$set_name" all 1 "$dir/runs.csv" "$dir/counters.csv" $args
	for fraction in $fractions; do
		for plan in adaptive random; do
			# shellcheck disable=SC2086
			evaluate "$set_name" "$plan" "$fraction" "$dir/runs.csv" "$dir/counters.csv" $args
		done
	done
	for target; do
		# shellcheck disable=SC2086
		evaluate "$set_name" target "$target" "$dir/runs.csv" "$dir/counters.csv" $args
	done
}

echo "set,plan,fraction,points,grid,physet_time_mape,wu2015_time_mape,physet_power_mape,completion_time_mape,estimated_time_error"
for set_name in ${SETS:-synth gtx980 v100}; do
	case $set_name in
	synth) study synth training/data/synth --base 32cu/1000/1375 -- 1/16 1/8 1/4 1/3 1/2 -- 2 1 ;;
	gtx980) study gtx980 "$shared/gtx980-dvfs" -- 1/16 1/8 1/4 1/3 1/2 -- 2 1 ;;
	v100) study v100 "$shared/v100-dvfs" -- 1/10 2/10 3/10 4/10 5/10 -- 2 1 ;;
	esac
done
