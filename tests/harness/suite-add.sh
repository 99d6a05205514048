#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Adding a suite is one folder and one registry line (issue 27).  In a copy
# of the source tree, the fake held-out suite of data/fake-suite (two tiny
# portable kernels and their host references) becomes training/heldout/fake
# and one line of training/suites.txt; nothing else is edited.  configure
# and make build it into sp-runner, which lists it (--list-suites, --suite
# fake, --suite heldout, --suite all), sweeps it on pocl (its rows written,
# its host checks passed) and passes the runner's CLI test (runner-cli.sh)
# over the new registry.  Then the suite is retired as training/heldout/
# README.md says (the folder moved under training/kernels/, its line's role
# and date changed), given made-up measurements, and make, merge.sh and
# by-set.sh take it as a training suite.  Skipped (77) without an OpenCL
# device, a C compiler or configure in the source tree; the merge part is
# left out, saying so, where the tree lacks the retired suites' measurements
# (a release tarball).
. "${srcdir:-.}/lib.sh"

have_opencl || skip "no OpenCL device (install pocl-opencl-icd)"
[ -x "$SP_TOP_SRCDIR/configure" ] || skip "no configure in $SP_TOP_SRCDIR (autoreconf -fi)"
command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1 || skip "no C compiler"
fixture=$SP_HARNESS_DATA/fake-suite
top=$scratch/src
# The nested make must not take the outer make's jobs or variables.
mk() { MAKEFLAGS='' MFLAGS='' MAKELEVEL='' "${MAKE:-make}" -j2 "$@"; }

# A copy of the source tree without its build.
mkdir "$top"
(cd "$SP_TOP_SRCDIR" && tar -cf - --exclude=.git --exclude=autom4te.cache --exclude='*.o' \
  --exclude='*.lo' --exclude='*.la' --exclude=.libs --exclude=.deps --exclude=config.status \
  --exclude=config.log --exclude=suites.def --exclude=suites.mk --exclude='sp-harness-*' .) |
  (cd "$top" && tar -xf -) || fail "copying the source tree failed"
chmod -R u+w "$top"
old=$(sh "$top/training/suites.sh" lines | wc -l)

# The one folder and the one line.
mkdir "$top/training/heldout/fake"
cp "$fixture/fake.c" "$fixture/fake.cl" "$fixture/README.md" "$top/training/heldout/fake/"
printf 'fake  f_  training/heldout/fake  heldout  -\n' >>"$top/training/suites.txt"

(cd "$top" && ./configure --without-cuda) >"$scratch/configure.log" 2>&1 ||
  { tail -20 "$scratch/configure.log" >&2; fail "configure failed in the copy"; }
mk -C "$top/training/runner" sp-runner >"$scratch/make.log" 2>&1 ||
  { tail -30 "$scratch/make.log" >&2; fail "make failed in the copy"; }
R=$top/training/runner/sp-runner

# The listing.
tab=$(printf '\t')
"$R" --list-suites >"$scratch/suites" || fail "--list-suites failed"
[ "$(wc -l <"$scratch/suites")" -eq $((old + 1)) ] || fail "--list-suites: $(cat "$scratch/suites")"
grep -qxF "fake${tab}f_${tab}heldout${tab}-${tab}2${tab}training/heldout/fake" "$scratch/suites" ||
  fail "--list-suites lacks the fake suite: $(tail -1 "$scratch/suites")"
"$R" --list --suite fake >"$scratch/fake.list" || fail "--list --suite fake failed"
cut -f1 "$scratch/fake.list" | tr '\n' ' ' | grep -qx 'f_axpy f_hashsum ' ||
  fail "--suite fake lists $(cut -f1 "$scratch/fake.list" | tr '\n' ' ')"
# The tree's own suites, by role: a held-out suite may be there already.
"$SP_RUNNER" --list --suite all >"$scratch/before.list"
"$SP_RUNNER" --list --suite training >"$scratch/training.list"
"$SP_RUNNER" --list --suite heldout >"$scratch/heldout.list"
cat "$scratch/heldout.list" "$scratch/fake.list" >"$scratch/heldout-fake.list"
"$R" --list --suite heldout | cmp -s - "$scratch/heldout-fake.list" ||
  fail "--suite heldout is not the held-out suites there were, then fake"
"$R" --list --suite training | cmp -s - "$scratch/training.list" ||
  fail "--suite training is not the training suites there were before"
cat "$scratch/before.list" "$scratch/fake.list" >"$scratch/all.list"
"$R" --list --suite all | cmp -s - "$scratch/all.list" || fail "--suite all is not the old suites then fake"

# A small sweep on pocl: every row written, every host check passed.
POCL_CPU_MAX_CU_COUNT=1 "$R" --backend opencl --suite fake --kernels all --cu 1 \
  --engine-mhz 1 --memory-mhz 1 --runs "$scratch/runs.csv" --size small --min-time-ms 1 \
  --power-window-ms 0 --warmup-ms 1 --power none >"$scratch/sweep.log" 2>&1 ||
  { cat "$scratch/sweep.log" >&2; fail "the sweep of the fake suite failed"; }
check_runs "$scratch/runs.csv"
[ "$(tail -n +2 "$scratch/runs.csv" | cut -d, -f1 | tr '\n' ' ')" = 'f_axpy f_hashsum ' ] ||
  fail "sweep rows: $(cat "$scratch/runs.csv")"
if [ -n "${NVCC:-}" ]; then
  "$NVCC" -x cu -arch=sm_90 -I"$top/training/kernels/common" --ptx -o "$scratch/fake.ptx" \
    "$top/training/heldout/fake/fake.cl" >"$scratch/nvcc.log" 2>&1 ||
    { cat "$scratch/nvcc.log" >&2; fail "nvcc: fake.cl"; }
fi

# The runner's CLI test over the new registry.
SP_RUNNER=$R SP_TOP_SRCDIR=$top sh "${srcdir:-.}/runner-cli.sh" >"$scratch/cli.log" 2>&1 ||
  { cat "$scratch/cli.log" >&2; fail "runner-cli.sh fails with the fake suite"; }

# Retired: git mv under training/kernels/, and the line's role and date.
mv "$top/training/heldout/fake" "$top/training/kernels/fake"
sed 's|^fake .*|fake  f_  training/kernels/fake  training  2027-01-02|' \
  "$top/training/suites.txt" >"$scratch/suites.txt"
cp "$scratch/suites.txt" "$top/training/suites.txt"
mk -C "$top/training/runner" sp-runner >"$scratch/make2.log" 2>&1 ||
  { tail -30 "$scratch/make2.log" >&2; fail "make failed after retiring the suite"; }
"$R" --list-suites | grep -qxF "fake${tab}f_${tab}training${tab}2027-01-02${tab}2${tab}training/kernels/fake" ||
  fail "the retired suite is not a training suite: $("$R" --list-suites | tail -1)"
"$R" --list --suite heldout | cmp -s - "$scratch/heldout.list" ||
  fail "--suite heldout still lists the retired suite"
cat "$scratch/training.list" "$scratch/fake.list" >"$scratch/training-fake.list"
"$R" --list --suite training | cmp -s - "$scratch/training-fake.list" ||
  fail "--suite training lacks the retired suite"

first=$(sh "$top/training/suites.sh" retired | head -1 | cut -f2)
if [ ! -f "$top/$first/data/h100/runs.csv" ]; then
  echo "suite-add: merge not checked: this tree lacks the retired suites' measurements" >&2
  exit 0
fi
# Made-up measurements at 8 and 132 SMs on a floor twice the core suite's,
# so merge.sh halves their power.
d=$top/training/kernels/fake/data/h100
mkdir -p "$d"
core=$top/training/data/h100-sm
hdr='kernel,cu,engine_mhz,memory_mhz,time_ms,power_w'
{
  echo "$hdr"
  for k in f_axpy f_hashsum; do for cu in 8 132; do echo "$k,$cu,1980,2619,0.5,150.00"; done; done
} >"$d/runs.csv"
awk -F, -v OFS=, 'NR == 1 || ($1 == "idle_spin" && ($2 == 8 || $2 == 132)) {
  if (NR > 1) $6 = sprintf("%.2f", 2 * $6); print }' "$core/runs.csv" >"$d/idle-floor.csv"
[ "$(wc -l <"$d/idle-floor.csv")" -eq 3 ] || fail "no idle_spin rows at 8 and 132 SMs in $core/runs.csv"
head -1 "$core/counters.csv" >"$d/counters.csv"
commas=$(head -1 "$core/counters.csv" | tr -cd , | wc -c)
for k in f_axpy f_hashsum; do
  printf '%s,132,1980,2619' "$k"
  i=4
  while [ $i -le "$commas" ]; do printf ','; i=$((i + 1)); done
  echo
done >>"$d/counters.csv"
printf 'kernel,family\nf_axpy,stream\nf_hashsum,f_hash\n' >"$top/training/kernels/fake/families.csv"

h=training/data/h100-train
(cd "$top" && sh $h/merge.sh) >"$scratch/merge.log" 2>&1 ||
  { cat "$scratch/merge.log" >&2; fail "merge.sh failed with the retired fake suite"; }
for f in runs counters families; do
  grep -c '^f_' "$top/$h/$f.csv" >"$scratch/n" || fail "merge.sh left the fake suite out of $f.csv"
  grep -v '^f_' "$top/$h/$f.csv" | cmp -s - "$SP_TOP_SRCDIR/$h/$f.csv" ||
    fail "merge.sh changed $f.csv beyond the fake suite's rows"
done
grep -qx 'f_axpy,8,1980,2619,0.5,75.00' "$top/$h/runs.csv" || fail "the fake rows' power was not scaled"
# After the last retired suite's rows, before the extra core entries'.
prev=$(sh "$top/training/suites.sh" retired | tail -2 | head -1 | cut -f2)
last=$(tail -1 "$top/$prev/data/h100/runs.csv" | cut -d, -f1,2)
awk -F, -v last="$last" '$1 == "f_axpy" && $2 == 8 { exit !(before == last) } { before = $1 "," $2 }' \
  "$top/$h/runs.csv" || fail "the fake rows do not follow $prev's"
n=$(sh "$top/training/suites.sh" retired | wc -l)
(cd "$top" && sh $h/by-set.sh) >"$scratch/sets.csv" || fail "by-set.sh failed"
grep -qx "f_hashsum,v$n" "$scratch/sets.csv" || fail "by-set.sh: f_hashsum is not set v$n"

# The two-card merge takes a retired suite's data/h200 beside h200-train,
# and stops rather than count an entry twice when both hold its row.
h2=$top/training/data/h200-train
v11=$top/training/kernels/validation11/data/h200
[ -f "$v11/idle-floor.csv" ] || fail "no $v11/idle-floor.csv to make the fake H200 rows with"
d=$top/training/kernels/fake/data/h200
mkdir -p "$d"
cp "$v11/idle-floor.csv" "$d/"
head -1 "$h2/counters.csv" >"$d/counters.csv"
head -2 "$h2/runs.csv" >"$d/runs.csv"
twice=$(sed -n 2p "$h2/runs.csv" | cut -d, -f1,2)
(cd "$top" && sh training/data/h100h200/merge.sh) >"$scratch/merge2.log" 2>&1 &&
  fail "h100h200/merge.sh counted ${twice%,*}'s H200 row at ${twice#*,} SMs twice"
grep -q "merge.sh: ${twice%,*} has two H200 rows at ${twice#*,} SMs" "$scratch/merge2.log" ||
  fail "h100h200/merge.sh did not name the entry measured twice: $(cat "$scratch/merge2.log")"
exit 0
