# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# shellcheck disable=SC2034 # log is for the script that sources this file
# ncu-options.sh: read by the CLI tests' stand-ins for Nsight Compute
# (profile.sh, profile_second.sh, endless.sh; '. "$NCU_OPTIONS"', which
# lib.sh exports): takes ncu's options off the positional parameters,
# leaving the program and its arguments, and sets log to the --log-file's
# path (empty without one).  Every option but --csv takes a value.
log=
while [ $# -gt 0 ]; do
  case $1 in
  --log-file) log=$2; shift 2 ;;
  --csv) shift ;;
  --*) shift 2 ;;
  *) break ;;
  esac
done
