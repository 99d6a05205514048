#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# profile.sh: scalepredict profile, info and models, and predict --profile
# (issue 11).  Fixtures: tests/data/profile/h100-example-ncu.csv is the raw
# CSV `scalepredict profile` had ncu write for docs/examples/profile/app.cu on
# the H100 (24 launches, 6 entries); h100-example-full.csv is `ncu --set full`
# of one iteration (2,238 columns), which lacks 9 of the metrics the H100
# model needs and gives 3 more in other units (sectors for bytes); rocprofv3-counters.csv is rocprofv3's documented counter CSV
# (hand-made: no AMD GPU here).  A stand-in `ncu` first in PATH plays the
# profiler: it records its arguments, writes a fixture (or an error) as its
# log and runs the program.
# shellcheck source=lib.sh
. "${srcdir:-.}/cli/lib.sh"
P=$SP_TEST_DATA/profile
H100=$SP_TOP_BUILDDIR/models/h100-sm
[ -f "$H100/manifest.txt" ] || H100=$sp_here/../../models/h100-sm

# ---- --import: the real ncu raw CSV -------------------------------------
sp profile --model "$H100" --out prof --import "$P/h100-example-ncu.csv"
expect_rc "import ncu" 0
expect_out "import ncu" "24 kernel launches as 6 entries" "NVIDIA H100 80GB HBM3"
for f in runs.csv counters.csv launches.csv profile.txt profile-raw.csv; do
  [ -s "prof/$f" ] || fail "import ncu: no $f"
done
# Names with commas and templates are quoted; saxpy's two launch shapes are
# two entries; repeated launches are counted.
grep -qF '"void poly<256, 4>(float *, int)",132,1980,2619,' prof/runs.csv ||
  fail "template name not quoted: $(cat prof/runs.csv)"
[ "$(grep -c '^"saxpy(float, const float \*, float \*, int) \[grid' prof/runs.csv)" -eq 2 ] ||
  fail "saxpy shapes: $(cat prof/runs.csv)"
grep -qF '"stencil(const float *, float *, int, int)",6,' prof/launches.csv ||
  fail "stencil count: $(cat prof/launches.csv)"
grep -q '^sm_count: 132$' prof/profile.txt || fail "profile.txt: $(cat prof/profile.txt)"
[ "$(head -1 prof/counters.csv | tr ',' '\n' | wc -l)" -eq 45 ] || fail "counters header"
cmp -s prof/profile-raw.csv "$P/h100-example-ncu.csv" || fail "profile-raw.csv differs"

# predict --profile: per kernel, then the application (counts x times).
sp predict --model "$H100" --profile prof --target 8cu/1980/2619 --format csv
expect_rc "predict --profile" 0
app=$(grep '^(application),8cu' "$WORK/out" | cut -d, -f4)
[ -n "$app" ] || fail "no application row: $(cat "$WORK/out")"
awk -v a="$app" 'BEGIN { exit !(a > 80 && a < 110) }' || fail "application time $app"
sp predict --model h100-sm --profile prof --target all --format json
expect_rc "predict --profile json, bundled model by name" 0
expect_out "json" '"kernel":"(application)"'
# A kernel of runs.csv without a launch count (an edited profile) would
# leave the application's row: refused by every command that sums it.
cp -R prof noc
grep -v '^"void poly' prof/launches.csv >noc/launches.csv
for cmd in predict export dse; do
  case $cmd in
  predict) sp predict --model "$H100" --profile noc --target all ;;
  export) sp export --model "$H100" --profile noc ;;
  dse) sp dse --model "$H100" --profile noc ;;
  esac
  expect_error "$cmd, a kernel without a launch count" 2 "noc/launches.csv: field 'kernel': no launch count for kernel 'void poly<256, 4>(float *, int)' of noc/runs.csv"
done

# export --profile: after the kernels, the application, whose time at each
# configuration is the kernels' times times their launch counts, summed.
sp export --model "$H100" --profile prof
expect_rc "export --profile" 0
cp "$WORK/out" export.csv
[ "$(grep -c '^(application),' export.csv)" -eq 13 ] || fail "export: not 13 application rows"
if have_python; then
  python3 - export.csv prof/launches.csv <<'PY' || fail "export --profile: the application is not the weighted sum"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
count = {r["kernel"]: float(r["count"]) for r in csv.DictReader(open(sys.argv[2]))}
for cfg in {r["config"] for r in rows}:
    at = [r for r in rows if r["config"] == cfg]
    app = [float(r["time_ms"]) for r in at if r["kernel"] == "(application)"]
    want = sum(count[r["kernel"]] * float(r["time_ms"]) for r in at if r["kernel"] != "(application)")
    assert len(app) == 1 and abs(app[0] - want) <= 1e-5 * want, (cfg, app, want)
    assert all(r["power_w"] == "" for r in at if r["kernel"] == "(application)")  # no power profiled
PY
fi
sp export --model "$H100" --profile prof --layout wide
expect_rc "export --profile wide" 0
[ "$(tail -n 1 "$WORK/out" | cut -d, -f1)" = "(application)" ] || fail "export wide: no application row last"

# dse --profile: the profile's launches are the workload; without power (ncu
# records none) it fails saying so, with power filled in it ranks.
sp dse --model "$H100" --profile prof
expect_error "dse --profile without power" 2 "a profile records no power" "power_w"
mkdir profw
cp prof/counters.csv prof/launches.csv profw/
awk -F, 'BEGIN { OFS = "," } NR > 1 && $NF == "" { $NF = 300 } { print }' prof/runs.csv >profw/runs.csv
sp dse --model "$H100" --profile profw --json
expect_rc "dse --profile with power" 0
if have_python; then
  python3 - "$WORK/out" profw/runs.csv profw/launches.csv <<'PY' || fail "dse --profile: the workload is not the launches' sum"
import csv, json, sys
d = json.load(open(sys.argv[1]))
t = {r["kernel"]: float(r["time_ms"]) for r in csv.DictReader(open(sys.argv[2]))}
c = {r["kernel"]: float(r["count"]) for r in csv.DictReader(open(sys.argv[3]))}
want = sum(t[k] * c[k] for k in t)
got = d["reference"]["time_ms"] if "time_ms" in d["reference"] else d["objectives"]["min-time"]["time_ms"]
assert abs(got - want) <= 1e-4 * want, (got, want)
PY
fi

# ---- the full set: what it gives in other units, what it lacks ----------
# ncu --set full has no lts__t_bytes.sum.per_second nor the L1's global
# load and store bytes, but their sectors (32 bytes each): those are read
# instead.  Nine metrics it does not have at all are named, with the
# --metrics that adds them; the full set with them added imports.
sp profile --model "$H100" --out full --import "$P/h100-example-full.csv"
expect_error "full set" 2 "9 metrics the model needs are missing" \
  "smsp__inst_executed_pipe_fma.sum" "dram__throughput.avg.pct_of_peak_sustained_elapsed" \
  "--metrics smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_alu.sum,"
for m in lts__t_bytes l1tex__t_bytes; do
  grep -qF "$m" "$WORK/err" && fail "full set: $m named missing, though its sectors are there"
done
no_leftovers "full set" full
missing=$(sed -n 's/.*--metrics \([^;]*\);.*/\1/p' "$WORK/err")
# The same eight launches as the first eight of h100-example-ncu.csv (IDs
# 0-7: one iteration of the same program): their values of the nine.
awk -F'","' -v want="$missing" '
  FNR == NR {
    if ($1 == "\"ID") { for (i = 1; i <= NF; i++) col[$i] = i; n = split(want, w, ","); h = FNR }
    if (h) for (j = 1; j <= n; j++) { x = $(col[w[j]]); gsub(/"/, "", x); v[FNR - h, j] = x }
    next
  }
  $1 == "\"ID" { fh = FNR }
  fh && FNR - fh <= 9 { sub(/"$/, ""); for (j = 1; j <= n; j++) $0 = $0 "\",\"" v[FNR - fh, j]; $0 = $0 "\"" }
  { print }' "$P/h100-example-ncu.csv" "$P/h100-example-full.csv" >full-plus.csv
sp profile --model "$H100" --out fullp --import full-plus.csv
expect_rc "full set with --metrics" 0
expect_out "full set with --metrics" "8 kernel launches as 6 entries"
grep -qF 'metric lts__t_bytes.sum.per_second: 32 x lts__t_sectors.sum.per_second' fullp/profile.txt ||
  fail "profile.txt does not say what was read instead: $(cat fullp/profile.txt)"
# poly ran once: its l2_bw_gbs is 32 x its L2 sectors per second, in GB/s.
sectors=$(awk -F'","' '$1 == "\"ID" { for (i = 1; i <= NF; i++) if ($i == "lts__t_sectors.sum.per_second") c = i }
  c && $1 == "\"1" { x = $c; gsub(/[",]/, "", x); printf "%.6g", 32 * x * 1e-9 }' full-plus.csv)
col=$(head -n 1 fullp/counters.csv | tr ',' '\n' | grep -nx l2_bw_gbs | cut -d: -f1)
got=$(grep '^"void poly<256, 4>' fullp/counters.csv | awk -F'",' '{ print $2 }' | cut -d, -f"$((col - 1))")
[ -n "$sectors" ] && [ "$got" = "$sectors" ] || fail "poly's l2_bw_gbs: $got, want 32 x sectors = $sectors"
# An exact equivalent reads as the metric itself: the raw fixture with the
# three metrics given as sectors converts to the same counters.
awk -F'","' -v OFS='","' '
  $1 == "\"ID" {
    for (i = 1; i <= NF; i++) if ($i ~ /^(lts__t_bytes\.sum\.per_second|l1tex__t_bytes_pipe_lsu_mem_global_op_(ld|st)\.sum)$/) {
      c[i] = 1; sub(/_bytes/, "_sectors", $i)
    }
    h = 1; print; next
  }
  h && $1 ~ /^"[0-9]+$/ { for (i in c) { x = $i; gsub(/,/, "", x); $i = sprintf("%.17g", x / 32) } }
  { print }' "$P/h100-example-ncu.csv" >sectors.csv
grep -qF '"lts__t_bytes.sum.per_second"' sectors.csv && fail "sectors.csv still has lts__t_bytes"
sp profile --model "$H100" --out sect --import sectors.csv
expect_rc "sectors instead of bytes" 0
cmp -s sect/counters.csv prof/counters.csv || fail "sectors instead of bytes: counters differ"
# info names the alternatives beside the metric.
sp info --model "$H100"
expect_out "info: alternatives" \
  "lts__t_bytes.sum.per_second (or 32 x lts__t_sectors.sum.per_second)" \
  "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum (or 32 x l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum)"

# ---- units: ncu without --print-units base ------------------------------
# rescale COLUMN UNIT DIVISOR OUT: the fixture with COLUMN's unit and
# values as ncu prints them scaled.
rescale() {
  awk -v col="$1" -v unit="$2" -v div="$3" 'BEGIN { FS = OFS = "\",\"" }
    $1 == "\"ID" { for (i = 1; i <= NF; i++) if ($i == col) c = i; print; head = 1; next }
    head == 1 { $c = unit; print; head = 2; next }
    head == 2 { v = $c; gsub(/[",]/, "", v); $c = sprintf("%.9g", v / div) }
    { print }' "$P/h100-example-ncu.csv" >"$4"
}
rescale gpu__time_duration.sum usecond 1000 us.csv
rescale dram__cycles_elapsed.avg.per_second Ghz 1e9 ghz.csv
rescale lts__t_bytes.sum.per_second Kbyte/second 1000 kb.csv
grep -qF '"usecond"' us.csv && grep -qF '"Ghz"' ghz.csv || fail "rescale made no units row"
sp profile --model "$H100" --out us --import us.csv
expect_rc "times in usecond" 0
cmp -s us/runs.csv prof/runs.csv || fail "times in usecond not read back: $(diff us/runs.csv prof/runs.csv)"
sp profile --model "$H100" --out ghz --import ghz.csv
expect_rc "clock in Ghz" 0
grep -q '^memory_clock_mhz: 2617.94$' ghz/profile.txt || fail "clock in Ghz: $(cat ghz/profile.txt)"
cmp -s ghz/counters.csv prof/counters.csv || fail "clock in Ghz: counters differ"
sp profile --model "$H100" --out kb --import kb.csv
expect_error "bytes in Kbyte" 2 "kb.csv:5:" "field 'lts__t_bytes.sum.per_second': unit 'Kbyte/second'" \
  "--print-units base"
no_leftovers "bytes in Kbyte" kb

# ---- what profile writes, predict reads: each launch checked at its line --
# setfield COLUMN VALUE OUT: the fixture with COLUMN's value of its third
# launch (line 7) set to VALUE.
setfield() {
  awk -v col="$1" -v val="$2" 'BEGIN { FS = OFS = "\",\"" }
    $1 == "\"ID" { for (i = 1; i <= NF; i++) if ($i == col) c = i }
    NR == 7 { $c = val } { print }' "$P/h100-example-ncu.csv" >"$3"
}
setfield "Kernel Name" "" noname.csv
setfield gpu__time_duration.sum 1e30 huge.csv
setfield launch__sm_count abc sms.csv
sp profile --model "$H100" --out bad --import noname.csv
expect_error "an empty kernel name" 2 "noname.csv:7:5: field 'Kernel Name': empty kernel name"
sp profile --model "$H100" --out bad --import huge.csv
expect_error "a launch time out of bounds" 2 "huge.csv:7:" "field 'gpu__time_duration.sum': '1e30' is not a launch time" \
  "outside the accepted range"
sp profile --model "$H100" --out bad --import sms.csv
expect_error "an SM count that is no number" 2 "sms.csv:7:" "field 'launch__sm_count': 'abc' is not an SM count"
echo "==WARNING== No kernels were profiled." >none.csv
sp profile --model "$H100" --out bad --import none.csv
expect_error "an ncu log of no kernel" 2 "none.csv: no kernel launch in the profile: ncu profiled none"
sed '7p' "$P/h100-example-ncu.csv" >dup.csv
sp profile --model "$H100" --out bad --import dup.csv
expect_error "a launch row twice" 2 "dup.csv:8:1: field 'ID': launch 1 is listed twice (lines 7 and 8)"
no_leftovers "bad launches" bad

# ---- the base the profile was taken at ----------------------------------
sp profile --model "$H100" --out b64 --base 64cu/1980/2619 --import "$P/h100-example-ncu.csv"
expect_error "base SM count" 2 "profiled on 132 SMs" "launch__sm_count"
no_leftovers "base SM count" b64
# An H100's profile (HBM3 at 2619 MHz) written at the H200's base of the
# model of both cards would be predicted as the wrong memory system.
HH=$SP_TOP_BUILDDIR/models/h100-h200
[ -f "$HH/manifest.txt" ] || HH=$sp_here/../../models/h100-h200
sp profile --model "$HH" --out bmem --base 132cu/1980/3201 --import "$P/h100-example-ncu.csv"
expect_error "base memory clock" 2 "profiled with the memory at 2618 MHz, but the base configuration's is 3201 MHz" \
  "dram__cycles_elapsed.avg.per_second" "give the base of the card profiled on"
no_leftovers "base memory clock" bmem
sp profile --model "$HH" --out bmem --base 132cu/1980/2619 --import "$P/h100-example-ncu.csv"
expect_rc "the H100's base of the model of both cards" 0

# ---- not a profile; an existing --out ------------------------------------
sp profile --model "$H100" --out notp --import "$TRAIN/runs.csv"
expect_error "not a profile" 2 "neither an Nsight Compute raw CSV" "rocprofv3"
no_leftovers "not a profile" notp
# ---- a damaged profile is refused at its line (issue 26) -----------------
# A profile cut off mid-row (ncu killed, a full disk) or a row too long is
# never read as a smaller application; nor is a launch time that is not a
# positive number.
N=$P/h100-example-ncu.csv
head -n 12 "$N" | sed '$ s/\(,"[^"]*"\)\{5\}$//' >cut.csv
sp profile --model "$H100" --out cut --import cut.csv
expect_error "row cut off" 2 "cut.csv:12: row has 419 fields, the header 424"
no_leftovers "row cut off" cut
sed '10 s/$/,"7"/' "$N" >long.csv
sp profile --model "$H100" --out long --import long.csv
expect_error "row too long" 2 "long.csv:10: row has 425 fields, the header 424"
no_leftovers "row too long" long
col=$(sed -n 4p "$N" | tr ',' '\n' | grep -nx '"gpu__time_duration.sum"' | cut -d: -f1)
for t in 0 -1,024 nan inf n/a; do
  awk -v c="$col" -v t="$t" 'BEGIN { FS = OFS = "\",\"" } NR == 8 { $c = t } { print }' "$N" >time.csv
  sp profile --model "$H100" --out time --import time.csv
  expect_error "launch time $t" 2 "time.csv:8:$col: field 'gpu__time_duration.sum': '$t' is not a launch time"
  no_leftovers "launch time $t" time
  rm -rf time
done
R=$P/rocprofv3-counters.csv
sed '5 s/,[0-9]*$//' "$R" >roc-cut.csv
sp profile --model hd7970-synth --out rc --import roc-cut.csv
expect_error "rocprofv3 row cut off" 2 "roc-cut.csv:5: row has 18 fields, the header 19"
sed '5 s/,[0-9]*$/,1999999/' "$R" >roc-time.csv
sp profile --model hd7970-synth --out rc --import roc-time.csv
expect_error "rocprofv3 end before start" 2 \
  "roc-time.csv:5:19: field 'End_Timestamp': '1999999' is not after Start_Timestamp 2000000"
no_leftovers "rocprofv3 damaged" rc

mkdir keep && echo mine >keep/file
sp profile --model "$H100" --out keep --import "$P/h100-example-ncu.csv"
expect_error "existing --out" 1 "already exists"
[ "$(cat keep/file)" = mine ] || fail "existing --out touched"

# ---- rocprofv3, with a model whose counters have AMD metrics -------------
sed '1s/sq.valu_busy/VALUBusy/; 1s/ta.mem_busy/MemUnitBusy/; 1s/tcp.hit.rate/CacheHit/' \
  "$TRAIN/counters.csv" >amd-counters.csv
sp train --runs "$TRAIN/runs.csv" --counters amd-counters.csv --base $BASE --out amd-model
expect_rc "train amd-named model" 0
sp profile --model amd-model --out roc --import "$P/rocprofv3-counters.csv"
expect_rc "import rocprofv3" 0
expect_out "import rocprofv3" "5 kernel launches as 3 entries"
grep -qF '"void scale<float, 2>(float*, int) [grid 1048576 block 256]",32,1000,1375,0.26,' roc/runs.csv ||
  fail "rocprofv3 median time: $(cat roc/runs.csv)"
grep -qF '"void scale<float, 2>(float*, int) [grid 1048576 block 256]",32,1000,1375,62.125,22.875,80.125' \
  roc/counters.csv || fail "rocprofv3 counters of the median launch: $(cat roc/counters.csv)"
grep -qF '"kernel ""q"", v2",1,0.4,0.4,' roc/launches.csv || fail "quoted name: $(cat roc/launches.csv)"
sp predict --model amd-model --profile roc --target all --format csv
expect_rc "predict rocprofv3 profile" 0
expect_out "predict rocprofv3 profile" "(application),"
# The synthetic HD 7970 model needs counters rocprofv3 has no metric for.
sp profile --model hd7970-synth --out roc2 --import "$P/rocprofv3-counters.csv"
expect_error "rocprofv3 for hd7970-synth" 2 "Occupancy (no amd metric gives it)" "VIPC"
no_leftovers "rocprofv3 for hd7970-synth" roc2

# ---- running the program under a stand-in ncu ---------------------------
mkdir bin
cat >bin/ncu <<'NCU'
#!/bin/sh
# Stand-in for Nsight Compute: records its arguments, writes $FAKE_NCU's
# output as the --log-file, runs the program after the options.
echo "$*" >"$FAKE_ARGS"
. "$NCU_OPTIONS"
case $FAKE_NCU in
perm) echo "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0." >"$log" ;;
none) echo "==WARNING== No kernels were profiled." >"$log" ;;
*) cp "$FAKE_NCU" "$log" ;;
esac
"$@"
status=$?
[ $status -eq 0 ] || echo "==ERROR== The application returned an error code ($status)." >>"$log"
exit $status
NCU
chmod +x bin/ncu
FAKE_ARGS=$WORK/args
export FAKE_ARGS
# The base pass alone (the second pass is tests/cli/profile_second.sh's).
FAKE_NCU=$P/h100-example-ncu.csv PATH=$WORK/bin:$PATH sp profile --model "$H100" --out run1 \
  --second-sms none -- true
expect_rc "run under ncu" 0
expect_out "run under ncu" "24 kernel launches as 6 entries"
for want in "--clock-control none" "--csv" "--page raw" "--print-units base" \
  "smsp__inst_executed.sum" "gpu__time_duration.sum" "launch__sm_count"; do
  grep -qF -- "$want" args || fail "ncu not asked for '$want': $(cat args)"
done
cmp -s run1/runs.csv prof/runs.csv || fail "run and import differ"
# The profiler's output is a temporary file: profile.txt and errors name
# it by what it is.
grep -qx "source: ncu's output for 'true'" run1/profile.txt || fail "run: source: $(cat run1/profile.txt)"
FAKE_NCU=$WORK/kb.csv PATH=$WORK/bin:$PATH sp profile --model "$H100" --out run6 --second-sms none -- true
expect_error "run: scaled units" 2 "ncu's output for 'true':5:" "unit 'Kbyte/second'"
no_leftovers "run: scaled units" run6
# A profiler that is not ncu: the profiler blamed, not the program.
sp profile --model "$H100" --out run7 --profiler /bin/true -- true
expect_error "a profiler that writes nothing" 4 "the profiler '/bin/true' ended without writing a profile"
sp profile --model "$H100" --out run7 --profiler /bin/false -- true
expect_error "a profiler that fails" 4 "the profiler '/bin/false' failed (exit status 1) and its log names no error of 'true'"
sp profile --model "$H100" --out run7 --profiler "$WORK" -- true
expect_error "a directory as the profiler" 4 "the profiler '$WORK' was not found or is not a program"
no_leftovers "profilers that are not ncu" run7
# --second-sms acts on a program run under ncu only.
sp profile --model "$H100" --out run8 --import "$P/h100-example-ncu.csv" --second-sms 64
expect_rc "--second-sms with --import" 1
grep -qF -- "--second-sms applies when profile runs the program under ncu, not to --import" "$WORK/err" ||
  fail "--second-sms with --import: $(cat "$WORK/err")"
sp profile --model "$H100" --out run8 --vendor amd --second-sms 64 -- true
expect_rc "--second-sms with --vendor amd" 1
grep -qF -- "not to --vendor amd" "$WORK/err" || fail "--second-sms with --vendor amd: $(cat "$WORK/err")"
no_leftovers "--second-sms without ncu" run8
FAKE_NCU=perm PATH=$WORK/bin:$PATH sp profile --model "$H100" --out run2 -- true
expect_error "counters not permitted" 4 "ERR_NVGPUCTRPERM" "NVreg_RestrictProfilingToAdminUsers=0"
no_leftovers "counters not permitted" run2
FAKE_NCU=$P/h100-example-ncu.csv PATH=$WORK/bin:$PATH sp profile --model "$H100" --out run3 -- false
expect_error "program fails" 4 "'false' failed under ncu (exit status 1)" "nothing written"
no_leftovers "program fails" run3
FAKE_NCU=none PATH=$WORK/bin:$PATH sp profile --model "$H100" --out run4 -- true
expect_error "no kernel" 2 "launched no GPU kernel"
no_leftovers "no kernel" run4
sp profile --model "$H100" --out run5 --profiler no-such-ncu -- true
expect_error "no ncu" 4 "'no-such-ncu' was not found on PATH" "Nsight Compute"
no_leftovers "no ncu" run5
# An Nsight Compute report is read through 'ncu --import FILE --csv --page raw'.
echo "a report" >app.ncu-rep
FAKE_NCU=$P/h100-example-ncu.csv PATH=$WORK/bin:$PATH sp profile --model "$H100" --out rep1 \
  --import app.ncu-rep
expect_rc "import .ncu-rep" 0
for want in "--import app.ncu-rep" "--csv" "--page raw" "--print-units base"; do
  grep -qF -- "$want" args || fail "import .ncu-rep: ncu not asked for '$want': $(cat args)"
done
cmp -s rep1/runs.csv prof/runs.csv || fail "import .ncu-rep and import of its CSV differ"
sp profile --model "$H100" --out rep2 --profiler no-such-ncu --import app.ncu-rep
expect_error "import .ncu-rep without ncu" 4 "'no-such-ncu' was not found on PATH"
no_leftovers "import .ncu-rep without ncu" rep2
# AMD: the program under a stand-in rocprofv3, which writes the recorded
# counter CSV where rocprofv3 would (-d DIR -o NAME: DIR/NAME_counter_collection.csv).
cat >bin/rocprofv3 <<'ROC'
#!/bin/sh
echo "$*" >"$FAKE_ARGS"
dir=. name=run
while [ $# -gt 0 ]; do
  case $1 in
  -d) dir=$2; shift 2 ;;
  -o) name=$2; shift 2 ;;
  --) shift; break ;;
  *) shift ;;
  esac
done
[ "$FAKE_ROC" = none ] || cp "$FAKE_ROC" "$dir/${name}_counter_collection.csv"
"$@"
ROC
chmod +x bin/rocprofv3
FAKE_ROC=$P/rocprofv3-counters.csv PATH=$WORK/bin:$PATH sp profile --model amd-model \
  --out roc-run --vendor amd -- true
expect_rc "run under rocprofv3" 0
for want in "--pmc" "--kernel-trace" "--output-format csv" "-- "; do
  grep -qF -- "$want" args || fail "rocprofv3 not asked for '$want': $(cat args)"
done
cmp -s roc-run/counters.csv roc/counters.csv || fail "rocprofv3 run and import differ"
FAKE_ROC=$P/rocprofv3-counters.csv PATH=$WORK/bin:$PATH sp profile --model amd-model \
  --out roc-fail --vendor amd -- false
expect_error "program fails under rocprofv3" 4 "'false' failed under rocprofv3 (exit status 1)"
no_leftovers "program fails under rocprofv3" roc-fail
FAKE_ROC=none PATH=$WORK/bin:$PATH sp profile --model amd-model --out roc-none --vendor amd -- true
expect_error "no kernel under rocprofv3" 2 "launched no GPU kernel that rocprofv3 could profile"
no_leftovers "no kernel under rocprofv3" roc-none
sp profile --model amd-model --out roc-missing --vendor amd --profiler no-such-rocprof -- true
expect_error "no rocprofv3" 4 "'no-such-rocprof' was not found on PATH" "rocprofiler-sdk"
sp profile --model amd-model --out roc-bad --vendor intel -- true
expect_rc "--vendor intel" 1

sp profile --model "$H100" --out run6
expect_rc "neither" 1
grep -qF "either --import FILE or -- PROGRAM" "$WORK/err" || fail "neither: $(cat "$WORK/err")"

# ---- info and models -----------------------------------------------------
sp models
expect_rc "models" 0
expect_out "models" "h100-sm " "hd7970-synth "
# The model's kernels are its training set's (training/data/h100-train).
ntrain=$(tail -n +2 "${SP_TOP_SRCDIR:-$sp_here/../..}/training/data/h100-train/families.csv" | wc -l)
sp info --model h100-sm
expect_rc "info" 0
expect_out "info" "base 132cu/1980/2619" "cu       8 16 24 32 40 48 56 64 80 96 112 128 132" \
  "methods: wu2015 physet (recommended: physet)" "training kernels: $ntrain:" \
  "valu_insts_pct (Table II: VALUInsts)" "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active" \
  "nvidia metrics to collect: "
# The harness asks ncu for every metric of the same table (its own list,
# training/runner/ncu-metrics.txt; the clocks are profile's alone).
for m in $(sed -n 's/^nvidia metrics to collect: //p' "$WORK/out" | tr ',' ' '); do
  case $m in *cycles_elapsed.avg.per_second) continue ;; esac
  grep -qx -- "$m" "$sp_here/../../training/runner/ncu-metrics.txt" ||
    fail "ncu-metrics.txt lacks $m"
done
sp info --model no-such-model
expect_error "unknown model" 3 "no-such-model/manifest.txt" "scalepredict models"
finish
