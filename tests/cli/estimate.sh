#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# estimate.sh: scalepredict estimate (issue 14, item 2).  Fixtures in
# tests/data/static/: tiny.ptx, a hand-written kernel whose features are
# counted by hand below; app.ptx, nvcc's PTX of the profile example
# (docs/examples/profile/app.cu); train-counters.csv, static counters for
# the nine kernels of tests/data/train (tests/data/README.md).
. "${srcdir:-.}/cli/lib.sh"
S=$SP_TEST_DATA/static

# ---- the features of tiny.ptx, counted by hand ----------------------------
# Ten instructions: ld.param.u64, cvta.to.global.u64, ld.global.f32, then
# the loop add.f32, st.shared.f32, bar.sync, setp.lt.f32, @%p1 bra (five
# instructions, weighted 8 each), then st.global.f32 and ret.
sp estimate --features --kernel tiny "$S/tiny.ptx"
expect_rc "features" 0
for want in ld,2 st,2 f32,5 global,3 shared,1 param,1 u64,2 add,1 bar,1 setp,1 bra,1 ret,1 \
  cvta,1 fma,0 inst,10 loops,1 inst_thread,45 arith_f32,16 arith_int,0 ld_global,1 st_global,1 \
  ld_shared,0 st_shared,8 ld_param,1 barrier,8 branch,8 regs,9 shared_static_bytes,512; do
  grep -qx "$want" "$WORK/out" || fail "features: want $want, have $(grep "^${want%,*}," "$WORK/out")"
done
# Every feature name once: a counters file of them must load (tex, the
# opcode part, and ld_tex, the weighted texture count, once clashed).
dup=$(cut -d, -f1 "$WORK/out" | sort | uniq -d)
[ -z "$dup" ] || fail "features: names printed twice: $dup"
sp estimate --features --kernel tiny --grid 30,2 --block 128 --shared 256 "$S/tiny.ptx"
for want in grid_blocks,60 block_threads,128 threads,7680 dyn_shared_bytes,256 shared_bytes,768; do
  grep -qx "$want" "$WORK/out" || fail "launch: want $want"
done

# The profile example's reduce, by its function name (its entry is mangled).
sp estimate --features --kernel reduce "$S/app.ptx"
expect_rc "reduce" 0
for want in bar,2 atom,1 shared_static_bytes,1024 loops,2 barrier,9; do
  grep -qx "$want" "$WORK/out" || fail "reduce: want $want"
done

# ---- a CUDA binary: the module of its embedded PTX that holds the kernel ----
# A stand-in cuobjdump prints what the real one prints for a fat binary of
# two PTX modules; below, the real one where nvcc and cuobjdump are installed.
cat >cuobjdump <<'STANDIN'
#!/bin/sh
[ "$1" = -ptx ] && [ -f "$2" ] || { echo "stand-in cuobjdump: want -ptx FILE" >&2; exit 1; }
for f in $SP_TEST_MODULES; do
  printf '\nFatbin ptx code:\n================\narch = sm_90\ncode version = [8,8]\nhost = linux\ncompile_size = 64bit\n\n'
  cat "$f"
done
STANDIN
chmod +x cuobjdump
printf '\177ELF\002\001\001\000' >app.bin
CUOBJDUMP=$PWD/cuobjdump SP_TEST_MODULES="$S/tiny.ptx $S/app.ptx"
export CUOBJDUMP SP_TEST_MODULES
sp estimate --features --kernel reduce "$S/app.ptx"
cp "$WORK/out" reduce-from-ptx.csv
sp estimate --features --kernel reduce app.bin
expect_rc "binary: reduce" 0
cmp -s "$WORK/out" reduce-from-ptx.csv || fail "binary: reduce's features differ from its PTX's"
sp estimate --features --kernel tiny --grid 30,2 --block 128 app.bin
expect_rc "binary: tiny" 0
grep -qx "grid_blocks,60" "$WORK/out" || fail "binary: tiny (the first module) lacks grid_blocks,60"
sp estimate --features --kernel nope app.bin
expect_error "binary: missing kernel" 2 "no kernel 'nope'" "app.bin (cuobjdump -ptx, module 2)"
SP_TEST_MODULES=''
sp estimate --features --kernel reduce app.bin
expect_error "binary without PTX" 2 "app.bin holds no PTX" "nvcc -arch=sm_90"
CUOBJDUMP=$WORK/no-such-cuobjdump
sp estimate --features --kernel reduce app.bin
expect_error "no cuobjdump" 2 "cannot run '$WORK/no-such-cuobjdump'" "set CUOBJDUMP"
unset CUOBJDUMP SP_TEST_MODULES

# With the CUDA toolkit: the profile example built as a fat binary (sm_90
# code and compute_90 PTX) reads as its source does.
TOP=${SP_TOP_SRCDIR:-$sp_here/../..}
APP=$TOP/docs/examples/profile/app.cu
if command -v nvcc >/dev/null 2>&1 && command -v cuobjdump >/dev/null 2>&1 && [ -f "$APP" ]; then
  nvcc -I "$TOP/greenctx" -arch=sm_90 -fatbin -o app.fatbin "$APP" 2>nvcc.err ||
    fail "nvcc -fatbin: $(cat nvcc.err)"
  sp estimate -I "$TOP/greenctx" --features --kernel reduce "$APP"
  cp "$WORK/out" reduce-from-cu.csv
  sp estimate --features --kernel reduce app.fatbin
  expect_rc "fatbin: reduce" 0
  cmp -s "$WORK/out" reduce-from-cu.csv || fail "fatbin: reduce's features differ from its source's"
else
  echo "estimate.sh: no nvcc and cuobjdump: the real fat binary is not tried" >&2
fi

# With nvcc: every kernel of the profile example estimates from the PTX of
# nvcc -lineinfo and -G too (line directives, debug sections, call
# sequences), and -lineinfo gives the same features as plain PTX.
if command -v nvcc >/dev/null 2>&1 && [ -f "$APP" ]; then
  for v in plain lineinfo G; do
    flag=
    [ "$v" = plain ] || flag=-$v
    # shellcheck disable=SC2086
    nvcc -I "$TOP/greenctx" -arch=sm_90 $flag --ptx -o "app-$v.ptx" "$APP" 2>nvcc.err ||
      fail "nvcc --ptx $flag: $(cat nvcc.err)"
  done
  sed -n 's/^\.visible \.entry \([A-Za-z0-9_]*\)(.*/\1/p' app-plain.ptx >entries
  [ -s entries ] || fail "no .entry in nvcc's PTX"
  while read -r k; do
    for v in plain lineinfo G; do
      sp estimate --features --kernel "$k" "app-$v.ptx"
      expect_rc "nvcc PTX ($v): $k" 0 && cp "$WORK/out" "$k-$v.csv"
    done
    cmp -s "$k-plain.csv" "$k-lineinfo.csv" || fail "nvcc -lineinfo: $k's features differ"
  done <entries
else
  echo "estimate.sh: no nvcc: its -lineinfo and -G PTX are not tried" >&2
fi

# ---- errors ------------------------------------------------------------------
sp estimate --features --kernel nope "$S/app.ptx"
expect_error "missing kernel" 2 "no kernel 'nope'" "_Z6reducePKfPfi" "app.ptx"
sp estimate --features --kernel poly2 "$S/app.ptx"
expect_error "missing kernel 2" 2 "no kernel 'poly2'"
sed 's/^\tbar.sync \t0;/\tbar..sync 0;/' "$S/tiny.ptx" >bad-opcode.ptx
sp estimate --features --kernel tiny bad-opcode.ptx
expect_error "malformed opcode" 2 "bad-opcode.ptx:24:" "malformed opcode"
sed '/^}/d' "$S/tiny.ptx" >no-brace.ptx
sp estimate --features --kernel tiny no-brace.ptx
expect_error "unclosed body" 2 "no-brace.ptx:12:" "no closing '}'"
sed 's/^\tret;/\tret/' "$S/tiny.ptx" >no-semicolon.ptx
sp estimate --features --kernel tiny no-semicolon.ptx
expect_error "no semicolon" 2 "no-semicolon.ptx:28:"
# An opcode that is no PTX instruction, and a ';' left out inside a body, a
# declaration or at module scope (the statement ran on into the next one),
# are refused at their line and column (issue 26).
sed 's/^\tbar.sync \t0;/\tbarr.sync \t0;/' "$S/tiny.ptx" >unknown-opcode.ptx
sp estimate --features --kernel tiny unknown-opcode.ptx
expect_error "unknown opcode" 2 "unknown-opcode.ptx:24:2: unknown opcode (not a PTX instruction) 'barr.sync'"
sed 's/^\tadd.f32 \t%f2, %f1, %f1;/\tadd.f32 \t%f2, %f1, %f1/' "$S/tiny.ptx" >run-on.ptx
sp estimate --features --kernel tiny run-on.ptx
expect_error "no ';' inside the body" 2 "run-on.ptx:22:24: statement without ';'" \
  "'add.f32 %f2, %f1, %f1' runs on into the next line, which begins 'st.shared.f32 [buf], %f2;'"
sed 's/^\t.reg .f32 \t%f<3>;/\t.reg .f32 \t%f<3>/' "$S/tiny.ptx" >run-on-reg.ptx
sp estimate --features --kernel tiny run-on-reg.ptx
expect_error "no ';' after .reg" 2 "run-on-reg.ptx:14:18: statement without ';'"
sed 's/^\tret;/\tret/' "$S/tiny.ptx" | sed '$ a .visible .entry other()\n{\n\tret;\n}' >run-on-ret.ptx
sp estimate --features --kernel tiny run-on-ret.ptx
expect_error "no ';' after ret" 2 "run-on-ret.ptx:28:5: statement without ';'" "'ret' runs on"
sed '/^\.visible \.entry tiny/i .shared .align 4 .b8 gbuf[64]' "$S/tiny.ptx" >run-on-module.ptx
sp estimate --features --kernel tiny run-on-module.ptx
expect_error "no ';' at module scope" 2 "run-on-module.ptx:9:30: statement without ';'" \
  "'.shared .align 4 .b8 gbuf[64]' runs on"
# What nvcc -lineinfo and -G add: .file and .loc lines (no ';'), a debug
# .section of data lines; the features do not change.
{
  sed -e 's/^\.address_size 64$/&\n.file\t1 "tiny.cu"/' -e 's/^\t\([a-z@]\)/\t.loc\t1 7 3\n\t\1/' \
    "$S/tiny.ptx"
  printf '\t.section\t.debug_str\n\t{\n.b8 116 // t\n.b8 0\n\t}\n'
} >lineinfo.ptx
sp estimate --features --kernel tiny "$S/tiny.ptx"
cp "$WORK/out" tiny-features.csv
sp estimate --features --kernel tiny lineinfo.ptx
expect_rc "-lineinfo PTX" 0
cmp -s "$WORK/out" tiny-features.csv || fail "-lineinfo PTX: features differ from tiny.ptx's"
# Opcodes with "::" qualifiers, as nvcc writes them for sm_90 (async copies,
# fences, cluster shared memory), are instructions, not labels.
sed 's/^\tret;/\tcp.async.ca.shared.global.L2::128B [buf], [%rd2], 16;\n\tfence.proxy.async.shared::cta;\n&/' \
  "$S/tiny.ptx" >qualified.ptx
sp estimate --features --kernel tiny qualified.ptx
expect_rc "'::' qualifiers" 0
grep -qx "inst,12" "$WORK/out" || fail "'::' qualifiers: $(grep '^inst,' "$WORK/out")"
sed 's/%rd<3>/%rd<x>/' "$S/tiny.ptx" >bad-reg.ptx
sp estimate --features --kernel tiny bad-reg.ptx
expect_error "bad .reg" 2 "bad-reg.ptx:15:" ".reg"
sp estimate --features --kernel tiny "$S/does-not-exist.ptx"
expect_error "no file" 4 "does-not-exist.ptx"
sp estimate --kernel tiny --grid 1 "$S/tiny.ptx" --model x
expect_rc "no block" 1 && grep -qF -- "--grid and --block" "$WORK/err" || fail "no block: $(cat "$WORK/err")"
sp estimate --kernel tiny --grid 0 --block 1 --model x "$S/tiny.ptx"
expect_rc "zero grid" 1 && grep -qF -- "--grid: '0'" "$WORK/err" || fail "zero grid: $(cat "$WORK/err")"
# A launch no GPU takes is refused, not estimated.
for bad in "--block 1024,1024,64:more than the 1024 threads" "--block 2048:more than the 1024 threads" \
  "--grid 99999999999:more than any GPU launches" "--shared 99999999999999:more shared memory than any GPU"; do
  opt=${bad%%:*}
  # shellcheck disable=SC2086 # an option and its value
  sp estimate --kernel tiny --grid 1 --block 1 $opt --model x "$S/tiny.ptx"
  expect_rc "$opt" 1 && grep -qF -- "${bad#*:}" "$WORK/err" || fail "$opt: $(cat "$WORK/err")"
done

# ---- a static model and the estimate ----------------------------------------
sp train --runs "$TRAIN/runs.csv" --counters "$S/train-counters.csv" --base 32cu/1000/1375 \
  --out static-model --methods static --clusters 3 --quiet
expect_rc "train --methods static" 0
grep -q 'static' static-model/manifest.txt && [ -s static-model/method-static.txt ] ||
  fail "the model does not record the static method"
sp estimate --model static-model --kernel reduce --grid 1024 --block 256 "$S/app.ptx"
expect_rc "estimate" 0
expect_out "estimate" "STATIC ESTIMATE" "_Z6reducePKfPfi" "expected error"
for cfg in 32cu/1000/1375 32cu/1000/475 32cu/500/1375 32cu/500/475 16cu/1000/1375 \
  16cu/1000/475 16cu/500/1375 16cu/500/475; do
  grep -q "^$cfg " "$WORK/out" || fail "estimate: no row for $cfg"
done
sp estimate --model static-model --kernel reduce --grid 1024 --block 256 --format csv "$S/app.ptx"
expect_rc "estimate csv" 0
[ "$(grep -c '^reduce,.*,static,' "$WORK/out")" -eq 8 ] || fail "csv: not 8 rows: $(cat "$WORK/out")"
awk -F, 'NR > 1 && !($3 > 0) { exit 1 }' "$WORK/out" || fail "csv: a time is not positive"
sp estimate --model static-model --kernel reduce --grid 1024 --block 256 --format json "$S/app.ptx"
expect_rc "estimate json" 0
if have_python; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["estimate"]=="static"; assert len(d["predictions"])==8' \
    "$WORK/out" || fail "json: $(cat "$WORK/out")"
fi
# A larger launch of the same code is estimated slower.
sp estimate --model static-model --kernel reduce --grid 1024 --block 256 --format csv "$S/app.ptx"
small=$(grep '^reduce,32cu/1000/1375,' "$WORK/out" | cut -d, -f3)
sp estimate --model static-model --kernel reduce --grid 65536 --block 256 --format csv "$S/app.ptx"
large=$(grep '^reduce,32cu/1000/1375,' "$WORK/out" | cut -d, -f3)
awk -v s="$small" -v l="$large" 'BEGIN { exit !(l >= s) }' || fail "grid 65536 ($large) faster than 1024 ($small)"

# A model without the static method says how to get one.
sp train --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" --base 32cu/1000/1375 \
  --out plain-model --clusters 3 --quiet
sp estimate --model plain-model --kernel reduce --grid 1024 --block 256 "$S/app.ptx"
expect_error "no static method" 3 "no static method" "--methods static"
# Static training on counters without static features fails, naming why.
sp train --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" --base 32cu/1000/1375 \
  --out bad-model --methods static --clusters 3 --quiet
expect_rc "static without static counters" 2
grep -qF "static features" "$WORK/err" || fail "no reason: $(cat "$WORK/err")"

# A source without nvcc: the message says to give PTX.
printf '__global__ void k(float *x) { x[0] = 1; }\n' >k.cu
NVCC=/nonexistent/nvcc sp estimate --features --kernel k k.cu
expect_error "no nvcc" 2 "cannot run" "give a .ptx file"
finish
