#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-synth.sh: checks what training/synth writes.
#
# Format and grid (exact headers, 448 distinct configurations per kernel,
# finite positive values), determinism (same seed, same bytes; a kernel does
# not depend on --kernels), command-line and write errors (no file left
# behind), and the scaling behaviour each kernel family is built to show
# (docs/synthetic.md).  The behaviour checks run on two seeds so that they
# test the model, not one lucky draw.

# The checks are functions that check() calls indirectly (SC2317), and
# eval gets single-quoted commands on purpose (SC2016).
# shellcheck disable=SC2317,SC2016
set -u
# Byte order for sort and comm, '.' decimals for awk.
LC_ALL=C
export LC_ALL

SYNTH=${SYNTH:-./synth}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

failures=0

# check DESCRIPTION COMMAND...: runs the command, reports, counts failures.
check() {
  desc=$1
  shift
  if "$@"; then
    echo "ok - $desc"
  else
    echo "FAIL - $desc"
    failures=$((failures + 1))
  fi
}

COUNTERS='VALUInsts,SALUInsts,VFetchInsts,SFetchInsts,VWriteInsts,LDSInsts,VALUUtilization,VALUBusy,SALUBusy,CacheHit,MemUnitBusy,MemUnitStalled,WriteUnitStalled,LDSBankConflict,Occupancy,VIPC,MemTime,FetchPerLoadByte,WritePerStoreByte,NumWorkGroups,ReadBandwidth,WriteBandwidth'

# ---- format and grid -------------------------------------------------------

headers_exact() {
  [ "$(head -n 1 "$1/runs.csv")" = \
    'kernel,cu,engine_mhz,memory_mhz,time_ms,power_w' ] &&
    [ "$(head -n 1 "$1/counters.csv")" = \
      "kernel,cu,engine_mhz,memory_mhz,$COUNTERS" ]
}

# grid_complete FILE KERNELS: every kernel has the 448 configurations of the
# HD 7970 grid exactly once, and there are KERNELS kernels.
grid_complete() {
  awk -F, -v want="$2" '
    NR == 1 { next }
    $1 !~ /^[a-z0-9_]+\/[a-z0-9_]+$/ { print "bad name: " $1; bad = 1 }
    $2 % 4 || $2 < 4 || $2 > 32 { print "bad cu: " $0; bad = 1 }
    $3 % 100 || $3 < 300 || $3 > 1000 { print "bad engine: " $0; bad = 1 }
    ($4 - 475) % 150 || $4 < 475 || $4 > 1375 { print "bad memory: " $0; bad = 1 }
    seen[$1 "," $2 "," $3 "," $4]++ { print "duplicate: " $0; bad = 1 }
    { rows[$1]++ }
    END {
      for (k in rows) {
        n++
        if (rows[k] != 448) { print k ": " rows[k] " rows"; bad = 1 }
      }
      if (n != want) { print n " kernels, expected " want; bad = 1 }
      exit bad
    }' "$1"
}

same_keys() {
  cut -d, -f1-4 "$1/runs.csv" >"$tmp/keys.runs" &&
    cut -d, -f1-4 "$1/counters.csv" >"$tmp/keys.counters" &&
    cmp -s "$tmp/keys.runs" "$tmp/keys.counters"
}

# Plain decimals only: no inf, nan, or locale commas; times positive, power
# in the range of a 250 W board.
runs_values_sane() {
  awk -F, '
    NR == 1 { next }
    NF != 6 { print "fields: " $0; bad = 1; next }
    $5 !~ /^[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?$/ || $5 + 0 <= 0 {
      print "time: " $0; bad = 1 }
    $6 !~ /^[0-9]+(\.[0-9]+)?$/ || $6 < 40 || $6 > 300 {
      print "power: " $0; bad = 1 }
    END { exit bad }' "$1/runs.csv"
}

# Counters: non-negative decimals; percentages (the first fifteen
# counters) at most 100; the instruction mix sums to 100; NumWorkGroups a
# whole number saturating at 320.
counters_sane() {
  awk -F, '
    NR == 1 { for (i = 5; i <= NF; i++) col[$i] = i; next }
    NF != 26 { print "fields: " $0; bad = 1; next }
    {
      for (i = 5; i <= NF; i++)
        if ($i !~ /^[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?$/) {
          print "value " i ": " $0; bad = 1
        }
      for (i = 5; i <= 19; i++)
        if ($i > 100) { print "percentage " i ": " $0; bad = 1 }
      mix = 0
      for (i = 5; i <= 10; i++) mix += $i
      if (mix < 99.9 || mix > 100.1) { print "mix " mix ": " $0; bad = 1 }
      w = $col["NumWorkGroups"]
      if (w != int(w) || w < 1 || w > 320) { print "groups: " $0; bad = 1 }
    }
    END { exit bad }' "$1/counters.csv"
}

disjoint_names() {
  cut -d, -f1 "$1/runs.csv" | sort -u >"$tmp/names.train"
  cut -d, -f1 "$1/samples/runs.csv" | sed 1d | sort -u >"$tmp/names.samples"
  [ -s "$tmp/names.samples" ] &&
    [ -z "$(comm -12 "$tmp/names.train" "$tmp/names.samples")" ]
}

all_families() {
  for f in compute stream balanced cache latency lowpar tiny mixed; do
    grep -q "^$f/" "$1/runs.csv" || { echo "no $f kernels"; return 1; }
  done
}

# subset SMALL LARGE: every row of SMALL's files is also in LARGE's.
subset() {
  for f in runs.csv counters.csv; do
    sort "$1/$f" >"$tmp/small" && sort "$2/$f" >"$tmp/large" &&
      [ -z "$(comm -23 "$tmp/small" "$tmp/large")" ] || return 1
  done
}

only_expected_files() {
  [ "$(cd "$1" && find . -type f | sort | tr '\n' ' ')" = \
    './counters.csv ./runs.csv ./samples/counters.csv ./samples/runs.csv ' ]
}

# ---- scaling behaviour ---------------------------------------------------

# scaling DIR FAMILY PROGRAM [COUNTER...]: runs an awk PROGRAM over DIR's
# data with t[kernel, cu, engine, memory] (time), p[...] (power) and
# c[..., counter] for the named counters loaded, and names[] the kernels of
# FAMILY.  PROGRAM prints what is wrong and sets bad.  A family with no
# kernels fails.
scaling() {
  dir=$1 family=$2 program=$3
  shift 3
  awk -F, -v family="$family" -v wanted=" $* " '
    FNR == 1 { file++
               if (file == 2) for (i = 5; i <= NF; i++)
                 if (index(wanted, " " $i " ")) cname[i] = $i
               next }
    file == 1 { t[$1, $2, $3, $4] = $5; p[$1, $2, $3, $4] = $6
                if (index($1, family "/") == 1) names[$1] = 1 }
    file == 2 { for (i in cname) c[$1, $2, $3, $4, cname[i]] = $i }
    END {
      for (k in names) count++
      if (!count) { print "no " family " kernels"; exit 1 }
      '"$program"'
      exit bad
    }' "$dir/runs.csv" "$dir/counters.csv"
}

# Compute-bound: time ~ 1/engine clock (launch overhead included) and
# ~ 1/CUs, whatever the memory clock.  The memory-clock comparison sums
# over the engine clocks, so that 1% noise cannot decide it.
compute_bound() {
  scaling "$1" compute '
    for (k in names) {
      r = t[k, 32, 300, 1375] / t[k, 32, 1000, 1375]
      if (r < 3.0 || r > 3.6) { print k ": engine 300/1000 = " r; bad = 1 }
      r = t[k, 4, 1000, 1375] / t[k, 32, 1000, 1375]
      if (r < 7 || r > 8.5) { print k ": cu 4/32 = " r; bad = 1 }
      for (cu = 4; cu <= 32; cu += 4) {
        lo = hi = 0
        for (e = 300; e <= 1000; e += 100) {
          lo += t[k, cu, e, 475]
          hi += t[k, cu, e, 1375]
        }
        if (lo / hi > 1.06 || lo / hi < 0.97) {
          print k " at " cu " CUs: memory 475/1375 = " lo / hi; bad = 1 }
      }
    }'
}

# Bandwidth-bound: with enough CUs, time ~ 1/memory clock and flat in the
# engine clock down to 600 MHz.
bandwidth_bound() {
  scaling "$1" stream '
    for (k in names) {
      r = t[k, 32, 1000, 475] / t[k, 32, 1000, 1375]
      if (r < 2.4 || r > 3.1) { print k ": memory 475/1375 = " r; bad = 1 }
      r = t[k, 32, 600, 1375] / t[k, 32, 1000, 1375]
      if (r > 1.1) { print k ": engine 600/1000 = " r; bad = 1 }
      r = t[k, 16, 1000, 625] / t[k, 32, 1000, 625]
      if (r > 1.1) { print k ": cu 16/32 at 625 MHz = " r; bad = 1 }
    }'
}

# Cache overflow (paper Fig. 1(d)): the fastest CU count is below 32, 32
# CUs are at least 20% slower, and the L2 hit rate falls with more CUs.
cache_overflow() {
  scaling "$1" cache '
    for (k in names) {
      best = 32
      for (cu = 4; cu < 32; cu += 4)
        if (t[k, cu, 1000, 1375] < t[k, best, 1000, 1375]) best = cu
      r = t[k, 32, 1000, 1375] / t[k, best, 1000, 1375]
      if (best == 32 || r < 1.2) {
        print k ": fastest at " best " CUs, 32 CUs " r "x"; bad = 1 }
      h4 = c[k, 4, 1000, 1375, "CacheHit"]
      h32 = c[k, 32, 1000, 1375, "CacheHit"]
      if (h32 > h4 - 20) { print k ": CacheHit " h4 " -> " h32; bad = 1 }
    }' CacheHit
}

# Latency-bound: insensitive to memory bandwidth, sensitive to the engine
# clock (the latency is mostly engine cycles).
latency_bound() {
  scaling "$1" latency '
    for (k in names) {
      r = t[k, 32, 1000, 475] / t[k, 32, 1000, 1375]
      if (r > 1.1) { print k ": memory 475/1375 = " r; bad = 1 }
      r = t[k, 32, 300, 1375] / t[k, 32, 1000, 1375]
      if (r < 2.5) { print k ": engine 300/1000 = " r; bad = 1 }
    }'
}

# Few work-groups: no gain from CUs beyond the group count; a gain from
# 4 CUs up when there are more than 4 groups.
low_parallelism() {
  scaling "$1" lowpar '
    for (k in names) {
      w = c[k, 32, 1000, 1375, "NumWorkGroups"]
      r = t[k, 28, 1000, 1375] / t[k, 32, 1000, 1375]
      if (w <= 28 && (r < 0.95 || r > 1.05)) {
        print k " (" w " groups): cu 28/32 = " r; bad = 1 }
      r = t[k, 4, 1000, 1375] / t[k, 32, 1000, 1375]
      if (w > 4 && r < 1.5) { print k " (" w " groups): cu 4/32 = " r; bad = 1 }
      if (w <= 4 && r > 1.1) { print k " (" w " groups): cu 4/32 = " r; bad = 1 }
    }' NumWorkGroups
}

# Launch-overhead-dominated: at a given engine clock, CUs and memory clock
# make no difference, and the time is the launch overhead, 4 us plus 3000
# engine cycles.
launch_bound() {
  scaling "$1" tiny '
    for (k in names)
      for (e = 300; e <= 1000; e += 100) {
        lo = hi = t[k, 4, e, 475]
        for (cu = 4; cu <= 32; cu += 4)
          for (m = 475; m <= 1375; m += 150) {
            if (t[k, cu, e, m] < lo) lo = t[k, cu, e, m]
            if (t[k, cu, e, m] > hi) hi = t[k, cu, e, m]
          }
        launch = 0.004 + 3 / e
        if (hi / lo > 1.15 || lo < 0.95 * launch || hi > 1.3 * launch) {
          print k " at " e ": " lo " to " hi " ms"; bad = 1 }
      }'
}

# Counters follow the configuration as real ones would: a bandwidth-bound
# kernel's memory unit is busier, and much more stalled, at a low memory
# clock, and leaves the VALU mostly idle.
memory_counters_follow() {
  scaling "$1" stream '
    for (k in names) {
      b475 = c[k, 32, 1000, 475, "MemUnitBusy"]
      b1375 = c[k, 32, 1000, 1375, "MemUnitBusy"]
      s475 = c[k, 32, 1000, 475, "MemUnitStalled"]
      s1375 = c[k, 32, 1000, 1375, "MemUnitStalled"]
      if (b475 <= b1375 || s475 < s1375 + 3) {
        print k ": MemUnitBusy " b475 " vs " b1375 ", MemUnitStalled " \
          s475 " vs " s1375; bad = 1 }
      v = c[k, 32, 1000, 1375, "VALUBusy"]
      if (v > 50) { print k ": VALUBusy " v; bad = 1 }
    }' MemUnitBusy MemUnitStalled VALUBusy
}

# A compute-bound kernel keeps the VALU busy.
valu_counters_follow() {
  scaling "$1" compute '
    for (k in names) {
      v = c[k, 32, 1000, 1375, "VALUBusy"]
      if (v < 80) { print k ": VALUBusy " v; bad = 1 }
    }' VALUBusy
}

# Power: 50-260 W everywhere.  For compute-bound kernels dynamic power
# goes as f V^2 and the voltage rises only above 500 MHz, so 900 -> 1000 MHz
# adds far more power than 300 -> 400 MHz (sums over the memory clocks
# keep the noise out).
power_follows() {
  scaling "$1" compute '
    for (k in names) {
      low = high = 0
      for (m = 475; m <= 1375; m += 150) {
        low += p[k, 32, 400, m] - p[k, 32, 300, m]
        high += p[k, 32, 1000, m] - p[k, 32, 900, m]
      }
      if (low <= 0 || high < 2.5 * low) {
        print k ": power steps " low / 7 " and " high / 7 " W"; bad = 1 }
    }
    for (key in p)
      if (p[key] < 50 || p[key] > 260) { print "power " p[key]; bad = 1 }'
}

behaviour() {
  check "compute-bound scaling, $1" compute_bound "$1"
  check "bandwidth-bound scaling, $1" bandwidth_bound "$1"
  check "cache overflow past some CU count, $1" cache_overflow "$1"
  check "latency-bound scaling, $1" latency_bound "$1"
  check "low parallelism saturates, $1" low_parallelism "$1"
  check "launch overhead dominates tiny kernels, $1" launch_bound "$1"
  check "memory counters follow the configuration, $1" \
    memory_counters_follow "$1"
  check "VALU counters of compute-bound kernels, $1" valu_counters_follow "$1"
  check "power follows clock and voltage, $1" power_follows "$1"
}

# ---- errors ----------------------------------------------------------------

# fails_with CODE ARGS...: synth exits with CODE and says why on stderr.
fails_with() {
  code=$1
  shift
  "$SYNTH" "$@" >"$tmp/out" 2>"$tmp/err"
  [ $? -eq "$code" ] && [ -s "$tmp/err" ] && [ ! -s "$tmp/out" ]
}

help_works() {
  "$SYNTH" --help >"$tmp/out" 2>"$tmp/err" &&
    grep -q '^Usage: synth' "$tmp/out" && [ ! -s "$tmp/err" ]
}

# A failure after the first files are open leaves nothing behind, and an
# existing output is kept.  The name is too long only for the last file:
# DIR/samples/.counters.csv.XXXXXX passes PATH_MAX (4096) when DIR itself
# is 4070 characters long, while everything else fits.  DIR is relative to
# $tmp, so that the shell's own paths stay short.
no_half_files() {
  dir=$(awk 'BEGIN {
    s = "p"; while (length(s) < 200) s = s "p"
    d = s; while (length(d) + 201 < 4070) d = d "/" s
    d = d "/"; while (length(d) < 4070) d = d "q"
    print d }')
  (
    cd "$tmp" && mkdir -p "$dir" && echo old >"$dir/runs.csv" || exit 1
    "$SYNTH" --kernels 2 --samples 1 --out "$dir" >/dev/null 2>err
    [ $? -eq 1 ] && grep -q 'too long' err &&
      [ "$(cat "$dir/runs.csv")" = old ] &&
      [ "$(cd "$dir" && find . -type f)" = ./runs.csv ]
  )
}

# ---- the run -------------------------------------------------------------

"$SYNTH" --out "$tmp/a" || exit 99
"$SYNTH" --seed 1 --kernels 108 --samples 12 --out "$tmp/b" || exit 99
"$SYNTH" --seed 20150207 --out "$tmp/c" || exit 99
"$SYNTH" --kernels 20 --samples 0 --out "$tmp/d" || exit 99

check "headers" headers_exact "$tmp/a"
check "sample headers" headers_exact "$tmp/a/samples"
check "training grid complete" grid_complete "$tmp/a/runs.csv" 108
check "training counter grid complete" grid_complete "$tmp/a/counters.csv" 108
check "sample grid complete" grid_complete "$tmp/a/samples/runs.csv" 12
check "sample counter grid complete" grid_complete "$tmp/a/samples/counters.csv" 12
check "counters at every run configuration" same_keys "$tmp/a"
check "run values finite and plausible" runs_values_sane "$tmp/a"
check "sample run values" runs_values_sane "$tmp/a/samples"
check "counter values" counters_sane "$tmp/a"
check "sample counter values" counters_sane "$tmp/a/samples"
check "samples are other kernels" disjoint_names "$tmp/a"
check "every family present" all_families "$tmp/a"
check "only the four files" only_expected_files "$tmp/a"
for f in runs.csv counters.csv samples/runs.csv samples/counters.csv; do
  check "same seed, same $f" cmp -s "$tmp/a/$f" "$tmp/b/$f"
  check "other seed, other $f" eval '! cmp -s "$tmp/a/$f" "$tmp/c/$f"'
done
check "kernels do not depend on --kernels" subset "$tmp/d" "$tmp/a"
check "--samples 0 gives headers only" eval \
  '[ "$(wc -l <"$tmp/d/samples/runs.csv")" -eq 1 ]'
check "grid with --kernels 20" grid_complete "$tmp/d/runs.csv" 20

behaviour "$tmp/a"
behaviour "$tmp/c"

check "--help" help_works
check "no --out" fails_with 2
check "--kernels 0" fails_with 2 --kernels 0 --out "$tmp/e"
check "--kernels abc" fails_with 2 --kernels abc --out "$tmp/e"
check "--samples 10001" fails_with 2 --samples 10001 --out "$tmp/e"
check "--seed -1" fails_with 2 --seed -1 --out "$tmp/e"
check "--seed without value" fails_with 2 --out "$tmp/e" --seed
check "unknown option" fails_with 2 --frobnicate --out "$tmp/e"
check "nothing written on usage errors" eval '[ ! -e "$tmp/e" ]'
touch "$tmp/file"
check "output under a regular file" fails_with 1 --out "$tmp/file/x"
check "no half files on a write error" no_half_files

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
exit 0
