#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ingest.sh: puts what one call of measure.sh brought back into this folder.
#
#   sh training/data/h200-train/ingest.sh CALL.tar.gz      (from the root)
#
# Refuses, changing nothing, when the call's runs.csv lacks a row this
# folder has (no measured row is ever dropped), or when any runner session
# in its metadata.txt ran on a card that is not an H200 (one card's rows
# are never labelled as the other's).  Then replaces runs.csv, details.csv,
# metadata.txt, counters.csv and the logs with the call's, adds its
# sessions/ (environment and idle floor), packs its raw ncu files into
# ncu-STAMP.tar.gz, and rebuilds idle-floor.csv from every session.
set -eu
tarball=${1:?usage: ingest.sh CALL.tar.gz}
here=training/data/h200-train
tmp=$(mktemp -d "${TMPDIR:-/tmp}/h200-ingest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tar xzf "$tarball" -C "$tmp"

if [ ! -f "$tmp/runs.csv" ]; then
  echo "ingest.sh: $tarball holds no runs.csv (a call that measured nothing?)" >&2
  exit 1
fi
if [ -f "$here/runs.csv" ]; then
  lost=$(sort "$tmp/runs.csv" | comm -23 "$(sort "$here/runs.csv" >"$tmp/old"; echo "$tmp/old")" - | wc -l)
  if [ "$lost" -ne 0 ]; then
    echo "ingest.sh: $tarball lacks $lost rows of $here/runs.csv; nothing changed" >&2
    exit 1
  fi
fi
if grep '^device:' "$tmp/metadata.txt" | grep -v 'H200' >"$tmp/other"; then
  echo "ingest.sh: $tarball has runner sessions on another card ($(sort -u "$tmp/other" | head -1)); nothing changed" >&2
  exit 1
fi
# Every row at the H200's memory clock (NVML's maximum there, 3201 MHz; the
# H100's is 2619): a row at another clock came from another card.  Such
# runs.csv rows refuse the call; an idle floor holding them (before
# measure.sh's fix of 2026-11-27, collect.sh seeded the H100 suite's rows
# into it and measured nothing) is left out with a warning.
off3201() { awk -F, 'FNR > 1 && $4 != 3201 { bad = 1; exit } END { exit !bad }' "$1"; }
if off3201 "$tmp/runs.csv"; then
  echo "ingest.sh: $tarball's runs.csv has rows not at 3201 MHz memory (another card's); nothing changed" >&2
  exit 1
fi
for f in "$tmp"/sessions/idle-*/runs.csv; do
  if [ -f "$f" ] && off3201 "$f"; then
    echo "ingest.sh: warning: ${f#"$tmp"/} is not an H200 floor (rows at another memory clock): left out" >&2
    rm -rf "${f%/runs.csv}"
  fi
done
if [ -f "$here/counters.csv" ] && [ -f "$tmp/counters.csv" ]; then
  lost=$(sort "$tmp/counters.csv" | comm -23 "$(sort "$here/counters.csv" >"$tmp/oldc"; echo "$tmp/oldc")" - | wc -l)
  if [ "$lost" -ne 0 ]; then
    echo "ingest.sh: $tarball lacks $lost rows of $here/counters.csv; nothing changed" >&2
    exit 1
  fi
fi

for f in runs.csv details.csv metadata.txt counters.csv call-log.txt sweep-log.txt counters-log.txt; do
  if [ -f "$tmp/$f" ]; then cp "$tmp/$f" "$here/$f"; fi
done
mkdir -p "$here/sessions"
for s in "$tmp"/sessions/*; do
  [ -e "$s" ] || continue
  cp -R "$s" "$here/sessions/"
done
for n in "$tmp"/ncu-*; do
  [ -d "$n" ] || continue
  tar czf "$here/${n##*/}.tar.gz" -C "$tmp" "${n##*/}"
done

# idle-floor.csv: every session's idle_spin rows, with the session's stamp.
{
  echo "session,kernel,cu,engine_mhz,memory_mhz,time_ms,power_w"
  for d in "$here"/sessions/idle-*; do
    [ -f "$d/runs.csv" ] || continue
    s=${d##*/idle-}
    tail -n +2 "$d/runs.csv" | sed "s/^/$s,/"
  done
} >"$tmp/idle-floor.csv"
mv "$tmp/idle-floor.csv" "$here/idle-floor.csv"
rows=$(($(wc -l <"$here/runs.csv") - 1))
entries=$(tail -n +2 "$here/runs.csv" | cut -d, -f1 | sort | uniq -c | awk '$1 >= 13' | wc -l)
echo "ingest.sh: $rows rows, $entries entries at all 13 levels"
