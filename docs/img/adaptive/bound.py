#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# bound.py: how close can a campaign of about 3 measured clocks per V100
# kernel come to the exhaustive sweep?  docs/sweeps.md, "The V100 at 3x:
# what the data allow".  Replays, through the scalepredict CLI, one 80/20
# split of the V100 set's kernels (seeded as anchors.py's) and prints one
# line per plan: the measured points, the completions' time MAPE where
# there are completions, and the held-out time MAPE of physet trained on
# the resulting surfaces (held-out kernels predicted from their base,
# scored against every measured clock).  The plans:
#
#   full           every training kernel at all 10 clocks (the reference)
#   oracle-lr      each training kernel at the base and 2 clocks; the other
#                  7 completed from rank-2 factors of the log time ratios
#                  fitted to EVERY training kernel's full surface: knowledge
#                  no campaign has, so a bound on what low-rank completion
#                  can do with 3 points per kernel
#   oracle-nn      likewise, completed from the training kernel whose log
#                  ratios at the 2 clocks are nearest (itself left out)
#   anchors-lr     what a campaign can do: 6 random kernels (the anchors)
#                  in full, every other at the base and 2 clocks chosen by a
#                  D-optimal design on the anchors' rank-2 factors, then
#                  completed from those factors (3.0x fewer points)
#   bases-novelty  every kernel at its base, then the kernel physet (trained
#                  on the kernels measured so far) finds most novel measured
#                  in full, two per round, up to 3x fewer points; physet is
#                  trained on the kernels measured in full alone
#   bases-random   the same number of kernels in full, drawn at random
#   random-only    a third of the kernels in full, the others unmeasured
#
#   python3 docs/img/adaptive/bound.py SEED [DESIGN]
#
# It first prints how much of the set's log time ratios (all kernels) the
# mean and 1-3 factors leave unexplained.
# DESIGN: the oracle plans' two clocks, e.g. 502,1237 (default 600,1380).
# Environment: SP (the scalepredict binary, default src/scalepredict),
# SP_V100 (default ../shared/datasets/v100-dvfs).  Needs numpy
# (Debian: python3-numpy).
import atexit, csv, math, os, random, shutil, subprocess, sys, tempfile
import numpy as np

SP = os.environ.get('SP', 'src/scalepredict')
D = os.environ.get('SP_V100', '../shared/datasets/v100-dvfs')
BASE = '80cu/802/877'
seed = int(sys.argv[1])
design_mhz = (sys.argv[2] if len(sys.argv) > 2 else '600,1380').split(',')
W = tempfile.mkdtemp(prefix='sp-bound-')
atexit.register(shutil.rmtree, W, True)

runs = list(csv.DictReader(open(D + '/runs.csv')))
header = list(runs[0].keys())
counter_lines = open(D + '/counters.csv').read().splitlines()


def cfg(r):
    return r['cu'] + 'cu/' + r['engine_mhz'] + '/' + r['memory_mhz']


kernels = sorted(set(r['kernel'] for r in runs))
shuffled = kernels[:]
random.Random(seed).shuffle(shuffled)
test = set(shuffled[:len(kernels) // 5])
train = shuffled[len(kernels) // 5:]
configs = sorted(set(cfg(r) for r in runs), key=lambda c: int(c.split('/')[1]))
G = len(configs)
bi = configs.index(BASE)
measured = {(r['kernel'], cfg(r)): r for r in runs}
# log time ratio to the kernel's own base, per configuration
ratio = {k: np.array([math.log(float(measured[(k, c)]['time_ms']) /
                               float(measured[(k, BASE)]['time_ms']))
                      for c in configs]) for k in kernels}


def write_runs(path, rows):
    with open(path, 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=header)
        w.writeheader()
        w.writerows(rows)


def write_counters(path, kset):
    with open(path, 'w') as f:
        f.write(counter_lines[0] + '\n')
        for line in counter_lines[1:]:
            if next(csv.reader([line]))[0] in kset:
                f.write(line + '\n')


def sp(*args):
    r = subprocess.run([SP] + list(args), capture_output=True, text=True)
    if r.returncode:
        sys.exit('bound.py: scalepredict %s failed:\n%s' % (args[0], r.stderr))
    return r.stdout


def train_model(rows, kset, out):
    write_runs(W + '/r.csv', rows)
    write_counters(W + '/c.csv', kset)
    sp('train', '--quiet', '--runs', W + '/r.csv', '--counters', W + '/c.csv',
       '--base', BASE, '--methods', 'physet', '--out', out)


def predict(model, kset):
    write_runs(W + '/p.csv', [r for r in runs if r['kernel'] in kset and cfg(r) == BASE])
    write_counters(W + '/pc.csv', kset)
    out = sp('predict', '--model', model, '--runs', W + '/p.csv', '--counters',
             W + '/pc.csv', '--target', 'all', '--format', 'csv', '--method', 'physet')
    return list(csv.DictReader(out.splitlines()))


def heldout(rows, kset):
    train_model(rows, kset, W + '/m')
    e = [abs(float(p['time_ms']) / float(measured[(p['kernel'], p['target'])]['time_ms']) - 1)
         for p in predict(W + '/m', test) if p['target'] != BASE]
    return 100 * sum(e) / len(e)


def full_rows(kset):
    return [r for r in runs if r['kernel'] in kset]


def completed_rows(surface):
    """surface: kernel -> log ratios; the rows with time = base x exp(ratio)."""
    rows = []
    for r in runs:
        if r['kernel'] in surface:
            x = dict(r)
            bt = float(measured[(r['kernel'], BASE)]['time_ms'])
            x['time_ms'] = '%.6g' % (bt * math.exp(surface[r['kernel']][configs.index(cfg(r))]))
            rows.append(x)
    return rows


def completion_mape(surface, design):
    e = [abs(math.exp(surface[k][j] - ratio[k][j]) - 1) for k in surface
         for j in range(G) if j != bi and j not in design]
    return 100 * sum(e) / len(e) if e else 0.0


def factors(kset, rank):
    X = np.array([ratio[k] for k in kset])
    mu = X.mean(0)
    _, _, vt = np.linalg.svd(X - mu, full_matrices=False)
    return mu, vt[:rank].T


def lowrank_complete(k, mu, V, design):
    M = V[design]
    u = np.linalg.solve(M.T @ M + 1e-9 * np.eye(V.shape[1]), M.T @ (ratio[k][design] - mu[design]))
    c = mu + V @ u
    c[design] = ratio[k][design]
    c[bi] = 0.0
    return c


def d_optimal(V, count):
    chosen = []
    for _ in range(count):
        best = max((j for j in range(G) if j != bi and j not in chosen),
                   key=lambda j: np.linalg.det(V[chosen + [j]].T @ V[chosen + [j]]
                                               + 1e-9 * np.eye(V.shape[1])))
        chosen.append(best)
    return chosen


def report(plan, points, mape, completion=None):
    print('seed %d  %-13s  points %4d of %d (%.2fx fewer)  completion %s  held-out %.2f'
          % (seed, plan, points, len(train) * G, len(train) * G / points,
             '%.2f' % completion if completion is not None else '   -', mape), flush=True)


# how close to rank 2 the whole set is (every kernel: a description of
# the data, not a plan)
X = np.array([ratio[k] for k in kernels])
U, S, Vt = np.linalg.svd(X - X.mean(0), full_matrices=False)
for rank in (1, 2, 3):
    R = X - X.mean(0) - (U[:, :rank] * S[:rank]) @ Vt[:rank]
    print('all %d kernels: the mean plus %d factors leave %.2f%% (mean |ratio error|)'
          % (len(kernels), rank, 100 * float(np.mean(np.abs(np.exp(R) - 1)))))
budget = len(train) * G / 3.0
report('full', len(train) * G, heldout(full_rows(train), set(train)))

design = [configs.index('80cu/%s/877' % m) for m in design_mhz]
mu, V = factors(train, 2)
surface = {k: lowrank_complete(k, mu, V, design) for k in train}
report('oracle-lr', len(train) * 3, heldout(completed_rows(surface), set(train)),
       completion_mape(surface, design))
surface = {}
for k in train:
    near = min((q for q in train if q != k),
               key=lambda q: float(np.sum((ratio[q][design] - ratio[k][design]) ** 2)))
    surface[k] = ratio[near].copy()
    surface[k][design] = ratio[k][design]
    surface[k][bi] = 0.0
report('oracle-nn', len(train) * 3, heldout(completed_rows(surface), set(train)),
       completion_mape(surface, design))

rng = random.Random(seed + 100)
order = train[:]
rng.shuffle(order)
n_anchors = int((budget - len(train) * 3) // (G - 3))
anchors = order[:n_anchors]
mu, V = factors(anchors, 2)
design = d_optimal(V, 2)
surface = {k: (ratio[k] if k in anchors else lowrank_complete(k, mu, V, design)) for k in train}
others = {k: surface[k] for k in train if k not in anchors}
report('anchors-lr', n_anchors * G + (len(train) - n_anchors) * 3,
       heldout(completed_rows(surface), set(train)), completion_mape(others, design))

n_whole = int((budget - len(train)) // (G - 1))
whole = order[:4]
while len(whole) < n_whole:
    train_model(full_rows(whole), set(whole), W + '/a')
    novelty = {}
    for p in predict(W + '/a', [k for k in train if k not in whole]):
        novelty[p['kernel']] = float(p['novelty'])
    whole += sorted(novelty, key=lambda k: -novelty[k])[:min(2, n_whole - len(whole))]
points = len(train) + n_whole * (G - 1)
report('bases-novelty', points, heldout(full_rows(whole), set(whole)))
whole = order[:n_whole]
report('bases-random', points, heldout(full_rows(whole), set(whole)))
n_only = int(budget // G)
report('random-only', n_only * G, heldout(full_rows(order[:n_only]), set(order[:n_only])))
