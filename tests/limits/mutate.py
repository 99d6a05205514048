#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""mutate.py: the hostile mutation pass (issue 26; docs/reliability.md,
"Hostile mutation pass").

For every command and every input it reads (files, directories and option
values), takes the valid fixtures of the tests (tests/data, docs/examples,
the bundled models, and models and profiles made here by the tool under
test), writes N seeded mutants of each, runs scalepredict on every mutant
under a time limit, and fails on any sanitizer report, death by a signal, a
run past the limit (a hang), an exit status that --help does not document,
an error that is not one line "scalepredict: ...", output on standard
output next to an error, or an output file left behind by a failed command.

A mutant of a file stacks one to three of: byte flips, truncation,
duplicated, deleted and shuffled lines, the header moved, numbers replaced
by huge, tiny, negative, NaN, inf, malformed and at-the-bound values (one
field, or a whole column), 1 MiB and longer fields, NUL bytes and invalid
UTF-8, CRLF, CR, a BOM or UTF-16, fields added or removed, blank lines,
the file repeated, spliced or reduced to a few bytes; or the file is
replaced by an empty file, a directory, a FIFO nobody writes, /dev/zero,
/dev/urandom, /dev/null, a symlink loop, a dangling symlink or nothing.  A
model or profile directory has one file mutated (a model's checksums then
repaired most of the time, so that the parsers behind them are reached),
replaced by such a special file, or a file added; or the directory itself
is replaced.  An option's value becomes a hostile value, or the option is
dropped, repeated or left without its value.  Each input is first run as
it is (the control), which must succeed (or fail as its case says).

Usage: mutate.py --scalepredict BUILD/src/scalepredict --srcdir DIR [-n N] [options]
    (the fixtures come from DIR, the source tree: tests/data, docs/examples;
    the bundled models from BUILD/models, else DIR/models)
    -n N             mutants per input (default 30: a CI-sized run, about
                     1,900 runs, two minutes on two cores)
    --seed S         the pass's seed (default 1); the same seed, N and tree
                     give the same mutants
    --jobs J         runs at a time (default 2)
    --timeout T      seconds a run may take before it counts as a hang (20)
    --only PATTERN   only the inputs whose name (COMMAND:INPUT) holds PATTERN
    --keep DIR       where the mutants that failed are kept, each with the
                     command that ran it (default: ./mutate-failures)
    --list           print the inputs and exit
    --table FILE     also write the tables (per command, per input) there
    --log FILE       every run's outcome, one JSON object a line

scalepredict runs with ASan's allocator returning NULL past 1 GiB (the
tool must say it is out of memory) and a 2 GiB limit on its resident
memory (a report, so a crash: no input may need that much).

Mutant k of input I is made by random.Random("SEED:I:k") and nothing else,
so `--only I -n k+1` rebuilds it.  Exit status 0 when every run ended well,
1 when one did not, 2 on a usage or setup error.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# ---------------------------------------------------------------------------
# Hostile values

NUMBERS = [
    "0", "-0", "-1", "1", "0.0", "-0.0", "nan", "NaN", "-nan", "inf", "-inf",
    "Infinity", "1e308", "-1e308", "1.7976931348623157e308", "1e309", "-1e309",
    "1e-308", "2.2250738585072014e-308", "4.9e-324", "1e-320", "1e-400",
    "0x10", "0x1p3", "1e", "1e+", ".", "+", "-", "+-1", "--1", "1..5",
    "1.5.5", "1,5", " 1", "1 ", "\t1", "2147483647", "2147483648",
    "-2147483649", "4294967295", "4294967296", "9223372036854775807",
    "9223372036854775808", "18446744073709551616", "1e15", "1e16", "1e20",
    "1e21", "-1e20", "-1e21", "1e7", "1e-6", "1e-7", "100000", "100001",
    "99999999999999999999999999999999", "0.000000000000000000000001",
    "12abc", "1e99999", "٣", "１",
    # Just past the documented bounds (README, "Data formats"), and near
    # what a double holds.
    "9.99e-7", "1.0001e7", "0.001", "0.000999", "100000.5", "1e-9", "9e-10",
    "1.1e15", "1.0000001e20", "-1.0000001e20", "1e300", "1e-300",
]

ARG_VALUES = NUMBERS + [
    "", " ", "all", "middle", "none", ",", ",,,", "a,b", "a,,b", "1,", ",1",
    "1:2:3", "0:0:0", "1:1000000:1", "2:20:0", "20:2:2", "2:20:-2",
    "1/0", "0/0", "1/1", "3/2", "-1/2", "1/-2", "5/4", "0cu/0/0", "32cu/1000",
    "32cu/1000/1375/1", "32cu/1000/1375x", "32CU/1000/1375", "cu/1000/1375",
    "32cu//1375", "32cu/nan/1375", "32cu/inf/1375", "32cu/-1000/1375",
    "100001cu/1000/1375", "2147483648cu/1/1", "1e9cu/1/1", " 32cu/1000/1375",
    "a\nb", "\t", "%s%s%n%n", "../../../../etc/passwd", "/dev/zero",
    "/dev/null", "-", "--", "--help", "-x", "table", "csv", "json", "xml",
    "time", "power", "both", "energy", "edp", "ed2p", "wu2015", "physet",
    "static", "oracle", "reference,model,reactive,oracle,best-edp",
    "model,model", "gp", "shared", "adaptive", "random", "long", "wide",
]

BAD_UTF8 = [b"\xff", b"\xfe\xff", b"\xc3\x28", b"\xc0\xaf", b"\xed\xa0\x80",
            b"\xf4\x90\x80\x80", b"\xe2\x82", b"\x80", b"\xef\xbb\xbf"]

# ---------------------------------------------------------------------------
# Mutators of a file's bytes: each takes (rng, data) and returns new bytes.


# No mutant is larger (the readers' own limits are far below it).
MAX_MUTANT = 8 << 20


def lines_of(data):
    return data.splitlines(keepends=True) or [b""]


def pick_line(rng, lines, skip_header=False):
    lo = 1 if skip_header and len(lines) > 1 else 0
    return rng.randrange(lo, len(lines))


def m_flip(rng, data):
    if not data:
        return bytes([rng.randrange(256)])
    b = bytearray(data)
    for _ in range(rng.choice([1, 1, 2, 3, 8])):
        i = rng.randrange(len(b))
        if rng.random() < 0.5:
            b[i] ^= 1 << rng.randrange(8)
        else:
            b[i] = rng.choice(b',;"\n\r\x00 \t.-e0123456789\\%=#@\xff')
    return bytes(b)


def m_truncate(rng, data):
    return data[:rng.randrange(len(data) + 1)]


def m_dup_lines(rng, data):
    ls = lines_of(data)
    i = pick_line(rng, ls)
    line = ls[i] if ls[i].endswith(b"\n") else ls[i] + b"\n"
    return b"".join(ls[:i] + [line] * rng.choice([2, 2, 3, 100, 5000]) + ls[i + 1:])


def m_del_lines(rng, data):
    ls = lines_of(data)
    i = pick_line(rng, ls)
    n = rng.choice([1, 1, 2, len(ls)])
    return b"".join(ls[:i] + ls[i + n:])


def m_shuffle(rng, data):
    ls = lines_of(data)
    if ls and not ls[-1].endswith(b"\n"):
        ls[-1] += b"\n"
    head = ls[:1] if rng.random() < 0.7 else []
    rest = ls[len(head):]
    rng.shuffle(rest)
    return b"".join(head + rest)


def m_swap_header(rng, data):
    ls = lines_of(data)
    if len(ls) < 2:
        return data
    i = pick_line(rng, ls, True)
    ls[0], ls[i] = ls[i], ls[0]
    return b"".join(ls)


NUM_RE = re.compile(rb"-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?")


def m_number(rng, data):
    spans = [m.span() for m in NUM_RE.finditer(data)]
    if not spans:
        return data + rng.choice(NUMBERS).encode()
    out = data
    for _ in range(rng.choice([1, 1, 1, 2, 5])):
        spans = [m.span() for m in NUM_RE.finditer(out)]
        if not spans:
            break
        a, b = rng.choice(spans)
        out = out[:a] + rng.choice(NUMBERS).encode() + out[b:]
    return out


def m_column(rng, data):
    """One column of every row (or of some rows) set to one hostile value,
    the rest of the file left valid: what reaches the arithmetic."""
    ls = lines_of(data)
    if len(ls) < 2:
        return data
    ncols = ls[0].count(b",") + 1
    col = rng.randrange(ncols)
    v = rng.choice(NUMBERS).encode()
    every = rng.random() < 0.5
    out = [ls[0]]
    for line in ls[1:]:
        fields = line.rstrip(b"\r\n").split(b",")
        if (every or rng.random() < 0.3) and col < len(fields) and b'"' not in line:
            fields[col] = v
        out.append(b",".join(fields) + b"\n")
    return b"".join(out)


def m_all_numbers(rng, data):
    v = rng.choice(NUMBERS).encode()
    ls = lines_of(data)
    return ls[0] + NUM_RE.sub(lambda _m: v, b"".join(ls[1:]))


FIELD_RE = re.compile(rb'[^,\n\r"]+')


def m_long_field(rng, data):
    n = rng.choice([255, 256, 4096, 65536, 1048576, 1048577, 3 * 1048576])
    fill = rng.choice([b"k", b"9", b"\"", b",", b" ", b"\xc3\xa9"])
    blob = (fill * n)[:n]
    spans = [m.span() for m in FIELD_RE.finditer(data)]
    if not spans:
        return data + blob
    a, b = rng.choice(spans)
    return data[:a] + blob + data[b:]


def m_insert(rng, data):
    ins = rng.choice([b"\x00", b"\x00\x00", b"\"", b",", b",,,,", b"\r", b"\n",
                      b"\r\n", b"\\", b"#", b"%00", b"%ff", b"%", b"=", b" "] + BAD_UTF8)
    i = rng.randrange(len(data) + 1)
    return data[:i] + ins + data[i:]


def m_line_ends(rng, data):
    how = rng.choice(["crlf", "cr", "bom", "bom-crlf", "utf16", "no-final", "mixed"])
    if how == "crlf":
        return data.replace(b"\n", b"\r\n")
    if how == "cr":
        return data.replace(b"\n", b"\r")
    if how == "bom":
        return b"\xef\xbb\xbf" + data
    if how == "bom-crlf":
        return b"\xef\xbb\xbf" + data.replace(b"\n", b"\r\n")
    if how == "utf16":
        return b"\xff\xfe" + data.decode("latin-1").encode("utf-16-le")
    if how == "no-final":
        return data.rstrip(b"\n")
    return b"".join(l.replace(b"\n", b"\r\n") if rng.random() < 0.5 else l for l in lines_of(data))


def m_columns(rng, data):
    ls = lines_of(data)
    i = pick_line(rng, ls)
    line = ls[i].rstrip(b"\r\n")
    fields = line.split(b",")
    how = rng.randrange(5)
    if how == 0:
        fields.append(rng.choice([b"", b"x", b"1"]))
    elif how == 1 and len(fields) > 1:
        del fields[rng.randrange(len(fields))]
    elif how == 2:
        times = rng.choice([2, 1000, 100001 // max(1, len(fields)) + 1])
        fields = fields * max(1, min(times, MAX_MUTANT // max(1, len(line))))
    elif how == 3 and len(fields) > 1:
        j, k = rng.randrange(len(fields)), rng.randrange(len(fields))
        fields[j], fields[k] = fields[k], fields[j]
    else:
        fields[rng.randrange(len(fields))] = b""
    ls[i] = b",".join(fields) + b"\n"
    return b"".join(ls)


def m_blank(rng, data):
    ls = lines_of(data)
    i = pick_line(rng, ls)
    blank = rng.choice([b"\n", b" \n", b",\n", b",,,,,\n", b"\r\n", b"#\n", b"\"\"\n"])
    return b"".join(ls[:i] + [blank * rng.choice([1, 3, 100000])] + ls[i:])


def m_repeat(rng, data):
    ls = lines_of(data)
    body = b"".join(ls[1:]) if len(ls) > 1 else data
    if body and not body.endswith(b"\n"):
        body += b"\n"
    times = rng.choice([2, 10, 200])
    times = max(1, min(times, (4 << 20) // max(1, len(body))))
    return (ls[0] if len(ls) > 1 else b"") + body * times


def m_splice(rng, data):
    """The file's start, then its own tail from another point."""
    a = rng.randrange(len(data) + 1)
    b = rng.randrange(len(data) + 1)
    return data[:a] + data[b:]


def m_token_swap(rng, data):
    toks = FIELD_RE.findall(data)
    spans = [m.span() for m in FIELD_RE.finditer(data)]
    if not spans:
        return data
    a, b = rng.choice(spans)
    return data[:a] + rng.choice(toks) + data[b:]


def m_tiny(rng, data):
    return rng.choice([b"", b"\n", b"\x00", b",", b"\"", b"\xef\xbb\xbf", b"\r\n",
                       lines_of(data)[0], lines_of(data)[0].rstrip(b"\r\n")])


CONTENT_MUTATORS = [m_flip, m_flip, m_truncate, m_truncate, m_dup_lines, m_del_lines,
                    m_shuffle, m_swap_header, m_number, m_number, m_number, m_all_numbers,
                    m_column, m_column, m_column,
                    m_long_field, m_insert, m_insert, m_line_ends, m_columns, m_columns,
                    m_blank, m_repeat, m_splice, m_token_swap, m_tiny]


def mutate_bytes(rng, data):
    """One to three content mutations stacked; returns (bytes, names)."""
    names = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        f = rng.choice(CONTENT_MUTATORS)
        data = f(rng, data)[:MAX_MUTANT]
        names.append(f.__name__[2:])
    return data, names


# Special files put where an input is expected.
SPECIAL = ["empty", "directory", "fifo", "dev-zero", "dev-urandom", "dev-null",
           "symlink-loop", "dangling-symlink", "missing"]


def make_special(path, kind):
    if kind == "empty":
        open(path, "wb").close()
    elif kind == "directory":
        os.mkdir(path)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        os.symlink("/dev/zero", path)
    elif kind == "dev-urandom":
        os.symlink("/dev/urandom", path)
    elif kind == "dev-null":
        os.symlink("/dev/null", path)
    elif kind == "symlink-loop":
        os.symlink(os.path.basename(path) + ".loop", path)
        os.symlink(os.path.basename(path), path + ".loop")
    elif kind == "dangling-symlink":
        os.symlink(os.path.basename(path) + ".nowhere", path)
    elif kind != "missing":
        raise ValueError(kind)


def write_file_mutant(rng, src, dst, special_p=0.12):
    """Writes a mutant of the file src at dst; returns what was done."""
    if rng.random() < special_p:
        kind = rng.choice(SPECIAL)
        make_special(dst, kind)
        return [kind]
    with open(src, "rb") as f:
        data = f.read()
    data, names = mutate_bytes(rng, data)
    with open(dst, "wb") as f:
        f.write(data)
    return names


# ---------------------------------------------------------------------------
# Directories: a model (whose checksums the mutant may repair, so that what
# lies behind them is reached) or a profile.

SUM_RE = re.compile(rb"((?:network|file) (\S+) sha256 )([0-9a-f]{64}|-)")


def repair_model(d):
    """Sets every checksum of d/manifest.txt to what the files hold."""
    man = os.path.join(d, "manifest.txt")
    if not os.path.isfile(man) or os.path.islink(man):
        return

    def fix(m):
        f = os.path.join(d, m.group(2).decode("latin-1"))
        if m.group(3) == b"-" or not os.path.isfile(f):
            return m.group(0)
        with open(f, "rb") as fh:
            return m.group(1) + hashlib.sha256(fh.read()).hexdigest().encode()

    with open(man, "rb") as f:
        text = f.read()
    ls = lines_of(text)
    if ls and ls[-1].startswith(b"sha256 "):
        ls = ls[:-1]
    body = SUM_RE.sub(fix, b"".join(ls))
    if body and not body.endswith(b"\n"):
        body += b"\n"
    with open(man, "wb") as f:
        f.write(body + b"sha256 " + hashlib.sha256(body).hexdigest().encode() + b"\n")


def write_dir_mutant(rng, src, dst, kind):
    """A mutant of the directory src (kind 'model' or 'profile') at dst."""
    if rng.random() < 0.08:
        k = rng.choice(SPECIAL + ["file"])
        if k == "file":
            shutil.copy(os.path.join(src, "runs.csv" if kind == "profile" else "manifest.txt"), dst)
        else:
            make_special(dst, k)
        return ["whole:" + k]
    shutil.copytree(src, dst, symlinks=True)
    names = sorted(os.listdir(dst))
    if kind == "model":
        weights = [5 if n == "manifest.txt" else 2 if n.startswith("method-") else 1 for n in names]
    else:
        weights = [3 if n.endswith(".csv") and n != "profile-raw.csv" else 1 for n in names]
    victim = rng.choices(names, weights)[0]
    path = os.path.join(dst, victim)
    r = rng.random()
    if r < 0.1:
        os.unlink(path)
        make_special(path, rng.choice(SPECIAL))
        what = [victim + ":special"]
    elif r < 0.13:
        with open(os.path.join(dst, "extra.txt"), "w") as f:
            f.write("a file the user added\n")
        what = ["extra-file"]
    else:
        with open(path, "rb") as f:
            data = f.read()
        data, what = mutate_bytes(rng, data)
        os.unlink(path)
        with open(path, "wb") as f:
            f.write(data)
        what = [victim + ":" + "+".join(what)]
    if kind == "model" and rng.random() < 0.6:
        repair_model(dst)
        what.append("checksums-repaired")
    return what


# ---------------------------------------------------------------------------
# Option values


def mutate_value(rng, valid):
    """A hostile value for an option whose valid value is `valid` (bytes)."""
    how = rng.randrange(7)
    if how <= 1:
        return rng.choice(ARG_VALUES).encode()
    if how == 2:
        spans = [m.span() for m in NUM_RE.finditer(valid)]
        if spans:
            a, b = rng.choice(spans)
            return valid[:a] + rng.choice(NUMBERS).encode() + valid[b:]
        return valid + rng.choice(NUMBERS).encode()
    if how == 3:
        item = valid.split(b",")[0] or b"1"
        return b",".join([item] * rng.choice([2, 100, 20000 // (len(item) + 1)]))
    if how == 4:
        n = rng.choice([256, 4096, 100000])
        return (rng.choice([b"9", b"a", b",", b"/", b"1,"]) * n)[:n]
    if how == 5:
        i = rng.randrange(len(valid) + 1)
        return valid[:i] + rng.choice(BAD_UTF8 + [b",", b"/", b" ", b"\n", b"%n"]) + valid[i:]
    return m_flip(rng, valid).replace(b"\x00", b"")


def mutate_args(rng, argv, options):
    """argv with one option's value mutated, or an option dropped,
    repeated or left without its value."""
    argv = list(argv)
    idx = [i for i, a in enumerate(argv) if a.decode(errors="replace") in options and i + 1 < len(argv)]
    if not idx or rng.random() < 0.05:
        extra = rng.choice([[b"--bogus"], [b"--bogus", b"1"], [b"-"], [b"--"], [b"stray"],
                            [b"--help=x"], [b"-" * 4096], [mutate_value(rng, b"1")]])
        return argv + extra, ["extra " + extra[0][:40].decode(errors="replace")]
    i = rng.choice(idx)
    r = rng.random()
    name = argv[i].decode()
    if r < 0.8:
        argv[i + 1] = mutate_value(rng, argv[i + 1])
        return argv, [name + "=" + argv[i + 1][:40].decode(errors="replace")]
    if r < 0.87:
        return argv[:i] + argv[i + 2:], ["drop " + name]
    if r < 0.94:
        return argv + [argv[i], mutate_value(rng, argv[i + 1])], ["repeat " + name]
    return argv[:i] + argv[i + 2:] + [argv[i]], ["no value " + name]


# ---------------------------------------------------------------------------
# Fixtures: what the tests use, and small models trained here.


class Setup:
    def __init__(self, sp, src, work, env):
        self.sp, self.src, self.work, self.env = sp, src, work, env
        self.fx = os.path.join(work, "fixtures")
        os.makedirs(self.fx)
        self.data = os.path.join(src, "tests", "data")
        self.ex = os.path.join(src, "docs", "examples", "dse")
        # The bundled models: h100-sm is in the source tree, hd7970-synth
        # and its samples are built (into the build tree, out of tree).
        build = os.path.dirname(os.path.dirname(os.path.abspath(sp)))
        self.models = {}
        for name in ("h100-sm", "hd7970-synth", "hd7970-synth-samples"):
            for top in (build, src):
                d = os.path.join(top, "models", name)
                if os.path.isdir(d) and os.listdir(d):
                    self.models[name] = d
                    break
            if name not in self.models:
                raise RuntimeError("no models/%s in %s or %s (run make first)" % (name, build, src))

    def run(self, *args, **kw):
        r = subprocess.run([self.sp] + list(args), cwd=self.fx, env=self.env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600, **kw)
        if r.returncode != 0:
            raise RuntimeError("setup: scalepredict %s: exit %d: %s" %
                               (" ".join(args), r.returncode, r.stderr.decode(errors="replace")))
        return r

    def write(self, name, text):
        p = os.path.join(self.fx, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def build(self):
        d, fx = self.data, self.fx
        T, N = os.path.join(d, "train"), os.path.join(d, "new")
        base = "32cu/1000/1375"
        self.run("train", "--quiet", "--runs", T + "/runs.csv", "--counters", T + "/counters.csv",
                 "--base", base, "--clusters", "3", "--seed", "1", "--out", "model")
        self.run("train", "--quiet", "--runs", T + "/runs.csv", "--counters",
                 d + "/static/train-counters.csv", "--base", base, "--methods", "static",
                 "--clusters", "3", "--out", "static-model")
        with open(T + "/counters.csv") as f:
            amd = f.read().replace("sq.valu_busy", "VALUBusy", 1).replace(
                "ta.mem_busy", "MemUnitBusy", 1).replace("tcp.hit.rate", "CacheHit", 1)
        self.write("amd-counters.csv", amd)
        self.run("train", "--quiet", "--runs", T + "/runs.csv", "--counters", "amd-counters.csv",
                 "--base", base, "--clusters", "3", "--out", "amd-model")
        h100 = self.models["h100-sm"]
        self.run("profile", "--model", h100, "--out", "prof", "--import",
                 d + "/profile/h100-example-ncu.csv")
        self.run("profile", "--model", "amd-model", "--out", "roc", "--import",
                 d + "/profile/rocprofv3-counters.csv")
        # dse reads power, which ncu does not record: filled in, as docs/profile.md says.
        os.makedirs(os.path.join(fx, "profw"))
        for n in ("counters.csv", "launches.csv"):
            shutil.copy(os.path.join(fx, "prof", n), os.path.join(fx, "profw", n))
        with open(os.path.join(fx, "prof", "runs.csv")) as f:
            rows = f.read().splitlines()
        with open(os.path.join(fx, "profw", "runs.csv"), "w") as f:
            f.write("\n".join([rows[0]] + [r + "300" if r.endswith(",") else r
                                           for r in rows[1:]]) + "\n")
        self.write("trace.csv", "order,kernel\n" + "".join(
            "%d,%s\n" % (i + 1, k) for i, k in enumerate(
                ["fft"] * 4 + ['"stencil ""5pt"""'] * 4 + ["histogram"] * 4 +
                ["fft", '"stencil ""5pt"""', "histogram"])))
        self.write("trace-base.csv", "order,kernel,base_time_ms,base_power_w,sq.valu_busy,"
                   "ta.mem_busy,tcp.hit.rate\n1,fft,2.385,150.25,89.25,6.75,0.92\n"
                   "2,histogram,0.9,131,52.75,47.5,0.57\n3,fft,,,,,\n")
        self.write("weights.csv", 'kernel,weight\nfft,40\nhistogram,2.5\n"stencil ""5pt""",1e3\n')
        self.write("candidates.csv", "name,config\nbig,32cu/1000/1375\nsmall,16cu/500/475\n"
                   "mid,32cu/500/1375\n")
        self.write("candidates4.csv", "name,cu,engine_mhz,memory_mhz\nbig,32,1000,1375\n"
                   "small,16,500,475\n")
        import csv
        with open(T + "/runs.csv", newline="") as f:
            kernels = sorted({r["kernel"] for r in csv.DictReader(f)})
        with open(os.path.join(fx, "families.csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["kernel", "family"])
            for i, k in enumerate(kernels):
                w.writerow([k, "family%d" % (i % 3)])
        with open(T + "/runs.csv") as f:
            rows = f.read().splitlines()
        self.write("partial.csv", "\n".join(
            [rows[0]] + [r for r in rows[1:] if re.search(r",(32,1000,1375|16,500,475),", r)]) + "\n")
        self.write("grid.plan", "backend=nvidia   # the sweep's keys are read past\ncu = 16,32\n"
                   "engine_mhz=500,1000\nmemory_mhz=475,1375\nruns=elsewhere.csv\n")
        os.makedirs(os.path.join(fx, "bin"))
        # Stand-in profilers: their output is the mutant ($SP_MUTANT), a link
        # where the real one would write its file.
        # ncu's options are read as the CLI tests' stand-ins read them.
        options = os.path.join(self.src, "tests", "cli", "ncu-options.sh")
        ncu = self.write("bin/ncu", """#!/bin/sh
. %s
rm -f "$log" && ln -s "$SP_MUTANT" "$log"
exec "$@"
""" % shlex.quote(options))
        roc = self.write("bin/rocprofv3", """#!/bin/sh
dir=. name=run
while [ $# -gt 0 ]; do
  case $1 in
  -d) dir=$2; shift 2 ;;
  -o) name=$2; shift 2 ;;
  --) shift; break ;;
  *) shift ;;
  esac
done
ln -s "$SP_MUTANT" "$dir/${name}_counter_collection.csv"
exec "$@"
""")
        os.chmod(ncu, 0o755)
        os.chmod(roc, 0o755)


# ---------------------------------------------------------------------------
# The inputs of every command.  Each case: a name COMMAND:INPUT, the command
# line with {IN} where the mutant goes (a path, or the options mutated) and
# {OUT} for an output path, what kind of input it is, and its valid seed.


def cases(s):
    fx, d, ex, mo = s.fx, s.data, s.ex, s.models
    T, N, P, S = d + "/train", d + "/new", d + "/profile", d + "/static"
    h100 = mo["h100-sm"]
    synth, samples = mo["hd7970-synth"], mo["hd7970-synth-samples"]
    base = "32cu/1000/1375"
    M = fx + "/model"
    new = ["--runs", N + "/runs.csv", "--counters", N + "/counters.csv"]
    trn = ["--runs", T + "/runs.csv", "--counters", T + "/counters.csv"]
    train = ["train", "--quiet", "--base", base, "--clusters", "3", "--epochs", "20",
             "--restarts", "2", "--out", "{OUT}"]
    evaluate = ["evaluate", "--quiet", "--repeats", "1", "--clusters", "2", "--epochs", "5",
                "--restarts", "1", "--methods", "wu2015,physet,nearest"]
    predict = ["predict", "--model", M, "--target", "all", "--format", "csv"]
    dse = ["dse", "--model", M, "--json"]
    gov = ["governor", "--model", M, "--trace", fx + "/trace.csv", "--load-counters",
           "sq.valu_busy,ta.mem_busy"]
    export = ["export", "--model", M]
    grid = ["--cu", "16,32", "--engine-mhz", "500,1000", "--memory-mhz", "475,1375"]
    est = ["estimate", "--model", fx + "/static-model", "--kernel", "reduce", "--grid", "1024",
           "--block", "256"]
    imp = ["profile", "--model", h100, "--out", "{OUT}", "--import"]

    def file_cases(prefix, argv, inputs, suffix=""):
        """One case per (option, seed file) of argv: inputs maps an option
        to its valid file; the mutant replaces it."""
        out = []
        for opt, seed in inputs:
            a = list(argv)
            for o, v in inputs:
                if o != opt:
                    a += [o, v]
            out.append(dict(name="%s:%s%s" % (prefix, opt.lstrip("-"), suffix),
                            argv=a + [opt, "{IN}"], kind="file", seed=seed))
        return out

    c = []
    # The default command reads only its options.
    c.append(dict(name="(default):options", kind="args",
                  argv=["--base", base, "--target", "16cu/500/475", "--format", "csv"],
                  options=["--base", "--target", "--format"]))
    # train
    c += file_cases("train", train, [("--runs", T + "/runs.csv"), ("--counters", T + "/counters.csv")])
    c.append(dict(name="train:options", kind="args", argv=train + trn + [
        "--methods", "wu2015,physet", "--floor-kernel", "stream.copy", "--name", "m",
        "--source", "tests", "--seed", "7"],
        options=["--base", "--clusters", "--epochs", "--restarts", "--methods",
                 "--floor-kernel", "--name", "--source", "--seed", "--ignore-counter"]))
    # predict
    c += file_cases("predict", predict, [("--runs", N + "/runs.csv"), ("--counters", N + "/counters.csv")])
    c.append(dict(name="predict:model", kind="model", seed=M,
                  argv=["predict", "--model", "{IN}", "--target", "all", "--format", "csv"] + new))
    c.append(dict(name="predict:profile", kind="profile", seed=fx + "/prof",
                  argv=["predict", "--model", h100, "--profile", "{IN}", "--target", "all",
                        "--format", "csv"]))
    c.append(dict(name="predict:profile-amd", kind="profile", seed=fx + "/roc",
                  argv=["predict", "--model", fx + "/amd-model", "--profile", "{IN}",
                        "--target", "all", "--format", "json"]))
    c.append(dict(name="predict:options", kind="args", argv=[
        "predict", "--model", M, "--target", "16cu/500/475", "--format", "json",
        "--use-measured", "16cu/500/475", "--floor-w", "40", "--kernel", "fft",
        "--method", "physet", "--base", base] + new,
        options=["--target", "--format", "--use-measured", "--floor-w", "--kernel", "--method",
                 "--base", "--model", "--ignore-counter"]))
    # surfaces
    c.append(dict(name="surfaces:runs", kind="file", seed=T + "/runs.csv",
                  argv=["surfaces", "--quantity", "both", "--out", "{OUT}", "--runs", "{IN}"]))
    c.append(dict(name="surfaces:options", kind="args",
                  argv=["surfaces", "--runs", T + "/runs.csv", "--kernel", "sgemm", "--quantity",
                        "both", "--out", "{OUT}"], options=["--kernel", "--quantity"]))
    # evaluate
    c += file_cases("evaluate", evaluate, [("--runs", T + "/runs.csv"),
                                           ("--counters", T + "/counters.csv"),
                                           ("--families", fx + "/families.csv")])
    c.append(dict(name="evaluate:options", kind="args", argv=evaluate + trn + [
        "--holdout", "0.3", "--base", base, "--also-measured", "16cu/500/475",
        "--quantity", "both", "--floor-kernel", "stream.copy", "--seed", "3",
        "--train-points", "4", "--train-plan", "adaptive", "--train-batch", "2",
        "--train-target", "5", "--train-surrogate", "gp"],
        options=["--holdout", "--repeats", "--clusters", "--epochs", "--restarts", "--methods",
                 "--base", "--also-measured", "--quantity", "--floor-kernel", "--seed",
                 "--train-points", "--train-plan", "--train-batch", "--train-target",
                 "--train-surrogate"]))
    # dse
    c += file_cases("dse", dse, [("--runs", N + "/runs.csv"), ("--counters", N + "/counters.csv"),
                                 ("--weights", fx + "/weights.csv"),
                                 ("--candidates", fx + "/candidates.csv")])
    c.append(dict(name="dse:candidates4", kind="file", seed=fx + "/candidates4.csv",
                  argv=dse + new + ["--candidates", "{IN}"]))
    c.append(dict(name="dse:model", kind="model", seed=M,
                  argv=["dse", "--model", "{IN}", "--json"] + new))
    c.append(dict(name="dse:profile", kind="profile", seed=fx + "/profw",
                  argv=["dse", "--model", h100, "--profile", "{IN}"]))
    c += file_cases("dse", ["dse", "--model", synth, "--runs", samples + "/runs.csv",
                                 "--counters", samples + "/counters.csv", "--power-cap", "150",
                                 "--time-budget", "1.2"],
                    [("--weights", ex + "/weights.csv"), ("--candidates", ex + "/candidates.csv")],
                    "-docs")
    c.append(dict(name="dse:options", kind="args", argv=dse + new + [
        "--weights", fx + "/weights.csv", "--candidates", fx + "/candidates.csv",
        "--reference", "16cu/1000/1375", "--power-cap", "120", "--time-budget", "1.5",
        "--rank-by", "energy", "--grid-interp", "3", "--method", "physet",
        "--report", "{OUT}"],
        options=["--reference", "--power-cap", "--time-budget", "--rank-by", "--grid-interp",
                 "--method", "--format", "--ignore-counter"]))
    # governor
    c += file_cases("governor", gov, [("--trace", fx + "/trace.csv"), ("--runs", N + "/runs.csv"),
                                      ("--counters", N + "/counters.csv")])
    c.append(dict(name="governor:trace-base", kind="file", seed=fx + "/trace-base.csv",
                  argv=["governor", "--model", M, "--trace", "{IN}", "--load-counters",
                        "sq.valu_busy,ta.mem_busy"]))
    c.append(dict(name="governor:model", kind="model", seed=M,
                  argv=["governor", "--model", "{IN}", "--trace", fx + "/trace.csv",
                        "--load-counters", "sq.valu_busy,ta.mem_busy"] + new))
    c.append(dict(name="governor:trace-docs", kind="file", seed=ex + "/trace.csv",
                  argv=["governor", "--model", synth, "--trace", "{IN}", "--runs",
                        samples + "/runs.csv", "--counters", samples + "/counters.csv",
                        "--slowdown", "1.1", "--switch-latency-us", "20",
                        "--switch-energy-mj", "0.05"]))
    c.append(dict(name="governor:options", kind="args", argv=gov + new + [
        "--policies", "reference,best-edp,model,reactive,oracle", "--reference", base,
        "--power-cap", "200", "--slowdown", "1.2", "--switch-latency-us", "20",
        "--switch-energy-mj", "0.05", "--method", "physet", "--report", "{OUT}"],
        options=["--policies", "--reference", "--power-cap", "--slowdown", "--switch-latency-us",
                 "--switch-energy-mj", "--load-counters", "--method", "--format"]))
    # export
    c += file_cases("export", export + ["--with-measured"],
                    [("--runs", N + "/runs.csv"), ("--counters", N + "/counters.csv")])
    c.append(dict(name="export:model", kind="model", seed=M,
                  argv=["export", "--model", "{IN}", "--out", "{OUT}"] + new))
    c.append(dict(name="export:profile", kind="profile", seed=fx + "/prof",
                  argv=["export", "--model", h100, "--profile", "{IN}", "--layout", "wide"]))
    c.append(dict(name="export:options", kind="args", argv=export + new + [
        "--layout", "wide", "--grid-interp", "2", "--method", "wu2015", "--with-measured",
        "--out", "{OUT}"], options=["--layout", "--grid-interp", "--method", "--ignore-counter"]))
    # plan and complete
    c.append(dict(name="plan:runs", kind="file", seed=fx + "/partial.csv",
                  argv=["plan", "--quiet", "--batch", "3", "--runs", "{IN}"] + grid))
    c.append(dict(name="plan:grid", kind="file", seed=fx + "/grid.plan",
                  argv=["plan", "--quiet", "--status", "--runs", fx + "/partial.csv",
                        "--grid", "{IN}"]))
    c.append(dict(name="plan:options", kind="args", argv=[
        "plan", "--quiet", "--runs", fx + "/partial.csv", "--kernels", "sgemm,bfs,spmv",
        "--base", base, "--batch", "3", "--budget", "1/2", "--target-error", "5",
        "--total-budget", "20", "--surrogate", "shared", "--seed", "2"] + grid,
        options=["--cu", "--engine-mhz", "--memory-mhz", "--kernels", "--base", "--batch",
                 "--budget", "--target-error", "--total-budget", "--surrogate", "--seed"]))
    c.append(dict(name="complete:runs", kind="file", seed=fx + "/partial.csv",
                  argv=["complete", "--out", "{OUT}", "--runs", "{IN}"] + grid))
    c.append(dict(name="complete:grid", kind="file", seed=fx + "/grid.plan",
                  argv=["complete", "--runs", fx + "/partial.csv", "--grid", "{IN}"]))
    c.append(dict(name="complete:options", kind="args", argv=[
        "complete", "--runs", fx + "/partial.csv", "--kernels", "sgemm,bfs",
        "--surrogate", "gp", "--seed", "2", "--out", "{OUT}"] + grid,
        options=["--cu", "--engine-mhz", "--memory-mhz", "--kernels", "--surrogate", "--seed"]))
    # profile
    c.append(dict(name="profile:import-ncu", kind="file", seed=P + "/h100-example-ncu.csv",
                  argv=imp + ["{IN}"]))
    # The full set lacks metrics the model needs: refused, whole (exit 2).
    c.append(dict(name="profile:import-ncu-full", kind="file", seed=P + "/h100-example-full.csv",
                  argv=imp + ["{IN}"], control=2))
    c.append(dict(name="profile:import-rocprofv3", kind="file", seed=P + "/rocprofv3-counters.csv",
                  argv=["profile", "--model", fx + "/amd-model", "--out", "{OUT}", "--import",
                        "{IN}"]))
    c.append(dict(name="profile:ncu-output", kind="file", seed=P + "/h100-example-ncu.csv",
                  env="SP_MUTANT", argv=["profile", "--model", h100, "--out", "{OUT}",
                                         "--profiler", fx + "/bin/ncu", "--", "true"]))
    c.append(dict(name="profile:rocprofv3-output", kind="file", seed=P + "/rocprofv3-counters.csv",
                  env="SP_MUTANT", argv=["profile", "--model", fx + "/amd-model", "--out",
                                         "{OUT}", "--vendor", "amd", "--profiler",
                                         fx + "/bin/rocprofv3", "--", "true"]))
    c.append(dict(name="profile:model", kind="model", seed=h100,
                  argv=["profile", "--model", "{IN}", "--out", "{OUT}", "--import",
                        P + "/h100-example-ncu.csv"]))
    c.append(dict(name="profile:options", kind="args", argv=[
        "profile", "--model", h100, "--out", "{OUT}", "--base", "132cu/1980/2619",
        "--vendor", "nvidia", "--import", P + "/h100-example-ncu.csv"],
        options=["--base", "--vendor", "--model"]))
    # estimate
    for ptx in ("tiny", "app"):
        k = "tiny" if ptx == "tiny" else "reduce"
        c.append(dict(name="estimate:ptx-" + ptx, kind="file", seed=S + "/" + ptx + ".ptx",
                      argv=["estimate", "--features", "--kernel", k, "--grid", "30,2",
                            "--block", "128", "{IN}"]))
    c.append(dict(name="estimate:ptx-model", kind="file", seed=S + "/app.ptx",
                  argv=est + ["--format", "json", "{IN}"]))
    c.append(dict(name="estimate:model", kind="model", seed=fx + "/static-model",
                  argv=["estimate", "--model", "{IN}", "--kernel", "reduce", "--grid", "1024",
                        "--block", "256", S + "/app.ptx"]))
    c.append(dict(name="estimate:options", kind="args", argv=[
        "estimate", "--model", fx + "/static-model", "--kernel", "reduce", "--grid", "1024,2,1",
        "--block", "256,1", "--shared", "1024", "--format", "csv", S + "/app.ptx"],
        options=["--kernel", "--grid", "--block", "--shared", "--format"]))
    # info and models
    for name, seed in (("model", M), ("model-h100", h100), ("model-synth", synth),
                       ("model-physet-v4", d + "/physet-v4"), ("model-physet-v7", d + "/physet-v7")):
        c.append(dict(name="info:" + name, kind="model", seed=seed,
                      argv=["info", "--kernels", "--model", "{IN}"]))
    c.append(dict(name="info:options", kind="args", argv=["info", "--model", M, "--kernels"],
                  options=["--model"]))
    c.append(dict(name="models:options", kind="args", argv=["models"], options=[]))
    return c


# ---------------------------------------------------------------------------
# Running one mutant

SANITIZER = re.compile(rb"ERROR: (Address|Leak|Memory|Thread)Sanitizer|runtime error:|"
                       rb"UndefinedBehaviorSanitizer|AddressSanitizer:|==\d+==ERROR")
DOCUMENTED = {1, 2, 3, 4, 5}


def make_mutant(case, k, seed, scratch):
    """Mutant k of case in scratch; k = -1 is the control: the valid input
    as it is."""
    rng = random.Random("%s:%s:%d" % (seed, case["name"], k))
    out = os.path.join(scratch, "out")
    env_extra = {}
    what = ["control"] if k < 0 else []
    argv = [a.encode() for a in case["argv"]]
    mut_path = None
    if case["kind"] == "args":
        if k >= 0:
            argv, what = mutate_args(rng, argv, case["options"])
    else:
        base = os.path.basename(case["seed"].rstrip("/"))
        mut_path = os.path.join(scratch, base)
        if k < 0 and case["kind"] == "file":
            shutil.copy(case["seed"], mut_path)
        elif k < 0:
            shutil.copytree(case["seed"], mut_path, symlinks=True)
        elif case["kind"] == "file":
            what = write_file_mutant(rng, case["seed"], mut_path)
        else:
            what = write_dir_mutant(rng, case["seed"], mut_path, case["kind"])
        if case.get("env"):
            env_extra[case["env"]] = mut_path
    argv = [a.replace(b"{IN}", (mut_path or "").encode()).replace(b"{OUT}", out.encode())
            for a in argv]
    return argv, env_extra, what, out


def classify(rc, stdout, stderr, out, timed_out):
    """(outcome, reason): outcome ok, error, crash, hang or bad."""
    if timed_out:
        return "hang", "still running at the time limit"
    if SANITIZER.search(stderr):
        return "crash", "sanitizer report"
    if rc < 0 or rc >= 128:
        return "crash", "killed by signal %d" % (-rc if rc < 0 else rc - 128)
    if rc == 0:
        return "ok", ""
    if rc not in DOCUMENTED:
        return "bad", "exit status %d, which no --help documents" % rc
    lines = [l for l in stderr.decode("utf-8", "replace").split("\n") if l.strip()]
    errs = [l for l in lines if not l.startswith("scalepredict: note:")
            and not l.startswith("scalepredict: warning:")
            and not (rc == 1 and l.startswith("Try 'scalepredict"))]
    if len(errs) != 1 or not errs[0].startswith("scalepredict: "):
        return "bad", "error is not one line 'scalepredict: ...': %r" % lines[:4]
    if stdout:
        return "bad", "output on standard output next to the error"
    left = [p for p in [out] if os.path.lexists(p)]
    if os.path.isdir(os.path.dirname(out)):
        left += [os.path.join(os.path.dirname(out), n) for n in os.listdir(os.path.dirname(out))
                 if n.startswith("out.tmp-") or n.startswith("out.old-")]
    if left:
        return "bad", "a failed command left %s behind" % ", ".join(os.path.basename(p) for p in left)
    return "error", errs[0]


def run_one(case, k, opt, env):
    """Makes mutant k of case, runs it, and returns what became of it; a
    failure of the pass itself is a bad ending, counted, not hidden."""
    try:
        return run_mutant(case, k, opt, env)
    except Exception as e:
        return dict(case=case["name"], k=k, outcome="bad", reason="mutate.py: %r" % e, what=[],
                    secs=0, located=None, rc=None)


def run_mutant(case, k, opt, env):
    scratch = tempfile.mkdtemp(prefix="m-", dir=opt.work)
    try:
        argv, env_extra, what, out = make_mutant(case, k, opt.seed, scratch)
        e = dict(env, **env_extra)
        t0 = time.monotonic()
        p = subprocess.Popen([opt.scalepredict.encode()] + argv, cwd=scratch, env=e,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True)
        timed_out = False
        try:
            so, se = p.communicate(timeout=opt.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(p.pid, signal.SIGKILL)
            so, se = p.communicate()
        secs = time.monotonic() - t0
        outcome, reason = classify(p.returncode, so, se, out, timed_out)
        located = None
        if outcome == "error":
            located = located_in(reason, case, argv, scratch)
        if outcome in ("crash", "hang", "bad"):
            keep = os.path.join(opt.keep, "%s-%d" % (re.sub(r"[^A-Za-z0-9_.-]", "_", case["name"]), k))
            shutil.rmtree(keep, ignore_errors=True)
            os.makedirs(os.path.dirname(keep), exist_ok=True)
            subprocess.run(["cp", "-a", scratch, keep], stderr=subprocess.DEVNULL)
            # The command again, on the kept copy; the fixtures it names
            # are gone with the pass's work directory (rebuild with --only).
            def here(a):
                return shlex.quote(a.decode("utf-8", "surrogateescape").replace(scratch, keep))
            with open(os.path.join(keep, "command"), "w") as f:
                f.write("# %s, mutant %d (%s): %s\n" % (case["name"], k, " ".join(what), reason))
                f.write("".join("%s=%s " % (a, here(b.encode())) for a, b in env_extra.items()))
                f.write(" ".join(here(a) for a in [opt.scalepredict.encode()] + argv) + "\n")
            with open(os.path.join(keep, "stderr"), "wb") as f:
                f.write(se[-20000:])
        return dict(case=case["name"], k=k, outcome=outcome, reason=reason, what=what,
                    secs=secs, located=located, rc=p.returncode)
    finally:
        subprocess.run(["chmod", "-R", "u+rwx", scratch], stderr=subprocess.DEVNULL)
        shutil.rmtree(scratch, ignore_errors=True)


def located_in(line, case, argv, scratch):
    """Whether the error says where the problem is: it names the mutant (a
    path in the scratch directory), a file of the command line (as a path
    or a FILE:LINE), or, for an option's value, the option or its field."""
    if case["kind"] == "args" or scratch in line:
        return True
    for a in argv:
        base = os.path.basename(a.decode("utf-8", "replace").rstrip("/"))
        if "/" in a.decode("utf-8", "replace") and base and re.search(
                r"(^|[\s'/])%s($|[\s':/])" % re.escape(base), line):
            return True
    return False


# ---------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scalepredict", required=True)
    ap.add_argument("--srcdir", required=True)
    ap.add_argument("-n", type=int, default=30)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--only", default="")
    ap.add_argument("--keep", default="mutate-failures")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--table", help="also write the tables (Markdown) to this file")
    ap.add_argument("--log", help="write every run's outcome to this file, one JSON object a line")
    opt = ap.parse_args()
    opt.scalepredict = os.path.abspath(opt.scalepredict)
    opt.keep = os.path.abspath(opt.keep)
    if not os.access(opt.scalepredict, os.X_OK):
        print("mutate: %s is not a program" % opt.scalepredict, file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="sp-mutate-")
    opt.work = work
    env = dict(os.environ)
    supp = os.path.join(os.path.abspath(opt.srcdir), "tests", "sanitize", "lsan.supp")
    # A huge allocation fails (the tool must say so), a process that grows
    # past 2 GiB is stopped with a report (a crash: no input may need that).
    env["ASAN_OPTIONS"] = ("detect_leaks=1:abort_on_error=1:allocator_may_return_null=1:"
                           "max_allocation_size_mb=1024:hard_rss_limit_mb=2048:"
                           "detect_stack_use_after_return=1:handle_abort=1")
    env["LSAN_OPTIONS"] = "print_suppressions=0:suppressions=" + supp
    env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    env["LC_ALL"] = "C"
    try:
        return run_pass(opt, env)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_pass(opt, env):
    try:
        setup = Setup(opt.scalepredict, os.path.abspath(opt.srcdir), opt.work, env)
        all_cases = cases(setup)
        if opt.list:
            for c in all_cases:
                print(c["name"])
            return 0
        setup.build()
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        print("mutate: %s" % e, file=sys.stderr)
        return 2
    todo = [c for c in all_cases if opt.only in c["name"]]
    t0 = time.monotonic()
    results = []
    # Each input as it is first: a control that does not end as it
    # should means the fixtures, not the tool, are wrong.
    with concurrent.futures.ThreadPoolExecutor(opt.jobs) as pool:
        controls = list(pool.map(lambda c: run_one(c, -1, opt, env), todo))
    wrong = [(c, r) for c, r in zip(todo, controls) if r["rc"] != c.get("control", 0)]
    for c, r in wrong:
        print("mutate: %s: the valid input ends with exit status %s, not %d: %s" % (
            c["name"], r["rc"], c.get("control", 0), r["reason"][:300]), file=sys.stderr)
    if wrong:
        return 2
    with concurrent.futures.ThreadPoolExecutor(opt.jobs) as pool:
        futs = [pool.submit(run_one, c, k, opt, env) for c in todo for k in range(opt.n)]
        for f in concurrent.futures.as_completed(futs):
            r = f.result()
            results.append(r)
            if len(results) % 1000 == 0:
                print("mutate: %d of %d runs (%.0f s)" % (len(results), len(futs),
                                                        time.monotonic() - t0),
                      file=sys.stderr, flush=True)
            if r["outcome"] in ("crash", "hang", "bad"):
                print("mutate: %s mutant %d (%s): %s: %s" % (
                    r["case"], r["k"], " ".join(r["what"])[:120], r["outcome"], r["reason"][:300]),
                    file=sys.stderr, flush=True)
    if opt.log:
        with open(opt.log, "w") as f:
            for r in sorted(results, key=lambda r: (r["case"], r["k"])):
                f.write(json.dumps(r) + "\n")
    return report(todo, results, time.monotonic() - t0, opt)


COLUMNS = ("n", "ok", "located", "unlocated", "crash", "hang", "bad")
HEADER = "mutants | ok | located error | other error | crash | hang | bad | run time"


def tally(rs):
    n = dict((k, 0) for k in COLUMNS)
    n["n"], n["secs"] = len(rs), sum(r["secs"] for r in rs)
    for r in rs:
        n["located" if r["outcome"] == "error" and r["located"] else
          "unlocated" if r["outcome"] == "error" else r["outcome"]] += 1
    return n


def row(first, n):
    return "| %s | %s | %.0f s |" % (first, " | ".join(str(n[k]) for k in COLUMNS), n["secs"])


def report(todo, results, secs, opt):
    """The outcomes per input and per command (Markdown tables) and a
    summary line; 1 when any run ended badly."""
    cols = HEADER.count("|") + 2
    by_input = ["| input | " + HEADER + " |", "|---" * cols + "|"]
    for c in todo:
        by_input.append(row(c["name"], tally([r for r in results if r["case"] == c["name"]])))
    commands = []
    for c in todo:
        if c["name"].split(":")[0] not in commands:
            commands.append(c["name"].split(":")[0])
    by_command = ["| command | inputs | " + HEADER + " |", "|---" * (cols + 1) + "|"]
    for cmd in commands:
        names = [c["name"] for c in todo if c["name"].split(":")[0] == cmd]
        inputs = ", ".join(n.split(":", 1)[1] for n in names)
        by_command.append(row("%s | %s" % (cmd, inputs),
                              tally([r for r in results if r["case"] in names])))
    tot = tally(results)
    by_command.append(row("all | %d inputs" % len(todo), tot))
    print("\n".join(by_input + [""] + by_command))
    if opt.table:
        with open(opt.table, "w") as f:
            f.write("\n".join(by_command + [""] + by_input) + "\n")
    failed = tot["crash"] + tot["hang"] + tot["bad"]
    if failed:
        print("mutate: the failing mutants and their commands are in %s" % opt.keep)
    slowest = max(results, key=lambda r: r["secs"]) if results else dict(secs=0, case="-")
    print("mutate: %d runs of %d inputs of %d command%s in %.0f s (seed %s, %d mutants each): "
          "crashes %d, hangs %d, bad endings %d; slowest run %.1f s (%s)" % (
              tot["n"], len(todo), len(commands), "" if len(commands) == 1 else "s", secs,
              opt.seed, opt.n, tot["crash"],
              tot["hang"], tot["bad"], slowest["secs"], slowest["case"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
