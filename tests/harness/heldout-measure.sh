#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The device scripts of a validation suite (training/heldout/measure.sh and
# first-check.sh), as far as they run without the card: measure.sh on a
# card other than the one asked for measures nothing, says so in its call
# log, packs that log as SUITE-CARD.tar.gz and exits 3, so that one card's
# rows are never filed as the other's; a name that is not a suite of the
# registry is refused by both (exit 2).  nvidia-smi is a stand-in that names
# an H100; nothing else of the device is needed.
. "${srcdir:-.}/lib.sh"
top=$SP_TOP_SRCDIR
[ -f "$top/training/heldout/measure.sh" ] || fail "no training/heldout/measure.sh in $top"
mkdir "$scratch/bin" "$scratch/out"
cat >"$scratch/bin/nvidia-smi" <<'SMI'
#!/bin/sh
echo "NVIDIA H100 80GB HBM3"
SMI
chmod +x "$scratch/bin/nvidia-smi"
suite=$(suites | awk -F '\t' 'NR == 1 { print $1 }')
[ -n "$suite" ] || fail "the registry lists no suite"

(cd "$top" && PATH=$scratch/bin:$PATH OUT=$scratch/out sh training/heldout/measure.sh "$suite" h200) \
  >"$scratch/log" 2>&1
rc=$?
[ "$rc" -eq 3 ] || fail "measure.sh on an H100 asked for h200: exit $rc, not 3: $(cat "$scratch/log")"
grep -q "the card is not an h200: nothing measured" "$scratch/out/h200/call-log.txt" ||
  fail "the call log does not say why nothing was measured"
[ ! -e "$scratch/out/h200/runs.csv" ] || fail "measure.sh wrote rows on the wrong card"
tar tzf "$scratch/out/$suite-h200.tar.gz" >"$scratch/packed" 2>/dev/null ||
  fail "no $suite-h200.tar.gz in \$OUT"
grep -qx "h200/call-log.txt" "$scratch/packed" || fail "the tarball lacks the call log"

for script in measure first-check; do
  (cd "$top" && PATH=$scratch/bin:$PATH OUT=$scratch/out sh training/heldout/$script.sh bogus h100) \
    >"$scratch/log" 2>&1
  rc=$?
  [ "$rc" -eq 2 ] || fail "$script.sh bogus: exit $rc, not 2"
  grep -q "bogus is not a suite of training/suites.txt" "$scratch/log" ||
    fail "$script.sh does not name the unknown suite: $(cat "$scratch/log")"
done
[ ! -e "$scratch/out/first-check" ] || fail "first-check.sh wrote output for an unknown suite"
exit 0
