#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""score-sets.py: per retired set, physet's errors and 90% interval coverage
in an `evaluate --families SETS --report DIR --report-predictions` run over
h100-train, SETS being by-set.sh's output (each retired set held out whole;
the core suite's split is not counted).

    python3 training/data/h100-train/score-sets.py SETS.csv DIR/predictions.csv

Prints one line per set and one for all of them: kernels, time MAPE, time
coverage, power MAPE, power coverage (percent, over physet's predictions,
which evaluate makes at every configuration but the base)."""
import csv
import sys


def main(sets_path, predictions_path):
    with open(sets_path, newline="") as f:
        sets = {r["kernel"]: r["family"] for r in csv.DictReader(f) if r["family"] != "suite"}
    acc = {}
    with open(predictions_path, newline="") as f:
        for r in csv.DictReader(f):
            s = sets.get(r["kernel"])
            if s is None or r["method"] != "physet":
                continue
            for key in (s, "all"):
                a = acc.setdefault(key, {"kernels": set(), "time": [], "power": []})
                a["kernels"].add(r["kernel"])
                inside = None
                if r["lo90"] and r["hi90"]:
                    inside = float(r["lo90"]) <= float(r["measured"]) <= float(r["hi90"])
                a[r["quantity"]].append((float(r["ape_pct"]), inside))
    order = sorted((k for k in acc if k != "all"), key=lambda s: int(s[1:])) + ["all"]
    print("%-5s %7s %9s %9s %10s %9s" % ("set", "kernels", "time_mape", "time_cov", "power_mape", "power_cov"))
    for s in order:
        a = acc[s]
        cells = []
        for q in ("time", "power"):
            v = a[q]
            mape = sum(e for e, _ in v) / len(v) if v else float("nan")
            c = [i for _, i in v if i is not None]
            cells.append((mape, 100.0 * sum(c) / len(c) if c else float("nan")))
        print("%-5s %7d %8.2f%% %8.1f%% %9.2f%% %8.1f%%" % (s, len(a["kernels"]), cells[0][0], cells[0][1], cells[1][0], cells[1][1]))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: score-sets.py SETS.csv PREDICTIONS.csv")
    main(sys.argv[1], sys.argv[2])
