#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A configuration whose read-back differs from the request is marked in
# sweep-mismatches.csv, never recorded under the requested clocks: with
# on_mismatch=skip (the default) it is not measured, and is tried again by
# the next sweep; with on_mismatch=readback its rows carry the clocks read
# back.  The stand-in nvidia-smi either locks lower than asked or refuses to
# lock at all; tolerance_mhz accepts small differences.
. "$(dirname "$0")/lib.sh"

write_nvidia_plan "$work/nv.plan"
runs=$work/out/runs.csv
mismatches() { # the mismatch file without its time column
	cut -d, -f1-6 "$work/out/sweep-mismatches.csv"
}

# The GPU locks at 1200 MHz when asked for 1410.
export SP_FAKE_MAX_SM=1200
run_sweep "$work/nv.plan"
expect_status 3 "skip"
expect_grep 'MISMATCH at cu=8: requested engine=1410 memory=1593 MHz, read back engine=1200 memory=1593 MHz; skipped' "$work/stderr" "skip"
expect_grep '2 configurations skipped because their read-back differed' "$work/stderr" "skip"
mismatches >"$work/got"
expect_file "$work/got" "skip: the mismatch file" <<CSV
cu,engine_requested,memory_requested,engine_read,memory_read,action
8,1410,1593,1200,1593,skipped
16,1410,1593,1200,1593,skipped
CSV
expect_rows_once "$runs" 4 "skip"
expect_no_grep ',1410,' "$runs" "skip: rows under the requested clock"
expect_no_grep ',1200,' "$runs" "skip: rows under the read-back clock"
expect_no_grep '^[0-9]*,1410,' "$work/out/sweep-log.csv" "skip: a skipped configuration logged as finished"
[ "$(device_state nvidia)" = "1410 1593" ] || fail "skip: clocks not restored"

# Skipped configurations are tried again, and marked again.
: >"$SP_FAKE_LOG"
run_sweep "$work/nv.plan"
expect_status 3 "skip, run again"
expect_no_grep '-lgc 1005,1005' "$SP_FAKE_LOG" "skip, run again: finished clocks applied again"
[ "$(mismatches | grep -c ',skipped$')" -eq 4 ] || fail "skip, run again: the mismatches not marked again"

# on_mismatch=readback records the rows under the clocks read back.
reset_device
run_sweep --set on_mismatch=readback "$work/nv.plan"
expect_status 0 "readback"
mismatches >"$work/got"
expect_file "$work/got" "readback: the mismatch file" <<CSV
cu,engine_requested,memory_requested,engine_read,memory_read,action
8,1410,1593,1200,1593,recorded-readback
16,1410,1593,1200,1593,recorded-readback
CSV
expect_rows_once "$runs" 8 "readback"
[ "$(grep -c '^[a-z_]*,[0-9]*,1200,1593,' "$runs")" -eq 4 ] || fail "readback: rows not under 1200 MHz"
expect_no_grep ',1410,' "$runs" "readback: rows under the requested clock"
expect_grep '^8,1410,1593,1200,1593,mismatch-readback,' "$work/out/sweep-log.csv" "readback: the sweep log"

# A difference within tolerance_mhz is no mismatch.
reset_device
run_sweep --set tolerance_mhz=300 "$work/nv.plan"
expect_status 0 "tolerance"
[ ! -e "$work/out/sweep-mismatches.csv" ] || fail "tolerance: marked a difference within tolerance"
expect_grep '^16,1410,1593,1200,1593,ok,' "$work/out/sweep-log.csv" "tolerance: the read-back is logged"
unset SP_FAKE_MAX_SM

# The GPU refuses every lock: the sweep goes on, and the read-back decides.
# The clocks stay at 1410/1593, so 1005 MHz is a mismatch and 1410 is not.
reset_device
export SP_FAKE_REFUSE_LOCK=1
run_sweep "$work/nv.plan"
unset SP_FAKE_REFUSE_LOCK
expect_status 3 "refused"
expect_grep 'could not apply engine=1005 MHz memory=1593 MHz' "$work/stderr" "refused"
mismatches >"$work/got"
expect_file "$work/got" "refused: the mismatch file" <<CSV
cu,engine_requested,memory_requested,engine_read,memory_read,action
8,1005,1593,1410,1593,skipped
16,1005,1593,1410,1593,skipped
CSV
expect_rows_once "$runs" 4 "refused"
[ "$(tail -n 2 "$SP_FAKE_LOG" | tr '\n' ' ')" = "nvidia-smi -i 0 -rgc nvidia-smi -i 0 -rmc " ] ||
	fail "refused: no reset at the end"
exit 0
