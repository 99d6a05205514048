# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# shellcheck disable=SC2034 # variables for the tests that source this file
# lib.sh: setup shared by tests/dse/*.sh on top of tests/cli/lib.sh: a model
# trained on the hand-made fixtures of tests/data (three exact scaling
# classes, see its README), and a comma-decimal locale when one can be had.

# shellcheck source=../cli/lib.sh
. "$(cd "$(dirname "$0")/../cli" && pwd)/lib.sh"
GOLDEN=$sp_here/golden
# tests/cli/lib.sh sets sp_here to this script's directory.
SP_TEST_DATA=${SP_TEST_DATA:-$sp_here/../data}
NEW=$SP_TEST_DATA/new
TRAIN=$SP_TEST_DATA/train

MODEL=$WORK/model
"$SCALEPREDICT" train --quiet --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" \
  --base "$BASE" --clusters 3 --seed 1 --out "$MODEL" || { echo "training failed" >&2; exit 1; }

# The fixture's counters are not the reactive policy's defaults.
LOADS=sq.valu_busy,ta.mem_busy

# same_as_golden WHAT FILE GOLDEN: FILE equals GOLDEN byte for byte.  With
# SP_GOLDEN_UPDATE=1 in the environment it rewrites GOLDEN from FILE instead,
# for a change that alters an output on purpose (review the diff).
same_as_golden() {
  if [ -n "${SP_GOLDEN_UPDATE:-}" ]; then
    cp "$2" "$GOLDEN/$3"
    return 0
  fi
  if ! cmp -s "$2" "$GOLDEN/$3"; then
    fail "$1: $2 differs from golden/$3"
    diff "$GOLDEN/$3" "$2" | head -20 >&2
  fi
}

# expect_usage WHAT PATTERN: the last command was a usage error: status 1,
# "scalepredict: ...PATTERN..." and the --help hint on stderr, no output.
expect_usage() {
  expect_rc "$1" 1 || return 1
  head -n 1 "$WORK/err" | grep -qF -- "$2" || fail "$1: stderr lacks '$2': $(cat "$WORK/err")"
  grep -q "^Try 'scalepredict .*--help'" "$WORK/err" || fail "$1: no --help hint"
  [ ! -s "$WORK/out" ] || fail "$1: unexpected output"
}

# comma_locale: sets COMMA_LOCALE (and LOCPATH when it had to build one) to a
# locale whose decimal separator is ','; returns 1 when there is none.
comma_locale() {
  for l in de_DE.UTF-8 de_DE.utf8 fr_FR.UTF-8; do
    if [ "$(LC_ALL=$l /usr/bin/printf '%.1f' 1.5 2>/dev/null)" = "1,5" ]; then
      COMMA_LOCALE=$l
      return 0
    fi
  done
  command -v localedef >/dev/null 2>&1 || return 1
  mkdir -p "$WORK/locales"
  localedef -i de_DE -f UTF-8 "$WORK/locales/de_DE.UTF-8" >/dev/null 2>&1 || return 1
  LOCPATH=$WORK/locales
  export LOCPATH
  COMMA_LOCALE=de_DE.UTF-8
  [ "$(LC_ALL=$COMMA_LOCALE /usr/bin/printf '%.1f' 1.5 2>/dev/null)" = "1,5" ]
}
