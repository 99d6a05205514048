#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# profile_signals.sh (issue 26, item 7): `scalepredict profile -- PROGRAM`
# interrupted.  The profiler runs in a process group of its own; SIGTERM
# and SIGHUP sent to scalepredict are passed on to that group, which is
# waited for (and killed when it ignores the signal), then the temporary
# folder is removed and the tool dies of the signal.  A stand-in profiler
# (--profiler PATH) starts a child and waits for it, as ncu waits for the
# user's program; the test checks that both are gone, that the private
# TMPDIR is empty and that --out was not created.  Where `script` gives a
# terminal, Ctrl-C there reaches the profiler's group (which holds the
# terminal while it runs, so that a program reading it is not stopped).
. "${srcdir:-.}/cli/lib.sh"

mkdir bin tmp
cat >bin/profiler <<'EOF'
#!/bin/sh
# Stand-in profiler: records its pid and its child's, waits for the child.
echo $$ >>"$FAKE_PIDS"
[ "${FAKE_IGNORE:-}" = TERM ] && trap '' TERM
sleep 300 &
echo $! >>"$FAKE_PIDS"
wait
EOF
chmod +x bin/profiler
FAKE_PIDS=$WORK/pids
export FAKE_PIDS

# alive PID: the process exists and is not a zombie.
alive() {
  if [ -d /proc ]; then
    [ -r "/proc/$1/stat" ] && [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" != Z ]
  else
    kill -0 "$1" 2>/dev/null
  fi
}

# started: the stand-in profiler and its child are running (their pids
# recorded); gives up after 10 s.
started() {
  for _ in $(seq 1 200); do
    [ -f pids ] && [ "$(wc -l <pids)" -ge 2 ] && return 0
    sleep 0.05
  done
  return 1
}

# gone WHAT: no recorded process runs, TMPDIR is empty, no --out.
gone() {
  [ -f pids ] || : >pids
  while read -r p; do
    if alive "$p"; then
      fail "$1: process $p ($(cut -d' ' -f2 "/proc/$p/stat" 2>/dev/null)) still runs"
      kill -KILL "$p" 2>/dev/null
    fi
  done <pids
  [ -z "$(ls -A tmp)" ] || fail "$1: left in TMPDIR: $(ls -A tmp)"
  rm -rf tmp/*
  no_leftovers "$1" out
}

# interrupt SIGNAL STATUS: profile under the stand-in, SIGNAL once it runs;
# scalepredict must end with STATUS (128 + the signal).
interrupt() {
  rm -f pids
  TMPDIR=$WORK/tmp "$SCALEPREDICT" profile --model h100-sm --out out \
    --profiler "$WORK/bin/profiler" -- /bin/true >/dev/null 2>"err.$1" &
  pid=$!
  if started; then
    kill "-$1" "$pid"
  else
    fail "$1: the stand-in profiler did not start: $(cat "err.$1")"
    kill -KILL "$pid"
  fi
  wait "$pid"
  status=$?
  [ "$status" -eq "$2" ] || fail "SIG$1: exit status $status, want $2: $(cat "err.$1")"
  gone "SIG$1"
}

# ignored N: signal N is ignored in this shell, so in everything it
# starts (nohup ignores SIGHUP; a non-interactive shell's `cmd &` ignores
# SIGINT).  The tool keeps an ignored signal ignored, as it must, so those
# cases cannot be run here: said, not failed.  The mask is SigIgn in /proc.
ignored() {
  m=$(awk '/^SigIgn:/ { print $2 }' "/proc/$$/status" 2>/dev/null) || return 1
  [ -n "$m" ] && [ $((0x$m >> ($1 - 1) & 1)) -eq 1 ]
}
skipped() { echo "profile_signals: signal $1 is ignored where the test runs: $2 not exercised" >&2; }

if ignored 15; then skipped 15 "SIGTERM"; else
  interrupt TERM 143
  # A profiler that ignores SIGTERM is killed after the grace period (5 s).
  FAKE_IGNORE=TERM interrupt TERM 143
fi
if ignored 1; then skipped 1 "SIGHUP"; else interrupt HUP 129; fi

# ---- on a terminal: Ctrl-C, and a profiled program that reads it --------
if ignored 2; then
  skipped 2 "Ctrl-C"
elif command -v script >/dev/null 2>&1 && script -qec true /dev/null </dev/null >/dev/null 2>&1; then
  cat >bin/reader <<'EOF'
#!/bin/sh
# Stand-in profiler that reads a line from the terminal.
read -r line
echo "$line" >"$FAKE_LINE"
EOF
  chmod +x bin/reader
  rm -f pids status
  run="TMPDIR=$WORK/tmp '$SCALEPREDICT' profile --model h100-sm --out out"
  {
    started && printf '\003'
    for _ in $(seq 1 400); do [ -s status ] && break; sleep 0.05; done
  } | script -qec "$run --profiler '$WORK/bin/profiler' -- /bin/true; echo \$? >status" \
    /dev/null >/dev/null 2>&1
  [ "$(cat status 2>/dev/null)" = 130 ] || fail "Ctrl-C: exit status '$(cat status 2>/dev/null)', want 130"
  gone "Ctrl-C"
  FAKE_LINE=$WORK/line
  export FAKE_LINE
  rm -f status
  {
    sleep 1
    echo hello
    for _ in $(seq 1 200); do [ -s status ] && break; sleep 0.05; done
  } | script -qec "$run --profiler '$WORK/bin/reader' -- /bin/true; echo \$? >status" \
    /dev/null >/dev/null 2>&1
  [ "$(cat line 2>/dev/null)" = hello ] || fail "the profiled program could not read the terminal"
else
  echo "no 'script' to give a terminal: Ctrl-C not exercised" >&2
fi
finish
