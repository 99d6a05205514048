#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# profile_second.sh: two-point profiles (issue 29, item 2; docs/profile.md,
# "Two points").  After the base pass, `scalepredict profile -- PROGRAM`
# runs the program again under ncu with the green-context preload
# (greenctx/sp_greenctx_preload.c) and SP_GREEN_SMS=N for the launch times,
# and writes them as runs.csv rows at N SMs; predict --profile passes its
# predictions through them.  A stand-in ncu plays both passes: the base
# pass writes the recorded H100 profile of docs/examples/profile/app.cu, the
# second pass the same launches' IDs, names, shapes and times scaled by
# 132 / SP_GREEN_SMS, with launch__sm_count SP_GREEN_SMS ($FAKE_SECOND
# changes that; $FAKE_AT limits the change to the pass at that SM count),
# then runs the program, into which the real preload is
# loaded: a stand-in libcuda.so.1 (tests/greenctx/stubcuda.c, through
# LD_LIBRARY_PATH) takes the driver calls, so the constructor's whole path
# runs here; what only a GPU shows (the runtime honouring the context) is
# the device command in docs/profile.md.
# shellcheck source=lib.sh
. "${srcdir:-.}/cli/lib.sh"
P=$SP_TEST_DATA/profile
H100=$SP_TOP_BUILDDIR/models/h100-sm
[ -f "$H100/manifest.txt" ] || H100=$sp_here/../../models/h100-sm
if [ -z "${SP_GREENCTX_PRELOAD:-}" ] &&
  [ ! -f "$SP_TOP_BUILDDIR/greenctx/.libs/libscalepredict-greenctx-preload.so" ]; then
  echo "no preload library built (a build without shared libraries): skipped" >&2
  exit 77
fi
STUB=${SP_STUB_CUDA:-$SP_TOP_BUILDDIR/tests/greenctx/stub}
if [ ! -f "$STUB/libcuda.so.1" ]; then
  echo "no stand-in libcuda.so.1 in $STUB (make check builds it)" >&2
  exit 77
fi
case ${SP_SANITIZERS:-no} in
no | "") ;;
*)
  echo "the preload is a sanitized library here: it cannot be preloaded into other programs" >&2
  exit 77
  ;;
esac

mkdir bin
cat >bin/ncu <<'NCU'
#!/bin/sh
# Stand-in for Nsight Compute, both passes (see the head of profile_second.sh).
if [ -n "${SP_GREEN_SMS:-}" ]; then echo "$*" >"$FAKE_ARGS.second"; else echo "$*" >"$FAKE_ARGS"; fi
. "$NCU_OPTIONS"
if [ -z "${SP_GREEN_SMS:-}" ]; then
  cp "$FAKE_NCU" "$log"
else
  mode=${FAKE_SECOND:-ok}
  [ -z "${FAKE_AT:-}" ] || [ "$FAKE_AT" = "$SP_GREEN_SMS" ] || mode=ok
  case $mode in
  int) kill -INT "$PPID"; sleep 5 ;;
  fail) "$@"; echo "==ERROR== The application returned an error code (1)." >"$log"; exit 1 ;;
  esac
  awk -v n="$SP_GREEN_SMS" -v mode="$mode" '
    BEGIN { FS = "\",\""; q = "\"" }
    $1 == q "ID" {
      for (i = 1; i <= NF; i++) { h = $i; gsub(/"/, "", h); c[h] = i }
      print "\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\",\"gpu__time_duration.sum\",\"launch__sm_count\""
      head = 1; next
    }
    !head { print; next }
    $1 == q { print "\"\",\"\",\"\",\"\",\"nsecond\",\"\""; next }
    {
      t = $(c["gpu__time_duration.sum"]); gsub(/[",]/, "", t)
      k = $(c["Kernel Name"]); sms = mode == "allsms" && ++seen == 3 ? 132 : n
      if (mode == "shuffle" && ++row == 4) k = "other_kernel(int)"
      printf "%s\",\"%s\",\"%s\",\"%s\",\"%.0f\",\"%d\"\n", $1, k, $(c["Grid Size"]), $(c["Block Size"]), t * 132 / n, sms
    }' "$FAKE_NCU" >"$log"
fi
"$@"
status=$?
[ $status -eq 0 ] || echo "==ERROR== The application returned an error code ($status)." >>"$log"
exit $status
NCU
chmod +x bin/ncu
FAKE_ARGS=$WORK/args
FAKE_NCU=$P/h100-example-ncu.csv
PATH=$WORK/bin:$PATH
LD_LIBRARY_PATH=$STUB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export FAKE_ARGS FAKE_NCU PATH LD_LIBRARY_PATH

rows_at() { grep -c ",$1,1980,2619," "$2/runs.csv"; }

# The bundled model names its choice (second-sms.txt, checked below); the
# cases here use a copy without it, whose choice is the grid's level
# nearest half the base's SM count.
BUNDLED=$H100
cp -R "$BUNDLED" nochoice
rm -f nochoice/second-sms.txt
H100=$WORK/nochoice

# ---- a two-point profile, the SM count chosen for the model -------------
sp profile --model "$H100" --out two -- true
expect_rc "two-point profile" 0
expect_out "two-point profile" "24 kernel launches as 6 entries" "the same 6 entries at 64 SMs too"
grep -qF "second pass: 'true' at 64 SMs" "$WORK/err" || fail "no second-pass line: $(cat "$WORK/err")"
[ "$(rows_at 132 two)" -eq 6 ] && [ "$(rows_at 64 two)" -eq 6 ] || fail "runs.csv: $(cat two/runs.csv)"
for want in "--clock-control none" "--metrics gpu__time_duration.sum,launch__sm_count" "--page raw"; do
  grep -qF -- "$want" args.second || fail "second pass: ncu not asked for '$want': $(cat args.second)"
done
grep -qF "smsp__inst_executed.sum" args.second && fail "second pass asked for the model's counters"
# Each entry's time at 64 SMs is the median of its launches there: the
# stand-in's 132/64 x its base time (a monotone scaling keeps the median).
awk -F, '{ t[$1 FS $2] = $5 } END {
  for (k in t) { split(k, a, FS); if (a[2] == 132) { w = t[a[1] FS 64]; r = w / t[k]
    if (r < 2.0625 * 0.999 || r > 2.0625 * 1.001) { print k, t[k], w; bad = 1 } } }
  exit bad }' FS=',' two/runs.csv || fail "times at 64 SMs are not the second pass's: $(cat two/runs.csv)"
grep -q '^second: 64cu/1980/2619: the grid.s level nearest half the base.s 132 SMs' two/profile.txt ||
  fail "profile.txt: $(cat two/profile.txt)"
[ -s two/profile-second-raw.csv ] || fail "no profile-second-raw.csv"
grep -qF 'profile-second-raw.csv' two/.scalepredict-profile 2>/dev/null ||
  grep -rqF 'profile-second-raw.csv' two/.scalepredict* || fail "the marker does not list profile-second-raw.csv"

# ---- predict --profile uses the second point, and says so ---------------
sp predict --model "$H100" --profile two --target all --format csv
expect_rc "predict two-point" 0
grep -qF "the profile measured 64cu/1980/2619 too" "$WORK/err" || fail "predict: no note: $(cat "$WORK/err")"
cp "$WORK/out" two.csv
# At 64 SMs the prediction is the measurement (error 0).
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["target"] == "64cu/1980/2619" && $c["kernel"] != "(application)" && $c["time_error_pct"] + 0 != 0 { bad = 1; print }
  END { exit bad }' two.csv || fail "predict: the second point is not passed through: $(cat two.csv)"
sp predict --model "$H100" --profile two --target all --format csv --use-measured none
expect_rc "predict --use-measured none" 0
grep -qF "measured 64cu" "$WORK/err" && fail "--use-measured none still used the second point"
cmp -s "$WORK/out" two.csv && fail "the second point changed no prediction"

# ---- the model's choice: second-sms.txt, which changes nothing else -----
cp -R "$H100" mine
sp info --model mine
cp "$WORK/out" info1
printf '# chosen by docs/examples/profile/second-sms.sh\nsecond_sms 48\n' >mine/second-sms.txt
sp info --model mine
cmp -s "$WORK/out" info1 || fail "second-sms.txt changed info's output"
sp profile --model mine --out chosen -- true
expect_rc "the model's choice" 0
[ "$(rows_at 48 chosen)" -eq 6 ] || fail "second-sms.txt 48 not used: $(cat chosen/runs.csv)"
grep -q "^second: 48cu/1980/2619: the model's choice" chosen/profile.txt || fail "chosen: $(cat chosen/profile.txt)"
sp predict --model "$H100" --profile two --target all --format csv --use-measured none
cp "$WORK/out" pred1
sp predict --model mine --profile two --target all --format csv --use-measured none
cmp -s "$WORK/out" pred1 || fail "second-sms.txt changed a prediction"

if [ -f "$BUNDLED/second-sms.txt" ]; then
  want=$(sed -n 's/^second_sms //p' "$BUNDLED/second-sms.txt")
  sp profile --model "$BUNDLED" --out bundled -- true
  expect_rc "the bundled model's choice" 0
  [ -n "$want" ] && [ "$(rows_at "$want" bundled)" -eq 6 ] ||
    fail "the bundled model's second-sms.txt ($want) not used: $(cat bundled/runs.csv)"
fi

# ---- --second-sms N, none, and one the grid lacks -----------------------
sp profile --model "$H100" --out s32 --second-sms 32 -- true
expect_rc "--second-sms 32" 0
[ "$(rows_at 32 s32)" -eq 6 ] && [ "$(rows_at 64 s32)" -eq 0 ] || fail "--second-sms 32: $(cat s32/runs.csv)"
rm -f args.second
sp profile --model "$H100" --out one --second-sms none -- true
expect_rc "--second-sms none" 0
[ -e args.second ] && fail "--second-sms none ran a second pass"
[ "$(rows_at 132 one)" -eq 6 ] && [ "$(wc -l <one/runs.csv)" -eq 7 ] || fail "none: $(cat one/runs.csv)"
grep -q '^second: none: not measured (--second-sms none)' one/profile.txt || fail "none: $(cat one/profile.txt)"
grep -qF "note: one point only: not measured (--second-sms none)" "$WORK/err" || fail "none: $(cat "$WORK/err")"
for bad in 33 132 0 x; do
  sp profile --model "$H100" --out bad --second-sms "$bad" -- true
  expect_rc "--second-sms $bad" 1
  grep -qF "second-sms '$bad': '$bad' is not an SM count of the model's grid below the base's 132 (give auto" \
    "$WORK/err" || fail "--second-sms $bad: $(cat "$WORK/err")"
  no_leftovers "--second-sms $bad" bad
done

for bad in 24,33 24,24 8,16,24,32,40,48,56,64,80 '24,' ,24; do
  sp profile --model "$H100" --out bad --second-sms "$bad" -- true
  expect_rc "--second-sms $bad" 1
  case $bad in
  24,33) want="'33' is not an SM count" ;;
  24,24) want="'24' is given twice" ;;
  8,*) want="'80' is one too many: at most 8" ;;
  *) want="'' is not an SM count" ;;
  esac
  grep -qF "second-sms '$bad': $want" "$WORK/err" || fail "--second-sms $bad: $(cat "$WORK/err")"
  no_leftovers "--second-sms $bad" bad
done

# ---- several further SM counts: a pass each, every point kept -----------
mkdir tmp
TMPDIR=$WORK/tmp sp profile --model "$H100" --out three --second-sms 24,64 -- true
expect_rc "--second-sms 24,64" 0
expect_out "--second-sms 24,64" "the same 6 entries at 24 SMs too" "the same 6 entries at 64 SMs too"
grep -qF "pass 2 of 3: 'true' at 24 SMs (chosen with --second-sms 24,64)" "$WORK/err" &&
  grep -qF "pass 3 of 3: 'true' at 64 SMs" "$WORK/err" || fail "24,64: passes: $(cat "$WORK/err")"
for n in 132 24 64; do [ "$(rows_at $n three)" -eq 6 ] || fail "24,64: no rows at $n: $(cat three/runs.csv)"; done
[ "$(wc -l <three/runs.csv)" -eq 19 ] || fail "24,64: runs.csv $(cat three/runs.csv)"
[ "$(grep -c '^second: ' three/profile.txt)" -eq 2 ] &&
  grep -q '^second: 24cu/1980/2619: chosen with --second-sms 24,64$' three/profile.txt &&
  grep -q '^second: 64cu/1980/2619: chosen with --second-sms 24,64$' three/profile.txt ||
  fail "24,64: profile.txt $(cat three/profile.txt)"
# Each pass's CSV kept under its own name, each with its own SM count.
grep -qF ',"24"' three/profile-second-raw.csv && ! grep -qF ',"64"' three/profile-second-raw.csv &&
  grep -qF ',"64"' three/profile-second-raw-64.csv || fail "24,64: the passes' CSVs: $(ls three)"
grep -rqF 'profile-second-raw-64.csv' three/.scalepredict* || fail "the marker does not list profile-second-raw-64.csv"
[ -z "$(ls tmp)" ] || fail "24,64: temporary files left: $(ls tmp)"
# The times at 24 are the pass at 24's, not the one at 64's (132/24 x base).
awk -F, '$2 == 132 { b[$1] = $5 } $2 == 24 { t[$1] = $5 } END {
  for (k in t) { r = t[k] / b[k]; if (r < 5.5 * 0.999 || r > 5.5 * 1.001) { print k, r; bad = 1 } }
  exit bad }' three/runs.csv || fail "24,64: the times at 24 SMs: $(cat three/runs.csv)"
sp predict --model "$H100" --profile three --target all --format csv
expect_rc "predict three points" 0
grep -qF "the profile measured 24cu/1980/2619,64cu/1980/2619 too: the predictions pass through them" \
  "$WORK/err" || fail "predict three points: no note: $(cat "$WORK/err")"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  ($c["target"] == "24cu/1980/2619" || $c["target"] == "64cu/1980/2619") && $c["kernel"] != "(application)" &&
  $c["time_error_pct"] + 0 != 0 { bad = 1; print } END { exit bad }' "$WORK/out" ||
  fail "predict three points: a measured point is not passed through: $(cat "$WORK/out")"
cmp -s "$WORK/out" two.csv && fail "the third point changed no prediction"
sp predict --model "$H100" --profile three --target all --format csv --use-measured 64cu/1980/2619
# The same predictions as from the two-point profile (the rows at 24 SMs
# here also show what was measured there: those columns are left out).
pcols() { sed 's/^"[^"]*"/K/' "$1" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i !~ /^measured|error/) k[i] = 1 }
  { s = ""; for (i = 1; i <= NF; i++) if (i in k) s = s FS $i; print s }'; }
pcols "$WORK/out" >p3
pcols two.csv >p2
[ "$(head -1 p2 | tr , '\n' | grep -c time)" -ge 2 ] || fail "pcols kept no time column: $(head -1 p2)"
cmp -s p3 p2 || fail "--use-measured 64 on the three-point profile is not the two-point prediction: $(diff p3 p2 | head -5)"

# One pass of two fails: the other's point stays, the failure is said.
FAKE_SECOND=fail FAKE_AT=24 sp profile --model "$H100" --out half --second-sms 24,64 -- true
expect_rc "one pass of two fails" 0
grep -qF "note: no point at 24 SMs: 'true' failed at 24 SMs under ncu (exit status 1)" "$WORK/err" ||
  fail "one pass of two fails: $(cat "$WORK/err")"
[ "$(rows_at 24 half)" -eq 0 ] && [ "$(rows_at 64 half)" -eq 6 ] || fail "half: $(cat half/runs.csv)"
grep -q "^second: none: 'true' failed at 24 SMs" half/profile.txt &&
  grep -q '^second: 64cu/1980/2619: chosen' half/profile.txt || fail "half: $(cat half/profile.txt)"
grep -qF ',"64"' half/profile-second-raw.csv || fail "half: the kept CSV is not the pass at 64's"
sp predict --model "$H100" --profile half --target all --format csv
grep -qF "the profile measured 64cu/1980/2619 too: the predictions pass through it" "$WORK/err" ||
  fail "half: predict: $(cat "$WORK/err")"
# Refused at one pass's line: the error names that pass's own CSV.
FAKE_SECOND=shuffle FAKE_AT=64 sp profile --model "$H100" --out mm2 --second-sms 24,64 -- true
expect_rc "the second of two passes refused" 0
grep -qF "note: no point at 64 SMs: mm2/profile-second-raw-64.csv:" "$WORK/err" ||
  fail "refused pass at 64: $(cat "$WORK/err")"
line=$(sed -n 's/.*profile-second-raw-64.csv:\([0-9]*\):.*/\1/p' "$WORK/err")
sed -n "${line}p" mm2/profile-second-raw-64.csv | grep -qF other_kernel || fail "refused pass at 64: the line named"
[ "$(rows_at 24 mm2)" -eq 6 ] && [ "$(rows_at 64 mm2)" -eq 0 ] || fail "mm2: $(cat mm2/runs.csv)"
# Interrupted in the last pass: the profile as the pass before left it.
FAKE_SECOND=int FAKE_AT=64 SP_WRAPPER="env --default-signal=INT $SP_WRAPPER" TMPDIR=$WORK/tmp \
  sp profile --model "$H100" --out cut2 --second-sms 24,64 -- true
expect_rc "interrupted in the last pass" 130
[ "$(rows_at 24 cut2)" -eq 6 ] && [ "$(rows_at 64 cut2)" -eq 0 ] || fail "cut2: $(cat cut2/runs.csv)"
[ -e cut2/profile-second-raw-64.csv ] && fail "cut2: the interrupted pass's CSV was written"
[ -z "$(ls tmp)" ] || fail "cut2: temporary files left: $(ls tmp)"
for f in cut2.tmp-* cut2.old-*; do [ ! -e "$f" ] || fail "cut2: $f left behind"; done

# ---- fallbacks: one point, said in the profile and on stderr ------------
# The driver refuses the green context: the preload says so (its own line
# on stderr, and its status file), the program runs on, profile keeps one point.
STUB_CUDA_FAIL=1 sp profile --model "$H100" --out pf -- true
expect_rc "preload fails" 0
grep -qF "libscalepredict-greenctx-preload: SP_GREEN_SMS=64: cuGreenCtxCreate failed (CUDA error 999)" \
  "$WORK/err" || fail "preload fails: its own message: $(cat "$WORK/err")"
grep -qF "note: one point only: the preload could not enter a green context of 64 SMs in 'true': cuGreenCtxCreate failed" \
  "$WORK/err" || fail "preload fails: profile's note: $(cat "$WORK/err")"
[ "$(wc -l <pf/runs.csv)" -eq 7 ] || fail "preload fails: runs.csv $(cat pf/runs.csv)"
grep -q '^second: none: the preload could not enter' pf/profile.txt || fail "preload fails: $(cat pf/profile.txt)"
# A launcher script: the preload never starts in the binary named.
printf '#!/bin/sh\nexec true "$@"\n' >launcher.sh
chmod +x launcher.sh
sp profile --model "$H100" --out ls -- ./launcher.sh
expect_rc "launcher script" 0
grep -qF "the preload did not start in './launcher.sh'" "$WORK/err" || fail "launcher: $(cat "$WORK/err")"
# Other launches at the second SM count: refused at the line, the CSV kept.
FAKE_SECOND=shuffle sp profile --model "$H100" --out mm -- true
expect_rc "mismatched launches" 0
grep -qF "note: one point only: mm/profile-second-raw.csv:" "$WORK/err" &&
  grep -qF "field 'Kernel Name': launch 4 is 'other_kernel(int)'" "$WORK/err" ||
  fail "mismatched launches: $(cat "$WORK/err")"
line=$(sed -n 's/.*profile-second-raw.csv:\([0-9]*\):.*/\1/p' "$WORK/err")
sed -n "${line}p" mm/profile-second-raw.csv | grep -qF other_kernel || fail "the line named is not the launch"
base=$(sed -n 's/.*(line \([0-9]*\) of its profile, profile-raw.csv).*/\1/p' "$WORK/err")
sed -n "${base}p" mm/profile-raw.csv | grep -qF '"stencil(' || fail "the base line named is not the base launch"
[ "$(wc -l <mm/runs.csv)" -eq 7 ] || fail "mismatched launches: runs.csv $(cat mm/runs.csv)"
# A launch on every SM (another thread, a context of the program's own).
FAKE_SECOND=allsms sp profile --model "$H100" --out th -- true
expect_rc "launch on all SMs" 0
grep -qF "field 'launch__sm_count': launch 3" "$WORK/err" &&
  grep -qF "ran on 132 SMs, not the green context's 64" "$WORK/err" || fail "all SMs: $(cat "$WORK/err")"
# The program fails at the second SM count.
FAKE_SECOND=fail sp profile --model "$H100" --out fl -- true
expect_rc "program fails at 64 SMs" 0
grep -qF "failed at 64 SMs under ncu (exit status 1)" "$WORK/err" || fail "fails: $(cat "$WORK/err")"
# No preload library.
SP_GREENCTX_PRELOAD=$WORK/none.so sp profile --model "$H100" --out np -- true
expect_rc "no preload" 0
grep -qF "the preload library $WORK/none.so is not there" np/profile.txt || fail "no preload: $(cat np/profile.txt)"

# ---- interrupted in the second pass: the base pass's profile survives ---
# The stand-in interrupts the tool with SIGINT.  A test run as a background
# job of a shell without job control inherits SIGINT ignored, which the
# tool keeps ignored (as under nohup): the call resets it to the default.
FAKE_SECOND=int SP_WRAPPER="env --default-signal=INT $SP_WRAPPER" \
  sp profile --model "$H100" --out cut -- true
expect_rc "interrupted second pass" 130
cmp -s cut/runs.csv one/runs.csv || fail "interrupted: runs.csv is not the base pass's: $(cat cut/runs.csv)"
cmp -s cut/counters.csv one/counters.csv || fail "interrupted: counters.csv differs"
[ -e cut/profile-second-raw.csv ] && fail "interrupted: a second point was written"
for f in cut.tmp-* cut.old-*; do [ ! -e "$f" ] || fail "interrupted: $f left behind"; done
sp predict --model "$H100" --profile cut --target all --format csv
expect_rc "predict the interrupted profile" 0
finish
